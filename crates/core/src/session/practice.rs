//! The practice controller: the computer opponent on or off, its level,
//! the player's colour (Ctrl+Shift+P, Ctrl+Shift+Up/Down, Ctrl+Shift+C and
//! the Computer menu), and the opponent the settings ask for.
//!
//! The shell forwards the keys as [`Command::Practice`](super::Command)
//! and new settings as [`Event::ConfigChanged`](super::Event); the session
//! decides here, says what changed, and hands the settings it changed back
//! as [`Effect::ConfigChanged`](super::Effect) for the shell to keep.

use super::engine::Opponent;
use super::{Effect, Mode, Priority, Session, SessionConfig};
use crate::engine::Level;
use crate::words::{Token, Utterance};

/// The practice settings: the computer opponent and how it plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Practice {
    /// In practice mode the computer plays the colour the player does not.
    pub computer: bool,
    pub level: Level,
    /// The computer's move is never played sooner than this after the
    /// player's move, in milliseconds (0: at once).
    pub pause_ms: u64,
}

impl Default for Practice {
    fn default() -> Practice {
        Practice {
            computer: false,
            level: Level::default(),
            pause_ms: 800,
        }
    }
}

/// A practice key or menu entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PracticeCommand {
    /// The computer on or off (switching to practice mode).
    ToggleComputer,
    /// The computer one level stronger (`true`) or weaker.
    Level(bool),
    /// The player takes the other colour.
    SwitchColours,
}

impl SessionConfig {
    /// The computer opponent, when practice mode plays against it.
    pub fn opponent(&self, seed: u64) -> Option<Opponent> {
        (self.mode == Mode::Practice && self.practice.computer).then_some(Opponent {
            color: !self.blind_side,
            level: self.practice.level,
            pause_ms: self.practice.pause_ms,
            seed,
        })
    }

    /// These settings after a practice command.
    pub fn after(&self, cmd: PracticeCommand) -> SessionConfig {
        let mut config = self.clone();
        match cmd {
            PracticeCommand::ToggleComputer => {
                config.practice.computer =
                    !(config.practice.computer && config.mode == Mode::Practice);
                config.mode = Mode::Practice;
            }
            PracticeCommand::Level(up) => {
                let n = config.practice.level.number();
                let n = if up { n + 1 } else { n.saturating_sub(1) };
                config.practice.level =
                    Level::new(n.clamp(Level::MIN, Level::MAX)).unwrap_or_default();
            }
            PracticeCommand::SwitchColours => config.blind_side = !config.blind_side,
        }
        config
    }
}

impl Session {
    /// A practice key: the settings change (and are handed back to the
    /// shell first, so it keeps them before anything is said), then what
    /// they are now is said; the computer moves at once if it is its turn.
    pub(super) fn practice(&mut self, now: u64, cmd: PracticeCommand, out: &mut Vec<Effect>) {
        let config = self.config.after(cmd);
        out.push(Effect::ConfigChanged(config.clone()));
        self.set_config(config);
        let text = match cmd {
            PracticeCommand::ToggleComputer if self.config.opponent(0).is_none() => {
                self.pack.say("practice_off")
            }
            _ => self.practice_words(),
        };
        self.speak(out, text, Priority::Answer);
        self.sync_opponent(now);
    }

    /// "Practice against the computer, level 3. You play White".
    fn practice_words(&self) -> Utterance {
        let pack = &self.pack;
        let level = self.config.practice.level.number();
        let level = pack.render(&[Token::Number(level.into())]);
        let side = crate::announce::side_word(pack, self.config.blind_side);
        let key = if self.config.opponent(0).is_some() {
            "practice_start"
        } else {
            "practice_settings"
        };
        pack.phrase(key, &[("level", level), ("side", side)])
    }

    /// Plays against the opponent the settings ask for, if it is another
    /// (colour, level or pause): its random choices are seeded from the
    /// shell's seed and the time.
    pub(super) fn sync_opponent(&mut self, now: u64) {
        // In a puzzle the opponent's moves come from the solution.
        let want = if self.in_puzzle() {
            None
        } else {
            self.config.opponent(self.seed.wrapping_add(now))
        };
        let key = |o: Option<Opponent>| o.map(|o| (o.color, o.level, o.pause_ms));
        if key(want) != key(self.opponent()) {
            self.set_opponent(want);
        }
    }
}
