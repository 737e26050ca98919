//! Facts the session reports: for the GUI, logs, and `rochade track`'s
//! one-JSON-object-per-line output.

use serde::Serialize;
use shakmaty::fen::Fen;
use shakmaty::san::SanPlus;
use shakmaty::uci::UciMove;
use shakmaty::{Color, KnownOutcome, Move, Piece, Square};

use super::notice_json as json;
use super::{QuestionKind, Source};
use crate::chess::{Claim, EndReason, MoveInputError};

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum Notice {
    /// A move was executed and written on the scoresheet.
    Move {
        /// 1-based ply number.
        ply: usize,
        /// Written as its SAN ("Nf3+").
        #[serde(serialize_with = "json::display")]
        san: SanPlus,
        /// Written as its UCI string ("e2e4") in logs and JSON.
        #[serde(rename = "uci", serialize_with = "json::uci")]
        mv: Move,
        /// Written form of the announcement.
        announcement: String,
        spoken: String,
        source: Source,
    },
    /// A piece of the side to move left its hole (E.2.2). Written as
    /// `"square":"e2","piece":"white pawn"`.
    Touched {
        #[serde(serialize_with = "json::square")]
        square: Square,
        #[serde(serialize_with = "json::piece")]
        piece: Piece,
    },
    /// Strict mode: a touched piece must be moved (Art. 4.3/4.4).
    TouchMove {
        #[serde(serialize_with = "json::square")]
        square: Square,
        #[serde(serialize_with = "json::piece")]
        piece: Piece,
    },
    /// The peg-board differs from the game and matches no legal move.
    Mismatch {
        #[serde(serialize_with = "json::squares")]
        missing: Vec<Square>,
        #[serde(serialize_with = "json::squares")]
        extra: Vec<Square>,
    },
    /// The peg-board matches the game again.
    InSync,
    /// A pawn reached the last rank; the piece is not known yet.
    Promotion {
        #[serde(serialize_with = "json::square")]
        square: Square,
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
        #[serde(serialize_with = "json::displays")]
        removed: Vec<SanPlus>,
    },
    /// A move was taken back.
    Takeback {
        #[serde(serialize_with = "json::display")]
        san: SanPlus,
    },
    /// The board link changed state (the detail: the port, the reason,
    /// the number of lines dropped).
    Link {
        state: LinkChange,
        #[serde(serialize_with = "json::display")]
        detail: BoardDetail,
    },
    /// The sighted player's e-board: its link, its ident, how it lies
    /// ("turned", "straight"), a mismatch (the squares that differ) and
    /// in sync again.
    SightedBoard {
        state: SightedState,
        #[serde(serialize_with = "json::display")]
        detail: BoardDetail,
    },
    /// An e-board's calibration (a Certabo board learns its pieces): the
    /// step, its detail (the spare queens learnt, the square of a piece
    /// it does not know) and whether it is the sighted player's board.
    Calibration {
        step: CalibrationState,
        #[serde(serialize_with = "json::display")]
        detail: BoardDetail,
        sighted: bool,
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
        #[serde(rename = "uci", serialize_with = "json::uci")]
        mv: Move,
    },
    /// The board showed a position these moves reach (a missed snapshot);
    /// the tracker took them over, each also as a `move`.
    Resynchronised {
        #[serde(serialize_with = "json::ucis")]
        moves: Vec<Move>,
    },
    /// The board shows a move's result, but `square` was never seen empty
    /// (a stuck sensor?): the move was not executed.
    SensorSuspect {
        #[serde(serialize_with = "json::square")]
        square: Square,
        #[serde(rename = "uci", serialize_with = "json::uci")]
        mv: Move,
    },
    /// The sensor under `square` is taken as stuck: it always reports a
    /// peg (`occupied`) or never one; the board is read without it.
    SensorStuck {
        #[serde(serialize_with = "json::square")]
        square: Square,
        occupied: bool,
        /// What is said, written ("Sensor Anna drei meldet immer besetzt ...").
        text: String,
    },
    /// A sensor taken as stuck reports what the game expects again.
    SensorRecovered {
        #[serde(serialize_with = "json::square")]
        square: Square,
    },
    DrawOffer {
        #[serde(serialize_with = "json::color")]
        side: Color,
    },
    Claim {
        claim: Claim,
        correct: bool,
    },
    /// The game ended: written as its result ("1-0", "0-1", "1/2-1/2").
    GameOver {
        #[serde(serialize_with = "json::display")]
        result: KnownOutcome,
        reason: EndReason,
    },
    NewGame,
    /// The practice engine: ready (its name), failed (why) or its review.
    Engine {
        state: EngineChange,
        detail: String,
    },
    /// Input that was not a legal move: what was typed, and why (written
    /// as the error's English text, as before).
    Rejected {
        input: String,
        #[serde(serialize_with = "json::display")]
        reason: MoveInputError,
    },
    /// A puzzle was set up: `start_fen` is the puzzle's position, in
    /// which the opponent's first move (which follows as a `move`) is
    /// played; `fen` the position the player solves from, after it.
    PuzzleStart {
        id: String,
        /// Boxed: a FEN is large, and every notice would be as large.
        #[serde(serialize_with = "json::display")]
        start_fen: Box<Fen>,
        #[serde(serialize_with = "json::display")]
        fen: Box<Fen>,
        rating: u32,
        themes: Vec<String>,
    },
    /// The player's move is not the solution: said and not recorded.
    PuzzleWrong {
        #[serde(serialize_with = "json::display")]
        uci: UciMove,
    },
    /// The puzzle is over: solved (without a wrong move or the second
    /// hint) or not; the whole line; the player's rating now.
    PuzzleDone {
        id: String,
        solved: bool,
        #[serde(serialize_with = "json::displays")]
        line: Vec<UciMove>,
        rating: u32,
    },
}

