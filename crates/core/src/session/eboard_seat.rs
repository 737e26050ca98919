//! A full-position e-board in the session, in either seat: the sighted
//! player's board (two boards, one record) or the blind player's own board
//! (at home: practice, online play, puzzles).
//!
//! The recognizer ([`crate::eboard::Recognizer`]) mirrors the game like the
//! peg-board's tracker: a move it reads on the board goes to the session
//! as [`SeatAction::Play`] (announced, and expected on any other board); a
//! move made elsewhere (the other board, the keyboard, the engine, the
//! server) reaches it through [`EBoardSeat::reconcile`] and is expected on
//! this board, with guidance said as "Sighted board: ..." or, for the
//! player's own board, as the peg-board's. A board with LEDs shows the
//! move it still has to make ([`super::lights`]).

use shakmaty::{Bitboard, Chess, Move, Position};

use super::board_event::BoardEvent;
use super::link::{BoardSide, LinkInput, LinkState, Mirror, follow_record, say};
use super::{BoardDetail, CalibrationState, Effect, Notice, Priority, SightedState};
use crate::board::HostCommand;
use crate::chess::GameRecord;
use crate::dgt::ClockReading;
use crate::eboard::{CalibrationStep, Message};
use crate::eboard::{Recognizer, RecognizerConfig, RecognizerEvent};
use crate::words::{Pack, Token};

/// What an e-board asks the session to do with the game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SeatAction {
    /// A move was made on the board.
    Play(Move),
    /// The board went back to before the last move: confirm.
    TakebackRequested,
    /// The last move was completed differently within the correction time
    /// (castling begun with the rook): the record's last move becomes this.
    Replace(Move),
    /// The start position was set up after the game: the next game
    /// (started at once, or asked where someone answers).
    NewGameRequested,
}

/// One e-board seat of the session.
#[derive(Clone, Debug)]
pub struct EBoardSeat {
    /// Whose board: the blind player's own ([`BoardSide::Peg`]: its words,
    /// notices and commands are the peg-board's) or the sighted player's.
    side: BoardSide,
    pub link: LinkState,
    /// The last clock reading, when a DGT clock is attached.
    pub clock: Option<ClockReading>,
    /// The board's version, once it said it.
    pub ident: Option<String>,
    rec: Recognizer,
    /// Record length when the recognizer was last reset.
    base: Option<usize>,
    /// Moves taken back from the record (elsewhere) that the board may
    /// still show, oldest first: the way back is lit.
    way_back: Vec<Move>,
    /// The squares lit last (board coordinates); `None` until sent on
    /// this link.
    lit: Option<Bitboard>,
    /// The board began the next game while the session still asks
    /// whether to start it: its recognizer follows that game on its own
    /// (the record is the finished one) until the answer.
    detached: bool,
}

impl EBoardSeat {
    /// An e-board seat on `side`, not connected.
    pub fn new(side: BoardSide) -> EBoardSeat {
        EBoardSeat {
            side,
            link: LinkState::NotConnected,
            clock: None,
            ident: None,
            rec: Recognizer::new(RecognizerConfig::default(), Chess::default()),
            base: None,
            way_back: Vec::new(),
            lit: None,
            detached: false,
        }
    }

    /// Follows the board's own next game, not the record, until
    /// [`EBoardSeat::reset`] (see [`super::next_game`]).
    pub fn detach(&mut self) {
        self.detached = true;
    }

    /// Whose board this is.
    pub fn side(&self) -> BoardSide {
        self.side
    }

    /// Whether the board is in use (connected now or before).
    pub fn in_use(&self) -> bool {
        self.link.in_use()
    }

    pub fn recognizer(&self) -> &Recognizer {
        &self.rec
    }

    /// The squares the board was last asked to light (board coordinates).
    pub fn lit(&self) -> Bitboard {
        self.lit.unwrap_or(Bitboard::EMPTY)
    }

    pub fn next_deadline(&self) -> Option<u64> {
        self.rec.next_deadline()
    }

    /// Starts from the record's current position (a new or resumed game).
    pub fn reset(&mut self, record: &GameRecord) {
        self.detached = false;
        self.rec.reset(record.position().clone());
        self.base = Some(record.moves().len());
        self.way_back.clear();
    }

    /// The board is compared with the game again now (it may differ:
    /// guided after the guidance time).
    pub fn compare_again(&mut self, now: u64) {
        self.rec.compare_again(now);
    }

