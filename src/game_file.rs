//! One game read from a PGN file, as `rochade export` and `rochade review`
//! read it and the window opens it for review: the file capped, UTF-8, no
//! NUL bytes, errors placed by line and column.

use std::path::{Path, PathBuf};

use crate::chess::GameRecord;

/// Reads game `index` (from 0) of the PGN file at `path`; the error names
/// the file and says what is wrong, in a sentence for the user.
pub fn read_game(path: &Path, index: usize) -> Result<GameRecord, String> {
    let bytes = crate::read_capped::read_capped(path, crate::read_capped::PGN_CAP)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    game_in(&path.display().to_string(), bytes, index)
}

/// Reads game `index` (from 0) of the PGN text on standard input, at most
/// as much as a file may hold; errors name it "stdin".
pub fn read_game_stdin(index: usize) -> Result<GameRecord, String> {
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
    game_in("stdin", bytes, index)
}

/// Game `index` of PGN `bytes` read from `name` (said in errors).
fn game_in(name: &str, bytes: Vec<u8>, index: usize) -> Result<GameRecord, String> {
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
    crate::export::read_pgn(&text, index).map_err(|e| format!("{name}: {e}"))
}

/// A path as the user typed it, `~/` standing for the home folder.
pub fn typed_path(text: &str) -> PathBuf {
    let text = text.trim();
    match text.strip_prefix("~/") {
        Some(rest) => std::env::home_dir().map_or_else(|| text.into(), |home| home.join(rest)),
        None => PathBuf::from(text),
    }
}
