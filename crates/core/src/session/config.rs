//! How the session behaves: the mode of play, the languages, the time
//! control and the practice opponent, as the shell hands them in
//! (`Event::ConfigChanged`) and the session hands back when a practice key
//! changed them (`Effect::ConfigChanged`).

use serde::{Deserialize, Serialize};
use shakmaty::Color;

use super::practice::Practice;
use crate::announce::AnnounceForm;
use crate::chess::Letters;
use crate::clock::TimeControl;
use crate::words::Lang;

/// How the two players' moves reach the app (chosen at the start of a game).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Mode {
    /// The blind player's moves come from the peg-board, the sighted
    /// player's from the assistant; strict touch-move reports; the clock is
    /// spoken only on request (E.9d).
    Tournament,
    /// The assistant enters both players' moves (E.9a-c).
    Relay,
    /// Practice at home: both sides on the peg-board or keyboard, lenient.
    #[default]
    Practice,
}

/// Everything the session needs to know about how to behave.
#[derive(Clone, Debug, PartialEq)]
pub struct SessionConfig {
    pub lang: Lang,
    pub form: AnnounceForm,
    pub letters: Letters,
    pub mode: Mode,
    /// The colour the visually impaired player has (whose board is the peg-board).
    pub blind_side: Color,
    pub time_control: TimeControl,
    pub low_time_ms: Vec<u64>,
    /// Speak "Springer Gustav eins beruehrt" when a piece is lifted.
    pub announce_touched: bool,
    /// Speak low-time warnings (an earcon sounds either way).
    pub speak_low_time: bool,
    /// The computer opponent of practice mode (see [`practice`]).
    pub practice: Practice,
    /// Someone can answer the session's questions (the window; a terminal
    /// command reading lines). Not so in `rochade track`, which only
    /// prints: there the start position set up on a board after a game
    /// starts the next game at once, as every e-board program does.
    pub questions_answered: bool,
}

impl Default for SessionConfig {
    fn default() -> SessionConfig {
        SessionConfig {
            lang: Lang::De,
            form: AnnounceForm::Short,
            letters: Letters::En,
            mode: Mode::Practice,
            blind_side: Color::White,
            time_control: TimeControl::Untimed,
            low_time_ms: crate::clock::DEFAULT_LOW_TIME_MS.to_vec(),
            announce_touched: true,
            speak_low_time: true,
            practice: Practice::default(),
            questions_answered: true,
        }
    }
}
