//! The window's title and accessible name.

use shakmaty::Color;

use super::text::UiText;
use crate::chess::Letters;
use crate::session::Mode;

/// The window's accessible name, which a screen reader says on entering
/// the window and in "where am I": "Rochade – Anna Blin vs Bert Sighte",
/// or the mode when no player is named. It does not change with every move
/// (a screen reader re-presents a window whose name changes, and that
/// would push the move off the Braille line).
pub fn accessible_window_name(white: &str, black: &str, mode: Mode, t: &UiText) -> String {
    // PGN's "?" is an unknown name.
    fn clean(n: &str) -> &str {
        Some(n.trim()).filter(|n| *n != "?").unwrap_or("")
    }
    let (white, black) = (clean(white), clean(black));
    let what = if white.is_empty() && black.is_empty() {
        t.get(match mode {
            Mode::Tournament => "mode_tournament",
            Mode::Relay => "mode_relay",
            Mode::Practice => "mode_practice",
        })
    } else {
        let name = |n: &str, side| {
            if n.is_empty() {
                side_name(t, side)
            } else {
                n.to_owned()
            }
        };
        format!(
            "{} {} {}",
            name(white, shakmaty::Color::White),
            t.get("versus"),
            name(black, shakmaty::Color::Black)
        )
    };
    format!("{} – {what}", t.get("window_title"))
}

/// The window title says the game state, so a screen reader's "read
/// title" answers where the game is: "Rochade – 12. Nf3 – Black to move",
/// or the result once the game is over.
pub fn window_title(record: &crate::chess::GameRecord, letters: Letters, t: &UiText) -> String {
    let mut parts = vec!["Rochade".to_string()];
    if let Some(row) = record.rows().last() {
        // The last move: "12. Nf3" for White's, "12... Nf6" for Black's.
        let last = match (row.white, row.black) {
            (_, Some(m)) => Some(("...", m)),
            (Some(m), None) => Some((".", m)),
            (None, None) => None,
        };
        if let Some((dots, m)) = last {
            let san = letters.localise_san(&m.san_string());
            parts.push(format!("{}{dots} {san}", row.number));
        }
    }
    if record.is_over() {
        parts.push(format!("{}: {}", t.get("result"), record.result_str()));
    } else {
        parts.push(format!(
            "{} {}",
            side_name(t, record.turn()),
            t.get("to_move")
        ));
    }
    parts.join(" – ")
}

pub(super) fn side_name(t: &UiText, c: Color) -> String {
    t.get(match c {
        Color::White => "white",
        Color::Black => "black",
    })
}
