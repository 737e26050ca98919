//! The options an engine reported in its `uci` reply.

use std::collections::BTreeMap;

use shakmaty_uci::UciOptionConfig;

/// The allowed range of a `spin` option.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SpinRange {
    pub min: i64,
    pub max: i64,
    pub default: i64,
}

impl SpinRange {
    pub fn clamp(self, value: i64) -> i64 {
        value.clamp(self.min, self.max)
    }

    pub fn contains(self, value: i64) -> bool {
        (self.min..=self.max).contains(&value)
    }
}

/// Every option an engine announced, by lower-case name.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EngineOptions {
    spins: BTreeMap<String, SpinRange>,
    checks: BTreeMap<String, bool>,
}

impl EngineOptions {
    /// Adds an option line from the `uci` reply.
    pub fn add(&mut self, option: &UciOptionConfig) {
        match option {
            UciOptionConfig::Spin {
                name,
                default,
                min,
                max,
            } => {
                let min = min.unwrap_or(i64::MIN);
                let max = max.unwrap_or(i64::MAX);
                self.spins.insert(
                    name.to_ascii_lowercase(),
                    SpinRange {
                        min,
                        max,
                        default: default.unwrap_or(min),
                    },
                );
            }
            UciOptionConfig::Check { name, default } => {
                self.checks
                    .insert(name.to_ascii_lowercase(), default.unwrap_or(false));
            }
            _ => {}
        }
    }

    /// Parses the option lines of a `uci` reply given as text (tests, logs).
    pub fn from_uci_reply(text: &str) -> EngineOptions {
        let mut options = EngineOptions::default();
        for line in text.lines() {
            if let Ok(shakmaty_uci::UciMessage::Option(o)) = line.parse() {
                options.add(&o);
            }
        }
        options
    }

    pub fn spin(&self, name: &str) -> Option<SpinRange> {
        self.spins.get(&name.to_ascii_lowercase()).copied()
    }

    pub fn has_check(&self, name: &str) -> bool {
        self.checks.contains_key(&name.to_ascii_lowercase())
    }
}
