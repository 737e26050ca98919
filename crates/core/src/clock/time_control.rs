//! Time controls: the PGN `TimeControl` syntax (see the module above),
//! parsed and written back.

use std::fmt;
use std::str::FromStr;

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
    pub(super) fn period(&self, index: usize) -> Option<&Period> {
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
