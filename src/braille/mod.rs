//! Braille scoresheets (pure): a game record in the style of the UK Braille
//! Chess Code, with a header in uncontracted literary Braille, laid out in
//! pages and written as Unicode Braille, BRF or PEF.
//!
//! Cells are `u8` dot masks: dot n is bit n-1 (dot 1 = 0x01 ... dot 8 =
//! 0x80). Every sign comes from the data files under `assets/braille/`
//! (see [`tables`]); `docs/braille.md` explains the choices.

mod layout;
pub mod literary;
mod moves;
mod output;
pub mod tables;

pub use layout::{Layout, LayoutError, MIN_COLS, MIN_ROWS, Scoresheet, known_date, scoresheet};
pub use moves::move_cells;
pub use output::{PefMeta, brf_byte};
pub use tables::{ChessCode, Labels, LiteraryTable, TableError};

use crate::chess::{GameRecord, Letters};
use crate::words::Lang;

/// One Braille cell as a dot mask.
pub type Cell = u8;

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
    /// The user's corrected tables where present, else the bundled ones.
    pub fn load(letters: Letters, lang: Lang) -> Result<Tables, TableError> {
        Ok(Tables {
            chess: ChessCode::load(letters)?,
            literary: LiteraryTable::load(lang)?,
        })
    }

    pub fn bundled(letters: Letters, lang: Lang) -> Tables {
        Tables {
            chess: ChessCode::bundled(letters),
            literary: LiteraryTable::bundled(lang),
        }
    }
}

/// Why a Braille scoresheet could not be made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BrailleError {
    Table(TableError),
    Layout(LayoutError),
}

impl std::fmt::Display for BrailleError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BrailleError::Table(e) => e.fmt(f),
            BrailleError::Layout(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for BrailleError {}

impl From<TableError> for BrailleError {
    fn from(e: TableError) -> BrailleError {
        BrailleError::Table(e)
    }
}

impl From<LayoutError> for BrailleError {
    fn from(e: LayoutError) -> BrailleError {
        BrailleError::Layout(e)
    }
}

/// The scoresheet as Unicode Braille pages (one string per page, lines
/// ending in `\n`), for the in-app Braille view. Loads the user's tables.
pub fn unicode_scoresheet(
    record: &GameRecord,
    letters: Letters,
    lang: Lang,
    layout: Layout,
) -> Result<Vec<String>, BrailleError> {
    let tables = Tables::load(letters, lang)?;
    Ok(scoresheet(record, &tables.chess, &tables.literary, layout)?.to_unicode_pages())
}