    /// Brings the recognizer in line with the record (see
    /// [`follow_record`]): moves entered elsewhere are expected on the
    /// board, takebacks followed (and their way back kept for the lights).
    pub fn reconcile(&mut self, now: u64, record: &GameRecord) {
        if self.detached {
            return;
        }
        let mut followed = Vec::new();
        follow_record(&mut self.rec, &mut self.base, now, record, &mut followed);
        for step in followed {
            match step {
                Followed::Applied => self.way_back.clear(),
                Followed::TakenBack(mv) => self.way_back.insert(0, mv),
            }
        }
    }

    /// A command for this board: the own board's go out as the
    /// peg-board's (the shell sends them to whichever board is the
    /// player's), the sighted board's as its own.
    fn command(&self, command: HostCommand) -> Effect {
        match self.side {
            BoardSide::Peg => Effect::BoardCommand(command),
            BoardSide::Sighted => Effect::SightedBoardCommand(command),
        }
    }

    pub fn on_event(
        &mut self,
        now: u64,
        event: BoardEvent<Message>,
        record: &GameRecord,
        pack: &Pack,
        out: &mut Vec<Effect>,
    ) -> Vec<SeatAction> {
        self.reconcile(now, record);
        let mut events = Vec::new();
        let rec = &self.rec;
        let input = self
            .link
            .on_event(self.side, event, || rec.mismatch(), record, pack, out);
        match input {
            LinkInput::Done => {}
            // Down or closed: the board is asked for its whole state once
            // it answers again; its lights are sent again then too.
            LinkInput::Down => {
                self.lit = None;
                self.rec.link_lost(&mut events)
            }
            // The link asked for the whole board already; the recognizer
            // judges from that dump alone, it keeps no history of lines.
            LinkInput::LinesDropped { .. } => {}
            LinkInput::Message(m) => self.on_message(now, m, pack, out, &mut events),
            // An e-board knows its pieces: the promoted piece is read
            // from the board, nothing waits for a choice.
            LinkInput::PromotionChoice(_) => {}
            // The one tracker setting both boards share is the guidance
            // time; the settle time stays the e-board's own (its reports
            // come slower than a peg-board's lines).
            LinkInput::Configure(cfg) => {
                let mut own = self.rec.config().clone();
                own.guidance_ms = cfg.mismatch_ms;
                if let Some(ms) = cfg.eboard_settle_ms {
                    own.settle_ms = ms;
                }
                self.rec.set_config(own);
                // Which way round the board lies, when fixed by hand: said
                // of a board in use only (the settings reach an unused
                // seat too).
                let mut turned = Vec::new();
                self.rec
                    .set_orientation_choice(now, cfg.orientation, &mut turned);
                if self.in_use() {
                    events.extend(turned);
                }
            }
        }
        self.translate(events, record, pack, out)
    }

    fn on_message(
        &mut self,
        now: u64,
        message: Message,
        pack: &Pack,
        out: &mut Vec<Effect>,
        events: &mut Vec<RecognizerEvent>,
    ) {
        match message {
            Message::Position(pieces) => self.rec.on_dump(now, &pieces, events),
            Message::Square { square, piece } => {
                self.rec.on_field_update(now, square, piece, events)
            }
            Message::Clock(reading) => self.clock = Some(reading),
            Message::Ident(text) => {
                // The keep-alive repeats it: noticed once per change.
                if self.ident.as_ref() != Some(&text) {
                    out.push(Effect::Notice(match self.side {
                        BoardSide::Peg => Notice::BoardInfo { text: text.clone() },
                        BoardSide::Sighted => Notice::SightedBoard {
                            state: SightedState::Ident,
                            detail: BoardDetail::Text(text.clone()),
                        },
                    }));
                    self.ident = Some(text);
                }
            }
            Message::Calibration(step) => self.calibration(step, pack, out),
            Message::Scanned => self.rec.on_scan(now, events),
            // An occupancy-only board (the Pegasus) is followed by the
            // peg-board's tracker (`BoardEvent::for_own_board`); the
            // settings offer it in no e-board seat.
            Message::Ack | Message::Occupancy(_) => {}
        }
    }

