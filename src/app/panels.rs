//! The main window's panels beside the game's board, each with its own
//! state (the board is [`super::board_panel`]), and where the keyboard
//! goes next.

use super::focus::FocusTarget;
use super::{SimPanel, dialogs, move_input, scoresheet, spoken_history};

/// The panels of the main window.
pub(super) struct Panels {
    /// The move input: the text typed and what its widget showed.
    pub move_input: move_input::MoveInput,
    /// The scoresheet (whether a line of it has the keyboard).
    pub scoresheet: scoresheet::Scoresheet,
    /// What was said, newest last (written form, for the screen).
    pub history: spoken_history::SpokenHistory,
    /// The question's dialog and the window over the main one.
    pub dialogs: dialogs::Dialogs,
    /// The simulated peg-board, while it is shown.
    pub sim: Option<SimPanel>,
    /// The panel that takes the keyboard in the next frame.
    pub focus_request: Option<FocusTarget>,
}

impl Panels {
    /// The panels of a new window: the keyboard starts in the move input.
    pub fn new() -> Panels {
        Panels {
            move_input: move_input::MoveInput::default(),
            scoresheet: scoresheet::Scoresheet::default(),
            history: spoken_history::SpokenHistory::default(),
            dialogs: dialogs::Dialogs::default(),
            sim: None,
            focus_request: Some(FocusTarget::MoveInput),
        }
    }
}
