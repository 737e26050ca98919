//! The session core: one [`Event`] in, a list of [`Effect`]s out.
//!
//! The session owns the game record, the clock, the language pack and (via
//! [`board`]) the peg-board tracker. It never reads a clock or touches a
//! device: every event carries the current time in milliseconds, and
//! [`Session::next_deadline`] tells a driver when to send the next
//! [`Event::Tick`]. A driver can therefore run it in real time (GUI, serial
//! link) or replay it in virtual time (board logs, tests) with identical
//! results.

pub mod board;
pub mod board_event;
mod board_lights;
mod clock_keys;
mod config;
pub mod eboard_seat;
mod effect;
mod engine;
mod event;
mod handled;
mod lights;
pub mod link;
mod next_game;
mod notice;
mod notice_json;
pub mod online;
pub mod practice;
mod promotion;
pub mod puzzle;
mod question;
mod resume_clock;
mod retrace;
mod seats;
pub mod sighted;

use shakmaty::{Color, Move, Position, Square};

use crate::announce::{self};
use crate::chess::{Claim, GameRecord, MoveInputError};
use crate::clock::Clock;
use crate::words::{Lang, Pack, Utterance};

pub use config::{Mode, SessionConfig};
// Speech's and sound's vocabulary live below the session (it speaks in
// them); re-exported here, where callers have always found them.
pub use crate::audio::Earcon;
pub use crate::speech::{Priority, Speech, SpeechClass};
pub use effect::Effect;
pub use engine::Opponent;
pub use event::{Command, Event, Source};
pub use handled::{Handled, Outcome, Refusal};
pub use notice::{BoardDetail, CalibrationState, EngineChange, LinkChange, Notice, SightedState};
pub use practice::{Practice, PracticeCommand};
pub use puzzle::{PuzzleCommand, PuzzleRun};
pub use question::{Pending, Question, QuestionKind};

/// The session state. See the module documentation.
pub struct Session {
    config: SessionConfig,
    pack: Pack,
    /// Every bundled pack plus the active one, for reading typed words.
    input_packs: Vec<Pack>,
    record: GameRecord,
    clock: Clock,
    /// Time of the first event of this game, so moves carry game time.
    game_origin_ms: Option<u64>,
    /// Game time already played before `game_origin_ms` (a resumed game
    /// whose saved time is longer than this process has run): moves made
    /// now go on from it instead of starting at 0 again.
    game_time_base_ms: u64,
    last_announcement: Option<Utterance>,
    pending: Option<Pending>,
    board: board::BoardState,
    sighted: sighted::SightedBoard,
    /// The player's own board when it is an e-board ([`Event::EBoard`]).
    eboard: eboard_seat::EBoardSeat,
    /// The moves the last retrace removed, for [`Command::UndoRetrace`].
    retraced: Option<retrace::Retraced>,
    engine: engine::EngineState,
    /// The shell's seed for the practice opponent's random choices.
    seed: u64,
    /// What the event being handled did to the game.
    outcome: Outcome,
    /// Puzzle mode (see [`puzzle`]).
    puzzle: puzzle::PuzzleState,
    /// The player's own time warnings said this game (2:30, emergency).
    player_warnings: crate::clock::PlayerWarnings,
    /// Online play, while connected ([`online`]).
    online: Option<Box<online::OnlinePlay>>,
    /// The side the player has in the online game running, set when the
    /// game begins and dropped when it ends (the game over, the
    /// connection closed): the own board's moves are checked against it.
    online_side: Option<shakmaty::Color>,
    /// The last refusal of a move read from the player's own board online:
    /// the record's length then and the words' key (said once while the
    /// game stands there).
    board_refusal_said: Option<(usize, &'static str)>,
    /// An e-board's next game, while "Start a new game?" waits.
    held_game: Option<next_game::HeldGame>,
}

impl Session {
    /// A session speaking `pack` (the shell loads it, user overrides
    /// included: the shell's `LoadPack::load_or_bundled`).
    pub fn with_pack(config: SessionConfig, pack: Pack) -> Session {
        let mut input_packs: Vec<Pack> = Lang::ALL.iter().map(|&l| Pack::bundled(l)).collect();
        input_packs.push(pack.clone());
        let clock =
            Clock::new(config.time_control.clone()).with_low_time_thresholds(&config.low_time_ms);
        let board = board::BoardState::new(&config);
        Session {
            config,
            pack,
            input_packs,
            record: GameRecord::new(),
            clock,
            game_origin_ms: None,
            game_time_base_ms: 0,
            last_announcement: None,
            pending: None,
            board,
            sighted: eboard_seat::EBoardSeat::new(link::BoardSide::Sighted),
            eboard: eboard_seat::EBoardSeat::new(link::BoardSide::Peg),
            retraced: None,
            engine: engine::EngineState::default(),
            seed: 0,
            outcome: Outcome::Nothing,
            puzzle: puzzle::PuzzleState::default(),
            player_warnings: Default::default(),
            online: None,
            online_side: None,
            board_refusal_said: None,
            held_game: None,
        }
    }

