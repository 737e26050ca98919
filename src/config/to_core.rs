//! The settings as the core and the threads take them: the session's,
//! the speech thread's and the tracker's configurations, the scoresheet's
//! tags.

use super::{Settings, Side};
use crate::board::TrackerConfig;
use crate::chess::Tags;
use crate::clock::TimeControl;
use crate::session::{Mode, SessionConfig};
use crate::speech::{SpeechConfig, VoiceSettings};

impl Settings {
    /// The time control of the next game (always valid: checked on load).
    pub fn time_control(&self) -> TimeControl {
        self.game
            .time_control
            .parse()
            .unwrap_or(TimeControl::Untimed)
    }

    /// The low-time warning thresholds in milliseconds, largest first.
    pub fn low_time_ms(&self) -> Vec<u64> {
        let mut ms: Vec<u64> = self
            .game
            .low_time_seconds
            .iter()
            .map(|s| s.saturating_mul(1000))
            .collect();
        ms.sort_unstable_by(|a, b| b.cmp(a));
        ms.dedup();
        ms
    }

    /// The configuration the session core runs with.
    pub fn session_config(&self) -> SessionConfig {
        SessionConfig {
            lang: self.speech.language,
            form: self.speech.form,
            letters: self.game.letters,
            mode: self.game.mode,
            blind_side: self.game.blind_side.color(),
            time_control: self.time_control(),
            low_time_ms: self.low_time_ms(),
            announce_touched: self.speech.announce_touched,
            speak_low_time: self.speech.speak_low_time,
            practice: crate::session::Practice {
                computer: self.engine.opponent,
                level: self.engine.level,
                pause_ms: self.engine.pause_ms,
            },
            // The window asks, and the player answers.
            questions_answered: true,
        }
    }

    /// Takes over what the session changed itself ([`Effect::ConfigChanged`](crate::session::Effect)):
    /// the mode, the player's colour and the practice opponent.
    pub fn keep_session_config(&mut self, config: &SessionConfig) {
        self.game.mode = config.mode;
        self.game.blind_side = Side::from_color(config.blind_side);
        self.engine.opponent = config.practice.computer;
        self.engine.level = config.practice.level;
        self.engine.pause_ms = config.practice.pause_ms;
    }

    /// How the speech service starts.
    pub fn speech_config(&self) -> SpeechConfig {
        let mut voice = VoiceSettings {
            rate: clamp_unit(self.speech.rate, 0.5),
            pitch: clamp_unit(self.speech.pitch, 0.5),
            volume: clamp_unit(self.speech.volume, 1.0),
            ..VoiceSettings::default()
        };
        if let Some(name) = self.speech.voice.as_ref().filter(|n| !n.trim().is_empty()) {
            voice.voices.insert(self.speech.language, name.clone());
        }
        SpeechConfig {
            backend: self.speech.backend.choice(),
            lang: self.speech.language,
            settings: voice,
            mode: self.speech.mode,
        }
    }

    /// The peg-board move tracker's timing. Tournament mode is strict
    /// (touch-move: a rook move is never held back for castling).
    pub fn tracker_config(&self) -> TrackerConfig {
        TrackerConfig {
            settle_ms: self.board.settle_ms,
            mismatch_ms: self.board.mismatch_ms,
            promote_to: self.board.promotion.role(),
            strict: self.game.mode == Mode::Tournament,
            // The one occupancy board with lights guides with them.
            guide_lights: self.board.my_board() == super::BoardChoice::Pegasus,
            complete_slides: self.board.my_board() == super::BoardChoice::Pegasus,
            orientation: self.board.orientation.to_core(),
            ..TrackerConfig::default()
        }
    }

    /// Writes players, event, site, round, board number and time control
    /// into a game's PGN tags. Empty settings leave the tag as it was.
    pub fn apply_tags(&self, tags: &mut Tags) {
        let g = &self.game;
        for (value, tag) in [
            (&g.white, &mut tags.white),
            (&g.black, &mut tags.black),
            (&g.event, &mut tags.event),
            (&g.site, &mut tags.site),
            (&g.round, &mut tags.round),
        ] {
            if !value.trim().is_empty() {
                *tag = value.trim().to_owned();
            }
        }
        let control = self.time_control();
        tags.time_control = control.is_timed().then(|| control.to_string());
        if !g.board_number.trim().is_empty() {
            tags.extra.retain(|(name, _)| name != "Board");
            tags.extra
                .push(("Board".into(), g.board_number.trim().to_owned()));
        }
    }
}

fn clamp_unit(value: f32, fallback: f32) -> f32 {
    if value.is_finite() {
        value.clamp(0.0, 1.0)
    } else {
        fallback
    }
}
