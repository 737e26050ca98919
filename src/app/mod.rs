//! The desktop app (eframe/egui with AccessKit): one window with a large
//! board, the scoresheet, both clocks, the spoken history (a live region)
//! and the board connection, all driven by keys as well as the mouse.
//!
//! The app is a thin shell over [`crate::session::Session`]: keys, clicks,
//! typed moves and peg-board messages become session events; the effects
//! that come back are spoken ([`crate::speech`]), sounded, saved and shown.
//! Browsing answers (a square, a rank, attackers) come from [`browse`].
//! The window repaints only on input, session deadlines and clock seconds.

mod a11y;
mod atspi_keys;
pub use rochade_core::browse;
mod board_view;
mod clocks;
mod connection;
mod dialogs;
mod effects;
mod keys;
mod layout;
mod menus;
mod move_input;
pub mod palette;
mod piece_disc;
mod pieces;
mod practice;
pub mod run;
mod saving;
mod scoresheet;
mod screen_reader;
mod settings_dialog;
mod settings_rows;
mod side_column;
mod sim_panel;
pub mod text;
mod title;
#[cfg(target_os = "linux")]
mod x11_raw_keys;

use std::collections::VecDeque;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use shakmaty::{Color, Position, Square};

use crate::chess::{Claim, GameRecord};
use crate::config::Settings;
use crate::runtime::carry_out;
use crate::session::board::BoardEvent;
use crate::session::{
    Command, Effect, Event, Mode, Notice, Priority, Question, QuestionKind, Session, Source, Speech,
};
use crate::speech::SpeechHandle;
use crate::words::LoadPack;
use crate::words::{Pack, Utterance};

pub use a11y::{BOARD_ROLE, CELL_ROLE, choice_name};
pub use keys::Action;
pub use run::run;
pub use sim_panel::SimPanel;
pub use text::UiText;

/// Where the app's milliseconds come from: the wall clock, or a counter a
/// test advances by hand (so clocks and deadlines run in virtual time).
#[derive(Clone, Debug)]
pub enum TimeSource {
    Real(Instant),
    Manual(Arc<AtomicU64>),
}

impl TimeSource {
    pub fn now_ms(&self) -> u64 {
        match self {
            TimeSource::Real(epoch) => epoch.elapsed().as_millis() as u64,
            TimeSource::Manual(ms) => ms.load(Ordering::SeqCst),
        }
    }
}

pub use crate::config::Theme;

/// Saves the scoresheet after every move (game safety), on a thread of
/// its own ([`crate::save_worker`]). The shell passes one that writes the
/// save file; tests pass one that records calls.
pub type GameSaver = crate::save_worker::GameSaver;
pub use saving::{SAVE_GIVE_UP_MS, SAVE_HOLD_MS};

/// Everything the app needs at start.
pub struct AppOptions {
    /// The settings (from `config::Settings::load`, or made up by a test).
    pub settings: Settings,
    /// Write settings changed in the dialog back to the config file.
    pub persist_settings: bool,
    pub speech: SpeechHandle,
    pub time: TimeSource,
    /// Show the simulated peg-board (first run without hardware).
    pub simulated_board: bool,
    /// The folder of the user's speech packs (`<config>/speech`); `None`:
    /// the bundled packs only (tests).
    pub pack_dir: Option<std::path::PathBuf>,
    /// An unfinished game to offer for resumption.
    pub resume: Option<GameRecord>,
    pub saver: Option<GameSaver>,
    /// Earcons go here when set (the shell opens the audio device).
    pub audio: Option<crate::audio::AudioOut>,
    /// A note to show once (e.g. "settings file unreadable, defaults used").
    pub startup_note: Option<String>,
    /// Speech-pack keys said at start, before anything else (a damaged
    /// save file, a second window); the note shows the details.
    pub startup_alerts: Vec<&'static str>,
    /// Print the time of the first spoken word on stderr (start-up figure).
    pub trace_startup: Option<Instant>,
    /// Print a line on stderr for every frame drawn (idle figure: proves
    /// the window repaints only on events and clock seconds).
    pub trace_frames: Option<Instant>,
    /// Whether a screen reader runs, found by the shell in the background;
    /// when it says yes, the app offers to let the screen reader speak.
    pub screen_reader: Option<std::sync::mpsc::Receiver<bool>>,
}

impl AppOptions {
    /// Default settings around a speech handle, in real time, nothing saved.
    pub fn new(speech: SpeechHandle) -> AppOptions {
        AppOptions {
            settings: Settings::default(),
            persist_settings: false,
            speech,
            time: TimeSource::Real(Instant::now()),
            simulated_board: false,
            pack_dir: None,
            resume: None,
            saver: None,
            audio: None,
            startup_note: None,
            startup_alerts: Vec::new(),
            trace_startup: None,
            trace_frames: None,
            screen_reader: None,
        }
    }
}

