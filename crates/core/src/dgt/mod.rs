//! The sighted player's board when it is a DGT e-board: its serial protocol
//! and move recognition from full positions. Everything here is pure; the
//! serial thread lives in the shell's `serial` module.
//!
//! * [`protocol`]: commands, messages, a streaming decoder with counters;
//! * [`recognizer`]: settled positions to moves, takebacks, new games and
//!   guidance, in virtual time;
//! * [`wire`]: the board as a [`crate::board::Protocol`].

mod catch_up;
pub mod protocol;
pub mod recognizer;
pub mod sim;
pub mod wire;

pub use protocol::{ClockReading, Command, Decoder, DgtStats, Message, Pieces};
pub use recognizer::{Recognizer, RecognizerConfig, RecognizerEvent};
