//! The peg-board side of the session: link state, and the move tracker's
//! events turned into speech, sounds and moves.
//!
//! The tracker integration is owned by the peg-board work (issue 3); this
//! file holds the interface the session core calls.

use shakmaty::{Chess, Move, Role};

use super::{Effect, Notice, Priority, SessionConfig, Source, Speech};
use crate::board::BoardMessage;
use crate::chess::GameRecord;
use crate::session::Earcon;
use crate::words::Pack;

/// What the board link reports to the session.
#[derive(Clone, Debug, PartialEq)]
pub enum BoardEvent {
    /// A decoded message (snapshot, piece identities, ident, fault).
    Message(BoardMessage),
    /// The link is up (first connection or after a loss).
    LinkUp { port: String },
    /// No heartbeat for 3 s, a read error, or the device went away.
    LinkLost { reason: String },
    /// The player chose the promotion piece (keyboard or menu).
    PromotionChoice(Role),
}

/// What the board part asks the session to do with the game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BoardAction {
    /// A move was executed on the peg-board.
    Play(Move),
    /// The board went back to the position before the last move (E.6).
    TakebackRequested,
}

/// Link state as the GUI shows it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum LinkState {
    #[default]
    NotConnected,
    Connected { port: String },
    Lost { reason: String },
}

/// The peg-board part of the session state.
#[derive(Clone, Debug)]
pub struct BoardState {
    pub link: LinkState,
    /// The last occupancy the board reported.
    pub last_mask: Option<u64>,
    /// When the last message arrived (session time).
    pub last_message_ms: Option<u64>,
}

impl BoardState {
    pub fn new(_config: &SessionConfig) -> BoardState {
        BoardState { link: LinkState::NotConnected, last_mask: None, last_message_ms: None }
    }

    pub fn configure(&mut self, _config: &SessionConfig) {}

    pub fn reset(&mut self, _config: &SessionConfig, _start: &Chess) {}

    pub fn next_deadline(&self) -> Option<u64> {
        None
    }

    pub fn on_event(
        &mut self,
        now: u64,
        event: BoardEvent,
        _record: &GameRecord,
        pack: &Pack,
        out: &mut Vec<Effect>,
    ) -> Vec<BoardAction> {
        let say = |out: &mut Vec<Effect>, text, priority| {
            out.push(Effect::Speak(Speech { text, lang: pack.lang, priority }));
        };
        match event {
            BoardEvent::Message(msg) => {
                self.last_message_ms = Some(now);
                match msg {
                    BoardMessage::Fault(text) => {
                        say(out, pack.phrase("board_fault", &[("text", text.as_str().into())]), Priority::Alert);
                        out.push(Effect::Notice(Notice::BoardInfo { text }));
                    }
                    BoardMessage::Ident(text) => out.push(Effect::Notice(Notice::BoardInfo { text })),
                    other => self.last_mask = other.mask().or(self.last_mask),
                }
            }
            BoardEvent::LinkUp { port } => {
                let was_lost = matches!(self.link, LinkState::Lost { .. });
                self.link = LinkState::Connected { port: port.clone() };
                if was_lost {
                    say(out, pack.say("link_restored"), Priority::Alert);
                    out.push(Effect::Sound(Earcon::LinkRestored));
                }
                let state = if was_lost { "restored" } else { "connected" };
                out.push(Effect::Notice(Notice::Link { state: state.into(), detail: port }));
                out.push(Effect::BoardCommand(crate::board::HostCommand::Snapshot));
            }
            BoardEvent::LinkLost { reason } => {
                if !matches!(self.link, LinkState::Lost { .. }) {
                    say(out, pack.say("link_lost"), Priority::Alert);
                    out.push(Effect::Sound(Earcon::LinkLost));
                    out.push(Effect::Notice(Notice::Link { state: "lost".into(), detail: reason.clone() }));
                }
                self.link = LinkState::Lost { reason };
            }
            BoardEvent::PromotionChoice(_) => {}
        }
        Vec::new()
    }

    pub fn on_tick(&mut self, _now: u64, _record: &GameRecord, _pack: &Pack, _out: &mut Vec<Effect>) -> Vec<BoardAction> {
        Vec::new()
    }

    /// The game changed by a move from elsewhere or a takeback: the board
    /// must now follow it.
    pub fn on_game_changed(&mut self, _now: u64, _record: &GameRecord, _source: Source) {}
}
