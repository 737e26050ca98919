//! What the session core asks the world to do. The shell (speech thread,
//! audio thread, serial thread, GUI, command line) carries effects out; the
//! core never does I/O itself.

use super::config::SessionConfig;
use super::notice::Notice;

use crate::audio::Earcon;
use crate::speech::Speech;

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
