//! SHELL, not core: literary Braille through liblouis, and the Braille sign
//! tables from the user's config folder. The pure scoresheet code
//! ([`crate::braille`], [`crate::export`]) gets both as plain values: a
//! [`Tables`] and a [`Translator`] trait object.
//!
//! liblouis is called through its C API directly (`liblouis.so` from the
//! Debian package `liblouis-dev`, the tables from `liblouis-data`): three
//! functions, so no binding crate is needed. The crates.io bindings
//! (`louis` 0.6.2 / `louis-sys` 0.6.1, last released in 2018) bundle an old
//! liblouis 3.7 and an old bindgen; liblouis has no Rust port.

use std::ffi::{CString, c_char, c_int};
use std::path::Path;
use std::sync::Mutex;

use std::sync::Arc;

use crate::braille::{Cell, ChessCode, LiteraryTable, TableError, Tables, Translator};
use crate::chess::Letters;
pub use crate::export::Grade;
use crate::export::{ExportError, ExportOptions, Exporter};
use crate::words::Lang;

#[link(name = "louis")]
unsafe extern "C" {
    fn lou_charSize() -> c_int;
    fn lou_translateString(
        table_list: *const c_char,
        inbuf: *const u32,
        inlen: *mut c_int,
        outbuf: *mut u32,
        outlen: *mut c_int,
        typeform: *mut u16,
        spacing: *mut c_char,
        mode: c_int,
    ) -> c_int;
    fn lou_getTable(table_list: *const c_char) -> *const std::ffi::c_void;
}

/// liblouis mode bits (liblouis.h): dots out, as Unicode Braille.
const DOTS_IO: c_int = 4;
const UC_BRL: c_int = 64;

/// liblouis keeps global state (its table cache); one call at a time.
static LOUIS: Mutex<()> = Mutex::new(());

/// The liblouis table for a language and grade. liblouis has no table for
/// Brazil: its Portuguese tables (`pt-pt-g1.utb`, `pt-pt-g2.ctb`) follow the
/// Grafia Braille para a Língua Portuguesa, which Portugal and Brazil share.
pub fn table_name(lang: Lang, grade: Grade) -> &'static str {
    match (lang, grade) {
        (Lang::En, Grade::Uncontracted) => "en-ueb-g1.ctb",
        (Lang::En, Grade::Contracted) => "en-ueb-g2.ctb",
        (Lang::De, Grade::Uncontracted) => "de-g0.utb",
        (Lang::De, Grade::Contracted) => "de-g2.ctb",
        (Lang::Pt, Grade::Uncontracted) => "pt-pt-g1.utb",
        (Lang::Pt, Grade::Contracted) => "pt-pt-g2.ctb",
    }
}

/// A liblouis table, checked to load.
#[derive(Clone, Debug)]
pub struct Louis {
    table: CString,
    name: &'static str,
}

/// The name the same table had in liblouis 3.7 (the German tables were
/// renamed after it): the Windows build links liblouis 3.7 (scripts/build-windows
/// says why), whose tables carry the old names.
fn older_table_name(name: &str) -> Option<&'static str> {
    match name {
        "de-g0.utb" => Some("de-de-g0.utb"),
        "de-g2.ctb" => Some("de-de-g2.ctb"),
        _ => None,
    }
}

/// Whether liblouis finds and compiles the table.
fn loads(table: &CString) -> bool {
    let _guard = LOUIS.lock().unwrap_or_else(|e| e.into_inner());
    // SAFETY: a NUL-terminated table name; liblouis returns NULL on error.
    unsafe { !lou_getTable(table.as_ptr()).is_null() }
}

impl Louis {
    pub fn new(lang: Lang, grade: Grade) -> Result<Louis, TableError> {
        let wanted = table_name(lang, grade);
        // The name the bundled liblouis knows is tried first, so that
        // liblouis logs no "cannot resolve" for the other one.
        let names: Vec<&'static str> = if cfg!(windows) {
            older_table_name(wanted)
                .into_iter()
                .chain([wanted])
                .collect()
        } else {
            std::iter::once(wanted)
                .chain(older_table_name(wanted))
                .collect()
        };
        let found = names
            .into_iter()
            .map(|name| (name, CString::new(name).expect("table names have no NUL")))
            .find(|(_, table)| loads(table));
        let Some((name, table)) = found else {
            return Err(TableError {
                file: wanted.into(),
                message: if cfg!(windows) {
                    "liblouis cannot load this table: the folder share\\liblouis\\tables \
                     beside rochade.exe is missing or incomplete (unpack the whole zip)"
                        .into()
                } else {
                    "liblouis cannot load this table: install the Debian package liblouis-data"
                        .into()
                },
            });
        };
        // SAFETY: no arguments.
        let size = unsafe { lou_charSize() };
        if size != 4 {
            return Err(TableError {
                file: name.into(),
                message: format!("liblouis built with {size}-byte characters (need 4)"),
            });
        }
        Ok(Louis { table, name })
    }

    pub fn table_name(&self) -> &'static str {
        self.name
    }
}