/// The window over the main one, at most one at a time. A question the
/// session asks ([`Session::pending`]) is drawn above it.
pub enum Modal {
    Help(dialogs::HelpWindow),
    /// The settings being edited (applied only on Save).
    Settings(Box<settings_dialog::SettingsDraft>),
}

/// Which widget should take the keyboard next frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum FocusTarget {
    Board,
    MoveInput,
    /// The first menu's button (F10).
    Menus,
    /// The scoresheet's newest line.
    Scoresheet,
}

/// How many spoken lines the history panel keeps.
const HISTORY_SHOWN: usize = 8;

/// The app state (egui demo-app style): the session's state here, the
/// views' own state in theirs ([`move_input::MoveInput`],
/// [`scoresheet::Scoresheet`], [`board_view::BoardView`], [`SimPanel`],
/// the dialogs in [`Modal`]); each view draws itself in its own file.
pub struct RochadeApp {
    session: Session,
    speech: SpeechHandle,
    ui: UiText,
    settings: Settings,
    persist_settings: bool,
    pack_dir: Option<std::path::PathBuf>,
    time: TimeSource,
    applied_style: Option<(Theme, u32)>,
    /// The square the keyboard cursor is on.
    cursor: Square,
    /// A piece picked up by click or Enter, waiting for its target square.
    selected: Option<Square>,
    /// The move input: the text typed and what its widget showed.
    move_input: move_input::MoveInput,
    /// When a key was last pressed (typing: a question nobody asked for
    /// waits until the keyboard is idle).
    last_key_ms: u64,
    focus_request: Option<FocusTarget>,
    /// The board had the keyboard in the last frame.
    board_focused: bool,
    /// The scoresheet (whether a line of it has the keyboard).
    scoresheet: scoresheet::Scoresheet,
    /// Where the keyboard goes back to after a question.
    focus_before_question: FocusTarget,
    /// A question was just asked: its dialog takes the keyboard.
    question_takes_focus: bool,
    /// What was said, newest last (written form, for the screen).
    history: VecDeque<Utterance>,
    /// Said since the last frame, for the screen reader ([`a11y`]).
    a11y_pending: a11y::Pending,
    /// The window title last sent (it says the game state).
    window_title: String,
    modal: Option<Modal>,
    sim: Option<SimPanel>,
    /// The main board's view state (where it was drawn).
    board_view: board_view::BoardView,
    /// Whether the window was checked against the screen's size.
    window_fitted: bool,
    last_notice: Option<Notice>,
    saver: Option<crate::save_worker::SaveWorker>,
    /// Effects waiting for their save (a move is announced once on disk).
    held: VecDeque<saving::Held>,
    /// The window's context, for the saving thread to wake it.
    wake: Arc<std::sync::OnceLock<egui::Context>>,
    /// Exports being written by a thread of their own.
    exports: Vec<saving::Export>,
    saves: u64,
    save_error: Option<String>,
    audio: Option<crate::audio::AudioOut>,
    allow_close: bool,
    note: Option<String>,
    trace_startup: Option<Instant>,
    trace_frames: Option<Instant>,
    link: Option<crate::serial::Link>,
    board_rx: Option<std::sync::mpsc::Receiver<crate::serial::BoardInput>>,
    /// The sighted player's e-board (DGT), when its port is set.
    sighted_link: Option<crate::serial::Link>,
    sighted_rx: Option<std::sync::mpsc::Receiver<crate::serial::BoardInput>>,
    /// The engine thread and the program it runs (practice).
    engine: Option<(std::path::PathBuf, crate::engine::EngineService)>,
    /// The screen-reader look-up still running ([`AppOptions::screen_reader`]).
    screen_reader_probe: Option<std::sync::mpsc::Receiver<bool>>,
    /// A screen reader was found; the offer waits for no other question.
    screen_reader_found: bool,
    /// The connection that hands keys to the screen reader, coming.
    keys_rx: Option<std::sync::mpsc::Receiver<atspi_keys::Registry>>,
    /// Keys go to the screen reader first ([`atspi_keys`]).
    keys: Option<(atspi_keys::KeyFilter, atspi_keys::Registry)>,
}

/// The session's words: moves in the announcement language, every message
/// (questions, confirmations, results) in the interface language. Only
/// when the clip voice speaks and has no clips of the interface language
/// do the messages stay in the announcement language, so they are heard.
pub(crate) fn session_pack(
    settings: &crate::config::Settings,
    dir: Option<&std::path::Path>,
    speech_backend: &str,
) -> (Pack, Option<crate::words::PackError>) {
    let (pack, error) = Pack::load_or_bundled(settings.session_config().lang, dir);
    if speech_backend == "clip voice"
        && !crate::speech::clips::has_clips(settings.interface_language)
    {
        return (pack, error);
    }
    let (interface, _) = Pack::load_or_bundled(settings.interface_language, dir);
    (pack.with_messages_from(&interface), error)
}

