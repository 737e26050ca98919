//! The chess clock: time controls and a pure clock state machine.
//!
//! Time is passed in as milliseconds (`now: u64`, from any fixed origin); the
//! clock never reads the system time, so a driver can run it in real time or
//! replay it in virtual time.
//!
//! # Time control syntax
//!
//! The PGN `TimeControl` tag syntax, fields separated by `:`:
//!
//! * `5400+30`: 5400 s for the game, 30 s Fischer increment from move 1;
//! * `40/5400+30:1800+30`: 40 moves in 5400 s, then the rest of the game in
//!   1800 s, 30 s increment per move throughout. A field with a move count is
//!   a period; when the player completes its moves, the next field's time is
//!   added. If the last field also has a move count (`40/7200`), it repeats
//!   (every 40 moves another 7200 s), as with traditional controls;
//! * `300`: sudden death; `-`: no clock (moves and thinking time are still
//!   counted); `?` (or a bare `*`): unknown, treated like no clock;
//! * simple delay, for which PGN has no standard: `300d5` (300 s, 5 s delay
//!   on every move), combinable as `40/7200d10:3600d10`. `300+5d` is accepted
//!   as another spelling of `300d5`; the canonical form written is `300d5`.
//!   Increment and delay in one field (`300+2d5`) are accepted too.
//!
//! Sandclock fields (`*180`) are rejected with an error saying so.
//!
//! # Readings
//!
//! Readings for speech ([`Clock::reading`]) are words ("1 Stunde 12 Minuten
//! 5 Sekunden"), never "1:12:05", which speech engines read as a time of day.
//! All readings floor to whole seconds, as a clock display does: a player
//! with 4.9 s left hears "4 Sekunden", never more than he has. The compact
//! strings for the GUI are [`display`]; PGN's `[%clk]` is
//! [`crate::pgn::clock_text`].
//!
//! # Takeback
//!
//! Every [`Clock::press`] keeps an undo record; [`Clock::unpress`] goes back
//! to the moment the undone move was pressed: the mover runs again with the
//! time he had then (without the increment or period time the move earned),
//! and the opponent gets back the time that ran on his clock since. The
//! time between the press and the takeback is charged to nobody. `Clock` is
//! also `Clone`, for a session that prefers whole snapshots.

use shakmaty::{ByColor, Color};

/// Low-time warnings given by default: 5 minutes, 1 minute, 10 seconds.
pub const DEFAULT_LOW_TIME_MS: [u64; 3] = [300_000, 60_000, 10_000];

mod player_warning;
mod readings;
mod time_control;

pub use player_warning::{PLAYER_WARNING_MS, PlayerWarnings, lichess_emergency_ms};
pub use readings::{display, duration_words, moves_words};
pub use time_control::{Period, TimeControl, TimeControlError};

/// Why a clock operation was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ClockError {
    /// `press`/`pause` before `start`.
    #[error("the clock has not been started")]
    NotStarted,
    /// `start` on a clock that already runs or ran.
    #[error("the clock has already been started")]
    AlreadyStarted,
    /// `pause` while paused.
    #[error("the clock is already paused")]
    AlreadyPaused,
    /// `resume` while not paused.
    #[error("the clock is not paused")]
    NotPaused,
    /// `unpress` with no press to undo.
    #[error("no move to take back on the clock")]
    NothingToUndo,
}

/// What a press did, for the scoresheet (`[%clk]`) and the session.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Press {
    /// The side that completed a move.
    pub mover: Color,
    /// The mover's remaining time after the press, including the increment
    /// and any period time the move earned: what the clock shows once the
    /// opponent runs, and what PGN `[%clk]` records. `None` when untimed.
    pub remaining_ms: Option<u64>,
    /// The mover's thinking time so far.
    pub used_ms: u64,
    /// The mover's moves completed, this one included.
    pub moves_completed: u32,
}

