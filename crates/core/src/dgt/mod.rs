//! The DGT e-board: its serial protocol, one decoder among the e-boards'
//! (its positions are read, as every board's that knows its pieces, by
//! [`crate::eboard::Recognizer`]). Everything here is pure; the serial
//! thread lives in the shell's `serial` module.
//!
//! * [`protocol`]: commands, messages, a streaming decoder with counters;
//! * [`wire`]: the board as a [`crate::board::Protocol`];
//! * [`sim`]: a simulated DGT board.

pub mod protocol;
pub mod sim;
pub mod wire;

pub use protocol::{ClockReading, Command, Decoder, DgtStats, Message};
