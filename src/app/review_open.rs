//! Open a game for review from a PGN file (a tournament's, an import):
//! Game menu or Ctrl+Shift+L; or export a whole PGN file as a Braille book
//! (Game menu, [`super::book_export`]). A small window with one labelled path field
//! (filled with the folder of the last game opened, kept in the settings)
//! and its buttons; Enter opens, Escape closes. A file that cannot be read
//! or parsed is said and written in the window, and the path stays in the
//! field to be corrected; the game on the board is never touched.

use std::path::Path;

use super::RochadeApp;
use super::text::UiText;
use crate::session::Priority;
use rochade_core::review as core_review;

/// What the PGN file chosen is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FileUse {
    /// Its first game, reviewed.
    Review,
    /// Every game, as one Braille book beside it.
    BrailleBook,
}

impl FileUse {
    /// The window's title and its button's label (keys of the interface).
    fn labels(self) -> (&'static str, &'static str) {
        match self {
            FileUse::Review => ("review_open_title", "review_open_button"),
            FileUse::BrailleBook => ("book_title", "book_button"),
        }
    }
}

/// The open-for-review window's state.
pub struct ReviewOpen {
    /// What the file is for.
    pub(super) purpose: FileUse,
    /// The path as typed.
    pub(super) path: String,
    /// Why the last path could not be opened, written under the field.
    pub(super) error: Option<String>,
    /// The field takes the keyboard on the next frame.
    pub(super) take_focus: bool,
}

/// What the window asked for this frame.
#[derive(Default)]
struct OpenOut {
    open: bool,
    close: bool,
}

impl ReviewOpen {
    fn ui(&mut self, ctx: &egui::Context, t: &UiText) -> OpenOut {
        let mut out = OpenOut::default();
        let mut shown = true;
        let (title, button) = self.purpose.labels();
        egui::Window::new(t.get(title))
            .open(&mut shown)
            .resizable(false)
            .collapsible(false)
            .movable(false)
            .default_width(super::layout::dialog_width(ctx, 480.0))
            .show(ctx, |ui| {
                ui.horizontal(|ui| {
                    let label = ui.label(t.get("review_open_path"));
                    let field = ui
                        .add(egui::TextEdit::singleline(&mut self.path).desired_width(320.0))
                        .labelled_by(label.id);
                    if std::mem::take(&mut self.take_focus) {
                        field.request_focus();
                    }
                    if field.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter)) {
                        out.open = true;
                    }
                });
                if let Some(error) = &self.error {
                    ui.label(error.clone());
                }
                ui.horizontal(|ui| {
                    if ui.button(t.get(button)).clicked() {
                        out.open = true;
                    }
                    if ui.button(t.get("cancel")).clicked() {
                        out.close = true;
                    }
                });
            });
        out.close |= !shown;
        out
    }
}

impl RochadeApp {
    /// The open-for-review window, open or closed.
    pub fn review_open(&self) -> Option<&ReviewOpen> {
        self.rooms.review_open.as_ref()
    }

    /// Game menu, Ctrl+Shift+L: asks for a PGN file to review (the window
    /// closes when already open).
    pub(super) fn toggle_review_open(&mut self) {
        self.toggle_file_window(FileUse::Review);
    }

    /// Asks for a PGN file for `purpose` (the window closes when already
    /// open for it; open for the other, it is for this one now).
    pub(super) fn toggle_file_window(&mut self, purpose: FileUse) {
        if let Some(open) = self.rooms.review_open.take()
            && open.purpose == purpose
        {
            return;
        }
        let folder = self.settings.game.review_folder.trim();
        let path = if folder.is_empty() {
            String::new()
        } else {
            Path::new(folder).join("").display().to_string()
        };
        self.rooms.review_open = Some(ReviewOpen {
            purpose,
            path,
            error: None,
            take_focus: true,
        });
        self.say_key(
            match purpose {
                FileUse::Review => "review_open",
                FileUse::BrailleBook => "book_open",
            },
            Priority::Answer,
        );
    }

    /// Reads game 1 of the typed file and reviews it in the Review window
    /// (for the side the game's tags name, else the blind player's side
    /// in the settings); a failure is said and written, the path kept.
    fn open_for_review(&mut self) {
        let Some(dialog) = self.rooms.review_open.as_mut() else {
            return;
        };
        let path = crate::game_file::typed_path(&dialog.path);
        let record = if dialog.path.trim().is_empty() {
            Err(self.window.ui.get("review_open_path"))
        } else {
            crate::game_file::read_game(&path, 0).and_then(|record| {
                if record.moves().is_empty() {
                    let none = self.session.pack().say("review_no_game").written;
                    Err(format!("{}: {none}", path.display()))
                } else {
                    Ok(record)
                }
            })
        };
        let record = match record {
            Ok(record) => record,
            Err(reason) => {
                let words = self
                    .session
                    .pack()
                    .phrase("review_open_failed", &[("reason", reason.as_str().into())]);
                dialog.error = Some(words.written.clone());
                dialog.take_focus = true;
                self.say(words, Priority::Alert);
                return;
            }
        };
        self.rooms.review_open = None;
        if let Some(folder) = path.parent().filter(|f| !f.as_os_str().is_empty()) {
            let folder = folder.display().to_string();
            if self.settings.game.review_folder != folder {
                self.settings.game.review_folder = folder;
                self.save_settings();
            }
        }
        let side =
            core_review::player_side(&record.tags).unwrap_or(self.session.config().blind_side);
        self.start_review(record, side);
    }

    /// Draws the open-for-review window and carries out what was asked.
    pub(super) fn review_open_window(&mut self, ctx: &egui::Context) {
        let t = self.window.ui.clone();
        let Some(dialog) = self.rooms.review_open.as_mut() else {
            return;
        };
        let out = dialog.ui(ctx, &t);
        if out.close {
            self.rooms.review_open = None;
        } else if out.open && dialog.purpose == FileUse::BrailleBook {
            self.start_book();
        } else if out.open {
            self.open_for_review();
        }
    }
}
