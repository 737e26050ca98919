//! Uncontracted literary Braille for header text (names, events, dates),
//! driven by a [`LiteraryTable`].
//!
//! Our own small translator rather than liblouis: there is no maintained
//! Rust binding, and header text needs only letters, accents, digits and
//! punctuation. The tests compare it with liblouis (`lou_translate`).

use super::Cell;
use super::tables::LiteraryTable;

/// Accented letters a table may lack, and the base letter written instead.
const BASE_LETTERS: [(&str, char); 12] = [
    ("àáâãäåā", 'a'),
    ("çćč", 'c'),
    ("èéêëēė", 'e'),
    ("ìíîïī", 'i'),
    ("ñń", 'n'),
    ("òóôõöøō", 'o'),
    ("ùúûüū", 'u'),
    ("ýÿ", 'y'),
    ("šś", 's'),
    ("žźż", 'z'),
    ("ł", 'l'),
    ("ğ", 'g'),
];

fn base_letter(c: char) -> Option<char> {
    BASE_LETTERS
        .iter()
        .find(|(set, _)| set.contains(c))
        .map(|&(_, base)| base)
}

fn push_letter(table: &LiteraryTable, lower: char, out: &mut Vec<Cell>) {
    if let Some(cells) = table.chars.get(&lower) {
        out.extend_from_slice(cells);
    } else if let Some(cells) = base_letter(lower).and_then(|b| table.chars.get(&b)) {
        out.extend_from_slice(cells);
    } else if let (Some(first), Some(second)) = ligature(lower) {
        push_letter(table, first, out);
        push_letter(table, second, out);
    } else {
        out.extend_from_slice(&table.unknown);
    }
}

/// Letters written as two when a table lacks them.
fn ligature(c: char) -> (Option<char>, Option<char>) {
    match c {
        'ß' => (Some('s'), Some('s')),
        'æ' => (Some('a'), Some('e')),
        'œ' => (Some('o'), Some('e')),
        _ => (None, None),
    }
}

fn lower(c: char) -> char {
    c.to_lowercase().next().unwrap_or(c)
}

/// Translates text into cells; whitespace becomes blank cells.
pub fn translate(table: &LiteraryTable, text: &str, out: &mut Vec<Cell>) {
    let chars: Vec<char> = text.chars().collect();
    let mut in_number = false;
    let mut capital_word = false;
    for (i, &c) in chars.iter().enumerate() {
        let next_is_digit = chars.get(i + 1).is_some_and(|n| n.is_ascii_digit());
        if c.is_whitespace() {
            out.push(0);
            in_number = false;
            capital_word = false;
        } else if let Some(d) = c.to_digit(10) {
            if !in_number {
                out.extend_from_slice(&table.number);
                in_number = true;
            }
            out.extend_from_slice(&table.digits[d as usize]);
        } else if in_number && next_is_digit && table.numeric.contains_key(&c) {
            out.extend_from_slice(&table.numeric[&c]);
        } else if c.is_alphabetic() {
            let starts_word = i == 0 || !chars[i - 1].is_alphabetic();
            if starts_word {
                let word_len = chars[i..]
                    .iter()
                    .take_while(|ch| ch.is_alphabetic())
                    .count();
                capital_word = !table.capital_word.is_empty()
                    && word_len >= 2
                    && chars[i..i + word_len].iter().all(|ch| ch.is_uppercase());
                if capital_word {
                    out.extend_from_slice(&table.capital_word);
                }
            }
            let l = lower(c);
            if c.is_uppercase() && !capital_word {
                out.extend_from_slice(&table.capital);
            }
            if in_number && ('a'..='j').contains(&l) {
                out.extend_from_slice(&table.letter_after_number);
            }
            in_number = false;
            push_letter(table, l, out);
        } else {
            in_number = false;
            capital_word = false;
            out.extend_from_slice(table.chars.get(&c).unwrap_or(&table.unknown));
        }
    }
}

/// Translates text into a new vector of cells.
pub fn to_cells(table: &LiteraryTable, text: &str) -> Vec<Cell> {
    let mut out = Vec::with_capacity(text.len() + 4);
    translate(table, text, &mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::braille::to_unicode_line;
    use crate::words::Lang;

    fn uni(lang: Lang, text: &str) -> String {
        to_unicode_line(&to_cells(&LiteraryTable::bundled(lang), text))
    }

    #[test]
    fn german_umlauts_and_numbers() {
        assert_eq!(uni(Lang::De, "Müller"), "⠍⠳⠇⠇⠑⠗");
        assert_eq!(uni(Lang::De, "1.5"), "⠼⠁⠄⠑");
        assert_eq!(uni(Lang::De, "1a"), "⠼⠁⠠⠁");
        assert_eq!(uni(Lang::De, "3-4"), "⠼⠉⠤⠼⠙");
    }

    #[test]
    fn english_capitals() {
        assert_eq!(uni(Lang::En, "Ab"), "⠠⠁⠃");
        assert_eq!(uni(Lang::En, "AB c"), "⠠⠠⠁⠃⠀⠉");
        assert_eq!(uni(Lang::En, "Ä"), "⠠⠘⠒⠁");
    }

    #[test]
    fn portuguese_accents_and_fallback() {
        assert_eq!(uni(Lang::Pt, "João"), "⠨⠚⠕⠜⠕");
        // pt-pt-g1 has no ë: the base letter is written.
        assert_eq!(uni(Lang::Pt, "ë"), "⠑");
        assert_eq!(uni(Lang::Pt, "€"), "⠢");
    }
}
