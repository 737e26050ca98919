//! Speech: the app speaks for itself, with or without a screen reader.
//!
//! * [`queue`] is the pure scheduler (priorities, interruption, resumption),
//!   tested with the recording backend, and [`voice`] chooses a system voice
//!   for a language: both live in the core crate;
//! * [`backend`] defines [`SpeechBackend`] and the recording and silent
//!   backends; [`system`] is system speech through `tts`; [`clips`] is the
//!   clip voice (recorded words played through `cpal`);
//! * [`service`] runs the queue on its own thread behind a cloneable
//!   [`SpeechHandle`]; [`watchdog`] puts a deadline on every call into the
//!   backend (which runs on a thread of its own) and on every utterance,
//!   so a speech daemon that hangs mid-session is replaced by the clip
//!   voice.

pub use rochade_core::speech::{mode, queue, voice};

pub mod backend;
mod bundled_clips;
pub mod clips;
pub mod screen_reader_api;
pub mod service;
mod speech_thread;
pub mod system;
mod voice_choice;
pub mod watchdog;

pub use backend::{
    Finished, Recorded, RecordingBackend, RecordingLog, Silence, SpeechBackend, SpeechError,
    Spoken, VoiceSettings,
};
pub use clips::{ClipStore, ClipVoice, save_user_clip, user_clip_dir, vocabulary};
pub use mode::{SpeechMode, UnknownSpeechMode};
pub use queue::{Command, SpeechQueue, UtteranceKey};
pub use service::{
    BackendChoice, Fallback, SpeechConfig, SpeechHandle, SpeechService, UnknownBackend,
    speak_all_blocking,
};
pub use system::SystemSpeech;
pub use voice::{VoiceInfo, VoiceMatch, choose_voice};
