//! The session's clock in play: the key that starts and pauses it, the
//! low-time warnings and the flag.

use super::{Command, Earcon, Effect, Priority, Session};

impl Session {
    /// Ctrl+Space and the like: starts, pauses or resumes the clock, and
    /// says which (or that the game has no clock).
    pub(super) fn toggle_clock(&mut self, now: u64, out: &mut Vec<Effect>) {
        if !self.clock.control().is_timed() {
            // Nothing to start or pause: said so, with where to set one
            // (a reading of "0 seconds used" said nothing of it).
            self.speak(out, self.pack.say("clock_untimed"), Priority::Answer);
            return;
        }
        let (cmd, key) = if !self.clock.is_started() {
            (Command::StartClock, Some("clock_running"))
        } else if self.clock.is_paused() {
            (Command::ResumeClock, Some("clock_running"))
        } else {
            (Command::PauseClock, Some("clock_paused"))
        };
        self.command(now, cmd, out);
        if let Some(key) = key {
            self.speak(out, self.pack.say(key), Priority::Answer);
        }
    }

    /// Low-time warnings due and a flag fallen, at `now`.
    pub(super) fn check_clock(&mut self, now: u64, out: &mut Vec<Effect>) {
        if self.record.is_over() || !self.clock.control().is_timed() {
            return;
        }
        for low in self.clock.low_time_crossed(now) {
            out.push(Effect::Sound(Earcon::LowTime));
            if self.config.speak_low_time {
                let remaining = crate::clock::duration_words(&self.pack, low.threshold_ms);
                let text = self.pack.phrase(
                    "low_time",
                    &[("side", self.side(low.side)), ("remaining", remaining)],
                );
                self.speak(out, text, Priority::Answer);
            }
        }
        self.player_time_warning(now, out);
        if let Some(flagged) = self.clock.flagged(now) {
            self.record.flag_fall(flagged);
            out.push(Effect::Sound(Earcon::FlagFall));
            self.after_end_check(now, out);
        }
    }
}

impl Session {
    /// The player's own warnings (2:30, then Lichess's emergency time),
    /// each once a game. At question priority: urgent, so a browsing
    /// answer never drops it, but below a move, so it never cuts one off
    /// (it waits behind it; a move that comes while it speaks cuts it, and
    /// it is said again after the move).
    fn player_time_warning(&mut self, now: u64, out: &mut Vec<Effect>) {
        if self.record.moves().is_empty() {
            self.player_warnings.reset();
        }
        let side = self.config.blind_side;
        let Some(remaining) = self.clock.remaining(side, now) else {
            return;
        };
        let Some(threshold) = self
            .player_warnings
            .crossed(self.clock.control(), remaining)
        else {
            return;
        };
        if self.config.speak_low_time {
            let left = crate::clock::duration_words(&self.pack, threshold);
            let text = self
                .pack
                .phrase("player_time_warning", &[("remaining", left)]);
            self.speak(out, text, Priority::Question);
        }
    }
}
