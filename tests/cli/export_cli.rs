//! `rochade export` through the real command line, with the options a
//! Braille reader chooses: the default, `--diagram`, `--minimal` and
//! `--contracted`, each in en, de and pt. For every one:
//! - liblouis (`lou_translate`, a tool we did not write) writes each header
//!   line to the very cells we write, and reads our cells back to the header
//!   text wherever its back-translation works for the table;
//! - the BRF is 40 cells by 25 lines, every page ends in a form feed with no
//!   line end before it, and no page is blank;
//! - the PEF is valid against the official PEF 2008-1 schema;
//! - the option does what it says (a diagram, no capture or check signs,
//!   contracted header words).
//!
//! A missing tool FAILS the test (Debian `liblouis-bin`, `liblouis-data` and
//! the packages `tests/support/pef_schema.rs` names).

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use crate::hermetic;
use crate::pef_schema;
use pef_schema::OfficialPefSchema;

const COLS: usize = 40;
const ROWS: usize = 25;

fn game() -> PathBuf {
    // A set-up position (so the diagram has something to show), checks
    // and an under-promotion.
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/export/saavedra.pgn")
}

/// Runs `rochade export --to FORMAT ARGS GAME` and returns its output.
fn export(format: &str, args: &[&str]) -> Vec<u8> {
    let out = hermetic::rochade()
        .arg("export")
        .args(["--to", format])
        .args(args)
        .arg(game())
        .output()
        .expect("run rochade");
    assert!(
        out.status.success(),
        "rochade export --to {format} {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

/// `lou_translate` over several lines at once (one line of output each).
fn lou(direction: &str, table: &str, lines: &[String]) -> Vec<String> {
    let mut child = Command::new("lou_translate")
        .args([direction, &format!("unicode.dis,{table}")])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| {
            panic!("cannot run lou_translate ({e}): install liblouis-bin and liblouis-data")
        });
    let mut input = lines.join("\n");
    input.push('\n');
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "lou_translate {direction} {table}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    let result: Vec<String> = text.lines().map(str::to_owned).collect();
    assert_eq!(result.len(), lines.len(), "{table}: {text}");
    result
}

struct Lang {
    code: &'static str,
    uncontracted: &'static str,
    contracted: &'static str,
    /// The header as print, line by line (set-up position included).
    header: [&'static str; 7],
    /// The piece lists: label (literary Braille) and pieces (chess code).
    pieces: [(&'static str, &'static str); 2],
    /// Whether liblouis's back-translation of the uncontracted table gives
    /// the line back (case aside: German Braille writes no capitals). The
    /// Portuguese tables read a 0 after the number sign back as "j"
    /// (`1-0` reads back `1-j`, liblouis 3.24), so the lines with a 0 are
    /// checked forward only.
    reads_back: fn(&str) -> bool,
}

const LANGS: [Lang; 3] = [
    Lang {
        code: "en",
        uncontracted: "en-ueb-g1.ctb",
        contracted: "en-ueb-g2.ctb",
        header: [
            "Event: Glasgow Weekly Citizen",
            "Site: Glasgow SCO",
            "Date: 18/05/1895",
            "White: Saavedra, Fernando",
            "Black: Barbier, Georges",
            "Result: 1-0",
            "Position: White to move",
        ],
        pieces: [("White: ", "⠅⠃⠖⠀⠉⠖"), ("Black: ", "⠅⠁⠂⠀⠗⠙⠢")],
        reads_back: |_| true,
    },
    Lang {
        code: "de",
        uncontracted: "de-g0.utb",
        contracted: "de-g2.ctb",
        header: [
            "Turnier: Glasgow Weekly Citizen",
            "Ort: Glasgow SCO",
            "Datum: 18.05.1895",
            "Weiß: Saavedra, Fernando",
            "Schwarz: Barbier, Georges",
            "Ergebnis: 1-0",
            "Stellung: Weiß am Zug",
        ],
        pieces: [("Weiß: ", "⠅⠃⠖⠀⠉⠖"), ("Schwarz: ", "⠅⠁⠂⠀⠞⠙⠢")],
        reads_back: |_| true,
    },
    Lang {
        code: "pt",
        uncontracted: "pt-pt-g1.utb",
        contracted: "pt-pt-g2.ctb",
        header: [
            "Evento: Glasgow Weekly Citizen",
            "Local: Glasgow SCO",
            "Data: 18/05/1895",
            "Brancas: Saavedra, Fernando",
            "Pretas: Barbier, Georges",
            "Resultado: 1-0",
            "Posição: Brancas jogam",
        ],
        pieces: [("Brancas: ", "⠗⠃⠖⠀⠉⠖"), ("Pretas: ", "⠗⠁⠂⠀⠞⠙⠢")],
        reads_back: |line| !line.contains('0'),
    },
];

/// A BRF page number: `#A` for 1, `#AJ` for 10 (North American Braille ASCII).
fn brf_page_number(n: usize) -> String {
    let digits: String = n
        .to_string()
        .chars()
        .map(|d| match d {
            '0' => 'J',
            d => (b'A' + d.to_digit(10).unwrap() as u8 - 1) as char,
        })
        .collect();
    format!("#{digits}")
}

/// 40x25 pages, a form feed after each with no line end before it, the page
/// number at the right end of line 25, no blank sheet. Returns the pages.
fn check_brf_geometry(brf: &[u8], what: &str) -> usize {
    let text = std::str::from_utf8(brf).unwrap();
    assert!(
        text.bytes()
            .all(|b| matches!(b, 0x20..=0x5F | b'\r' | b'\n' | 0x0C)),
        "{what}: a byte outside Braille ASCII"
    );
    assert!(
        !brf.windows(2).any(|w| w[1] == b'\n' && w[0] != b'\r'),
        "{what}: bare LF"
    );
    assert!(text.ends_with('\u{0C}'), "{what}: no form feed at the end");
    let pages: Vec<&str> = text.split_terminator('\u{0C}').collect();
    for (i, page) in pages.iter().enumerate() {
        assert!(
            !page.ends_with("\r\n"),
            "{what}: page {}: line end before the form feed (a blank sheet on a 25-line embosser)",
            i + 1
        );
        let lines: Vec<&str> = page.split("\r\n").collect();
        assert_eq!(lines.len(), ROWS, "{what}: page {} length", i + 1);
        for line in &lines {
            assert!(line.len() <= COLS, "{what}: '{line}' over {COLS} cells");
        }
        let number = lines[ROWS - 1];
        assert_eq!(
            number.len(),
            COLS,
            "{what}: page number not at the right end"
        );
        assert_eq!(number.trim_start(), brf_page_number(i + 1), "{what}");
        assert!(
            lines[..ROWS - 1].iter().any(|l| !l.trim().is_empty()),
            "{what}: page {} is blank",
            i + 1
        );
    }
    pages.len()
}

/// The Unicode output's lines (a form feed ends a page without a line end).
fn lines(unicode: &str) -> Vec<&str> {
    unicode.split(['\n', '\u{0C}']).collect()
}

/// The header as the Unicode output writes it: the lines from the event
/// line to the first blank line (after the legend page, if any).
fn header_lines(unicode: &str, first: &str) -> Vec<String> {
    let lines = lines(unicode);
    let start = lines
        .iter()
        .position(|l| *l == first)
        .unwrap_or_else(|| panic!("no header line {first} in\n{unicode}"));
    lines[start..]
        .iter()
        .take_while(|l| !l.is_empty())
        .map(|l| l.to_string())
        .collect()
}

/// The move lines: after the header's blank line, up to the result.
fn move_lines(unicode: &str, header_first: &str) -> Vec<String> {
    let lines = lines(unicode);
    let start = lines.iter().position(|l| *l == header_first).unwrap();
    lines[start..]
        .iter()
        .skip_while(|l| !l.is_empty())
        .filter(|l| !l.trim_matches('\u{2800}').is_empty())
        .filter(|l| !l.starts_with('\u{2800}'))
        .map(|l| l.to_string())
        .collect()
}

const FILE_LINE: &str = "⠀⠀⠁⠃⠉⠙⠑⠋⠛⠓";

#[test]
fn cli_options_read_back_fit_the_page_and_validate() {
    let dir = tempfile::tempdir().unwrap();
    let schema = OfficialPefSchema::extract(dir.path());
    let mut pefs = Vec::new();
    let mut read_back = 0;
    for lang in &LANGS {
        let mut header_by_grade = Vec::new();
        for option in ["", "--diagram", "--minimal", "--contracted"] {
            let what = format!("{} {option}", lang.code);
            let mut args = vec!["--letters", lang.code, "--lang", lang.code];
            if !option.is_empty() {
                args.push(option);
            }
            let table = if option == "--contracted" {
                lang.contracted
            } else {
                lang.uncontracted
            };

            // The header: liblouis writes each line to our cells.
            let unicode = String::from_utf8(export("unicode", &args)).unwrap();
            let print: Vec<String> = lang.header.iter().map(|s| s.to_string()).collect();
            let expected = lou("--forward", table, &print);
            let header = header_lines(&unicode, &expected[0]);
            assert_eq!(header[..print.len()], expected[..], "{what}: header");
            // The piece lists: literary label, then the chess code.
            let labels: Vec<String> = lang.pieces.iter().map(|(l, _)| l.to_string()).collect();
            let labels = lou("--forward", table, &labels);
            for (i, ((_, pieces), label)) in lang.pieces.iter().zip(&labels).enumerate() {
                // lou_translate ends the label's trailing space as a blank cell.
                let label = label.trim_end_matches('\u{2800}');
                assert_eq!(
                    header[print.len() + i],
                    format!("{label}⠀{pieces}"),
                    "{what}: piece list"
                );
            }
            // ... and reads our cells back to the print, where it can.
            if option != "--contracted" || lang.code == "en" {
                let back = lou("--backward", table, &header[..print.len()]);
                for (line, text) in back.iter().zip(&print) {
                    if (lang.reads_back)(text) {
                        assert_eq!(
                            line.to_lowercase(),
                            text.to_lowercase(),
                            "{what}: read back"
                        );
                        read_back += 1;
                    }
                }
            }
            if option.is_empty() || option == "--contracted" {
                header_by_grade.push(header.clone());
            }

            // What the option does.
            let moves = move_lines(&unicode, &expected[0]);
            let first_pair = moves
                .iter()
                .find(|l| l.starts_with("⠂⠀"))
                .unwrap_or_else(|| panic!("{what}: no move 1 in {moves:?}"));
            let rook = if lang.code == "en" { '⠗' } else { '⠞' };
            match option {
                // 1. c7 Rd6+: the check sign (dots 4-5) in full coding.
                "--minimal" => {
                    assert_eq!(*first_pair, format!("⠂⠀⠉⠶⠀{rook}⠙⠖"), "{what}");
                    for line in &moves {
                        assert!(
                            !line.contains(['⠘', '⠰', '⠸']),
                            "{what}: a capture or check sign in '{line}'"
                        );
                    }
                }
                _ => assert_eq!(*first_pair, format!("⠂⠀⠉⠶⠀{rook}⠘⠙⠖"), "{what}"),
            }
            let diagram = lines(&unicode).iter().position(|l| *l == FILE_LINE);
            if option == "--diagram" {
                let end = diagram.unwrap_or_else(|| panic!("{what}: no diagram"));
                let king = lang.pieces[0].1.chars().next().unwrap();
                let board: Vec<&str> = lines(&unicode)[end - 8..end].to_vec();
                // Rank 6: a6 light (blank), Kb6, Pc6, then dark ⠄ and light
                // blank squares; rank 5: the black rook on d5 after ⠤;
                // rank 1: the black king on a1.
                assert_eq!(board[2], format!("⠖⠀⠀{king}⠏⠄⠀⠄⠀⠄"), "{what}");
                assert_eq!(board[3], format!("⠢⠀⠄⠀⠄⠤{rook}⠄⠀⠄"), "{what}");
                assert_eq!(board[7], format!("⠂⠀⠤{king}⠀⠄⠀⠄⠀⠄"), "{what}");
            } else {
                assert_eq!(diagram, None, "{what}: a diagram not asked for");
            }

            // The page: 40 by 25, no blank sheet, in BRF and PEF.
            let pages = check_brf_geometry(&export("brf", &args), &what);
            assert!(pages >= 2, "{what}: legend page and score");
            let pef = dir.path().join(format!("{}{option}.pef", lang.code));
            std::fs::write(&pef, export("pef", &args)).unwrap();
            pefs.push(pef);
        }
        // Contracted Braille is shorter somewhere in the header.
        assert_ne!(header_by_grade[0], header_by_grade[1], "{}", lang.code);
    }
    // en 4 options x 7 lines, de 3 x 7, pt 3 x 5.
    assert_eq!(read_back, 28 + 21 + 15);
    schema.validate(&pefs).unwrap();
}

#[test]
fn nul_bytes_and_an_empty_board_log_are_errors_not_silent_successes() {
    let dir = tempfile::tempdir().unwrap();
    let nul = dir.path().join("nul.pgn");
    std::fs::write(&nul, vec![0u8; 100 * 1024]).unwrap();
    let out = hermetic::rochade()
        .args(["export", "--to", "pgn"])
        .arg(&nul)
        .output()
        .unwrap();
    assert!(!out.status.success(), "exit {:?}", out.status);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("NUL byte"), "{stderr}");
    assert!(out.stdout.is_empty(), "nothing exported");

    let empty = dir.path().join("empty.log");
    std::fs::write(&empty, "").unwrap();
    let out = hermetic::rochade()
        .args(["track", "--log"])
        .arg(&empty)
        .output()
        .unwrap();
    assert!(!out.status.success(), "exit {:?}", out.status);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("holds no board message"), "{stderr}");
}

