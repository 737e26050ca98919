//! The Braille sign tables: data files under `assets/braille/`, bundled into
//! the binary and overridable from `<config folder>/braille/<file>` so an
//! expert can correct a sign without a rebuild.

use std::collections::{BTreeMap, HashMap};
use std::fmt;
use std::path::Path;

use serde::Deserialize;
use shakmaty::Role;

use super::Cell;
use crate::chess::Letters;
use crate::words::Lang;

/// A table file that could not be read or understood.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TableError {
    pub file: String,
    pub message: String,
}

impl fmt::Display for TableError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Braille table {}: {}", self.file, self.message)
    }
}

impl std::error::Error for TableError {}

/// Parses dot notation: cells separated by spaces, each a list of dot
/// numbers 1-8 (`"134"` is m); `"0"` is a blank cell; `""` is no cells.
pub fn parse_dots(text: &str) -> Result<Vec<Cell>, String> {
    text.split_whitespace()
        .map(|cell| {
            cell.chars().try_fold(0u8, |mask, c| match c {
                '0' => Ok(mask),
                '1'..='8' => Ok(mask | 1 << (c as u8 - b'1')),
                other => Err(format!(
                    "'{other}' in cell '{cell}' is not a dot number 1-8"
                )),
            })
        })
        .collect()
}

const CHESS_UK_FILE: &str = "chess-uk.toml";
const CHESS_UK: &str = include_str!("../../assets/braille/chess-uk.toml");
const LITERARY_DE: &str = include_str!("../../assets/braille/literary-de.toml");
const LITERARY_PT: &str = include_str!("../../assets/braille/literary-pt.toml");
const LITERARY_EN: &str = include_str!("../../assets/braille/literary-en.toml");

fn literary_file(lang: Lang) -> String {
    format!("literary-{}.toml", lang.code())
}

fn literary_bundled(lang: Lang) -> &'static str {
    match lang {
        Lang::De => LITERARY_DE,
        Lang::Pt => LITERARY_PT,
        Lang::En => LITERARY_EN,
    }
}

/// The user's copy of a table file if there is one, else the bundled text.
fn source(file: &str, bundled: &'static str) -> Result<String, TableError> {
    let user = crate::paths::config_dir().map(|dir| dir.join("braille").join(file));
    match user {
        Some(path) if path.is_file() => read_user_file(&path, file),
        _ => Ok(bundled.to_owned()),
    }
}

fn read_user_file(path: &Path, file: &str) -> Result<String, TableError> {
    std::fs::read_to_string(path).map_err(|e| TableError {
        file: file.into(),
        message: format!("cannot read {}: {e}", path.display()),
    })
}

fn cells_of(file: &str, key: &str, dots: &str) -> Result<Vec<Cell>, TableError> {
    parse_dots(dots).map_err(|message| TableError {
        file: file.into(),
        message: format!("{key}: {message}"),
    })
}

