//! The tactile peg-board: wire formats, the board log, the move tracker and
//! a simulated board. Everything here is pure; the serial thread lives in
//! the shell's `serial` module.
//!
//! * [`protocol`]: the open peg-board protocol v1 (`B`, `P`, `I`, `E` lines);
//!   [`liboard`] and [`sentio`]: two DIY boards' formats;
//! * [`Decoder`]: bytes in any chunking to [`PegMessage`]s, with counters;
//! * [`Protocol`]: what every board on a serial line is to the shell (the
//!   peg-board formats here, the DGT e-board in `crate::dgt`), each with its
//!   own message type ([`BoardReport`]);
//! * [`log`]: the board log format;
//! * [`tracker`]: occupancy snapshots to touched / executed moves (FIDE
//!   Appendix E.2), mismatches, takebacks;
//! * [`catch_up`]: the way back when the board is several plies ahead, by
//!   occupancy (the tracker) or by pieces (the e-boards' recognizer);
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
mod wire;

pub use decoder::{Decoder, DecoderStats, Format, Frame, UnknownFormat};
pub use protocol::{DropReason, HostCommand};
pub use tracker::{
    BoardMask, Mismatch, Orientation, OrientationChoice, Tracker, TrackerConfig, TrackerEvent,
};
pub use wire::{BoardReport, Framing, Protocol};

/// What a peg-board said, decoded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PegMessage {
    /// Occupancy: bit i set when a peg is in square i (a1 = 0, h8 = 63).
    Snapshot(u64),
    /// Piece identities, for boards with coded pegs, in square order.
    Pieces([Option<Piece>; 64]),
    /// Identification: model, protocol version, firmware.
    Ident(String),
    /// A fault the board detected.
    Fault(String),
}

impl PegMessage {
    /// The occupancy this message implies, if any.
    pub fn mask(&self) -> Option<u64> {
        match self {
            PegMessage::Snapshot(m) => Some(*m),
            PegMessage::Pieces(p) => Some(pieces_mask(p)),
            PegMessage::Ident(_) | PegMessage::Fault(_) => None,
        }
    }
}

impl BoardReport for PegMessage {
    fn occupancy(&self) -> Option<u64> {
        self.mask()
    }

    fn pieces(&self) -> Option<&[Option<Piece>; 64]> {
        match self {
            PegMessage::Pieces(p) => Some(p),
            _ => None,
        }
    }

    fn ident(&self) -> Option<String> {
        match self {
            PegMessage::Ident(text) => Some(text.clone()),
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
