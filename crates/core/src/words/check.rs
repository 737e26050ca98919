//! Word files that lie are refused: a word the user corrected must say one
//! thing and be seen as it is. Besides [`super::pack`]'s check that no two
//! words sound or read alike (`check = "Matt"` included), a word may not
//! hold another word of the set (`a = "Eva vier"` makes a6 "Eva vier
//! sechs": is it e4?), and no word may hold a line break, a control
//! character or an invisible one (a zero-width space, a NUL, a direction
//! mark): a Braille display and a screen reader would show or say
//! something else than the speech, or split one announcement in two.

use crate::text::{excerpt, is_hidden};

/// How a word of a pack lies.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum WordFault {
    #[error(
        "{name} is \"{word}\" ({form}), which holds {other} (\"{other_word}\"): an announcement would say two things"
    )]
    HoldsAnother {
        name: String,
        word: String,
        form: &'static str,
        other: String,
        other_word: String,
    },
    #[error("{name} holds {what} ({form}: \"{word}\"): a word is one visible line")]
    Hidden {
        name: String,
        word: String,
        form: &'static str,
        what: String,
    },
}

/// What a hidden character is, in words.
fn hidden_words(c: char) -> String {
    match c {
        '\n' | '\r' | '\u{2028}' | '\u{2029}' | '\u{0085}' => "a line break".into(),
        '\0' => "a NUL character".into(),
        '\u{200B}' => "a zero-width space".into(),
        '\u{200E}'
        | '\u{200F}'
        | '\u{061C}'
        | '\u{202A}'..='\u{202E}'
        | '\u{2066}'..='\u{2069}' => {
            format!("a direction mark (U+{:04X})", u32::from(c))
        }
        c if c.is_control() => format!("a control character (U+{:04X})", u32::from(c)),
        c => format!("an invisible character (U+{:04X})", u32::from(c)),
    }
}

/// Every form of every word is one visible line.
pub(super) fn check_visible<'a>(
    words: impl IntoIterator<Item = (String, &'static str, &'a str)>,
) -> Result<(), WordFault> {
    for (name, form, text) in words {
        if let Some(c) = text.chars().find(|&c| is_hidden(c)) {
            return Err(WordFault::Hidden {
                name,
                word: excerpt(text, 40),
                form,
                what: hidden_words(c),
            });
        }
    }
    Ok(())
}

/// No word of the set (files, ranks, pieces, move terms) holds another
/// one as a whole word or words: `named` gives each word's name and text
/// in one form.
pub(super) fn check_holds_none(
    named: &[(String, &str)],
    form: &'static str,
) -> Result<(), WordFault> {
    let tokens = |s: &str| -> Vec<String> { s.split_whitespace().map(str::to_lowercase).collect() };
    let all: Vec<Vec<String>> = named.iter().map(|(_, text)| tokens(text)).collect();
    for (i, (name, text)) in named.iter().enumerate() {
        for (j, (other, other_text)) in named.iter().enumerate() {
            let (outer, inner) = (&all[i], &all[j]);
            if i == j || inner.is_empty() || inner.len() >= outer.len() {
                continue;
            }
            if outer.windows(inner.len()).any(|w| w == inner.as_slice()) {
                return Err(WordFault::HoldsAnother {
                    name: name.clone(),
                    word: excerpt(text, 40),
                    form,
                    other: other.clone(),
                    other_word: excerpt(other_text, 40),
                });
            }
        }
    }
    Ok(())
}
