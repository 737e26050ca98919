//! `rochade play` end to end: the real binary against the real Stockfish
//! (Debian `stockfish`; fails loudly without it), moves and commands on
//! stdin, one JSON object per line on stdout.

use crate::cli;
use crate::move_event;
use cli::{run_rochade, run_rochade_env};

fn play(args: &[&str], input: &str) -> Vec<serde_json::Value> {
    let path = rochade::engine::DEFAULT_ENGINE_PATH;
    assert!(
        std::path::Path::new(path).exists(),
        "{path} is missing: install Debian's stockfish (scripts/deps.sh)"
    );
    let mut argv = vec!["play"];
    argv.extend_from_slice(args);
    let out = run_rochade(&argv, input.as_bytes());
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{l}: {e}")))
        .collect()
}

#[test]
fn moves_commands_and_bad_input_as_json_lines() {
    let args = [
        "--level",
        "2",
        "--color",
        "white",
        "--lang",
        "en",
        "--json",
        "--quiet",
        "--pause-ms",
        "0",
        "--seed",
        "5",
    ];
    let events = play(&args, "e4\nKe9\nhint\neval\ntakeback\nyes\nresign\nyes\n");
    let kinds: Vec<&str> = events
        .iter()
        .map(|e| e["event"].as_str().unwrap())
        .collect();
    assert_eq!(
        events[0]["text"],
        "Practice against the computer, level 2. You play White"
    );
    let moves: Vec<&serde_json::Value> = events.iter().filter(|e| e["event"] == "move").collect();
    moves.iter().for_each(|m| move_event::assert_move_keys(m));
    assert_eq!(moves[0]["uci"], "e2e4");
    assert_eq!(moves[0]["san"], "e4");
    assert_eq!(moves[0]["by"], "player");
    assert_eq!(moves[0]["announcement"], "Eva four");
    assert_eq!(moves[1]["by"], "engine", "{events:?}");
    // Bad input is an error event and the game goes on.
    let error = events
        .iter()
        .find(|e| e["event"] == "error")
        .expect("error");
    assert_eq!(error["input"], "Ke9");
    let says: Vec<&str> = events
        .iter()
        .filter(|e| e["event"] == "say")
        .map(|e| e["text"].as_str().unwrap())
        .collect();
    assert!(says.iter().any(|s| s.starts_with("Hint: ")), "{says:?}");
    assert!(
        says.iter()
            .any(|s| s.starts_with("Taken back: Eva four and ")),
        "{says:?}"
    );
    let end = events.last().unwrap();
    assert_eq!(end["event"], "say", "{kinds:?}");
    let end = events.iter().find(|e| e["event"] == "end").expect("end");
    assert_eq!(end["result"], "0-1");
}

/// Level 2, English, JSON, silent, no pause, a fixed seed.
const QUIET_LEVEL_2: [&str; 10] = [
    "--level",
    "2",
    "--lang",
    "en",
    "--json",
    "--quiet",
    "--pause-ms",
    "0",
    "--seed",
    "5",
];

#[test]
fn a_takeback_waits_for_its_answer_and_no_keeps_the_moves() {
    let events = play(&QUIET_LEVEL_2, "e4\ntakeback\nn\nresign\nyes\n");
    assert!(
        !events
            .iter()
            .any(|e| e["event"] == "error" && e["input"] == "n"),
        "the answer is no move: {events:?}"
    );
    let says: Vec<&str> = events
        .iter()
        .filter(|e| e["event"] == "say")
        .map(|e| e["text"].as_str().unwrap())
        .collect();
    assert!(
        !says.iter().any(|s| s.starts_with("Taken back")),
        "{says:?}"
    );
}

#[test]
fn the_pgn_of_a_practice_game_is_complete() {
    let dir = tempfile::tempdir().unwrap();
    let pgn = dir.path().join("game.pgn");
    let pgn_arg = pgn.to_str().unwrap();
    let mut args = QUIET_LEVEL_2.to_vec();
    args.extend(["--pgn", pgn_arg]);
    play(&args, "e4\nresign\nyes\n");
    let text = std::fs::read_to_string(&pgn).unwrap();
    let today = jiff::Zoned::now().date();
    let date = format!(
        "[Date \"{:04}.{:02}.{:02}\"]",
        today.year(),
        today.month(),
        today.day()
    );
    assert!(text.contains(&date), "{text}");
    assert!(text.contains("[White \"Player\"]"), "{text}");
    assert!(text.contains("[Black \"Computer level 2\"]"), "{text}");
    assert!(text.contains("[Result \"0-1\"]"), "{text}");
}

/// The player's moves of a game typed in `lang`, in English SAN.
fn players_moves(lang: &str, input: &str) -> (Vec<String>, Vec<String>) {
    let mut args = QUIET_LEVEL_2.to_vec();
    let at = args.iter().position(|a| *a == "--lang").unwrap();
    args[at + 1] = lang;
    let events = play(&args, input);
    let moves = events
        .iter()
        .filter(|e| e["event"] == "move" && e["by"] == "player")
        .map(|e| e["san"].as_str().unwrap().to_owned())
        .collect();
    let errors = events
        .iter()
        .filter(|e| e["event"] == "error")
        .map(|e| e.to_string())
        .collect();
    (moves, errors)
}

#[test]
fn german_piece_letters_are_played_with_german_announcements() {
    // Springer f3, then the pawn, then Laeufer c4 (the engine's replies
    // cannot block f1-c4 or take f3 in time).
    let (moves, errors) = players_moves("de", "Sf3\ne4\nLc4\nresign\nyes\n");
    assert_eq!(moves, ["Nf3", "e4", "Bc4"], "errors: {errors:?}");
    assert!(errors.is_empty(), "{errors:?}");
}

