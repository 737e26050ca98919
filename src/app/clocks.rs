//! The clocks: both sides' times, large, and the state under them (who
//! is to move, paused, untimed, the result).

use egui::Ui;
use shakmaty::Color;

use super::layout::big;
use super::text::UiText;
use super::title::side_name;
use crate::session::Session;

/// Draws the clocks of `session`'s game at `now` (the session's time).
pub(super) fn ui(ui: &mut Ui, t: &UiText, session: &Session, now: u64) {
    let clock = session.clock();
    let record = session.record();
    let turn = record.turn();
    super::a11y::heading(ui, t.get("clocks"));
    for side in [Color::White, Color::Black] {
        let shown = match clock.remaining(side, now) {
            Some(ms) => crate::clock::display(ms),
            None => crate::clock::display(clock.used(side, now)),
        };
        let mut text = big(format!("{}  {shown}", side_name(t, side)), 30.0).monospace();
        if side == turn && !record.is_over() {
            text = text.strong().underline();
        }
        ui.label(text);
    }
    let status = if record.is_over() {
        format!("{}: {}", t.get("result"), record.result_str())
    } else if !clock.control().is_timed() {
        format!(
            "{} {} ({})",
            side_name(t, turn),
            t.get("to_move"),
            t.get("untimed")
        )
    } else if clock.is_paused() {
        format!(
            "{} {} ({})",
            side_name(t, turn),
            t.get("to_move"),
            t.get("paused")
        )
    } else {
        format!("{} {}", side_name(t, turn), t.get("to_move"))
    };
    super::a11y::read_only_text(ui, big(status, 20.0).strong());
}