fn toml_error(file: &str, e: toml::de::Error) -> TableError {
    TableError {
        file: file.into(),
        message: e.to_string(),
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ChessFile {
    digits: BTreeMap<char, String>,
    files: BTreeMap<char, String>,
    pieces: BTreeMap<String, PieceFile>,
    signs: ChessSignsFile,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PieceFile {
    king: String,
    queen: String,
    rook: String,
    bishop: String,
    knight: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ChessSignsFile {
    capture: String,
    check: String,
    capture_check: String,
    mate: String,
    castle_short: String,
    castle_long: String,
    promotion: String,
    en_passant: String,
    draw_offer: String,
    black_starts: String,
    result_white: String,
    result_black: String,
    result_draw: String,
    result_unfinished: String,
}

/// The chess code: how moves, move numbers and results are written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChessCode {
    /// Lower-cell digits 0-9.
    pub digits: [Vec<Cell>; 10],
    /// Files a-h.
    pub files: [Vec<Cell>; 8],
    /// King, queen, rook, bishop, knight in the chosen letters.
    pub pieces: [Vec<Cell>; 5],
    pub capture: Vec<Cell>,
    pub check: Vec<Cell>,
    pub capture_check: Vec<Cell>,
    pub mate: Vec<Cell>,
    pub castle_short: Vec<Cell>,
    pub castle_long: Vec<Cell>,
    pub promotion: Vec<Cell>,
    pub en_passant: Vec<Cell>,
    pub draw_offer: Vec<Cell>,
    pub black_starts: Vec<Cell>,
    pub result_white: Vec<Cell>,
    pub result_black: Vec<Cell>,
    pub result_draw: Vec<Cell>,
    pub result_unfinished: Vec<Cell>,
}

impl ChessCode {
    /// The user's table if present (`<config>/braille/chess-uk.toml`), else
    /// the bundled one.
    pub fn load(letters: Letters) -> Result<ChessCode, TableError> {
        ChessCode::parse(&source(CHESS_UK_FILE, CHESS_UK)?, letters)
    }

    /// The table bundled into the binary.
    pub fn bundled(letters: Letters) -> ChessCode {
        ChessCode::parse(CHESS_UK, letters).expect("the bundled chess table is valid (tested)")
    }

    pub fn parse(text: &str, letters: Letters) -> Result<ChessCode, TableError> {
        let f = CHESS_UK_FILE;
        let file: ChessFile = toml::from_str(text).map_err(|e| toml_error(f, e))?;
        let get = |map: &BTreeMap<char, String>,
                   key: char,
                   section: &str|
         -> Result<Vec<Cell>, TableError> {
            let dots = map.get(&key).ok_or_else(|| TableError {
                file: f.into(),
                message: format!("[{section}] has no entry for '{key}'"),
            })?;
            cells_of(f, &format!("{section}.{key}"), dots)
        };
        let mut digits: [Vec<Cell>; 10] = Default::default();
        for (i, slot) in digits.iter_mut().enumerate() {
            *slot = get(&file.digits, char::from(b'0' + i as u8), "digits")?;
        }
        let mut files: [Vec<Cell>; 8] = Default::default();
        for (i, slot) in files.iter_mut().enumerate() {
            *slot = get(&file.files, char::from(b'a' + i as u8), "files")?;
        }
        let set = file.pieces.get(letters.code()).ok_or_else(|| TableError {
            file: f.into(),
            message: format!("no [pieces.{}] table", letters.code()),
        })?;
        let key = |name: &str| format!("pieces.{}.{name}", letters.code());
        let pieces = [
            cells_of(f, &key("king"), &set.king)?,
            cells_of(f, &key("queen"), &set.queen)?,
            cells_of(f, &key("rook"), &set.rook)?,
            cells_of(f, &key("bishop"), &set.bishop)?,
            cells_of(f, &key("knight"), &set.knight)?,
        ];
        let s = &file.signs;
        let sign = |name: &str, dots: &str| cells_of(f, &format!("signs.{name}"), dots);
        Ok(ChessCode {
            digits,
            files,
            pieces,
            capture: sign("capture", &s.capture)?,
            check: sign("check", &s.check)?,
            capture_check: sign("capture_check", &s.capture_check)?,
            mate: sign("mate", &s.mate)?,
            castle_short: sign("castle_short", &s.castle_short)?,
            castle_long: sign("castle_long", &s.castle_long)?,
            promotion: sign("promotion", &s.promotion)?,
            en_passant: sign("en_passant", &s.en_passant)?,
            draw_offer: sign("draw_offer", &s.draw_offer)?,
            black_starts: sign("black_starts", &s.black_starts)?,
            result_white: sign("result_white", &s.result_white)?,
            result_black: sign("result_black", &s.result_black)?,
            result_draw: sign("result_draw", &s.result_draw)?,
            result_unfinished: sign("result_unfinished", &s.result_unfinished)?,
        })
    }

    /// The piece letter's cells; pawns have none.
    pub fn piece(&self, role: Role) -> &[Cell] {
        match role {
            Role::King => &self.pieces[0],
            Role::Queen => &self.pieces[1],
            Role::Rook => &self.pieces[2],
            Role::Bishop => &self.pieces[3],
            Role::Knight => &self.pieces[4],
            Role::Pawn => &[],
        }
    }

    /// A number in lower-cell digits, without a number sign.
    pub fn number(&self, n: u32, out: &mut Vec<Cell>) {
        for d in n.to_string().bytes() {
            out.extend_from_slice(&self.digits[usize::from(d - b'0')]);
        }
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct LiteraryFile {
    signs: LiterarySignsFile,
    digits: BTreeMap<char, String>,
    numeric: BTreeMap<char, String>,
    chars: BTreeMap<char, String>,
    labels: Labels,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct LiterarySignsFile {
    capital: String,
    capital_word: String,
    number: String,
    letter_after_number: String,
    unknown: String,
}

/// Header words in one language (used by the Braille and the text
/// scoresheet).
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Labels {
    pub event: String,
    pub site: String,
    pub date: String,
    pub round: String,
    pub white: String,
    pub black: String,
    pub time_control: String,
    pub result: String,
    /// The move-number column's heading.
    #[serde(rename = "move")]
    pub move_word: String,
}

/// Uncontracted literary Braille for one language.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LiteraryTable {
    pub lang: Lang,
    pub capital: Vec<Cell>,
    pub capital_word: Vec<Cell>,
    pub number: Vec<Cell>,
    pub letter_after_number: Vec<Cell>,
    pub unknown: Vec<Cell>,
    /// Digits 0-9 as written after the number sign.
    pub digits: [Vec<Cell>; 10],
    /// Characters that continue a number, with their cells inside it.
    pub numeric: HashMap<char, Vec<Cell>>,
    /// Lower-case letters, accented letters, punctuation.
    pub chars: HashMap<char, Vec<Cell>>,
    pub labels: Labels,
}

impl LiteraryTable {
    /// The user's table if present (`<config>/braille/literary-<lang>.toml`),
    /// else the bundled one.
    pub fn load(lang: Lang) -> Result<LiteraryTable, TableError> {
        LiteraryTable::parse(&source(&literary_file(lang), literary_bundled(lang))?, lang)
    }

    pub fn bundled(lang: Lang) -> LiteraryTable {
        LiteraryTable::parse(literary_bundled(lang), lang)
            .expect("the bundled literary tables are valid (tested)")
    }

    pub fn parse(text: &str, lang: Lang) -> Result<LiteraryTable, TableError> {
        let f = literary_file(lang);
        let file: LiteraryFile = toml::from_str(text).map_err(|e| toml_error(&f, e))?;
        let mut digits: [Vec<Cell>; 10] = Default::default();
        for (i, slot) in digits.iter_mut().enumerate() {
            let key = char::from(b'0' + i as u8);
            let dots = file.digits.get(&key).ok_or_else(|| TableError {
                file: f.clone(),
                message: format!("[digits] has no entry for '{key}'"),
            })?;
            *slot = cells_of(&f, &format!("digits.{key}"), dots)?;
        }
        let map = |m: &BTreeMap<char, String>,
                   section: &str|
         -> Result<HashMap<char, Vec<Cell>>, TableError> {
            m.iter()
                .map(|(&c, dots)| Ok((c, cells_of(&f, &format!("{section}.{c}"), dots)?)))
                .collect()
        };
        let s = &file.signs;
        Ok(LiteraryTable {
            lang,
            capital: cells_of(&f, "signs.capital", &s.capital)?,
            capital_word: cells_of(&f, "signs.capital_word", &s.capital_word)?,
            number: cells_of(&f, "signs.number", &s.number)?,
            letter_after_number: cells_of(&f, "signs.letter_after_number", &s.letter_after_number)?,
            unknown: cells_of(&f, "signs.unknown", &s.unknown)?,
            digits,
            numeric: map(&file.numeric, "numeric")?,
            chars: map(&file.chars, "chars")?,
            labels: file.labels,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dot_notation() {
        assert_eq!(
            parse_dots("1 134 0 12345678").unwrap(),
            vec![0x01, 0x0D, 0x00, 0xFF]
        );
        assert_eq!(parse_dots("").unwrap(), Vec::<Cell>::new());
        assert!(parse_dots("19").unwrap_err().contains("'9'"));
    }

    #[test]
    fn bundled_tables_parse() {
        for letters in Letters::ALL {
            let code = ChessCode::parse(CHESS_UK, letters).unwrap();
            assert!(code.pieces.iter().all(|p| p.len() == 1), "{letters}");
        }
        for lang in Lang::ALL {
            let table = LiteraryTable::parse(literary_bundled(lang), lang).unwrap();
            assert_eq!(table.chars[&'a'], vec![0x01]);
        }
    }

    #[test]
    fn a_broken_table_names_file_and_key() {
        let broken = CHESS_UK.replace("capture = \"56\"", "capture = \"5x\"");
        let err = ChessCode::parse(&broken, Letters::En).unwrap_err();
        assert_eq!(err.file, "chess-uk.toml");
        assert!(err.message.contains("signs.capture"), "{err}");
    }
}