    /// A calibration step (a Certabo board) said in this board's words.
    fn calibration(&self, step: CalibrationStep, pack: &Pack, out: &mut Vec<Effect>) {
        let (state, text, detail) = match step {
            CalibrationStep::SetUpStart => (
                CalibrationState::SetUpStart,
                pack.say("calibration_set_up_start"),
                BoardDetail::None,
            ),
            // Said in words of its own; a notice as the first ask's.
            CalibrationStep::SetUpAgain => (
                CalibrationState::SetUpStart,
                pack.say("calibration_set_up_again"),
                BoardDetail::Again,
            ),
            CalibrationStep::Done { spare_queens } => (
                CalibrationState::Done,
                pack.phrase(
                    "calibration_done",
                    &[("n", pack.render(&[Token::Number(spare_queens.into())]))],
                ),
                BoardDetail::Count(spare_queens.into()),
            ),
            CalibrationStep::UnknownPiece(square) => (
                CalibrationState::UnknownPiece,
                pack.phrase(
                    "calibration_unknown_piece",
                    &[("square", pack.square(square))],
                ),
                BoardDetail::Square(square),
            ),
        };
        say(out, pack, self.side.words(pack, text), Priority::Guidance);
        out.push(Effect::Notice(Notice::Calibration {
            step: state,
            detail,
            sighted: self.side == BoardSide::Sighted,
        }));
    }

    pub fn on_tick(
        &mut self,
        now: u64,
        record: &GameRecord,
        pack: &Pack,
        out: &mut Vec<Effect>,
    ) -> Vec<SeatAction> {
        self.reconcile(now, record);
        let mut events = Vec::new();
        self.rec.on_tick(now, &mut events);
        let actions = self.translate(events, record, pack, out);
        self.light(record, out);
        actions
    }

    /// Sends the squares to light when they changed (every board is sent
    /// them: one without LEDs writes nothing for them).
    fn light(&mut self, record: &GameRecord, out: &mut Vec<Effect>) {
        if !matches!(self.link, LinkState::Connected { .. }) {
            self.lit = None;
            return;
        }
        // Detached, the record is not the board's game: nothing to show.
        let squares = if self.detached {
            Bitboard::EMPTY
        } else {
            super::lights::squares(&self.rec, record, &self.way_back, self.lit())
        };
        if self.lit != Some(squares) {
            self.lit = Some(squares);
            out.push(self.command(HostCommand::Lights(squares)));
        }
        if !self.rec.settling() && self.rec.seen().as_ref() == Some(self.rec.position().board()) {
            // The board agrees with the game: no way back to show.
            self.way_back.clear();
        }
    }

    fn translate(
        &mut self,
        events: Vec<RecognizerEvent>,
        record: &GameRecord,
        pack: &Pack,
        out: &mut Vec<Effect>,
    ) -> Vec<SeatAction> {
        let mut actions = Vec::new();
        for event in events {
            match event {
                RecognizerEvent::RequestBoard => out.push(self.command(HostCommand::Snapshot)),
                RecognizerEvent::Move(mv) => actions.push(SeatAction::Play(mv)),
                RecognizerEvent::Takeback(_) => actions.push(SeatAction::TakebackRequested),
                RecognizerEvent::Corrected { new, .. } => actions.push(SeatAction::Replace(new)),
                RecognizerEvent::NewGame => actions.push(SeatAction::NewGameRequested),
                RecognizerEvent::Orientation { turned } => {
                    if turned {
                        let text = self.side.words(pack, pack.say("board_turned"));
                        say(out, pack, text, Priority::Guidance);
                    }
                    out.push(Effect::Notice(match self.side {
                        BoardSide::Peg => Notice::Orientation { turned },
                        BoardSide::Sighted => Notice::SightedBoard {
                            state: SightedState::Orientation,
                            detail: BoardDetail::Turned(turned),
                        },
                    }));
                }
                RecognizerEvent::Mismatch(m) => self.side.mismatch(&m, record, pack, out),
                RecognizerEvent::InSync => self.side.in_sync(pack, out),
            }
        }
        actions
    }
}

/// What following the record did to the recognizer.
pub(super) enum Followed {
    /// A move made elsewhere is now expected on the board.
    Applied,
    /// This move was taken back elsewhere.
    TakenBack(Move),
}

impl Mirror for Recognizer {
    type Event = Followed;

    fn played(&self) -> impl Iterator<Item = Move> + '_ {
        self.moves()
    }

    fn is_legal(&self, mv: Move) -> bool {
        self.position().is_legal(mv)
    }

    fn apply(&mut self, now: u64, mv: Move, events: &mut Vec<Followed>) {
        self.apply_external(now, mv);
        events.push(Followed::Applied);
    }

    fn take_back(&mut self, now: u64, events: &mut Vec<Followed>) {
        if let Some(mv) = self.take_back_external(now) {
            events.push(Followed::TakenBack(mv));
        }
    }

    fn restart(&mut self, _now: u64, record: &GameRecord) {
        self.reset(record.position().clone());
    }
}

#[cfg(test)]
#[path = "eboard_seat_tests.rs"]
mod tests;
