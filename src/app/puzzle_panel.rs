//! Puzzles in the window: the Puzzles menu and Ctrl+U start one (the
//! session sets it up, plays the opponent's first move and says the
//! position; the peg-board's guidance leads the pegs there), Ctrl+H gives
//! a hint, Ctrl+Shift+U reads the position. This panel shows the puzzle's
//! state; the progress (the rating) is saved in the user's data after
//! each puzzle, a failed save said and kept for the next.

use egui::Ui;

use super::RochadeApp;
use super::keys::Action;
use crate::puzzle::{Progress, PuzzleSet};
use crate::puzzle_progress::{ProgressFile, SaveOutcome};

use crate::session::{Command, Event, Priority, PuzzleCommand, PuzzleRun};
use crate::words::Pack;

/// The puzzle set, the progress file and how many puzzles were given.
pub struct PuzzlePanel {
    set: PuzzleSet,
    file: ProgressFile,
    given: u64,
    /// The last progress save failed (shown until one works).
    pub save_error: Option<String>,
}

impl PuzzlePanel {
    /// The panel, its progress in the user's data folder when the app
    /// keeps files (`persist`), else in memory only (tests).
    pub fn new(persist: bool) -> PuzzlePanel {
        let file = if persist {
            ProgressFile::in_data_dir()
        } else {
            ProgressFile::at(None)
        };
        PuzzlePanel {
            set: PuzzleSet::bundled(),
            file,
            given: 0,
            save_error: None,
        }
    }
}

impl RochadeApp {
    /// Ctrl+U: the next puzzle; an unfinished one is given up first (its
    /// solution said), the next Ctrl+U then gives a new one.
    pub(super) fn next_puzzle(&mut self) {
        if self
            .session
            .puzzle()
            .is_some_and(|run| run.outcome.is_none())
        {
            self.dispatch(Event::Command(Command::Puzzle(PuzzleCommand::Skip)));
            return;
        }
        if self.rooms.puzzles.is_none() {
            if self.session.config().mode != crate::session::Mode::Practice {
                self.set_mode(crate::session::Mode::Practice);
            }
            let panel = PuzzlePanel::new(self.links.persist_settings);
            let (progress, warning) = panel.file.load();
            if let Some(w) = warning {
                self.window.note = Some(w);
            }
            self.session.set_puzzle_progress(progress);
            self.rooms.puzzles = Some(panel);
        }
        let Some(panel) = self.rooms.puzzles.as_mut() else {
            return;
        };
        let progress = self.session.puzzle_progress().clone();
        panel.given += 1;
        // Seeded from how many puzzles were played: the puzzles played
        // lately are left out, so the next one differs all the same.
        let seed = u64::from(progress.solved + progress.failed) + panel.given;
        let puzzle = crate::puzzle::choose(&panel.set, progress.rating.rating, None, seed, &|id| {
            progress.played(id)
        })
        .cloned();
        if let Some(puzzle) = puzzle {
            self.dispatch(Event::Command(Command::Puzzle(PuzzleCommand::Start(
                Box::new(puzzle),
            ))));
        }
    }

    /// A puzzle word from the menu or a key.
    pub(super) fn puzzle_command(&mut self, cmd: PuzzleCommand) {
        let stop = cmd == PuzzleCommand::Stop;
        self.dispatch(Event::Command(Command::Puzzle(cmd)));
        if stop {
            self.rooms.puzzles = None;
            self.say_key("puzzles_left", Priority::Answer);
            // The computer opponent of the settings plays again.
            self.sync_opponent();
        }
    }

    /// A puzzle ended: its progress is saved; a failure is said once and
    /// the progress kept for the next save.
    pub(super) fn puzzle_done(&mut self) {
        let progress = self.session.puzzle_progress().clone();
        let Some(panel) = self.rooms.puzzles.as_mut() else {
            return;
        };
        match panel.file.save(&progress) {
            SaveOutcome::Saved | SaveOutcome::StillFailing => {}
            SaveOutcome::SavedAgain => {
                panel.save_error = None;
                self.say_key("puzzle_saved_again", Priority::Answer);
            }
            SaveOutcome::Failed(reason) => {
                panel.save_error = Some(reason.clone());
                let text = self
                    .session
                    .pack()
                    .phrase("puzzle_save_failed", &[("reason", reason.as_str().into())]);
                self.say(text, Priority::Alert);
            }
        }
    }
}

/// The Puzzles menu: the next puzzle, a hint, the position, give up,
/// leave.
/// Without a puzzle on (`puzzle_on`), only the next puzzle is offered.
pub fn menu(ui: &mut Ui, t: &super::UiText, puzzle_on: bool, actions: &mut Vec<Action>) {
    ui.menu_button(t.get("puzzles_menu"), |ui| {
        let first = ui.button(t.get("puzzle_next"));
        super::a11y::focus_first_item_on_open(ui, "puzzles", &first);
        if first.clicked() {
            actions.push(Action::NextPuzzle);
            ui.close();
        }
        if !puzzle_on {
            return;
        }
        for (key, action) in [
            ("puzzle_hint", Action::Hint),
            ("puzzle_position", Action::PuzzlePosition),
            ("puzzle_skip", Action::PuzzleSkip),
            ("puzzle_stop", Action::PuzzleStop),
        ] {
            if ui.button(t.get(key)).clicked() {
                actions.push(action);
                ui.close();
            }
        }
    });
}

/// The puzzle's state in the side column, while puzzles are on: its id,
/// rating, themes and goal, whose move it is or how it ended, the
/// player's rating (`progress`); a failed save of it (`save_error`).
pub fn show(
    ui: &mut Ui,
    t: &super::UiText,
    run: &PuzzleRun,
    pack: &Pack,
    progress: &Progress,
    save_error: Option<&String>,
) {
    super::a11y::heading(ui, t.get("puzzle_panel"));
    let p = &run.puzzle;
    super::a11y::read_only_text(
        ui,
        format!(
            "{} {}, {} {}",
            t.get("puzzle_id"),
            p.id,
            t.get("puzzle_rating"),
            p.rating
        ),
    );
    ui.label(format!(
        "{}: {}",
        t.get("puzzle_themes"),
        p.themes.join(", ")
    ));
    let state = match run.outcome {
        Some(true) => t.get("puzzle_state_solved"),
        Some(false) => t.get("puzzle_state_failed"),
        None => {
            let goal = crate::puzzle::words::goal(pack, p).written;
            format!("{}: {goal}", t.get("puzzle_state_open"))
        }
    };
    super::a11y::read_only_text(ui, state);
    ui.label(format!(
        "{}: {} ({} {}, {} {})",
        t.get("puzzle_your_rating"),
        progress.rating_number(),
        progress.solved,
        t.get("puzzle_state_solved"),
        progress.failed,
        t.get("puzzle_state_failed"),
    ));
    if let Some(e) = save_error {
        ui.label(egui::RichText::new(format!("{}: {e}", t.get("puzzle_not_saved"))).strong());
    }
    ui.separator();
}
