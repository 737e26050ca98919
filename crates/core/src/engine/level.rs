//! Playing strength: ten levels from a true beginner to full strength.
//!
//! Levels 1-4 lie below what engines offer (Stockfish's `UCI_Elo` starts at
//! 1350): the engine searches shallowly with `Skill Level` at its minimum,
//! and the move is drawn at random among its candidate lines, sometimes any
//! legal move at all. Levels 5-9 ask for an Elo inside the engine's range;
//! level 10 is full strength. Every value sent is read against the range
//! the engine reported; an option it did not report is not sent.

use serde::{Deserialize, Serialize};

use super::EngineOptions;

/// A playing level, 1 (beginner) to 10 (full strength).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(try_from = "u8", into = "u8")]
pub struct Level(u8);

impl Level {
    pub const MIN: u8 = 1;
    pub const MAX: u8 = 10;

    pub fn new(n: u8) -> Option<Level> {
        (Level::MIN..=Level::MAX).contains(&n).then_some(Level(n))
    }

    pub fn full() -> Level {
        Level(Level::MAX)
    }

    pub fn number(self) -> u8 {
        self.0
    }

    /// Elo asked of the engine at levels 5-9.
    fn target_elo(self) -> Option<i64> {
        match self.0 {
            5 => Some(1350),
            6 => Some(1600),
            7 => Some(1900),
            8 => Some(2200),
            9 => Some(2500),
            _ => None,
        }
    }

    /// How long the engine may think, in milliseconds.
    pub fn think_ms(self) -> u64 {
        [50, 80, 120, 200, 300, 400, 600, 800, 1200, 2000][usize::from(self.0 - 1)]
    }

    /// How the move is chosen among the engine's lines.
    pub fn choice(self) -> Choice {
        match self.0 {
            1 => Choice {
                random_move_percent: 45,
                window_cp: 100_000,
            },
            2 => Choice {
                random_move_percent: 25,
                window_cp: 500,
            },
            3 => Choice {
                random_move_percent: 10,
                window_cp: 250,
            },
            4 => Choice {
                random_move_percent: 3,
                window_cp: 120,
            },
            _ => Choice::best(),
        }
    }

    /// What to send for this level, given the engine's option ranges.
    pub fn plan(self, options: &EngineOptions) -> Plan {
        let mut plan = Plan {
            options: Vec::new(),
            movetime_ms: self.think_ms(),
            depth: None,
            nodes: None,
            multipv: 1,
            choice: self.choice(),
        };
        let weak = self.0 <= 4;
        let limit = self.target_elo();
        if options.has_check("UCI_LimitStrength") {
            plan.set(
                "UCI_LimitStrength",
                (limit.is_some() && options.spin("UCI_Elo").is_some()).to_string(),
            );
        }
        if let Some(elo) = limit {
            if let Some(range) = options.spin("UCI_Elo") {
                plan.set("UCI_Elo", range.clamp(elo).to_string());
            } else if let Some(range) = options.spin("Skill Level") {
                // No Elo option: Stockfish-like skill 0-20 from 1000-3000.
                plan.set("Skill Level", range.clamp((elo - 1000) / 100).to_string());
            }
        } else if let Some(range) = options.spin("Skill Level") {
            let skill = if weak { range.min } else { range.max };
            plan.set("Skill Level", skill.to_string());
        }
        if weak {
            plan.depth = Some([1, 2, 3, 5][usize::from(self.0 - 1)]);
            plan.multipv = [10, 8, 6, 4][usize::from(self.0 - 1)];
        }
        match options.spin("MultiPV") {
            Some(range) => {
                plan.multipv = range.clamp(plan.multipv.into()) as u16;
                plan.set("MultiPV", plan.multipv.to_string());
            }
            None => plan.multipv = 1,
        }
        plan
    }

    /// Full-strength analysis (hint, threat, evaluation, review).
    pub fn analysis(options: &EngineOptions, movetime_ms: u64, depth: Option<u8>) -> Plan {
        let mut plan = Level::full().plan(options);
        plan.movetime_ms = movetime_ms;
        plan.depth = depth;
        plan
    }
}

/// A level that is not one.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LevelError {
    #[error("level {0} is not between 1 and 10")]
    OutOfRange(u8),
    #[error("level '{0}' is not a number from 1 to 10")]
    NotANumber(String),
}

impl TryFrom<u8> for Level {
    type Error = LevelError;
    fn try_from(n: u8) -> Result<Level, LevelError> {
        Level::new(n).ok_or(LevelError::OutOfRange(n))
    }
}

impl From<Level> for u8 {
    fn from(l: Level) -> u8 {
        l.0
    }
}

impl std::str::FromStr for Level {
    type Err = LevelError;
    fn from_str(s: &str) -> Result<Level, LevelError> {
        let n: u8 = s
            .trim()
            .parse()
            .map_err(|_| LevelError::NotANumber(s.to_owned()))?;
        Level::try_from(n)
    }
}

impl Default for Level {
    fn default() -> Level {
        Level(3)
    }
}

/// How to pick the move from the engine's lines.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Choice {
    /// Chance in percent of playing any legal move instead.
    pub random_move_percent: u8,
    /// Lines at most this many centipawns worse than the best are candidates.
    pub window_cp: i32,
}

impl Choice {
    pub fn best() -> Choice {
        Choice {
            random_move_percent: 0,
            window_cp: 0,
        }
    }
}

/// What to send the engine for one search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Plan {
    /// `setoption` name and value, each inside the engine's range.
    pub options: Vec<(String, String)>,
    pub movetime_ms: u64,
    pub depth: Option<u8>,
    pub nodes: Option<u64>,
    pub multipv: u16,
    pub choice: Choice,
}

impl Plan {
    fn set(&mut self, name: &str, value: String) {
        self.options.push((name.to_owned(), value));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SF15: &str = "option name MultiPV type spin default 1 min 1 max 500
option name Skill Level type spin default 20 min 0 max 20
option name UCI_LimitStrength type check default false
option name UCI_Elo type spin default 1350 min 1350 max 2850";

    #[test]
    fn every_level_stays_inside_the_ranges() {
        let options = EngineOptions::from_uci_reply(SF15);
        for n in Level::MIN..=Level::MAX {
            let plan = Level::new(n).unwrap().plan(&options);
            for (name, value) in &plan.options {
                if let Some(range) = options.spin(name) {
                    let v: i64 = value.parse().unwrap();
                    assert!(range.contains(v), "level {n}: {name}={v}");
                }
            }
        }
    }

    #[test]
    fn beginner_levels_weaken_play_themselves() {
        let options = EngineOptions::from_uci_reply(SF15);
        let plan = Level::new(1).unwrap().plan(&options);
        assert!(plan.options.contains(&("Skill Level".into(), "0".into())));
        assert!(
            plan.options
                .contains(&("UCI_LimitStrength".into(), "false".into()))
        );
        assert!(!plan.options.iter().any(|(n, _)| n == "UCI_Elo"));
        assert_eq!(plan.depth, Some(1));
        assert!(plan.choice.random_move_percent > 0);
        let five = Level::new(5).unwrap().plan(&options);
        assert!(five.options.contains(&("UCI_Elo".into(), "1350".into())));
    }

    #[test]
    fn unknown_options_are_not_sent() {
        let plan = Level::new(6).unwrap().plan(&EngineOptions::default());
        assert!(plan.options.is_empty());
        assert_eq!(plan.multipv, 1);
    }
}
