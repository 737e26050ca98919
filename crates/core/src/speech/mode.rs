//! Who speaks: the app's own voice, the user's screen reader, or both.

use serde::{Deserialize, Serialize};

/// The speech mode (a setting that applies at once, without restart).
///
/// * `SelfVoicing`: the app speaks with its own voice (system speech or
///   the clip voice); for players without a screen reader.
/// * `ScreenReader`: every announcement is handed to the screen reader
///   (Orca, NVDA, JAWS: speech and Braille); the app's voice stays silent,
///   so two voices never talk over each other.
/// * `Both`: the app speaks and the screen reader gets the announcements
///   too (e.g. a deafblind player reading Braille next to a hearing
///   assistant).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[derive(strum::EnumCount, strum::VariantArray)]
pub enum SpeechMode {
    #[default]
    SelfVoicing,
    ScreenReader,
    Both,
}

impl SpeechMode {
    /// Every variant, in declaration order (derived, so none is left out).
    pub const ALL: [SpeechMode; <SpeechMode as strum::EnumCount>::COUNT] =
        *<SpeechMode as strum::VariantArray>::VARIANTS
            .first_chunk()
            .expect("every variant");

    /// Whether the app's own voice (the speech service's backend) speaks.
    pub fn app_voice(self) -> bool {
        self != SpeechMode::ScreenReader
    }

    /// Whether announcements go to the screen reader.
    pub fn screen_reader(self) -> bool {
        self != SpeechMode::SelfVoicing
    }

    /// The settings-file spelling.
    pub fn code(self) -> &'static str {
        match self {
            SpeechMode::SelfVoicing => "self_voicing",
            SpeechMode::ScreenReader => "screen_reader",
            SpeechMode::Both => "both",
        }
    }
}

impl std::fmt::Display for SpeechMode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.code())
    }
}

/// A speech mode's name that is none.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown speech mode '{0}' (use self_voicing, screen_reader or both)")]
pub struct UnknownSpeechMode(pub String);

impl std::str::FromStr for SpeechMode {
    type Err = UnknownSpeechMode;
    fn from_str(s: &str) -> Result<SpeechMode, UnknownSpeechMode> {
        match s.trim().to_ascii_lowercase().replace('-', "_").as_str() {
            "self_voicing" | "self" | "app" => Ok(SpeechMode::SelfVoicing),
            "screen_reader" | "screenreader" | "sr" => Ok(SpeechMode::ScreenReader),
            "both" => Ok(SpeechMode::Both),
            other => Err(UnknownSpeechMode(other.to_owned())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn modes_parse_and_say_who_speaks() {
        for m in SpeechMode::ALL {
            assert_eq!(m.code().parse::<SpeechMode>(), Ok(m));
        }
        assert!(SpeechMode::SelfVoicing.app_voice());
        assert!(!SpeechMode::SelfVoicing.screen_reader());
        assert!(!SpeechMode::ScreenReader.app_voice());
        assert!(SpeechMode::ScreenReader.screen_reader());
        assert!(SpeechMode::Both.app_voice() && SpeechMode::Both.screen_reader());
        assert!("loud".parse::<SpeechMode>().is_err());
    }
}
