//! Which board each seat plays on: the blind player's own ("My board") and
//! the opponent's, by make, as the settings store them.

use serde::{Deserialize, Serialize};

use crate::board::Format;

/// A board a seat can be played on, by make (its code is the name in the
/// settings file and on the command line).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum BoardChoice {
    /// The tactile peg-board (a sensor under every hole, occupancy only).
    Peg,
    LiBoard,
    Sentio,
    Dgt,
    Millennium,
    Certabo,
    Chessnut,
    Pegasus,
    /// No board: the moves are typed (or clicked).
    Keyboard,
}

impl BoardChoice {
    /// Every choice for the player's own board, in the settings' order:
    /// the occupancy boards (the DGT Pegasus among them: it cannot tell
    /// pieces apart), the boards that know their pieces, the keyboard.
    pub const MINE: [BoardChoice; 9] = [
        BoardChoice::Peg,
        BoardChoice::LiBoard,
        BoardChoice::Sentio,
        BoardChoice::Pegasus,
        BoardChoice::Dgt,
        BoardChoice::Millennium,
        BoardChoice::Certabo,
        BoardChoice::Chessnut,
        BoardChoice::Keyboard,
    ];

    /// The choices for the opponent's board: the boards that know their
    /// pieces, and the keyboard. An occupancy-only board there would need
    /// the peg-board tracker in the sighted seat, which does not exist.
    pub const OPPONENT: [BoardChoice; 5] = *BoardChoice::MINE
        .last_chunk()
        .expect("the e-boards and the keyboard end the list");

    /// The name in the settings file (and `--format` on the command line).
    pub fn code(self) -> &'static str {
        match self {
            BoardChoice::Peg => "peg",
            BoardChoice::LiBoard => "liboard",
            BoardChoice::Sentio => "sentio",
            BoardChoice::Dgt => "dgt",
            BoardChoice::Millennium => "millennium",
            BoardChoice::Certabo => "certabo",
            BoardChoice::Chessnut => "chessnut",
            BoardChoice::Pegasus => "pegasus",
            BoardChoice::Keyboard => "keyboard",
        }
    }

    /// The interface-text key of its name.
    pub fn label_key(self) -> String {
        format!("board_choice_{}", self.code())
    }

    /// The peg-board format of an occupancy-only board.
    pub fn peg_format(self) -> Option<Format> {
        match self {
            BoardChoice::Peg => Some(Format::Peg),
            BoardChoice::LiBoard => Some(Format::LiBoard),
            BoardChoice::Sentio => Some(Format::Sentio),
            _ => None,
        }
    }

    /// The peg-board choice of a format.
    pub fn of_format(format: Format) -> BoardChoice {
        match format {
            Format::Peg => BoardChoice::Peg,
            Format::LiBoard => BoardChoice::LiBoard,
            Format::Sentio => BoardChoice::Sentio,
        }
    }

    /// A board that knows its pieces (not the DGT Pegasus: a sensor under
    /// each square, no piece recognition; its e-board link feeds the
    /// peg-board's tracker).
    pub fn knows_pieces(self) -> bool {
        !matches!(self, BoardChoice::Keyboard | BoardChoice::Pegasus) && self.peg_format().is_none()
    }

    /// Reached over Bluetooth LE (the port is a device address or "auto").
    pub fn bluetooth(self) -> bool {
        matches!(self, BoardChoice::Chessnut | BoardChoice::Pegasus)
    }

    /// The e-board decoder of this make, when this build has it (each
    /// make's decoder lands on its own; one missing is said, not hidden).
    pub fn eboard(self) -> Option<crate::eboard::Kind> {
        if matches!(self, BoardChoice::Keyboard) || self.peg_format().is_some() {
            return None;
        }
        self.code().parse().ok()
    }
}

impl std::str::FromStr for BoardChoice {
    /// The name that names no board.
    type Err = String;

    fn from_str(s: &str) -> Result<BoardChoice, String> {
        BoardChoice::MINE
            .into_iter()
            .find(|c| c.code().eq_ignore_ascii_case(s.trim()))
            .ok_or_else(|| s.to_owned())
    }
}

/// Which way round the player's own e-board lies (a board that knows its
/// pieces): found from what it shows, or fixed by hand.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum BoardOrientation {
    /// Read either way round: the reading that fits the game wins.
    #[default]
    Auto,
    /// As the board reports (a Millennium: a8 first).
    Straight,
    /// Turned round (a Millennium: h1 first).
    Turned,
}

impl BoardOrientation {
    /// Every choice, in the settings' order.
    pub const ALL: [BoardOrientation; 3] = [
        BoardOrientation::Auto,
        BoardOrientation::Straight,
        BoardOrientation::Turned,
    ];

    /// The interface-text key of its name.
    pub fn label_key(self) -> &'static str {
        match self {
            BoardOrientation::Auto => "board_orientation_auto",
            BoardOrientation::Straight => "board_orientation_straight",
            BoardOrientation::Turned => "board_orientation_turned",
        }
    }

    /// The recognizer's choice.
    pub fn to_core(self) -> crate::board::OrientationChoice {
        match self {
            BoardOrientation::Auto => crate::board::OrientationChoice::Auto,
            BoardOrientation::Straight => crate::board::OrientationChoice::Straight,
            BoardOrientation::Turned => crate::board::OrientationChoice::Turned,
        }
    }
}

/// A port that asks for the board to be found by probing the ports.
pub const AUTO_PORT: &str = "auto";