/// A low-time threshold that a side's remaining time has reached.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LowTime {
    pub side: Color,
    pub threshold_ms: u64,
}

/// One side's committed state (as of the start of the current running
/// segment, if this side runs).
#[derive(Clone, Debug, PartialEq, Eq)]
struct Side {
    remaining_ms: u64,
    used_ms: u64,
    moves_completed: u32,
    period: usize,
    moves_in_period: u32,
    /// Parallel to `Clock::thresholds_ms`: not yet reported.
    armed: Vec<bool>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    NotStarted,
    /// `side` runs since `since`; the first `delay_left` ms of that are not
    /// counted down (simple delay).
    Running {
        side: Color,
        since: u64,
        delay_left: u64,
    },
    Paused {
        side: Color,
        delay_left: u64,
    },
}

#[derive(Clone, Debug, PartialEq, Eq)]
struct Undo {
    sides: ByColor<Side>,
    flag: Option<Color>,
    mover: Color,
    delay_left: u64,
}

/// A chess clock for both sides.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Clock {
    control: TimeControl,
    /// Descending, without duplicates.
    thresholds_ms: Vec<u64>,
    sides: ByColor<Side>,
    state: State,
    /// The first side whose flag fell, once a press or pause saw it.
    flag: Option<Color>,
    history: Vec<Undo>,
}

impl Clock {
    /// A clock not yet started, with the default low-time thresholds.
    pub fn new(control: TimeControl) -> Clock {
        let initial = control.period(0).map_or(0, |p| p.seconds * 1000);
        let side = Side {
            remaining_ms: initial,
            used_ms: 0,
            moves_completed: 0,
            period: 0,
            moves_in_period: 0,
            armed: Vec::new(),
        };
        let mut clock = Clock {
            control,
            thresholds_ms: Vec::new(),
            sides: ByColor {
                white: side.clone(),
                black: side,
            },
            state: State::NotStarted,
            flag: None,
            history: Vec::new(),
        };
        clock.set_low_time_thresholds(&DEFAULT_LOW_TIME_MS);
        clock
    }

    /// Replaces the low-time thresholds (any order). Thresholds the sides'
    /// current time is already at or under are not reported: a 3-minute game
    /// does not start with a 5-minute warning.
    pub fn set_low_time_thresholds(&mut self, thresholds_ms: &[u64]) {
        let mut t = thresholds_ms.to_vec();
        t.sort_unstable_by_key(|&t| std::cmp::Reverse(t));
        t.dedup();
        self.thresholds_ms = t;
        let timed = self.control.is_timed();
        for color in Color::ALL {
            let side = self.sides.get_mut(color);
            side.armed = self
                .thresholds_ms
                .iter()
                .map(|&t| timed && side.remaining_ms > t)
                .collect();
        }
    }

    /// Builder form of [`Clock::set_low_time_thresholds`].
    pub fn with_low_time_thresholds(mut self, thresholds_ms: &[u64]) -> Clock {
        self.set_low_time_thresholds(thresholds_ms);
        self
    }

    pub fn control(&self) -> &TimeControl {
        &self.control
    }

    pub fn low_time_thresholds(&self) -> &[u64] {
        &self.thresholds_ms
    }

    /// Starts the clock of the side to move (White, unless the game starts
    /// from a position with Black to move).
    pub fn start(&mut self, now: u64, to_move: Color) -> Result<(), ClockError> {
        if self.state != State::NotStarted {
            return Err(ClockError::AlreadyStarted);
        }
        let delay_left = self.delay_ms(to_move);
        self.state = State::Running {
            side: to_move,
            since: now,
            delay_left,
        };
        Ok(())
    }

    pub fn is_started(&self) -> bool {
        self.state != State::NotStarted
    }

    pub fn is_paused(&self) -> bool {
        matches!(self.state, State::Paused { .. })
    }

