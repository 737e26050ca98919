//! The app's own voice: the speech service, the sounds, the folder of the
//! player's corrections of the words, and the startup trace that ends at
//! the first word said.

use std::path::PathBuf;
use std::time::Instant;

use crate::speech::SpeechHandle;

/// What the app speaks and sounds with.
pub(super) struct Voice {
    pub speech: SpeechHandle,
    /// The earcons' output, when there is a sound device.
    pub audio: Option<crate::audio::AudioOut>,
    /// The folder of the player's corrections of the words (the speech
    /// pack is loaded again from it when the settings change).
    pub pack_dir: Option<PathBuf>,
    /// Startup is traced until the first word said (ROCHADE_TRACE_STARTUP).
    pub trace_startup: Option<Instant>,
    /// Voice input, while it is on ([`super::voice_listen`]).
    pub input: Option<super::voice_listen::Listening>,
    /// Recordings voice input hears instead of the microphone (tests).
    pub recordings: Vec<PathBuf>,
}
