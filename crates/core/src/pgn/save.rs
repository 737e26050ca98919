//! The save file's format: the game as PGN with the save file's extras
//! (game times, the end reason, a pending draw offer), and reading it back,
//! where anything short of one complete game is damaged, never "no game".
//! Pure: the shell's `savegame` module writes and reads the files.

use crate::chess::GameRecord;
use crate::pgn::{Games, PgnError, ReadOptions, WriteOptions};

/// The game as the save file writes it (no date filled in).
pub fn to_pgn(record: &GameRecord) -> String {
    crate::pgn::write(record, &WriteOptions::SAVE)
}

/// What a save file holds.
#[derive(Clone, Debug)]
pub enum SaveRead {
    /// There is no save file.
    Empty,
    /// A complete game.
    Intact(GameRecord),
    /// The file is damaged (cut off, overwritten, not PGN): `prefix` holds
    /// the moves read before the damage, if there are any.
    Damaged {
        prefix: Option<GameRecord>,
        error: PgnError,
    },
}

/// Reads a save file's bytes. Anything short of one complete game, ended
/// by its result token, is damaged: an empty, NUL-filled or header-only
/// file is never taken for "no game".
pub fn read_save(bytes: &[u8]) -> SaveRead {
    let mut games = Games::new(bytes, ReadOptions::default());
    let Some(game) = games.next_game() else {
        return SaveRead::Damaged {
            prefix: None,
            error: PgnError {
                line: None,
                column: None,
                message: "the file holds no game".into(),
                bad_move: None,
            },
        };
    };
    let prefix = |record: Option<GameRecord>| record.filter(|r| !r.moves().is_empty());
    match (game.error, game.record) {
        (Some(error), record) => SaveRead::Damaged {
            prefix: prefix(record),
            error,
        },
        (None, Some(record)) if game.terminated => SaveRead::Intact(record),
        (None, record) => {
            let (line, column) = games.position();
            SaveRead::Damaged {
                prefix: prefix(record),
                error: PgnError {
                    line: Some(line),
                    column,
                    message: "the file ends before the game's result (it was cut off)".into(),
                    bad_move: None,
                },
            }
        }
    }
}

/// A save-file error in one line: where, and what.
pub fn describe(error: &PgnError) -> String {
    let what = match &error.bad_move {
        Some(b) => format!("move {}: {}", b.numbered(), b.reason),
        None => error.message.clone(),
    };
    match error.place() {
        Some(place) => format!("{place}: {what}"),
        None => what,
    }
}

/// A save file's text that holds no complete game.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SaveFileError {
    /// Damaged: the place and the move that fails.
    #[error("{}", describe(.0))]
    Damaged(PgnError),
    #[error("no game in the file")]
    Empty,
}

/// Reads a save file's text back into a record; a damaged file is an error
/// naming the place and the move that fails.
pub fn from_pgn(text: &str) -> Result<GameRecord, SaveFileError> {
    match read_save(text.as_bytes()) {
        SaveRead::Intact(record) => Ok(record),
        SaveRead::Damaged { error, .. } => Err(SaveFileError::Damaged(error)),
        SaveRead::Empty => Err(SaveFileError::Empty),
    }
}
