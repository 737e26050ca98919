//! The peg-board side of the session: link state, and the move tracker's
//! events turned into speech, sounds and moves.
//!
//! The tracker ([`crate::board::Tracker`]) mirrors the game: moves it sees
//! executed on the board go to the session as [`BoardAction::Play`]; moves
//! entered elsewhere and takebacks reach it through
//! [`BoardState::on_game_changed`] and a reconciliation with the game record
//! before every event, so the tracker can never drift from the scoresheet.

use shakmaty::{Chess, Move, Piece, Position, Role};

use super::{Effect, Mode, Notice, Priority, SessionConfig, Source, Speech};
use crate::board::guidance::guidance;
use crate::board::tracker::{BoardMask, board_difference, render_in_sync};
use crate::board::{BoardMessage, Tracker, TrackerConfig, TrackerEvent};
use crate::chess::GameRecord;
use crate::session::Earcon;
use crate::words::{Pack, Token, Utterance};

/// What the board link reports to the session.
#[derive(Clone, Debug, PartialEq)]
pub enum BoardEvent {
    /// A decoded message (snapshot, piece identities, ident, fault).
    Message(BoardMessage),
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
    /// The player chose the promotion piece (keyboard or menu).
    PromotionChoice(Role),
    /// New tracker settings (settle window, promotion default, ...). The
    /// strict flag follows the session mode unless set here.
    Configure(TrackerConfig),
    /// Speak the current mismatch guidance again (on request).
    RepeatGuidance,
}

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
}

/// Link state as the GUI shows it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum LinkState {
    #[default]
    NotConnected,
    Connected {
        port: String,
    },
    Lost {
        reason: String,
    },
}

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
}

fn tracker_config(config: &SessionConfig, base: &TrackerConfig) -> TrackerConfig {
    TrackerConfig {
        strict: config.mode == Mode::Tournament,
        ..base.clone()
    }
}