    /// The side whose clock is running now (`None` before start and while
    /// paused).
    pub fn running(&self) -> Option<Color> {
        match self.state {
            State::Running { side, .. } => Some(side),
            _ => None,
        }
    }

    /// The side whose turn it is on the clock, running or paused.
    pub fn on_turn(&self) -> Option<Color> {
        match self.state {
            State::NotStarted => None,
            State::Running { side, .. } | State::Paused { side, .. } => Some(side),
        }
    }

    /// A move was executed (Appendix E.3: only then does the clock switch).
    /// Charges the mover's time, adds the increment, moves to the next
    /// period when the mover completed the period's moves, and starts the
    /// opponent. While paused the move is counted and the turn passes, but
    /// the clock stays paused and no increment is added. A side whose flag
    /// has fallen gets no time added.
    pub fn press(&mut self, now: u64) -> Result<Press, ClockError> {
        let (mover, paused) = match self.state {
            State::NotStarted => return Err(ClockError::NotStarted),
            State::Running { side, .. } => (side, false),
            State::Paused { side, .. } => (side, true),
        };
        self.commit(now);
        let delay_left = match self.state {
            State::Running { delay_left, .. } | State::Paused { delay_left, .. } => delay_left,
            State::NotStarted => 0,
        };
        self.history.push(Undo {
            sides: self.sides.clone(),
            flag: self.flag,
            mover,
            delay_left,
        });
        self.credit_move(mover, paused);
        let next = mover.other();
        let delay_left = self.delay_ms(next);
        self.state = if paused {
            State::Paused {
                side: next,
                delay_left,
            }
        } else {
            State::Running {
                side: next,
                since: now,
                delay_left,
            }
        };
        let side = self.sides.get(mover);
        Ok(Press {
            mover,
            remaining_ms: self.control.is_timed().then_some(side.remaining_ms),
            used_ms: side.used_ms,
            moves_completed: side.moves_completed,
        })
    }

    /// Takes back the last press (see the module docs). Returns the side that
    /// is on turn again.
    pub fn unpress(&mut self, now: u64) -> Result<Color, ClockError> {
        let undo = self.history.pop().ok_or(ClockError::NothingToUndo)?;
        self.sides = undo.sides;
        self.flag = undo.flag;
        let (side, delay_left) = (undo.mover, undo.delay_left);
        self.state = match self.state {
            State::Paused { .. } => State::Paused { side, delay_left },
            _ => State::Running {
                side,
                since: now,
                delay_left,
            },
        };
        Ok(side)
    }

    /// How many presses [`Clock::unpress`] can undo.
    pub fn presses(&self) -> usize {
        self.history.len()
    }

    /// Stops the running clock (e.g. for the arbiter).
    pub fn pause(&mut self, now: u64) -> Result<(), ClockError> {
        match self.state {
            State::NotStarted => Err(ClockError::NotStarted),
            State::Paused { .. } => Err(ClockError::AlreadyPaused),
            State::Running { side, .. } => {
                self.commit(now);
                if let State::Running { delay_left, .. } = self.state {
                    self.state = State::Paused { side, delay_left };
                }
                Ok(())
            }
        }
    }

    /// Restarts the side that was on turn when paused.
    pub fn resume(&mut self, now: u64) -> Result<(), ClockError> {
        match self.state {
            State::Paused { side, delay_left } => {
                self.state = State::Running {
                    side,
                    since: now,
                    delay_left,
                };
                Ok(())
            }
            _ => Err(ClockError::NotPaused),
        }
    }

    /// Sets `color`'s committed remaining time (a resumed game's stored
    /// clock reading, an arbiter's correction). Meant for a side that is
    /// not running: a running side's current segment is still charged.
    pub fn set_remaining(&mut self, color: Color, ms: u64) {
        self.sides.get_mut(color).remaining_ms = ms;
    }

