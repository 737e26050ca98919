//! The pronunciation dictionary the recogniser needs for one grammar: each
//! word's entries (CMU phone set, as the English model has them) taken from
//! the first source that holds the word.

use std::collections::{BTreeMap, BTreeSet};

/// Words no source pronounces: the recogniser cannot hear them.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("no pronunciation for: {}", .0.join(", "))]
pub struct MissingWords(pub Vec<String>);

/// The dictionary of `words` in pocketsphinx's format (`word PH ONES`,
/// `word(2) ...` for another pronunciation), each word's entries from the
/// first of `sources` (dictionary texts in that format; `#` starts a
/// comment) that has any. Our own corrections come first, the model's
/// dictionary last.
pub fn dictionary<'a>(
    words: impl IntoIterator<Item = &'a str>,
    sources: &[&str],
) -> Result<String, MissingWords> {
    let mut wanted: BTreeMap<&str, Vec<&str>> = words.into_iter().map(|w| (w, vec![])).collect();
    for source in sources {
        let mut found_here: BTreeSet<&str> = BTreeSet::new();
        for line in source.lines() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let Some((head, _)) = line.split_once(char::is_whitespace) else {
                continue;
            };
            // "word(2)" is the word's second pronunciation.
            let word = head.split_once('(').map_or(head, |(w, _)| w);
            let Some((&key, entries)) = wanted.get_key_value(word) else {
                continue;
            };
            // A word a source before this one has already pronounced
            // keeps those entries only.
            if !entries.is_empty() && !found_here.contains(key) {
                continue;
            }
            found_here.insert(key);
            wanted.get_mut(word).expect("looked up").push(line);
        }
    }
    let missing: Vec<String> = wanted
        .iter()
        .filter(|(_, e)| e.is_empty())
        .map(|(w, _)| (*w).to_owned())
        .collect();
    if !missing.is_empty() {
        return Err(MissingWords(missing));
    }
    let mut out = String::new();
    for (word, entries) in wanted {
        for (i, entry) in entries.iter().enumerate() {
            let phones = entry
                .split_once(char::is_whitespace)
                .map_or("", |(_, p)| p)
                .trim();
            if i == 0 {
                out.push_str(&format!("{word} {phones}\n"));
            } else {
                out.push_str(&format!("{word}({}) {phones}\n", i + 1));
            }
        }
    }
    Ok(out)
}
