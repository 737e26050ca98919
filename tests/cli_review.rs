//! `rochade review` end to end: the real binary against the real
//! Stockfish (Debian `stockfish`; fails loudly without it) on a real game
//! (Morphy's Opera game) with a blunder planted in it.

#[path = "support/cli.rs"]
mod cli;
#[path = "support/hermetic.rs"]
mod hermetic;
use cli::run_rochade;

const PLANTED: &str = "tests/data/review/morphy_opera_planted_blunder.pgn";
const AS_PLAYED: &str = "tests/data/review/morphy_opera_opening.pgn";

fn stockfish() {
    let path = rochade::engine::DEFAULT_ENGINE_PATH;
    assert!(
        std::path::Path::new(path).exists(),
        "{path} is missing: install Debian's stockfish (scripts/deps.sh)"
    );
}

fn json_lines(stdout: &[u8]) -> Vec<serde_json::Value> {
    String::from_utf8(stdout.to_vec())
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{l}: {e}")))
        .collect()
}

fn review_json(args: &[&str]) -> (Vec<serde_json::Value>, String) {
    stockfish();
    let mut argv = vec!["review", "--json", "--depth", "12"];
    argv.extend_from_slice(args);
    let out = run_rochade(&argv, b"");
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(out.status.success(), "{stderr}");
    (json_lines(&out.stdout), stderr)
}

/// The JSON lines as printed, for the order of their keys.
fn raw_stdout(args: &[&str]) -> Vec<u8> {
    let mut argv = vec!["review", "--json", "--depth", "12"];
    argv.extend_from_slice(args);
    let out = run_rochade(&argv, b"");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

fn mistakes(events: &[serde_json::Value]) -> Vec<&serde_json::Value> {
    events.iter().filter(|e| e["event"] == "mistake").collect()
}

#[test]
fn the_planted_blunder_is_named_at_its_ply() {
    let (events, stderr) = review_json(&["--side", "white", "--lang", "en", PLANTED]);
    let found = mistakes(&events);
    // 6. Qxf7+ is ply 11: the queen for a pawn.
    let blunder = found
        .iter()
        .find(|e| e["ply"] == 11)
        .unwrap_or_else(|| panic!("no mistake at ply 11: {events:?}"));
    assert_eq!(blunder["played"], "f3f7", "{blunder}");
    assert_eq!(blunder["kind"], "blunder", "{blunder}");
    assert_ne!(blunder["best"], "f3f7");
    assert!(blunder["loss"].as_i64().unwrap() >= 500, "{blunder}");
    // Exactly the keys the issue names, in ply order, White's plies only.
    let raw = String::from_utf8(raw_stdout(&["--side", "white", PLANTED])).unwrap();
    assert!(
        raw.starts_with(r#"{"event":"mistake","ply":11,"played":"f3f7","best":"#),
        "the keys in the issue's order: {raw}"
    );
    let keys: Vec<&str> = blunder
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(keys.len(), 6, "{blunder}");
    let plies: Vec<i64> = found.iter().map(|e| e["ply"].as_i64().unwrap()).collect();
    assert!(plies.windows(2).all(|w| w[0] < w[1]), "{plies:?}");
    assert!(plies.iter().all(|p| p % 2 == 1), "White's plies: {plies:?}");
    let end = events.last().unwrap();
    assert_eq!(end["event"], "end");
    assert_eq!(end["mistakes"], found.len());
    // The position counter on stderr, the last one at the end.
    assert!(stderr.contains("Review: position 13 of 13"), "{stderr}");
}

#[test]
fn the_game_as_played_has_no_blunder_there_and_black_is_reviewed_apart() {
    // Stockfish prefers 6. Qb3 to Morphy's 6. Bc4 (an inaccuracy at
    // most), but it loses no queen.
    let (events, _) = review_json(&["--side", "white", AS_PLAYED]);
    for e in mistakes(&events).iter().filter(|e| e["ply"] == 11) {
        assert_eq!(e["played"], "f1c4");
        assert_ne!(e["kind"], "blunder", "{e}");
        assert!(e["loss"].as_i64().unwrap() < 300, "{e}");
    }
    // Black's review of the planted game: 6... Kxf7 is the best answer.
    let (events, _) = review_json(&["--side", "black", PLANTED]);
    let found = mistakes(&events);
    assert!(
        found.iter().all(|e| e["ply"].as_i64().unwrap() % 2 == 0),
        "{found:?}"
    );
    assert!(found.iter().all(|e| e["ply"] != 12), "{found:?}");
}

#[test]
fn the_side_comes_from_the_tags_of_rochade_s_own_games_else_it_is_asked_for() {
    stockfish();
    // Without --side and with players' names: refused, saying what to add.
    let out = run_rochade(&["review", "--json", PLANTED], b"");
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("--side white or --side black"), "{stderr}");
    // A game `rochade play` saved names the player: his side is taken.
    let text = std::fs::read_to_string(PLANTED)
        .unwrap()
        .replace("Paul Morphy", "Player")
        .replace("Duke Karl / Count Isouard", "Computer level 3");
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("own.pgn");
    std::fs::write(&file, text).unwrap();
    let (events, _) = review_json(&[file.to_str().unwrap()]);
    assert!(
        mistakes(&events).iter().any(|e| e["ply"] == 11),
        "{events:?}"
    );
    assert_eq!(events.last().unwrap()["side"], "white");
}

#[test]
fn a_missing_engine_is_said_with_what_to_do() {
    let out = run_rochade(
        &[
            "review",
            "--quiet",
            "--side",
            "white",
            "--lang",
            "en",
            "--engine",
            "/nonexistent/stockfish",
            PLANTED,
        ],
        b"",
    );
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("No review: the program cannot be started"),
        "{stderr}"
    );
    assert!(stderr.contains("Stockfish"), "{stderr}");
}