    /// Time left on `color`'s clock at `now`; `None` when untimed.
    pub fn remaining(&self, color: Color, now: u64) -> Option<u64> {
        if !self.control.is_timed() {
            return None;
        }
        let committed = self.sides.get(color).remaining_ms;
        Some(match self.segment(now) {
            Some((side, _, charged)) if side == color => committed.saturating_sub(charged),
            _ => committed,
        })
    }

    /// `color`'s thinking time at `now`: all the time his clock ran,
    /// including delay time.
    pub fn used(&self, color: Color, now: u64) -> u64 {
        let committed = self.sides.get(color).used_ms;
        match self.segment(now) {
            Some((side, elapsed, _)) if side == color => committed + elapsed,
            _ => committed,
        }
    }

    /// Moves `color` has completed (pressed the clock after).
    pub fn moves_completed(&self, color: Color) -> u32 {
        self.sides.get(color).moves_completed
    }

    /// Moves `color` still has to make before the next period's time is
    /// added; `None` in a sudden-death period or when untimed.
    pub fn moves_to_next_period(&self, color: Color) -> Option<u32> {
        let side = self.sides.get(color);
        let moves = self.control.period(side.period)?.moves?;
        Some(moves - side.moves_in_period)
    }

    /// Index of `color`'s current period (0-based; a repeating last period
    /// keeps counting up).
    pub fn period_index(&self, color: Color) -> usize {
        self.sides.get(color).period
    }

    /// The side whose flag has fallen: remaining time exactly 0 or less.
    /// Only the running side's time can run out, so at most one side is
    /// reported, the first whose flag fell.
    pub fn flagged(&self, now: u64) -> Option<Color> {
        if self.flag.is_some() {
            return self.flag;
        }
        let side = self.running()?;
        (self.remaining(side, now) == Some(0)).then_some(side)
    }

    /// The moment the running side's flag falls if nobody presses; `None`
    /// when nothing runs, untimed, or a flag has already fallen.
    pub fn flag_deadline(&self) -> Option<u64> {
        if self.flag.is_some() || !self.control.is_timed() {
            return None;
        }
        let (side, since, delay_left) = self.running_segment()?;
        Some(since + delay_left + self.sides.get(side).remaining_ms)
    }

    /// The next moment the running side reaches a low-time threshold not yet
    /// reported (possibly already past: then it is due).
    pub fn low_time_deadline(&self) -> Option<u64> {
        let (side, since, delay_left) = self.running_segment()?;
        let state = self.sides.get(side);
        self.thresholds_ms
            .iter()
            .zip(&state.armed)
            .filter(|(_, armed)| **armed)
            .map(|(&t, _)| since + delay_left + state.remaining_ms.saturating_sub(t))
            .min()
    }

