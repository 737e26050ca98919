//! The desktop app (eframe/egui with AccessKit): one window with a large
//! board, the scoresheet, both clocks, the spoken history (a live region)
//! and the board connection, all driven by keys as well as the mouse.
//!
//! The app is a thin shell over [`crate::session::Session`]: keys, clicks,
//! typed moves and peg-board messages become session events; the effects
//! that come back are spoken ([`crate::speech`]), sounded, saved and shown.
//! Browsing answers (a square, a rank, attackers) come from [`browse`].
//! The window repaints only on input, session deadlines and clock seconds.
//!
//! The app's state is [`RochadeApp`] (here); each view draws itself from
//! a file of its own, with its own state where it has some (egui demo
//! style): `frame` (one frame: input, views, focus, screen-reader words),
//! `side_column` (the column beside the board) with `menus`, `clocks`,
//! `move_input` (`MoveInput`), `scoresheet` (`Scoresheet`), `connection`
//! and `sim_panel` ([`SimPanel`]); `board_view` (`BoardView`); `dialogs`
//! (the question, the help) and `settings_dialog` with `settings_rows`
//! (the draft being edited). What the app does is in `actions`
//! (commands), `browsing` (the board by keys), `speech_out` (saying,
//! effects, notices), `saving`, `practice`, `screen_reader` and `online`
//! (play on Lichess: with `online_dialog` and `online_threads`).

mod a11y;
mod actions;
mod atspi_keys;
pub use rochade_core::browse;
mod board_view;
mod browsing;
mod clocks;
mod connection;
mod dialogs;
mod effects;
mod focus_ring;
mod frame;
mod keys;
mod layout;
mod menus;
mod move_input;
mod online;
mod online_dialog;
mod online_threads;
mod options;
pub mod palette;
mod piece_disc;
mod pieces;
mod practice;
mod puzzle_panel;
pub mod run;
mod saving;
mod scoresheet;
mod screen_reader;
mod settings_dialog;
mod settings_rows;
mod side_column;
mod sim_panel;
mod speech_out;
pub mod text;
mod title;
#[cfg(target_os = "linux")]
mod x11_raw_keys;

use std::collections::VecDeque;
use std::sync::Arc;
use std::time::Instant;

use shakmaty::{Color, Square};

use crate::config::Settings;
use crate::session::board::BoardEvent;
use crate::session::{Event, Notice, Priority, Question, Session};
use crate::speech::SpeechHandle;
use crate::words::LoadPack;
use crate::words::{Pack, Utterance};

pub use a11y::{BOARD_ROLE, CELL_ROLE, choice_name};
pub use keys::Action;
pub use online::OnlineStatus;
pub use options::{AppOptions, TimeSource};
pub use run::run;
pub use sim_panel::SimPanel;
pub use text::UiText;

pub use crate::config::Theme;

/// Saves the scoresheet after every move (game safety), on a thread of
/// its own ([`crate::save_worker`]). The shell passes one that writes the
/// save file; tests pass one that records calls.
pub type GameSaver = crate::save_worker::GameSaver;
pub use saving::{SAVE_GIVE_UP_MS, SAVE_HOLD_MS};

/// The window over the main one, at most one at a time. A question the
/// session asks ([`Session::pending`]) is drawn above it.
pub enum Modal {
    Help(dialogs::HelpWindow),
    /// The settings being edited (applied only on Save).
    Settings(Box<settings_dialog::SettingsDraft>),
    /// Play online: server, token, how to find a game.
    Online(Box<online_dialog::OnlineDraft>),
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
/// views' own state in theirs (`MoveInput`, `Scoresheet`, `BoardView`,
/// [`SimPanel`], the dialogs in [`Modal`]); each view draws itself in its
/// own file.
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
    /// When a key was last pressed, none yet at start (typing: the offer
    /// nobody asked for waits until the keyboard is idle).
    last_key_ms: Option<u64>,
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
    /// "Saving is taking long" was said and no save has been quick since.
    slow_spell: bool,
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
    /// A screen reader runs and has not been answered yet: it gets the
    /// app's words too (a Braille display shows the moves typed before
    /// the offer is answered).
    screen_reader_unanswered: bool,
    /// The connection that hands keys to the screen reader, coming.
    keys_rx: Option<std::sync::mpsc::Receiver<atspi_keys::Registry>>,
    /// Keys go to the screen reader first ([`atspi_keys`]).
    keys: Option<(atspi_keys::KeyFilter, atspi_keys::Registry)>,
    /// Online play, connected or connecting ([`online`]).
    online: Option<online::Online>,
    online_status: online::OnlineStatus,
    /// Puzzles, once started ([`puzzle_panel`]).
    puzzles: Option<puzzle_panel::PuzzlePanel>,
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
            last_key_ms: None,
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
            slow_spell: false,
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
            screen_reader_unanswered: false,
            keys_rx: None,
            keys: None,
            online: None,
            online_status: online::OnlineStatus::default(),
            puzzles: None,
        };
        // A voice that stops answering mid-session wakes the window, which
        // shows it (the speech service says it).
        let wake = app.wake.clone();
        app.speech.on_fallback(move |_| {
            if let Some(ctx) = wake.get() {
                ctx.request_repaint();
            }
        });
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

    /// The window title as last set (it says the game state).
    pub fn window_title(&self) -> &str {
        &self.window_title
    }

    /// A voice that stopped answering mid-session: the speech service
    /// said so with the next voice; the banner at the top shows it.
    fn poll_speech(&mut self) {
        if let Some(fallback) = self.speech.take_fallbacks().pop() {
            self.note = Some(if fallback.silent {
                self.ui.get("speech_stopped_silent")
            } else {
                self.ui.get("speech_stopped")
            });
        }
    }
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
