//! Every message key the code names exists in every language.
//!
//! Words are looked up by key (`pack.say("game_saved")`, `t.get("settings")`);
//! a key that no file has is spoken to the player as `[key]` at run time.
//! This test reads the source of both crates, finds every key written as a
//! literal at a lookup, and renders it in each language: a missing key in
//! any language fails, naming the file, the line and the language.

use std::path::Path;

use crate::source;
use source::rust_files;

use rochade::app::text::UiText;
use rochade::words::{Lang, Pack};

const LANGS: [Lang; 3] = [Lang::De, Lang::En, Lang::Pt];

/// The lookups whose first argument is a key of the speech packs: phrases
/// (`say`, `say_key`, `phrase`, `phrase_template`) and terms (`term`,
/// `Token::Term`).
const PHRASE_CALLS: &[&str] = &[".say(\"", "say_key(\"", ".phrase(\"", ".phrase_template(\""];
const TERM_CALLS: &[&str] = &[".term(\"", "Token::Term(\""];
/// Lookups of interface labels (`UiText::get`), by the names the code gives
/// the texts.
const LABEL_CALLS: &[&str] = &[
    " t.get(\"",
    "(t.get(\"",
    "&t.get(\"",
    "ui.get(\"",
    "ui_text().get(\"",
];

#[derive(Debug)]
struct Use {
    file: String,
    line: usize,
    key: String,
}

/// Every literal key at one of `calls` in the product code (unit tests,
/// which may name a missing key on purpose, left out).
fn uses(calls: &[&str]) -> Vec<Use> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    rust_files(&root.join("src"), &mut files);
    rust_files(&root.join("crates/core/src"), &mut files);
    files.retain(|f| !f.to_string_lossy().ends_with("tests.rs"));
    let mut found = Vec::new();
    for file in files {
        let text = std::fs::read_to_string(&file).unwrap();
        let shown = file
            .strip_prefix(root)
            .unwrap_or(&file)
            .display()
            .to_string();
        for (i, line) in text.lines().enumerate() {
            let code = line.split("//").next().unwrap_or("");
            if code.trim_start().starts_with("#[cfg(test)]") {
                break;
            }
            for call in calls {
                let mut rest = code;
                while let Some(at) = rest.find(call) {
                    let after = &rest[at + call.len()..];
                    let key: String = after.chars().take_while(|&c| c != '"').collect();
                    if !key.is_empty() && key.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
                    {
                        found.push(Use {
                            file: shown.clone(),
                            line: i + 1,
                            key,
                        });
                    }
                    rest = after;
                }
            }
        }
    }
    found
}

#[test]
fn every_phrase_and_term_the_code_names_exists_in_every_language() {
    let phrases = uses(PHRASE_CALLS);
    let terms = uses(TERM_CALLS);
    assert!(
        phrases.len() > 50,
        "found only {} phrase keys",
        phrases.len()
    );
    assert!(terms.len() > 5, "found only {} term keys", terms.len());
    let mut missing = Vec::new();
    for lang in LANGS {
        let pack = Pack::bundled(lang);
        for u in &phrases {
            let said = pack.say(&u.key);
            if pack.phrase_template(&u.key).is_none() || said.written.contains('[') {
                missing.push(format!(
                    "{}:{}: phrase {} in {}",
                    u.file,
                    u.line,
                    u.key,
                    lang.code()
                ));
            }
        }
        let term_keys: Vec<&str> = pack.term_keys().collect();
        for u in &terms {
            if !term_keys.contains(&u.key.as_str()) {
                missing.push(format!(
                    "{}:{}: term {} in {}",
                    u.file,
                    u.line,
                    u.key,
                    lang.code()
                ));
            }
        }
    }
    assert!(
        missing.is_empty(),
        "keys missing from assets/speech:\n{}",
        missing.join("\n")
    );
}

#[test]
fn every_label_the_code_names_exists_in_every_interface_language() {
    let labels = uses(LABEL_CALLS);
    assert!(labels.len() > 50, "found only {} label keys", labels.len());
    let mut missing = Vec::new();
    for lang in LANGS {
        let ui = UiText::bundled(lang);
        let keys: Vec<&str> = ui.label_keys().collect();
        for u in &labels {
            if !keys.contains(&u.key.as_str()) {
                missing.push(format!(
                    "{}:{}: label {} in {}",
                    u.file,
                    u.line,
                    u.key,
                    lang.code()
                ));
            }
        }
    }
    assert!(
        missing.is_empty(),
        "labels missing from assets/ui:\n{}",
        missing.join("\n")
    );
}

#[test]
fn the_scan_finds_a_key_that_no_language_has() {
    // The same reading as above, on a line of code with a made-up key.
    let pack = Pack::bundled(Lang::De);
    assert!(pack.phrase_template("no_such_key_anywhere").is_none());
    assert_eq!(
        pack.say("no_such_key_anywhere").written,
        "[no_such_key_anywhere]"
    );
    let ui = UiText::bundled(Lang::En);
    assert!(!ui.label_keys().any(|k| k == "no_such_label_anywhere"));
}
