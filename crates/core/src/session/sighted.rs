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

use super::board_event::BoardEvent;
use super::link::{BoardSide, LinkInput, LinkState, Mirror, follow_record, say, sighted_words};
use super::{Effect, Notice, Priority, SightedState};
use crate::board::HostCommand;
use crate::chess::GameRecord;
use crate::dgt::{ClockReading, Recognizer, RecognizerConfig, RecognizerEvent};
use crate::eboard::Message;
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

impl SightedBoard {
    /// Whether a sighted board is in use (connected now or before).
    pub fn in_use(&self) -> bool {
        self.link.in_use()
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

    /// Brings the recognizer in line with the record (see
    /// [`follow_record`]): moves entered elsewhere are expected on the
    /// sighted board, takebacks followed.
    pub fn reconcile(&mut self, now: u64, record: &GameRecord) {
        follow_record(&mut self.rec, &mut self.base, now, record, &mut Vec::new());
    }

    pub fn on_event(
        &mut self,
        now: u64,
        event: BoardEvent<Message>,
        record: &GameRecord,
        pack: &Pack,
        out: &mut Vec<Effect>,
    ) -> Vec<SightedAction> {
        self.reconcile(now, record);
        let mut events = Vec::new();
        let rec = &self.rec;
        let input = self.link.on_event(
            BoardSide::Sighted,
            event,
            || rec.mismatch(),
            record,
            pack,
            out,
        );
        match input {
            LinkInput::Done => {}
            // Down or closed: the board is asked for its whole state once
            // it answers again.
            LinkInput::Down => self.rec.link_lost(&mut events),
            // The link asked for the whole board already; the recognizer
            // judges from that dump alone, it keeps no history of lines.
            LinkInput::LinesDropped { .. } => {}
            LinkInput::Message(m) => match m {
                Message::Position(pieces) => self.rec.on_dump(now, &pieces, &mut events),
                Message::Square { square, piece } => {
                    self.rec.on_field_update(now, square, piece, &mut events)
                }
                Message::Clock(reading) => self.clock = Some(reading),
                Message::Ident(text) => {
                    if self.ident.as_ref() != Some(&text) {
                        out.push(Effect::Notice(Notice::SightedBoard {
                            state: SightedState::Ident,
                            detail: text.clone(),
                        }));
                        self.ident = Some(text);
                    }
                }
                // A calibration step is said by the board's own seat
                // (a Certabo board as the sighted board: not yet).
                Message::Calibration(_) | Message::Ack => {}
            },
            // A DGT board knows its pieces: the promoted piece is read
            // from the board, nothing waits for a choice.
            LinkInput::PromotionChoice(_) => {}
            // The one tracker setting both boards share is the guidance
            // time; the settle time stays the DGT board's own (its field
            // updates come slower than a peg-board's lines).
            LinkInput::Configure(cfg) => {
                let mut own = self.rec.config().clone();
                own.guidance_ms = cfg.mismatch_ms;
                self.rec.set_config(own);
            }
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
                        state: SightedState::Orientation,
                        detail: if turned { "turned" } else { "straight" }.into(),
                    }));
                }
                RecognizerEvent::Mismatch(m) => BoardSide::Sighted.mismatch(&m, record, pack, out),
                RecognizerEvent::InSync => BoardSide::Sighted.in_sync(pack, out),
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

impl Mirror for Recognizer {
    /// The recognizer says nothing while it follows the record.
    type Event = ();

    fn played(&self) -> impl Iterator<Item = Move> + '_ {
        self.moves()
    }

    fn is_legal(&self, mv: Move) -> bool {
        self.position().is_legal(mv)
    }

    fn apply(&mut self, now: u64, mv: Move, _events: &mut Vec<()>) {
        self.apply_external(now, mv);
    }

    fn take_back(&mut self, now: u64, _events: &mut Vec<()>) {
        self.take_back_external(now);
    }

    fn restart(&mut self, _now: u64, record: &GameRecord) {
        self.reset(record.position().clone());
    }
}

#[cfg(test)]
#[path = "sighted_tests.rs"]
mod tests;
