//! Language packs: parsing and merging (pure; reading the user's files is
//! in [`super::load`]).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use shakmaty::{File, Rank, Role};

/// A language the app can speak and write moves in.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize,
)]
#[serde(rename_all = "lowercase")]
#[derive(strum::Display, strum::EnumString, strum::IntoStaticStr)]
#[strum(ascii_case_insensitive, parse_err_ty = UnknownLang, parse_err_fn = unknown_lang)]
#[derive(strum::EnumCount, strum::VariantArray)]
pub enum Lang {
    /// German phonetics, as FIDE Appendix E suggests: the default.
    #[default]
    #[strum(
        to_string = "de",
        serialize = "de-de",
        serialize = "german",
        serialize = "deutsch"
    )]
    De,
    /// Brazilian Portuguese.
    #[strum(
        to_string = "pt",
        serialize = "pt-br",
        serialize = "portuguese",
        serialize = "portugues"
    )]
    Pt,
    /// English.
    #[strum(
        to_string = "en",
        serialize = "en-gb",
        serialize = "en-us",
        serialize = "english"
    )]
    En,
}

/// A language's name that names none (in lower case).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown language '{0}' (use de, pt or en)")]
pub struct UnknownLang(pub String);

fn unknown_lang(s: &str) -> UnknownLang {
    UnknownLang(s.to_ascii_lowercase())
}

impl Lang {
    /// Every variant, in declaration order (derived, so none is left out).
    pub const ALL: [Lang; <Lang as strum::EnumCount>::COUNT] =
        *<Lang as strum::VariantArray>::VARIANTS
            .first_chunk()
            .expect("every variant");

    /// The pack file's stem and the code used on the command line.
    pub fn code(self) -> &'static str {
        self.into()
    }

    /// The pack bundled into the binary (the file under `assets/speech/`).
    fn bundled_source(self) -> &'static str {
        match self {
            Lang::De => include_str!("../../../../assets/speech/de.toml"),
            Lang::Pt => include_str!("../../../../assets/speech/pt.toml"),
            Lang::En => include_str!("../../../../assets/speech/en.toml"),
        }
    }
}

/// One word or phrase in its two forms.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Word {
    /// ASCII-safe form for scoresheets and Braille ("fuenf").
    pub written: String,
    /// Form handed to a speech engine ("fünf").
    pub spoken: String,
}

impl Word {
    pub fn same(text: &str) -> Word {
        Word {
            written: text.to_owned(),
            spoken: text.to_owned(),
        }
    }

    pub fn get(&self, form: super::Form) -> &str {
        match form {
            super::Form::Written => &self.written,
            super::Form::Spoken => &self.spoken,
        }
    }
}

