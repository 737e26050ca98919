//! The clock of a game that goes on from a record (a saved game resumed,
//! moves retraced): rebuilt from the moves' game times and clock readings.

use shakmaty::{Color, Position};

use super::SessionConfig;
use crate::chess::GameRecord;
use crate::clock::{Clock, TimeControl};

/// The game time of the last move that has one (0: none).
pub(super) fn last_game_time(record: &GameRecord) -> u64 {
    record
        .moves()
        .iter()
        .rev()
        .find_map(|m| m.at_ms)
        .unwrap_or(0)
}

/// The clock a saved or retraced game goes on with, and the game's time
/// origin: each move's press replayed at its recorded game time, the clock
/// readings written with the moves winning, paused (the arbiter restarts
/// it, E.2.8). The time between is charged to nobody.
pub(super) fn clock_from_record(
    config: &SessionConfig,
    fallback: &TimeControl,
    now_ms: u64,
    record: &GameRecord,
) -> (Clock, u64) {
    let last_at = last_game_time(record);
    let origin = now_ms.saturating_sub(last_at);
    // The game's own time control (its TimeControl tag), not today's
    // settings.
    let control = record
        .tags
        .time_control
        .as_deref()
        .and_then(|t| t.parse().ok())
        .unwrap_or_else(|| fallback.clone());
    let mut clock = Clock::new(control);
    if clock.control().is_timed() && !record.moves().is_empty() {
        let start_turn = record.start_position().turn();
        if clock.start(origin, start_turn).is_ok() {
            // A move without a game time is charged nothing.
            let mut at = 0;
            for m in record.moves() {
                at = m.at_ms.unwrap_or(at).max(at);
                let _ = clock.press(origin + at);
            }
            if !record.is_over() {
                let _ = clock.pause(origin + last_at);
            }
            // The clock readings written with the moves win (an
            // arbiter's correction, a game from another clock).
            for color in [Color::White, Color::Black] {
                let first = usize::from(start_turn != color);
                let clk = record
                    .moves()
                    .iter()
                    .skip(first)
                    .step_by(2)
                    .rev()
                    .find_map(|m| m.clock_ms);
                if let Some(ms) = clk {
                    clock.set_remaining(color, ms);
                }
            }
        }
    }
    // Thresholds set last: a warning already passed is not given again.
    clock.set_low_time_thresholds(&config.low_time_ms);
    (clock, origin)
}
