//! The board connection: the peg-board's link, port, format, last
//! message and dropped lines; the sighted player's e-board and its clock.

use egui::Ui;

use super::{RochadeApp, UiText};
use crate::session::board::LinkState;

pub(super) fn ui(app: &RochadeApp, ui: &mut Ui, t: &UiText) {
    super::a11y::heading(ui, t.get("connection"));
    let board = app.session.board_state();
    let (state, port) = link_words(
        t,
        &board.link,
        app.settings.board.port.clone().unwrap_or_default(),
    );
    let port = if port == super::SimPanel::PORT {
        t.get("simulated")
    } else {
        port
    };
    super::a11y::read_only_text(ui, format!("{state}, {}: {port}", t.get("port")));
    let link = app.link.as_ref().map(|l| l.status());
    let format = app
        .sim
        .as_ref()
        .map(|s| s.format().code())
        .or(link.as_ref().and_then(|l| l.format))
        .unwrap_or(app.settings.board.format.code());
    ui.label(format!("{}: {}", t.get("format"), format));
    // How long ago, with its unit (the app's own time is no time of day).
    let heard = match board.last_message_ms {
        Some(ms) => t
            .get("seconds_ago")
            .replace("{n}", &(app.now_ms().saturating_sub(ms) / 1000).to_string()),
        None => t.get("never"),
    };
    ui.label(format!("{}: {heard}", t.get("last_heartbeat")));
    let dropped = app
        .sim
        .as_ref()
        .map(|s| s.lines_dropped())
        .or(link.map(|l| l.stats.dropped()))
        .unwrap_or(0);
    ui.label(format!("{}: {dropped}", t.get("dropped")));
    let online = app.online_status();
    if app.online_active() || !online.line.is_empty() {
        let state = if app.online_active() {
            t.get("connected")
        } else {
            t.get("not_connected")
        };
        let line = if online.line.is_empty() {
            state
        } else {
            format!("{state}: {}", online.line)
        };
        super::a11y::read_only_text(ui, format!("{}: {line}", t.get("online_menu")));
        if let Some((white, black)) = online.clocks {
            ui.label(format!(
                "{}: {} {} | {} {}",
                t.get("online_clocks"),
                t.get("white"),
                crate::clock::display(white),
                t.get("black"),
                crate::clock::display(black)
            ));
        }
    }
    let sighted = app.session.sighted_board();
    if sighted.in_use() || app.settings.board.sighted_port.is_some() {
        let (state, port) = link_words(
            t,
            &sighted.link,
            app.settings.board.sighted_port.clone().unwrap_or_default(),
        );
        super::a11y::read_only_text(
            ui,
            format!(
                "{}: {state}, {}: {port}",
                t.get("sighted_board"),
                t.get("port")
            ),
        );
        if let Some(c) = sighted.clock.filter(|c| !c.no_clock()) {
            let time = |s: crate::dgt::protocol::ClockSide| {
                crate::clock::display(u64::from(s.seconds_total()) * 1000)
            };
            ui.label(format!(
                "{}: {} | {}",
                t.get("dgt_clock"),
                time(c.left),
                time(c.right)
            ));
        }
    }
}

/// A link's state and port in words.
fn link_words(t: &UiText, link: &LinkState, configured: String) -> (String, String) {
    match link {
        LinkState::NotConnected => (t.get("not_connected"), configured),
        LinkState::Connected { port } => (t.get("connected"), port.clone()),
        LinkState::Lost { reason } => (format!("{} ({reason})", t.get("lost")), String::new()),
    }
}
