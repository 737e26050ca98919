//! Rendering tokens and phrases into text in both forms.

use serde::Serialize;
use shakmaty::{File, Rank, Role, Square};

use super::{Pack, Word};

/// Which of a word's two forms to use.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Form {
    Written,
    Spoken,
}

/// One unit of an announcement before it is put into words.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Token {
    File(File),
    Rank(Rank),
    /// File then rank: "Eva vier".
    Square(Square),
    Piece(Role),
    /// A pack term by key: "captures", "check", "castle_short", ...
    Term(&'static str),
    /// A number, written as digits in both forms.
    Number(u64),
    /// Verbatim text, e.g. a player's name.
    Text(String),
}

/// Text ready for a scoresheet (written) and for a speech engine (spoken).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Utterance {
    pub written: String,
    pub spoken: String,
}

impl Utterance {
    pub fn get(&self, form: Form) -> &str {
        match form {
            Form::Written => &self.written,
            Form::Spoken => &self.spoken,
        }
    }

    pub fn is_empty(&self) -> bool {
        self.written.is_empty() && self.spoken.is_empty()
    }

    /// Joins with a space, skipping empty parts.
    pub fn join(parts: &[Utterance]) -> Utterance {
        let pick = |f: fn(&Utterance) -> &str| {
            parts
                .iter()
                .map(f)
                .filter(|s| !s.is_empty())
                .collect::<Vec<_>>()
                .join(" ")
        };
        Utterance {
            written: pick(|u| &u.written),
            spoken: pick(|u| &u.spoken),
        }
    }

    /// Joins with a separator (", " between list items, ". " between sentences).
    pub fn join_with(parts: &[Utterance], sep: &str) -> Utterance {
        let pick = |f: fn(&Utterance) -> &str| {
            parts
                .iter()
                .map(f)
                .filter(|s| !s.is_empty())
                .collect::<Vec<_>>()
                .join(sep)
        };
        Utterance {
            written: pick(|u| &u.written),
            spoken: pick(|u| &u.spoken),
        }
    }
}

impl From<&Word> for Utterance {
    fn from(w: &Word) -> Utterance {
        Utterance {
            written: w.written.clone(),
            spoken: w.spoken.clone(),
        }
    }
}

impl Pack {
    /// Renders a sequence of tokens, separated by spaces.
    pub fn render(&self, tokens: &[Token]) -> Utterance {
        let parts: Vec<Utterance> = tokens.iter().map(|t| self.token(t)).collect();
        Utterance::join(&parts)
    }

    fn token(&self, token: &Token) -> Utterance {
        match token {
            Token::File(f) => self.file(*f).into(),
            Token::Rank(r) => self.rank(*r).into(),
            Token::Square(sq) => {
                Utterance::join(&[self.file(sq.file()).into(), self.rank(sq.rank()).into()])
            }
            Token::Piece(role) => self.piece(*role).into(),
            Token::Term(key) => (&self.term(key)).into(),
            Token::Number(n) => Utterance {
                written: n.to_string(),
                spoken: n.to_string(),
            },
            Token::Text(t) => Utterance {
                written: t.clone(),
                spoken: t.clone(),
            },
        }
    }

    /// A square as words: "Eva vier".
    pub fn square(&self, sq: Square) -> Utterance {
        self.token(&Token::Square(sq))
    }

    /// Fills a phrase template's `{name}` placeholders. A missing phrase is
    /// rendered as `[key]` plus its arguments, so nothing is lost silently.
    pub fn phrase(&self, key: &str, args: &[(&str, Utterance)]) -> Utterance {
        let Some(template) = self.phrase_template(key) else {
            let mut parts = vec![Utterance {
                written: format!("[{key}]"),
                spoken: key.replace('_', " "),
            }];
            parts.extend(args.iter().map(|(_, u)| u.clone()));
            return Utterance::join(&parts);
        };
        let fill = |text: &str, form: Form| {
            let mut out = text.to_owned();
            for (name, value) in args {
                out = out.replace(&format!("{{{name}}}"), value.get(form));
            }
            // Collapse doubled spaces left by empty arguments.
            out.split_whitespace().collect::<Vec<_>>().join(" ")
        };
        Utterance {
            written: fill(&template.written, Form::Written),
            spoken: fill(&template.spoken, Form::Spoken),
        }
    }

    /// A phrase without arguments.
    pub fn say(&self, key: &str) -> Utterance {
        self.phrase(key, &[])
    }
}

impl From<&str> for Utterance {
    fn from(s: &str) -> Utterance {
        Utterance {
            written: s.to_owned(),
            spoken: s.to_owned(),
        }
    }
}

impl From<String> for Utterance {
    fn from(s: String) -> Utterance {
        Utterance {
            spoken: s.clone(),
            written: s,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::words::Lang;

    #[test]
    fn square_renders_both_forms() {
        let de = Pack::bundled(Lang::De);
        let u = de.square(Square::E5);
        assert_eq!(u.written, "Eva fuenf");
        assert_eq!(u.spoken, "Eva fünf");
    }

    #[test]
    fn phrase_fills_placeholders_in_each_form() {
        let de = Pack::bundled(Lang::De);
        let piece = de.render(&[Token::Piece(Role::Knight), Token::Square(Square::G1)]);
        let u = de.phrase("touched", &[("piece", piece)]);
        assert_eq!(u.written, "Springer Gustav eins beruehrt");
        assert_eq!(u.spoken, "Springer Gustav eins berührt");
    }

    #[test]
    fn missing_phrase_is_audible() {
        let de = Pack::bundled(Lang::De);
        let u = de.phrase(
            "no_such_phrase",
            &[(
                "x",
                Utterance {
                    written: "a".into(),
                    spoken: "a".into(),
                },
            )],
        );
        assert_eq!(u.written, "[no_such_phrase] a");
    }
}
