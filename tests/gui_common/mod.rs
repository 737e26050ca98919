//! Shared set-up for the `gui_*` tests: the real app state in an
//! `egui_kittest` harness (accessibility check on), the recording speech
//! backend, and a clock the test advances by hand.

#![allow(dead_code)]

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use egui::accesskit::Role;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use rochade::app::{AppOptions, RochadeApp, TimeSource};
use rochade::config::Settings;
use rochade::speech::{BackendChoice, RecordingLog, SpeechConfig, SpeechHandle, SpeechService};
use rochade::words::Lang;

pub struct Gui {
    pub harness: Harness<'static, RochadeApp>,
    pub log: RecordingLog,
    pub clock: Arc<AtomicU64>,
    /// The app's speech thread, to wait until it has said everything.
    pub speech: SpeechHandle,
}

/// How long the speech thread may take to catch up (real time: the
/// recording backend answers at once, so this is only reached on a hang).
const SPEECH_TIMEOUT: Duration = Duration::from_secs(10);

/// Settings a test starts from: English interface, the given announcement
/// language, nothing written to disk.
pub fn settings(speech_lang: Lang) -> Settings {
    let mut s = Settings {
        interface_language: Lang::En,
        ..Settings::default()
    };
    s.speech.language = speech_lang;
    s
}

pub fn start(settings: Settings) -> Gui {
    start_with(settings, |_| {})
}

pub fn start_with(settings: Settings, adjust: impl FnOnce(&mut AppOptions)) -> Gui {
    let log = RecordingLog::new();
    let speech = SpeechService::spawn(SpeechConfig {
        backend: BackendChoice::Recording(log.clone()),
        lang: settings.speech.language,
        ..SpeechConfig::default()
    })
    .expect("recording speech backend");
    let clock = Arc::new(AtomicU64::new(0));
    let mut options = AppOptions::new(speech.clone());
    options.settings = settings;
    options.time = TimeSource::Manual(clock.clone());
    adjust(&mut options);
    let harness = Harness::builder()
        .with_size(egui::vec2(1400.0, 1000.0))
        .with_accessibility_check(true)
        // A save or export finishing on its thread wakes the window for a
        // few more frames than kittest's default of 4 allows.
        .with_max_steps(16)
        .build_eframe(move |_cc| RochadeApp::new(options));
    let mut gui = Gui {
        harness,
        log,
        clock,
        speech,
    };
    gui.harness.run();
    gui
}

impl Gui {
    pub fn app(&self) -> &RochadeApp {
        self.harness.state()
    }

    pub fn app_mut(&mut self) -> &mut RochadeApp {
        self.harness.state_mut()
    }

    /// Types a move into the move input and presses Enter, and waits
    /// until it is saved.
    pub fn type_move(&mut self, text: &str) {
        self.type_move_unsaved(text);
        self.settle_saves();
    }

    /// Types a move and presses Enter, without waiting for its save.
    pub fn type_move_unsaved(&mut self, text: &str) {
        let input = self.harness.get_by_role_and_label(Role::TextInput, "Move");
        input.focus();
        self.harness.run();
        let input = self.harness.get_by_role_and_label(Role::TextInput, "Move");
        input.type_text(text);
        self.harness.run();
        self.harness.key_press(egui::Key::Enter);
        self.harness.run();
    }

    /// Runs frames until every save is on disk and the effects held for
    /// it are carried out (the saving thread is real; a save that never
    /// ends fails the test).
    pub fn settle_saves(&mut self) {
        let end = std::time::Instant::now() + SPEECH_TIMEOUT;
        while !self.app().saves_settled() {
            assert!(
                std::time::Instant::now() < end,
                "waited {SPEECH_TIMEOUT:?} for the game to be saved"
            );
            self.harness.run();
        }
    }

    /// Runs frames until `done` holds (work on another thread in real
    /// time, e.g. a serial link, wakes the window); fails the test after
    /// 20 s.
    pub fn run_until(&mut self, what: &str, done: impl Fn(&Gui) -> bool) {
        let end = std::time::Instant::now() + Duration::from_secs(20);
        while !done(self) {
            assert!(std::time::Instant::now() < end, "waited 20 s for {what}");
            self.harness.run();
        }
    }

    /// Types text wherever the keyboard is, as a user typing without
    /// looking (into the move input, or under a question).
    pub fn type_text(&mut self, text: &str) {
        for c in text.chars() {
            self.harness.event(egui::Event::Text(c.to_string()));
            self.harness.run();
        }
    }

    pub fn press(&mut self, key: egui::Key) {
        self.harness.key_press(key);
        self.harness.run();
        self.settle_saves();
    }

    pub fn press_with(&mut self, modifiers: egui::Modifiers, key: egui::Key) {
        self.harness.key_press_modifiers(modifiers, key);
        self.harness.run();
        self.settle_saves();
    }

    pub fn advance(&mut self, ms: u64) {
        self.clock.fetch_add(ms, Ordering::SeqCst);
        self.harness.run();
    }

    /// Everything the speech backend said so far, once the speech thread
    /// is idle (it has handled all the app asked for). A thread that does
    /// not get there fails the test.
    pub fn spoken(&self) -> Vec<String> {
        assert!(
            self.speech.wait_idle(SPEECH_TIMEOUT),
            "waited {SPEECH_TIMEOUT:?} for the speech thread to say everything the app asked for \
             (the app said {:?}; the backend has said {:?})",
            self.app().spoken(),
            self.log.spoken()
        );
        self.log.spoken()
    }

    /// The last thing spoken.
    pub fn last_spoken(&self) -> String {
        self.spoken().last().cloned().unwrap_or_default()
    }

    /// Whether a label containing this text is on screen.
    pub fn shows_part(&self, text: &str) -> bool {
        self.harness
            .query_all_by_label_contains(text)
            .next()
            .is_some()
    }

    /// Whether a label with exactly this text is on screen.
    pub fn shows(&self, text: &str) -> bool {
        self.harness.query_all_by_label(text).next().is_some()
    }
}

/// Puts the keyboard on the simulated board's cursor cell (one of the
/// grid's 64, the one that takes the focus).
pub fn focus_sim_board(gui: &mut Gui) {
    use egui_kittest::kittest::NodeT;
    let grid = gui
        .harness
        .get_by_role_and_label(rochade::app::BOARD_ROLE, "Simulated peg-board");
    grid.get_all_by_role(rochade::app::CELL_ROLE)
        .find(|n| {
            n.accesskit_node()
                .data()
                .supports_action(egui::accesskit::Action::Focus)
        })
        .expect("the cursor's cell takes the focus")
        .focus();
    gui.harness.run();
}

/// Walks the simulated board's cursor to `to` by arrow keys and presses
/// Enter there (a peg lifted or put down).
pub fn sim_press(gui: &mut Gui, to: shakmaty::Square) {
    use egui::Key;
    let from = gui.app().sim().expect("simulated board shown").cursor;
    focus_sim_board(gui);
    let df = u32::from(to.file()) as i32 - u32::from(from.file()) as i32;
    let dr = u32::from(to.rank()) as i32 - u32::from(from.rank()) as i32;
    let h = if df > 0 {
        Key::ArrowRight
    } else {
        Key::ArrowLeft
    };
    let v = if dr > 0 { Key::ArrowUp } else { Key::ArrowDown };
    for _ in 0..df.abs() {
        gui.press(h);
    }
    for _ in 0..dr.abs() {
        gui.press(v);
    }
    gui.press(Key::Enter);
}