    /// The earliest moment the clock has something to report (a flag fall
    /// or a low-time threshold); the session core merges it into its own
    /// next deadline. Repainting is [`Clock::next_second_boundary`].
    pub fn next_deadline(&self) -> Option<u64> {
        match (self.flag_deadline(), self.low_time_deadline()) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    /// The next moment after `now` the running side's display changes at
    /// whole-second resolution: its remaining time when timed, else its
    /// used time. For a GUI to repaint; not needed by the session.
    pub fn next_second_boundary(&self, now: u64) -> Option<u64> {
        self.next_change(now, 1000)
    }

    /// Like [`Clock::next_second_boundary`], but at the resolution of
    /// [`display`] (tenths of a second under 10 s).
    pub fn next_display_change(&self, now: u64) -> Option<u64> {
        let side = self.running()?;
        let step = match self.remaining(side, now) {
            Some(r) if r <= 10_000 => 100,
            _ => 1000,
        };
        self.next_change(now, step)
    }

    fn next_change(&self, now: u64, step: u64) -> Option<u64> {
        let (side, elapsed, _) = self.segment(now)?;
        let State::Running { delay_left, .. } = self.state else {
            return None;
        };
        let in_delay = delay_left.saturating_sub(elapsed);
        match self.remaining(side, now) {
            Some(0) => None,
            // The display floors; it changes when the time drops below the
            // current multiple of `step`.
            Some(r) => Some(now + in_delay + r % step + 1),
            None => {
                let used = self.sides.get(side).used_ms + elapsed;
                Some(now + step - used % step)
            }
        }
    }

    /// Low-time thresholds reached since the last call, each reported once
    /// per side (again only after a new period added time above it), highest
    /// threshold first.
    pub fn low_time_crossed(&mut self, now: u64) -> Vec<LowTime> {
        let mut out = Vec::new();
        for color in Color::ALL {
            let Some(remaining) = self.remaining(color, now) else {
                continue;
            };
            let thresholds = &self.thresholds_ms;
            let side = self.sides.get_mut(color);
            for (&t, armed) in thresholds.iter().zip(side.armed.iter_mut()) {
                if *armed && remaining <= t {
                    *armed = false;
                    out.push(LowTime {
                        side: color,
                        threshold_ms: t,
                    });
                }
            }
        }
        out.sort_by_key(|l| std::cmp::Reverse(l.threshold_ms));
        out
    }

    /// The running segment at `now`: (side, elapsed, charged), where charged
    /// is elapsed minus the delay.
    /// The running side, when its segment started, and the delay it had
    /// then; `None` unless a side runs.
    fn running_segment(&self) -> Option<(Color, u64, u64)> {
        match self.state {
            State::Running {
                side,
                since,
                delay_left,
            } => Some((side, since, delay_left)),
            _ => None,
        }
    }

    fn segment(&self, now: u64) -> Option<(Color, u64, u64)> {
        let (side, since, delay_left) = self.running_segment()?;
        let elapsed = now.saturating_sub(since);
        Some((side, elapsed, elapsed.saturating_sub(delay_left)))
    }

    /// Books the running segment into the side's state and restarts it at
    /// `now`; latches a fallen flag.
    fn commit(&mut self, now: u64) {
        let Some((side, elapsed, charged)) = self.segment(now) else {
            return;
        };
        let timed = self.control.is_timed();
        let state = self.sides.get_mut(side);
        state.used_ms += elapsed;
        if timed {
            state.remaining_ms = state.remaining_ms.saturating_sub(charged);
            if state.remaining_ms == 0 && self.flag.is_none() {
                self.flag = Some(side);
            }
        }
        if let State::Running {
            since, delay_left, ..
        } = self.state
        {
            let delay_left = delay_left.saturating_sub(elapsed);
            self.state = State::Running {
                side,
                since: since.max(now),
                delay_left,
            };
        }
    }

    /// Counts a move; the increment only for a move made on a running
    /// clock (a move entered while the clock is paused, e.g. after a
    /// resumed game, used no time and earns none).
    fn credit_move(&mut self, mover: Color, paused: bool) {
        let flagged = self.flag == Some(mover);
        let control = &self.control;
        let thresholds = &self.thresholds_ms;
        let side = self.sides.get_mut(mover);
        side.moves_completed += 1;
        let Some(period) = control.period(side.period).copied() else {
            return;
        };
        if flagged {
            return;
        }
        if !paused {
            side.remaining_ms += period.increment_secs * 1000;
        }
        side.moves_in_period += 1;
        if period.moves == Some(side.moves_in_period) {
            side.period += 1;
            side.moves_in_period = 0;
            let next = control.period(side.period).copied().unwrap_or(period);
            side.remaining_ms += next.seconds * 1000;
            for (&t, armed) in thresholds.iter().zip(side.armed.iter_mut()) {
                *armed = *armed || side.remaining_ms > t;
            }
        }
    }

    fn delay_ms(&self, color: Color) -> u64 {
        self.control
            .period(self.sides.get(color).period)
            .map_or(0, |p| p.delay_secs * 1000)
    }
}

#[cfg(test)]
mod tests;
