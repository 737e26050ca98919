//! The game record: what a scoresheet holds, plus how the game ended.

use serde::Serialize;
use shakmaty::fen::Fen;
use shakmaty::san::{San, SanPlus};
use shakmaty::zobrist::Zobrist64;
use shakmaty::{CastlingMode, Chess, Color, EnPassantMode, KnownOutcome, Move, Position};

/// The PGN header of a game: the seven-tag roster plus what a tournament
/// scoresheet also carries.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct Tags {
    pub event: String,
    pub site: String,
    /// `YYYY.MM.DD`, `?` for unknown parts, as in PGN.
    pub date: String,
    pub round: String,
    pub white: String,
    pub black: String,
    /// PGN `TimeControl` syntax, e.g. `5400+30`.
    pub time_control: Option<String>,
    /// Any further tags, in order (e.g. `Board`, `Annotator`).
    pub extra: Vec<(String, String)>,
}

impl Tags {
    /// No part of the date is known (`????.??.??`, or empty).
    pub fn date_unknown(&self) -> bool {
        self.date.chars().all(|c| c == '?' || c == '.')
    }
}

impl Default for Tags {
    fn default() -> Tags {
        Tags {
            event: "?".into(),
            site: "?".into(),
            date: "????.??.??".into(),
            round: "?".into(),
            white: "?".into(),
            black: "?".into(),
            time_control: None,
            extra: Vec::new(),
        }
    }
}

/// One move as it stands on the scoresheet.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordedMove {
    pub mv: Move,
    /// English SAN with check/mate suffix; localise with [`super::Letters`].
    pub san: SanPlus,
    /// When the move was executed, in milliseconds since the game started.
    pub at_ms: Option<u64>,
    /// The mover's remaining clock time right after the move (PGN `%clk`).
    pub clock_ms: Option<u64>,
    /// The mover offered a draw with this move: "(=)" in Appendix C.
    pub draw_offer: bool,
}

/// One line of the scoresheet: the move number with White's and Black's
/// move. White's is missing in the first row of a game that starts with
/// Black to move, Black's in the last row while Black has not moved.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ScoresheetRow<'a> {
    pub number: u32,
    pub white: Option<&'a RecordedMove>,
    pub black: Option<&'a RecordedMove>,
}

impl RecordedMove {
    pub fn san_string(&self) -> String {
        self.san.to_string()
    }
}

/// Why a game ended. Its code (`agreed_draw`, the save file's `EndReason`
/// tag) is the snake-case name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
#[derive(strum::IntoStaticStr, strum::EnumString, strum::VariantArray)]
#[strum(serialize_all = "snake_case")]
pub enum EndReason {
    Checkmate,
    Stalemate,
    Resignation,
    AgreedDraw,
    /// No sequence of legal moves can lead to mate (Art. 5.2b / 9.6).
    DeadPosition,
    FlagFall,
    /// The flag fell but the opponent cannot mate by any series of legal
    /// moves: a draw (Art. 6.9).
    FlagFallOpponentCannotMate,
    /// Automatic draw (Art. 9.6.1).
    FivefoldRepetition,
    /// Automatic draw (Art. 9.6.2).
    SeventyFiveMoves,
    /// A correct claim (Art. 9.2).
    ThreefoldRepetition,
    /// A correct claim (Art. 9.3).
    FiftyMoves,
    /// A result read from a file that does not say why the game ended.
    ResultAsRecorded,
}

impl EndReason {
    /// The language-pack phrase key naming this reason.
    pub fn phrase_key(self) -> &'static str {
        match self {
            EndReason::Checkmate => "end_checkmate",
            EndReason::Stalemate => "end_stalemate",
            EndReason::Resignation => "end_resignation",
            EndReason::AgreedDraw => "end_agreed_draw",
            EndReason::DeadPosition => "end_dead_position",
            EndReason::FlagFall => "end_flag_fall",
            EndReason::FlagFallOpponentCannotMate => "end_flag_fall_no_mate",
            EndReason::FivefoldRepetition => "end_fivefold",
            EndReason::SeventyFiveMoves => "end_seventy_five",
            EndReason::ThreefoldRepetition => "end_threefold",
            EndReason::FiftyMoves => "end_fifty",
            EndReason::ResultAsRecorded => "end_as_recorded",
        }
    }
}

