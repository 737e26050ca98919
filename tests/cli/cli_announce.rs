//! `rochade announce` end to end: the real binary, reading a file and stdin.

use std::process::Output;

use crate::cli;
use crate::hermetic;
use cli::run_rochade_env;

/// The C locale (no UTF-8): the written ASCII form, as the table gives it.
const ASCII_LOCALE: [(&str, &str); 1] = [("LC_ALL", "C")];

fn rochade(args: &[&str], stdin: Option<&str>) -> Output {
    rochade_bytes(args, stdin.unwrap_or("").as_bytes())
}

fn rochade_bytes(args: &[&str], stdin: &[u8]) -> Output {
    run_rochade_env(args, stdin, &ASCII_LOCALE)
}

#[test]
fn the_default_form_follows_the_locale() {
    let moves = b"1. e4 e5 2. Bc4 Nf6 3. Bxf7+";
    let run = |args: &[&str], locale: &str| {
        let o = run_rochade_env(
            args,
            moves,
            &[("LC_ALL", ""), ("LC_CTYPE", ""), ("LANG", locale)],
        );
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        stdout(&o).lines().last().unwrap().to_owned()
    };
    // A UTF-8 terminal gets the words as spoken, umlauts and all (a
    // terminal screen reader says "Laeufer" wrong).
    assert_eq!(
        run(&["announce"], "de_DE.UTF-8"),
        "Läufer schlägt Felix sieben Schach"
    );
    assert_eq!(
        run(&["announce"], "C"),
        "Laeufer schlaegt Felix sieben Schach"
    );
    assert_eq!(
        run(&["announce", "--written"], "de_DE.UTF-8"),
        "Laeufer schlaegt Felix sieben Schach"
    );
    assert_eq!(
        run(&["announce", "--spoken"], "C"),
        "Läufer schlägt Felix sieben Schach"
    );
}

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).unwrap()
}

/// The table: (position, SAN, announcement). Each position is one
/// where the move is legal.
const TABLE: &[(&str, &str, &str)] = &[
    (
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "e4",
        "Eva vier",
    ),
    (
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "Nf3",
        "Springer Felix drei",
    ),
    (
        "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2",
        "exd5",
        "Eva schlaegt David fuenf",
    ),
    (
        "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
        "O-O",
        "Kurze Rochade",
    ),
    (
        "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
        "O-O-O",
        "Lange Rochade",
    ),
    (
        "rnbqkbnr/ppppp1pp/8/5p2/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2",
        "Qh5+",
        "Dame Hector fuenf Schach",
    ),
    (
        "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4",
        "Qxf7#",
        "Dame schlaegt Felix sieben Matt",
    ),
    ("8/4P3/8/8/8/8/k7/4K3 w - - 0 1", "e8=Q", "Eva acht Dame"),
    (
        "4r3/3P2k1/8/8/8/8/8/4K3 w - - 0 1",
        "dxe8=N+",
        "David schlaegt Eva acht Springer Schach",
    ),
    (
        "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 3",
        "exd6",
        "Eva schlaegt David sechs en passant",
    ),
    (
        "rnbqkb1r/ppp2ppp/5n2/3pp3/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 3",
        "Nbd7",
        "Springer Bella David sieben",
    ),
    (
        "7k/8/8/8/8/4R3/8/K3R3 w - - 0 1",
        "R1e2",
        "Turm eins Eva zwei",
    ),
    (
        "8/8/1k6/8/4Q2Q/8/8/K6Q w - - 0 1",
        "Qh4e1",
        "Dame Hector vier Eva eins",
    ),
];

#[test]
fn reproduces_the_table_from_stdin_and_from_a_file() {
    let dir = tempfile::tempdir().unwrap();
    for (i, (fen, san, expected)) in TABLE.iter().enumerate() {
        let from_stdin = rochade(&["announce", "--fen", fen], Some(san));
        assert!(
            from_stdin.status.success(),
            "{san}: {}",
            String::from_utf8_lossy(&from_stdin.stderr)
        );
        assert_eq!(stdout(&from_stdin), format!("{expected}\n"), "stdin, {san}");

        let file = dir.path().join(format!("move{i}.txt"));
        std::fs::write(&file, format!("{san}\n")).unwrap();
        let from_file = rochade(&["announce", "--fen", fen, file.to_str().unwrap()], None);
        assert_eq!(stdout(&from_file), format!("{expected}\n"), "file, {san}");
    }
}