/// In a pack file a word is either a plain string (both forms alike) or a
/// table `{ written = "...", spoken = "..." }`.
impl<'de> Deserialize<'de> for Word {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Word, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Raw {
            Same(String),
            Forms {
                written: String,
                spoken: Option<String>,
            },
        }
        Ok(match Raw::deserialize(d)? {
            Raw::Same(s) => Word::same(&s),
            Raw::Forms { written, spoken } => {
                let spoken = spoken.unwrap_or_else(|| written.clone());
                Word { written, spoken }
            }
        })
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PackFile {
    lang: Lang,
    name: String,
    /// BCP 47 tag used to choose a system voice, e.g. "de-DE".
    voice: String,
    files: BTreeMap<String, Word>,
    ranks: BTreeMap<String, Word>,
    pieces: BTreeMap<String, Word>,
    terms: BTreeMap<String, Word>,
    phrases: BTreeMap<String, Word>,
    /// Other phrasings typed moves may use (never spoken).
    #[serde(default)]
    input: BTreeMap<String, String>,
}

/// A loaded language pack.
#[derive(Clone, Debug)]
pub struct Pack {
    pub lang: Lang,
    /// Human-readable name ("Deutsch (FIDE)").
    pub name: String,
    /// BCP 47 tag for voice selection.
    pub voice: String,
    files: [Word; 8],
    ranks: [Word; 8],
    pieces: [Word; 6],
    terms: BTreeMap<String, Word>,
    phrases: BTreeMap<String, Word>,
    /// Other phrasings typed moves may use, `|`-separated (never spoken).
    input: BTreeMap<String, String>,
    /// The words as typed move input reads them, made at first use.
    pub(crate) input_phrases: std::sync::OnceLock<Vec<crate::chess::input::Phrase>>,
    /// The language of the phrases (the interface language after
    /// [`Pack::with_messages_from`]; else `lang`).
    messages: Lang,
}

/// Two packs are equal when they say and read the same words (the input
/// cache made at first use aside).
impl PartialEq for Pack {
    fn eq(&self, other: &Pack) -> bool {
        self.lang == other.lang
            && self.name == other.name
            && self.voice == other.voice
            && self.files == other.files
            && self.ranks == other.ranks
            && self.pieces == other.pieces
            && self.terms == other.terms
            && self.phrases == other.phrases
            && self.input == other.input
            && self.messages == other.messages
    }
}

/// What went wrong reading a pack; always names the file.
#[derive(Debug, thiserror::Error)]
#[error("language pack {origin}: {message}")]
pub struct PackError {
    /// The file (or the bundled pack) the words came from.
    pub origin: String,
    pub message: String,
}

/// Keys every pack must define, so a missing word is an error at load time
/// rather than a silent gap in a spoken announcement.
pub const REQUIRED_TERMS: &[&str] = &[
    "captures",
    "check",
    "mate",
    "en_passant",
    "castle_short",
    "castle_long",
];

const ROLE_KEYS: [(Role, &str); 6] = [
    (Role::Pawn, "pawn"),
    (Role::Knight, "knight"),
    (Role::Bishop, "bishop"),
    (Role::Rook, "rook"),
    (Role::Queen, "queen"),
    (Role::King, "king"),
];

/// The pack key of a piece: "king", "queen", ... (also the stem of the
/// coloured piece terms "white_king", "black_pawn").
pub fn role_key(role: Role) -> &'static str {
    ROLE_KEYS[role_index(role)].1
}

fn role_index(role: Role) -> usize {
    usize::from(role) - 1
}

/// Two words of a pack that would sound or read alike (or one that is
/// empty); `form` is "spoken" or "written".
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Ambiguity {
    #[error("{name} is empty ({form})")]
    Empty { name: String, form: &'static str },
    #[error(
        "{name} is \"{word}\" ({form}), the same as {other}: two words would sound or read alike"
    )]
    SameWord {
        name: String,
        word: String,
        form: &'static str,
        other: String,
    },
    #[error("the squares {first} and {second} would both be \"{text}\" ({form})")]
    SameSquare {
        first: String,
        second: String,
        text: String,
        form: &'static str,
    },
}

/// A correction must never make two squares, or a square and a piece, sound
/// or read alike: a wrong announcement at a tournament is a wrong move on
/// the opponent's board. Every file, rank and piece word and every move
/// term (castling, captures, check, mate, en passant) are non-empty and
/// differ from each other (`check = "Matt"` would announce a check as
/// mate), none holds another ([`super::check`]), and the 64 squares
/// differ, in the spoken and in the written form (case and spacing aside).
fn check_distinct(
    files: &[Word],
    ranks: &[Word],
    pieces: &[Word],
    terms: &BTreeMap<String, Word>,
) -> Result<(), String> {
    let norm = |s: &str| {
        s.split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
            .to_lowercase()
    };
    let mut named: Vec<(String, &Word)> = Vec::new();
    for (i, w) in files.iter().enumerate() {
        named.push((format!("file '{}'", File::new(i as u32).char()), w));
    }
    for (i, w) in ranks.iter().enumerate() {
        named.push((format!("rank '{}'", Rank::new(i as u32).char()), w));
    }
    for ((_, key), w) in ROLE_KEYS.iter().zip(pieces) {
        named.push((format!("piece '{key}'"), w));
    }
    for key in REQUIRED_TERMS {
        if let Some(w) = terms.get(*key) {
            named.push((format!("term '{key}'"), w));
        }
    }
    for (form, get) in [
        (
            "spoken",
            (|w: &Word| w.spoken.as_str()) as fn(&Word) -> &str,
        ),
        ("written", |w: &Word| w.written.as_str()),
    ] {
        let mut seen: BTreeMap<String, &str> = BTreeMap::new();
        for (name, word) in &named {
            let text = norm(get(word));
            if text.is_empty() {
                return Err(Ambiguity::Empty {
                    name: name.clone(),
                    form,
                }
                .to_string());
            }
            if let Some(other) = seen.insert(text.clone(), name) {
                return Err(Ambiguity::SameWord {
                    name: name.clone(),
                    word: crate::text::excerpt(get(word), 40),
                    form,
                    other: other.to_owned(),
                }
                .to_string());
            }
        }
        let texts: Vec<(String, &str)> = named.iter().map(|(n, w)| (n.clone(), get(w))).collect();
        super::check::check_holds_none(&texts, form).map_err(|e| e.to_string())?;
        let mut squares: BTreeMap<String, String> = BTreeMap::new();
        for (f, file) in files.iter().enumerate() {
            for (r, rank) in ranks.iter().enumerate() {
                let square = format!(
                    "{}{}",
                    File::new(f as u32).char(),
                    Rank::new(r as u32).char()
                );
                let text = norm(&format!("{} {}", get(file), get(rank)));
                if let Some(other) = squares.insert(text.clone(), square.clone()) {
                    return Err(Ambiguity::SameSquare {
                        first: other,
                        second: square,
                        text: crate::text::excerpt(&text, 40),
                        form,
                    }
                    .to_string());
                }
            }
        }
    }
    Ok(())
}