/// How the game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameEnd {
    pub outcome: KnownOutcome,
    pub reason: EndReason,
    /// The side the reason is about: who resigned, whose flag fell.
    pub side: Option<Color>,
}

impl GameEnd {
    /// `1-0`, `0-1` or `1/2-1/2`.
    pub fn result_str(&self) -> &'static str {
        match self.outcome {
            KnownOutcome::Decisive {
                winner: Color::White,
            } => "1-0",
            KnownOutcome::Decisive {
                winner: Color::Black,
            } => "0-1",
            KnownOutcome::Draw => "1/2-1/2",
        }
    }
}

/// A draw claim a player can make (Art. 9.2, 9.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Claim {
    ThreefoldRepetition,
    FiftyMoves,
}

/// The arbiter's verdict on a claim.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClaimVerdict {
    pub claim: Claim,
    pub correct: bool,
}

/// Why a move could not be played.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PlayError {
    #[error("illegal move")]
    Illegal,
    #[error("the game is over ({})", .0.result_str())]
    GameOver(GameEnd),
    #[error("'{0}' is not a move in SAN")]
    NotSan(String),
}

/// Why a FEN does not give a game.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FenError {
    #[error("bad FEN '{fen}': {reason}")]
    Unreadable { fen: String, reason: String },
    #[error("impossible position '{fen}': {reason}")]
    Impossible { fen: String, reason: String },
}

/// For the callers that report errors as text.
impl From<FenError> for String {
    fn from(e: FenError) -> String {
        e.to_string()
    }
}

/// The scoresheet of one game. Positions are kept for every ply so that
/// repetition checks and takebacks are exact and cheap.
#[derive(Clone, Debug)]
pub struct GameRecord {
    pub tags: Tags,
    /// Positions before each move: `positions[0]` is the start, the last is
    /// the current position. Always `moves.len() + 1` long.
    positions: Vec<Chess>,
    hashes: Vec<Zobrist64>,
    moves: Vec<RecordedMove>,
    end: Option<GameEnd>,
    /// A draw offer made before the offerer's move: it is written with that
    /// move (Art. 9.1.2.2 wants it after a move; we do not lose it either way).
    pending_offer: Option<Color>,
}

impl Default for GameRecord {
    fn default() -> GameRecord {
        GameRecord::new()
    }
}

fn hash(pos: &Chess) -> Zobrist64 {
    pos.zobrist_hash(EnPassantMode::Legal)
}

impl GameRecord {
    /// A new game from the standard start position.
    pub fn new() -> GameRecord {
        GameRecord::from_position(Chess::default())
    }

    pub fn from_position(start: Chess) -> GameRecord {
        GameRecord {
            tags: Tags::default(),
            hashes: vec![hash(&start)],
            positions: vec![start],
            moves: Vec::new(),
            end: None,
            pending_offer: None,
        }
    }

    /// A game from a FEN. The error says what is wrong with it.
    pub fn from_fen(fen: &str) -> Result<GameRecord, FenError> {
        let parsed: Fen = fen
            .trim()
            .parse()
            .map_err(|e: shakmaty::fen::ParseFenError| FenError::Unreadable {
                fen: fen.to_owned(),
                reason: e.to_string(),
            })?;
        let pos: Chess =
            parsed
                .into_position(CastlingMode::Standard)
                .map_err(|e| FenError::Impossible {
                    fen: fen.to_owned(),
                    reason: e.to_string(),
                })?;
        Ok(GameRecord::from_position(pos))
    }

    pub fn start_position(&self) -> &Chess {
        &self.positions[0]
    }

    /// The start position's FEN if it is not the standard one (for the PGN
    /// `SetUp`/`FEN` tags).
    pub fn start_fen(&self) -> Option<String> {
        let start = self.start_position();
        (start != &Chess::default())
            .then(|| Fen::from_position(start, EnPassantMode::Legal).to_string())
    }

    /// The current position.
    pub fn position(&self) -> &Chess {
        self.positions.last().expect("positions is never empty")
    }

    /// The position before move `index` (0-based) was played; `index ==
    /// moves().len()` gives the current position.
    pub fn position_before(&self, index: usize) -> &Chess {
        &self.positions[index]
    }

    pub fn fen(&self) -> String {
        Fen::from_position(self.position(), EnPassantMode::Legal).to_string()
    }