    /// The same session with these tags on its scoresheet (set up before
    /// the first event; later through [`Event::TagsChanged`]).
    pub fn with_tags(mut self, tags: crate::chess::Tags) -> Session {
        self.record.tags = tags;
        self
    }

    /// The same session seeding the practice opponent's random choices
    /// from `seed` (and the time it is chosen).
    pub fn with_seed(mut self, seed: u64) -> Session {
        self.seed = seed;
        self
    }

    /// Continues a saved game (resumption after a restart).
    ///
    /// The clock is rebuilt by replaying each move's press at its recorded
    /// game time, so both sides get back the time they had; it stays
    /// paused until [`Command::ResumeClock`] (the arbiter restarts it, E.2.8).
    /// The time the app was closed is charged to nobody.
    pub fn resume_game(&mut self, now_ms: u64, record: GameRecord) {
        let (clock, origin) = resume_clock::clock_from_record(
            &self.config,
            &self.config.time_control,
            now_ms,
            &record,
        );
        self.game_origin_ms = Some(origin);
        self.game_time_base_ms = resume_clock::last_game_time(&record).saturating_sub(now_ms);
        self.clock = clock;
        // A retrace saved last can still be undone after the restart.
        self.retraced = retrace::last_retrace(&record);
        self.record = record;
        self.pending = None;
        self.last_announcement = self.last_move_words();
        self.board.reset(&self.config, &self.record);
        self.seats_reset();
        self.engine_forget();
    }

    /// Starts from a FEN instead of the standard position.
    pub fn set_start_fen(&mut self, fen: &str) -> Result<(), crate::chess::FenError> {
        let record = GameRecord::from_fen(fen)?;
        self.record = record;
        self.board.reset(&self.config, &self.record);
        self.seats_reset();
        Ok(())
    }

    pub fn config(&self) -> &SessionConfig {
        &self.config
    }

    /// Applies new settings ([`Event::ConfigChanged`]). Language changes
    /// take effect at once (with the bundled pack until the shell passes
    /// the user's with [`Event::PackChanged`]); the time control applies
    /// from the next game.
    fn set_config(&mut self, config: SessionConfig) {
        let config = self.online_config(config);
        if config.lang != self.pack.lang {
            self.set_pack(Pack::bundled(config.lang));
        }
        self.board.configure(&config);
        self.config = config;
    }

    /// Speaks and reads moves with this pack from now on
    /// ([`Event::PackChanged`]).
    fn set_pack(&mut self, pack: Pack) {
        self.input_packs.pop();
        self.input_packs.push(pack.clone());
        self.pack = pack;
    }

    pub fn pack(&self) -> &Pack {
        &self.pack
    }

    pub fn record(&self) -> &GameRecord {
        &self.record
    }

    pub fn clock(&self) -> &Clock {
        &self.clock
    }

    pub fn board_state(&self) -> &board::BoardState {
        &self.board
    }

    /// The sighted player's e-board.
    pub fn sighted_board(&self) -> &sighted::SightedBoard {
        &self.sighted
    }

