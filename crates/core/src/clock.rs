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

use std::fmt;
use std::str::FromStr;

use shakmaty::{ByColor, Color};

use crate::words::{Pack, Token, Utterance};

/// Low-time warnings given by default: 5 minutes, 1 minute, 10 seconds.
pub const DEFAULT_LOW_TIME_MS: [u64; 3] = [300_000, 60_000, 10_000];

/// One field of a time control.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Period {
    /// Moves to complete in this period; `None` means the rest of the game
    /// (sudden death).
    pub moves: Option<u32>,
    /// Time added when the period begins, in seconds.
    pub seconds: u64,
    /// Fischer increment added after each move made in this period.
    pub increment_secs: u64,
    /// Simple delay: at the start of each turn the clock waits this long
    /// before it counts down. Unused delay is not accumulated.
    pub delay_secs: u64,
}

impl Period {
    /// Sudden death with an increment: `Period::sudden_death(5400, 30)`.
    pub fn sudden_death(seconds: u64, increment_secs: u64) -> Period {
        Period {
            moves: None,
            seconds,
            increment_secs,
            delay_secs: 0,
        }
    }
}

/// A time control, as in the PGN `TimeControl` tag.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum TimeControl {
    /// `-`: played without a clock.
    Untimed,
    /// `?`: not known.
    Unknown,
    /// One or more periods; never empty when parsed.
    Periods(Vec<Period>),
}

impl TimeControl {
    /// Whether the clock counts down (and a flag can fall).
    pub fn is_timed(&self) -> bool {
        matches!(self, TimeControl::Periods(p) if !p.is_empty())
    }

    /// The periods; empty for untimed or unknown controls.
    pub fn periods(&self) -> &[Period] {
        match self {
            TimeControl::Periods(p) => p,
            _ => &[],
        }
    }

    /// The period with this index; past the end, the last period (which
    /// repeats when it has a move count).
    fn period(&self, index: usize) -> Option<&Period> {
        let periods = self.periods();
        periods.get(index).or(periods.last())
    }
}

/// A time control that could not be read; names the offending part.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("time control '{input}': {reason} in '{part}'")]
pub struct TimeControlError {
    /// The whole text that was parsed.
    pub input: String,
    /// The part that is wrong.
    pub part: String,
    /// What is wrong with it.
    pub reason: String,
}

impl FromStr for TimeControl {
    type Err = TimeControlError;

    fn from_str(text: &str) -> Result<TimeControl, TimeControlError> {
        let input = text.trim();
        let err = |part: &str, reason: String| TimeControlError {
            input: input.to_owned(),
            part: part.to_owned(),
            reason,
        };
        match input {
            "" => return Err(err(input, "empty".into())),
            "-" => return Ok(TimeControl::Untimed),
            "?" | "*" => return Ok(TimeControl::Unknown),
            _ => {}
        }
        let fields: Vec<&str> = input.split(':').collect();
        let mut periods = Vec::with_capacity(fields.len());
        for (i, field) in fields.iter().enumerate() {
            let number = i + 1;
            let period = parse_field(field)
                .map_err(|(part, reason)| err(part, format!("{reason} (period {number})")))?;
            if period.moves.is_none() && i + 1 < fields.len() {
                return Err(err(
                    field,
                    format!("period {number} has no move count but is not the last one"),
                ));
            }
            if i == 0 && period.seconds == 0 {
                return Err(err(field, "the first period has no time".into()));
            }
            periods.push(period);
        }
        Ok(TimeControl::Periods(periods))
    }
}