    pub fn moves(&self) -> &[RecordedMove] {
        &self.moves
    }

    pub fn last_move(&self) -> Option<&RecordedMove> {
        self.moves.last()
    }

    pub fn turn(&self) -> Color {
        self.position().turn()
    }

    pub fn end(&self) -> Option<GameEnd> {
        self.end
    }

    pub fn is_over(&self) -> bool {
        self.end.is_some()
    }

    /// `1-0`, `0-1`, `1/2-1/2` or `*`.
    pub fn result_str(&self) -> &'static str {
        self.end.map_or("*", |e| e.result_str())
    }

    /// The number of the move the next ply belongs to (1-based, as on a
    /// scoresheet).
    pub fn fullmove_number_of(&self, index: usize) -> u32 {
        self.positions[index].fullmoves().get()
    }

    /// The moves paired into scoresheet rows ("1. e4 e5").
    pub fn rows(&self) -> Vec<ScoresheetRow<'_>> {
        let mut rows: Vec<ScoresheetRow<'_>> = Vec::with_capacity(self.moves.len() / 2 + 1);
        for (m, pos) in self.moves.iter().zip(&self.positions) {
            let number = pos.fullmoves().get();
            if pos.turn() == Color::White {
                rows.push(ScoresheetRow {
                    number,
                    white: Some(m),
                    black: None,
                });
                continue;
            }
            match rows.last_mut() {
                Some(row) if row.number == number && row.black.is_none() => row.black = Some(m),
                _ => rows.push(ScoresheetRow {
                    number,
                    white: None,
                    black: Some(m),
                }),
            }
        }
        rows
    }

    /// Moves completed by a side.
    pub fn moves_completed(&self, color: Color) -> usize {
        let start_turn = self.start_position().turn();
        let n = self.moves.len();
        if color == start_turn {
            n.div_ceil(2)
        } else {
            n / 2
        }
    }

    /// Plays moves written in SAN with English letters, separated by
    /// spaces ("e4 e5 Nf3"), without times.
    pub fn play_sans(&mut self, sans: &str) -> Result<(), PlayError> {
        for san in sans.split_whitespace() {
            let parsed: San = san.parse().map_err(|_| PlayError::NotSan(san.into()))?;
            let mv = parsed
                .to_move(self.position())
                .map_err(|_| PlayError::Illegal)?;
            self.play(mv, None)?;
        }
        Ok(())
    }

    /// Plays a legal move and writes it down. Automatic ends (mate,
    /// stalemate, dead position, fivefold repetition, 75 moves) are applied.
    pub fn play(&mut self, mv: Move, at_ms: Option<u64>) -> Result<&RecordedMove, PlayError> {
        if let Some(end) = self.end {
            return Err(PlayError::GameOver(end));
        }
        let before = self.position();
        if !before.is_legal(mv) {
            return Err(PlayError::Illegal);
        }
        let mover = before.turn();
        let mut after = before.clone();
        let san = SanPlus::from_move_and_play_unchecked(&mut after, mv);
        let draw_offer = self.pending_offer.take() == Some(mover);
        self.hashes.push(hash(&after));
        self.positions.push(after);
        self.moves.push(RecordedMove {
            mv,
            san,
            at_ms,
            clock_ms: None,
            draw_offer,
        });
        self.end = self.automatic_end();
        Ok(self.moves.last().expect("just pushed"))
    }

    /// Records the mover's remaining clock time after the last move.
    pub fn set_last_clock(&mut self, clock_ms: u64) {
        if let Some(m) = self.moves.last_mut() {
            m.clock_ms = Some(clock_ms);
        }
    }

    /// Records when the last move was executed (game time in ms).
    pub fn set_last_time(&mut self, at_ms: u64) {
        if let Some(m) = self.moves.last_mut() {
            m.at_ms = Some(at_ms);
        }
    }

    fn repetitions_of_current(&self) -> usize {
        let current = *self.hashes.last().expect("never empty");
        // Only positions since the last irreversible move can repeat; the
        // halfmove clock tells how far back that is.
        let window = self.position().halfmoves() as usize + 1;
        self.hashes
            .iter()
            .rev()
            .take(window)
            .filter(|&&h| h == current)
            .count()
    }

    fn automatic_end(&self) -> Option<GameEnd> {
        let pos = self.position();
        let draw = |reason| {
            Some(GameEnd {
                outcome: KnownOutcome::Draw,
                reason,
                side: None,
            })
        };
        if pos.is_checkmate() {
            return Some(GameEnd {
                outcome: KnownOutcome::Decisive {
                    winner: !pos.turn(),
                },
                reason: EndReason::Checkmate,
                side: Some(pos.turn()),
            });
        }
        if pos.is_stalemate() {
            return draw(EndReason::Stalemate);
        }
        if is_dead_position(pos) {
            return draw(EndReason::DeadPosition);
        }
        if self.repetitions_of_current() >= 5 {
            return draw(EndReason::FivefoldRepetition);
        }
        // Art. 9.6.2: 75 moves by each side without capture or pawn move,
        // unless the last move gave mate (checked above).
        if pos.halfmoves() >= 150 {
            return draw(EndReason::SeventyFiveMoves);
        }
        None
    }

    /// A draw offer by `color` (Appendix C "(=)"). Written with the
    /// offerer's last move if he just moved, otherwise with his next move.
    pub fn offer_draw(&mut self, color: Color) {
        if self.end.is_some() {
            return;
        }
        let last_by_offerer = !self.moves.is_empty() && self.turn() != color;
        if last_by_offerer {
            self.moves.last_mut().expect("checked").draw_offer = true;
        } else {
            self.pending_offer = Some(color);
        }
    }

    /// The side whose draw offer stands, if any: an offer stands until the
    /// opponent moves (which declines it).
    pub fn open_draw_offer(&self) -> Option<Color> {
        if let Some(c) = self.pending_offer {
            return Some(c);
        }
        let last = self.moves.last()?;
        // The last move carries an offer and the opponent has not replied.
        last.draw_offer.then(|| !self.turn())
    }

    /// `color` accepts the opponent's standing offer. False if there is none.
    pub fn accept_draw(&mut self, color: Color) -> bool {
        if self.end.is_some() || self.open_draw_offer() != Some(!color) {
            return false;
        }
        self.pending_offer = None;
        self.end = Some(GameEnd {
            outcome: KnownOutcome::Draw,
            reason: EndReason::AgreedDraw,
            side: None,
        });
        true
    }

    /// Ends the game by agreement (the arbiter's or assistant's entry).
    pub fn agree_draw(&mut self) {
        if self.end.is_none() {
            self.end = Some(GameEnd {
                outcome: KnownOutcome::Draw,
                reason: EndReason::AgreedDraw,
                side: None,
            });
        }
    }

    pub fn resign(&mut self, color: Color) {
        if self.end.is_none() {
            self.end = Some(GameEnd {
                outcome: KnownOutcome::Decisive { winner: !color },
                reason: EndReason::Resignation,
                side: Some(color),
            });
        }
    }

    /// `color`'s flag fell. A loss, unless the opponent cannot checkmate by
    /// any series of legal moves: then a draw (Art. 6.9).
    pub fn flag_fall(&mut self, color: Color) {
        if self.end.is_some() {
            return;
        }
        let opponent_cannot_mate = self.position().has_insufficient_material(!color);
        self.end = Some(if opponent_cannot_mate {
            GameEnd {
                outcome: KnownOutcome::Draw,
                reason: EndReason::FlagFallOpponentCannotMate,
                side: Some(color),
            }
        } else {
            GameEnd {
                outcome: KnownOutcome::Decisive { winner: !color },
                reason: EndReason::FlagFall,
                side: Some(color),
            }
        });
    }

    /// Judges a draw claim by the side to move. `intended` is the move the
    /// claimant writes down and declares he will make (Art. 9.2.1 / 9.3.1):
    /// the claim then holds if the position after it qualifies. A correct
    /// claim ends the game (and plays the intended move); a wrong claim
    /// leaves the game as it was (Art. 9.5: the arbiter adds time to the
    /// opponent, the intended move must then be played).
    pub fn claim(&mut self, claim: Claim, intended: Option<Move>) -> ClaimVerdict {
        let correct = self.end.is_none() && self.claim_holds(claim, intended);
        if correct {
            if let Some(mv) = intended {
                let mover = self.turn();
                let mut after = self.position().clone();
                let san = SanPlus::from_move_and_play_unchecked(&mut after, mv);
                self.hashes.push(hash(&after));
                self.positions.push(after);
                let draw_offer = self.pending_offer.take() == Some(mover);
                self.moves.push(RecordedMove {
                    mv,
                    san,
                    at_ms: None,
                    clock_ms: None,
                    draw_offer,
                });
            }
            let reason = match claim {
                Claim::ThreefoldRepetition => EndReason::ThreefoldRepetition,
                Claim::FiftyMoves => EndReason::FiftyMoves,
            };
            self.end = Some(GameEnd {
                outcome: KnownOutcome::Draw,
                reason,
                side: None,
            });
        }
        ClaimVerdict { claim, correct }
    }

    fn claim_holds(&self, claim: Claim, intended: Option<Move>) -> bool {
        match intended {
            None => match claim {
                Claim::ThreefoldRepetition => self.repetitions_of_current() >= 3,
                Claim::FiftyMoves => self.position().halfmoves() >= 100,
            },
            Some(mv) => {
                if !self.position().is_legal(mv) {
                    return false;
                }
                let mut probe = self.clone();
                probe.end = None;
                if probe.play(mv, None).is_err() {
                    return false;
                }
                match claim {
                    Claim::ThreefoldRepetition => probe.repetitions_of_current() >= 3,
                    Claim::FiftyMoves => probe.position().halfmoves() >= 100,
                }
            }
        }
    }

    /// Takes back the last `n` moves (fewer if the game is shorter) and
    /// returns them, oldest first. A result reached by a move, a claim or an
    /// agreement is cleared: the game goes on from the earlier position.
    pub fn takeback(&mut self, n: usize) -> Vec<RecordedMove> {
        let n = n.min(self.moves.len());
        let keep = self.moves.len() - n;
        let taken = self.moves.split_off(keep);
        self.positions.truncate(keep + 1);
        self.hashes.truncate(keep + 1);
        self.pending_offer = None;
        self.end = if n > 0 {
            self.automatic_end()
        } else {
            self.end
        };
        taken
    }

    /// Ends the game with a result a file states without saying why.
    pub fn record_result(&mut self, outcome: KnownOutcome) {
        if self.end.is_none() {
            self.end = Some(GameEnd {
                outcome,
                reason: EndReason::ResultAsRecorded,
                side: None,
            });
        }
    }

    /// Clears a result so play can continue (an arbiter's correction).
    pub fn clear_end(&mut self) {
        self.end = None;
    }
}