impl RochadeApp {
    pub fn new(options: AppOptions) -> RochadeApp {
        let config = options.settings.session_config();
        let (pack, pack_error) = session_pack(
            &options.settings,
            options.pack_dir.as_deref(),
            &options.speech.backend_name(),
        );
        let mut tags = crate::chess::Tags::default();
        options.settings.apply_tags(&mut tags);
        let session = Session::with_pack(config, pack)
            .with_tags(tags)
            .with_seed(practice::seed());
        let refused = pack_error.as_ref().map(|e| e.to_string());
        let note = match (options.startup_note, refused.clone()) {
            (Some(a), Some(b)) => Some(format!("{a}; {b}")),
            (a, b) => a.or(b),
        };
        let wake = Arc::new(std::sync::OnceLock::new());
        let (saver, saver_error) = saving::spawn(options.saver, &wake);
        let mut app = RochadeApp {
            session,
            speech: options.speech,
            ui: UiText::bundled(options.settings.interface_language),
            settings: options.settings,
            persist_settings: options.persist_settings,
            pack_dir: options.pack_dir,
            time: options.time,
            applied_style: None,
            cursor: Square::E2,
            selected: None,
            move_input: move_input::MoveInput::default(),
            last_key_ms: 0,
            focus_request: Some(FocusTarget::MoveInput),
            board_focused: false,
            scoresheet: scoresheet::Scoresheet::default(),
            focus_before_question: FocusTarget::MoveInput,
            question_takes_focus: false,
            history: VecDeque::new(),
            a11y_pending: a11y::Pending::default(),
            window_title: String::new(),
            modal: None,
            sim: None,
            board_view: board_view::BoardView::new(board_view::BOARD_ID),
            window_fitted: false,
            last_notice: None,
            saver,
            held: VecDeque::new(),
            wake,
            exports: Vec::new(),
            saves: 0,
            save_error: saver_error,
            audio: options.audio,
            allow_close: false,
            note,
            trace_startup: options.trace_startup,
            trace_frames: options.trace_frames,
            link: None,
            board_rx: None,
            sighted_link: None,
            sighted_rx: None,
            engine: None,
            screen_reader_probe: options.screen_reader,
            screen_reader_found: false,
            keys_rx: None,
            keys: None,
        };
        let tracker = app.settings.tracker_config();
        app.dispatch(Event::Board(BoardEvent::Configure(tracker)));
        if options.simulated_board {
            app.show_sim_board();
        }
        for key in &options.startup_alerts {
            app.say_key(key, Priority::Alert);
        }
        // A correction of the words that was refused (two squares would
        // sound alike, a word is missing) is said naming the word.
        if let Some(reason) = &refused {
            let text = app
                .session
                .pack()
                .phrase("words_refused", &[("reason", reason.as_str().into())]);
            app.say(text, Priority::Alert);
        }
        // Any other note (settings, speech pack, sound) is said too: it is
        // in the banner at the top.
        if options.startup_alerts.is_empty() && refused.is_none() && app.note.is_some() {
            app.say_key("startup_problem", Priority::Alert);
        }
        let offer = options
            .resume
            .map(|record| app.session.offer_resume(record))
            .unwrap_or_default();
        if offer.is_empty() {
            app.say_key("welcome", Priority::Answer);
        }
        app.apply_effects(offer);
        app.sync_opponent();
        app
    }

    pub fn session(&self) -> &Session {
        &self.session
    }

    pub fn ui_text(&self) -> &UiText {
        &self.ui
    }

    /// The keyboard cursor on the board.
    pub fn cursor(&self) -> Square {
        self.cursor
    }

    /// The question waiting for an answer (shown as a dialog).
    pub fn question(&self) -> Option<&Question> {
        self.session.pending().map(|p| &p.question)
    }

    pub fn modal(&self) -> Option<&Modal> {
        self.modal.as_ref()
    }

    /// What the app said, oldest first (the history panel shows the end).
    pub fn spoken(&self) -> Vec<String> {
        self.history.iter().map(|u| u.spoken.clone()).collect()
    }

    /// How many times the game was saved.
    pub fn saves(&self) -> u64 {
        self.saves
    }

    pub fn sim(&self) -> Option<&SimPanel> {
        self.sim.as_ref()
    }

    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// The board is drawn from the blind player's side when he has Black.
    pub fn flipped(&self) -> bool {
        self.session.config().blind_side == Color::Black
    }

    pub fn now_ms(&self) -> u64 {
        self.time.now_ms()
    }

    /// A game that has moves and no result: closing or a new game asks first.
    pub fn game_in_progress(&self) -> bool {
        self.session.game_in_progress()
    }

    pub fn position(&self) -> &shakmaty::Chess {
        self.session.record().position()
    }

    pub fn side_to_move(&self) -> Color {
        self.session.record().position().turn()
    }

    // ---- speech and effects ----