/// Parses `[moves/]seconds[+increment][dDelay]` or `seconds+delayd`.
/// On error returns the bad part and the reason.
fn parse_field(field: &str) -> Result<Period, (&str, String)> {
    if field.is_empty() {
        return Err((field, "empty period".into()));
    }
    if field.starts_with('*') {
        return Err((field, "sandclock time controls are not supported".into()));
    }
    let (moves, rest) = match field.split_once('/') {
        Some((moves, rest)) => {
            let count = number(moves, "move count")?;
            if count == 0 {
                return Err((moves, "a period needs at least one move".into()));
            }
            let count = u32::try_from(count).map_err(|_| (moves, "move count too large".into()))?;
            (Some(count), rest)
        }
        None => (None, field),
    };
    let alias = rest.strip_suffix('d').and_then(|a| a.split_once('+'));
    let (main, delay) = if let Some((seconds, delay)) = alias {
        // `300+5d`: the number after '+' is a delay, not an increment.
        (seconds, Some(delay))
    } else {
        match rest.split_once('d') {
            Some((main, delay)) => (main, Some(delay)),
            None => (rest, None),
        }
    };
    let (seconds, increment) = match main.split_once('+') {
        Some((seconds, increment)) => (seconds, Some(increment)),
        None => (main, None),
    };
    Ok(Period {
        moves,
        seconds: number(seconds, "seconds")?,
        increment_secs: increment
            .map(|s| number(s, "increment"))
            .transpose()?
            .unwrap_or(0),
        delay_secs: delay.map(|s| number(s, "delay")).transpose()?.unwrap_or(0),
    })
}

fn number<'a>(text: &'a str, what: &str) -> Result<u64, (&'a str, String)> {
    if text.is_empty() {
        return Err((text, format!("missing {what}")));
    }
    if !text.bytes().all(|b| b.is_ascii_digit()) {
        return Err((text, format!("{what} is not a whole number")));
    }
    text.parse()
        .map_err(|_| (text, format!("{what} too large")))
}

impl fmt::Display for Period {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(moves) = self.moves {
            write!(f, "{moves}/")?;
        }
        write!(f, "{}", self.seconds)?;
        if self.increment_secs > 0 {
            write!(f, "+{}", self.increment_secs)?;
        }
        if self.delay_secs > 0 {
            write!(f, "d{}", self.delay_secs)?;
        }
        Ok(())
    }
}

impl fmt::Display for TimeControl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TimeControl::Untimed => f.write_str("-"),
            TimeControl::Unknown => f.write_str("?"),
            TimeControl::Periods(periods) if periods.is_empty() => f.write_str("-"),
            TimeControl::Periods(periods) => {
                for (i, period) in periods.iter().enumerate() {
                    if i > 0 {
                        f.write_str(":")?;
                    }
                    write!(f, "{period}")?;
                }
                Ok(())
            }
        }
    }
}

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

    /// One side's reading for speech: "Weiss: 1 Stunde 12 Minuten 5 Sekunden
    /// uebrig, 3 Minuten verbraucht, 20 Zuege gespielt". Untimed clocks give
    /// only the time used.
    pub fn side_reading(&self, pack: &Pack, color: Color, now: u64) -> Utterance {
        self.side_reading_with(pack, color, now, self.moves_completed(color))
    }

    /// [`Self::side_reading`] with the move count from the game record
    /// (the clock counts only moves made while it ran).
    pub fn side_reading_with(&self, pack: &Pack, color: Color, now: u64, moves: u32) -> Utterance {
        let side = side_name(pack, color);
        let used = duration_words(pack, self.used(color, now));
        let time = match self.remaining(color, now) {
            Some(remaining) => pack.phrase(
                "clock_side",
                &[
                    ("side", side),
                    ("remaining", duration_words(pack, remaining)),
                    ("used", used),
                ],
            ),
            None => pack.phrase("clock_side_untimed", &[("side", side), ("used", used)]),
        };
        Utterance::join_with(&[time, moves_words(pack, moves)], ", ")
    }

    /// The reading the assistant gives at the player's request (Appendix
    /// E.9d): both sides, `first` (usually the asking player) first,
    /// separated by ". ".
    pub fn reading(&self, pack: &Pack, now: u64, first: Color) -> Utterance {
        self.reading_with(pack, now, first, |c| self.moves_completed(c))
    }

    /// [`Self::reading`] with each side's move count from `moves` (the
    /// game record's).
    pub fn reading_with(
        &self,
        pack: &Pack,
        now: u64,
        first: Color,
        moves: impl Fn(Color) -> u32,
    ) -> Utterance {
        Utterance::join_with(
            &[
                self.side_reading_with(pack, first, now, moves(first)),
                self.side_reading_with(pack, first.other(), now, moves(first.other())),
            ],
            ". ",
        )
    }
}

