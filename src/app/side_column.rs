//! The side column: everything but the board, in one column that
//! scrolls (menus, simulated board, clocks, move input, announcements,
//! scoresheet, connection), each part a view of its own.

use egui::Ui;

use super::RochadeApp;
use super::keys::Action;

/// Everything but the board, in one column that scrolls: the menus, the
/// simulated peg-board when it is shown, clocks, move input,
/// announcements, scoresheet and connection. `ui` is the column's place
/// (from [`super::layout::split`]).
pub fn side_column(app: &mut RochadeApp, ui: &mut Ui) {
    let t = app.window.ui.clone();
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
            super::saving::alert_banner(
                ui,
                &t,
                app.links.saving.error.as_ref(),
                app.window.note.as_ref(),
            );
            // The screen-reader offer: asked here, the keyboard not taken.
            match super::screen_reader::offer_panel(ui, &t, app.session.pending()) {
                Some(true) => app.act(Action::Confirm),
                Some(false) => app.act(Action::Cancel),
                None => {}
            }
            super::menus::top_bar(app, ui);
            ui.separator();
            app.watch_panel_ui(ui, &t);
            if let Some(run) = app.session.puzzle() {
                let save_error = app
                    .rooms
                    .puzzles
                    .as_ref()
                    .and_then(|p| p.save_error.as_ref());
                let progress = app.session.puzzle_progress();
                let pack = app.session.pack();
                super::puzzle_panel::show(ui, &t, run, pack, progress, save_error);
            }
            if app.panels.sim.is_some() {
                super::sim_panel::show(app, ui);
                ui.separator();
            }
            super::clocks::ui(ui, &t, &app.session, app.server_clocks(), app.now_ms());
            ui.separator();
            if app
                .panels
                .move_input
                .ui(ui, &t, &mut app.panels.focus_request)
            {
                app.act(Action::PlayTyped);
            }
            ui.separator();
            // Only when the screen reader is meant to speak is the newest
            // line a live region.
            // (Not when the words go through the screen reader's own
            // interface: it would say each of them twice.)
            let direct = app
                .screen_reader
                .direct
                .as_ref()
                .is_some_and(|d| d.usable(std::time::Instant::now()));
            let live = app.settings.speech.mode.screen_reader() && !direct;
            app.panels.history.ui(ui, &t, live);
            ui.separator();
            let record = app.session.record();
            let letters = app.session.config().letters;
            app.panels
                .scoresheet
                .ui(ui, &t, record, letters, &mut app.panels.focus_request);
            ui.separator();
            let connection = super::connection::Connection {
                session: &app.session,
                settings: &app.settings.board,
                sim: app.panels.sim.as_ref(),
                boards: &app.links.boards,
                online_active: app.online_active(),
                online: app.online_status(),
                now_ms: app.now_ms(),
                broadcast: super::broadcast_push::push_line(app.links.broadcast.as_ref()),
            };
            connection.ui(ui, &t);
        });
}
