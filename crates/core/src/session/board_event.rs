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
    /// Looking for any board of its kind (`auto`), the link found only a
    /// model Rochade cannot drive (its advertised name, e.g. "Chessnut
    /// Move"), and goes on looking.
    ModelUnsupported { name: String },
}

impl BoardEvent<crate::eboard::Message> {
    /// An occupancy-only e-board's event (the DGT Pegasus) as the
    /// peg-board's: its occupancy a snapshot for the tracker, its name an
    /// ident; what else it says (an acknowledgement) is nothing to the
    /// tracker (`None`).
    pub fn into_occupancy(self) -> Option<BoardEvent<PegMessage>> {
        use crate::eboard::Message;
        Some(match self {
            BoardEvent::Message(Message::Occupancy(mask)) => {
                BoardEvent::Message(PegMessage::Snapshot(mask))
            }
            BoardEvent::Message(Message::Ident(text)) => {
                BoardEvent::Message(PegMessage::Ident(text))
            }
            BoardEvent::Message(_) => return None,
            BoardEvent::LinkUp { port } => BoardEvent::LinkUp { port },
            BoardEvent::LinkLost { reason } => BoardEvent::LinkLost { reason },
            BoardEvent::LinkClosed => BoardEvent::LinkClosed,
            BoardEvent::LinesDropped { count } => BoardEvent::LinesDropped { count },
            BoardEvent::MemoryNotKept { reason } => BoardEvent::MemoryNotKept { reason },
            BoardEvent::PromotionChoice(role) => BoardEvent::PromotionChoice(role),
            BoardEvent::Configure(cfg) => BoardEvent::Configure(cfg),
            BoardEvent::RepeatGuidance => BoardEvent::RepeatGuidance,
            BoardEvent::ModelUnsupported { name } => BoardEvent::ModelUnsupported { name },
        })
    }
}

impl super::Event {
    /// The player's own e-board of `kind` said something: an e-board's
    /// event ([`super::Event::EBoard`], the recognizer), or, for a board
    /// that cannot tell pieces apart (the Pegasus), the peg-board's
    /// ([`super::Event::Board`], the occupancy tracker); `None`: nothing
    /// for the session.
    pub fn own_eboard(
        kind: crate::eboard::Kind,
        event: BoardEvent<crate::eboard::Message>,
    ) -> Option<super::Event> {
        if kind.occupancy_only() {
            event.into_occupancy().map(super::Event::Board)
        } else {
            Some(super::Event::EBoard(event))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eboard::{Kind, Message};
    use crate::session::Event;

    #[test]
    fn a_pegasus_reaches_the_tracker_and_the_others_the_recognizer() {
        let occupied = BoardEvent::Message(Message::Occupancy(0xFFFF_0000_0000_FFFF));
        assert_eq!(
            Event::own_eboard(Kind::Pegasus, occupied.clone()),
            Some(Event::Board(BoardEvent::Message(PegMessage::Snapshot(
                0xFFFF_0000_0000_FFFF
            ))))
        );
        assert_eq!(
            Event::own_eboard(Kind::Pegasus, BoardEvent::LinkUp { port: "p".into() }),
            Some(Event::Board(BoardEvent::LinkUp { port: "p".into() }))
        );
        assert_eq!(
            Event::own_eboard(Kind::Pegasus, BoardEvent::Message(Message::Ack)),
            None
        );
        for kind in [Kind::Dgt, Kind::Millennium, Kind::Certabo, Kind::Chessnut] {
            assert_eq!(
                Event::own_eboard(kind, occupied.clone()),
                Some(Event::EBoard(occupied.clone()))
            );
        }
    }
}
