//! One game read from a PGN file, as `rochade export` and `rochade review`
//! read it and the window opens it for review: the file capped, UTF-8, no
//! NUL bytes, errors placed by line and column.

use std::path::{Path, PathBuf};

use crate::chess::GameRecord;

/// Reads game `index` (from 0) of the PGN file at `path`; the error names
/// the file and says what is wrong, in a sentence for the user.
pub fn read_game(path: &Path, index: usize) -> Result<GameRecord, String> {
    let (name, text) = file_text(path)?;
    crate::export::read_pgn(&text, index).map_err(|e| format!("{name}: {e}"))
}

/// Reads every game of the PGN file at `path` (a game that cannot be read
/// is an error naming it).
pub fn read_all_games(path: &Path) -> Result<Vec<GameRecord>, String> {
    let (name, text) = file_text(path)?;
    crate::export::read_all_pgn(&text).map_err(|e| format!("{name}: {e}"))
}

/// Reads every game of the PGN text on standard input.
pub fn read_all_games_stdin() -> Result<Vec<GameRecord>, String> {
    let text = pgn_text("stdin", stdin_bytes()?)?;
    crate::export::read_all_pgn(&text).map_err(|e| format!("stdin: {e}"))
}

/// The PGN file's name (for errors) and text.
fn file_text(path: &Path) -> Result<(String, String), String> {
    let bytes = crate::read_capped::read_capped(path, crate::read_capped::PGN_CAP)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let name = path.display().to_string();
    let text = pgn_text(&name, bytes)?;
    Ok((name, text))
}

/// Reads game `index` (from 0) of the PGN text on standard input, at most
/// as much as a file may hold; errors name it "stdin".
pub fn read_game_stdin(index: usize) -> Result<GameRecord, String> {
    let text = pgn_text("stdin", stdin_bytes()?)?;
    crate::export::read_pgn(&text, index).map_err(|e| format!("stdin: {e}"))
}

/// Standard input, at most as much as a PGN file may hold.
fn stdin_bytes() -> Result<Vec<u8>, String> {
    use std::io::Read;
    let mut bytes = Vec::new();
    std::io::stdin()
        .lock()
        .take(crate::read_capped::PGN_CAP + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| format!("cannot read stdin: {e}"))?;
    if bytes.len() as u64 > crate::read_capped::PGN_CAP {
        return Err(format!(
            "stdin: more than {} MB, too large for a PGN",
            crate::read_capped::PGN_CAP >> 20
        ));
    }
    Ok(bytes)
}

/// PGN `bytes` read from `name` (said in errors) as text: UTF-8, no NUL.
fn pgn_text(name: &str, bytes: Vec<u8>) -> Result<String, String> {
    let place = |bytes: &[u8], at: usize| {
        let (line, column) = crate::text::line_column(bytes, at);
        format!("line {line}, column {column}")
    };
    let text = String::from_utf8(bytes).map_err(|e| {
        let at = place(e.as_bytes(), e.utf8_error().valid_up_to());
        format!("{name}: {at}: not UTF-8 text")
    })?;
    // NUL bytes (a file overwritten by a crash, a disk image) are no PGN.
    if let Some(at) = text.find('\0') {
        return Err(format!(
            "{name}: {}: not a PGN text (a NUL byte)",
            place(text.as_bytes(), at)
        ));
    }
    Ok(text)
}

/// A path as the user typed it, `~/` standing for the home folder.
pub fn typed_path(text: &str) -> PathBuf {
    let text = text.trim();
    match text.strip_prefix("~/") {
        Some(rest) => std::env::home_dir().map_or_else(|| text.into(), |home| home.join(rest)),
        None => PathBuf::from(text),
    }
}
