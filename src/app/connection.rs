//! The board connection: the player's own board (its make, link, port,
//! last message and dropped lines), the opponent's board (its make, link,
//! port and clock), why a chosen board has no link, and the boards found.

use egui::Ui;

use super::boards::Boards;
use super::{OnlineStatus, SimPanel, UiText};
use crate::config::BoardSettings;
use crate::session::Session;
use crate::session::board::LinkState;

/// What the connection panel shows, handed to it by the app (the panel
/// keeps no state of its own).
pub(super) struct Connection<'a> {
    pub session: &'a Session,
    pub settings: &'a BoardSettings,
    /// The simulated peg-board, while it is the player's board.
    pub sim: Option<&'a SimPanel>,
    pub boards: &'a Boards,
    /// Online play: whether it is connected, and its status line.
    pub online_active: bool,
    pub online: &'a OnlineStatus,
    pub now_ms: u64,
    /// The push of the game to a broadcast round: its line, if one is set.
    pub broadcast: Option<String>,
}

impl Connection<'_> {
    /// The panel: the player's own board, online play, the opponent's
    /// board, the boards found.
    pub fn ui(&self, ui: &mut Ui, t: &UiText) {
        super::a11y::heading(ui, t.get("connection"));
        let board = self.session.board_state();
        let mine = self.sim.map_or_else(
            || self.settings.my_board(),
            |s| crate::config::BoardChoice::of_format(s.format()),
        );
        // An e-board of the player's own is followed by its own seat.
        let my_link = if mine.knows_pieces() {
            &self.session.own_eboard().link
        } else {
            &board.link
        };
        let (state, port) = link_words(t, my_link, self.settings.port.clone().unwrap_or_default());
        let port = if port == SimPanel::PORT {
            t.get("simulated")
        } else {
            port
        };
        super::a11y::read_only_text(ui, format!("{state}, {}: {port}", t.get("port")));
        let link = self.boards.mine().map(|l| l.status());
        ui.label(format!(
            "{}: {}",
            t.get("my_board"),
            t.get(&mine.label_key())
        ));
        // How long ago, with its unit (the app's own time is no time of day).
        let heard = match board.last_message_ms {
            Some(ms) => t
                .get("seconds_ago")
                .replace("{n}", &(self.now_ms.saturating_sub(ms) / 1000).to_string()),
            None => t.get("never"),
        };
        ui.label(format!("{}: {heard}", t.get("last_heartbeat")));
        let dropped = self
            .sim
            .map(|s| s.lines_dropped())
            .or(link.as_ref().map(|l| l.stats.dropped()))
            .unwrap_or(0);
        ui.label(format!("{}: {dropped}", t.get("dropped")));
        // Why the link is down (a port that would not open), and a calibration
        // file not read or not written, in the link's own words.
        let problems = link.map(|l| [l.last_error, l.memory_problem]);
        for problem in problems.into_iter().flatten().flatten() {
            super::a11y::read_only_text(ui, format!("{}: {problem}", t.get("board_problem")));
        }
        let online = self.online;
        if self.online_active || !online.line.is_empty() {
            let state = if self.online_active {
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
        if let Some(line) = &self.broadcast {
            super::a11y::read_only_text(ui, format!("{}: {line}", t.get("broadcast_round")));
        }
        let sighted = self.session.sighted_board();
        let opponent = self.settings.opponent_board();
        if sighted.in_use() || opponent != crate::config::BoardChoice::Keyboard {
            let (state, port) = link_words(
                t,
                &sighted.link,
                self.settings.sighted_port.clone().unwrap_or_default(),
            );
            super::a11y::read_only_text(
                ui,
                format!(
                    "{}: {}, {state}, {}: {port}",
                    t.get("opponent_board"),
                    t.get(&opponent.label_key()),
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
        self.found_rows(ui, t);
    }

    /// Why a chosen board has no link, and the boards the probe found.
    fn found_rows(&self, ui: &mut Ui, t: &UiText) {
        if let Some(status) = &self.boards.status {
            super::a11y::read_only_text(ui, status.clone());
        }
        if self.boards.probing() {
            ui.label(t.get("boards_searching"));
        }
        if !self.boards.found.is_empty() {
            let found = found_lines(self.boards, t).join(", ");
            ui.label(format!("{}: {found}", t.get("boards_found")));
        }
    }
}

/// The boards found, each as "DGT board on /dev/ttyUSB0".
pub(super) fn found_lines(boards: &Boards, t: &UiText) -> Vec<String> {
    boards
        .found
        .iter()
        .map(|f| {
            t.get("board_on_port")
                .replace("{board}", super::boards::kind_name(f.kind))
                .replace("{port}", &f.port)
        })
        .collect()
}

/// A link's state and port in words.
fn link_words(t: &UiText, link: &LinkState, configured: String) -> (String, String) {
    match link {
        LinkState::NotConnected => (t.get("not_connected"), configured),
        LinkState::Connected { port } => (t.get("connected"), port.clone()),
        LinkState::Lost { reason } => (format!("{} ({reason})", t.get("lost")), String::new()),
    }
}