    pub fn last_announcement(&self) -> Option<&Utterance> {
        self.last_announcement.as_ref()
    }

    /// When the driver must send the next [`Event::Tick`] (flag fall, low
    /// time warning, tracker settle/extension/mismatch timers).
    pub fn next_deadline(&self) -> Option<u64> {
        [
            self.clock.next_deadline(),
            self.board.next_deadline(),
            self.sighted.next_deadline(),
            self.eboard.next_deadline(),
            self.engine_move_due(),
            self.player_warnings
                .deadline(&self.clock, self.config.blind_side),
            self.online_deadline(),
        ]
        .into_iter()
        .flatten()
        .min()
    }

    /// Handles one event at time `now_ms`: the effects to carry out and
    /// what happened to the game.
    pub fn handle(&mut self, now_ms: u64, event: Event) -> Handled {
        self.game_origin_ms.get_or_insert(now_ms);
        self.outcome = Outcome::Nothing;
        let mut out = Vec::new();
        match event {
            Event::Tick => {}
            Event::MoveEntered { text, source } => self.enter_move(now_ms, &text, source, &mut out),
            Event::MovePlayed { mv, source } => {
                self.play(now_ms, mv, source, &mut out);
            }
            Event::SquaresChosen { from, to, source } => {
                self.choose_squares(now_ms, from, to, source, &mut out)
            }
            Event::Command(cmd) => self.command(now_ms, cmd, &mut out),
            Event::ConfigChanged(config) => {
                self.set_config(config);
                self.sync_opponent(now_ms);
            }
            Event::PackChanged(pack) => self.set_pack(*pack),
            Event::TagsChanged(tags) => self.record.tags = tags,
            Event::Board(ev) => {
                if let board::BoardEvent::Configure(cfg) = &ev {
                    // The board settings are the player's own board's,
                    // whichever it is: an e-board there takes them too.
                    let configure = board::BoardEvent::Configure(cfg.clone());
                    self.eboard_event(now_ms, configure, &mut out);
                }
                let mut fx = Vec::new();
                let asked = ev == board::BoardEvent::RepeatGuidance;
                let actions = self
                    .board
                    .on_event(now_ms, ev, &self.record, &self.pack, &mut fx);
                self.own_board_words(fx, asked, &mut out);
                self.board_actions(now_ms, actions, &mut out);
            }
            Event::Sighted(ev) => self.sighted_event(now_ms, ev, &mut out),
            Event::EBoard(ev) => self.eboard_event(now_ms, ev, &mut out),
            Event::Engine(ev) => self.engine_event(now_ms, ev, &mut out),
            Event::ServerClocks { white_ms, black_ms } => {
                self.server_clocks(white_ms, black_ms, &mut out)
            }
            Event::Online(ev) => self.online_event(now_ms, ev, &mut out),
        }
        // Timers run after every event, so a late tick still fires them;
        // the e-boards' first, so that a move read there reaches the
        // peg-board's tracker in the same event.
        self.seats_tick(now_ms, &mut out);
        let mut fx = Vec::new();
        let actions = self
            .board
            .on_tick(now_ms, &self.record, &self.pack, &mut fx);
        self.own_board_words(fx, false, &mut out);
        self.board_actions(now_ms, actions, &mut out);
        self.check_clock(now_ms, &mut out);
        self.engine_after(now_ms, &mut out);
        self.online_after(now_ms, &mut out);
        if self.in_puzzle() {
            // A puzzle is not the game on the scoresheet: nothing saves it.
            out.retain(|e| *e != Effect::SaveGame);
        }
        Handled {
            effects: out,
            outcome: std::mem::take(&mut self.outcome),
        }
    }

    fn board_actions(&mut self, now: u64, actions: Vec<board::BoardAction>, out: &mut Vec<Effect>) {
        for action in actions {
            match action {
                board::BoardAction::Play(mv) => {
                    let from_game = self.board.tracker().executed_from_game();
                    if !self.online_refuses_own_board(from_game, out) {
                        self.play(now, mv, Source::PegBoard, out);
                    }
                }
                board::BoardAction::TakebackRequested => self.command(now, Command::Takeback, out),
                board::BoardAction::CorrectPromotion(mv) => self.correct_promotion(now, mv, out),
                board::BoardAction::CompleteSlide(mv) => {
                    self.replace_last(now, mv, Source::PegBoard, "move_corrected", out)
                }
                board::BoardAction::NewGameRequested => {
                    self.board_new_game(now, link::BoardSide::Peg, out)
                }
            }
        }
    }

