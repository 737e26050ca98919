//! `rochade play --voice` end to end: espeak-ng says moves and commands
//! into WAVs, and `--voice-wav` feeds them through the same path as the
//! microphone (20 ms buffers at the pace of speech, the utterance cutter,
//! the recogniser on its thread) into a game against the real Stockfish.
//! The JSON lines show what was heard and the moves played.

use std::path::Path;

#[path = "support/cli.rs"]
mod cli;
#[path = "support/hermetic.rs"]
mod hermetic;
#[path = "support/spoken_wav.rs"]
mod spoken_wav;
use cli::run_rochade;
use spoken_wav::{noise, sox, speak};

/// `rochade play` against Stockfish with `recordings` said in turn; the
/// JSON lines printed.
fn play(lang: &str, extra: &[&str], recordings: &[&Path], typed: &str) -> Vec<serde_json::Value> {
    let mut args = vec![
        "play",
        "--lang",
        lang,
        "--json",
        "--quiet",
        "--pause-ms",
        "0",
        "--seed",
        "5",
        "--level",
        "2",
        "--voice",
    ];
    args.extend_from_slice(extra);
    for wav in recordings {
        args.extend(["--voice-wav", wav.to_str().expect("UTF-8 path")]);
    }
    let out = run_rochade(&args, typed.as_bytes());
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout)
        .expect("UTF-8")
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{l}: {e}")))
        .collect()
}

fn player_moves(events: &[serde_json::Value]) -> Vec<&str> {
    events
        .iter()
        .filter(|e| e["event"] == "move" && e["by"] == "player")
        .map(|e| e["uci"].as_str().expect("uci"))
        .collect()
}

fn said(events: &[serde_json::Value]) -> Vec<&str> {
    events
        .iter()
        .filter(|e| e["event"] == "say")
        .map(|e| e["text"].as_str().expect("text"))
        .collect()
}

#[test]
fn german_moves_said_are_played_noise_is_not_understood_and_takeback_is_answered_by_voice() {
    let dir = tempfile::tempdir().expect("dir");
    let e4 = speak(dir.path(), "e4", "de", "Eva vier");
    let nf3 = speak(dir.path(), "nf3", "de", "Springer Felix drei");
    let takeback = speak(dir.path(), "takeback", "de", "zurücknehmen");
    let yes = speak(dir.path(), "ja", "de", "ja");
    let noise = noise(dir.path());
    let events = play("de", &[], &[&e4, &noise, &nf3, &takeback, &yes], "");
    let says = said(&events);
    assert!(
        says.iter().any(|s| s.starts_with("Spracheingabe an")),
        "{says:?}"
    );
    let heard: Vec<&serde_json::Value> = events
        .iter()
        .filter(|e| e["event"] == "heard" || e["event"] == "not_understood")
        .collect();
    assert_eq!(heard.len(), 5, "{events:#?}");
    assert_eq!(heard[0]["uci"], "e2e4", "{}", heard[0]);
    assert_eq!(heard[1]["event"], "not_understood", "{}", heard[1]);
    assert_eq!(heard[2]["san"], "Nf3", "{}", heard[2]);
    assert_eq!(heard[3]["command"], "takeback", "{}", heard[3]);
    assert_eq!(heard[4]["command"], "yes", "{}", heard[4]);
    // The noise played nothing and was said to be not understood.
    assert_eq!(player_moves(&events), ["e2e4", "g1f3"], "{events:#?}");
    assert_eq!(
        says.iter().filter(|s| **s == "Nicht verstanden").count(),
        1,
        "{says:?}"
    );
    // "zurücknehmen" asked, "ja" answered: Nf3 and the reply taken back.
    let asked = says
        .iter()
        .position(|s| {
            s.starts_with("Zuege Springer Felix drei und ") && s.ends_with("Ja oder nein")
        })
        .expect("the takeback asked");
    assert!(
        says[asked + 1..]
            .iter()
            .any(|s| s.starts_with("Zurueckgenommen: Springer Felix drei und ")),
        "{says:?}"
    );
}

#[test]
fn with_confirm_a_heard_move_is_asked_first_and_answered_by_voice_or_typing() {
    let dir = tempfile::tempdir().expect("dir");
    let e4 = speak(dir.path(), "e4", "en-us", "Eva four");
    let yes = speak(dir.path(), "yes", "en-us", "yes");
    let nf3 = speak(dir.path(), "nf3", "en-us", "Knight Felix three");
    let no = speak(dir.path(), "no", "en-us", "no");
    let events = play("en", &["--voice-confirm"], &[&e4, &yes, &nf3, &no], "");
    let says = said(&events);
    assert!(says.contains(&"Eva four? Yes or no"), "{says:?}");
    assert!(says.contains(&"Knight Felix three? Yes or no"), "{says:?}");
    assert!(says.contains(&"Not played"), "{says:?}");
    // Yes played e4; no left Nf3 unplayed.
    assert_eq!(player_moves(&events), ["e2e4"], "{events:#?}");
}

#[test]
fn without_a_model_for_the_language_it_is_said_once_and_typing_goes_on() {
    let dir = tempfile::tempdir().expect("dir");
    let e4 = speak(dir.path(), "e4", "de", "Eva vier");
    let events = play("pt", &[], &[&e4], "e4\n");
    let says = said(&events);
    let refusals = says
        .iter()
        .filter(|s| s.starts_with("A entrada por voz entende apenas alemao e ingles"))
        .count();
    assert_eq!(refusals, 1, "{says:?}");
    assert_eq!(player_moves(&events), ["e2e4"], "{events:#?}");
}

