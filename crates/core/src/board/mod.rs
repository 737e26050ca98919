//! The tactile peg-board: wire formats, the board log, the move tracker and
//! a simulated board. Everything here is pure; the serial thread lives in
//! the shell's `serial` module.
//!
//! * [`protocol`]: the open peg-board protocol v1 (`B`, `P`, `I`, `E` lines);
//!   [`liboard`] and [`sentio`]: two DIY boards' formats;
//! * [`Decoder`]: bytes in any chunking to [`BoardMessage`]s, with counters;
//! * [`log`]: the board log format;
//! * [`tracker`]: occupancy snapshots to touched / executed moves (FIDE
//!   Appendix E.2), mismatches, takebacks;
//! * [`catch_up`]: the way back when the board is several plies ahead
//!   (shared with the DGT recognizer);
//! * [`sim`]: a simulated board, used by `rochade board-sim` and the GUI.

use shakmaty::Piece;

pub mod catch_up;
mod decoder;
pub mod guidance;
pub mod liboard;
pub mod log;
pub mod protocol;
pub mod sentio;
pub mod sim;
pub mod tracker;

pub use decoder::{Decoder, DecoderStats, Format, Frame, UnknownFormat};
pub use protocol::{DropReason, HostCommand};
pub use tracker::{BoardMask, Mismatch, Orientation, Tracker, TrackerConfig, TrackerEvent};

/// What a board said, decoded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BoardMessage {
    /// Occupancy: bit i set when a peg is in square i (a1 = 0, h8 = 63).
    Snapshot(u64),
    /// Piece identities, for boards with coded pegs, in square order.
    Pieces([Option<Piece>; 64]),
    /// Identification: model, protocol version, firmware.
    Ident(String),
    /// A fault the board detected.
    Fault(String),
    /// A DGT e-board's message (the sighted player's board).
    Dgt(crate::dgt::Message),
}

impl BoardMessage {
    /// The occupancy this message implies, if any.
    pub fn mask(&self) -> Option<u64> {
        match self {
            BoardMessage::Snapshot(m) => Some(*m),
            BoardMessage::Pieces(p) => Some(pieces_mask(p)),
            BoardMessage::Dgt(crate::dgt::Message::BoardDump(p)) => Some(pieces_mask(p)),
            _ => None,
        }
    }
}

/// The occupancy of a piece array.
pub fn pieces_mask(pieces: &[Option<Piece>; 64]) -> u64 {
    pieces
        .iter()
        .enumerate()
        .filter(|(_, p)| p.is_some())
        .fold(0, |m, (i, _)| m | 1 << i)
}