    /// With two boards, the peg-board's guidance (and, when `asked`, its
    /// answer) says whose board it is about ("Your board: ..."); the
    /// sighted board's says "Sighted board".
    fn own_board_words(&self, effects: Vec<Effect>, asked: bool, out: &mut Vec<Effect>) {
        let two_boards = self.sighted.in_use();
        out.extend(effects.into_iter().map(|e| match e {
            Effect::Speak(mut speech)
                if two_boards
                    && (speech.priority == Priority::Guidance
                        || asked && speech.priority == Priority::Answer) =>
            {
                speech.text = self.pack.phrase("your_board", &[("text", speech.text)]);
                Effect::Speak(speech)
            }
            e => e,
        }));
    }

    fn speak(&self, out: &mut Vec<Effect>, text: Utterance, priority: Priority) {
        if !text.is_empty() {
            // Moves in the announcement language's voice, every other
            // message in the interface language's.
            let lang = match priority {
                Priority::Move => self.config.lang,
                _ => self.pack.messages_lang(),
            };
            out.push(Effect::Speak(Speech {
                text,
                lang,
                priority,
            }));
        }
    }

    /// The piece letters a typed move may use: the chosen ones and the
    /// announcement language's.
    fn input_letters(&self) -> crate::chess::PieceLetters {
        crate::chess::PieceLetters::new(self.config.letters, self.config.lang)
    }

    fn enter_move(&mut self, now: u64, text: &str, source: Source, out: &mut Vec<Effect>) {
        let packs: Vec<&Pack> = self.input_packs.iter().collect();
        match crate::chess::parse_move(self.record.position(), text, self.input_letters(), &packs) {
            Ok(mv) => {
                self.play(now, mv, source, out);
            }
            Err(err) => {
                let shown = Utterance::from(text);
                let key = match err {
                    MoveInputError::Unreadable(_) | MoveInputError::Ambiguous(_) => {
                        "unreadable_move"
                    }
                    MoveInputError::Illegal(_) => "illegal_move",
                };
                self.speak(
                    out,
                    self.pack.phrase(key, &[("move", shown)]),
                    Priority::Alert,
                );
                out.push(Effect::Sound(Earcon::Illegal));
                self.outcome.note(Outcome::Refused {
                    reason: Refusal::Input(err.clone()),
                });
                out.push(Effect::Notice(Notice::Rejected {
                    input: text.to_owned(),
                    reason: err,
                }));
            }
        }
    }

    /// The legal move from one square to another; a promotion to the
    /// tracker's promotion piece.
    fn choose_squares(
        &mut self,
        now: u64,
        from: Square,
        to: Square,
        source: Source,
        out: &mut Vec<Effect>,
    ) {
        let promote_to = self.board.tracker().config().promote_to;
        let mv = self
            .record
            .position()
            .legal_moves()
            .into_iter()
            .filter(|m| m.from() == Some(from) && m.to() == to)
            .max_by_key(|m| m.promotion() == Some(promote_to));
        match mv {
            Some(mv) => {
                self.play(now, mv, source, out);
            }
            None => self.enter_move(now, &format!("{from}{to}"), source, out),
        }
    }

