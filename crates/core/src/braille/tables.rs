//! The Braille sign tables: data files under `assets/braille/`, bundled into
//! the binary. Pure: the shell (the shell's `louis::load_tables`) reads an
//! expert's corrected copy from `<config folder>/braille/<file>` and passes
//! its text to [`ChessCode::parse`] / [`LiteraryTable::parse`].

use std::collections::BTreeMap;

use serde::Deserialize;
use shakmaty::Role;

use super::Cell;
use crate::chess::Letters;
use crate::words::Lang;

/// A table file that could not be read or understood.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("Braille table {file}: {message}")]
pub struct TableError {
    pub file: String,
    pub message: String,
}

/// A cell in dot notation with something other than a dot number.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("'{found}' in cell '{cell}' is not a dot number 1-8")]
pub struct DotsError {
    pub found: char,
    pub cell: String,
}

/// Parses dot notation: cells separated by spaces, each a list of dot
/// numbers 1-8 (`"134"` is m); `"0"` is a blank cell; `""` is no cells.
pub fn parse_dots(text: &str) -> Result<Vec<Cell>, DotsError> {
    text.split_whitespace()
        .map(|cell| {
            cell.chars().try_fold(0u8, |mask, c| match c {
                '0' => Ok(mask),
                '1'..='8' => Ok(mask | 1 << (c as u8 - b'1')),
                found => Err(DotsError {
                    found,
                    cell: cell.into(),
                }),
            })
        })
        .collect()
}

const CHESS_UK_FILE: &str = "chess-uk.toml";
const CHESS_UK: &str = include_str!("../../../../assets/braille/chess-uk.toml");
const LITERARY_DE: &str = include_str!("../../../../assets/braille/literary-de.toml");
const LITERARY_PT: &str = include_str!("../../../../assets/braille/literary-pt.toml");
const LITERARY_EN: &str = include_str!("../../../../assets/braille/literary-en.toml");

fn literary_bundled(lang: Lang) -> &'static str {
    match lang {
        Lang::De => LITERARY_DE,
        Lang::Pt => LITERARY_PT,
        Lang::En => LITERARY_EN,
    }
}

fn cells_of(file: &str, key: &str, dots: &str) -> Result<Vec<Cell>, TableError> {
    parse_dots(dots).map_err(|e| TableError {
        file: file.into(),
        message: format!("{key}: {e}"),
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
    indicator: String,
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
    black_starts: String,
    diagram_pawn: String,
    diagram_dark: String,
    diagram_light: String,
}

/// The chess code: how moves, move numbers and results are written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChessCode {
    /// Lower-cell digits 0-9.
    pub digits: [Vec<Cell>; 10],
    /// Files a-h.
    pub files: [Vec<Cell>; 8],
    /// King, queen, rook, bishop, knight in the chosen letters, each with
    /// the indicator in front where the letter is also a file letter.
    pub pieces: [Vec<Cell>; 5],
    /// Written before a piece letter that is also a file letter.
    pub indicator: Vec<Cell>,
    pub capture: Vec<Cell>,
    pub check: Vec<Cell>,
    pub capture_check: Vec<Cell>,
    pub mate: Vec<Cell>,
    pub castle_short: Vec<Cell>,
    pub castle_long: Vec<Cell>,
    pub promotion: Vec<Cell>,
    pub en_passant: Vec<Cell>,
    pub black_starts: Vec<Cell>,
    /// A pawn, an empty dark and an empty light square in a diagram.
    pub pawn_diagram: Vec<Cell>,
    pub dark_square: Vec<Cell>,
    pub light_square: Vec<Cell>,
}

impl ChessCode {
    /// The name of the table file (bundled, or the user's copy).
    pub const FILE: &'static str = CHESS_UK_FILE;

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
        let indicator = cells_of(f, &key("indicator"), &set.indicator)?;
        let mut pieces = [
            cells_of(f, &key("king"), &set.king)?,
            cells_of(f, &key("queen"), &set.queen)?,
            cells_of(f, &key("rook"), &set.rook)?,
            cells_of(f, &key("bishop"), &set.bishop)?,
            cells_of(f, &key("knight"), &set.knight)?,
        ];
        // No ambiguity by construction: a piece move must not start like a
        // pawn move, i.e. with a file letter.
        for (piece, name) in pieces
            .iter_mut()
            .zip(["king", "queen", "rook", "bishop", "knight"])
        {
            if piece.is_empty() {
                return Err(TableError {
                    file: f.into(),
                    message: format!("{} is empty", key(name)),
                });
            }
            if files.iter().any(|file| piece.starts_with(file)) {
                if indicator.is_empty() || files.iter().any(|file| indicator.starts_with(file)) {
                    return Err(TableError {
                        file: f.into(),
                        message: format!(
                            "{} starts like a file letter: set pieces.{}.indicator to a sign that is not a file letter",
                            key(name),
                            letters.code()
                        ),
                    });
                }
                piece.splice(0..0, indicator.iter().copied());
            }
        }
        let s = &file.signs;
        let sign = |name: &str, dots: &str| cells_of(f, &format!("signs.{name}"), dots);
        Ok(ChessCode {
            digits,
            files,
            pieces,
            indicator,
            capture: sign("capture", &s.capture)?,
            check: sign("check", &s.check)?,
            capture_check: sign("capture_check", &s.capture_check)?,
            mate: sign("mate", &s.mate)?,
            castle_short: sign("castle_short", &s.castle_short)?,
            castle_long: sign("castle_long", &s.castle_long)?,
            promotion: sign("promotion", &s.promotion)?,
            en_passant: sign("en_passant", &s.en_passant)?,
            black_starts: sign("black_starts", &s.black_starts)?,
            pawn_diagram: sign("diagram_pawn", &s.diagram_pawn)?,
            dark_square: sign("diagram_dark", &s.diagram_dark)?,
            light_square: sign("diagram_light", &s.diagram_light)?,
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
    labels: Labels,
    words: Words,
    legend: Legend,
    /// Missing in a user's copy made before books existed: the bundled
    /// words of its language are used.
    book: Option<BookWords>,
}

/// The words of a Braille book of several games.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BookWords {
    /// The title of the contents page.
    pub contents: String,
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
    /// The starting position of a game that did not start from the usual one.
    pub position: String,
    pub to_move_white: String,
    pub to_move_black: String,
    pub page: String,
}

/// Print forms of results and signs, and how dates are written.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Words {
    pub white_wins: String,
    pub black_wins: String,
    pub draw: String,
    pub unfinished: String,
    pub draw_offer: String,
    /// `dmy`, `mdy` or `ymd`.
    pub date_order: String,
    pub date_separator: String,
}

/// What the legend page says about each sign.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Legend {
    pub title: String,
    pub pieces: String,
    pub king: String,
    pub queen: String,
    pub rook: String,
    pub bishop: String,
    pub knight: String,
    pub indicator: String,
    pub capture: String,
    pub check: String,
    pub capture_check: String,
    pub mate: String,
    pub castle_short: String,
    pub castle_long: String,
    pub en_passant: String,
    pub draw_offer: String,
    pub black_starts: String,
    pub unfinished: String,
}