/// A dead position: neither side can mate by any sequence of legal moves.
/// `shakmaty`'s insufficient-material test covers K v K, K+minor v K and
/// bishops all on one colour (K+B v K+B same-coloured bishops included).
pub fn is_dead_position(pos: &Chess) -> bool {
    pos.is_insufficient_material()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn play_sans(game: &mut GameRecord, sans: &str) {
        game.play_sans(sans)
            .unwrap_or_else(|e| panic!("{sans}: {e}"));
    }

    #[test]
    fn rows_pair_white_and_black_and_start_with_black_when_black_is_to_move() {
        let cells = |game: &GameRecord| -> Vec<(u32, Option<String>, Option<String>)> {
            game.rows()
                .iter()
                .map(|r| {
                    (
                        r.number,
                        r.white.map(|m| m.san_string()),
                        r.black.map(|m| m.san_string()),
                    )
                })
                .collect()
        };
        let mut game = GameRecord::new();
        play_sans(&mut game, "e4 e5 Nf3");
        assert_eq!(
            cells(&game),
            [
                (1, Some("e4".into()), Some("e5".into())),
                (2, Some("Nf3".into()), None)
            ]
        );
        let mut game =
            GameRecord::from_fen("4k3/8/8/8/8/8/4P3/4K3 b - - 0 7").expect("legal position");
        play_sans(&mut game, "Kd7 e4");
        assert_eq!(
            cells(&game),
            [(7, None, Some("Kd7".into())), (8, Some("e4".into()), None)]
        );
    }

    fn mv(game: &GameRecord, san: &str) -> Move {
        san.parse::<San>()
            .unwrap()
            .to_move(game.position())
            .unwrap()
    }

    #[test]
    fn scholars_mate_is_checkmate() {
        let mut g = GameRecord::new();
        play_sans(&mut g, "e4 e5 Bc4 Nc6 Qh5 Nf6 Qxf7#");
        let end = g.end().unwrap();
        assert_eq!(end.reason, EndReason::Checkmate);
        assert_eq!(g.result_str(), "1-0");
        assert_eq!(g.last_move().unwrap().san_string(), "Qxf7#");
        let any = g.position_before(0).legal_moves()[0];
        assert!(matches!(g.play(any, None), Err(PlayError::GameOver(_))));
    }

    #[test]
    fn stalemate_is_a_draw() {
        let mut g = GameRecord::from_fen("7k/8/6K1/8/8/8/8/5Q2 w - - 0 1").unwrap();
        play_sans(&mut g, "Qf7");
        assert_eq!(g.end().unwrap().reason, EndReason::Stalemate);
        assert_eq!(g.result_str(), "1/2-1/2");
    }

    #[test]
    fn same_coloured_bishops_are_dead() {
        // White bishop on c1 (dark), black bishop takes on e3 (dark): K+B v K+B, same colour.
        let mut g = GameRecord::from_fen("4k3/8/8/8/8/4N3/8/2B1K1b1 b - - 0 1").unwrap();
        play_sans(&mut g, "Bxe3");
        assert_eq!(
            g.end().unwrap().reason,
            EndReason::DeadPosition,
            "{}",
            g.fen()
        );
    }

    #[test]
    fn opposite_coloured_bishops_are_not_dead() {
        let mut g = GameRecord::from_fen("4k3/8/8/8/8/4N3/8/3BK1b1 b - - 0 1").unwrap();
        play_sans(&mut g, "Bxe3");
        assert!(g.end().is_none());
    }

    #[test]
    fn king_versus_king_after_capture_is_dead() {
        let mut g = GameRecord::from_fen("4k3/8/8/8/8/8/3q4/4K3 w - - 0 1").unwrap();
        play_sans(&mut g, "Kxd2");
        assert_eq!(g.end().unwrap().reason, EndReason::DeadPosition);
    }

    const KNIGHT_DANCE: &str = "Nf3 Nf6 Ng1 Ng8";

    #[test]
    fn threefold_claim_correct_and_wrong() {
        let mut g = GameRecord::new();
        play_sans(&mut g, KNIGHT_DANCE);
        // The start position has now appeared twice: a claim is wrong.
        let verdict = g.claim(Claim::ThreefoldRepetition, None);
        assert!(!verdict.correct);
        assert!(!g.is_over());
        play_sans(&mut g, KNIGHT_DANCE);
        let verdict = g.claim(Claim::ThreefoldRepetition, None);
        assert!(verdict.correct);
        assert_eq!(g.end().unwrap().reason, EndReason::ThreefoldRepetition);
    }

    #[test]
    fn threefold_claim_with_intended_move() {
        let mut g = GameRecord::new();
        play_sans(&mut g, KNIGHT_DANCE);
        play_sans(&mut g, "Nf3 Nf6 Ng1");
        // Black declares Ng8, which repeats the start position a third time.
        let intended = mv(&g, "Ng8");
        let verdict = g.claim(Claim::ThreefoldRepetition, Some(intended));
        assert!(verdict.correct);
        assert_eq!(g.moves().len(), 8);
        assert_eq!(g.end().unwrap().reason, EndReason::ThreefoldRepetition);
    }

    #[test]
    fn fivefold_ends_automatically() {
        let mut g = GameRecord::new();
        for _ in 0..3 {
            play_sans(&mut g, KNIGHT_DANCE);
        }
        assert!(g.end().is_none(), "four occurrences");
        play_sans(&mut g, KNIGHT_DANCE);
        assert_eq!(g.end().unwrap().reason, EndReason::FivefoldRepetition);
    }

    #[test]
    fn fifty_move_claim() {
        let mut g = GameRecord::from_fen("4k3/8/8/8/8/8/8/R3K3 w - - 99 80").unwrap();
        assert!(
            !g.claim(Claim::FiftyMoves, None).correct,
            "99 half-moves is not enough"
        );
        let intended = mv(&g, "Ra2");
        assert!(g.claim(Claim::FiftyMoves, Some(intended)).correct);
        assert_eq!(g.end().unwrap().reason, EndReason::FiftyMoves);
    }

    #[test]
    fn fifty_move_claim_wrong_after_pawn_move() {
        let mut g = GameRecord::from_fen("4k3/8/8/8/8/8/P7/R3K3 w - - 99 80").unwrap();
        let intended = mv(&g, "a3");
        assert!(!g.claim(Claim::FiftyMoves, Some(intended)).correct);
        assert!(!g.is_over());
        assert_eq!(g.moves().len(), 0, "a wrong claim plays nothing");
    }

    #[test]
    fn seventy_five_moves_end_automatically() {
        let mut g = GameRecord::from_fen("4k3/8/8/8/8/8/8/R3K3 w - - 149 80").unwrap();
        play_sans(&mut g, "Ra2");
        assert_eq!(g.end().unwrap().reason, EndReason::SeventyFiveMoves);
    }

    #[test]
    fn flag_fall_loses_unless_opponent_cannot_mate() {
        let mut g = GameRecord::from_fen("4k3/8/8/8/8/8/8/R3K3 b - - 0 1").unwrap();
        g.flag_fall(Color::Black);
        assert_eq!(g.result_str(), "1-0");
        assert_eq!(g.end().unwrap().reason, EndReason::FlagFall);

        let mut g = GameRecord::from_fen("4k3/8/8/8/8/8/8/R3K3 w - - 0 1").unwrap();
        g.flag_fall(Color::White);
        assert_eq!(g.result_str(), "1/2-1/2", "a lone king cannot mate");
        assert_eq!(
            g.end().unwrap().reason,
            EndReason::FlagFallOpponentCannotMate
        );
    }

    #[test]
    fn resignation_and_agreed_draw() {
        let mut g = GameRecord::new();
        g.resign(Color::White);
        assert_eq!(g.result_str(), "0-1");
        let mut g = GameRecord::new();
        play_sans(&mut g, "e4");
        g.offer_draw(Color::White);
        assert!(g.last_move().unwrap().draw_offer);
        assert_eq!(g.open_draw_offer(), Some(Color::White));
        assert!(
            !g.accept_draw(Color::White),
            "cannot accept one's own offer"
        );
        assert!(g.accept_draw(Color::Black));
        assert_eq!(g.end().unwrap().reason, EndReason::AgreedDraw);
    }

    #[test]
    fn draw_offer_before_moving_is_written_with_the_next_move() {
        let mut g = GameRecord::new();
        play_sans(&mut g, "e4");
        g.offer_draw(Color::Black);
        play_sans(&mut g, "e5");
        assert!(g.moves()[1].draw_offer);
        assert!(!g.moves()[0].draw_offer);
        play_sans(&mut g, "Nf3");
        assert_eq!(g.open_draw_offer(), None, "a reply declines the offer");
    }

    #[test]
    fn takeback_keeps_the_record_consistent() {
        let mut g = GameRecord::new();
        play_sans(&mut g, "e4 e5 Bc4 Nc6 Qh5 Nf6 Qxf7#");
        let taken = g.takeback(1);
        assert_eq!(taken[0].san_string(), "Qxf7#");
        assert!(g.end().is_none());
        assert_eq!(g.moves().len(), 6);
        let taken = g.takeback(2);
        assert_eq!(
            taken.iter().map(|m| m.san_string()).collect::<Vec<_>>(),
            ["Qh5", "Nf6"]
        );
        assert_eq!(
            g.fen(),
            "r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/8/PPPP1PPP/RNBQK1NR w KQkq - 2 3"
        );
        play_sans(&mut g, "Qf3");
        assert_eq!(g.moves().len(), 5);
        assert!(g.takeback(10).len() == 5 && g.moves().is_empty());
        assert_eq!(g.position(), &Chess::default());
    }

    #[test]
    fn moves_completed_counts_each_side() {
        let mut g = GameRecord::new();
        play_sans(&mut g, "e4 e5 Nf3");
        assert_eq!(g.moves_completed(Color::White), 2);
        assert_eq!(g.moves_completed(Color::Black), 1);
    }

    #[test]
    fn fen_start_is_reported_only_when_not_standard() {
        assert_eq!(GameRecord::new().start_fen(), None);
        let g = GameRecord::from_fen("4k3/8/8/8/8/8/8/R3K3 w - - 0 1").unwrap();
        assert_eq!(
            g.start_fen().as_deref(),
            Some("4k3/8/8/8/8/8/8/R3K3 w - - 0 1")
        );
        assert!(
            GameRecord::from_fen("not a fen")
                .unwrap_err()
                .to_string()
                .contains("bad FEN")
        );
    }
}