/// The recogniser lost words next to digital silence (zeros, as a
/// recording's pauses and the feed's gaps have): "Knight Felix three"
/// after 200 ms of zeros was heard as "Felix three" (the pawn), and
/// "Springer Felix drei" 100 samples off the 10 ms frames as "ja".
#[test]
fn a_move_after_digital_silence_is_heard_whole() {
    let dir = tempfile::tempdir().expect("dir");
    // After 1. e4 g6, where "Felix three" is a legal pawn move.
    let fen = "rnbqkbnr/pppppp1p/6p1/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2";
    let cases = [
        ("en-us", "Knight Felix three", "en", "0.2"),
        ("de", "Springer Felix drei", "de", "4260s"),
    ];
    for (voice, text, lang, lead) in cases {
        let said = speak(dir.path(), lang, voice, text);
        let padded = dir.path().join(format!("{lang}-padded.wav"));
        sox(&[said.to_str().unwrap()], &padded, &["pad", lead, "0.6"]);
        let out = run_rochade(
            &[
                "listen",
                "--wav",
                padded.to_str().unwrap(),
                "--lang",
                lang,
                "--fen",
                fen,
                "--json",
            ],
            b"",
        );
        let line = String::from_utf8_lossy(&out.stdout);
        let heard: serde_json::Value =
            serde_json::from_str(&line).unwrap_or_else(|e| panic!("{e}: {line}"));
        assert_eq!(heard["san"], "Nf3", "{text}: {heard}");
    }
}

/// `rochade puzzle --voice`: "hint" said gives the hint, the solution said
/// solves a mate in one.
#[test]
fn a_puzzle_is_solved_by_voice() {
    use rochade::announce::{AnnounceForm, announce_move};
    use rochade::puzzle::PuzzleSet;
    use rochade::words::{Lang, Pack};
    let puzzle_args = [
        "puzzle", "--json", "--quiet", "--count", "1", "--seed", "3", "--lang", "en", "--theme",
        "mateIn1",
    ];
    // Which puzzle the seed chooses, and its solution in words.
    let out = run_rochade(&puzzle_args, b"");
    let first = String::from_utf8_lossy(&out.stdout);
    let shown: serde_json::Value = first
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).expect("JSON"))
        .find(|e| e["event"] == "puzzle")
        .unwrap_or_else(|| panic!("no puzzle: {first}"));
    let set = PuzzleSet::bundled();
    let puzzle = set
        .get(shown["id"].as_str().expect("id"))
        .expect("the puzzle");
    let line = puzzle.line().expect("legal");
    let (position, solution) = line[1].clone();
    let words = announce_move(
        &Pack::bundled(Lang::En),
        &position,
        solution,
        AnnounceForm::Short,
    );
    let uci = shakmaty::uci::UciMove::from_standard(solution).to_string();

    let dir = tempfile::tempdir().expect("dir");
    let hint = speak(dir.path(), "hint", "en-us", "hint");
    let mate = speak(dir.path(), "mate", "en-us", &words.spoken);
    let mut args = puzzle_args.to_vec();
    args.extend(["--voice-wav", hint.to_str().unwrap()]);
    args.extend(["--voice-wav", mate.to_str().unwrap()]);
    let out = run_rochade(&args, b"");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let events: Vec<serde_json::Value> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{l}: {e}")))
        .collect();
    let heard: Vec<&serde_json::Value> = events.iter().filter(|e| e["event"] == "heard").collect();
    assert_eq!(
        heard.len(),
        2,
        "{} said {:?}: {events:#?}",
        words.spoken,
        uci
    );
    assert_eq!(heard[0]["command"], "hint", "{}", heard[0]);
    assert_eq!(
        heard[1]["uci"],
        uci.as_str(),
        "{} {}",
        words.spoken,
        heard[1]
    );
    let says = said(&events);
    assert!(says.iter().any(|s| s.starts_with("Hint")), "{says:?}");
    assert_eq!(player_moves(&events), [uci.as_str()], "{events:#?}");
    assert!(events.iter().any(|e| e["event"] == "solved"), "{events:#?}");
}

/// Without the speech model, `play --voice` says once which packages to
/// install, and typed moves are played.
#[test]
fn a_missing_model_is_said_once_and_typing_goes_on() {
    let dir = tempfile::tempdir().expect("dir");
    let e4 = speak(dir.path(), "e4", "en-us", "Eva four");
    let empty = tempfile::tempdir().expect("an empty model folder");
    let args = [
        "play",
        "--lang",
        "en",
        "--json",
        "--quiet",
        "--pause-ms",
        "0",
        "--seed",
        "5",
        "--level",
        "2",
        "--voice",
        "--voice-wav",
        e4.to_str().unwrap(),
    ];
    let out = cli::run_rochade_env(
        &args,
        b"d4\n",
        &[("ROCHADE_VOICE_MODEL", empty.path().to_str().unwrap())],
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let events: Vec<serde_json::Value> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{l}: {e}")))
        .collect();
    let says = said(&events);
    let told = says
        .iter()
        .filter(|s| {
            **s == "Voice input cannot work: install libpocketsphinx3 and pocketsphinx-en-us. Type your moves"
        })
        .count();
    assert_eq!(told, 1, "{says:?}");
    assert_eq!(player_moves(&events), ["d2d4"], "{events:#?}");
}
