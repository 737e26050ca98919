//! The sighted player's e-board (a DGT board) in the session: two boards,
//! one record.
//!
//! The recognizer ([`crate::dgt::Recognizer`]) mirrors the game like the
//! peg-board's tracker: a move it reads on the sighted board goes to the
//! session as [`SightedAction::Play`] (announced to the blind player and
//! expected on the peg-board); a move made elsewhere (the peg-board, the
//! keyboard) reaches it through [`SightedBoard::reconcile`] and is expected
//! on the sighted board, with guidance said as "Sighted board: ..." when
//! the board does not follow.

use shakmaty::{Chess, Move, Position};

use super::board::{BoardEvent, LinkState};
use super::{Effect, Notice, Priority, Speech};
use crate::board::guidance::guidance;
use crate::board::tracker::render_in_sync;
use crate::board::{BoardMessage, HostCommand};
use crate::chess::GameRecord;
use crate::dgt::{ClockReading, Message, Recognizer, RecognizerConfig, RecognizerEvent};
use crate::session::Earcon;
use crate::words::{Pack, Utterance};

/// What the sighted board asks the session to do with the game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SightedAction {
    /// A move was made on the sighted board.
    Play(Move),
    /// The sighted board went back to before the last move: confirm.
    TakebackRequested,
    /// The last move was completed differently within the correction time
    /// (castling begun with the rook): the record's last move becomes this.
    Replace(Move),
    /// The start position was set up after the game: ask for a new game.
    NewGameRequested,
}

/// The sighted board part of the session state.
#[derive(Clone, Debug)]
pub struct SightedBoard {
    pub link: LinkState,
    /// The last clock reading, when a DGT clock is attached.
    pub clock: Option<ClockReading>,
    /// The board's version, once it said it.
    pub ident: Option<String>,
    rec: Recognizer,
    /// Record length when the recognizer was last reset.
    base: Option<usize>,
}

impl Default for SightedBoard {
    fn default() -> SightedBoard {
        SightedBoard {
            link: LinkState::NotConnected,
            clock: None,
            ident: None,
            rec: Recognizer::new(RecognizerConfig::default(), Chess::default()),
            base: None,
        }
    }
}

/// "Sighted board: {text}".
pub fn sighted_words(pack: &Pack, text: Utterance) -> Utterance {
    pack.phrase("sighted_board", &[("text", text)])
}

impl SightedBoard {
    /// Whether a sighted board is in use (connected now or before).
    pub fn in_use(&self) -> bool {
        !matches!(self.link, LinkState::NotConnected)
    }

    pub fn recognizer(&self) -> &Recognizer {
        &self.rec
    }

    pub fn next_deadline(&self) -> Option<u64> {
        self.rec.next_deadline()
    }

    /// Starts from the record's current position (a new or resumed game).
    pub fn reset(&mut self, record: &GameRecord) {
        self.rec.reset(record.position().clone());
        self.base = Some(record.moves().len());
    }

    /// Brings the recognizer in line with the record: moves entered
    /// elsewhere are expected on the sighted board, takebacks followed.
    pub fn reconcile(&mut self, now: u64, record: &GameRecord) {
        let recorded = record.moves().len();
        let base = *self
            .base
            .get_or_insert(recorded.saturating_sub(self.rec.moves().count()));
        if recorded < base {
            return self.reset(record);
        }
        while self.rec.moves().count() > recorded - base {
            self.rec.take_back_external(now);
        }
        let have = self.rec.moves().count();
        let agree = record.moves()[base..base + have]
            .iter()
            .map(|m| m.mv)
            .eq(self.rec.moves());
        if !agree {
            return self.reset(record);
        }
        for m in &record.moves()[base + have..] {
            if !self.rec.position().is_legal(m.mv) {
                return self.reset(record);
            }
            self.rec.apply_external(now, m.mv);
        }
    }

    pub fn on_event(
        &mut self,
        now: u64,
        event: BoardEvent,
        record: &GameRecord,
        pack: &Pack,
        out: &mut Vec<Effect>,
    ) -> Vec<SightedAction> {
        self.reconcile(now, record);
        let mut events = Vec::new();
        let notice = |state: &str, detail: String| {
            Effect::Notice(Notice::SightedBoard {
                state: state.into(),
                detail,
            })
        };
        match event {
            BoardEvent::Message(BoardMessage::Dgt(m)) => match m {
                Message::BoardDump(pieces) => self.rec.on_dump(now, &pieces, &mut events),
                Message::FieldUpdate { square, piece } => {
                    self.rec.on_field_update(now, square, piece, &mut events)
                }
                Message::Clock(reading) => self.clock = Some(reading),
                Message::ClockAck => {}
                Message::Version { major, minor } => {
                    let text = format!("DGT {major}.{minor}");
                    if self.ident.as_ref() != Some(&text) {
                        out.push(notice("ident", text.clone()));
                        self.ident = Some(text);
                    }
                }
                Message::SerialNumber(_) => {}
            },
            BoardEvent::LinkUp { port } => {
                let was_lost = matches!(self.link, LinkState::Lost { .. });
                self.link = LinkState::Connected { port: port.clone() };
                if was_lost {
                    say(
                        out,
                        pack,
                        pack.say("sighted_link_restored"),
                        Priority::Alert,
                    );
                    out.push(Effect::Sound(Earcon::LinkRestored));
                }
                out.push(notice(
                    if was_lost { "restored" } else { "connected" },
                    port,
                ));
                out.push(Effect::SightedBoardCommand(HostCommand::Snapshot));
            }
            BoardEvent::LinkLost { reason } => {
                self.rec.link_lost(&mut events);
                if !matches!(self.link, LinkState::Lost { .. }) {
                    say(out, pack, pack.say("sighted_link_lost"), Priority::Alert);
                    out.push(Effect::Sound(Earcon::LinkLost));
                    out.push(notice("lost", reason.clone()));
                }
                self.link = LinkState::Lost { reason };
            }
            BoardEvent::LinkClosed => {
                self.rec.link_lost(&mut events);
                self.link = LinkState::NotConnected;
                out.push(notice("closed", String::new()));
            }
            BoardEvent::LinesDropped { count } => {
                self.rec.link_lost(&mut events);
                out.push(notice("lines_dropped", count.to_string()));
            }
            BoardEvent::RepeatGuidance => {
                let text = match self.rec.mismatch() {
                    Some(m) => guidance(pack, &m, record),
                    None => render_in_sync(pack),
                };
                say(out, pack, sighted_words(pack, text), Priority::Answer);
            }
            BoardEvent::Message(_) | BoardEvent::PromotionChoice(_) | BoardEvent::Configure(_) => {}
        }
        self.translate(events, record, pack, out)
    }