/// Terms that are no move phonetics: sides and time units. They
/// follow the interface language with the phrases.
pub const MESSAGE_TERMS: &[&str] = &[
    "white", "black", "hour", "hours", "minute", "minutes", "second", "seconds",
];

impl Pack {
    /// This pack's move phonetics (files, ranks, pieces, move terms) with
    /// every message (questions, confirmations, results, guidance frames)
    /// from `interface`: only moves follow the announcement language.
    pub fn with_messages_from(mut self, interface: &Pack) -> Pack {
        if interface.lang == self.lang {
            return self;
        }
        self.phrases = interface.phrases.clone();
        self.messages = interface.lang;
        for key in MESSAGE_TERMS {
            if let Some(word) = interface.terms.get(*key) {
                self.terms.insert((*key).to_owned(), word.clone());
            }
        }
        self
    }

    /// The language the phrases are in, for the voice that says them.
    pub fn messages_lang(&self) -> Lang {
        self.messages
    }

    /// The pack compiled into the binary, without user overrides.
    pub fn bundled(lang: Lang) -> Pack {
        Self::from_toml_str(
            lang.bundled_source(),
            &format!("assets/speech/{}.toml", lang.code()),
        )
        .expect("bundled language packs are checked by tests")
    }

    /// The bundled pack with a user's override (TOML text, named `source`
    /// in errors) merged over it, key by key.
    pub fn with_override(lang: Lang, text: &str, source: &str) -> Result<Pack, PackError> {
        let bundled_name = format!("assets/speech/{}.toml", lang.code());
        let mut value: toml::Table =
            lang.bundled_source()
                .parse()
                .map_err(|e: toml::de::Error| PackError {
                    origin: bundled_name.clone(),
                    message: e.to_string(),
                })?;
        let user: toml::Table = text.parse().map_err(|e: toml::de::Error| PackError {
            origin: source.into(),
            message: toml_message(&e, text),
        })?;
        merge(&mut value, user);
        Self::from_table(value, &format!("{source} (over the bundled pack)"))
    }

    /// Parses a complete pack from TOML text.
    pub fn from_toml_str(text: &str, source: &str) -> Result<Pack, PackError> {
        let table: toml::Table = text.parse().map_err(|e: toml::de::Error| PackError {
            origin: source.into(),
            message: toml_message(&e, text),
        })?;
        Self::from_table(table, source)
    }