fn side_name(pack: &Pack, color: Color) -> Utterance {
    pack.render(&[Token::Term(match color {
        Color::White => "white",
        Color::Black => "black",
    })])
}

/// "20 Zuege gespielt" / "1 Zug gespielt".
pub fn moves_words(pack: &Pack, count: u32) -> Utterance {
    let key = if count == 1 {
        "moves_completed_one"
    } else {
        "moves_completed"
    };
    pack.phrase(
        key,
        &[("count", pack.render(&[Token::Number(count.into())]))],
    )
}

/// A duration as words, floored to whole seconds, zero units left out:
/// "1 Stunde 12 Minuten 5 Sekunden", "12 Minuten", "0 Sekunden".
pub fn duration_words(pack: &Pack, ms: u64) -> Utterance {
    let total = ms / 1000;
    let (hours, minutes, seconds) = (total / 3600, total / 60 % 60, total % 60);
    let mut tokens = Vec::new();
    for (value, one, many) in [
        (hours, "hour", "hours"),
        (minutes, "minute", "minutes"),
        (seconds, "second", "seconds"),
    ] {
        if value > 0 {
            tokens.push(Token::Number(value));
            tokens.push(Token::Term(if value == 1 { one } else { many }));
        }
    }
    if tokens.is_empty() {
        tokens = vec![Token::Number(0), Token::Term("seconds")];
    }
    pack.render(&tokens)
}