    fn say(&mut self, text: Utterance, priority: Priority) {
        if text.is_empty() {
            return;
        }
        if let Some(start) = self.trace_startup.take() {
            eprintln!(
                "rochade: first spoken word after {} ms",
                start.elapsed().as_millis()
            );
        }
        // The offer to let the screen reader speak is for its user: the
        // screen reader says it, the app's own voice does not (it was heard
        // twice, and Orca's own reading waited behind it).
        let offering = matches!(self.question(), Some(Question::ScreenReaderMode));
        let the_offer = offering && self.session.pending().is_some_and(|p| p.text == text);
        if !the_offer {
            let lang = self.session.config().lang;
            self.speech.speak(Speech {
                text: text.clone(),
                lang,
                priority,
            });
        }
        // The screen reader gets the words when it is meant to speak them;
        // in self-voicing mode it would talk over the app's voice.
        if self.settings.speech.mode.screen_reader() || offering {
            self.a11y_pending.push(&text.spoken);
        }
        self.history.push_back(text);
        while self.history.len() > 50 {
            self.history.pop_front();
        }
    }

    fn say_key(&mut self, key: &str, priority: Priority) {
        let text = self.session.pack().say(key);
        self.say(text, priority);
    }

    /// Sends one event to the session and carries out the effects.
    pub fn dispatch(&mut self, event: Event) {
        let now = self.now_ms();
        let effects = self.session.handle(now, event);
        self.apply_effects(effects);
    }

    fn apply_effects(&mut self, effects: Vec<Effect>) {
        // Behind a move still being saved, everything waits its turn.
        if !self.held.is_empty() {
            self.held.push_back(saving::Held::behind(effects));
            return;
        }
        self.run_effects(effects, false);
    }

    /// Carries out effects in order (through the one runtime); at a save,
    /// the rest waits for it (in front of everything held when `front`).
    fn run_effects(&mut self, effects: Vec<Effect>, front: bool) {
        let Ok(held) = carry_out(self, effects);
        if let Some(held) = held {
            let held = saving::Held::saving(held.ticket, self.now_ms(), held.effects);
            if front {
                self.held.push_front(held);
            } else {
                self.held.push_back(held);
            }
        }
    }

    fn on_notice(&mut self, notice: Notice) {
        match &notice {
            Notice::Move { mv, .. } => {
                self.selected = None;
                self.cursor = mv.to();
            }
            Notice::Takeback { .. } | Notice::NewGame => self.selected = None,
            Notice::Answered {
                question,
                confirmed: true,
            } => match question {
                QuestionKind::Close => self.allow_close = true,
                QuestionKind::Resume => self.cursor = Square::E2,
                _ => {}
            },
            _ => {}
        }
        if let Notice::Answered {
            question: QuestionKind::ScreenReaderMode,
            confirmed,
        } = &notice
        {
            self.screen_reader_answered(*confirmed);
        }
        // A question takes the keyboard; after either answer it goes back
        // where it was (the board, or the move input), so a move typed next
        // is never lost.
        match &notice {
            Notice::Asked { .. } => {
                // The dialog takes the focus and the screen reader says its
                // question then (see `dialogs::dialogs`): not said twice.
                if let Some(p) = self.session.pending() {
                    self.a11y_pending.forget(&p.text.spoken);
                }
                self.question_takes_focus = true;
                self.focus_before_question = if self.board_focused {
                    FocusTarget::Board
                } else if self.scoresheet.focused {
                    FocusTarget::Scoresheet
                } else {
                    FocusTarget::MoveInput
                };
            }
            Notice::Answered { .. } => self.focus_request = Some(self.focus_before_question),
            _ => {}
        }
        self.last_notice = Some(notice);
    }

    // ---- commands ----

