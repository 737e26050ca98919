//! Facts the session reports: for the GUI, logs, and `rochade track`'s
//! one-JSON-object-per-line output.

use serde::Serialize;

use super::{QuestionKind, Source};
use crate::chess::{Claim, EndReason};

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum Notice {
    /// A move was executed and written on the scoresheet.
    Move {
        /// 1-based ply number.
        ply: usize,
        san: String,
        /// Written as its UCI string ("e2e4") in logs and JSON.
        #[serde(rename = "uci", serialize_with = "uci")]
        mv: shakmaty::Move,
        /// Written form of the announcement.
        announcement: String,
        spoken: String,
        source: Source,
    },
    /// A piece of the side to move left its hole (E.2.2).
    Touched {
        square: String,
        piece: String,
    },
    /// Strict mode: a touched piece must be moved (Art. 4.3/4.4).
    TouchMove {
        square: String,
        piece: String,
    },
    /// The peg-board differs from the game and matches no legal move.
    Mismatch {
        missing: Vec<String>,
        extra: Vec<String>,
    },
    /// The peg-board matches the game again.
    InSync,
    /// A pawn reached the last rank; the piece is not known yet.
    Promotion {
        square: String,
    },
    /// The board was put back to before the last move: confirm a takeback.
    TakebackRequested,
    /// The session asks a question and waits for Confirm / Cancel.
    Asked {
        question: QuestionKind,
    },
    /// The pending question was confirmed or cancelled.
    Answered {
        question: QuestionKind,
        confirmed: bool,
    },
    /// The arbiter's retrace went back to `ply` moves, removing these
    /// (none: an undone retrace put them back).
    Retraced {
        ply: usize,
        removed: Vec<String>,
    },
    /// A move was taken back.
    Takeback {
        san: String,
    },
    /// The board link changed state: "connected", "lost", "restored".
    Link {
        state: String,
        detail: String,
    },
    /// The sighted player's e-board: its link ("connected", "lost",
    /// "restored", "lines_dropped"), "ident", "orientation", "mismatch"
    /// (the squares that differ) and "in_sync".
    SightedBoard {
        state: String,
        detail: String,
    },
    /// The board reported a fault or identified itself.
    BoardInfo {
        text: String,
    },
    /// The board is turned round; squares are mirrored from now on.
    BoardTurned,
    /// The tracker decided how the board lies (once per game): turned
    /// round or not.
    Orientation {
        turned: bool,
    },
    /// No promotion piece was chosen in time, or the opponent started his
    /// move first: the default piece was played (correctable until the
    /// opponent's move is executed).
    PromotionDefaulted {
        uci: String,
    },
    /// The board showed a position these moves reach (a missed snapshot);
    /// the tracker took them over, each also as a `move`.
    Resynchronised {
        moves: Vec<String>,
    },
    /// The board shows a move's result, but `square` was never seen empty
    /// (a stuck sensor?): the move was not executed.
    SensorSuspect {
        square: String,
        uci: String,
    },
    /// The sensor under `square` is taken as stuck: it always reports a
    /// peg (`occupied`) or never one; the board is read without it.
    SensorStuck {
        square: String,
        occupied: bool,
        /// What is said, written ("Sensor Anna drei meldet immer besetzt ...").
        text: String,
    },
    /// A sensor taken as stuck reports what the game expects again.
    SensorRecovered {
        square: String,
    },
    DrawOffer {
        side: String,
    },
    Claim {
        claim: Claim,
        correct: bool,
    },
    GameOver {
        result: String,
        reason: EndReason,
    },
    NewGame,
    /// The practice engine: "ready", "failed" or "review", with details.
    Engine {
        state: String,
        detail: String,
    },
    /// Input that was not a legal move.
    Rejected {
        input: String,
        reason: String,
    },
    /// A puzzle was set up: `fen` is the position the player solves from
    /// (after the opponent's first move, which follows as a `move`).
    PuzzleStart {
        id: String,
        fen: String,
        rating: u32,
        themes: Vec<String>,
    },
    /// The player's move is not the solution: said and not recorded.
    PuzzleWrong {
        uci: String,
    },
    /// The puzzle is over: solved (without a wrong move or the second
    /// hint) or not; the whole line; the player's rating now.
    PuzzleDone {
        id: String,
        solved: bool,
        line: Vec<String>,
        rating: u32,
    },
}

impl Notice {
    /// The `mismatch` notice for a board that differs from the game.
    pub fn mismatch(m: &crate::board::Mismatch) -> Notice {
        let (missing, extra) = mismatch_squares(m);
        Notice::Mismatch { missing, extra }
    }
}

/// The squares where a board lacks a piece, and those where it has one too
/// many (a move not carried out included).
pub fn mismatch_squares(m: &crate::board::Mismatch) -> (Vec<String>, Vec<String>) {
    (
        m.missing.iter().map(|(sq, _)| sq.to_string()).collect(),
        m.expected_empty
            .iter()
            .chain(&m.extra)
            .map(|sq| sq.to_string())
            .collect(),
    )
}

fn uci<S: serde::Serializer>(mv: &shakmaty::Move, s: S) -> Result<S::Ok, S::Error> {
    s.collect_str(&mv.to_uci(shakmaty::CastlingMode::Standard))
}

/// "white" or "black", as a notice names a side.
pub(super) fn color_name(color: shakmaty::Color) -> String {
    match color {
        shakmaty::Color::White => "white".into(),
        shakmaty::Color::Black => "black".into(),
    }
}