    pub fn on_tick(
        &mut self,
        now: u64,
        record: &GameRecord,
        pack: &Pack,
        out: &mut Vec<Effect>,
    ) -> Vec<SightedAction> {
        self.reconcile(now, record);
        let mut events = Vec::new();
        self.rec.on_tick(now, &mut events);
        self.translate(events, record, pack, out)
    }

    fn translate(
        &mut self,
        events: Vec<RecognizerEvent>,
        record: &GameRecord,
        pack: &Pack,
        out: &mut Vec<Effect>,
    ) -> Vec<SightedAction> {
        let mut actions = Vec::new();
        for event in events {
            match event {
                RecognizerEvent::RequestBoard => {
                    out.push(Effect::SightedBoardCommand(HostCommand::Snapshot))
                }
                RecognizerEvent::Move(mv) => actions.push(SightedAction::Play(mv)),
                RecognizerEvent::Takeback(_) => actions.push(SightedAction::TakebackRequested),
                RecognizerEvent::Corrected { new, .. } => actions.push(SightedAction::Replace(new)),
                RecognizerEvent::NewGame => actions.push(SightedAction::NewGameRequested),
                RecognizerEvent::Orientation { turned } => {
                    if turned {
                        say(
                            out,
                            pack,
                            sighted_words(pack, pack.say("board_turned")),
                            Priority::Guidance,
                        );
                    }
                    out.push(Effect::Notice(Notice::SightedBoard {
                        state: "orientation".into(),
                        detail: if turned { "turned" } else { "straight" }.into(),
                    }));
                }
                RecognizerEvent::Mismatch(m) => {
                    let text = sighted_words(pack, guidance(pack, &m, record));
                    say(out, pack, text, Priority::Guidance);
                    out.push(Effect::Sound(Earcon::Mismatch));
                    let (missing, extra) = super::notice::mismatch_squares(&m);
                    out.push(Effect::Notice(Notice::SightedBoard {
                        state: "mismatch".into(),
                        detail: format!("missing {}; extra {}", missing.join(" "), extra.join(" ")),
                    }));
                }
                RecognizerEvent::InSync => {
                    say(
                        out,
                        pack,
                        sighted_words(pack, render_in_sync(pack)),
                        Priority::Guidance,
                    );
                    out.push(Effect::Sound(Earcon::InSync));
                    out.push(Effect::Notice(Notice::SightedBoard {
                        state: "in_sync".into(),
                        detail: String::new(),
                    }));
                }
            }
        }
        actions
    }
}

/// "Your board: connected. Sighted board: connected. Sighted board:
/// Clock: left 1 hour 29 minutes, right 5 minutes 7 seconds": each board's
/// link, and a DGT clock's times when one reports.
pub fn board_status(pack: &Pack, own: &LinkState, sighted: &SightedBoard) -> Utterance {
    let link = |state: &LinkState| match state {
        LinkState::NotConnected => pack.say("link_not_connected"),
        LinkState::Connected { .. } => pack.say("link_connected"),
        LinkState::Lost { .. } => pack.say("link_down"),
    };
    let mut parts = vec![pack.phrase("your_board", &[("text", link(own))])];
    if sighted.in_use() {
        parts.push(sighted_words(pack, link(&sighted.link)));
        if let Some(c) = sighted.clock.filter(|c| !c.no_clock()) {
            let time = |s: crate::dgt::protocol::ClockSide| {
                crate::clock::duration_words(pack, u64::from(s.seconds_total()) * 1000)
            };
            let text = pack.phrase(
                "dgt_clock",
                &[("left", time(c.left)), ("right", time(c.right))],
            );
            parts.push(sighted_words(pack, text));
        }
    }
    Utterance::join_with(&parts, ". ")
}

fn say(out: &mut Vec<Effect>, pack: &Pack, text: Utterance, priority: Priority) {
    out.push(Effect::Speak(Speech {
        text,
        lang: pack.lang,
        priority,
    }));
}

#[cfg(test)]
#[path = "sighted_tests.rs"]
mod tests;