#[test]
fn long_and_spoken_forms() {
    let o = rochade(&["announce", "--form", "long"], Some("Nf3 d5 e4 e5 Nxe5"));
    assert_eq!(
        stdout(&o),
        "Springer Gustav eins Felix drei\nBauer David sieben David fuenf\nBauer Eva zwei Eva vier\n\
         Bauer Eva sieben Eva fuenf\nSpringer Felix drei schlaegt Eva fuenf\n"
    );
    let o = rochade(
        &[
            "announce",
            "--spoken",
            "--fen",
            "rnbqkbnr/ppppp1pp/8/5p2/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2",
        ],
        Some("Qh5+"),
    );
    assert_eq!(stdout(&o), "Dame Hector fünf Schach\n");
}

#[test]
fn reads_a_full_pgn_in_every_language() {
    let pgn = "[Event \"Test\"]\n[White \"A\"]\n[Black \"B\"]\n\n1. e4 e5 2. Nf3 {a comment} Nc6 (2... d6) 3. Bb5 a6 4. O-O 1-0\n";
    let de = rochade(&["announce", "-"], Some(pgn));
    assert_eq!(stdout(&de).lines().last(), Some("Kurze Rochade"));
    assert_eq!(stdout(&de).lines().count(), 7);
    let pt = rochade(&["announce", "--lang", "pt"], Some(pgn));
    assert_eq!(stdout(&pt).lines().nth(4), Some("Bispo Bella cinco"));
    let en = rochade(&["announce", "--lang", "en"], Some(pgn));
    assert_eq!(stdout(&en).lines().nth(2), Some("Knight Felix three"));
}

#[test]
fn illegal_move_names_the_move_and_keeps_earlier_lines() {
    let o = rochade(&["announce"], Some("1. e4 e5\n2. Nf3 Nf4\n"));
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(stdout(&o), "Eva vier\nEva fuenf\nSpringer Felix drei\n");
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("'Nf4'") && err.contains("move 2 (Black)") && err.contains("line 2"),
        "{err}"
    );
}

#[test]
fn unreadable_file_and_bad_fen_are_input_errors() {
    let o = rochade(&["announce", "/no/such/file.pgn"], None);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("cannot read /no/such/file.pgn"));
    let o = rochade(&["announce", "--fen", "nonsense"], Some("e4"));
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("bad FEN"));
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

#[test]
fn reads_every_game_of_a_file_each_from_its_start() {
    let pgn = "[Event \"a\"]\n\n1. e4 e5 1/2-1/2\n\n[Event \"b\"]\n\n1. d4 d5 2. c4 *\n";
    let o = rochade(&["announce"], Some(pgn));
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(
        stdout(&o),
        "Eva vier\nEva fuenf\n\nDavid vier\nDavid fuenf\nCesar vier\n"
    );
}

