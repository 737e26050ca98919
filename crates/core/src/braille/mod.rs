//! Braille scoresheets (pure): a game record in the style of the UK Braille
//! Chess Code, with a header in the literary Braille of the sheet's language,
//! laid out in pages and written as Unicode Braille, BRF or PEF.
//!
//! Cells are `u8` dot masks: dot n is bit n-1 (dot 1 = 0x01 ... dot 8 =
//! 0x80). Every chess sign comes from the data files under
//! `assets/braille/` (see [`tables`]); literary text (labels, names,
//! results) goes through a [`Translator`] the shell passes in (liblouis,
//! the shell's `louis` module). `docs/braille.md` explains the choices.

mod book;
mod layout;
mod moves;
mod output;
pub mod tables;

pub use book::book;
pub use layout::{
    Layout, LayoutError, MIN_COLS, MIN_ROWS, Scoresheet, SheetOptions, known_date, local_date,
    scoresheet,
};
pub use moves::{Coding, move_cells};
pub use output::{PefMeta, brf_byte};
pub use tables::{BookWords, ChessCode, Labels, Legend, LiteraryTable, TableError, Words};

/// One Braille cell as a dot mask.
pub type Cell = u8;

/// Literary Braille for print text, in one language and grade. The shell
/// implements it with liblouis; the core only calls it.
pub trait Translator: Send + Sync {
    /// The cells of `text`; a space becomes a blank cell.
    fn translate(&self, text: &str) -> Vec<Cell>;
    /// The language of the Braille written (BCP 47, as in PEF's
    /// `dc:language`), matching the table used.
    fn language(&self) -> &str;
}

/// The Unicode Braille character of a cell (U+2800 + mask).
pub fn to_unicode_char(cell: Cell) -> char {
    char::from_u32(0x2800 + u32::from(cell)).expect("U+2800..U+28FF are characters")
}

/// A line of cells as Unicode Braille; blank cells are U+2800.
pub fn to_unicode_line(cells: &[Cell]) -> String {
    cells.iter().map(|&c| to_unicode_char(c)).collect()
}

/// Both sign tables a scoresheet needs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tables {
    pub chess: ChessCode,
    pub literary: LiteraryTable,
}

impl Tables {
    /// The tables bundled into the binary (the shell's
    /// the shell's `louis::load_tables` prefers the user's corrected copies).
    pub fn bundled(letters: crate::chess::Letters, lang: crate::words::Lang) -> Tables {
        Tables {
            chess: ChessCode::bundled(letters),
            literary: LiteraryTable::bundled(lang),
        }
    }
}
