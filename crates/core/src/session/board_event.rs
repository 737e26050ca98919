//! What a board's link reports to the session: the same events for the
//! blind player's peg-board and the sighted player's e-board, so the link
//! state machine ([`super::link`]) serves both. Only the board's messages
//! differ: `M` is the board's own message type (the peg-board's
//! [`PegMessage`], the DGT board's [`crate::dgt::Message`]).

use shakmaty::Role;

use crate::board::{PegMessage, TrackerConfig};

/// What the board link reports to the session.
#[derive(Clone, Debug, PartialEq)]
pub enum BoardEvent<M = PegMessage> {
    /// A decoded message of the board's own kind.
    Message(M),
    /// The link is up (first connection or after a loss).
    LinkUp { port: String },
    /// No heartbeat for 3 s, a read error, or the device went away.
    LinkLost { reason: String },
    /// The user closed the link (its port changed or was removed in the
    /// settings): not connected, nothing lost, nothing said.
    LinkClosed,
    /// The decoder dropped lines (bad checksum, garbage): a board state
    /// may have gone unseen, as after a lost link, though the link is up.
    LinesDropped { count: u64 },
    /// What the board's decoder learnt (a Certabo board's calibration)
    /// could not be written to its file (`reason`: the file and why); the
    /// board is read all the same, and asked again after a restart.
    MemoryNotKept { reason: String },
    /// The player chose the promotion piece (keyboard or menu).
    PromotionChoice(Role),
    /// New tracker settings (settle window, promotion default, ...). The
    /// strict flag follows the session mode unless set here.
    Configure(TrackerConfig),
    /// Speak the current mismatch guidance again (on request).
    RepeatGuidance,
}