/// What a board's notice says beyond its state ([`Notice::Link`],
/// [`Notice::SightedBoard`], [`Notice::Calibration`]): typed where it has
/// a type, written as the words `detail` always had.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum BoardDetail {
    /// Nothing more (written "").
    #[default]
    None,
    /// Free words: a port's name, the system's reason, the board's ident,
    /// the file not written and why.
    Text(String),
    /// Lines dropped, or spare queens learnt.
    Count(u64),
    /// The square of a piece the board does not know.
    Square(Square),
    /// Where the board differs from the game ("missing e2; extra e4").
    Squares {
        missing: Vec<Square>,
        extra: Vec<Square>,
    },
    /// How the board lies ("turned" or "straight").
    Turned(bool),
    /// The set-up asked for again ("again").
    Again,
}

impl std::fmt::Display for BoardDetail {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let names = |squares: &[Square]| {
            squares
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join(" ")
        };
        match self {
            BoardDetail::None => Ok(()),
            BoardDetail::Text(text) => f.write_str(text),
            BoardDetail::Count(n) => write!(f, "{n}"),
            BoardDetail::Square(square) => write!(f, "{square}"),
            BoardDetail::Squares { missing, extra } => {
                write!(f, "missing {}; extra {}", names(missing), names(extra))
            }
            BoardDetail::Turned(true) => f.write_str("turned"),
            BoardDetail::Turned(false) => f.write_str("straight"),
            BoardDetail::Again => f.write_str("again"),
        }
    }
}

/// How a board's link changed, as [`Notice::Link`] says it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum LinkChange {
    Connected,
    Lost,
    /// Connected again after it was lost.
    Restored,
    Closed,
    /// Lines were dropped; the board is asked for its whole state.
    LinesDropped,
}

/// What the sighted player's e-board did, as [`Notice::SightedBoard`]
/// says it: its link, or what it showed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum SightedState {
    Connected,
    Lost,
    Restored,
    Closed,
    LinesDropped,
    /// The board named itself (the detail).
    Ident,
    /// How the board lies (the detail: "turned" or "straight").
    Orientation,
    /// The board differs from the game (the detail: the squares).
    Mismatch,
    InSync,
}

impl From<LinkChange> for SightedState {
    fn from(change: LinkChange) -> SightedState {
        match change {
            LinkChange::Connected => SightedState::Connected,
            LinkChange::Lost => SightedState::Lost,
            LinkChange::Restored => SightedState::Restored,
            LinkChange::Closed => SightedState::Closed,
            LinkChange::LinesDropped => SightedState::LinesDropped,
        }
    }
}

/// Where an e-board's calibration stands, as [`Notice::Calibration`]
/// says it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum CalibrationState {
    SetUpStart,
    Done,
    UnknownPiece,
    /// The calibration could not be written to its file (the detail says
    /// which and why).
    NotSaved,
}

/// What became of the practice engine, as [`Notice::Engine`] says it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum EngineChange {
    Ready,
    Failed,
    /// The review after the game (the detail: its words).
    Review,
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
pub fn mismatch_squares(m: &crate::board::Mismatch) -> (Vec<Square>, Vec<Square>) {
    (
        m.missing.iter().map(|&(sq, _)| sq).collect(),
        m.expected_empty.iter().chain(&m.extra).copied().collect(),
    )
}
