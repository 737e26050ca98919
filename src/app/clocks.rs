//! The clocks: both sides' times, large, and the state under them (who
//! is to move, paused, untimed, the result).

use egui::Ui;
use shakmaty::Color;

use super::layout::big;
use super::text::UiText;
use super::title::side_name;
use crate::session::Session;

/// The server's clocks in an online game: as it sent them after the last
/// move, and when they came (the app's time).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ServerClocks {
    pub white_ms: u64,
    pub black_ms: u64,
    pub at_ms: u64,
}

impl ServerClocks {
    /// `side`'s time at `now`: the side to move's runs down from when the
    /// clocks came, once both sides have moved (before, the server's
    /// clocks stand, as on Lichess).
    pub fn remaining(&self, side: Color, to_move: Color, moves: usize, now: u64) -> u64 {
        let ms = match side {
            Color::White => self.white_ms,
            Color::Black => self.black_ms,
        };
        if side == to_move && moves >= 2 {
            ms.saturating_sub(now.saturating_sub(self.at_ms))
        } else {
            ms
        }
    }
}

/// Draws the clocks of `session`'s game at `now` (the session's time);
/// in an online game the server's (`server`).
pub(super) fn ui(
    ui: &mut Ui,
    t: &UiText,
    session: &Session,
    server: Option<ServerClocks>,
    now: u64,
) {
    let clock = session.clock();
    let record = session.record();
    let turn = record.turn();
    super::a11y::heading(ui, t.get("clocks"));
    for side in [Color::White, Color::Black] {
        let shown = match (server, clock.remaining(side, now)) {
            (Some(server), _) => {
                crate::clock::display(server.remaining(side, turn, record.moves().len(), now))
            }
            (None, Some(ms)) => crate::clock::display(ms),
            (None, None) => crate::clock::display(clock.used(side, now)),
        };
        let mut text = big(format!("{}  {shown}", side_name(t, side)), 30.0).monospace();
        if side == turn && !record.is_over() {
            text = text.strong().underline();
        }
        ui.label(text);
    }
    let status = if record.is_over() {
        format!("{}: {}", t.get("result"), record.result_str())
    } else if server.is_some() {
        // Online the server's clock runs, never the session's own.
        format!(
            "{} {} ({})",
            side_name(t, turn),
            t.get("to_move"),
            t.get("server_clock")
        )
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_server_clock_of_the_side_to_move_runs_once_both_have_moved() {
        let clocks = ServerClocks {
            white_ms: 300_000,
            black_ms: 290_000,
            at_ms: 10_000,
        };
        // Two moves made, White to move: White's runs, Black's stands.
        assert_eq!(
            clocks.remaining(Color::White, Color::White, 2, 13_000),
            297_000
        );
        assert_eq!(
            clocks.remaining(Color::Black, Color::White, 2, 13_000),
            290_000
        );
        // Before both have moved, neither runs.
        assert_eq!(
            clocks.remaining(Color::Black, Color::Black, 1, 13_000),
            290_000
        );
        // Never below zero.
        assert_eq!(clocks.remaining(Color::White, Color::White, 4, 900_000), 0);
    }
}