    fn from_table(table: toml::Table, source: &str) -> Result<Pack, PackError> {
        // A message never quotes a whole file's worth of a word.
        let err = |message: String| PackError {
            origin: source.into(),
            message: crate::text::excerpt(&message, 400),
        };
        let raw: PackFile = toml::Value::Table(table)
            .try_into()
            .map_err(|e: toml::de::Error| err(e.to_string()))?;
        let take = |map: &BTreeMap<String, Word>, key: &str, what: &str| {
            map.get(key)
                .cloned()
                .ok_or_else(|| err(format!("missing {what} '{key}'")))
        };
        let mut files = Vec::with_capacity(8);
        let mut ranks = Vec::with_capacity(8);
        for i in 0..8u32 {
            files.push(take(&raw.files, &File::new(i).char().to_string(), "file")?);
            ranks.push(take(&raw.ranks, &Rank::new(i).char().to_string(), "rank")?);
        }
        let mut pieces = Vec::with_capacity(6);
        for (_, key) in ROLE_KEYS {
            pieces.push(take(&raw.pieces, key, "piece")?);
        }
        for key in REQUIRED_TERMS {
            take(&raw.terms, key, "term")?;
        }
        check_visible(&raw).map_err(|e| err(e.to_string()))?;
        check_distinct(&files, &ranks, &pieces, &raw.terms).map_err(err)?;
        Ok(Pack {
            lang: raw.lang,
            name: raw.name,
            voice: raw.voice,
            files: files.try_into().expect("eight files"),
            ranks: ranks.try_into().expect("eight ranks"),
            pieces: pieces.try_into().expect("six roles"),
            terms: raw.terms,
            phrases: raw.phrases,
            input: raw.input,
            input_phrases: std::sync::OnceLock::new(),
            messages: raw.lang,
        })
    }

    pub fn file(&self, file: File) -> &Word {
        &self.files[file.to_usize()]
    }

    pub fn rank(&self, rank: Rank) -> &Word {
        &self.ranks[rank.to_usize()]
    }

    pub fn piece(&self, role: Role) -> &Word {
        &self.pieces[role_index(role)]
    }

    /// A single term ("captures", "check", ...). Unknown keys render as the
    /// key itself in brackets so a gap is audible and visible, never silent.
    pub fn term(&self, key: &str) -> Word {
        self.terms
            .get(key)
            .cloned()
            .unwrap_or_else(|| Word::same(&format!("[{key}]")))
    }

    /// A phrase template with `{name}` placeholders, if the pack has it.
    pub fn phrase_template(&self, key: &str) -> Option<&Word> {
        self.phrases.get(key)
    }

    /// All phrase keys, for checks that every pack has the same phrases.
    /// Other phrasings of `key` typed moves may use (`castle_short`:
    /// "castles short", ...).
    pub fn input_aliases(&self, key: &str) -> impl Iterator<Item = &str> {
        self.input
            .get(key)
            .into_iter()
            .flat_map(|s| s.split('|'))
            .map(str::trim)
            .filter(|s| !s.is_empty())
    }

    pub fn phrase_keys(&self) -> impl Iterator<Item = &str> {
        self.phrases.keys().map(String::as_str)
    }

    /// All term keys.
    pub fn term_keys(&self) -> impl Iterator<Item = &str> {
        self.terms.keys().map(String::as_str)
    }

    /// Every word of the pack, for the clip voice's vocabulary and for checks.
    pub fn all_words(&self) -> Vec<&Word> {
        let mut v: Vec<&Word> = self
            .files
            .iter()
            .chain(&self.ranks)
            .chain(&self.pieces)
            .collect();
        v.extend(self.terms.values());
        v.extend(self.phrases.values());
        v
    }
}

/// A TOML error as `line 3, column 5: <what>`, quoting no more of the
/// file than a short excerpt (a 100 MB line is never printed whole).
fn toml_message(e: &toml::de::Error, text: &str) -> String {
    let what = crate::text::excerpt(e.message().trim(), crate::text::EXCERPT_CHARS);
    match e.span() {
        Some(span) => {
            let (line, column) = crate::text::line_column(text.as_bytes(), span.start);
            format!("line {line}, column {column}: {what}")
        }
        None => what,
    }
}

