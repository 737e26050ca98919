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
//! The app's state is [`RochadeApp`] (here): the session, the settings,
//! the links to the world (`links`: clock, boards, engine, saving), the
//! voice (`voice`), and the panels (`panels` groups those of the main
//! window, `rooms` puzzles and review). Each panel owns its
//! state and draws itself from a file of its own (egui demo style: a
//! `struct` and its `ui`), from what the app hands it; it hands back what
//! the user asked for, which the app carries out: `board_panel`
//! (`BoardPanel`: cursor, piece picked up, focus; drawn by `board_view`),
//! `move_input` (`MoveInput`), `scoresheet` (`Scoresheet`),
//! `spoken_history` (`SpokenHistory`), `clocks`, `connection`,
//! `sim_panel` ([`SimPanel`]), `dialogs` (`Dialogs`: the question, the
//! help, [`Modal`]) with `settings_dialog` and `settings_rows`,
//! `screen_reader` (`ScreenReader` and its offer) and `window` (title,
//! fit, style). `frame` is one frame (input, panels, focus,
//! screen-reader words), `side_column` the column beside the board with
//! `menus`; `focus` says where the keyboard goes. What the app does is in
//! `actions` (commands), `browsing` (the board by keys), `speech_out`
//! (saying, effects, notices), `saving` (`Saving`), `practice`,
//! `session_pack` (the session's words), `online` (play on Lichess:
//! with `online_dialog` and `online_threads`) and `watch_panel` (a live
//! broadcast round followed, with `watch_dialog`).

mod a11y;
mod actions;
mod atspi_keys;
pub use rochade_core::browse;
mod board_panel;
mod board_view;
mod boards;
mod book_export;
mod broadcast_push;
mod browsing;
mod clocks;
mod connection;
mod dialogs;
mod effects;
mod focus;
mod focus_ring;
mod frame;
mod keys;
mod layout;
mod links;
mod menus;
mod move_input;
mod online;
mod online_dialog;
mod online_threads;
mod options;
pub mod palette;
mod panels;
mod piece_disc;
mod pieces;
mod practice;
mod puzzle_panel;
mod review_open;
mod review_panel;
mod rooms;
pub mod run;
mod saving;
mod scoresheet;
mod screen_reader;
mod session_pack;
mod settings_boards;
mod settings_dialog;
mod settings_rows;
mod side_column;
mod sim_panel;
mod speech_out;
mod spoken_history;
pub mod text;
mod title;
mod voice;
mod voice_listen;
mod waking;
mod watch_dialog;
mod watch_panel;
mod window;
#[cfg(target_os = "linux")]
mod x11_raw_keys;

use std::sync::Arc;

use shakmaty::{Color, Square};

use crate::config::Settings;
use crate::session::board::BoardEvent;
use crate::session::{Event, Priority, Question, Session};

pub use a11y::{BOARD_ROLE, CELL_ROLE, choice_name};
pub use dialogs::Modal;
use focus::FocusTarget;
pub use keys::Action;
pub use online::OnlineStatus;
pub use options::{AppOptions, TimeSource};
pub use run::run;
use session_pack::session_pack;
pub use sim_panel::SimPanel;
pub use text::UiText;
pub use voice_listen::{RECORDINGS_VARIABLE, recordings_from_env};

pub use crate::config::Theme;

/// Saves the scoresheet after every move (game safety), on a thread of
/// its own ([`crate::save_worker`]). The shell passes one that writes the
/// save file; tests pass one that records calls.
pub type GameSaver = crate::save_worker::GameSaver;
pub use saving::{SAVE_GIVE_UP_MS, SAVE_HOLD_MS};

