//! The server's numbers read within range: a clock, an increment or a
//! rating the server wrote as `-1`, `1e30`, `12.5` or a string is clamped
//! (or left out) instead of making the whole line unreadable, which kept
//! a game from starting and the moves typed for it queued for ever.

use serde::{Deserialize, Deserializer};

/// The largest value kept: thirty days in milliseconds, far beyond any
/// clock, and within every integer type it goes into (clamped again).
const MOST: f64 = 2_592_000_000.0;

/// A number as the server may write it: a number, a number in a string,
/// or anything else (read as none).
#[derive(Deserialize)]
#[serde(untagged)]
enum Raw {
    Number(f64),
    Text(String),
    Other(serde::de::IgnoredAny),
}

/// Any value as a number in range: negative is 0; not a number or not
/// finite is none; larger than the type holds (or [`MOST`]) is the most.
fn clamp<T: TryFrom<u64> + Bounded>(value: &Raw) -> Option<T> {
    let n = match value {
        Raw::Number(n) => *n,
        Raw::Text(s) => s.trim().parse::<f64>().ok()?,
        Raw::Other(_) => return None,
    };
    if !n.is_finite() {
        return None;
    }
    let n = n.clamp(0.0, MOST.min(T::MAX_F64)).round() as u64;
    T::try_from(n).ok()
}

/// The largest value of an integer type, as a float.
pub(super) trait Bounded {
    const MAX_F64: f64;
}
impl Bounded for u8 {
    const MAX_F64: f64 = u8::MAX as f64;
}
impl Bounded for u32 {
    const MAX_F64: f64 = u32::MAX as f64;
}
impl Bounded for u64 {
    const MAX_F64: f64 = MOST;
}

/// A required number (0 when it cannot be read).
pub(super) fn lenient<'de, D, T>(d: D) -> Result<T, D::Error>
where
    D: Deserializer<'de>,
    T: TryFrom<u64> + Bounded + Default,
{
    let value = Raw::deserialize(d)?;
    Ok(clamp(&value).unwrap_or_default())
}

/// An optional number (none when it cannot be read).
pub(super) fn lenient_opt<'de, D, T>(d: D) -> Result<Option<T>, D::Error>
where
    D: Deserializer<'de>,
    T: TryFrom<u64> + Bounded,
{
    let value = Raw::deserialize(d)?;
    Ok(clamp(&value))
}

#[cfg(test)]
mod tests {
    use crate::online::{GameFull, GameLine};

    #[test]
    fn numbers_out_of_range_are_clamped_not_refused() {
        let line = r#"{"type":"gameFull","id":"G1","clock":{"initial":-1,"increment":1e30},
            "white":{"id":"me","rating":-5,"aiLevel":300},"black":{"id":"them","rating":"1600"},
            "state":{"type":"gameState","moves":"e2e4","wtime":1e30,"btime":-1,"winc":12.5,"binc":null,"status":"started"}}"#;
        let GameLine::GameFull(full) = serde_json::from_str::<GameLine>(line).unwrap() else {
            panic!("a gameFull");
        };
        let full: GameFull = *full;
        let clock = full.clock.unwrap();
        assert_eq!((clock.initial, clock.increment), (0, 2_592_000_000));
        assert_eq!(full.white.rating, Some(0));
        assert_eq!(full.white.ai_level, Some(255));
        assert_eq!(full.black.rating, Some(1600));
        let s = full.state;
        assert_eq!(
            (s.wtime, s.btime, s.winc, s.binc),
            (2_592_000_000, 0, 13, 0)
        );
        assert_eq!(s.moves, ["e2e4".parse::<shakmaty::uci::UciMove>().unwrap()]);
    }

    #[test]
    fn missing_numbers_are_none_or_zero_as_before() {
        let line = r#"{"type":"gameState","moves":"","status":"started"}"#;
        let GameLine::GameState(s) = serde_json::from_str::<GameLine>(line).unwrap() else {
            panic!("a gameState");
        };
        assert_eq!((s.wtime, s.btime, s.winc, s.binc), (0, 0, 0, 0));
    }
}