    /// Carries out a command from a key, a menu or a button.
    pub fn act(&mut self, action: Action) {
        match action {
            Action::Help => {
                if matches!(self.modal, Some(Modal::Help(_))) {
                    self.modal = None;
                } else {
                    self.modal = Some(Modal::Help(dialogs::HelpWindow::new()));
                    self.say_key("help_opened", Priority::Answer);
                }
            }
            Action::Repeat => self.command(Command::Repeat),
            Action::LastMove => self.command(Command::LastMove),
            Action::Clock => self.command(Command::ClockReading),
            Action::MoveCount => self.command(Command::MoveCount),
            Action::SideToMove => self.command(Command::SideToMove),
            Action::Focus => {
                let board_focused =
                    self.board_focused || self.focus_request == Some(FocusTarget::Board);
                self.focus(if board_focused {
                    FocusTarget::MoveInput
                } else {
                    FocusTarget::Board
                });
            }
            Action::FocusBoard => self.focus(FocusTarget::Board),
            Action::Menus => self.focus(FocusTarget::Menus),
            Action::FocusMoveInput => self.focus(FocusTarget::MoveInput),
            Action::Settings => self.open_settings(),
            Action::NextMode => {
                let next = match self.session.config().mode {
                    Mode::Tournament => Mode::Relay,
                    Mode::Relay => Mode::Practice,
                    Mode::Practice => Mode::Tournament,
                };
                self.set_mode(next);
            }
            Action::SimBoard => self.toggle_sim_board(),
            Action::Takeback => self.command(Command::Takeback),
            Action::OfferDraw => self.command(Command::OfferDrawAfterMove),
            Action::AcceptDraw => self.command(Command::AcceptDrawToMove),
            Action::DeclineDraw => self.command(Command::DeclineDrawToMove),
            Action::ClaimThreefold => self.claim(Claim::ThreefoldRepetition),
            Action::ClaimFifty => self.claim(Claim::FiftyMoves),
            Action::Resign => self.command(Command::AskResign),
            Action::NewGame => self.command(Command::AskNewGame),
            Action::Export => self.export(),
            Action::ClockToggle => self.command(Command::ToggleClock),
            Action::StopSpeech => self.speech.stop(),
            Action::Confirm => self.command(Command::Confirm),
            Action::Cancel => self.command(Command::Cancel),
            Action::PlayTyped => self.play_typed(),
            Action::BoardGuidance => {
                self.dispatch(Event::Board(BoardEvent::RepeatGuidance));
                if self.session.sighted_board().in_use() {
                    self.dispatch(Event::Sighted(BoardEvent::RepeatGuidance));
                }
            }
            Action::BoardStatus => self.dispatch(Event::Command(Command::BoardStatus)),
            Action::CompareScoresheet => match scoresheet_text(&self.move_input.text) {
                Ok(text) => {
                    self.move_input.text.clear();
                    self.dispatch(Event::Command(Command::CompareScoresheet(text)));
                }
                // The path stays in the move input to be corrected.
                Err((file, reason)) => {
                    let text = self.session.pack().phrase(
                        "scoresheet_unreadable",
                        &[
                            ("file", Utterance::from(file.as_str())),
                            ("reason", Utterance::from(reason.to_string().as_str())),
                        ],
                    );
                    self.say(text, Priority::Alert);
                }
            },
            Action::UndoRetrace => self.dispatch(Event::Command(Command::UndoRetrace)),
            Action::Promote(role) => self.dispatch(Event::Board(BoardEvent::PromotionChoice(role))),
            Action::ToggleComputer => self.toggle_computer(),
            Action::Hint => self.command(Command::Hint),
            Action::Threat => self.command(Command::Threat),
            Action::Evaluate => self.command(Command::Evaluate),
            Action::RestartEngine => self.command(Command::RestartEngine),
            Action::Level(up) => self.change_level(up),
            Action::SwitchColours => self.switch_colours(),
        }
    }

    fn command(&mut self, cmd: Command) {
        self.dispatch(Event::Command(cmd));
    }

    fn claim(&mut self, claim: Claim) {
        let intended = Some(self.move_input.text.trim().to_owned()).filter(|t| !t.is_empty());
        let had_intended = intended.is_some();
        self.command(Command::Claim(claim, intended));
        if had_intended {
            self.move_input.text.clear();
        }
    }

    fn play_typed(&mut self) {
        let text = self.move_input.text.trim().to_owned();
        if text.is_empty() {
            return;
        }
        let before = self.session.record().moves().len();
        self.dispatch(Event::MoveEntered {
            text,
            source: Source::Keyboard,
        });
        if self.session.record().moves().len() != before {
            self.move_input.text.clear();
        }
    }

    fn focus(&mut self, target: FocusTarget) {
        self.focus_request = Some(target);
        let mark = self.a11y_pending.mark();
        match target {
            FocusTarget::Board => self.speak_square(self.cursor),
            FocusTarget::MoveInput => self.say_key("focus_move_input", Priority::Info),
            FocusTarget::Menus => {
                let name = self.ui.get("game_menu");
                self.say(Utterance::from(name.as_str()), Priority::Info);
            }
            FocusTarget::Scoresheet => {}
        }
        // The screen reader says where the focus went.
        self.focus_moved(mark, true);
    }

    pub fn set_mode(&mut self, mode: Mode) {
        if self.session.config().mode == mode {
            return;
        }
        // Through the settings, so it is kept (a later Save in Settings
        // keeps it too) and the session gets it.
        let mut settings = self.settings.clone();
        settings.game.mode = mode;
        self.apply_settings(settings);
        let name = self.session.pack().say(match mode {
            Mode::Tournament => "mode_tournament",
            Mode::Relay => "mode_relay",
            Mode::Practice => "mode_practice",
        });
        let text = self
            .session
            .pack()
            .phrase("mode_changed", &[("mode", name)]);
        self.say(text, Priority::Answer);
        self.sync_opponent();
    }

