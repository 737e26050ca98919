//! The terminal's voice, shared by the commands that speak (`play`,
//! `review`): the speech thread started unless `--quiet`, its fallback and
//! its absence said on stderr, and a wait for it to finish before the
//! command ends. The commands' `Shell`s speak through it.

use std::time::Duration;

use crate::session::Speech;
use crate::speech::{BackendChoice, SpeechConfig, SpeechHandle, SpeechService, VoiceSettings};
use crate::words::Lang;

/// How long a command waits for its last words to be said.
const FINISH_WAIT: Duration = Duration::from_secs(30);

/// The speech thread of a terminal command (none when quiet or when no
/// voice could start: then the command prints only).
pub(super) struct TerminalVoice {
    speech: Option<SpeechHandle>,
}

impl TerminalVoice {
    /// Starts the voice in `lang`, unless `quiet`.
    pub(super) fn start(quiet: bool, lang: Lang) -> TerminalVoice {
        if quiet {
            return TerminalVoice { speech: None };
        }
        let config = SpeechConfig {
            backend: BackendChoice::Auto,
            lang,
            settings: VoiceSettings::default(),
            mode: Default::default(),
        };
        let speech = match SpeechService::spawn(config) {
            Ok(h) => {
                // A voice that hangs is replaced (the clip voice, else
                // silence) and the command goes on; the terminal says so.
                h.on_fallback(|f| eprintln!("rochade: {}; {}", f.report, super::SPEECH_ADVICE));
                Some(h)
            }
            Err(e) => {
                let advice = super::SPEECH_ADVICE;
                eprintln!("rochade: no speech ({e}); printing only; {advice}");
                None
            }
        };
        TerminalVoice { speech }
    }

    /// Says `speech` (nothing when there is no voice).
    pub(super) fn speak(&self, speech: Speech) {
        if let Some(s) = &self.speech {
            s.speak(speech);
        }
    }

    /// Lets the voice finish before the command ends.
    pub(super) fn finish(&self) {
        if let Some(s) = &self.speech {
            s.wait_idle(FINISH_WAIT);
        }
    }
}
