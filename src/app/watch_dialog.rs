//! The "Watch a broadcast" dialog (Online menu): the round (its id, or its
//! address pasted whole) and the game to follow (a board number or a
//! player's name). Watch starts the Watch panel ([`super::watch_panel`]).

use egui::Color32;

use super::layout::big;
use super::{FocusTarget, UiText};
use crate::broadcast::Pick;
use crate::online::broadcast::round_id_from;

/// The dialog's fields being edited.
pub struct WatchDraft {
    /// The round as typed or pasted.
    pub round: String,
    /// A board number or a player's name; empty: board 1.
    pub pick: String,
    pub error: Option<String>,
    take_focus: bool,
    pub(super) return_to: FocusTarget,
}

/// What became of the dialog in a frame.
pub enum Outcome {
    Open,
    Cancel,
    /// Watch this round (its id), following this game.
    Watch(String, Pick),
}

impl WatchDraft {
    pub fn new(return_to: FocusTarget) -> WatchDraft {
        WatchDraft {
            round: String::new(),
            pick: String::new(),
            error: None,
            take_focus: true,
            return_to,
        }
    }

    /// Draws the dialog; what was chosen comes back.
    pub fn ui(&mut self, ctx: &egui::Context, t: &UiText) -> Outcome {
        let mut watch = false;
        let mut cancel = false;
        let shown = egui::Window::new(t.get("watch_title"))
            .resizable(false)
            .collapsible(false)
            .movable(false)
            .default_width(560.0)
            .max_width(super::layout::dialog_width(ctx, 560.0))
            .max_height(super::layout::dialog_height(ctx))
            .vscroll(true)
            .show(ctx, |ui| {
                super::focus_ring::scroll_focus_into_view(ui, "watch");
                ui.horizontal(|ui| {
                    let l = ui.label(t.get("watch_round"));
                    let field =
                        super::a11y::entering_field(egui::TextEdit::singleline(&mut self.round));
                    let r = ui.add(field).labelled_by(l.id);
                    if std::mem::take(&mut self.take_focus) {
                        r.request_focus();
                    }
                    super::a11y::note_enter(ui, &r);
                });
                super::a11y::text_row(ui, t.get("watch_pick"), &mut self.pick);
                if let Some(e) = &self.error {
                    ui.colored_label(Color32::from_rgb(255, 140, 140), e);
                }
                ui.horizontal(|ui| {
                    if ui.button(big(t.get("watch_start"), 20.0)).clicked() {
                        watch = true;
                    }
                    if ui.button(big(t.get("cancel"), 20.0)).clicked() {
                        cancel = true;
                    }
                });
            });
        // A real modal dialog: Tab cycles inside it.
        if let Some(r) = &shown {
            ctx.memory_mut(|m| m.set_modal_layer(r.response.layer_id));
        }
        // Enter in a field watches, as the button does.
        watch |= super::a11y::entered_field(ctx);
        if watch {
            match self.check(t) {
                Ok((round, pick)) => return Outcome::Watch(round, pick),
                Err(e) => {
                    super::a11y::say_soon(ctx, &e);
                    self.error = Some(e);
                    self.take_focus = true;
                }
            }
        }
        if cancel {
            Outcome::Cancel
        } else {
            Outcome::Open
        }
    }

    /// The round's id and the game picked; the error in words otherwise.
    fn check(&self, t: &UiText) -> Result<(String, Pick), String> {
        let round = round_id_from(&self.round)
            .ok_or_else(|| format!("{}: {}", t.get("watch_no_round"), self.round.trim()))?;
        Ok((round, pick_from(&self.pick)))
    }
}

/// What was typed in the game field: a board number (empty: board 1), or
/// a player's name (or part of it).
fn pick_from(text: &str) -> Pick {
    let text = text.trim();
    if text.is_empty() {
        return Pick::Board(1);
    }
    match text.parse::<usize>() {
        Ok(n) if n > 0 => Pick::Board(n),
        _ => Pick::Player(text.to_owned()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_number_picks_a_board_anything_else_a_player() {
        assert_eq!(pick_from(""), Pick::Board(1));
        assert_eq!(pick_from(" 3 "), Pick::Board(3));
        assert_eq!(pick_from("Caruana"), Pick::Player("Caruana".into()));
        assert_eq!(pick_from("0"), Pick::Player("0".into()));
    }
}