#[test]
fn a_byte_order_mark_and_crlf_line_ends_are_read() {
    let o = rochade(
        &["announce"],
        Some("\u{feff}[Event \"x\"]\r\n\r\n1. e4 e5\r\n2. Nf3 *\r\n"),
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(stdout(&o), "Eva vier\nEva fuenf\nSpringer Felix drei\n");
}

#[test]
fn german_and_portuguese_piece_letters() {
    let o = rochade(
        &["announce", "--letters", "de"],
        Some("[Site \"Sofia\"]\n\n1. e4 e5 2. Sf3 {Springer} Sc6 3. Lb5 a6 4. O-O Dg5 *\n"),
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[2], "Springer Felix drei");
    assert_eq!(lines[4], "Laeufer Bella fuenf");
    assert_eq!(lines[6], "Kurze Rochade");
    assert_eq!(lines[7], "Dame Gustav fuenf");
    let o = rochade(
        &["announce", "--letters", "pt", "--lang", "pt"],
        Some("1. e4 e5 2. Cf3 Cc6 3. Bc4 Cf6 4. Rf1"),
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(stdout(&o).lines().nth(6), Some("Rei Felix um"));
}

#[test]
fn an_error_in_a_later_game_names_game_line_and_column() {
    let pgn = "[Event \"a\"]\n\n1. e4 *\n\n[Event \"b\"]\n\n1. d4 d5\n2. Ke3 *\n";
    let o = rochade(&["announce"], Some(pgn));
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(stdout(&o), "Eva vier\n\nDavid vier\nDavid fuenf\n");
    let err = stderr(&o);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.starts_with("rochade: game 2, line 8, column 4: move 2 (White) 'Ke3'"),
        "{err}"
    );
}

/// Runs `announce` on bad input: exit code 2, the moves before the fault
/// on stdout, and the error line on stderr, which is returned.
fn input_error(input: &[u8], announced: &str) -> String {
    let o = rochade_bytes(&["announce"], input);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert_eq!(stdout(&o), announced);
    stderr(&o)
}

#[test]
fn broken_text_tags_and_comments_are_placed() {
    let two = "Eva vier\nEva fuenf\n";
    let three = "Eva vier\nEva fuenf\nSpringer Felix drei\n";
    let err = input_error(b"1. e4 e5\n2. Nf3 {caf\xe9} Nc6 *\n", three);
    assert!(
        err.contains("line 2, column 12: a comment is not UTF-8 text"),
        "{err}"
    );
    let err = input_error(b"1. e4 e5\n2. Nf3 {never closed\n", three);
    assert!(
        err.contains("line 2, column 8: unterminated comment"),
        "{err}"
    );
    let err = input_error(b"[Event \"a\"]\n[White \"no end", "");
    assert!(err.contains("line 2, column 1: unterminated tag"), "{err}");
    let err = input_error(b"1. e4 e5 2. Ke3 *", two);
    assert!(
        err.contains("line 1, column 13: move 2 (White) 'Ke3'"),
        "{err}"
    );
}

#[test]
fn a_token_that_is_no_move_is_an_error_never_skipped() {
    // pgn-reader alone passes over these: the game would lose a move (or
    // the junk would hide one) without a word.
    let three = "Eva vier\nEva fuenf\nSpringer Felix drei\n";
    let err = input_error(b"1. e4 e5\n2. Nf3 Zz9 Nc6 3. Bb5 *\n", three);
    assert!(
        err.contains("line 2, column 8: move 2 (Black) 'Zz9': cannot be read as a move"),
        "{err}"
    );
    let four = "Eva vier\nEva fuenf\nSpringer Felix drei\nSpringer Cesar sechs\n";
    let err = input_error(b"1. e4 e5 2. Nf3 Nc6 3. Bb5junk *", four);
    assert!(
        err.contains("line 1, column 24: move 3 (White) 'Bb5junk'"),
        "{err}"
    );
    let err = input_error("1. e4\u{a0}e5 2. Nf3 *".as_bytes(), "");
    assert!(err.contains("line 1, column 4: move 1 (White)"), "{err}");
    let err = input_error(
        b"[Event \"a\"]\n\n1. e4 *\n\n[Event \"b\"]\n\n1. d4 }d5 *\n",
        "Eva vier\n\nDavid vier\n",
    );
    assert!(
        err.contains("game 2, line 7, column 7: move 1 (Black) '}d5'"),
        "{err}"
    );
}

#[test]
fn an_error_is_one_short_escaped_line() {
    let dir = tempfile::tempdir().unwrap();
    let name = format!("bad\u{1b}[31m{}\nname.pgn", "x".repeat(400));
    let path = dir.path().join(name);
    let o = rochade(&["announce", path.to_str().unwrap()], None);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(!err.contains('\u{1b}'), "{err}");
    assert!(err.contains("bad\\u{1b}[31mxxx"), "{err}");
    assert!(err.chars().count() < 330, "{}", err.len());
}

#[test]
fn input_without_moves_is_an_error() {
    let o = rochade(&["announce"], Some("hello world\n"));
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("no moves found"), "{}", stderr(&o));
}

#[test]
fn help_lists_every_command() {
    let o = rochade(&["--help"], None);
    let help = stdout(&o);
    for cmd in ["announce", "track", "board-sim", "say", "voices", "export"] {
        assert!(help.contains(cmd), "--help lacks {cmd}:\n{help}");
    }
}

#[test]
fn a_word_file_that_makes_two_squares_alike_is_refused_and_the_bundled_words_used() {
    let config = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(config.path().join("speech")).unwrap();
    std::fs::write(
        config.path().join("speech/de.toml"),
        "[files]\na = \"Bella\"\n",
    )
    .unwrap();
    let mut child = hermetic::rochade()
        .env("ROCHADE_CONFIG_DIR", config.path())
        .env("LC_ALL", "C")
        .arg("announce")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::Write;
    child.stdin.take().unwrap().write_all(b"a4 b5").unwrap();
    let out = child.wait_with_output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert_eq!(
        stdout.lines().collect::<Vec<_>>(),
        ["Anna vier", "Bella fuenf"]
    );
    assert!(
        stderr.contains("file 'b'") && stderr.contains("the bundled words are used"),
        "{stderr}"
    );
}
