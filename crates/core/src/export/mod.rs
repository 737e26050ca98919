//! Scoresheet exports (pure): Braille (Unicode, BRF, PEF), PGN and a
//! printable text scoresheet. The GUI and `rochade export` both build an
//! [`Exporter`] in the shell (the shell's `louis::exporter` loads the tables
//! and liblouis) and call [`Exporter::render`], which is pure.

pub mod text;

use shakmaty::Position;

use std::sync::Arc;

use crate::braille::{
    self, Coding, Layout, LayoutError, PefMeta, Scoresheet, SheetOptions, TableError, Tables,
    Translator,
};
use crate::chess::{GameRecord, Letters};
use crate::words::Lang;

pub use crate::pgn::{PgnError, read_all_pgn, read_pgn, write_pgn};
pub use text::text_scoresheet;

/// An output format.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, strum::Display, strum::EnumString, strum::IntoStaticStr,
)]
#[strum(
    serialize_all = "lowercase",
    ascii_case_insensitive,
    parse_err_ty = UnknownFormat,
    parse_err_fn = unknown_format
)]
#[derive(strum::EnumCount, strum::VariantArray)]
pub enum Format {
    /// Unicode Braille text (U+2800 block).
    Unicode,
    /// Braille Ready Format: North American Braille ASCII.
    Brf,
    /// Portable Embosser Format 1.0 (XML).
    Pef,
    Pgn,
    /// Printable text scoresheet.
    Text,
}

impl Format {
    /// Every variant, in declaration order (derived, so none is left out).
    pub const ALL: [Format; <Format as strum::EnumCount>::COUNT] =
        *<Format as strum::VariantArray>::VARIANTS
            .first_chunk()
            .expect("every variant");

    pub fn code(self) -> &'static str {
        self.into()
    }

    /// The usual file name extension.
    pub fn extension(self) -> &'static str {
        match self {
            Format::Unicode => "txt",
            Format::Brf => "brf",
            Format::Pef => "pef",
            Format::Pgn => "pgn",
            Format::Text => "txt",
        }
    }

    /// Whether the output is a Braille scoresheet.
    pub fn is_braille(self) -> bool {
        matches!(self, Format::Unicode | Format::Brf | Format::Pef)
    }
}

/// An output format's name that names none (as given).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown format '{0}' (use brf, pef, unicode, pgn or text)")]
pub struct UnknownFormat(pub String);

fn unknown_format(s: &str) -> UnknownFormat {
    UnknownFormat(s.to_owned())
}

/// Literary Braille without (the default) or with contractions.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Grade {
    #[default]
    Uncontracted,
    Contracted,
}

/// The user's choices for an export.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ExportOptions {
    /// Piece letters in Braille and in the text scoresheet.
    pub letters: Letters,
    /// Language of header words and of literary Braille.
    pub lang: Lang,
    /// Braille page size.
    pub layout: Layout,
    /// Contracted or uncontracted literary Braille in the header.
    pub grade: Grade,
    /// Capture and check signs, or the minimal coding without them.
    pub coding: Coding,
    /// A legend page listing the signs (on by default).
    pub legend: bool,
    /// A diagram of a set-up starting position.
    pub diagram: bool,
}

impl Default for ExportOptions {
    fn default() -> ExportOptions {
        ExportOptions {
            letters: Letters::En,
            lang: Lang::En,
            layout: Layout::default(),
            grade: Grade::Uncontracted,
            coding: Coding::Full,
            legend: true,
            diagram: false,
        }
    }
}

impl ExportOptions {
    fn sheet(&self) -> SheetOptions {
        SheetOptions {
            layout: self.layout,
            coding: self.coding,
            legend: self.legend,
            diagram: self.diagram,
        }
    }
}

/// Why an export failed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ExportError {
    #[error(transparent)]
    Table(#[from] TableError),
    #[error(transparent)]
    Layout(#[from] LayoutError),
}

/// Exports with the tables and the literary translator it was given.
#[derive(Clone)]
pub struct Exporter {
    pub options: ExportOptions,
    pub tables: Tables,
    pub literary: Arc<dyn Translator>,
}

impl std::fmt::Debug for Exporter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Exporter")
            .field("options", &self.options)
            .field("language", &self.literary.language())
            .finish_non_exhaustive()
    }
}

impl Exporter {
    pub fn new(options: ExportOptions, tables: Tables, literary: Arc<dyn Translator>) -> Exporter {
        Exporter {
            options,
            tables,
            literary,
        }
    }

    /// The Braille scoresheet as pages of cells.
    pub fn scoresheet(&self, record: &GameRecord) -> Result<Scoresheet, ExportError> {
        Ok(braille::scoresheet(
            record,
            &self.tables.chess,
            &self.tables.literary,
            self.literary.as_ref(),
            self.options.sheet(),
        )?)
    }

    /// Every game of a file as one Braille book (legend, contents page,
    /// each game from a page of its own; [`braille::book`]).
    pub fn book(&self, records: &[GameRecord]) -> Result<Scoresheet, ExportError> {
        Ok(braille::book(
            records,
            &self.tables.chess,
            &self.tables.literary,
            self.literary.as_ref(),
            self.options.sheet(),
        )?)
    }

