//! The menus at the top of the side column: Game, Computer, Settings,
//! Help, the simulated board, and the modes as one radio group.

use egui::{Id, Ui};

use super::RochadeApp;
use super::focus::FocusTarget;
use super::keys::Action;
use super::text::UiText;
use crate::session::Mode;

pub fn top_bar(app: &mut RochadeApp, ui: &mut Ui) {
    let t = app.window.ui.clone();
    let mut actions = Vec::new();
    ui.horizontal_wrapped(|ui| {
        // Shift+Tab from the first menu goes round to the board, the last
        // stop of Tab (it went to nothing, then the move input).
        let game_slot = Id::unique("game_menu_button");
        if let Some(last) = ui.data(|d| d.get_temp::<Id>(game_slot))
            && ui.memory(|m| m.has_focus(last))
            && ui.input_mut(|i| i.consume_key(egui::Modifiers::SHIFT, egui::Key::Tab))
        {
            app.panels.focus_request = Some(FocusTarget::Board);
            ui.ctx().request_repaint();
        }
        let game = ui.menu_button(t.get("game_menu"), |ui| {
            for (i, (key, action)) in [
                ("new_game", Action::NewGame),
                ("takeback", Action::Takeback),
                ("offer_draw", Action::OfferDraw),
                ("accept_draw", Action::AcceptDraw),
                ("claim_threefold", Action::ClaimThreefold),
                ("claim_fifty", Action::ClaimFifty),
                ("resign", Action::Resign),
                ("clock_start_pause", Action::ClockToggle),
                ("export", Action::Export),
                ("export_book", Action::ExportBook),
                ("review_game", Action::Review),
                ("review_open", Action::ReviewOpen),
                ("copy_fen", Action::CopyFen),
                ("copy_pgn", Action::CopyPgn),
            ]
            .into_iter()
            .enumerate()
            {
                let item = ui.button(t.get(key));
                if i == 0 {
                    super::a11y::focus_first_item_on_open(ui, "game", &item);
                }
                if item.clicked() {
                    actions.push(action);
                    ui.close();
                }
            }
        });
        // F10: the keyboard to the first menu.
        if app.panels.focus_request == Some(FocusTarget::Menus) {
            game.response.request_focus();
            app.panels.focus_request = None;
        }
        ui.data_mut(|d| d.insert_temp(game_slot, game.response.id));
        let on = app.session.opponent().is_some();
        let level = app.settings.engine.level.number();
        super::practice::computer_menu(ui, &t, on, level, &mut actions);
        online_menu(app, ui, &t, &mut actions);
        let puzzle_on = app.session.puzzle().is_some();
        super::puzzle_panel::menu(ui, &t, puzzle_on, &mut actions);
        if ui.button(t.get("settings")).clicked() {
            actions.push(Action::Settings);
        }
        if ui.button(t.get("help")).clicked() {
            actions.push(Action::Help);
        }
        if ui
            .selectable_label(app.panels.sim.is_some(), t.get("sim_show"))
            .clicked()
        {
            actions.push(Action::SimBoard);
        }
    });
    // The modes on their own line, wrapping in a narrow column.
    ui.horizontal_wrapped(|ui| {
        let mode_label = ui.label(t.get("mode"));
        let current = app.session.config().mode;
        // The three modes are one radio group named "Mode": a
        // screen reader says "radio button, 2 of 3, checked".
        let group = ui.scope(|ui| {
            ui.horizontal_wrapped(|ui| {
                for (mode, key) in [
                    (Mode::Tournament, "mode_tournament"),
                    (Mode::Relay, "mode_relay"),
                    (Mode::Practice, "mode_practice"),
                ] {
                    if ui.radio(current == mode, t.get(key)).clicked() && current != mode {
                        app.set_mode(mode);
                    }
                }
            })
        });
        let (group_id, label_id) = (group.response.id, mode_label.id);
        ui.ctx().accesskit_node_builder(group_id, |node| {
            node.set_role(egui::accesskit::Role::RadioGroup);
            node.push_labelled_by(label_id.accesskit_id());
        });
    });
    for a in actions {
        app.act(a);
    }
}

/// The Online menu: connect (the dialog), watch a broadcast (its dialog),
/// then the game's requests, the same as the words typed in the move input.
fn online_menu(app: &RochadeApp, ui: &mut Ui, t: &UiText, actions: &mut Vec<Action>) {
    ui.menu_button(t.get("online_menu"), |ui| {
        let first = ui.button(t.get("online_connect"));
        super::a11y::focus_first_item_on_open(ui, "online", &first);
        if first.clicked() {
            actions.push(Action::Online);
            ui.close();
        }
        if ui.button(t.get("watch_broadcast")).clicked() {
            actions.push(Action::WatchBroadcast);
            ui.close();
        }
        if !app.online_active() {
            return;
        }
        for (key, word) in [
            ("online_offer_draw", "draw"),
            ("online_yes", "yes"),
            ("online_no", "no"),
            ("online_takeback", "takeback"),
            ("online_resign", "resign"),
            ("online_abort", "abort"),
            ("online_claim", "claim"),
            ("online_chat", "chat"),
            ("online_clock", "clock"),
        ] {
            if ui.button(t.get(key)).clicked() {
                actions.push(Action::OnlineWord(word));
                ui.close();
            }
        }
        if ui.button(t.get("online_disconnect")).clicked() {
            actions.push(Action::OnlineDisconnect);
            ui.close();
        }
    });
}
