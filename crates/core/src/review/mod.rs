//! "Learn from your games": the review of a whole game from one engine
//! line per position, searched at a fixed depth by the shell.
//!
//! Per move: the evaluation after it (in words, [`words`]), the time the
//! mover spent on it (from the PGN's `[%clk]`) and, for the player's
//! moves, Lichess's judgement ([`judge`]: inaccuracy, mistake, blunder
//! from the drop in winning chances) with the loss in centipawns, the
//! engine's best move and its line. Each mistake becomes an
//! [`Exercise`]: the position again, "find a better move", checked like a
//! puzzle.
//!
//! Pure: the engine's lines come in as values ([`crate::engine::Line`],
//! scores from the side to move's view, one per position: before each
//! move and after the last).

mod exercise;
pub mod judge;
mod words;

pub use exercise::{ACCEPT_MARGIN, Exercise, Verdict};
pub use judge::Kind;
pub use words::{
    LINE_PLIES, exercise_hint, exercise_position, exercise_prompt, kind_words, line_words,
    move_row, solution_words, summary_words, verdict_words,
};

use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Color, Move, Position};

use crate::chess::{GameRecord, Tags};
use crate::clock::TimeControl;
use crate::engine::{Line, Score};

/// The default depth of the review's searches (plies).
pub const DEFAULT_DEPTH: u8 = 14;

/// One move of the reviewed game.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveReview {
    /// 0-based index of the move in the record (ply - 1).
    pub index: usize,
    pub mover: Color,
    pub played: Move,
    /// The evaluation before the move, from the mover's view.
    pub before: Score,
    /// The evaluation after the move, from the mover's view.
    pub after: Score,
    /// The engine's line after the move (the opponent's best reply first).
    pub after_line: Line,
    /// The time the mover spent, from `[%clk]`; None without readings.
    pub spent_ms: Option<u64>,
    /// The player's move that lost enough to be judged.
    pub mistake: Option<Mistake>,
}

impl MoveReview {
    /// The ply, 1-based, as `--json` gives it.
    pub fn ply(&self) -> usize {
        self.index + 1
    }
}

/// A move of the player judged an inaccuracy, mistake or blunder.
#[derive(Clone, Debug, PartialEq)]
pub struct Mistake {
    pub kind: Kind,
    /// The drop in the mover's evaluation, in centipawns (clamped to ±1000).
    pub loss_cp: i32,
    /// The drop in winning chances (0 to 2).
    pub drop: f64,
    /// The engine's best move in the position before.
    pub best: Move,
    /// The engine's line from the position before, its best move first.
    pub line: Vec<UciMove>,
}

/// The review of a game, every move in order.
#[derive(Clone, Debug, PartialEq)]
pub struct GameReview {
    pub side: Color,
    pub moves: Vec<MoveReview>,
}

/// Why no review could be made.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ReviewError {
    #[error("the game has no moves")]
    NoMoves,
    #[error("{got} engine lines for {moves} moves (one per position, {want}, are needed)")]
    Lines {
        got: usize,
        moves: usize,
        want: usize,
    },
}

impl GameReview {
    /// The review of `record` for the player of `side`. `lines[i]` is the
    /// engine's line in the position before move `i`, `lines[moves]` the
    /// one after the last (a mate on the board: `Score::Mate(0)`, the
    /// engine has no line).
    pub fn new(
        record: &GameRecord,
        lines: &[Line],
        side: Color,
    ) -> Result<GameReview, ReviewError> {
        let count = record.moves().len();
        if count == 0 {
            return Err(ReviewError::NoMoves);
        }
        if lines.len() != count + 1 {
            return Err(ReviewError::Lines {
                got: lines.len(),
                moves: count,
                want: count + 1,
            });
        }
        let spent = time_spent(record);
        let moves = record
            .moves()
            .iter()
            .enumerate()
            .map(|(i, recorded)| {
                let before_pos = record.position_before(i);
                let mover = before_pos.turn();
                let (now, next) = (&lines[i], &lines[i + 1]);
                let mistake = (mover == side)
                    .then(|| mistake_of(before_pos, recorded.mv, now, next))
                    .flatten();
                MoveReview {
                    index: i,
                    mover,
                    played: recorded.mv,
                    before: now.score,
                    after: judge::mover_view(next.score),
                    after_line: next.clone(),
                    spent_ms: spent[i],
                    mistake,
                }
            })
            .collect();
        Ok(GameReview { side, moves })
    }

