use shakmaty::fen::Fen;
use shakmaty::san::San;
use shakmaty::{CastlingMode, Chess};

use super::*;
use crate::words::{Lang, Pack};

fn pos(fen: &str) -> Chess {
    let fen: Fen = fen.parse().expect("fen");
    fen.into_position(CastlingMode::Standard).expect("legal")
}

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// The SAN of what `text` means in `fen`, "-" for nothing.
fn heard(lang: Lang, fen: &str, text: &str) -> String {
    let p = pos(fen);
    match Grammar::new(&p, &Pack::bundled(lang)).interpret(text) {
        Some(Heard::Move(mv)) => shakmaty::san::SanPlus::from_move(p.clone(), mv).to_string(),
        Some(Heard::Command(c)) => format!("command {}", c.name()),
        None => "-".into(),
    }
}

#[test]
fn english_short_long_and_letter_forms() {
    let en = |text| heard(Lang::En, START, text);
    assert_eq!(en("Knight Felix three"), "Nf3");
    assert_eq!(en("knight f three"), "Nf3");
    assert_eq!(en("Knight Gustav one Felix three"), "Nf3");
    assert_eq!(en("knight g one f three"), "Nf3");
    assert_eq!(en("Eva four"), "e4");
    assert_eq!(en("Pawn Eva two Eva four"), "e4");
    assert_eq!(en("Eva two Eva four"), "e4");
    assert_eq!(en("e four"), "e4");
    // Illegal here, or no move at all.
    assert_eq!(en("Knight Felix four"), "-");
    assert_eq!(en("Eva five"), "-");
    assert_eq!(en("Felix"), "-");
}

#[test]
fn german_captures_checks_castling_promotion_en_passant() {
    let de = |fen, text| heard(Lang::De, fen, text);
    let exd5 = "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2";
    assert_eq!(de(exd5, "Eva schlägt David fünf"), "exd5");
    assert_eq!(de(exd5, "eva schlaegt david fuenf"), "exd5");
    assert_eq!(de(exd5, "Eva David fünf"), "exd5");
    assert_eq!(de(exd5, "Bauer Eva vier schlägt David fünf"), "exd5");
    let check = "rnbqkbnr/ppppp1pp/8/5p2/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2";
    assert_eq!(de(check, "Dame Hector fünf Schach"), "Qh5+");
    assert_eq!(de(check, "Dame Hector fünf"), "Qh5+");
    assert_eq!(de(check, "Dame h fünf"), "Qh5+");
    let castle = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
    assert_eq!(de(castle, "Kurze Rochade"), "O-O");
    assert_eq!(de(castle, "Lange Rochade"), "O-O-O");
    let promote = "4r2k/3P4/8/8/8/8/8/4K3 w - - 0 1";
    assert_eq!(de(promote, "David schlägt Eva acht Springer"), "dxe8=N");
    assert_eq!(de(promote, "David Eva acht Dame"), "dxe8=Q+");
    assert_eq!(
        de("8/4P3/8/8/8/8/k7/4K3 w - - 0 1", "Eva acht Dame"),
        "e8=Q"
    );
    let ep = "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 3";
    assert_eq!(de(ep, "Eva schlägt David sechs en passant"), "exd6");
}

#[test]
fn a_short_form_that_fits_two_moves_is_left_out() {
    // Both knights, b8 and f6, reach d7.
    let two = "rnbqkb1r/ppp2ppp/5n2/3pp3/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 3";
    assert_eq!(heard(Lang::De, two, "Springer David sieben"), "-");
    assert_eq!(heard(Lang::De, two, "Springer Bella David sieben"), "Nbd7");
    assert_eq!(
        heard(Lang::De, two, "Springer Felix sechs David sieben"),
        "Nfd7"
    );
    // Where one knight can go, the short form without its file is enough.
    assert_eq!(heard(Lang::De, two, "Springer Cesar sechs"), "Nc6");
}

#[test]
fn commands_come_from_the_pack_and_shortcuts_are_not_said() {
    assert_eq!(heard(Lang::De, START, "zurücknehmen"), "command takeback");
    assert_eq!(heard(Lang::De, START, "Remis"), "command draw");
    assert_eq!(heard(Lang::De, START, "ja"), "command yes");
    assert_eq!(heard(Lang::De, START, "j"), "-");
    assert_eq!(heard(Lang::En, START, "take back"), "command takeback");
    assert_eq!(heard(Lang::En, START, "no"), "command no");
    for lang in [Lang::De, Lang::En, Lang::Pt] {
        let pack = Pack::bundled(lang);
        for command in Command::ALL {
            assert!(
                pack.input_aliases(command.input_key()).next().is_some(),
                "{lang}: no words for {}",
                command.input_key()
            );
        }
    }
}

