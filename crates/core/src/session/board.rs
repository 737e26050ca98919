//! The peg-board side of the session: link state, and the move tracker's
//! events turned into speech, sounds and moves.
//!
//! The tracker ([`crate::board::Tracker`]) mirrors the game: moves it sees
//! executed on the board go to the session as [`BoardAction::Play`]; moves
//! entered elsewhere and takebacks reach it through
//! [`BoardState::on_game_changed`] and a reconciliation with the game record
//! before every event, so the tracker can never drift from the scoresheet.

use shakmaty::{Chess, Move, Piece, Position};

pub use super::board_event::BoardEvent;
use super::link::{BoardSide, LinkInput, Mirror, follow_record, say};
use super::{Effect, Mode, Notice, Priority, SessionConfig, Source};
use crate::board::tracker::{BoardMask, board_difference};
use crate::board::{PegMessage, Tracker, TrackerConfig, TrackerEvent};
use crate::chess::GameRecord;
use crate::session::Earcon;
use crate::words::{Pack, Token, Utterance};

/// What the board part asks the session to do with the game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BoardAction {
    /// A move was executed on the peg-board.
    Play(Move),
    /// The board went back to the position before the last move (E.6).
    TakebackRequested,
    /// The player corrected the promotion piece of his last move before
    /// the opponent's move was executed: the record's last move becomes this.
    CorrectPromotion(Move),
    /// The last move's piece was carried on from a square on the way
    /// (a slide read early): the record's last move becomes this.
    CompleteSlide(Move),
    /// The start position was set up after the game: the next game
    /// (started at once, or asked where someone answers).
    NewGameRequested,
}

pub use super::link::LinkState;

/// The peg-board part of the session state.
#[derive(Clone, Debug)]
pub struct BoardState {
    pub link: LinkState,
    /// The last occupancy the board reported (board coordinates: see
    /// [`BoardState::difference`] for game squares).
    pub last_mask: Option<BoardMask>,
    /// When the last message arrived (session time).
    pub last_message_ms: Option<u64>,
    tracker: Tracker,
    /// Record length when the tracker was last reset (a resumed game).
    base: Option<usize>,
    /// Tracker events produced outside an event with an output (e.g. while
    /// following a takeback), delivered with the next tick.
    queued: Vec<TrackerEvent>,
    /// Whether touched pieces are spoken (the setting).
    announce_touched: bool,
    /// The squares lit last (board coordinates; `None`: none sent on this
    /// link yet), for a board with lights.
    lit: Option<shakmaty::Bitboard>,
    /// Guidance was given for the board as it stands (a mismatch event
    /// and no agreement since): its differing squares are lit.
    guided: bool,
}

fn tracker_config(config: &SessionConfig, base: &TrackerConfig) -> TrackerConfig {
    TrackerConfig {
        strict: config.mode == Mode::Tournament,
        ..base.clone()
    }
}

fn piece_on(pack: &Pack, piece: Piece, square: shakmaty::Square) -> Utterance {
    pack.render(&[Token::Piece(piece.role), Token::Square(square)])
}

impl BoardState {
    pub fn new(config: &SessionConfig) -> BoardState {
        BoardState {
            link: LinkState::NotConnected,
            last_mask: None,
            last_message_ms: None,
            tracker: Tracker::new(
                tracker_config(config, &TrackerConfig::default()),
                Chess::default(),
            ),
            base: None,
            queued: Vec::new(),
            announce_touched: config.announce_touched,
            lit: None,
            guided: false,
        }
    }

    /// The move tracker (orientation, pending promotion, current mismatch).
    pub fn tracker(&self) -> &Tracker {
        &self.tracker
    }

    /// The game squares where the board's last report differs from `game`,
    /// read in the tracker's orientation (empty before any report).
    pub fn difference(&self, game: &Chess) -> shakmaty::Bitboard {
        self.last_mask.map_or(shakmaty::Bitboard::EMPTY, |m| {
            board_difference(m, self.tracker.orientation(), game)
        })
    }

    pub fn configure(&mut self, config: &SessionConfig) {
        let cfg = tracker_config(config, self.tracker.config());
        self.tracker.set_config(cfg);
        self.announce_touched = config.announce_touched;
    }

    /// Starts the tracker from the record's current position: the moves
    /// recorded so far are its base (a resumed game), and every later move
    /// reaches it through [`BoardState::reconcile`].
    pub fn reset(&mut self, _config: &SessionConfig, record: &GameRecord) {
        self.tracker.reset(record.position().clone());
        self.base = Some(record.moves().len());
        self.queued.clear();
    }

    /// Forgets the board that was there: a tracker of the record's
    /// position that has seen no board yet.
    fn forget_board(&mut self, record: &GameRecord) {
        self.tracker = Tracker::new(self.tracker.config().clone(), record.position().clone());
        self.base = Some(record.moves().len());
        self.last_mask = None;
        self.queued.clear();
    }

