//! What a full-position e-board says, decoded, whatever the board.

use shakmaty::{Piece, Square};

use super::Pieces;
use crate::board::{BoardReport, pieces_mask};
use crate::dgt::ClockReading;

/// One message of a full-position board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Message {
    /// Every square, as the board read it (a DGT dump, a Millennium status,
    /// a Chessnut position, a calibrated Certabo scan).
    Position(Box<Pieces>),
    /// Which squares are occupied, bit i for square i (a1 = 0, h8 = 63),
    /// from a board that cannot tell pieces apart (the DGT Pegasus): it is
    /// followed by the peg-board's occupancy tracker, not the recognizer.
    Occupancy(u64),
    /// One square changed (a DGT field update; `None`: emptied).
    Square {
        square: Square,
        piece: Option<Piece>,
    },
    /// The clock attached to the board (a DGT clock).
    Clock(ClockReading),
    /// How the board named itself (model, version), once per link.
    Ident(String),
    /// A step of a board's calibration (Certabo), said to the player.
    Calibration(CalibrationStep),
    /// A board that streams scans (Certabo) finished one: its changes, if
    /// any, came before this. Such a board settles by scans, not by the
    /// clock: a line held back on the wire must not make a piece that
    /// stood for one scan (a slide's pause) look settled.
    Scanned,
    /// An answer that asks nothing of the host (an acknowledgement, a
    /// serial number, an LED or setting echo).
    Ack,
}

/// Where a board's calibration stands (a Certabo board learns which chip
/// is which piece from the starting position).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CalibrationStep {
    /// Nothing is known yet: set up the starting position (spare queens
    /// on their squares if wanted).
    SetUpStart,
    /// Calibration never finished (a move came before the board had read
    /// the starting position): set it up again.
    SetUpAgain,
    /// The starting position was read and learnt; `spare_queens` extra
    /// queens (for promotion) were learnt too.
    Done { spare_queens: u8 },
    /// A chip the calibration does not know stands on this square.
    UnknownPiece(Square),
}

impl From<crate::dgt::Message> for Message {
    fn from(m: crate::dgt::Message) -> Message {
        use crate::dgt::Message as Dgt;
        match m {
            Dgt::BoardDump(pieces) => Message::Position(Box::new(pieces)),
            Dgt::FieldUpdate { square, piece } => Message::Square { square, piece },
            Dgt::Clock(reading) => Message::Clock(reading),
            Dgt::ClockAck | Dgt::SerialNumber(_) => Message::Ack,
            Dgt::Version { major, minor } => Message::Ident(format!("DGT {major}.{minor}")),
        }
    }
}

impl BoardReport for Message {
    fn occupancy(&self) -> Option<u64> {
        match self {
            Message::Occupancy(mask) => Some(*mask),
            _ => self.pieces().map(pieces_mask),
        }
    }

    fn pieces(&self) -> Option<&[Option<Piece>; 64]> {
        match self {
            Message::Position(pieces) => Some(pieces),
            _ => None,
        }
    }

    fn ident(&self) -> Option<String> {
        match self {
            Message::Ident(text) => Some(text.clone()),
            _ => None,
        }
    }
}
