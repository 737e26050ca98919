//! Speech's vocabulary: one thing to say ([`Speech`]) and how urgent it is
//! ([`Priority`], [`SpeechClass`]). Below the session, which speaks in these
//! words, so that the speech scheduler ([`super::queue`]) and the shell's
//! speech thread need nothing of the session's.

use serde::Serialize;

use crate::words::{Lang, Utterance};

/// How urgent a piece of speech is. A higher priority interrupts lower
/// priority speech that is still playing; equal priorities queue in order.
/// The priorities fall into three classes ([`SpeechClass`]) with their own
/// queue rules (see [`crate::speech::queue`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Priority {
    /// Board guidance and status: lowest, coalesced, dropped when stale.
    Guidance,
    /// Answers to browsing: square contents, piece lists. Cut off freely.
    Info,
    /// Clock readings and other answers the player asked for.
    Answer,
    /// Questions (confirm a takeback, resume the game?): never dropped,
    /// never ahead of a move, and no louder than a screen reader's own
    /// speech (a question at alert level made Orca wait 6 s behind it).
    Question,
    /// Move announcements and touched pieces.
    Move,
    /// Errors, illegal moves, flag fall, link lost: interrupts everything.
    Alert,
}

/// The three classes of speech, as screen readers schedule them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum SpeechClass {
    /// Board guidance and status: only the newest is kept, never ahead of
    /// anything else.
    Guidance,
    /// Answers to the user's own keys: the newest replaces older ones.
    Answer,
    /// Moves and alerts: first, never dropped.
    Urgent,
}

impl Priority {
    pub fn class(self) -> SpeechClass {
        match self {
            Priority::Guidance => SpeechClass::Guidance,
            Priority::Info | Priority::Answer => SpeechClass::Answer,
            Priority::Question | Priority::Move | Priority::Alert => SpeechClass::Urgent,
        }
    }
}

/// One thing to say.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Speech {
    pub text: Utterance,
    pub lang: Lang,
    pub priority: Priority,
}