#[test]
fn portuguese_piece_letters_are_played_with_portuguese_announcements() {
    // Cavalo f3; the c-pawn written in lower case stays a pawn.
    let (moves, errors) = players_moves("pt", "Cf3\nc4\nresign\nyes\n");
    assert_eq!(moves, ["Nf3", "c4"], "errors: {errors:?}");
    assert!(errors.is_empty(), "{errors:?}");
}

#[test]
fn a_pgn_file_that_cannot_be_written_is_said_once_and_the_game_goes_on() {
    // /sys refuses new files (EPERM) even to root: a PGN path that can
    // never be written, as on a full disk or a pulled stick.
    let pgn = "/sys/rochade-play-test/game.pgn";
    let args = [
        "--lang",
        "en",
        "--json",
        "--quiet",
        "--pause-ms",
        "0",
        "--seed",
        "5",
        "--pgn",
        pgn,
    ];
    let mut argv = vec!["play"];
    argv.extend_from_slice(&args);
    let out = run_rochade(&argv, b"e4\nd4\nresign\nyes\n");
    // The file lacks every move: said at the end, with where the whole
    // game is kept, and the exit is a failure.
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("lacks 4 half-move(s) from move 1 on (e4")
            && stderr.contains("the whole game is kept in"),
        "{stderr}"
    );
    let events: Vec<serde_json::Value> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let incomplete = events.iter().find(|e| e["event"] == "pgn_incomplete");
    assert!(
        incomplete.is_some_and(|e| e["on_disk"] == 0 && e["plies"] == 4),
        "{events:?}"
    );
    let failed: Vec<&serde_json::Value> = events
        .iter()
        .filter(|e| e["event"] == "pgn_failed")
        .collect();
    assert_eq!(failed.len(), 1, "said once: {events:?}");
    assert_eq!(failed[0]["path"], pgn);
    assert!(
        failed[0]["reason"]
            .as_str()
            .is_some_and(|r| r.contains("cannot write")),
        "{failed:?}"
    );
    // The same event shape as `rochade track` prints, and every move played.
    let players: Vec<&serde_json::Value> = events
        .iter()
        .filter(|e| e["event"] == "move" && e["by"] == "player")
        .collect();
    assert_eq!(players.len(), 2, "{events:?}");
    assert!(events.iter().any(|e| e["event"] == "end"), "{events:?}");
}

fn says(events: &[serde_json::Value]) -> Vec<&str> {
    events
        .iter()
        .filter(|e| e["event"] == "say")
        .map(|e| e["text"].as_str().unwrap())
        .collect()
}

#[test]
fn help_answers_and_a_resignation_is_asked_first() {
    let events = play(
        &QUIET_LEVEL_2,
        "help\nresign\nno\ne4\nresign\nyes\nyes\nhelp\n",
    );
    let said = says(&events);
    // The start says how to hear the commands; `help` lists them.
    assert_eq!(said[1], "Type help for the commands", "{said:?}");
    let help = said
        .iter()
        .find(|s| s.starts_with("Type a move"))
        .unwrap_or_else(|| panic!("no help: {said:?}"));
    for command in [
        "hint", "threat", "eval", "takeback", "resign", "repeat", "restart", "quit",
    ] {
        assert!(help.contains(command), "{command} missing: {help}");
    }
    assert!(
        !events
            .iter()
            .any(|e| e["event"] == "error" && e["input"] == "help"),
        "{events:?}"
    );
    // The first resignation is asked and cancelled: the game goes on.
    let asked = said
        .iter()
        .filter(|s| **s == "White resigns? Yes or no")
        .count();
    assert_eq!(asked, 2, "{said:?}");
    let moves = events.iter().filter(|e| e["event"] == "move").count();
    assert!(
        moves >= 1,
        "e4 was played after the cancelled resignation: {events:?}"
    );
    let ends: Vec<&serde_json::Value> = events.iter().filter(|e| e["event"] == "end").collect();
    assert_eq!(ends.len(), 1, "{events:?}");
    assert_eq!(ends[0]["result"], "0-1");
    // A `yes` after the end stays in `play` (it ran the shell's `yes`),
    // and `help` still answers.
    let over = said
        .iter()
        .filter(|s| **s == "The game is over. Type quit to leave")
        .count();
    assert_eq!(over, 2, "said at the end and to the stray yes: {said:?}");
    assert!(said.last().unwrap().starts_with("Type a move"), "{said:?}");
}

/// `rochade play --lang de` as text in the locale `lang`.
fn german_text(lang: &str) -> String {
    let args = [
        "play",
        "--level",
        "2",
        "--lang",
        "de",
        "--quiet",
        "--pause-ms",
        "0",
        "--seed",
        "5",
    ];
    let locale = [("LC_ALL", ""), ("LC_CTYPE", ""), ("LANG", lang)];
    let out = run_rochade_env(&args, b"e4\nLc4\naufgeben\nja\n", &locale);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn german_is_printed_with_umlauts_in_a_utf8_locale_and_in_ascii_without() {
    let text = german_text("de_DE.UTF-8");
    assert!(text.contains("Sie spielen Weiß"), "{text}");
    assert!(text.contains("Läufer Cesar vier"), "{text}");
    assert!(text.contains("Tippen Sie hilfe für die Befehle"), "{text}");
    assert!(
        !text.contains("Weiss") && !text.contains("Laeufer"),
        "{text}"
    );
    let text = german_text("C");
    assert!(text.contains("Sie spielen Weiss"), "{text}");
    assert!(text.contains("Laeufer Cesar vier"), "{text}");
    assert!(text.is_ascii(), "{text}");
}
