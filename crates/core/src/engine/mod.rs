//! Practice against a UCI engine: the pure parts.
//!
//! [`Level`] and its [`Plan`] (what to send the engine, read against the
//! option ranges it reported), candidate choice with a seeded [`Rng`],
//! evaluation in words, the after-game review, and the messages between
//! the session and the engine thread. The shell (the `rochade` crate's
//! `engine` module) owns the engine process. The session core never talks
//! to it: it emits [`crate::session::Effect::AskEngine`] and receives
//! [`crate::session::Event::Engine`].

mod choose;
mod level;
mod options;
mod review;
mod words;

pub use choose::{Rng, choose_move};
pub use level::{Choice, Level, Plan};
pub use options::{EngineOptions, SpinRange};
pub use review::{Mistake, find_mistakes, review_words};
pub use words::{evaluation_words, failure_words, material_gain};

use shakmaty::uci::UciMove;

/// What the session wants from the engine.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Ask {
    /// The engine's own move at its level.
    Move,
    /// The best move for the player (full strength).
    Hint,
    /// The best move for the opponent if it were his turn.
    Threat,
    /// The evaluation of the position.
    Evaluate,
    /// One evaluation per position of the finished game.
    Review,
}

/// A request to the engine thread: a position as a start FEN plus moves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineRequest {
    pub id: u64,
    pub ask: Ask,
    pub fen: String,
    pub moves: Vec<UciMove>,
    pub level: Level,
    /// Seed for the weakened levels' random choice (tests fix it).
    pub seed: u64,
}

/// A score from the point of view of the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Score {
    Cp(i32),
    /// Mate in n moves (negative: the side to move is mated).
    Mate(i32),
}

impl Score {
    /// Centipawns, mates as large values (nearer mates larger).
    pub fn as_cp(self) -> i32 {
        match self {
            Score::Cp(cp) => cp,
            Score::Mate(n) if n > 0 => 10_000 - 10 * n,
            Score::Mate(n) => -10_000 - 10 * n,
        }
    }

    /// The same score seen by the other side.
    pub fn flip(self) -> Score {
        match self {
            Score::Cp(cp) => Score::Cp(-cp),
            Score::Mate(n) => Score::Mate(-n),
        }
    }
}

/// One line of the engine's analysis.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    pub score: Score,
    /// The principal variation; its first move is the line's move.
    pub pv: Vec<UciMove>,
}

/// The engine thread's answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineAnswer {
    pub id: u64,
    pub ask: Ask,
    /// The move to play (for [`Ask::Move`]) or the best move.
    pub best: Option<UciMove>,
    /// The engine's lines, best first ([`Ask::Review`]: one per position).
    pub lines: Vec<Line>,
}

/// What the engine thread reports to the session.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineEvent {
    Answer(EngineAnswer),
    /// The engine is missing, crashed or hung; `id` is the request lost.
    Failed {
        id: Option<u64>,
        error: EngineError,
    },
    /// The engine (re)started and answered `uciok`/`readyok`.
    Ready {
        name: String,
    },
}

/// Why the engine could not answer.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum EngineError {
    /// The program could not be started.
    #[error("the engine could not be started: {0}")]
    Missing(String),
    /// The engine exited or closed its output.
    #[error("the engine stopped unexpectedly")]
    Crashed,
    /// No answer within the allowed time.
    #[error("the engine did not answer in time")]
    Hung,
    /// The request makes no sense (an illegal position or move).
    #[error("bad request to the engine: {0}")]
    BadRequest(String),
    /// The engine wrote more than any engine needs (a line without end,
    /// thousands of lines a second): stopped before it fills the memory.
    #[error("the engine writes far too much output")]
    Flooded,
}