    /// Ctrl+B: shows or hides the simulated peg-board and says which.
    fn toggle_sim_board(&mut self) {
        if self.sim.take().is_some() {
            // Hidden is disconnected: it guides nothing any more.
            self.dispatch(Event::Board(BoardEvent::LinkClosed));
            self.say_key("sim_board_off", Priority::Answer);
            return;
        }
        self.show_sim_board();
        self.say_key("sim_board_on", Priority::Answer);
    }

    /// Shows the simulated peg-board, silently (at start-up the welcome
    /// comes first).
    fn show_sim_board(&mut self) {
        self.sim = Some(SimPanel::new());
        self.dispatch(Event::Board(BoardEvent::LinkUp {
            port: SimPanel::PORT.into(),
        }));
    }

    /// Lifts or places a peg on the simulated board (click or Enter there).
    pub fn sim_press(&mut self, sq: Square) {
        let Some(sim) = &mut self.sim else { return };
        let messages = sim.press(sq);
        for m in messages {
            self.dispatch(Event::Board(BoardEvent::Message(m)));
        }
    }

    fn open_settings(&mut self) {
        self.modal = Some(Modal::Settings(Box::new(
            settings_dialog::SettingsDraft::from_app(self),
        )));
        // The dialog's name, for the screen reader (the app's own voice has
        // no word for it; the focus stays where it was).
        let name = self.ui.get("settings");
        self.a11y_pending.push(&name);
    }

    // ---- board browsing ----

    pub fn speak_square(&mut self, sq: Square) {
        let text = browse::square(
            self.session.pack(),
            self.session.record().position().board(),
            sq,
        );
        self.say(text, Priority::Info);
    }

    /// Moves the cursor by a step in board coordinates (White's view).
    fn move_cursor(&mut self, df: i32, dr: i32) {
        let before = self.cursor;
        self.cursor = keys::step(before, df, dr, self.flipped());
        let mark = self.a11y_pending.mark();
        if before == self.cursor {
            // At the edge the square is said again with a cue, so a
            // repeated square never sounds like a step taken.
            let pack = self.session.pack();
            let square = browse::square(pack, self.session.record().position().board(), before);
            let text = pack.phrase("board_edge", &[("square", square)]);
            self.say(text, Priority::Info);
            return;
        }
        self.speak_square(self.cursor);
        self.focus_moved(mark, before != self.cursor);
    }

    /// After words for a place were said: when the focus moved there the
    /// screen reader reads the place itself, so it does not get the same
    /// words again (those said since `mark`).
    fn focus_moved(&mut self, mark: usize, moved: bool) {
        if moved {
            self.a11y_pending.truncate(mark);
        }
    }

    /// The window title as last set (it says the game state).
    pub fn window_title(&self) -> &str {
        &self.window_title
    }

    /// Speaks a square of the simulated peg-board (its pegs, not the
    /// game's pieces) as the user walks it by keys.
    pub fn speak_sim_square(&mut self, board: &shakmaty::Board, sq: Square, moved: bool) {
        let text = browse::square(self.session.pack(), board, sq);
        let mark = self.a11y_pending.mark();
        self.say(text, Priority::Info);
        self.focus_moved(mark, moved);
    }

    /// Carries out a key pressed while the board has the keyboard.
    pub fn board_key(&mut self, key: keys::BoardKey) {
        let board = self.session.record().position().board().clone();
        let pack = self.session.pack().clone();
        let turn = self.session.record().turn();
        match key {
            keys::BoardKey::Step(df, dr) => self.move_cursor(df, dr),
            keys::BoardKey::SayAgain => self.speak_square(self.cursor),
            keys::BoardKey::Jump(role) => match browse::next_piece(&board, self.cursor, role) {
                Some(sq) => {
                    let moved = self.cursor != sq;
                    self.cursor = sq;
                    let mark = self.a11y_pending.mark();
                    self.speak_square(sq);
                    self.focus_moved(mark, moved);
                }
                None => self.say(browse::not_found(&pack, role), Priority::Info),
            },
            keys::BoardKey::Rank(r) => self.say(browse::rank(&pack, &board, r), Priority::Info),
            keys::BoardKey::File(f) => self.say(browse::file(&pack, &board, f), Priority::Info),
            keys::BoardKey::Side(c) => {
                self.say(browse::side_pieces(&pack, &board, c), Priority::Info)
            }
            keys::BoardKey::Attackers => self.say(
                browse::attackers(&pack, &board, self.cursor, turn),
                Priority::Info,
            ),
            keys::BoardKey::Defenders => self.say(
                browse::defenders(&pack, &board, self.cursor, turn),
                Priority::Info,
            ),
            keys::BoardKey::Pick => self.pick(self.cursor),
        }
    }