    /// Plays a legal move: record, clock, announcement, board expectation.
    /// False when it was refused (said, and noted as the outcome).
    fn play(&mut self, now: u64, mv: Move, source: Source, out: &mut Vec<Effect>) -> bool {
        if let Some(end) = self.record.end() {
            self.speak(
                out,
                announce::announce_result(&self.pack, &end),
                Priority::Alert,
            );
            out.push(Effect::Sound(Earcon::Illegal));
            self.outcome.note(Outcome::Refused {
                reason: Refusal::GameOver,
            });
            return false;
        }
        let before = self.record.position().clone();
        if !before.is_legal(mv) {
            let shown = Utterance::from(mv.to_string().as_str());
            self.speak(
                out,
                self.pack.phrase("illegal_move", &[("move", shown)]),
                Priority::Alert,
            );
            out.push(Effect::Sound(Earcon::Illegal));
            self.outcome.note(Outcome::Refused {
                reason: Refusal::IllegalMove(mv),
            });
            return false;
        }
        if self.puzzle_refuses(now, mv, source, out) {
            self.outcome.note(Outcome::Refused {
                reason: Refusal::NotTheSolution(mv.to_uci(shakmaty::CastlingMode::Standard)),
            });
            return false;
        }
        let announcement = announce::announce_move(&self.pack, &before, mv, self.config.form);
        let at_ms =
            now.saturating_sub(*self.game_origin_ms.get_or_insert(now)) + self.game_time_base_ms;
        let mover = before.turn();
        let played = self
            .record
            .play(mv, Some(at_ms))
            .expect("checked legal and not over")
            .clone();
        // E.3: the clock switches only when a move is executed.
        if self.clock.control().is_timed() {
            if !self.clock.is_started() {
                let _ = self.clock.start(now, mover);
            }
            if let Ok(press) = self.clock.press(now)
                && let Some(ms) = press.remaining_ms
            {
                self.record.set_last_clock(ms);
            }
        }
        // A move makes a takeback question moot.
        if self
            .pending
            .as_ref()
            .is_some_and(|p| matches!(p.question, Question::Takeback))
        {
            self.pending = None;
        }
        // Saved before announced: a shell carrying effects out in order
        // has the move on disk before anyone hears it.
        out.push(Effect::SaveGame);
        self.speak(out, announcement.clone(), Priority::Move);
        out.push(Effect::Sound(Earcon::MoveAccepted));
        self.recorded(now, &played, announcement, source, out);
        self.puzzle_after_move(now, out);
        true
    }

    /// After a move went on the scoresheet (and its save was asked for):
    /// the notice, the board's expectation and the end of the game.
    fn recorded(
        &mut self,
        now: u64,
        played: &crate::chess::RecordedMove,
        announcement: Utterance,
        source: Source,
        out: &mut Vec<Effect>,
    ) {
        self.outcome.note(Outcome::Played {
            ply: self.record.moves().len(),
            source,
        });
        out.push(Effect::Notice(Notice::Move {
            ply: self.record.moves().len(),
            san: played.san,
            mv: played.mv,
            announcement: announcement.written.clone(),
            spoken: announcement.spoken.clone(),
            source,
        }));
        self.last_announcement = Some(announcement);
        self.board.on_game_changed(now, &self.record, source);
        self.seats_reconcile(now);
        self.after_end_check(now, out);
    }

    /// [`Event::ServerClocks`]: the mover's time written with the last
    /// move (saved when it changed), both clocks set to the server's.
    fn server_clocks(&mut self, white_ms: u64, black_ms: u64, out: &mut Vec<Effect>) {
        self.clock.set_remaining(Color::White, white_ms);
        self.clock.set_remaining(Color::Black, black_ms);
        let mover = !self.record.turn();
        let Some(last) = self.record.last_move() else {
            return;
        };
        let ms = match mover {
            Color::White => white_ms,
            Color::Black => black_ms,
        };
        if last.clock_ms != Some(ms) {
            self.record.set_last_clock(ms);
            out.push(Effect::SaveGame);
        }
    }

    fn after_end_check(&mut self, now: u64, out: &mut Vec<Effect>) {
        if let Some(end) = self.record.end() {
            let _ = self.clock.pause(now);
            // A puzzle's end is said as solved or not, with its line; a
            // "Game over: Black wins" before "Not solved" only confused.
            if !self.in_puzzle() {
                let text = announce::announce_result(&self.pack, &end);
                self.speak(out, text, Priority::Alert);
            }
            out.push(Effect::Notice(Notice::GameOver {
                result: end.outcome,
                reason: end.reason,
            }));
            out.push(Effect::SaveGame);
        }
    }

