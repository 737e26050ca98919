//! Speech, the pure parts: the scheduler and the choices it needs.
//!
//! * [`queue`] is the pure scheduler (priorities, interruption, resumption);
//! * [`voice`] chooses a system voice for a language;
//! * [`mode`] says who speaks (the app, the screen reader, or both);
//! * [`vocab`] is what the session says in: [`Speech`], [`Priority`].
//!
//! The backends and the speech thread are the shell's (the `rochade`
//! crate's `speech` module).

pub mod mode;
pub mod queue;
pub mod vocab;
pub mod voice;

pub use mode::{SpeechMode, UnknownSpeechMode};
pub use queue::{Command, SpeechQueue, UtteranceKey};
pub use vocab::{Priority, Speech, SpeechClass};
pub use voice::{VoiceInfo, VoiceMatch, choose_voice};
