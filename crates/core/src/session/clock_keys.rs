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
        if let Some(flagged) = self.clock.flagged(now) {
            self.record.flag_fall(flagged);
            out.push(Effect::Sound(Earcon::FlagFall));
            self.after_end_check(now, out);
        }
    }
}
