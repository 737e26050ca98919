//! Practice against an engine in the app: the engine thread is started on
//! the session's first request, its answers go back to the session each
//! frame. The opponent (on or off, level, colour) and the engine program
//! come from the settings.

use std::path::PathBuf;
use std::time::Duration;

use egui::Ui;

use super::RochadeApp;
use super::text::UiText;
use crate::config::EngineSettings;
use crate::engine::{EngineRequest, EngineService, Level};
use crate::session::{Command, Event, PracticeCommand};

impl RochadeApp {
    fn engine_service(&mut self) -> &EngineService {
        let path = PathBuf::from(self.settings.engine.path.trim());
        // A changed engine program: the old one is stopped (dropping the
        // service ends its thread, which quits the engine).
        if self.links.engine.as_ref().is_some_and(|(p, _)| *p != path) {
            self.links.engine = None;
        }
        &self
            .links
            .engine
            .get_or_insert_with(|| (path.clone(), EngineService::spawn(path)))
            .1
    }

    pub(super) fn ask_engine(&mut self, request: EngineRequest) {
        self.engine_service().ask(request);
    }

    pub(super) fn restart_engine(&mut self) {
        self.engine_service().restart();
    }

    /// Hands the engine's answers to the session.
    pub(super) fn poll_engine(&mut self) {
        let Some((_, engine)) = &self.links.engine else {
            return;
        };
        let events: Vec<_> = engine.events().try_iter().collect();
        for event in events {
            self.dispatch(Event::Engine(event));
        }
    }

    /// While the engine thinks, frames keep coming so its answer is heard.
    pub(super) fn engine_repaint(&self) -> Option<Duration> {
        self.session
            .engine_busy()
            .then_some(Duration::from_millis(50))
    }

    /// Gives the session the settings, whose opponent it plays against
    /// (after start-up, a mode change or Save in Settings); the engine
    /// moves at once if it is its turn.
    pub(super) fn sync_opponent(&mut self) {
        self.dispatch(Event::ConfigChanged(self.settings.session_config()));
    }

    /// Ctrl+Shift+P: practice against the computer on or off (switching
    /// to practice mode), said and saved (the session decides).
    pub(super) fn toggle_computer(&mut self) {
        self.practice(PracticeCommand::ToggleComputer);
    }

    /// Ctrl+Shift+Up/Down: the computer one level stronger or weaker.
    pub(super) fn change_level(&mut self, up: bool) {
        self.practice(PracticeCommand::Level(up));
    }

    /// Ctrl+Shift+C: the player takes the other colour.
    pub(super) fn switch_colours(&mut self) {
        self.practice(PracticeCommand::SwitchColours);
    }

    fn practice(&mut self, cmd: PracticeCommand) {
        self.dispatch(Event::Command(Command::Practice(cmd)));
    }

    /// The session changed the settings itself (a practice key): they are
    /// taken into the app's settings, applied and saved.
    pub(super) fn keep_config(&mut self, config: &crate::session::SessionConfig) {
        let mut settings = self.settings.clone();
        settings.keep_session_config(config);
        self.apply_settings(settings);
    }
}

/// The Computer menu of the top bar: the same commands as the keys.
/// `on`: the computer plays; `level`: its level's number.
pub(super) fn computer_menu(
    ui: &mut Ui,
    t: &UiText,
    on: bool,
    level: u8,
    actions: &mut Vec<super::keys::Action>,
) {
    use super::keys::Action;
    let title = if on {
        format!(
            "{} ({} {level})",
            t.get("computer_menu"),
            t.get("computer_level")
        )
    } else {
        t.get("computer_menu")
    };
    ui.menu_button(title, |ui| {
        let first = ui.selectable_label(on, t.get("computer_on"));
        super::a11y::focus_first_item_on_open(ui, "computer", &first);
        if first.clicked() {
            actions.push(Action::ToggleComputer);
            ui.close();
        }
        for (key, action) in [
            ("hint", Action::Hint),
            ("threat", Action::Threat),
            ("evaluate", Action::Evaluate),
            ("stronger", Action::Level(true)),
            ("weaker", Action::Level(false)),
            ("swap_colours", Action::SwitchColours),
            ("restart_engine", Action::RestartEngine),
        ] {
            if ui.button(t.get(key)).clicked() {
                actions.push(action);
                ui.close();
            }
        }
    });
}

/// The settings rows of the computer opponent.
pub(super) fn engine_rows(ui: &mut Ui, t: &UiText, e: &mut EngineSettings) {
    ui.checkbox(&mut e.opponent, t.get("computer_opponent"));
    ui.horizontal(|ui| {
        let l = ui.label(t.get("engine_level"));
        let mut n = e.level.number();
        ui.add(egui::Slider::new(&mut n, Level::MIN..=Level::MAX))
            .labelled_by(l.id);
        e.level = Level::new(n).unwrap_or_default();
    });
    super::a11y::text_row(ui, t.get("engine_path"), &mut e.path);
    ui.horizontal(|ui| {
        let l = ui.label(t.get("engine_pause"));
        ui.add(egui::DragValue::new(&mut e.pause_ms).range(0..=5000))
            .labelled_by(l.id);
    });
}

impl RochadeApp {
    /// Blocks until the engine thread reports something (at most
    /// `timeout`) and hands it to the session; false if nothing came.
    /// For drivers without frames: tests and benchmarks.
    pub fn wait_engine(&mut self, timeout: Duration) -> bool {
        let Some((_, engine)) = &self.links.engine else {
            return false;
        };
        match engine.events().recv_timeout(timeout) {
            Ok(event) => {
                self.dispatch(Event::Engine(event));
                true
            }
            Err(_) => false,
        }
    }
}

/// A seed for the practice opponent's random choices, new every start
/// (from the standard library's per-process hash keys; no clock).
pub(super) fn seed() -> u64 {
    use std::hash::{BuildHasher, Hasher};
    std::collections::hash_map::RandomState::new()
        .build_hasher()
        .finish()
}