    fn side(&self, color: Color) -> Utterance {
        announce::side_word(&self.pack, color)
    }

    fn command(&mut self, now: u64, cmd: Command, out: &mut Vec<Effect>) {
        match cmd {
            Command::Practice(cmd) => self.practice(now, cmd, out),
            Command::Puzzle(cmd) => self.puzzle_command(now, cmd, out),
            Command::Hint if self.in_puzzle() => self.puzzle_command(now, PuzzleCommand::Hint, out),
            Command::Repeat => match self.last_announcement.clone() {
                Some(text) => self.speak(out, text, Priority::Move),
                None => self.speak(out, self.pack.say("no_moves_yet"), Priority::Answer),
            },
            Command::LastMove => match self.last_announcement.clone() {
                Some(text) => self.speak(
                    out,
                    self.pack.phrase("last_move", &[("move", text)]),
                    Priority::Answer,
                ),
                None => self.speak(out, self.pack.say("no_moves_yet"), Priority::Answer),
            },
            Command::ClockReading => {
                // The moves played come from the record: the clock counts
                // only moves made while it ran (F4 said "0" after two moves).
                let record = &self.record;
                let text = self
                    .clock
                    .reading_with(&self.pack, now, self.config.blind_side, |c| {
                        record.moves_completed(c) as u32
                    });
                self.speak(out, text, Priority::Answer);
            }
            Command::MoveCount => {
                let parts: Vec<Utterance> = [Color::White, Color::Black]
                    .into_iter()
                    .map(|c| {
                        let n = self.record.moves_completed(c) as u32;
                        Utterance::join_with(
                            &[self.side(c), crate::clock::moves_words(&self.pack, n)],
                            ": ",
                        )
                    })
                    .collect();
                self.speak(out, Utterance::join_with(&parts, ". "), Priority::Answer);
            }
            Command::CompareScoresheet(text) => self.compare_scoresheet(&text, out),
            Command::UndoRetrace => self.undo_retrace(now, out),
            Command::BoardStatus => {
                let text = sighted::board_status(&self.pack, self.own_link(), &self.sighted);
                self.speak(out, text, Priority::Answer);
            }
            Command::SideToMove => {
                let text = announce::announce_to_move(&self.pack, self.record.turn());
                self.speak(out, text, Priority::Answer);
            }
            Command::Takeback if self.puzzle_wrong_on_board() => self.puzzle_take_back(now, out),
            Command::Takeback => match self.takeback_words("takeback_confirm") {
                None => self.speak(out, self.pack.say("nothing_to_take_back"), Priority::Answer),
                Some(text) => self.ask(Question::Takeback, text, out),
            },
            Command::Confirm => self.answer(now, true, out),
            Command::Cancel => self.answer(now, false, out),
            Command::AskResign => self.ask_resign(out),
            Command::AskNewGame => self.ask_new_game(now, out),
            Command::AskClose => self.ask_close(out),
            Command::OfferDrawAfterMove => {
                let turn = self.record.turn();
                let side = if self.record.moves().is_empty() {
                    turn
                } else {
                    !turn
                };
                self.command(now, Command::OfferDraw(side), out);
            }
            Command::AcceptDrawToMove => {
                self.command(now, Command::AcceptDraw(self.record.turn()), out)
            }
            Command::DeclineDrawToMove => {
                self.command(now, Command::DeclineDraw(self.record.turn()), out)
            }
            Command::OfferDraw(color) => {
                self.record.offer_draw(color);
                self.speak(
                    out,
                    self.pack
                        .phrase("draw_offer", &[("side", self.side(color))]),
                    Priority::Move,
                );
                out.push(Effect::Notice(Notice::DrawOffer { side: color }));
                out.push(Effect::SaveGame);
            }
            Command::AcceptDraw(color) => {
                if self.record.accept_draw(color) {
                    self.after_end_check(now, out);
                } else {
                    self.speak(out, self.pack.say("no_draw_offer"), Priority::Answer);
                }
            }
            Command::DeclineDraw(_) => {
                self.speak(out, self.pack.say("draw_offer_declined"), Priority::Answer)
            }
            Command::Claim(claim, intended) => self.claim(now, claim, intended, out),
            Command::Resign(color) => {
                self.record.resign(color);
                self.after_end_check(now, out);
            }
            Command::NewGame => {
                let held = self.held_game.take();
                self.puzzle_forget();
                let tags = self.record.tags.clone();
                self.record = GameRecord::new();
                self.record.tags = tags;
                self.clock = Clock::new(self.config.time_control.clone())
                    .with_low_time_thresholds(&self.config.low_time_ms);
                self.game_origin_ms = Some(now);
                self.game_time_base_ms = 0;
                self.last_announcement = None;
                self.pending = None;
                self.board.reset(&self.config, &self.record);
                self.seats_reset();
                self.engine_forget();
                self.speak(out, self.pack.say("new_game"), Priority::Answer);
                out.push(Effect::Notice(Notice::NewGame));
                out.push(Effect::SaveGame);
                self.replay_held(now, held, out);
            }
            Command::StartClock => {
                if !self.clock.is_started() && self.clock.control().is_timed() {
                    let _ = self.clock.start(now, self.record.turn());
                }
            }
            Command::PauseClock => {
                let _ = self.clock.pause(now);
            }
            Command::ResumeClock => {
                let _ = self.clock.resume(now);
            }
            Command::ToggleClock => self.toggle_clock(now, out),
            Command::Hint | Command::Threat | Command::Evaluate | Command::RestartEngine => {
                self.engine_command(now, cmd, out)
            }
        }
    }