    /// Every game of a file in one format: a Braille book, or the games
    /// one after another (PGN, text).
    pub fn render_all(
        &self,
        records: &[GameRecord],
        format: Format,
    ) -> Result<Vec<u8>, ExportError> {
        Ok(match format {
            Format::Unicode => self.book(records)?.to_unicode().into_bytes(),
            Format::Brf => self.book(records)?.to_brf(),
            Format::Pef => {
                let book = self.book(records)?;
                book.to_pef(&book_meta(records, self.literary.language(), &book))
                    .into_bytes()
            }
            Format::Pgn | Format::Text => {
                let mut out = Vec::new();
                for (i, record) in records.iter().enumerate() {
                    if i > 0 {
                        out.push(b'\n');
                    }
                    out.extend(self.render(record, format)?);
                }
                out
            }
        })
    }

    /// The game in one format, as the bytes of the file (UTF-8 for all but
    /// BRF, which is ASCII).
    pub fn render(&self, record: &GameRecord, format: Format) -> Result<Vec<u8>, ExportError> {
        Ok(match format {
            Format::Unicode => self.scoresheet(record)?.to_unicode().into_bytes(),
            Format::Brf => self.scoresheet(record)?.to_brf(),
            Format::Pef => {
                let sheet = self.scoresheet(record)?;
                sheet
                    .to_pef(&pef_meta(record, self.literary.language(), &sheet))
                    .into_bytes()
            }
            Format::Pgn => write_pgn(record).into_bytes(),
            Format::Text => text_scoresheet(
                record,
                self.options.letters,
                &self.tables.literary.labels,
                &self.tables.literary.words,
            )
            .into_bytes(),
        })
    }
}

/// FNV-1a: a stable identifier from the content (no clock, no randomness,
/// so the same game gives the same file).
fn fnv1a(bytes: impl IntoIterator<Item = u8>, mut hash: u64) -> u64 {
    for b in bytes {
        hash ^= u64::from(b);
        hash = hash.wrapping_mul(0x0100_0000_01b3);
    }
    hash
}

/// PGN `YYYY.MM.DD` as `YYYY-MM-DD`, if fully known.
fn iso_date(pgn_date: &str) -> Option<String> {
    let parts: Vec<&str> = pgn_date.trim().split('.').collect();
    let ok = parts.len() == 3
        && [4, 2, 2]
            .iter()
            .zip(&parts)
            .all(|(&n, p)| p.len() == n && p.bytes().all(|b| b.is_ascii_digit()));
    ok.then(|| parts.join("-"))
}

/// A stable hash of the pages' cells.
fn pages_hash(sheet: &Scoresheet) -> u64 {
    let mut hash = 0xcbf2_9ce4_8422_2325;
    for page in &sheet.pages {
        for line in page {
            hash = fnv1a(line.iter().copied().chain([0xFF]), hash);
        }
    }
    hash
}

/// A book's PEF metadata: the event as its title (else the first game's
/// players), the first game's date.
fn book_meta(records: &[GameRecord], language: &str, book: &Scoresheet) -> PefMeta {
    let event = records
        .iter()
        .map(|r| r.tags.event.trim())
        .find(|e| !e.is_empty() && e.chars().any(|c| c != '?'));
    let title = match (event, records.first()) {
        (Some(event), _) => event.to_owned(),
        (None, Some(r)) => format!("{} - {}", r.tags.white.trim(), r.tags.black.trim()),
        (None, None) => String::new(),
    };
    PefMeta {
        identifier: format!("urn:rochade:book:{:016x}", pages_hash(book)),
        title,
        date: records.first().and_then(|r| iso_date(&r.tags.date)),
        language: language.to_owned(),
    }
}

fn pef_meta(record: &GameRecord, language: &str, sheet: &Scoresheet) -> PefMeta {
    let mut hash = pages_hash(sheet);
    hash = fnv1a(
        record.start_position().fullmoves().get().to_le_bytes(),
        hash,
    );
    let t = &record.tags;
    let mut title = format!("{} - {}", t.white.trim(), t.black.trim());
    if t.event.trim() != "?" && !t.event.trim().is_empty() {
        title.push_str(", ");
        title.push_str(t.event.trim());
    }
    PefMeta {
        identifier: format!("urn:rochade:scoresheet:{hash:016x}"),
        title,
        date: iso_date(&t.date),
        language: language.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_parse_and_name_themselves() {
        for f in Format::ALL {
            assert_eq!(f.code().parse::<Format>().unwrap(), f);
        }
        let err = "docx".parse::<Format>().unwrap_err();
        assert_eq!(err, UnknownFormat("docx".into()));
        assert!(err.to_string().contains("brf"));
    }

    #[test]
    fn dates_for_pef() {
        assert_eq!(iso_date("2024.05.17").as_deref(), Some("2024-05-17"));
        assert_eq!(iso_date("2024.??.??"), None);
    }
}