#[test]
fn jsgf_lists_every_phrase_once() {
    let g = Grammar::new(&pos(START), &Pack::bundled(Lang::En));
    let jsgf = g.jsgf();
    assert!(jsgf.starts_with(
        "#JSGF V1.0;\ngrammar rochade;\npublic <said> = <move> | <rejected>;\n<move> = "
    ));
    assert!(jsgf.ends_with(";\n"));
    assert!(jsgf.contains("\n  | knight felix three\n"));
    let moves = jsgf
        .split("<move> = ")
        .nth(1)
        .and_then(|rest| rest.split(";\n").next())
        .expect("the <move> rule");
    assert_eq!(moves.matches("\n  | ").count() + 1, g.phrases().count());
    // The reject path: one word, never a loop that could lead into a
    // phrase.
    assert!(jsgf.ends_with(";\n<rejected> = reject_noise;\n"));
    assert!(!jsgf.contains('+'));
    assert!(REJECT_DICTIONARY.contains("\nreject_noise +NSN+\n"));
    assert!(is_rejected("reject_noise"));
    assert!(!is_rejected("knight felix three"));
    // 20 moves and 8 commands, each said several ways.
    assert!(g.phrases().count() > 100, "{}", g.phrases().count());
}

/// Positions with every kind of move: the German dictionary pronounces
/// every word their grammars use.
#[test]
fn the_german_dictionary_holds_every_word() {
    let de_dict = include_str!("../../../../assets/voice-input/de.dict");
    let pack = Pack::bundled(Lang::De);
    for fen in [
        START,
        "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
        "4r2k/3P4/8/8/8/8/8/4K3 w - - 0 1",
        "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 3",
        "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4",
        "8/1k6/8/8/8/8/8/K7 w - - 0 1",
    ] {
        let g = Grammar::new(&pos(fen), &pack);
        let all = vocabulary(&pack);
        for word in g.words() {
            assert!(all.contains(word), "{fen}: {word} is not in the vocabulary");
        }
        let dict = dictionary(g.words(), &[de_dict]).unwrap_or_else(|e| panic!("{fen}: {e}"));
        assert!(dict.lines().count() >= g.words().len(), "{fen}");
    }
    dictionary(vocabulary(&pack).iter().map(String::as_str), &[de_dict]).expect("every word");
}

#[test]
fn dictionary_takes_each_word_from_the_first_source_that_has_it() {
    let ours = "# comment\ncesar S IY Z ER\ncesar(2) CH EY Z AA R\n";
    let model = "cesar S IY Z AA R\nknight N AY T\nknight(2) N AY T AH\nfelix F IY L IH K S\n";
    let dict = dictionary(["knight", "cesar"], &[ours, model]).expect("all there");
    assert_eq!(
        dict,
        "cesar S IY Z ER\ncesar(2) CH EY Z AA R\nknight N AY T\nknight(2) N AY T AH\n"
    );
    assert_eq!(
        dictionary(["knight", "zug", "ahoy"], &[ours, model]),
        Err(MissingWords(vec!["ahoy".into(), "zug".into()]))
    );
}

#[test]
fn say_move_in_each_phrasing() {
    let p = pos(START);
    let nf3 = San::from_ascii(b"Nf3").unwrap().to_move(&p).unwrap();
    let de = Pack::bundled(Lang::De);
    assert_eq!(
        say_move(&p, nf3, &de, Phrasing::Short),
        "Springer Felix drei"
    );
    assert_eq!(
        say_move(&p, nf3, &de, Phrasing::Long),
        "Springer Gustav eins Felix drei"
    );
    assert_eq!(say_move(&p, nf3, &de, Phrasing::Letters), "Springer f drei");
    let check = pos("rnbqkbnr/ppppp1pp/8/5p2/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2");
    let qh5 = San::from_ascii(b"Qh5").unwrap().to_move(&check).unwrap();
    assert_eq!(
        say_move(&check, qh5, &de, Phrasing::Short),
        "Dame Hector fünf Schach"
    );
    // What is said is what the grammar hears.
    for phrasing in [Phrasing::Short, Phrasing::Long, Phrasing::Letters] {
        let text = say_move(&check, qh5, &de, phrasing);
        assert_eq!(
            Grammar::new(&check, &de).interpret(&text),
            Some(Heard::Move(qh5)),
            "{text}"
        );
    }
}
