//! Voice input, the pure part: from a position and a language pack, the
//! grammar of everything a player may say (every legal move in the
//! announcement words, and the spoken commands), the pronunciation
//! dictionary of its words, and the way back from the recognised words to
//! the move. The recogniser itself (pocketsphinx) is in the shell.
//!
//! A grammar made anew for each position from its legal moves is what makes
//! a small offline model accurate: the recogniser only chooses among the
//! phrases that mean something here.

mod dictionary;
mod endpoint;
mod phrases;
pub mod utterance;

pub use dictionary::{MissingWords, dictionary};
pub use endpoint::{even_level, speech_span, with_room_floor};
pub use phrases::{Phrasing, say_move, vocabulary};
pub use utterance::{Cutter, CutterEvent};

use std::collections::{BTreeMap, BTreeSet};

use shakmaty::{Chess, Move, Position};

use crate::words::Pack;

/// The reject path's word in the acoustic model's phones
/// (assets/voice-input/reject.dict): the recogniser's dictionary holds it
/// beside the phrases' words.
pub const REJECT_DICTIONARY: &str = include_str!("../../../../assets/voice-input/reject.dict");

/// The reject path: one unit of noise, or of speech that is no word.
pub const REJECT_NOISE: &str = "reject_noise";

/// Whether the recogniser's words came by the reject path (what was
/// heard fits no phrase).
pub fn is_rejected(text: &str) -> bool {
    text.split_whitespace().any(|w| w == REJECT_NOISE)
}

/// A command said instead of a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, strum::IntoStaticStr)]
#[strum(serialize_all = "snake_case")]
pub enum Command {
    Takeback,
    Repeat,
    Hint,
    Clock,
    Resign,
    Draw,
    Yes,
    No,
}

impl Command {
    pub const ALL: [Command; 8] = [
        Command::Takeback,
        Command::Repeat,
        Command::Hint,
        Command::Clock,
        Command::Resign,
        Command::Draw,
        Command::Yes,
        Command::No,
    ];

    /// The pack's `[input]` key holding this command's phrasings: yes and
    /// no are those typed in answer to a question; the others are voice
    /// input's own.
    pub fn input_key(self) -> &'static str {
        match self {
            Command::Takeback => "voice_takeback",
            Command::Repeat => "voice_repeat",
            Command::Hint => "voice_hint",
            Command::Clock => "voice_clock",
            Command::Resign => "voice_resign",
            Command::Draw => "voice_draw",
            Command::Yes => "yes",
            Command::No => "no",
        }
    }

    /// The command's name in `rochade listen --json` ("takeback").
    pub fn name(self) -> &'static str {
        self.into()
    }
}

/// What a recognised phrase means.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Heard {
    Move(Move),
    Command(Command),
}

/// Everything that may be said in one position, and what each phrase means.
#[derive(Clone, Debug)]
pub struct Grammar {
    /// Each phrase (lower-case ASCII words, one space between) and its
    /// meaning. Only phrases with exactly one meaning here are kept.
    phrases: BTreeMap<String, Heard>,
}

impl Grammar {
    /// The grammar of `pos` in the words of `pack`: every legal move said in
    /// the short form, the long form, with squares as letter and rank
    /// ("Springer f drei"), with or without "schlägt" and check, plus the
    /// commands. A phrase that fits two legal moves (a short form that
    /// leaves out which knight) is left out, so none is ever guessed.
    pub fn new(pos: &Chess, pack: &Pack) -> Grammar {
        let mut meanings: BTreeMap<String, Vec<Heard>> = BTreeMap::new();
        let mut add = |phrase: String, heard: Heard| {
            if phrase.is_empty() {
                return;
            }
            let list = meanings.entry(phrase).or_default();
            if !list.contains(&heard) {
                list.push(heard);
            }
        };
        for mv in pos.legal_moves() {
            for phrase in phrases::move_phrases(pos, mv, pack) {
                add(phrase, Heard::Move(mv));
            }
        }
        for command in Command::ALL {
            for alias in pack.input_aliases(command.input_key()) {
                // "y", "j": typing shortcuts, never said (nor in `vocabulary`).
                if alias.chars().count() < 2 {
                    continue;
                }
                if let Some(phrase) = phrases::normalise(alias) {
                    add(phrase, Heard::Command(command));
                }
            }
        }
        let phrases = meanings
            .into_iter()
            .filter(|(_, list)| list.len() == 1)
            .map(|(phrase, list)| (phrase, list[0]))
            .collect();
        Grammar { phrases }
    }

    /// The grammar in JSGF, as pocketsphinx reads it: every phrase an
    /// alternative of `<move>`, and beside it the reject path
    /// ([`REJECT_NOISE`]): without it the recogniser had to choose a
    /// phrase for anything it heard (a bump was heard as "Tipp"); with it,
    /// a sound that fits no phrase better than noise plays nothing. The
    /// path is one word, no loop: a repetition (`+`) let it lead into a
    /// phrase ("reject_noise springer felix drei"). A path of one or two
    /// phones, for talk that is no move, was measured and left out: it
    /// cost moves (docs/voice.md, "Measured").
    pub fn jsgf(&self) -> String {
        let mut out = String::from(
            "#JSGF V1.0;\ngrammar rochade;\npublic <said> = <move> | <rejected>;\n<move> = ",
        );
        for (i, phrase) in self.phrases.keys().enumerate() {
            if i > 0 {
                out.push_str("\n  | ");
            }
            out.push_str(phrase);
        }
        out.push_str(";\n<rejected> = ");
        out.push_str(REJECT_NOISE);
        out.push_str(";\n");
        out
    }

    /// Every word the grammar uses: the dictionary must hold each.
    pub fn words(&self) -> BTreeSet<&str> {
        self.phrases
            .keys()
            .flat_map(|p| p.split_whitespace())
            .collect()
    }

    /// What the recogniser's words mean, if they are one of the phrases.
    pub fn interpret(&self, text: &str) -> Option<Heard> {
        let phrase = phrases::normalise(text)?;
        self.phrases.get(&phrase).copied()
    }

    /// Every phrase and its meaning, in order.
    pub fn phrases(&self) -> impl Iterator<Item = (&str, Heard)> {
        self.phrases.iter().map(|(p, h)| (p.as_str(), *h))
    }
}

#[cfg(test)]
mod tests;
