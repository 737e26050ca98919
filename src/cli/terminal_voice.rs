//! The terminal's voice, shared by the commands that speak (`play`,
//! `review`): the speech thread started unless `--quiet`
//! ([`super::terminal_speech`]), and a wait for it to finish before the
//! command ends. The commands' `Shell`s speak through it.

use std::time::Duration;

use crate::session::Speech;
use crate::speech::SpeechHandle;
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
        TerminalVoice {
            speech: super::terminal_speech(lang, quiet),
        }
    }

    /// Says `speech` (nothing when there is no voice).
    pub(super) fn speak(&self, speech: Speech) {
        if let Some(s) = &self.speech {
            s.speak(speech);
        }
    }

    /// A question voice input asks of the voice from its own thread:
    /// is anything being said (then nothing is heard)?
    pub(super) fn speaking_probe(&self) -> Box<dyn Fn() -> bool + Send> {
        speaking_probe(self.speech.clone())
    }

    /// Lets the voice finish before the command ends.
    pub(super) fn finish(&self) {
        if let Some(s) = &self.speech {
            s.wait_idle(FINISH_WAIT);
        }
    }
}

/// Voice input's question to `speech` from its own thread: is anything
/// being said (then nothing is heard)? Always no without a voice.
pub(super) fn speaking_probe(speech: Option<SpeechHandle>) -> Box<dyn Fn() -> bool + Send> {
    match speech {
        Some(s) => Box::new(move || s.busy()),
        None => Box::new(|| false),
    }
}
