//! What the session core asks the world to do. The shell (speech thread,
//! audio thread, serial thread, GUI, command line) carries effects out; the
//! core never does I/O itself.

use serde::Serialize;

use super::config::SessionConfig;
use super::notice::Notice;

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

/// A short synthesised sound. Each can be switched off in the settings.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
#[derive(strum::EnumCount, strum::VariantArray)]
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
    /// Every variant, in declaration order (derived, so none is left out).
    pub const ALL: [Earcon; <Earcon as strum::EnumCount>::COUNT] =
        *<Earcon as strum::VariantArray>::VARIANTS
            .first_chunk()
            .expect("every variant");
}

/// What the session asks the world to do.
#[derive(Clone, Debug, PartialEq)]
pub enum Effect {
    Speak(Speech),
    Sound(Earcon),
    /// A fact for logs, the GUI and `rochade track`'s JSON output.
    Notice(Notice),
    /// The scoresheet changed: save it (game safety).
    SaveGame,
    /// Send a command to the peg-board (e.g. ask for a snapshot).
    BoardCommand(crate::board::HostCommand),
    /// Send a command to the sighted player's e-board (ask for the board).
    SightedBoardCommand(crate::board::HostCommand),
    /// Ask the engine thread for a move, hint, threat, evaluation or review.
    AskEngine(crate::engine::EngineRequest),
    /// Kill the engine (if running) and start it again.
    RestartEngine,
    /// The session changed the settings itself (a practice key): the
    /// shell keeps them (and saves them where it saves settings).
    ConfigChanged(SessionConfig),
    /// Online play asks for a request, a stream, or tells the front end
    /// what it said (see [`super::online`]).
    Online(crate::online::OnlineEffect),
}

impl Effect {
    /// What to say, if this effect is speech.
    pub fn speech(&self) -> Option<&Speech> {
        match self {
            Effect::Speak(s) => Some(s),
            _ => None,
        }
    }
}
