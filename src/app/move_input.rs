//! The move input: a move typed ("Nf3", "e2e4") and played with Enter or
//! the Play button; also where a scoresheet or its file name is typed for
//! the retrace.

use egui::text_edit::TextEditState;
use egui::text_selection::CCursorRange;
use egui::{FontId, Id, Key, Ui};

use super::focus::FocusTarget;
use super::layout::big;
use super::text::UiText;

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
    /// Text was typed while the current question is shown: Enter plays it
    /// and does not answer (Y, Escape, "n" and Enter or the buttons do).
    pub typed_under_question: bool,
    /// A move typed under the resume question, back in the input once it
    /// is answered (it is for the game the answer chooses).
    pub kept: Option<String>,
    /// When a key was last pressed, none yet at start (typing: the offer
    /// nobody asked for waits until the keyboard is idle).
    pub last_key_ms: Option<u64>,
    /// The text was refused: in the next frame it is selected whole, so
    /// that what is typed next replaces it (appended, "d6" and "Be7" made
    /// "d6Be7") and an arrow key still reaches it to correct it.
    select_all: bool,
}

/// The move input's text size, in points.
const INPUT_FONT: f32 = 24.0;

/// How many characters the move input always has room for.
pub const LEAST_CHARS: usize = 12;

/// The width of [`LEAST_CHARS`] characters of the input's text (a digit's
/// width each: moves are letters and digits of about that width).
pub fn least_input_width(ui: &Ui) -> f32 {
    let digit = ui
        .ctx()
        .fonts_mut(|f| f.glyph_width(&FontId::proportional(INPUT_FONT), '0'));
    digit * LEAST_CHARS as f32
}

impl MoveInput {
    /// Draws the input and its Play button; true when the move is to be
    /// played (Enter in the input, or the button). The input takes the
    /// keyboard when `focus_request` asks for it.
    pub fn ui(&mut self, ui: &mut Ui, t: &UiText, focus_request: &mut Option<FocusTarget>) -> bool {
        let mut play = false;
        // Wrapped: in a narrow column (1024x600 at text size 2) the field
        // goes below its label and Play below the field, rather than the
        // field shrinking to two characters.
        ui.horizontal_wrapped(|ui| {
            let label = ui.label(big(t.get("move_input"), 22.0));
            let least = least_input_width(ui);
            let id = Id::unique(MOVE_INPUT_ID);
            if std::mem::take(&mut self.select_all) {
                let mut state = TextEditState::load(ui.ctx(), id).unwrap_or_default();
                state
                    .cursor
                    .set_char_range(Some(CCursorRange::select_all_str(&self.text)));
                state.store(ui.ctx(), id);
            }
            // When nothing has the keyboard (the first frame after start,
            // a click on nothing), the focus asked for is given before the
            // input is drawn, so keys that came in this very frame (a move
            // typed the moment the window opens) are typed into it rather
            // than lost. Coming from another widget (a dialog's Y that
            // closed it), the focus arrives after this frame's keys, which
            // were that widget's.
            if *focus_request == Some(FocusTarget::MoveInput)
                && ui.memory(|m| m.focused()).is_none()
            {
                ui.memory_mut(|m| m.request_focus(id));
                *focus_request = None;
            }
            let had_focus = ui.memory(|m| m.has_focus(id));
            let edit = egui::TextEdit::singleline(&mut self.text)
                .id(id)
                .hint_text(t.get("move_input_hint"))
                .font(FontId::proportional(INPUT_FONT))
                .desired_width((ui.available_width() - 90.0).max(least));
            let response = ui.add(edit).labelled_by(label.id);
            self.built.clone_from(&self.text);
            // Enter gives the focus up: in this frame (focus given just
            // above) or in the next (the frame after the keys).
            let gave_up = response.lost_focus() || (had_focus && !response.has_focus());
            if gave_up && ui.input(|i| i.key_pressed(Key::Enter)) {
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

    /// The text typed was refused: it stays to be corrected, selected
    /// whole from the next frame on, so the next move typed replaces it.
    pub fn refused(&mut self) {
        self.select_all = !self.text.is_empty();
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

    /// Keeps track of typing: when the last key came, and text typed while
    /// a question's dialog has the keyboard (a move typed by someone who
    /// has not heard the question): that text goes to the move input, and
    /// the Enter after it plays it instead of answering.
    pub fn note_typing(&mut self, ctx: &egui::Context, asking: bool, now_ms: u64) {
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
            self.last_key_ms = Some(now_ms);
        }
        if !asking {
            self.typed_under_question = false;
            return;
        }
        // Y alone is the answer's own key (no move begins with it; N
        // begins "Nf3", so it is typed, and "n" with Enter answers no).
        let answer_key = matches!(typed.as_str(), "y" | "Y") && self.text.is_empty();
        if !typed.is_empty() && !answer_key {
            self.typed_under_question = true;
            self.text.push_str(&typed);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::words::Lang;

    struct State {
        input: MoveInput,
        focus_request: Option<FocusTarget>,
        played: Vec<String>,
    }

    fn key(key: Key, pressed: bool) -> egui::Event {
        egui::Event::Key {
            key,
            physical_key: None,
            pressed,
            repeat: false,
            modifiers: egui::Modifiers::NONE,
        }
    }

    /// A move typed the moment the window opens comes in the same frame
    /// as the focus given to the input (the first frame after start, with
    /// a quick typist or a Braille keyboard sending a whole word): it is
    /// typed into the input and Enter plays it (before, the keys reached
    /// an input that took the focus only after them, and the move was
    /// lost).
    #[test]
    fn keys_in_the_frame_the_focus_arrives_are_typed_and_played() {
        let t = UiText::bundled(Lang::En);
        let mut h = egui_kittest::Harness::new_ui_state(
            move |ui, s: &mut State| {
                if s.input.ui(ui, &t, &mut s.focus_request) {
                    s.played.push(std::mem::take(&mut s.input.text));
                }
            },
            State {
                input: MoveInput::default(),
                focus_request: None,
                played: Vec::new(),
            },
        );
        h.run();
        h.state_mut().focus_request = Some(FocusTarget::MoveInput);
        for event in [
            key(Key::E, true),
            egui::Event::Text("e".into()),
            key(Key::E, false),
            key(Key::Num4, true),
            egui::Event::Text("4".into()),
            key(Key::Num4, false),
            key(Key::Enter, true),
            key(Key::Enter, false),
        ] {
            // All in one frame, as a window gets keys that came together.
            h.input_mut().events.push(event);
        }
        h.step();
        assert_eq!(h.state().played, ["e4"]);
        assert_eq!(h.state().focus_request, None);
        // The input keeps the keyboard for the next move.
        h.run();
        for event in [
            key(Key::E, true),
            egui::Event::Text("e".into()),
            key(Key::Num5, true),
            egui::Event::Text("5".into()),
            key(Key::Enter, true),
        ] {
            h.event(event);
        }
        h.run();
        assert_eq!(h.state().played, ["e4", "e5"]);
    }
}