/// Compact clock display for the GUI, never for speech: "1:12:05", "4:59",
/// and with tenths under 10 s: "0:09.5". Floors, as a clock does.
pub fn display(ms: u64) -> String {
    let total = ms / 1000;
    let (h, m, s) = (total / 3600, total / 60 % 60, total % 60);
    if h > 0 {
        format!("{h}:{m:02}:{s:02}")
    } else if ms >= 10_000 {
        format!("{m}:{s:02}")
    } else {
        format!("0:{s:02}.{}", ms % 1000 / 100)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::words::Lang;

    const MIN: u64 = 60_000;
    const S: u64 = 1000;

    fn tc(text: &str) -> TimeControl {
        text.parse().unwrap_or_else(|e| panic!("{e}"))
    }

    fn started(text: &str) -> Clock {
        let mut clock = Clock::new(tc(text));
        clock.start(0, Color::White).unwrap();
        clock
    }

    #[test]
    fn parses_the_usual_forms() {
        assert_eq!(
            tc("5400+30"),
            TimeControl::Periods(vec![Period::sudden_death(5400, 30)])
        );
        assert_eq!(
            tc("40/5400+30:1800+30"),
            TimeControl::Periods(vec![
                Period {
                    moves: Some(40),
                    seconds: 5400,
                    increment_secs: 30,
                    delay_secs: 0
                },
                Period::sudden_death(1800, 30),
            ])
        );
        assert_eq!(
            tc("40/7200:3600"),
            TimeControl::Periods(vec![
                Period {
                    moves: Some(40),
                    seconds: 7200,
                    increment_secs: 0,
                    delay_secs: 0
                },
                Period::sudden_death(3600, 0),
            ])
        );
        assert_eq!(
            tc("300"),
            TimeControl::Periods(vec![Period::sudden_death(300, 0)])
        );
        assert_eq!(tc("-"), TimeControl::Untimed);
        assert_eq!(tc("?"), TimeControl::Unknown);
        assert_eq!(tc("*"), TimeControl::Unknown);
        let delay = Period {
            moves: None,
            seconds: 300,
            increment_secs: 0,
            delay_secs: 5,
        };
        assert_eq!(tc("300d5"), TimeControl::Periods(vec![delay]));
        assert_eq!(tc("300+5d"), TimeControl::Periods(vec![delay]));
        assert_eq!(tc(" 300+2d5 ").periods()[0].increment_secs, 2);
    }

    #[test]
    fn formats_round_trip() {
        for text in [
            "5400+30",
            "40/5400+30:1800+30",
            "40/7200:3600",
            "300",
            "-",
            "?",
            "300d5",
            "40/7200d10:3600+2d10",
            "40/7200",
        ] {
            assert_eq!(tc(text).to_string(), text);
            assert_eq!(tc(&tc(text).to_string()), tc(text));
        }
        assert_eq!(tc("300+5d").to_string(), "300d5");
        assert_eq!(tc("*").to_string(), "?");
    }

    #[test]
    fn errors_name_the_bad_part() {
        let cases = [
            ("40/x+30", "x", "seconds is not a whole number"),
            ("5400+3o", "3o", "increment"),
            ("300:40/1800", "300", "not the last"),
            ("0/300", "0", "at least one move"),
            ("*180", "*180", "sandclock"),
            ("40/5400+30::300", "", "empty period"),
            ("300d", "", "missing delay"),
            ("0", "0", "no time"),
            ("", "", "empty"),
        ];
        for (input, part, reason) in cases {
            let err = input.parse::<TimeControl>().unwrap_err();
            assert_eq!(err.part, part, "{input}: {err}");
            assert!(err.reason.contains(reason), "{input}: {err}");
            assert!(err.to_string().contains(input.trim()), "{err}");
        }
        let err = "40/7200:3600+z".parse::<TimeControl>().unwrap_err();
        assert!(err.to_string().contains("period 2"), "{err}");
    }

    #[test]
    fn nothing_runs_before_start() {
        let mut clock = Clock::new(tc("300"));
        assert_eq!(clock.running(), None);
        assert_eq!(clock.remaining(Color::White, 10 * S), Some(300 * S));
        assert_eq!(clock.press(10), Err(ClockError::NotStarted));
        assert_eq!(clock.flag_deadline(), None);
        clock.start(5 * S, Color::White).unwrap();
        assert_eq!(
            clock.start(6 * S, Color::White),
            Err(ClockError::AlreadyStarted)
        );
        assert_eq!(clock.running(), Some(Color::White));
        assert_eq!(clock.remaining(Color::White, 15 * S), Some(290 * S));
        assert_eq!(clock.remaining(Color::Black, 15 * S), Some(300 * S));
    }

    #[test]
    fn a_move_on_a_paused_clock_adds_no_increment() {
        let mut c = Clock::new(tc("300+2"));
        c.start(0, Color::White).unwrap();
        c.pause(1000).unwrap();
        let white_before = c.remaining(Color::White, 1000);
        c.press(5000).unwrap();
        c.press(9000).unwrap();
        assert_eq!(
            c.remaining(Color::White, 9000),
            white_before,
            "no +2 s while paused"
        );
        assert_eq!(c.moves_completed(Color::White), 1, "the move still counts");
    }

    #[test]
    fn fischer_increment_from_move_one() {
        let mut clock = started("5400+30");
        let press = clock.press(10 * S).unwrap();
        assert_eq!(press.mover, Color::White);
        assert_eq!(press.remaining_ms, Some(5400 * S - 10 * S + 30 * S));
        assert_eq!(press.moves_completed, 1);
        assert_eq!(clock.running(), Some(Color::Black));
        // Black's clock runs, White's stands.
        assert_eq!(clock.remaining(Color::Black, 70 * S), Some(5340 * S));
        assert_eq!(clock.remaining(Color::White, 70 * S), Some(5420 * S));
        let press = clock.press(70 * S).unwrap();
        assert_eq!(press.remaining_ms, Some(5370 * S));
        assert_eq!(clock.used(Color::White, 70 * S), 10 * S);
        assert_eq!(clock.used(Color::Black, 70 * S), 60 * S);
        assert_eq!(clock.moves_completed(Color::White), 1);
        assert_eq!(clock.moves_completed(Color::Black), 1);
    }

    #[test]
    fn period_time_is_added_after_the_periods_moves() {
        let mut clock = started("40/7200:3600");
        let mut now = 0;
        for n in 1..=40 {
            now += 60 * S;
            clock.press(now).unwrap(); // White: 60 s per move
            assert_eq!(clock.moves_completed(Color::White), n);
            if n < 40 {
                assert_eq!(clock.moves_to_next_period(Color::White), Some(40 - n));
                assert_eq!(clock.period_index(Color::White), 0);
            }
            now += S;
            clock.press(now).unwrap(); // Black: 1 s per move
        }
        // White used 40 minutes of 120, then got 60 more; no increment.
        assert_eq!(clock.remaining(Color::White, now), Some(140 * MIN));
        assert_eq!(
            clock.remaining(Color::Black, now),
            Some(7200 * S - 40 * S + 3600 * S)
        );
        assert_eq!(clock.period_index(Color::White), 1);
        assert_eq!(clock.moves_to_next_period(Color::White), None);
        // Sudden death: no more time after another 40 moves.
        for _ in 0..40 {
            now += S;
            clock.press(now).unwrap();
            now += S;
            clock.press(now).unwrap();
        }
        assert_eq!(clock.remaining(Color::White, now), Some(140 * MIN - 40 * S));
    }

    #[test]
    fn a_last_period_with_a_move_count_repeats() {
        let mut clock = started("2/60");
        let mut now = 0;
        for _ in 0..4 {
            now += 10 * S;
            clock.press(now).unwrap();
            clock.press(now).unwrap();
        }
        // Two periods completed: 60 + 60 + 60 - 40 s.
        assert_eq!(clock.remaining(Color::White, now), Some(140 * S));
        assert_eq!(clock.period_index(Color::White), 2);
    }

    #[test]
    fn period_with_increment_adds_both() {
        let mut clock = started("1/100+10:50+5");
        let press = clock.press(20 * S).unwrap();
        assert_eq!(press.remaining_ms, Some((100 - 20 + 10 + 50) * S));
        clock.press(20 * S).unwrap();
        let press = clock.press(30 * S).unwrap();
        assert_eq!(press.remaining_ms, Some((140 - 10 + 5) * S));
    }

    #[test]
    fn simple_delay_does_not_run_the_clock_and_does_not_accumulate() {
        let mut clock = started("300d5");
        // Within the delay nothing is counted down, but time is used.
        assert_eq!(clock.remaining(Color::White, 4 * S), Some(300 * S));
        assert_eq!(clock.used(Color::White, 4 * S), 4 * S);
        assert_eq!(clock.remaining(Color::White, 8 * S), Some(297 * S));
        // A quick move: the unused delay is not added to the clock.
        let press = clock.press(2 * S).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(press.remaining_ms, Some(300 * S));
        assert_eq!(clock.remaining(Color::Black, 2 * S + 5 * S), Some(300 * S));
        assert_eq!(clock.remaining(Color::Black, 2 * S + 6 * S), Some(299 * S));
        assert_eq!(clock.flag_deadline(), Some(2 * S + 5 * S + 300 * S));
        // Pausing inside the delay keeps what is left of it.
        clock.pause(4 * S).unwrap();
        clock.resume(100 * S).unwrap();
        assert_eq!(clock.remaining(Color::Black, 103 * S), Some(300 * S));
        assert_eq!(clock.remaining(Color::Black, 104 * S), Some(299 * S));
        assert_eq!(clock.used(Color::Black, 104 * S), 6 * S);
    }

    #[test]
    fn flag_falls_exactly_at_zero() {
        let mut clock = started("60");
        clock.press(10 * S).unwrap();
        let deadline = 10 * S + 60 * S;
        assert_eq!(clock.flag_deadline(), Some(deadline));
        assert_eq!(clock.flagged(deadline - 1), None);
        assert_eq!(clock.remaining(Color::Black, deadline - 1), Some(1));
        assert_eq!(clock.flagged(deadline), Some(Color::Black));
        assert_eq!(clock.remaining(Color::Black, deadline + 5 * S), Some(0));
        // A late press keeps the flag; the fallen side gets no increment.
        clock.press(deadline + 5 * S).unwrap();
        assert_eq!(clock.flagged(deadline + 6 * S), Some(Color::Black));
        assert_eq!(clock.remaining(Color::Black, deadline + 6 * S), Some(0));
        assert_eq!(clock.flag_deadline(), None);
    }

    #[test]
    fn flag_with_increment_deadline_follows_the_presses() {
        let mut clock = started("10+2");
        assert_eq!(clock.flag_deadline(), Some(10 * S));
        clock.press(9 * S).unwrap();
        clock.press(9 * S).unwrap();
        // White has 1 + 2 = 3 s from 9 s.
        assert_eq!(clock.flag_deadline(), Some(12 * S));
        assert_eq!(clock.flagged(12 * S - 1), None);
        assert_eq!(clock.flagged(12 * S), Some(Color::White));
    }

    #[test]
    fn pause_and_resume() {
        let mut clock = started("300");
        assert_eq!(clock.resume(0), Err(ClockError::NotPaused));
        clock.pause(10 * S).unwrap();
        assert_eq!(clock.pause(11 * S), Err(ClockError::AlreadyPaused));
        assert!(clock.is_paused());
        assert_eq!(clock.running(), None);
        assert_eq!(clock.on_turn(), Some(Color::White));
        assert_eq!(clock.flag_deadline(), None);
        assert_eq!(clock.remaining(Color::White, 500 * S), Some(290 * S));
        clock.resume(500 * S).unwrap();
        assert_eq!(clock.remaining(Color::White, 510 * S), Some(280 * S));
        assert_eq!(clock.flag_deadline(), Some(500 * S + 290 * S));
        assert_eq!(clock.used(Color::White, 510 * S), 20 * S);
        // A move entered while paused passes the turn, and stays paused.
        clock.pause(510 * S).unwrap();
        let press = clock.press(600 * S).unwrap();
        assert_eq!(press.remaining_ms, Some(280 * S));
        assert!(clock.is_paused());
        assert_eq!(clock.on_turn(), Some(Color::Black));
        clock.resume(700 * S).unwrap();
        assert_eq!(clock.remaining(Color::Black, 701 * S), Some(299 * S));
    }

    #[test]
    fn no_clock_counts_moves_and_used_time() {
        let mut clock = started("-");
        assert_eq!(clock.remaining(Color::White, 10 * S), None);
        let press = clock.press(10 * S).unwrap();
        assert_eq!(press.remaining_ms, None);
        assert_eq!(press.used_ms, 10 * S);
        assert_eq!(clock.used(Color::Black, 25 * S), 15 * S);
        assert_eq!(clock.flagged(1_000_000 * S), None);
        assert_eq!(clock.flag_deadline(), None);
        assert_eq!(clock.next_deadline(), None);
        assert!(clock.low_time_crossed(1_000_000 * S).is_empty());
        assert_eq!(clock.moves_completed(Color::White), 1);
        // The running display shows used time: 15.2 s used -> next change at 16 s.
        assert_eq!(clock.next_second_boundary(25_200), Some(26 * S));
    }

    #[test]
    fn low_time_thresholds_are_reported_once_per_side() {
        let mut clock = Clock::new(tc("400")).with_low_time_thresholds(&[10 * S, 5 * MIN, MIN]);
        assert_eq!(clock.low_time_thresholds(), &[5 * MIN, MIN, 10 * S]);
        clock.start(0, Color::White).unwrap();
        assert_eq!(clock.next_deadline(), Some(100 * S));
        assert!(clock.low_time_crossed(99 * S).is_empty());
        let crossed = clock.low_time_crossed(100 * S);
        assert_eq!(
            crossed,
            vec![LowTime {
                side: Color::White,
                threshold_ms: 5 * MIN
            }]
        );
        assert!(clock.low_time_crossed(101 * S).is_empty());
        // A long gap: both lower thresholds at once, highest first.
        assert_eq!(
            clock.low_time_crossed(395 * S),
            vec![
                LowTime {
                    side: Color::White,
                    threshold_ms: MIN
                },
                LowTime {
                    side: Color::White,
                    threshold_ms: 10 * S
                },
            ]
        );
        assert_eq!(clock.next_deadline(), Some(400 * S));
        clock.press(395 * S).unwrap();
        assert_eq!(clock.next_deadline(), Some(495 * S));
        let crossed = clock.low_time_crossed(495 * S);
        assert_eq!(
            crossed,
            vec![LowTime {
                side: Color::Black,
                threshold_ms: 5 * MIN
            }]
        );
        assert!(clock.low_time_crossed(496 * S).is_empty());
    }

    #[test]
    fn thresholds_above_the_starting_time_are_never_reported() {
        let mut clock = started("180+2");
        assert_eq!(clock.next_deadline(), Some(120 * S));
        assert_eq!(
            clock.low_time_crossed(120 * S),
            vec![LowTime {
                side: Color::White,
                threshold_ms: MIN
            }]
        );
    }

    #[test]
    fn a_new_period_rearms_the_thresholds() {
        let mut clock = started("1/400:600");
        assert_eq!(clock.low_time_crossed(100 * S).len(), 1);
        clock.press(100 * S).unwrap(); // White now has 300 + 600 s
        clock.press(100 * S).unwrap();
        assert_eq!(clock.low_time_deadline(), Some(100 * S + 600 * S));
        assert_eq!(clock.low_time_crossed(700 * S).len(), 1);
    }

    #[test]
    fn unpress_goes_back_to_the_moment_of_the_press() {
        let mut clock = started("300+5");
        clock.press(10 * S).unwrap(); // White 295 s
        let before_black = clock.clone();
        clock.press(30 * S).unwrap(); // Black 285 s
        assert_eq!(clock.presses(), 2);
        // White thinks 7 s, then Black's move is taken back.
        assert_eq!(clock.unpress(37 * S), Ok(Color::Black));
        assert_eq!(clock.running(), Some(Color::Black));
        assert_eq!(clock.moves_completed(Color::Black), 0);
        assert_eq!(clock.remaining(Color::White, 40 * S), Some(295 * S));
        assert_eq!(clock.remaining(Color::Black, 40 * S), Some(280 * S - 3 * S));
        assert_eq!(clock.used(Color::Black, 40 * S), 23 * S);
        assert_ne!(clock, before_black);
        assert_eq!(clock.unpress(40 * S), Ok(Color::White));
        assert_eq!(clock.remaining(Color::White, 40 * S), Some(290 * S));
        assert_eq!(clock.unpress(40 * S), Err(ClockError::NothingToUndo));
    }

    #[test]
    fn unpress_undoes_a_period_change() {
        let mut clock = started("1/100:50");
        clock.press(10 * S).unwrap();
        assert_eq!(clock.period_index(Color::White), 1);
        clock.unpress(10 * S).unwrap();
        assert_eq!(clock.period_index(Color::White), 0);
        assert_eq!(clock.remaining(Color::White, 10 * S), Some(90 * S));
    }

    #[test]
    fn second_boundaries_follow_the_display() {
        let mut clock = started("300d2");
        // In the delay: first change 1 ms after the delay ends.
        assert_eq!(clock.next_second_boundary(500), Some(2001));
        assert_eq!(clock.next_second_boundary(2500), Some(3001));
        assert_eq!(clock.remaining(Color::White, 3000), Some(299 * S));
        assert_eq!(display(299_000), "4:59");
        assert_eq!(display(298_999), "4:58");
        clock.pause(0).unwrap();
        assert_eq!(clock.next_second_boundary(10), None);
        let clock = started("12");
        assert_eq!(clock.next_display_change(1500), Some(2001));
        assert_eq!(clock.next_display_change(2500), Some(2501));
        assert_eq!(clock.next_display_change(2050), Some(2101));
    }

    #[test]
    fn compact_display_and_pgn_clk() {
        assert_eq!(display((3600 + 12 * 60 + 5) * S + 999), "1:12:05");
        assert_eq!(display(4 * MIN + 59 * S + 999), "4:59");
        assert_eq!(display(10 * S), "0:10");
        assert_eq!(display(9_599), "0:09.5");
        assert_eq!(display(0), "0:00.0");
        let pgn_clk = |ms| crate::pgn::clock_text(ms, false);
        assert_eq!(pgn_clk((3600 + 12 * 60 + 5) * S + 500), "1:12:05");
        assert_eq!(pgn_clk(4 * MIN + 59 * S), "0:04:59");
    }

    #[test]
    fn durations_in_words_in_each_language() {
        let ms = (3600 + 12 * 60 + 5) * S + 900;
        let de = Pack::bundled(Lang::De);
        let pt = Pack::bundled(Lang::Pt);
        let en = Pack::bundled(Lang::En);
        assert_eq!(
            duration_words(&de, ms).written,
            "1 Stunde 12 Minuten 5 Sekunden"
        );
        assert_eq!(
            duration_words(&pt, ms).written,
            "1 hora 12 minutos 5 segundos"
        );
        assert_eq!(
            duration_words(&en, ms).written,
            "1 hour 12 minutes 5 seconds"
        );
        assert_eq!(
            duration_words(&de, 2 * 3600 * S + S).spoken,
            "2 Stunden 1 Sekunde"
        );
        assert_eq!(duration_words(&de, 12 * MIN).written, "12 Minuten");
        assert_eq!(duration_words(&en, 999).written, "0 seconds");
        assert_eq!(duration_words(&pt, MIN + 1).written, "1 minuto");
    }

    /// A game state for the readings: 5400+30, White has made 2 moves,
    /// Black 1, Black to move.
    fn reading_clock() -> (Clock, u64) {
        let mut clock = started("5400+30");
        clock.press(30 * S).unwrap(); // White used 30 s -> 5400 s
        clock.press(30 * S + 12 * MIN + 5 * S).unwrap(); // Black used 12:05
        clock.press(30 * S + 12 * MIN + 5 * S + 3600 * S).unwrap(); // White used 1 h
        (clock, 30 * S + 12 * MIN + 5 * S + 3600 * S + 2 * S + 500)
    }

    #[test]
    fn readings_in_german() {
        let (clock, now) = reading_clock();
        let de = Pack::bundled(Lang::De);
        let u = clock.reading(&de, now, Color::White);
        assert_eq!(
            u.written,
            "Weiss: 30 Minuten 30 Sekunden uebrig, 1 Stunde 30 Sekunden verbraucht, \
             2 Zuege gespielt. Schwarz: 1 Stunde 18 Minuten 22 Sekunden uebrig, \
             12 Minuten 7 Sekunden verbraucht, 1 Zug gespielt"
        );
        assert_eq!(
            u.spoken,
            "Weiß: 30 Minuten 30 Sekunden übrig, 1 Stunde 30 Sekunden verbraucht, \
             2 Züge gespielt. Schwarz: 1 Stunde 18 Minuten 22 Sekunden übrig, \
             12 Minuten 7 Sekunden verbraucht, 1 Zug gespielt"
        );
    }

    #[test]
    fn readings_in_portuguese_and_english() {
        let (clock, now) = reading_clock();
        let pt = Pack::bundled(Lang::Pt);
        let u = clock.reading(&pt, now, Color::Black);
        let expected = "Pretas: 1 hora 18 minutos 22 segundos restantes, \
                        12 minutos 7 segundos usados, 1 lance jogado. \
                        Brancas: 30 minutos 30 segundos restantes, \
                        1 hora 30 segundos usados, 2 lances jogados";
        assert_eq!(u.written, expected);
        assert_eq!(u.spoken, expected);
        let en = Pack::bundled(Lang::En);
        let u = clock.reading(&en, now, Color::White);
        let expected = "White: 30 minutes 30 seconds left, 1 hour 30 seconds used, \
                        2 moves played. Black: 1 hour 18 minutes 22 seconds left, \
                        12 minutes 7 seconds used, 1 move played";
        assert_eq!(u.written, expected);
        assert_eq!(u.spoken, expected);
    }

    #[test]
    fn untimed_reading_gives_used_time_only() {
        let mut clock = started("-");
        clock.press(65 * S).unwrap();
        let de = Pack::bundled(Lang::De);
        let u = clock.side_reading(&de, Color::White, 70 * S);
        assert_eq!(
            u.written,
            "Weiss: 1 Minute 5 Sekunden verbraucht, 1 Zug gespielt"
        );
        let en = Pack::bundled(Lang::En);
        let u = clock.side_reading(&en, Color::Black, 70 * S);
        assert_eq!(u.written, "Black: 5 seconds used, 0 moves played");
        let pt = Pack::bundled(Lang::Pt);
        assert_eq!(
            clock.side_reading(&pt, Color::Black, 70 * S).written,
            "Pretas: 5 segundos usados, 0 lances jogados"
        );
    }
}
