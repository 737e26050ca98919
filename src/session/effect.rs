//! What the session core asks the world to do. The shell (speech thread,
//! audio thread, serial thread, GUI, command line) carries effects out; the
//! core never does I/O itself.

use serde::Serialize;

use crate::words::{Lang, Utterance};

/// How urgent a piece of speech is. A higher priority interrupts lower
/// priority speech that is still playing; equal priorities queue in order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Priority {
    /// Answers to browsing: square contents, piece lists. Cut off freely.
    Info,
    /// Clock readings and other answers the player asked for.
    Answer,
    /// Move announcements, touched pieces, board guidance.
    Move,
    /// Errors, illegal moves, flag fall, link lost: interrupts everything.
    Alert,
}

/// One thing to say.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Speech {
    pub text: Utterance,
    pub lang: Lang,
    pub priority: Priority,
}

/// A short synthesised sound. Each can be switched off in the settings.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Earcon {
    Touched,
    MoveAccepted,
    Illegal,
    Mismatch,
    InSync,
    LinkLost,
    LinkRestored,
    LowTime,
    FlagFall,
}

impl Earcon {
    pub const ALL: [Earcon; 9] = [
        Earcon::Touched,
        Earcon::MoveAccepted,
        Earcon::Illegal,
        Earcon::Mismatch,
        Earcon::InSync,
        Earcon::LinkLost,
        Earcon::LinkRestored,
        Earcon::LowTime,
        Earcon::FlagFall,
    ];
}