    /// The announcement of the last move on the scoresheet, if any.
    fn last_move_words(&self) -> Option<Utterance> {
        let m = self.record.last_move()?;
        let before = self.record.position_before(self.record.moves().len() - 1);
        Some(announce::announce_move(
            &self.pack,
            before,
            m.mv,
            self.config.form,
        ))
    }

    fn take_back(&mut self, now: u64, out: &mut Vec<Effect>) {
        let plies = self.takeback_plies();
        let text = self.takeback_words("takeback").unwrap_or_default();
        let taken = self.record.takeback(plies);
        if taken.is_empty() {
            return;
        }
        self.engine_forget();
        for _ in 0..taken.len() {
            if self.clock.presses() > 0 {
                let _ = self.clock.unpress(now);
            }
        }
        self.last_announcement = self.last_move_words();
        self.speak(out, text, Priority::Move);
        out.push(Effect::Notice(Notice::Takeback { san: taken[0].san }));
        out.push(Effect::SaveGame);
        self.board
            .on_game_changed(now, &self.record, Source::Keyboard);
        self.seats_reconcile(now);
    }

    fn claim(&mut self, now: u64, claim: Claim, intended: Option<String>, out: &mut Vec<Effect>) {
        let packs: Vec<&Pack> = self.input_packs.iter().collect();
        let intended_move = match intended.as_deref().map(|t| {
            crate::chess::parse_move(self.record.position(), t, self.input_letters(), &packs)
        }) {
            None => None,
            Some(Ok(mv)) => Some(mv),
            Some(Err(err)) => {
                let shown = Utterance::from(err.text());
                self.speak(
                    out,
                    self.pack.phrase("illegal_move", &[("move", shown)]),
                    Priority::Alert,
                );
                out.push(Effect::Sound(Earcon::Illegal));
                return;
            }
        };
        let verdict = self.record.claim(claim, intended_move);
        let reason = self.pack.say(match claim {
            Claim::ThreefoldRepetition => "end_threefold",
            Claim::FiftyMoves => "end_fifty",
        });
        let key = if verdict.correct {
            "claim_correct"
        } else {
            "claim_wrong"
        };
        self.speak(
            out,
            self.pack.phrase(key, &[("reason", reason)]),
            Priority::Alert,
        );
        out.push(Effect::Notice(Notice::Claim {
            claim,
            correct: verdict.correct,
        }));
        if verdict.correct {
            self.after_end_check(now, out);
        }
    }
}

#[cfg(test)]
mod tests;