/// Whether a port setting asks for probing rather than naming a port.
pub fn is_auto(port: &str) -> bool {
    port.trim().eq_ignore_ascii_case(AUTO_PORT)
}

impl super::BoardSettings {
    /// The player's own board. A settings file from before the choice
    /// existed meant the peg-board in `format`.
    pub fn my_board(&self) -> BoardChoice {
        self.mine
            .unwrap_or_else(|| BoardChoice::of_format(self.format))
    }

    /// The opponent's board. A settings file from before the choice
    /// existed meant a DGT board when `sighted_port` was set.
    pub fn opponent_board(&self) -> BoardChoice {
        self.opponent.unwrap_or(if self.sighted_port.is_some() {
            BoardChoice::Dgt
        } else {
            BoardChoice::Keyboard
        })
    }

    /// Chooses the player's own board (a peg-board's format with it).
    pub fn set_my_board(&mut self, choice: BoardChoice) {
        self.mine = Some(choice);
        if let Some(format) = choice.peg_format() {
            self.format = format;
        }
    }

    /// Chooses the opponent's board (only a board that knows its pieces,
    /// or the keyboard).
    pub fn set_opponent_board(&mut self, choice: BoardChoice) {
        if BoardChoice::OPPONENT.contains(&choice) {
            self.opponent = Some(choice);
        }
    }

    /// The port of the player's own peg-board, when that is the board and
    /// it names a port.
    pub fn peg_port(&self) -> Option<&str> {
        self.my_board().peg_format()?;
        self.port.as_deref().filter(|p| !is_auto(p))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Settings;

    #[test]
    fn an_old_settings_file_loads_to_the_same_boards() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("settings.toml");
        // A file written before the board choices: a LiBoard peg-board
        // and the sighted player's DGT board.
        std::fs::write(
            &path,
            "[board]\nport = \"/dev/ttyUSB0\"\nformat = \"liboard\"\n\
             sighted_port = \"/dev/ttyUSB1\"\n",
        )
        .unwrap();
        let loaded = Settings::load_from(&path);
        assert_eq!(loaded.warning, None);
        let b = &loaded.settings.board;
        assert_eq!(b.my_board(), BoardChoice::LiBoard);
        assert_eq!(b.port.as_deref(), Some("/dev/ttyUSB0"));
        assert_eq!(b.peg_port(), Some("/dev/ttyUSB0"));
        assert_eq!(b.opponent_board(), BoardChoice::Dgt);
        assert_eq!(b.sighted_port.as_deref(), Some("/dev/ttyUSB1"));
        // Saved again and read back: the same boards.
        loaded.settings.save_to(&path).unwrap();
        let again = Settings::load_from(&path).settings;
        assert_eq!(again.board.my_board(), BoardChoice::LiBoard);
        assert_eq!(again.board.opponent_board(), BoardChoice::Dgt);
        assert_eq!(again.board.peg_port(), Some("/dev/ttyUSB0"));

        // No sighted port: the opponent's moves are typed.
        std::fs::write(&path, "[board]\nport = \"/dev/ttyACM0\"\n").unwrap();
        let b = Settings::load_from(&path).settings.board;
        assert_eq!(b.my_board(), BoardChoice::Peg);
        assert_eq!(b.opponent_board(), BoardChoice::Keyboard);
    }

    #[test]
    fn new_choices_are_kept_and_an_occupancy_board_is_never_the_opponents() {
        let mut s = Settings::default();
        s.board.set_my_board(BoardChoice::Sentio);
        assert_eq!(s.board.format, Format::Sentio);
        s.board.set_my_board(BoardChoice::Dgt);
        assert_eq!(s.board.my_board(), BoardChoice::Dgt);
        assert_eq!(s.board.peg_port(), None, "a DGT board is no peg-board");
        s.board.set_opponent_board(BoardChoice::Millennium);
        s.board.set_opponent_board(BoardChoice::Peg);
        assert_eq!(s.board.opponent_board(), BoardChoice::Millennium);
        let text = toml::to_string(&s).unwrap();
        assert!(text.contains("mine = \"dgt\""), "{text}");
        assert!(text.contains("opponent = \"millennium\""), "{text}");
        let back: Settings = toml::from_str(&text).unwrap();
        assert_eq!(back.board, s.board);
        for choice in BoardChoice::OPPONENT {
            assert!(choice == BoardChoice::Keyboard || choice.knows_pieces());
        }
        assert_eq!(BoardChoice::Dgt.eboard(), Some(crate::eboard::Kind::Dgt));
        assert_eq!(BoardChoice::Peg.eboard(), None);
    }

    #[test]
    fn the_e_board_orientation_is_kept_and_reaches_the_recognizer() {
        let mut s = Settings::default();
        assert_eq!(s.board.orientation, BoardOrientation::Auto);
        assert_eq!(
            s.tracker_config().orientation,
            crate::board::OrientationChoice::Auto
        );
        s.board.orientation = BoardOrientation::Turned;
        let text = toml::to_string(&s).unwrap();
        assert!(text.contains("orientation = \"turned\""), "{text}");
        let back: Settings = toml::from_str(&text).unwrap();
        assert_eq!(back.board.orientation, BoardOrientation::Turned);
        assert_eq!(
            back.tracker_config().orientation,
            crate::board::OrientationChoice::Turned
        );
        // A file from before the setting: found from what the board shows.
        let old: Settings = toml::from_str("[board]\nmine = \"millennium\"\n").unwrap();
        assert_eq!(old.board.orientation, BoardOrientation::Auto);
    }
}
