//! Commercial e-boards: DGT, Millennium ChessLink, Certabo, Chessnut, which
//! know their pieces, and the DGT Pegasus, which knows only which squares
//! are occupied (its [`Message::Occupancy`] goes to the peg-board's
//! tracker: [`Kind::occupancy_only`]). Each has its own small decoder
//! (its own file, pure, fuzzed) that turns its bytes into one shared
//! [`Message`]; from there every board goes through the same recognizer
//! ([`Recognizer`]) in either seat: the sighted player's board or the
//! blind player's own.
//!
//! * [`Message`]: what a full-position board says, whatever the board;
//! * [`Pieces`]: a piece (or nothing) on each square, as such a board shows;
//! * [`Recognizer`]: settled positions to moves, takebacks, new games and
//!   guidance, in virtual time (a Certabo's streamed scans:
//!   `certabo_scanning.rs`);
//! * [`Kind`]: which board, with its name on the command line;
//! * [`AnyDecoder`]: one [`crate::board::Protocol`] over every kind, so the
//!   serial thread and the window's links need not know which.

mod any;
pub mod certabo;
pub mod certabo_chips;
pub mod certabo_early;
pub mod certabo_lights;
mod certabo_lines;
pub mod certabo_sim;
pub mod chessnut;
mod kind;
mod message;
pub mod millennium;
pub mod millennium_sim;
pub mod pegasus;
pub mod pegasus_sim;
pub mod pieces;
pub mod probe;
pub mod recognizer;

pub use any::AnyDecoder;
pub use certabo::CertaboDecoder;
pub use chessnut::ChessnutDecoder;
pub use kind::{Kind, UnknownKind};
pub use message::{CalibrationStep, Message};
pub use pegasus::PegasusDecoder;
pub use pieces::Pieces;
pub use recognizer::{Recognizer, RecognizerConfig, RecognizerEvent};