fn piece_name(piece: Piece) -> String {
    let role = crate::words::role_key(piece.role);
    format!(
        "{} {role}",
        if piece.color.is_white() {
            "white"
        } else {
            "black"
        }
    )
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

    pub fn next_deadline(&self) -> Option<u64> {
        self.tracker.next_deadline()
    }

    /// Brings the tracker in line with the record: moves entered elsewhere
    /// are expected on the board, takebacks are followed, and a move the
    /// session refused (game over) is withdrawn.
    fn reconcile(&mut self, now: u64, record: &GameRecord) {
        let recorded = record.moves().len();
        let base = *self
            .base
            .get_or_insert(recorded.saturating_sub(self.tracker.moves().count()));
        if recorded < base {
            self.tracker.reset_guided(now, record.position().clone());
            self.base = Some(recorded);
            return;
        }
        let want = recorded - base;
        while self.tracker.moves().count() > want {
            let count = self.tracker.moves().count();
            let mut events = Vec::new();
            self.tracker.take_back(now, &mut events);
            if self.tracker.moves().count() >= count {
                // The board still shows a move the session refused (the
                // game is over): the tracker saw it again at once. Drop it
                // and follow the record; the board is compared afresh when
                // the player puts the piece back.
                self.tracker.reset_guided(now, record.position().clone());
                self.base = Some(recorded);
                return;
            }
            self.queued.extend(events);
        }
        let have = self.tracker.moves().count();
        let agree = record.moves()[base..base + have]
            .iter()
            .map(|m| m.mv)
            .eq(self.tracker.moves());
        if !agree {
            self.tracker.reset_guided(now, record.position().clone());
            self.base = Some(recorded);
            return;
        }
        for m in &record.moves()[base + have..] {
            // Never play a move the tracker's position does not allow (it
            // would panic in shakmaty): start again from the record.
            if !self.tracker.position().is_legal(m.mv) {
                self.tracker.reset_guided(now, record.position().clone());
                self.base = Some(recorded);
                return;
            }
            self.tracker.apply_external(now, m.mv, &mut self.queued);
        }
    }

    pub fn on_event(
        &mut self,
        now: u64,
        event: BoardEvent,
        record: &GameRecord,
        pack: &Pack,
        out: &mut Vec<Effect>,
    ) -> Vec<BoardAction> {
        let say = |out: &mut Vec<Effect>, text, priority| {
            out.push(Effect::Speak(Speech {
                text,
                lang: pack.lang,
                priority,
            }));
        };
        self.reconcile(now, record);
        let mut events = std::mem::take(&mut self.queued);
        match event {
            BoardEvent::Message(msg) => {
                self.last_message_ms = Some(now);
                match msg {
                    BoardMessage::Fault(text) => {
                        say(
                            out,
                            pack.phrase("board_fault", &[("text", text.as_str().into())]),
                            Priority::Alert,
                        );
                        out.push(Effect::Notice(Notice::BoardInfo { text }));
                    }
                    BoardMessage::Ident(text) => {
                        out.push(Effect::Notice(Notice::BoardInfo { text }))
                    }
                    BoardMessage::Snapshot(mask) => {
                        self.last_mask = Some(BoardMask(mask));
                        self.tracker.on_snapshot(now, BoardMask(mask), &mut events);
                    }
                    BoardMessage::Pieces(pieces) => {
                        self.last_mask = Some(BoardMask(crate::board::pieces_mask(&pieces)));
                        self.tracker.on_pieces(now, &pieces, &mut events);
                    }
                    // The sighted player's DGT board is not the peg-board.
                    BoardMessage::Dgt(_) => {}
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
                out.push(Effect::Notice(Notice::Link {
                    state: state.into(),
                    detail: port,
                }));
                out.push(Effect::BoardCommand(crate::board::HostCommand::Snapshot));
            }
            BoardEvent::LinkLost { reason } => {
                self.tracker.link_lost();
                if !matches!(self.link, LinkState::Lost { .. }) {
                    say(out, pack.say("link_lost"), Priority::Alert);
                    out.push(Effect::Sound(Earcon::LinkLost));
                    out.push(Effect::Notice(Notice::Link {
                        state: "lost".into(),
                        detail: reason.clone(),
                    }));
                }
                self.link = LinkState::Lost { reason };
            }
            BoardEvent::LinkClosed => {
                // What happens on the board from now on is unseen.
                self.tracker.link_lost();
                self.link = LinkState::NotConnected;
                out.push(Effect::Notice(Notice::Link {
                    state: "closed".into(),
                    detail: String::new(),
                }));
            }
            BoardEvent::LinesDropped { count } => {
                // A hole in time: the board is asked for its whole state
                // again at once, and the tracker judges from the next good
                // line what may have been missed.
                self.tracker.lines_lost(now, count);
                out.push(Effect::Notice(Notice::Link {
                    state: "lines_dropped".into(),
                    detail: count.to_string(),
                }));
                out.push(Effect::BoardCommand(crate::board::HostCommand::Snapshot));
            }
            BoardEvent::PromotionChoice(role) => {
                self.tracker.choose_promotion(role, &mut events);
            }
            BoardEvent::Configure(cfg) => self.tracker.set_config(cfg),
            BoardEvent::RepeatGuidance => {
                let text = match self.tracker.mismatch() {
                    Some(m) => guidance(pack, &m, record),
                    None => render_in_sync(pack),
                };
                say(out, text, Priority::Answer);
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
    ) -> Vec<BoardAction> {
        self.reconcile(now, record);
        let mut events = std::mem::take(&mut self.queued);
        self.tracker.on_tick(now, &mut events);
        self.translate(events, record, pack, out)
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
        let speak = |out: &mut Vec<Effect>, text: Utterance, priority| {
            out.push(Effect::Speak(Speech {
                text,
                lang: pack.lang,
                priority,
            }));
        };
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
                    out.push(Effect::Notice(Notice::Touched {
                        square: square.to_string(),
                        piece: piece_name(piece),
                    }));
                }
                TrackerEvent::Executed(mv) => actions.push(BoardAction::Play(mv)),
                TrackerEvent::PromotionPending { to, .. } => {
                    speak(
                        out,
                        pack.phrase("promotion_ask", &[("square", pack.square(to))]),
                        Priority::Alert,
                    );
                    out.push(Effect::Notice(Notice::Promotion {
                        square: to.to_string(),
                    }));
                }
                TrackerEvent::TouchMove { square, piece } => {
                    speak(
                        out,
                        pack.phrase("touch_move", &[("piece", piece_on(pack, piece, square))]),
                        Priority::Alert,
                    );
                    out.push(Effect::Sound(Earcon::Illegal));
                    out.push(Effect::Notice(Notice::TouchMove {
                        square: square.to_string(),
                        piece: piece_name(piece),
                    }));
                }
                TrackerEvent::TakebackRequested(_) => {
                    out.push(Effect::Notice(Notice::TakebackRequested));
                    actions.push(BoardAction::TakebackRequested);
                }
                TrackerEvent::Mismatch(m) => {
                    speak(out, guidance(pack, &m, record), Priority::Guidance);
                    out.push(Effect::Sound(Earcon::Mismatch));
                    out.push(Effect::Notice(Notice::mismatch(&m)));
                }
                TrackerEvent::InSync => {
                    speak(out, render_in_sync(pack), Priority::Guidance);
                    out.push(Effect::Sound(Earcon::InSync));
                    out.push(Effect::Notice(Notice::InSync));
                }
                TrackerEvent::BoardTurned { .. } => {
                    speak(out, pack.say("board_turned"), Priority::Guidance);
                    out.push(Effect::Notice(Notice::BoardTurned));
                }
                TrackerEvent::OrientationDecided { flipped } => {
                    out.push(Effect::Notice(Notice::Orientation { turned: flipped }));
                }
                TrackerEvent::PromotionDefaulted { mv } => {
                    out.push(Effect::Notice(Notice::PromotionDefaulted {
                        uci: mv.to_uci(shakmaty::CastlingMode::Standard).to_string(),
                    }));
                }
                TrackerEvent::PromotionCorrected { new, .. } => {
                    actions.push(BoardAction::CorrectPromotion(new));
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
                    out.push(Effect::Notice(Notice::Resynchronised { moves: uci }));
                    speak(out, text, Priority::Move);
                }
                TrackerEvent::SensorStuck { square } => {
                    let text = pack.phrase("sensor_stuck", &[("square", pack.square(square))]);
                    out.push(Effect::Notice(Notice::SensorStuck {
                        square: square.to_string(),
                    }));
                    speak(out, text, Priority::Alert);
                    out.push(Effect::Sound(Earcon::Mismatch));
                }
                TrackerEvent::SensorRecovered { square } => {
                    let text = pack.phrase("sensor_recovered", &[("square", pack.square(square))]);
                    out.push(Effect::Notice(Notice::SensorRecovered {
                        square: square.to_string(),
                    }));
                    speak(out, text, Priority::Guidance);
                }
                TrackerEvent::SensorSuspect { mv, square } => {
                    let text = pack.phrase("sensor_suspect", &[("square", pack.square(square))]);
                    out.push(Effect::Notice(Notice::SensorSuspect {
                        square: square.to_string(),
                        uci: mv.to_uci(shakmaty::CastlingMode::Standard).to_string(),
                    }));
                    speak(out, text, Priority::Alert);
                    out.push(Effect::Sound(Earcon::Mismatch));
                }
            }
        }
        actions
    }
}

#[cfg(test)]
#[path = "board_tests.rs"]
pub(super) mod tests;
