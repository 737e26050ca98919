//! The side column: everything but the board, in one column that
//! scrolls (menus, simulated board, clocks, move input, announcements,
//! scoresheet, connection), each part a view of its own.

use egui::{RichText, Ui};

use super::keys::Action;
use super::layout::big;
use super::{RochadeApp, UiText};

/// Everything but the board, in one column that scrolls: the menus, the
/// simulated peg-board when it is shown, clocks, move input,
/// announcements, scoresheet and connection. `ui` is the column's place
/// (from [`super::layout::split`]).
pub fn side_column(app: &mut RochadeApp, ui: &mut Ui) {
    let t = app.ui.clone();
    // A solid scroll bar beside the column, not floating over its right
    // edge (where it hid the simulated board's h-file).
    ui.spacing_mut().scroll = egui::style::ScrollStyle::solid();
    egui::ScrollArea::vertical()
        .id_salt("side_column")
        .auto_shrink([false, false])
        .show(ui, |ui| {
            // A control that takes the keyboard (Tab, F10) comes into view.
            super::focus_ring::scroll_focus_into_view(ui, "side_column");
            // A save problem or start-up note heads the column: above the
            // whole window it took the board's height (at text size 4, all
            // but a strip of it).
            super::saving::alert_banner(app, ui);
            // The screen-reader offer: asked here, the keyboard not taken.
            match super::screen_reader::offer_panel(app, ui) {
                Some(true) => app.act(Action::Confirm),
                Some(false) => app.act(Action::Cancel),
                None => {}
            }
            super::menus::top_bar(app, ui);
            ui.separator();
            super::puzzle_panel::show(app, ui);
            if app.sim.is_some() {
                super::sim_panel::show(app, ui);
                ui.separator();
            }
            super::clocks::ui(app, ui, &t);
            ui.separator();
            if app.move_input.ui(ui, &t, &mut app.focus_request) {
                app.act(Action::PlayTyped);
            }
            ui.separator();
            announcements(app, ui, &t);
            ui.separator();
            let record = app.session.record();
            let letters = app.session.config().letters;
            app.scoresheet
                .ui(ui, &t, record, letters, &mut app.focus_request);
            ui.separator();
            super::connection::ui(app, ui, &t);
        });
}

/// What was said: the newest line large (a live region), the ones
/// before it small.
fn announcements(app: &RochadeApp, ui: &mut Ui, t: &UiText) {
    super::a11y::heading(ui, t.get("announcements"));
    let last = app
        .history
        .back()
        .map(|u| u.spoken.clone())
        .unwrap_or_default();
    ui.label(RichText::new(t.get("last_announcement")).small());
    // The live region (not on AT-SPI, see `a11y`): a screen reader or
    // Braille display reads each new announcement without the focus moving
    // here.
    let response = ui.label(big(last, 24.0).strong());
    // Only when the screen reader is meant to speak (not in self-voicing
    // mode, where it would talk over the app's voice).
    if super::a11y::LIVE_REGION && app.settings.speech.mode.screen_reader() {
        ui.ctx().accesskit_node_builder(response.id, |node| {
            node.set_live(egui::accesskit::Live::Polite);
            node.set_live_atomic();
        });
    }
    ui.label(RichText::new(t.get("history")).small());
    for u in app.history.iter().rev().skip(1).take(super::HISTORY_SHOWN) {
        ui.label(&u.spoken);
    }
}