#[test]
fn each_mistake_is_an_exercise_answered_on_stdin() {
    let (events, _) = review_json(&["--side", "white", PLANTED]);
    let best = mistakes(&events)
        .into_iter()
        .find(|e| e["ply"] == 11)
        .map(|e| e["best"].as_str().unwrap().to_owned())
        .unwrap();
    let earlier = mistakes(&events).iter().filter(|e| e["ply"] != 11).count();
    // Earlier exercises skipped, then the game's move again (refused),
    // a word that is no move, then the engine's best move.
    let mut input = "skip\n".repeat(earlier);
    input.push_str(&format!("Qxf7\nhello\n{best}\n"));
    let out = run_rochade(
        &[
            "review", "--quiet", "--side", "white", "--lang", "en", "--depth", "12", PLANTED,
        ],
        input.as_bytes(),
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.starts_with("Review: "), "{stdout}");
    assert!(
        stdout.contains("Move 6, White: Queen takes Felix seven check. Black is winning. "),
        "{stdout}"
    );
    assert!(
        stdout.contains("Move 6: you played Queen takes Felix seven check. Find a better move"),
        "{stdout}"
    );
    assert!(
        stdout.contains("is the move of the game. Try again"),
        "{stdout}"
    );
    assert!(
        stdout.contains("hello is not a legal move here. Try again"),
        "{stdout}"
    );
    assert!(stdout.contains("Right: "), "{stdout}");
    assert!(stdout.contains("The computer goes on: "), "{stdout}");
    assert!(
        stdout
            .trim_end()
            .ends_with("All exercises of this game are done"),
        "{stdout}"
    );
}

