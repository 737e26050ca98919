//! Interface language and announcement language kept apart: questions,
//! confirmations, results and guidance are in the interface language; only
//! the move phonetics (files, ranks, pieces, move terms) follow the
//! announcement language. Every message is rendered for every pair of
//! languages and checked for words only another language uses.

use std::collections::BTreeSet;

use rochade::session::{Command, Effect, Event, Session, SessionConfig, Source};
use rochade::words::{Form, Lang, Pack};

const LANGS: [Lang; 3] = [Lang::De, Lang::En, Lang::Pt];

fn words(text: &str) -> impl Iterator<Item = String> + '_ {
    text.split(|c: char| !c.is_alphabetic())
        .filter(|w| w.chars().count() >= 4)
        .map(str::to_lowercase)
}

/// Every word a language's messages use (phrases, both forms).
fn message_words(pack: &Pack) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for key in pack.phrase_keys() {
        let template = pack.phrase_template(key).unwrap();
        for form in [Form::Written, Form::Spoken] {
            out.extend(words(template.get(form)));
        }
    }
    out
}

/// Words of `lang`'s messages that no other language's messages use.
fn only_in(lang: Lang) -> BTreeSet<String> {
    let own = message_words(&Pack::bundled(lang));
    let others: BTreeSet<String> = LANGS
        .iter()
        .filter(|l| **l != lang)
        .flat_map(|l| message_words(&Pack::bundled(*l)))
        .collect();
    own.difference(&others).cloned().collect()
}

#[test]
fn every_message_is_in_the_interface_language_only() {
    let mut checked = 0;
    let foreign_words: Vec<(Lang, BTreeSet<String>)> =
        LANGS.iter().map(|l| (*l, only_in(*l))).collect();
    for interface in LANGS {
        for announce in LANGS {
            let pack = Pack::bundled(announce).with_messages_from(&Pack::bundled(interface));
            for key in pack.phrase_keys().map(str::to_owned).collect::<Vec<_>>() {
                let said = pack.say(&key);
                for form in [Form::Written, Form::Spoken] {
                    for (other, foreign) in foreign_words.iter().filter(|(l, _)| *l != interface) {
                        let hit: Vec<String> = words(said.get(form))
                            .filter(|w| foreign.contains(w))
                            .collect();
                        assert!(
                            hit.is_empty(),
                            "interface {interface:?}, announcements {announce:?}: {key} = {:?} has {other:?} words {hit:?}",
                            said.get(form)
                        );
                    }
                    checked += 1;
                }
            }
            // The moves keep the announcement language.
            let moves = Pack::bundled(announce);
            assert_eq!(
                pack.square("e4".parse().unwrap()),
                moves.square("e4".parse().unwrap())
            );
            assert_eq!(pack.term("captures"), moves.term("captures"));
            assert_eq!(pack.term("white"), Pack::bundled(interface).term("white"));
        }
    }
    assert!(checked > 9 * 2 * 100, "only {checked} renderings checked");
}

fn spoken(effects: &[Effect]) -> Vec<String> {
    effects
        .iter()
        .filter_map(Effect::speech)
        .map(|s| s.text.written.clone())
        .collect()
}

fn enter(s: &mut Session, text: &str) -> Vec<Effect> {
    s.handle(
        0,
        Event::MoveEntered {
            text: text.into(),
            source: Source::Keyboard,
        },
    )
    .into()
}

#[test]
fn an_english_interface_asks_in_english_and_names_the_move_in_german() {
    let config = SessionConfig {
        lang: Lang::De,
        ..SessionConfig::default()
    };
    let pack = Pack::bundled(Lang::De).with_messages_from(&Pack::bundled(Lang::En));
    let mut s = Session::with_pack(config, pack);
    assert_eq!(spoken(&enter(&mut s, "e4")), ["Eva vier"]);
    let asked = spoken(&s.handle(0, Event::Command(Command::Takeback))).join(" ");
    assert!(asked.contains("Eva vier"), "{asked}");
    assert!(!asked.contains("zurueck"), "{asked}");
    let english = Pack::bundled(Lang::En)
        .phrase_template("takeback_confirm")
        .unwrap()
        .written
        .clone();
    assert!(
        english
            .split_whitespace()
            .next()
            .is_some_and(|w| asked.starts_with(w)),
        "{asked} vs {english}"
    );
    // The system voice picks its voice by the speech's language.
    let langs = |fx: &[Effect]| {
        fx.iter()
            .filter_map(Effect::speech)
            .map(|s| s.lang)
            .collect::<Vec<_>>()
    };
    assert_eq!(
        langs(&enter(&mut s, "e5")),
        [Lang::De],
        "a move in the announcement voice"
    );
    let fx = s.handle(0, Event::Command(Command::Repeat));
    assert_eq!(langs(&fx), [Lang::De]);
    let fx = s.handle(0, Event::Command(Command::Takeback));
    assert_eq!(langs(&fx), [Lang::En], "a question in the interface voice");
    let cancelled = spoken(&s.handle(0, Event::Command(Command::Cancel))).join(" ");
    assert_eq!(cancelled, Pack::bundled(Lang::En).say("cancelled").written);
}
