//! A game's state as the server sends it (`gameState`, and inside
//! `gameFull`), typed where the line is read: the moves as [`UciMove`]s,
//! the status as a [`GameStatus`], the winner as a [`Color`]. The session
//! never compares or parses the server's words.

use serde::Deserialize;
use shakmaty::Color;
use shakmaty::uci::UciMove;

use super::{color_of, number};

/// The state of a game: every move so far, the clocks, standing offers
/// and the status.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(from = "WireState")]
pub struct GameState {
    /// The moves up to the first word that is no UCI move.
    pub moves: Vec<UciMove>,
    /// That word, if the list had one: the state is no state of this
    /// game (the session says so and waits for the next one).
    pub unreadable: Option<String>,
    pub wtime: u64,
    pub btime: u64,
    pub winc: u64,
    pub binc: u64,
    pub status: GameStatus,
    /// The winner, if the server named one (`white`, `black`).
    pub winner: Option<Color>,
    pub wdraw: bool,
    pub bdraw: bool,
    pub wtakeback: bool,
    pub btakeback: bool,
}

impl Default for GameState {
    /// No move yet, the game created.
    fn default() -> GameState {
        GameState {
            moves: Vec::new(),
            unreadable: None,
            wtime: 0,
            btime: 0,
            winc: 0,
            binc: 0,
            status: GameStatus::Created,
            winner: None,
            wdraw: false,
            bdraw: false,
            wtakeback: false,
            btakeback: false,
        }
    }
}

impl GameState {
    /// The game is still being played (`created` or `started`).
    pub fn is_running(&self) -> bool {
        self.status.is_running()
    }
}

/// The `status` of a game on the Board API.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum GameStatus {
    Created,
    Started,
    Aborted,
    Mate,
    Resign,
    Stalemate,
    Timeout,
    Draw,
    OutOfTime,
    Cheat,
    NoStart,
    UnknownFinish,
    VariantEnd,
    /// A status this version does not know (a game over, some other way).
    Unknown(String),
}

impl GameStatus {
    /// The game is still being played.
    pub fn is_running(&self) -> bool {
        matches!(self, GameStatus::Created | GameStatus::Started)
    }
}

impl From<&str> for GameStatus {
    fn from(word: &str) -> GameStatus {
        match word {
            "created" => GameStatus::Created,
            "started" => GameStatus::Started,
            "aborted" => GameStatus::Aborted,
            "mate" => GameStatus::Mate,
            "resign" => GameStatus::Resign,
            "stalemate" => GameStatus::Stalemate,
            "timeout" => GameStatus::Timeout,
            "draw" => GameStatus::Draw,
            "outoftime" => GameStatus::OutOfTime,
            "cheat" => GameStatus::Cheat,
            "noStart" => GameStatus::NoStart,
            "unknownFinish" => GameStatus::UnknownFinish,
            "variantEnd" => GameStatus::VariantEnd,
            other => GameStatus::Unknown(other.to_owned()),
        }
    }
}

/// The line as it comes: words, typed by `From`.
#[derive(Deserialize)]
struct WireState {
    #[serde(default)]
    moves: String,
    #[serde(default, deserialize_with = "number::lenient")]
    wtime: u64,
    #[serde(default, deserialize_with = "number::lenient")]
    btime: u64,
    #[serde(default, deserialize_with = "number::lenient")]
    winc: u64,
    #[serde(default, deserialize_with = "number::lenient")]
    binc: u64,
    status: String,
    winner: Option<String>,
    #[serde(default)]
    wdraw: bool,
    #[serde(default)]
    bdraw: bool,
    #[serde(default)]
    wtakeback: bool,
    #[serde(default)]
    btakeback: bool,
}

impl From<WireState> for GameState {
    fn from(wire: WireState) -> GameState {
        let (moves, unreadable) = uci_moves(&wire.moves);
        GameState {
            moves,
            unreadable,
            wtime: wire.wtime,
            btime: wire.btime,
            winc: wire.winc,
            binc: wire.binc,
            status: GameStatus::from(wire.status.as_str()),
            winner: wire.winner.as_deref().and_then(color_of),
            wdraw: wire.wdraw,
            bdraw: wire.bdraw,
            wtakeback: wire.wtakeback,
            btakeback: wire.btakeback,
        }
    }
}

/// A space-separated UCI move list: the moves up to the first word that
/// is none, and that word.
pub fn uci_moves(list: &str) -> (Vec<UciMove>, Option<String>) {
    let mut moves = Vec::new();
    for word in list.split_whitespace() {
        match word.parse::<UciMove>() {
            Ok(mv) => moves.push(mv),
            Err(_) => return (moves, Some(word.to_owned())),
        }
    }
    (moves, None)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn state(line: &str) -> GameState {
        serde_json::from_str(line).expect(line)
    }

    #[test]
    fn the_line_is_typed_where_it_is_read() {
        let s = state(r#"{"moves":"e2e4 e7e5 e1g1 e7e8q","status":"resign","winner":"black"}"#);
        let words: Vec<String> = s.moves.iter().map(ToString::to_string).collect();
        assert_eq!(words, ["e2e4", "e7e5", "e1g1", "e7e8q"]);
        assert_eq!(s.unreadable, None);
        assert_eq!(s.status, GameStatus::Resign);
        assert_eq!(s.winner, Some(Color::Black));
        assert!(!s.is_running());
        assert!(state(r#"{"moves":"","status":"started"}"#).is_running());
    }

    #[test]
    fn unknown_words_are_kept_not_lost() {
        // A status a newer server sends: a game over, some other way.
        let s = state(r#"{"moves":"e2e4","status":"insideJoke","winner":"nobody"}"#);
        assert_eq!(s.status, GameStatus::Unknown("insideJoke".into()));
        assert!(!s.is_running());
        assert_eq!(s.winner, None);
        // A word that is no move: the moves before it, and the word.
        let s = state(r#"{"moves":"e2e4 e7e9 g1f3","status":"started"}"#);
        assert_eq!(s.moves, ["e2e4".parse::<UciMove>().unwrap()]);
        assert_eq!(s.unreadable.as_deref(), Some("e7e9"));
    }
}