#[test]
fn the_list_gives_each_move_s_evaluation_and_time_from_the_clock_readings() {
    stockfish();
    // Rochade's own game (the side from the tags) at 5+3 with [%clk].
    let pgn = "[White \"Player\"]\n[Black \"Computer level 3\"]\n[TimeControl \"300+3\"]\n\n\
        1. e4 {[%clk 0:05:01]} e5 {[%clk 0:05:00]} 2. Nf3 {[%clk 0:04:54]} Nc6 {[%clk 0:05:01]} \
        3. Bc4 {[%clk 0:04:40]} Nd4 {[%clk 0:04:59]} 4. Nxe5 {[%clk 0:04:00]} Qg5 {[%clk 0:04:58]} *\n";
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("clocked.pgn");
    std::fs::write(&file, pgn).unwrap();
    let out = run_rochade(
        &[
            "review",
            "--quiet",
            "--lang",
            "en",
            "--depth",
            "10",
            "--moves",
            file.to_str().unwrap(),
        ],
        b"quit\n",
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let rows: Vec<&str> = stdout.lines().filter(|l| l.starts_with("Move ")).collect();
    // Eight moves, then the first exercise's question.
    assert_eq!(rows.len(), 9, "{stdout}");
    // 300 s + 3 s increment, 301 s left after 1. e4: 2 seconds.
    assert!(rows[0].starts_with("Move 1, White: Eva four. "), "{stdout}");
    assert!(rows[0].ends_with("2 seconds spent"), "{stdout}");
    // 280 s + 3 s, 240 s left after 4. Nxe5: 43 seconds, and a blunder
    // (Qg5 forks the knight and g2).
    assert!(
        rows[6].contains("43 seconds spent. Blunder, better "),
        "{stdout}"
    );
    assert!(
        rows[8].starts_with("Move 4: you played Knight takes Eva five."),
        "{stdout}"
    );
    // Without --moves only the mistakes are listed: what is said is
    // what is printed.
    let out = run_rochade(
        &[
            "review",
            "--quiet",
            "--lang",
            "en",
            "--depth",
            "10",
            file.to_str().unwrap(),
        ],
        b"quit\n",
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    let rows: Vec<&str> = stdout.lines().filter(|l| l.starts_with("Move ")).collect();
    assert_eq!(rows.len(), 2, "the blunder and its exercise: {stdout}");
    assert!(
        rows[0].starts_with("Move 4, White: Knight takes Eva five. "),
        "{stdout}"
    );
}

#[test]
fn the_exercise_says_the_position_and_answers_what_puzzles_understand() {
    stockfish();
    // Rochade's own game: the first exercise is 4. Nxe5, a blunder.
    let pgn = "[White \"Player\"]\n[Black \"Computer level 3\"]\n\n\
        1. e4 e5 2. Nf3 Nc6 3. Bc4 Nd4 4. Nxe5 Qg5 *\n";
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("fork.pgn");
    std::fs::write(&file, pgn).unwrap();
    let out = run_rochade(
        &[
            "review",
            "--quiet",
            "--lang",
            "en",
            "--depth",
            "10",
            file.to_str().unwrap(),
        ],
        b"help\nposition\nrank 1\nfile e\nhint\nhint\nrepeat\nquit\n",
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let lines: Vec<&str> = stdout.lines().collect();
    let at = lines
        .iter()
        .position(|l| l.starts_with("Move 4: you played Knight takes Eva five."))
        .unwrap_or_else(|| panic!("no exercise: {stdout}"));
    assert_eq!(lines[at - 1], "Type help for the commands", "{stdout}");
    let answers = &lines[at + 1..];
    assert_eq!(answers.len(), 7, "one line for each word typed: {stdout}");
    assert!(
        answers[0].starts_with("Type a better move, or: hint"),
        "{stdout}"
    );
    assert!(answers[0].contains("position"), "{stdout}");
    assert_eq!(
        answers[1],
        "White to move. White: King Eva one, Queen David one, Rook Anna one, Hector one, \
         Bishop Cesar one, Cesar four, Knight Bella one, Felix three, \
         Pawn Anna two, Bella two, Cesar two, David two, Eva four, \
         Felix two, Gustav two, Hector two. \
         Black: King Eva eight, Queen David eight, Rook Anna eight, Hector eight, \
         Bishop Cesar eight, Felix eight, Knight David four, Gustav eight, \
         Pawn Anna seven, Bella seven, Cesar seven, David seven, Eva five, \
         Felix seven, Gustav seven, Hector seven",
        "{stdout}"
    );
    assert!(answers[2].contains("Anna one"), "rank 1: {stdout}");
    assert!(answers[3].contains("Eva five"), "file e: {stdout}");
    assert!(answers[4].starts_with("Hint: "), "{stdout}");
    assert!(
        answers[5].starts_with(answers[4]) && answers[5].contains(" to "),
        "{stdout}"
    );
    assert_eq!(answers[6], lines[at], "repeat says the exercise again");
    assert!(!stdout.contains("not a legal move"), "{stdout}");
}