    pub fn next_deadline(&self) -> Option<u64> {
        self.tracker.next_deadline()
    }

    /// Brings the tracker in line with the record (see
    /// [`follow_record`]); what it says on the way waits for the next
    /// output.
    fn reconcile(&mut self, now: u64, record: &GameRecord) {
        follow_record(
            &mut self.tracker,
            &mut self.base,
            now,
            record,
            &mut self.queued,
        );
    }

    pub fn on_event(
        &mut self,
        now: u64,
        event: BoardEvent,
        record: &GameRecord,
        pack: &Pack,
        out: &mut Vec<Effect>,
    ) -> Vec<BoardAction> {
        self.reconcile(now, record);
        let mut events = std::mem::take(&mut self.queued);
        let tracker = &self.tracker;
        let input = self.link.on_event(
            BoardSide::Peg,
            event,
            || tracker.mismatch(),
            record,
            pack,
            out,
        );
        match input {
            LinkInput::Done => {}
            // Lost: what happens on the board from now on is unseen, and
            // judged when it is back.
            LinkInput::Down if self.link.in_use() => self.tracker.link_lost(),
            // Closed (switched off, another port chosen): no board is
            // there any more; nothing is marked or guided, and a board
            // that comes up is read afresh.
            LinkInput::Down => self.forget_board(record),
            // The tracker judges from the next good line what may have
            // been missed.
            LinkInput::LinesDropped { count } => self.tracker.lines_lost(now, count),
            LinkInput::Message(msg) => {
                self.last_message_ms = Some(now);
                match msg {
                    PegMessage::Fault(text) => {
                        say(
                            out,
                            pack,
                            pack.phrase("board_fault", &[("text", text.as_str().into())]),
                            Priority::Alert,
                        );
                        out.push(Effect::Notice(Notice::BoardInfo { text }));
                    }
                    PegMessage::Ident(text) => out.push(Effect::Notice(Notice::BoardInfo { text })),
                    PegMessage::Snapshot(mask) => {
                        self.last_mask = Some(BoardMask(mask));
                        self.tracker.on_snapshot(now, BoardMask(mask), &mut events);
                    }
                    PegMessage::Pieces(pieces) => {
                        self.last_mask = Some(BoardMask(crate::board::pieces_mask(&pieces)));
                        self.tracker.on_pieces(now, &pieces, &mut events);
                    }
                }
            }
            LinkInput::PromotionChoice(role) => {
                self.tracker.choose_promotion(role, &mut events);
            }
            LinkInput::Configure(cfg) => self.tracker.set_config(cfg),
        }
        let actions = self.translate(events, record, pack, out);
        self.light(record, out);
        actions
    }

    pub fn on_tick(
        &mut self,
        now: u64,
        record: &GameRecord,
        pack: &Pack,
        out: &mut Vec<Effect>,
    ) -> Vec<BoardAction> {
        self.reconcile(now, record);
        let mut events = std::mem::take(&mut self.queued);
        self.tracker.on_tick(now, &mut events);
        let actions = self.translate(events, record, pack, out);
        self.light(record, out);
        actions
    }

    /// Sends the squares to light when they changed, on a board with
    /// lights (the setting `guide_lights`).
    fn light(&mut self, record: &GameRecord, out: &mut Vec<Effect>) {
        if !self.tracker.config().guide_lights || !matches!(self.link, LinkState::Connected { .. })
        {
            self.lit = None;
            return;
        }
        let lit = self.lit.unwrap_or(shakmaty::Bitboard::EMPTY);
        let squares = super::board_lights::squares(&self.tracker, record, self.guided, lit);
        if self.lit != Some(squares) {
            self.lit = Some(squares);
            out.push(Effect::BoardCommand(crate::board::HostCommand::Lights(
                squares,
            )));
        }
    }

    /// The game changed by a move from elsewhere or a takeback: the board
    /// must now follow it.
    pub fn on_game_changed(&mut self, now: u64, record: &GameRecord, _source: Source) {
        // A peg-board move is already in the tracker; anything else is
        // taken over here (and checked again before every event).
        self.reconcile(now, record);
    }

