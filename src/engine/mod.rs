//! Practice against a UCI engine.
//!
//! The pure parts (levels, candidate choice, evaluation words, the review,
//! the request and answer types) are in the core crate and re-exported
//! here. The shell part is [`EngineService`]: one thread that owns the
//! engine process.

pub use rochade_core::engine::{
    Ask, Choice, EngineAnswer, EngineError, EngineEvent, EngineOptions, EngineRequest, Level, Line,
    Mistake, Plan, Rng, Score, SpinRange, choose_move, evaluation_words, failure_words,
    find_mistakes, material_gain, review_words,
};

pub mod analysis;
pub mod driver;
mod process;

pub use process::{CommandLog, DEFAULT_ENGINE_PATH, Engine, EngineService};