impl Translator for Louis {
    fn translate(&self, text: &str) -> Vec<Cell> {
        let input: Vec<u32> = text.chars().map(u32::from).collect();
        if input.is_empty() {
            return Vec::new();
        }
        let mut capacity = input.len() * 4 + 16;
        loop {
            let mut inlen = input.len() as c_int;
            let mut output = vec![0u32; capacity];
            let mut outlen = capacity as c_int;
            let _guard = LOUIS.lock().unwrap_or_else(|e| e.into_inner());
            // SAFETY: the buffers are as long as the lengths passed; the
            // table was loaded in `new`.
            let ok = unsafe {
                lou_translateString(
                    self.table.as_ptr(),
                    input.as_ptr(),
                    &mut inlen,
                    output.as_mut_ptr(),
                    &mut outlen,
                    std::ptr::null_mut(),
                    std::ptr::null_mut(),
                    DOTS_IO | UC_BRL,
                )
            };
            drop(_guard);
            if ok == 0 {
                return Vec::new();
            }
            if (inlen as usize) < input.len() && capacity < input.len() * 64 {
                capacity *= 2;
                continue;
            }
            output.truncate(outlen.max(0) as usize);
            // Scoresheets are six-dot (BRF, embossers): dots 7 and 8, which
            // some tables add to rare characters, are dropped.
            return output
                .into_iter()
                .map(|c| match c {
                    0x2800..=0x28FF => (c & 0x3F) as Cell,
                    // With dotsIO, liblouis marks dot patterns with 0x8000.
                    0x8000..=0x80FF => (c & 0x3F) as Cell,
                    _ => 0,
                })
                .collect();
        }
    }

    fn language(&self) -> &str {
        match self.name {
            n if n.starts_with("en") => "en",
            n if n.starts_with("de") => "de",
            // The tables liblouis has are European Portuguese.
            _ => "pt-PT",
        }
    }
}

const CHESS_FILE: &str = "chess-uk.toml";

/// The user's copy of a table file (`<config folder>/braille/<file>`) if
/// there is one, else `None`.
fn user_file(file: &str) -> Result<Option<String>, TableError> {
    let Some(path) = crate::paths::config_dir().map(|dir| dir.join("braille").join(file)) else {
        return Ok(None);
    };
    if !path.is_file() {
        return Ok(None);
    }
    read(&path, file).map(Some)
}

fn read(path: &Path, file: &str) -> Result<String, TableError> {
    crate::read_capped::read_text_capped(path, crate::read_capped::SMALL_CAP).map_err(|e| {
        TableError {
            file: file.into(),
            message: format!("cannot read {}: {e}", path.display()),
        }
    })
}

/// The sign tables: the user's corrected copies where present, else the
/// bundled ones.
pub fn load_tables(letters: Letters, lang: Lang) -> Result<Tables, TableError> {
    let chess = match user_file(CHESS_FILE)? {
        Some(text) => ChessCode::parse(&text, letters)?,
        None => ChessCode::bundled(letters),
    };
    let literary = match user_file(&LiteraryTable::file_name(lang))? {
        Some(text) => LiteraryTable::parse(&text, lang)?,
        None => LiteraryTable::bundled(lang),
    };
    Ok(Tables { chess, literary })
}

/// An exporter with the user's tables (or the bundled ones) and liblouis.
pub fn exporter(options: ExportOptions) -> Result<Exporter, ExportError> {
    let tables = load_tables(options.letters, options.lang)?;
    let literary = Louis::new(options.lang, options.grade)?;
    Ok(Exporter::new(options, tables, Arc::new(literary)))
}

/// An exporter with the bundled tables (never the user's) and liblouis:
/// for tests and benchmarks.
pub fn bundled_exporter(options: ExportOptions) -> Result<Exporter, ExportError> {
    let tables = Tables::bundled(options.letters, options.lang);
    let literary = Louis::new(options.lang, options.grade)?;
    Ok(Exporter::new(options, tables, Arc::new(literary)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::braille::to_unicode_line;

    #[test]
    fn liblouis_translates_in_each_language() {
        let t =
            |lang, grade, text| to_unicode_line(&Louis::new(lang, grade).unwrap().translate(text));
        assert_eq!(t(Lang::De, Grade::Uncontracted, "Müller"), "⠍⠳⠇⠇⠑⠗");
        assert_eq!(t(Lang::En, Grade::Uncontracted, "Ab"), "⠠⠁⠃");
        assert_eq!(t(Lang::Pt, Grade::Uncontracted, "João"), "⠨⠚⠕⠜⠕");
        // Contracted English: "the" is one cell.
        assert_eq!(t(Lang::En, Grade::Contracted, "the"), "⠮");
    }
}