    fn translate(
        &mut self,
        events: Vec<TrackerEvent>,
        record: &GameRecord,
        pack: &Pack,
        out: &mut Vec<Effect>,
    ) -> Vec<BoardAction> {
        let announce_touched = self.announce_touched;
        let mut actions = Vec::new();
        let speak =
            |out: &mut Vec<Effect>, text: Utterance, priority| say(out, pack, text, priority);
        for event in events {
            match event {
                TrackerEvent::Touched { square, piece } => {
                    if announce_touched {
                        speak(
                            out,
                            pack.phrase("touched", &[("piece", piece_on(pack, piece, square))]),
                            Priority::Info,
                        );
                    }
                    out.push(Effect::Sound(Earcon::Touched));
                    out.push(Effect::Notice(Notice::Touched { square, piece }));
                }
                TrackerEvent::Executed(mv) => actions.push(BoardAction::Play(mv)),
                TrackerEvent::PromotionPending { to, .. } => {
                    speak(
                        out,
                        pack.phrase("promotion_ask", &[("square", pack.square(to))]),
                        Priority::Alert,
                    );
                    out.push(Effect::Notice(Notice::Promotion { square: to }));
                }
                TrackerEvent::TouchMove { square, piece } => {
                    speak(
                        out,
                        pack.phrase("touch_move", &[("piece", piece_on(pack, piece, square))]),
                        Priority::Alert,
                    );
                    out.push(Effect::Sound(Earcon::Illegal));
                    out.push(Effect::Notice(Notice::TouchMove { square, piece }));
                }
                TrackerEvent::TakebackRequested(_) => {
                    out.push(Effect::Notice(Notice::TakebackRequested));
                    actions.push(BoardAction::TakebackRequested);
                }
                TrackerEvent::NewGameShown => actions.push(BoardAction::NewGameRequested),
                TrackerEvent::Mismatch(m) => {
                    self.guided = true;
                    BoardSide::Peg.mismatch(&m, record, pack, out)
                }
                TrackerEvent::InSync => {
                    self.guided = false;
                    BoardSide::Peg.in_sync(pack, out)
                }
                TrackerEvent::BoardTurned { .. } => {
                    speak(out, pack.say("board_turned"), Priority::Guidance);
                    out.push(Effect::Notice(Notice::BoardTurned));
                }
                TrackerEvent::OrientationDecided { flipped } => {
                    out.push(Effect::Notice(Notice::Orientation { turned: flipped }));
                }
                TrackerEvent::PromotionDefaulted { mv } => {
                    out.push(Effect::Notice(Notice::PromotionDefaulted { mv }));
                }
                TrackerEvent::PromotionCorrected { new, .. } => {
                    actions.push(BoardAction::CorrectPromotion(new));
                }
                TrackerEvent::SlideCompleted { new, .. } => {
                    actions.push(BoardAction::CompleteSlide(new));
                }
                TrackerEvent::Resynchronised { moves } => {
                    let uci: Vec<String> = moves
                        .iter()
                        .map(|m| m.to_uci(shakmaty::CastlingMode::Standard).to_string())
                        .collect();
                    let text = pack.phrase(
                        "board_resynced",
                        &[("moves", uci.join(", ").as_str().into())],
                    );
                    out.push(Effect::Notice(Notice::Resynchronised { moves }));
                    speak(out, text, Priority::Move);
                }
                TrackerEvent::SensorStuck { square, occupied } => {
                    let key = if occupied {
                        "sensor_stuck"
                    } else {
                        "sensor_dead"
                    };
                    let text = pack.phrase(key, &[("square", pack.square(square))]);
                    out.push(Effect::Notice(Notice::SensorStuck {
                        square,
                        occupied,
                        text: text.written.clone(),
                    }));
                    speak(out, text, Priority::Alert);
                    out.push(Effect::Sound(Earcon::Mismatch));
                }
                TrackerEvent::SensorRecovered { square } => {
                    let text = pack.phrase("sensor_recovered", &[("square", pack.square(square))]);
                    out.push(Effect::Notice(Notice::SensorRecovered { square }));
                    speak(out, text, Priority::Guidance);
                }
                TrackerEvent::SensorSuspect { mv, square } => {
                    let text = pack.phrase("sensor_suspect", &[("square", pack.square(square))]);
                    out.push(Effect::Notice(Notice::SensorSuspect { square, mv }));
                    speak(out, text, Priority::Alert);
                    out.push(Effect::Sound(Earcon::Mismatch));
                }
            }
        }
        actions
    }
}

impl Mirror for Tracker {
    type Event = TrackerEvent;

    fn played(&self) -> impl Iterator<Item = Move> + '_ {
        self.moves()
    }

    fn is_legal(&self, mv: Move) -> bool {
        self.position().is_legal(mv)
    }

    fn apply(&mut self, now: u64, mv: Move, events: &mut Vec<TrackerEvent>) {
        self.apply_external(now, mv, events);
    }

    fn take_back(&mut self, now: u64, events: &mut Vec<TrackerEvent>) {
        Tracker::take_back(self, now, events);
    }

    fn restart(&mut self, now: u64, record: &GameRecord) {
        self.reset_guided(now, record.position().clone());
    }

    fn outlives_restart(event: &TrackerEvent) -> bool {
        matches!(
            event,
            TrackerEvent::SensorStuck { .. } | TrackerEvent::SensorRecovered { .. }
        )
    }
}

#[cfg(test)]
#[path = "board_tests.rs"]
pub(super) mod tests;