#[test]
fn a_dash_reads_the_game_from_stdin() {
    let from_file = export("text", &[]);
    let mut child = hermetic::rochade()
        .args(["export", "--to", "text", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let pgn = std::fs::read(game()).unwrap();
    child.stdin.take().unwrap().write_all(&pgn).unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        out.stdout, from_file,
        "the same scoresheet as from the file"
    );
}

/// `--game all` through the command line: every game of an event file as
/// one BRF book of 40x25 pages with running page numbers, its contents
/// naming each game; the same bytes from standard input; PGN of all the
/// games read back by our reader; a file with a bad game refused with the
/// game's number, and `--game 0` or `--game x` refused, nothing written.
#[test]
fn game_all_exports_a_whole_event() {
    let dir = tempfile::tempdir().unwrap();
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/export");
    let mut event = Vec::new();
    for stem in [
        "opera",
        "lasker-thomas",
        "saavedra",
        "club-draw",
        "black-starts",
    ] {
        event.extend(std::fs::read(data.join(format!("{stem}.pgn"))).unwrap());
        event.push(b'\n');
    }
    let file = dir.path().join("event.pgn");
    std::fs::write(&file, &event).unwrap();
    let run = |args: &[&str]| {
        hermetic::rochade()
            .arg("export")
            .args(args)
            .arg(&file)
            .output()
            .unwrap()
    };
    let out = run(&["--to", "brf", "--game", "all"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let pages = check_brf_geometry(&out.stdout, "book");
    let one = check_brf_geometry(&export("brf", &[]), "saavedra alone");
    assert!(pages > 5 + one, "{pages} pages for five games");
    let text = String::from_utf8_lossy(&out.stdout);
    // BRF capitals: the contents' title and the players.
    assert!(text.contains(",CONTENTS"), "{text}");
    for name in ["MORPHY", "LASKER", "SAAVEDRA"] {
        assert!(text.contains(name), "{name} missing");
    }
    // Standard input gives the same book.
    let mut child = hermetic::rochade()
        .args(["export", "--to", "brf", "--game", "all", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(&event).unwrap();
    let from_stdin = child.wait_with_output().unwrap();
    assert_eq!(from_stdin.stdout, out.stdout);
    // PGN: all five games, read back.
    let out = run(&["--to", "pgn", "--game", "all"]);
    let pgn = String::from_utf8(out.stdout).unwrap();
    assert_eq!(rochade::export::read_all_pgn(&pgn).unwrap().len(), 5);
    // Bad input is refused, with what is wrong.
    for (arg, said) in [("0", "counts from 1"), ("x", "no game number")] {
        let out = run(&["--to", "brf", "--game", arg]);
        assert!(!out.status.success());
        assert!(String::from_utf8_lossy(&out.stderr).contains(said));
    }
    let mut broken = event.clone();
    broken.extend(b"[White \"X\"]\n\n1. e4 e5 2. Ke3 *\n");
    std::fs::write(&file, &broken).unwrap();
    let book = dir.path().join("book.brf");
    let out = run(&["--to", "brf", "--game", "all", "-o", book.to_str().unwrap()]);
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("game 6"), "{stderr}");
    assert!(!book.exists(), "nothing written");
}