/// The words of a scoresheet in one language, as print text; a
/// [`super::Translator`] (liblouis, in the shell) turns them into cells.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LiteraryTable {
    pub lang: Lang,
    pub labels: Labels,
    pub words: Words,
    pub legend: Legend,
    pub book: BookWords,
}

impl LiteraryTable {
    /// The table file's name: `literary-<lang>.toml`.
    pub fn file_name(lang: Lang) -> String {
        format!("literary-{}.toml", lang.code())
    }

    pub fn bundled(lang: Lang) -> LiteraryTable {
        LiteraryTable::parse(literary_bundled(lang), lang)
            .expect("the bundled literary tables are valid (tested)")
    }

    pub fn parse(text: &str, lang: Lang) -> Result<LiteraryTable, TableError> {
        let f = LiteraryTable::file_name(lang);
        let file: LiteraryFile = toml::from_str(text).map_err(|e| toml_error(&f, e))?;
        if !matches!(file.words.date_order.as_str(), "dmy" | "mdy" | "ymd") {
            return Err(TableError {
                file: f,
                message: "words.date_order must be dmy, mdy or ymd".into(),
            });
        }
        let book = match file.book {
            Some(book) => book,
            None if text == literary_bundled(lang) => {
                return Err(TableError {
                    file: f,
                    message: "the bundled table has no [book] section".into(),
                });
            }
            None => LiteraryTable::bundled(lang).book,
        };
        Ok(LiteraryTable {
            lang,
            labels: file.labels,
            words: file.words,
            legend: file.legend,
            book,
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
        assert_eq!(
            parse_dots("19").unwrap_err(),
            DotsError {
                found: '9',
                cell: "19".into()
            }
        );
    }

    #[test]
    fn bundled_tables_parse() {
        for letters in Letters::ALL {
            let code = ChessCode::parse(CHESS_UK, letters).unwrap();
            for piece in &code.pieces {
                assert!(
                    !code.files.iter().any(|f| piece.starts_with(f)),
                    "{letters}"
                );
            }
        }
        for lang in Lang::ALL {
            LiteraryTable::parse(literary_bundled(lang), lang).unwrap();
        }
    }

    #[test]
    fn a_users_copy_without_book_words_takes_the_bundled_ones() {
        for lang in Lang::ALL {
            let bundled = literary_bundled(lang);
            let old = &bundled[..bundled.find("[book]").expect("a [book] section")];
            let table = LiteraryTable::parse(old, lang).unwrap();
            assert_eq!(table.book, LiteraryTable::bundled(lang).book);
        }
    }

    #[test]
    fn a_broken_table_names_file_and_key() {
        let broken = CHESS_UK.replace("capture = \"56\"", "capture = \"5x\"");
        let err = ChessCode::parse(&broken, Letters::En).unwrap_err();
        assert_eq!(err.file, "chess-uk.toml");
        assert!(err.message.contains("signs.capture"), "{err}");
    }

    #[test]
    fn a_piece_letter_like_a_file_needs_an_indicator() {
        let broken = CHESS_UK.replace("indicator = \"46\"", "indicator = \"\"");
        let err = ChessCode::parse(&broken, Letters::De).unwrap_err();
        assert!(err.message.contains("pieces.de.queen"), "{err}");
    }
}