    /// The player's mistakes, in the order they were played.
    pub fn mistakes(&self) -> impl Iterator<Item = (&MoveReview, &Mistake)> {
        self.moves
            .iter()
            .filter_map(|m| m.mistake.as_ref().map(|k| (m, k)))
    }

    /// The exercise of each mistake, in game order.
    pub fn exercises(&self, record: &GameRecord) -> Vec<Exercise> {
        self.mistakes()
            .map(|(m, k)| Exercise {
                index: m.index,
                position: record.position_before(m.index).clone(),
                played: m.played,
                best: k.best,
                best_score: m.before,
                line: k.line.clone(),
            })
            .collect()
    }
}

/// The judgement of the move `played` in `before_pos`, from the lines
/// before (`now`) and after (`next`) it; None when it lost too little, or
/// is the engine's own choice (a deeper look may score it lower, but it is
/// no mistake to find a better move for).
fn mistake_of(
    before_pos: &shakmaty::Chess,
    played: Move,
    now: &Line,
    next: &Line,
) -> Option<Mistake> {
    let best = now.pv.first().and_then(|u| u.to_move(before_pos).ok())?;
    if best == played {
        return None;
    }
    let drop = judge::drop_of(now.score, next.score);
    let kind = judge::judge(drop)?;
    Some(Mistake {
        kind,
        loss_cp: judge::loss_cp(now.score, next.score),
        drop,
        best,
        line: now.pv.clone(),
    })
}

/// The time each move took its mover, from the `[%clk]` readings: the
/// mover's previous reading (or the starting time of the game's
/// `TimeControl`) plus the increment, minus this reading. None where a
/// reading is missing or the clock went up by more than the increment
/// (a new period: its time is not known here).
pub fn time_spent(record: &GameRecord) -> Vec<Option<u64>> {
    let control = record
        .tags
        .time_control
        .as_deref()
        .and_then(|t| t.parse::<TimeControl>().ok());
    let first = control.as_ref().and_then(|c| c.periods().first().copied());
    let start_ms = first.map(|p| p.seconds * 1000);
    let increment_ms = first.map_or(0, |p| p.increment_secs * 1000);
    let moves = record.moves();
    (0..moves.len())
        .map(|i| {
            let now = moves[i].clock_ms?;
            let before = if i >= 2 {
                moves[i - 2].clock_ms?
            } else {
                start_ms?
            };
            (before + increment_ms).checked_sub(now)
        })
        .collect()
}

/// The player's side as the game's tags say it, for the app's own games:
/// `rochade play` names the player "Player" and the engine "Computer
/// level N". None when the tags do not tell.
pub fn player_side(tags: &Tags) -> Option<Color> {
    let is_computer = |name: &str| name.starts_with("Computer level");
    let is_player = |name: &str| name == "Player";
    match (tags.white.trim(), tags.black.trim()) {
        (w, b) if is_player(w) || is_computer(b) => Some(Color::White),
        (w, b) if is_player(b) || is_computer(w) => Some(Color::Black),
        _ => None,
    }
}

/// A move as UCI text (`e2e4`, castling king to rook's square as UCI
/// writes it: `e1g1`).
pub fn uci(mv: Move) -> String {
    mv.to_uci(CastlingMode::Standard).to_string()
}

#[cfg(test)]
mod tests;
