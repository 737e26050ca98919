//! Speech: the app speaks for itself, with or without a screen reader.
//!
//! * [`queue`] is the pure scheduler (priorities, interruption, resumption),
//!   tested with the recording backend, and [`voice`] chooses a system voice
//!   for a language: both live in the core crate;
//! * [`backend`] defines [`SpeechBackend`] and the recording and silent
//!   backends; [`system`] is system speech through `tts`; [`clips`] is the
//!   clip voice (recorded words played through `cpal`);
//! * [`service`] runs a backend on its own thread behind a cloneable
//!   [`SpeechHandle`].

pub use rochade_core::speech::{mode, queue, voice};

pub mod backend;
mod bundled_clips;
pub mod clips;
pub mod service;
pub mod system;

pub use backend::{
    Finished, Recorded, RecordingBackend, RecordingLog, Silence, SpeechBackend, SpeechError,
    Spoken, VoiceSettings,
};
pub use clips::{ClipStore, ClipVoice, save_user_clip, user_clip_dir, vocabulary};
pub use mode::{SpeechMode, UnknownSpeechMode};
pub use queue::{Command, SpeechQueue, UtteranceKey};
pub use service::{
    BackendChoice, SpeechConfig, SpeechHandle, SpeechService, UnknownBackend, speak_all_blocking,
};
pub use system::SystemSpeech;
pub use voice::{VoiceInfo, VoiceMatch, choose_voice};
