//! The ways one legal move may be said, as the recogniser's words.

use shakmaty::{Chess, Move, Role};

use crate::announce::{AnnounceForm, move_tokens};
use crate::words::{Form, Pack, Token, Utterance};

/// A way of saying a move: the announcement's short or long form, or the
/// short form with each square as letter and rank ("Springer f drei").
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, strum::Display, strum::VariantArray,
)]
#[strum(serialize_all = "lowercase")]
pub enum Phrasing {
    Short,
    Long,
    Letters,
}

/// Lower case, umlauts spelt out ("schlägt" -> "schlaegt"), hyphens as
/// spaces; `None` for text with other letters than a to z and digits
/// (the dictionaries hold ASCII words only) or with no word at all.
pub(super) fn normalise(text: &str) -> Option<String> {
    let mut out = String::with_capacity(text.len());
    for c in text.chars().flat_map(char::to_lowercase) {
        match c {
            'ä' => out.push_str("ae"),
            'ö' => out.push_str("oe"),
            'ü' => out.push_str("ue"),
            'ß' => out.push_str("ss"),
            '-' => out.push(' '),
            c if c.is_ascii_alphanumeric() || c.is_whitespace() => out.push(c),
            _ => return None,
        }
    }
    let words: Vec<&str> = out.split_whitespace().collect();
    (!words.is_empty()).then(|| words.join(" "))
}

/// A file as its letter ("f"), the word the dictionaries hold for it.
fn letter(square_file: shakmaty::File) -> Utterance {
    let text = square_file.char().to_string();
    Utterance {
        written: text.clone(),
        spoken: text,
    }
}

/// The tokens in words; with `letters`, every square and file as its
/// letter (ranks stay words).
fn render(pack: &Pack, tokens: &[Token], letters: bool) -> Utterance {
    if !letters {
        return pack.render(tokens);
    }
    let parts: Vec<Utterance> = tokens
        .iter()
        .map(|token| match token {
            Token::File(f) => letter(*f),
            Token::Square(sq) => Utterance::join(&[letter(sq.file()), pack.rank(sq.rank()).into()]),
            other => pack.render(std::slice::from_ref(other)),
        })
        .collect();
    Utterance::join(&parts)
}

fn is_suffix(token: &Token) -> bool {
    matches!(token, Token::Term("check" | "mate"))
}

/// The short form without SAN's disambiguation: "Springer David sieben"
/// for Nbd7 (kept only where one knight can go there).
fn undisambiguated(mv: Move, tokens: &[Token]) -> Option<Vec<Token>> {
    let Move::Normal {
        role, capture, to, ..
    } = mv
    else {
        return None;
    };
    if role == Role::Pawn {
        return None;
    }
    let mut out = vec![Token::Piece(role)];
    if capture.is_some() {
        out.push(Token::Term("captures"));
    }
    let at_to = tokens.iter().position(|t| *t == Token::Square(to))?;
    out.extend(tokens[at_to..].iter().cloned());
    Some(out)
}

/// Every phrase meaning `mv` in `pos` (normalised, possibly repeated):
/// short and long form, the long form of a pawn without "Bauer", each with
/// squares as names or as letters, with and without "schlägt", with and
/// without check or mate.
pub(super) fn move_phrases(pos: &Chess, mv: Move, pack: &Pack) -> Vec<String> {
    let short = move_tokens(pos, mv, AnnounceForm::Short);
    let long = move_tokens(pos, mv, AnnounceForm::Long);
    let mut bases = vec![short.clone(), long.clone()];
    if let Some(plain) = undisambiguated(mv, &short) {
        bases.push(plain);
    }
    if long.first() == Some(&Token::Piece(Role::Pawn)) {
        bases.push(long[1..].to_vec());
    }
    let mut out = Vec::new();
    for base in bases {
        let without_suffix: Vec<Token> = base.iter().filter(|t| !is_suffix(t)).cloned().collect();
        for with_suffix in [base, without_suffix] {
            let without_captures: Vec<Token> = with_suffix
                .iter()
                .filter(|t| **t != Token::Term("captures"))
                .cloned()
                .collect();
            for tokens in [with_suffix, without_captures] {
                for letters in [false, true] {
                    if let Some(p) = normalise(render(pack, &tokens, letters).get(Form::Written)) {
                        out.push(p);
                    }
                }
            }
        }
    }
    out
}

/// Every word any grammar of `pack` may use, whatever the position: the
/// recogniser's dictionary is made once per language from these.
pub fn vocabulary(pack: &Pack) -> std::collections::BTreeSet<String> {
    let mut words: Vec<String> = Vec::new();
    for i in 0..8u32 {
        words.push(pack.file(shakmaty::File::new(i)).written.clone());
        words.push(pack.rank(shakmaty::Rank::new(i)).written.clone());
        words.push(shakmaty::File::new(i).char().to_string());
    }
    for role in Role::ALL {
        words.push(pack.piece(role).written.clone());
    }
    // The terms of a move's announcement (every pack has them).
    for key in crate::words::REQUIRED_TERMS {
        words.push(pack.term(key).written);
    }
    for command in super::Command::ALL {
        words.extend(
            pack.input_aliases(command.input_key())
                .filter(|alias| alias.chars().count() >= 2)
                .map(str::to_owned),
        );
    }
    words
        .iter()
        .filter_map(|w| normalise(w))
        .flat_map(|p| p.split_whitespace().map(str::to_owned).collect::<Vec<_>>())
        .collect()
}

/// `mv` said in one phrasing, in the spoken form (for a speech synthesiser
/// that says it to the recogniser, in the tests and the benchmark).
pub fn say_move(pos: &Chess, mv: Move, pack: &Pack, phrasing: Phrasing) -> String {
    let (form, letters) = match phrasing {
        Phrasing::Short => (AnnounceForm::Short, false),
        Phrasing::Long => (AnnounceForm::Long, false),
        Phrasing::Letters => (AnnounceForm::Short, true),
    };
    let tokens = move_tokens(pos, mv, form);
    render(pack, &tokens, letters).spoken
}