    /// A click or Enter on a board square: pick up a piece of the side to
    /// move, or play the picked piece to this square.
    pub fn pick(&mut self, sq: Square) {
        self.cursor = sq;
        let pos = self.session.record().position();
        let own = pos.board().color_at(sq) == Some(pos.turn());
        match self.selected {
            Some(from) if from == sq => {
                self.selected = None;
                self.say_piece_at(sq, "put_back");
            }
            Some(from) if !own => {
                // A promotion takes the promotion piece from the settings;
                // underpromotion is typed ("e8=N").
                self.selected = None;
                self.dispatch(Event::SquaresChosen {
                    from,
                    to: sq,
                    source: Source::Keyboard,
                });
            }
            _ if own => {
                self.selected = Some(sq);
                self.say_piece_at(sq, "picked_up");
            }
            _ => self.speak_square(sq),
        }
    }

    /// Puts a piece lifted by key or click back on its square and says so
    /// ("Springer Bella acht zurückgestellt"); `stay` keeps the keyboard on
    /// the board (Escape there).
    pub fn put_back_lifted(&mut self, stay: bool) {
        let Some(sq) = self.selected.take() else {
            return;
        };
        self.say_piece_at(sq, "put_back");
        if stay && self.board_focused {
            self.focus_request = Some(FocusTarget::Board);
        }
    }

    /// "Läufer Felix eins aufgenommen": the piece on `sq` in a phrase of the
    /// pack (`picked_up`, `put_back`), so a key press that picks up or puts
    /// back a piece is confirmed.
    fn say_piece_at(&mut self, sq: Square, key: &str) {
        let pack = self.session.pack();
        let Some(piece) = self.session.record().position().board().piece_at(sq) else {
            return self.speak_square(sq);
        };
        let what = pack.render(&[
            crate::words::Token::Piece(piece.role),
            crate::words::Token::Square(sq),
        ]);
        let text = pack.phrase(key, &[("piece", what)]);
        self.say(text, Priority::Info);
    }

    /// Called every frame: deadlines due now become a tick.
    fn run_deadlines(&mut self) {
        let now = self.now_ms();
        if self.session.next_deadline().is_some_and(|d| d <= now) {
            self.dispatch(Event::Tick);
        }
    }

    /// How long the window may sleep: until the next session deadline or
    /// the next change of the clock display, whichever is first.
    pub fn repaint_delay(&self) -> Option<Duration> {
        let now = self.now_ms();
        let next = [
            self.session.next_deadline(),
            self.session.clock().next_display_change(now),
        ]
        .into_iter()
        .flatten()
        .min()?;
        Some(Duration::from_millis(next.saturating_sub(now).max(1)))
    }
}

impl eframe::App for RochadeApp {
    /// The theme's background: no part of the window paints its own
    /// (painting the window twice costs a software renderer real time).
    fn clear_color(&self, visuals: &egui::Visuals) -> [f32; 4] {
        visuals.panel_fill.to_normalized_gamma_f32()
    }

    fn raw_input_hook(&mut self, _ctx: &egui::Context, raw_input: &mut egui::RawInput) {
        self.forward_keys(raw_input);
    }

    fn ui(&mut self, ui: &mut egui::Ui, _frame: &mut eframe::Frame) {
        if let Some(start) = self.trace_frames {
            eprintln!("rochade: frame at {} ms", start.elapsed().as_millis());
        }
        let ctx = ui.ctx().clone();
        self.apply_style(&ctx);
        self.wake.get_or_init(|| ctx.clone());
        self.release_saved();
        self.poll_exports();
        self.poll_board();
        self.poll_engine();
        self.poll_screen_reader(&ctx);
        self.run_deadlines();
        self.handle_close_request(&ctx);
        let asking = self.session.pending().is_some();
        self.note_typing(&ctx, asking);
        let escape_answers = !matches!(self.question(), Some(Question::Resume(_)));
        let enter_answers = !self.move_input.typed_under_question;
        for action in keys::global_actions(
            &ctx,
            asking,
            escape_answers,
            enter_answers,
            self.modal.is_some(),
        ) {
            match action {
                // Escape with a lifted piece puts it back, and the board
                // keeps the keyboard; only then does it close or stop.
                Action::Cancel if !asking && self.selected.is_some() => {
                    self.put_back_lifted(true);
                }
                Action::Cancel if !asking => {
                    if let Some(Modal::Settings(draft)) = &self.modal {
                        self.focus_request = Some(draft.return_to);
                    }
                    if self.modal.take().is_none() {
                        self.act(Action::StopSpeech);
                    }
                }
                other => self.act(other),
            }
        }
        let title =
            title::window_title(self.session.record(), self.settings.game.letters, &self.ui);
        if self.window_title != title {
            ctx.send_viewport_cmd(egui::ViewportCommand::Title(title.clone()));
            self.window_title = title;
        }
        let name = title::accessible_window_name(
            &self.session.record().tags.white,
            &self.session.record().tags.black,
            self.session.config().mode,
            &self.ui,
        );
        a11y::name_window(&ctx, &name);
        layout::fit_to_screen(&ctx, &mut self.window_fitted);
        // The board first, in a square from the window's size alone; the
        // rest in a scrolling column beside or below it.
        let split = layout::split(ui.available_rect_before_wrap());
        ui.scope_builder(egui::UiBuilder::new().max_rect(split.side), |ui| {
            side_column::side_column(self, ui)
        });
        ui.scope_builder(egui::UiBuilder::new().max_rect(split.board), |ui| {
            board_view::main_board(self, ui)
        });
        dialogs::dialogs(self, &ctx);
        // Focus is never lost: when nothing has the keyboard (Escape in
        // the move input, a closed dialog, help or settings, a click on
        // nothing) the move input takes it, so a move typed next is never
        // swallowed and a screen reader always has a place to be.
        if self.modal.is_none()
            && self.session.pending().is_none()
            && ctx.memory(|m| m.focused()).is_none()
            && self.focus_request.is_none()
        {
            self.focus_request = Some(FocusTarget::MoveInput);
            ctx.request_repaint();
        }
        // Words wait while the move input's change goes out (see
        // `MoveInput::changing`), so a move stays on the Braille line.
        let input_changing = self.move_input.changing();
        a11y::deliver(&ctx, &mut self.a11y_pending, input_changing);
        if self.allow_close {
            ctx.send_viewport_cmd(egui::ViewportCommand::Close);
        }
        if let Some(delay) = self.repaint_delay() {
            ctx.request_repaint_after(delay);
        }
        if let Some(delay) = self.engine_repaint() {
            ctx.request_repaint_after(delay);
        }
        if let Some(delay) = self.save_hold_delay() {
            ctx.request_repaint_after(delay);
        }
    }
}