/// Every form of every word of a pack file is one visible line.
fn check_visible(raw: &PackFile) -> Result<(), super::check::WordFault> {
    let mut words: Vec<(String, &'static str, &str)> = Vec::new();
    for (section, map) in [
        ("file", &raw.files),
        ("rank", &raw.ranks),
        ("piece", &raw.pieces),
        ("term", &raw.terms),
        ("phrase", &raw.phrases),
    ] {
        for (key, w) in map {
            words.push((format!("{section} '{key}'"), "spoken", &w.spoken));
            words.push((format!("{section} '{key}'"), "written", &w.written));
        }
    }
    for (key, text) in &raw.input {
        words.push((format!("input '{key}'"), "typed", text));
    }
    words.push(("name".into(), "written", &raw.name));
    super::check::check_visible(words)
}

/// Deep-merges `over` into `base`: tables merge key by key, anything else
/// replaces.
fn merge(base: &mut toml::Table, over: toml::Table) {
    for (key, value) in over {
        match (base.get_mut(&key), value) {
            (Some(toml::Value::Table(b)), toml::Value::Table(o)) => merge(b, o),
            (_, v) => {
                base.insert(key, v);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_bundled_pack_loads_with_the_same_keys() {
        let de = Pack::bundled(Lang::De);
        for lang in Lang::ALL {
            let pack = Pack::bundled(lang);
            assert_eq!(pack.lang, lang);
            let keys: Vec<_> = pack.phrase_keys().collect();
            let de_keys: Vec<_> = de.phrase_keys().collect();
            assert_eq!(keys, de_keys, "pack {lang} has different phrases than de");
            let terms: Vec<_> = pack.term_keys().collect();
            assert_eq!(
                terms,
                de.term_keys().collect::<Vec<_>>(),
                "pack {lang} has different terms than de"
            );
            for w in pack.all_words() {
                assert!(
                    w.written.is_ascii(),
                    "{lang}: written form '{}' is not ASCII",
                    w.written
                );
                assert!(!w.spoken.trim().is_empty());
            }
        }
    }

    #[test]
    fn german_pack_has_fide_words() {
        let de = Pack::bundled(Lang::De);
        assert_eq!(de.file(File::A).written, "Anna");
        assert_eq!(de.file(File::H).written, "Hector");
        assert_eq!(de.rank(Rank::Fifth).written, "fuenf");
        assert_eq!(de.rank(Rank::Fifth).spoken, "fünf");
        assert_eq!(de.piece(Role::King).spoken, "König");
        assert_eq!(de.piece(Role::Bishop).written, "Laeufer");
    }

    #[test]
    fn language_codes_read_every_spelling_and_say_what_is_wrong() {
        for lang in Lang::ALL {
            assert_eq!(lang.to_string().parse::<Lang>(), Ok(lang));
            assert_eq!(lang.to_string(), lang.code());
        }
        assert_eq!("Deutsch".parse::<Lang>(), Ok(Lang::De));
        assert_eq!("PT-BR".parse::<Lang>(), Ok(Lang::Pt));
        assert_eq!("en-us".parse::<Lang>(), Ok(Lang::En));
        assert_eq!(
            "FR".parse::<Lang>().map_err(|e| e.to_string()),
            Err("unknown language 'fr' (use de, pt or en)".to_owned())
        );
        assert_eq!(
            "uk".parse::<crate::chess::Letters>(),
            Ok(crate::chess::Letters::En)
        );
        assert_eq!(
            "Tabutronic".parse::<crate::board::Format>(),
            Ok(crate::board::Format::Sentio)
        );
        assert_eq!(crate::board::Format::LiBoard.code(), "liboard");
        assert_eq!(
            "LONG".parse::<crate::announce::AnnounceForm>(),
            Ok(crate::announce::AnnounceForm::Long)
        );
    }

    #[test]
    fn a_correction_that_makes_two_squares_alike_is_refused_naming_the_word() {
        for (text, says) in [
            ("[files]\na = \"Bella\"\n", "file 'b'"),
            ("[files]\nc = \"\"\n", "file 'c' is empty"),
            ("[ranks]\n4 = \"fuenf\"\n", "rank '5'"),
            ("[files]\nd = \"Dame\"\n", "piece 'queen'"),
            (
                "[files]\na = { written = \"Anna\", spoken = \"Bella\" }\n",
                "(spoken)",
            ),
        ] {
            let err = Pack::with_override(Lang::De, text, "user de.toml").unwrap_err();
            assert!(err.message.contains(says), "{text}: {err}");
            assert!(err.to_string().contains("user de.toml"), "{err}");
        }
        // A correction that keeps every word distinct is taken.
        let pack = Pack::with_override(Lang::De, "[files]\nc = \"Caesar\"\n", "user").unwrap();
        assert_eq!(pack.file(File::C).written, "Caesar");
    }

    #[test]
    fn missing_word_is_an_error() {
        let text = Lang::De.bundled_source().replace("h = \"Hector\"", "");
        let err = Pack::from_toml_str(&text, "test").unwrap_err();
        assert!(err.message.contains("file 'h'"), "{err}");
    }
}
