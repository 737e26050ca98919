//! `rochade announce` end to end: the real binary, reading a file and stdin.

use std::io::Write;
use std::process::{Command, Output, Stdio};

fn rochade(args: &[&str], stdin: Option<&str>) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_rochade"))
        .args(args)
        .env(
            "ROCHADE_CONFIG_DIR",
            std::env::temp_dir().join("rochade-test-no-config"),
        )
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("rochade runs");
    let mut pipe = child.stdin.take().unwrap();
    pipe.write_all(stdin.unwrap_or("").as_bytes()).unwrap();
    drop(pipe);
    child.wait_with_output().unwrap()
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

#[test]
fn help_lists_every_command() {
    let o = rochade(&["--help"], None);
    let help = stdout(&o);
    for cmd in ["announce", "track", "board-sim", "say", "voices", "export"] {
        assert!(help.contains(cmd), "--help lacks {cmd}:\n{help}");
    }
}
