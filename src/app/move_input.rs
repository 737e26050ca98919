//! The move input: a move typed ("Nf3", "e2e4") and played with Enter or
//! the Play button; also where a scoresheet or its file name is typed for
//! the retrace.

use egui::{FontId, Id, Key, Ui};

use super::layout::big;
use super::{FocusTarget, RochadeApp, UiText};

pub const MOVE_INPUT_ID: &str = "move_input";

/// The move input's state: the text typed, and that text as its widget
/// was built in this frame and in the frame before (see
/// [`MoveInput::changing`]).
#[derive(Default)]
pub struct MoveInput {
    /// The text typed, not yet played.
    pub text: String,
    built: String,
    built_before: String,
    /// Text was typed while the current question is shown: Enter does not
    /// answer it (Y, N or the buttons do).
    pub typed_under_question: bool,
}

impl MoveInput {
    /// Draws the input and its Play button; true when the move is to be
    /// played (Enter in the input, or the button). The input takes the
    /// keyboard when `focus_request` asks for it.
    pub fn ui(&mut self, ui: &mut Ui, t: &UiText, focus_request: &mut Option<FocusTarget>) -> bool {
        let mut play = false;
        ui.horizontal(|ui| {
            let label = ui.label(big(t.get("move_input"), 22.0));
            let edit = egui::TextEdit::singleline(&mut self.text)
                .id(Id::unique(MOVE_INPUT_ID))
                .hint_text(t.get("move_input_hint"))
                .font(FontId::proportional(24.0))
                .desired_width(ui.available_width() - 90.0);
            let response = ui.add(edit).labelled_by(label.id);
            self.built.clone_from(&self.text);
            if response.lost_focus() && ui.input(|i| i.key_pressed(Key::Enter)) {
                play = true;
                response.request_focus();
            }
            if *focus_request == Some(FocusTarget::MoveInput) {
                response.request_focus();
                *focus_request = None;
            }
            if ui.button(big(t.get("play"), 22.0)).clicked() {
                play = true;
            }
        });
        play
    }

    /// Called once at the end of every frame: whether the entry is
    /// changing, so that words for the screen reader wait (`hold` of
    /// [`super::a11y::deliver`]).
    ///
    /// A move typed and played clears the move input in the frame of its
    /// announcement, and the emptied entry reaches the screen reader in
    /// the next: it re-presents the entry (its text and caret changed) and
    /// the move left the Braille line within 50 ms. The words wait until
    /// the entry's change has gone out in a frame of its own, so the move
    /// stays on the line.
    pub fn changing(&mut self) -> bool {
        let changing = self.text != self.built || self.built != self.built_before;
        self.built_before.clone_from(&self.built);
        changing
    }
}

impl RochadeApp {
    /// Keeps track of typing: when the last key came, and text typed while
    /// a question is shown (a move typed by someone who has not heard the
    /// question): that text goes to the move input, kept, and the Enter
    /// after it is no answer.
    pub(super) fn note_typing(&mut self, ctx: &egui::Context, asking: bool) {
        let (any_key, typed) = ctx.input(|i| {
            let any_key = i.events.iter().any(|e| {
                matches!(
                    e,
                    egui::Event::Key { pressed: true, .. } | egui::Event::Text(_)
                )
            });
            let typed: String = i
                .events
                .iter()
                .filter_map(|e| match e {
                    egui::Event::Text(t) => Some(t.as_str()),
                    _ => None,
                })
                .collect();
            (any_key, typed)
        });
        if any_key {
            self.last_key_ms = self.now_ms();
        }
        if !asking {
            self.move_input.typed_under_question = false;
            return;
        }
        // Y and N alone are the answers' own keys.
        let answer_key = matches!(typed.as_str(), "y" | "Y" | "n" | "N");
        if !typed.is_empty() && !answer_key {
            self.move_input.typed_under_question = true;
            self.move_input.text.push_str(&typed);
        }
    }
}