impl RochadeApp {
    fn apply_style(&mut self, ctx: &egui::Context) {
        let key = (
            self.settings.display.theme,
            (self.settings.display.scale() * 100.0) as u32,
        );
        if self.applied_style == Some(key) {
            return;
        }
        self.applied_style = Some(key);
        let theme = self.settings.display.theme;
        ctx.all_styles_mut(|style| {
            *style = palette::style(theme, style);
            // A selectable label is a text object on AT-SPI, and Orca 43's
            // flat review reads text objects with a method AccessKit does
            // not offer (GetTextAtOffset): the whole review failed and read
            // nothing. A plain label is read by its name.
            style.interaction.selectable_labels = false;
        });
        ctx.set_zoom_factor(self.settings.display.scale());
    }

    fn handle_close_request(&mut self, ctx: &egui::Context) {
        if ctx.input(|i| i.viewport().close_requested())
            && !self.allow_close
            && self.game_in_progress()
        {
            ctx.send_viewport_cmd(egui::ViewportCommand::CancelClose);
            self.command(Command::AskClose);
        }
    }
}

/// The sighted player's scoresheet for the retrace: the moves typed or
/// pasted into the move input, or, when the input names a PGN file (ends
/// in `.pgn`), that file's text (shell: it reads the file).
fn scoresheet_text(input: &str) -> Result<String, (String, std::io::Error)> {
    let input = input.trim();
    if !input.to_ascii_lowercase().ends_with(".pgn") {
        return Ok(input.to_owned());
    }
    let path = match input.strip_prefix("~/") {
        Some(rest) => std::env::home_dir().map_or_else(|| input.into(), |home| home.join(rest)),
        None => std::path::PathBuf::from(input),
    };
    std::fs::read(&path)
        .map(|bytes| String::from_utf8_lossy(&bytes).into_owned())
        .map_err(|e| (path.display().to_string(), e))
}

#[cfg(test)]
mod session_pack_tests {
    use super::*;
    use crate::words::Lang;

    fn settings(interface: Lang, announce: Lang) -> Settings {
        let mut s = Settings {
            interface_language: interface,
            ..Settings::default()
        };
        s.speech.language = announce;
        s
    }

    #[test]
    fn messages_follow_the_interface_unless_the_clip_voice_cannot_say_them() {
        let english = Pack::bundled(Lang::En).say("cancelled");
        let german = Pack::bundled(Lang::De).say("cancelled");
        let s = settings(Lang::En, Lang::De);
        let (pack, _) = session_pack(&s, None, "speech-dispatcher");
        assert_eq!(pack.say("cancelled"), english);
        assert_eq!(pack.messages_lang(), Lang::En);
        // The clip voice has German clips only: English messages would be
        // silent, so they stay German.
        assert!(crate::speech::clips::has_clips(Lang::De));
        if !crate::speech::clips::has_clips(Lang::En) {
            let (pack, _) = session_pack(&s, None, "clip voice");
            assert_eq!(pack.say("cancelled"), german);
        }
        let (pack, _) = session_pack(&settings(Lang::De, Lang::En), None, "clip voice");
        assert_eq!(
            pack.say("cancelled"),
            german,
            "German clips say German messages"
        );
    }
}
