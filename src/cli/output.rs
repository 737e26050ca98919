//! The JSON lines the commands print with `--json`: one shape for each
//! event, whichever command prints it, so a program reading `rochade
//! track`, `rochade play` or `rochade online` reads a move the same way.

use std::cell::Cell;
use std::path::PathBuf;

use serde_json::{Value, json};
use shakmaty::{CastlingMode, Color};

use crate::chess::GameRecord;
use crate::session::Notice;
use crate::words::{Form, Utterance};

/// Whether the terminal's locale writes UTF-8: the first of `LC_ALL`,
/// `LC_CTYPE` and `LANG` that is set (and not empty) names it, as the C
/// library reads them; none set is the C locale, ASCII.
pub fn locale_is_utf8(var: impl Fn(&str) -> Option<String>) -> bool {
    ["LC_ALL", "LC_CTYPE", "LANG"]
        .iter()
        .find_map(|name| var(name).filter(|v| !v.is_empty()))
        .is_some_and(|value| {
            let value = value.to_ascii_lowercase();
            value.contains("utf-8") || value.contains("utf8")
        })
}

/// The form of the words the terminal prints: the spoken one (with
/// umlauts: "Läufer", "Weiß", which terminal screen readers say right)
/// where the locale is UTF-8, the ASCII written one ("Laeufer") where it
/// is not.
pub fn terminal_form() -> Form {
    if locale_is_utf8(|name| std::env::var(name).ok()) {
        Form::Spoken
    } else {
        Form::Written
    }
}

/// `words` as the terminal prints them ([`terminal_form`]).
pub fn terminal_text(words: &Utterance) -> &str {
    words.get(terminal_form())
}

/// Who made a move, as the `move` event's `by` says it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveBy {
    /// The blind player (the peg-board's side).
    Player,
    /// The other side: the sighted player, the online opponent.
    Opponent,
    /// The computer opponent of practice.
    Engine,
}

impl MoveBy {
    pub fn word(self) -> &'static str {
        match self {
            MoveBy::Player => "player",
            MoveBy::Opponent => "opponent",
            MoveBy::Engine => "engine",
        }
    }

    /// The player's side or the other, as `mover` is `player_side` or not.
    pub fn of(mover: Color, player_side: Color) -> MoveBy {
        if mover == player_side {
            MoveBy::Player
        } else {
            MoveBy::Opponent
        }
    }
}

/// The keys of every `move` event.
pub const MOVE_KEYS: [&str; 8] = [
    "event",
    "ply",
    "uci",
    "san",
    "announcement",
    "spoken",
    "source",
    "by",
];

/// The `move` event of a [`Notice::Move`] (None for any other notice):
/// `{"event":"move","ply":1,"uci":"e2e4","san":"e4","announcement":"Eva
/// vier","spoken":"Eva vier","source":"keyboard","by":"player"}`.
pub fn move_event(notice: &Notice, by: MoveBy) -> Option<Value> {
    let Notice::Move {
        ply,
        san,
        mv,
        announcement,
        spoken,
        source,
    } = notice
    else {
        return None;
    };
    Some(json!({
        "event": "move",
        "ply": ply,
        "uci": mv.to_uci(CastlingMode::Standard).to_string(),
        "san": san.to_string(),
        "announcement": announcement,
        "spoken": spoken,
        "source": source,
        "by": by.word(),
    }))
}

/// Which side made the move of ply `ply` (1-based) of a game that started
/// with `first` to move.
pub fn mover_of_ply(ply: usize, first: Color) -> Color {
    if ply % 2 == 1 { first } else { !first }
}

/// The `--pgn` file of `track`, `play` and `online`, written after every
/// move. A file that cannot be written (a full disk, a pulled stick) stops
/// the file, never the game: the failure is said once, as a `pgn_failed`
/// event and on stderr, and the return as `pgn_saved`.
#[derive(Debug)]
pub struct PgnFile {
    path: PathBuf,
    failing: Cell<bool>,
    /// The games finished this run, as PGN, kept before the current one.
    finished: std::cell::RefCell<String>,
}

impl PgnFile {
    pub fn new(path: PathBuf) -> PgnFile {
        PgnFile {
            path,
            failing: Cell::new(false),
            finished: Default::default(),
        }
    }

    /// A game is finished (the next one begins): kept in the file before
    /// the next.
    pub fn game_finished(&self, record: &GameRecord) {
        if !record.moves().is_empty() {
            let mut finished = self.finished.borrow_mut();
            *finished = super::pgn_saving::session_text(&finished, record);
        }
    }

    /// Writes `record`; the event to print when the file failed or works
    /// again (`going_on` ends the stderr line: what still goes on).
    pub fn write(&self, record: &GameRecord, going_on: &str) -> Option<Value> {
        let shown = self.path.display().to_string();
        let text = super::pgn_saving::session_text(&self.finished.borrow(), record);
        match super::write_file(&self.path, text) {
            Ok(()) if self.failing.replace(false) => {
                eprintln!("rochade: {shown} is written again");
                Some(json!({"event": "pgn_saved", "path": shown}))
            }
            Ok(()) => None,
            Err(e) if !self.failing.replace(true) => {
                eprintln!("rochade: {e}; {going_on}");
                Some(json!({"event": "pgn_failed", "path": shown, "reason": e.to_string()}))
            }
            Err(_) => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::session::Source;
    use shakmaty::{Chess, Position, Square};

    #[test]
    fn the_locale_says_whether_the_terminal_writes_utf8() {
        let env = |pairs: &'static [(&'static str, &'static str)]| {
            move |name: &str| {
                pairs
                    .iter()
                    .find(|(n, _)| *n == name)
                    .map(|(_, v)| (*v).to_owned())
            }
        };
        assert!(locale_is_utf8(env(&[("LANG", "de_DE.UTF-8")])));
        assert!(locale_is_utf8(env(&[
            ("LANG", "C"),
            ("LC_CTYPE", "pt_BR.utf8")
        ])));
        // LC_ALL wins over the others; an empty one counts as unset.
        assert!(!locale_is_utf8(env(&[
            ("LC_ALL", "C"),
            ("LANG", "C.UTF-8")
        ])));
        assert!(locale_is_utf8(env(&[("LC_ALL", ""), ("LANG", "C.UTF-8")])));
        assert!(!locale_is_utf8(env(&[("LANG", "de_DE.ISO-8859-1")])));
        assert!(!locale_is_utf8(env(&[])));
    }

    #[test]
    fn a_move_event_has_every_key() {
        let pos = Chess::default();
        let mv = pos
            .legal_moves()
            .into_iter()
            .find(|m| m.to() == Square::E4)
            .unwrap();
        let notice = Notice::Move {
            ply: 1,
            san: "e4".parse().unwrap(),
            mv,
            announcement: "Eva vier".into(),
            spoken: "Eva vier".into(),
            source: Source::PegBoard,
        };
        let value = move_event(&notice, MoveBy::Player).unwrap();
        let keys: Vec<&str> = value
            .as_object()
            .unwrap()
            .keys()
            .map(String::as_str)
            .collect();
        let mut expected = MOVE_KEYS.to_vec();
        expected.sort_unstable();
        let mut sorted = keys.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, expected);
        assert_eq!(value["uci"], "e2e4");
        assert_eq!(value["source"], "peg_board");
        assert_eq!(value["by"], "player");
        assert_eq!(mover_of_ply(1, Color::White), Color::White);
        assert_eq!(mover_of_ply(2, Color::White), Color::Black);
        assert_eq!(mover_of_ply(1, Color::Black), Color::Black);
    }
}