/// The app state (egui demo-app style): the session and the settings,
/// the links to the world (`Links`), the voice (`Voice`), and the panels,
/// each with its own state (`BoardPanel`; `Panels`: `MoveInput`,
/// `Scoresheet`, `SpokenHistory`, `Dialogs`, [`SimPanel`]; `ScreenReader`,
/// `Window`, online play, `Rooms`: puzzles and review); each panel draws
/// itself in its own file.
pub struct RochadeApp {
    session: Session,
    /// The clock, the boards, the engine, the saving ([`links`]).
    links: links::Links,
    /// The app's own voice and sounds ([`voice`]).
    voice: voice::Voice,
    settings: Settings,
    /// The game's board: the cursor, the piece picked up, its focus.
    board: board_panel::BoardPanel,
    /// The other panels of the main window: the move input, the
    /// scoresheet, the spoken history, the dialogs, the simulated board
    /// ([`panels`]).
    panels: panels::Panels,
    /// The window: its words, its banner, its title, its fit to the
    /// screen, its style.
    window: window::Window,
    /// The window's context, for the saving thread to wake it.
    wake: Arc<std::sync::OnceLock<egui::Context>>,
    /// The screen reader: the look-up, the offer, the keys it gets first,
    /// the words said since the last frame.
    screen_reader: screen_reader::ScreenReader,
    /// Online play, connected or connecting ([`online`]).
    online: Option<online::Online>,
    online_status: online::OnlineStatus,
    /// Puzzles and the Review window, once opened ([`rooms`]).
    rooms: rooms::Rooms,
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
        let saving = saving::Saving::start(options.saver, &wake);
        let ui = UiText::bundled(options.settings.interface_language);
        let mut app = RochadeApp {
            session,
            links: links::Links {
                time: options.time,
                boards: boards::Boards::new(options.probe_ports, options.ble_transport),
                engine: None,
                saving,
                persist_settings: options.persist_settings,
                broadcast: None,
            },
            voice: voice::Voice {
                speech: options.speech,
                audio: options.audio,
                pack_dir: options.pack_dir,
                trace_startup: options.trace_startup,
                input: None,
                recordings: options.voice_recordings,
            },
            settings: options.settings,
            board: board_panel::BoardPanel::default(),
            panels: panels::Panels::new(),
            window: window::Window::new(ui, note, options.trace_frames),
            wake,
            screen_reader: screen_reader::ScreenReader::new(
                options.screen_reader,
                options.screen_reader_api,
            ),
            online: None,
            online_status: online::OnlineStatus::default(),
            rooms: rooms::Rooms::default(),
        };
        // A voice that stops answering mid-session wakes the window, which
        // shows it (the speech service says it).
        let wake = app.wake.clone();
        app.voice.speech.on_fallback(move |_| {
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
        if options.startup_alerts.is_empty() && refused.is_none() && app.window.note.is_some() {
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
        app.sync_voice_input();
        app
    }

    pub fn session(&self) -> &Session {
        &self.session
    }

    pub fn ui_text(&self) -> &UiText {
        &self.window.ui
    }

    /// The keyboard cursor on the board.
    pub fn cursor(&self) -> Square {
        self.board.cursor
    }

    /// Where the main board was drawn last (for tests and measurements).
    pub fn board_rect(&self) -> Option<egui::Rect> {
        self.board.rect()
    }

    /// Where the simulated peg-board was drawn last, while it is shown.
    pub fn sim_board_rect(&self) -> Option<egui::Rect> {
        self.panels.sim.as_ref().and_then(|s| s.view_rect())
    }

    /// The question waiting for an answer (shown as a dialog).
    pub fn question(&self) -> Option<&Question> {
        self.session.pending().map(|p| &p.question)
    }

    pub fn modal(&self) -> Option<&Modal> {
        self.panels.dialogs.modal.as_ref()
    }

    /// What the app said, oldest first (the history panel shows the end).
    pub fn spoken(&self) -> Vec<String> {
        self.panels.history.spoken()
    }

    /// How many times the game was saved.
    pub fn saves(&self) -> u64 {
        self.links.saving.saves
    }

    pub fn sim(&self) -> Option<&SimPanel> {
        self.panels.sim.as_ref()
    }

    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// The board is drawn from the blind player's side when he has Black.
    pub fn flipped(&self) -> bool {
        self.session.config().blind_side == Color::Black
    }

    pub fn now_ms(&self) -> u64 {
        self.links.time.now_ms()
    }

    /// A game that has moves and no result: closing or a new game asks first.
    pub fn game_in_progress(&self) -> bool {
        self.session.game_in_progress()
    }

    /// The window title as last set (it says the game state).
    pub fn window_title(&self) -> &str {
        &self.window.title
    }

    /// A voice that stopped answering mid-session: the speech service
    /// said so with the next voice; the banner at the top shows it.
    fn poll_speech(&mut self) {
        if let Some(fallback) = self.voice.speech.take_fallbacks().pop() {
            self.window.note = Some(if fallback.silent {
                self.window.ui.get("speech_stopped_silent")
            } else {
                self.window.ui.get("speech_stopped")
            });
        }
    }
}

#[cfg(test)]
mod tests {
    /// The fields of the struct `name` declared in `source`.
    fn fields_of(source: &str, name: &str) -> Vec<String> {
        let start = source
            .find(&format!("pub struct {name} {{"))
            .expect("the struct is declared");
        source[start..]
            .lines()
            .skip(1)
            .take_while(|line| *line != "}")
            .map(str::trim)
            .filter(|line| !line.starts_with("//"))
            .filter_map(|line| line.split_once(':').map(|(field, _)| field.to_string()))
            .collect()
    }

    #[test]
    fn the_app_holds_the_panels_in_at_most_twelve_fields() {
        // The window's state lives in its panels (each with its own state
        // and its `ui`); the app holds them, not their pieces.
        let fields = fields_of(include_str!("mod.rs"), "RochadeApp");
        assert!(fields.contains(&"session".to_string()), "{fields:?}");
        assert!(fields.contains(&"panels".to_string()), "{fields:?}");
        assert!(fields.len() <= 12, "{} fields: {fields:?}", fields.len());
    }
}
