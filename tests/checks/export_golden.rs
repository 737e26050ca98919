//! Golden files for every export format. The inputs are the PGN files in
//! `tests/data/export/`; each output sits next to them.
//!
//! To regenerate after an intended change: `UPDATE_GOLDEN=1 cargo test
//! --test checks export_golden::`, then read the diff (`git diff tests/data/export`)
//! before committing it.

use std::path::{Path, PathBuf};
use std::process::Command;

use rochade::braille::Layout;
use rochade::chess::Letters;
use rochade::export::{ExportOptions, Format, read_pgn};
use rochade::words::Lang;

struct Case {
    stem: &'static str,
    letters: Letters,
    lang: Lang,
    layout: Layout,
}

const DEFAULT: Layout = Layout { cols: 40, rows: 25 };

/// Opera game: long castling, mate. Lasker-Thomas: short castling, king-walk
/// mate. Saavedra: FEN start, under-promotion to a rook. Club draw:
/// en passant, both castlings, draw offers, clocks, accented names. Black
/// starts: a game from a FEN with Black to move, under-promotion to a
/// knight, promotion with check, castling. The small layout paginates and
/// wraps.
const CASES: &[Case] = &[
    Case {
        stem: "opera",
        letters: Letters::En,
        lang: Lang::En,
        layout: DEFAULT,
    },
    Case {
        stem: "opera",
        letters: Letters::En,
        lang: Lang::En,
        layout: Layout { cols: 14, rows: 8 },
    },
    Case {
        stem: "lasker-thomas",
        letters: Letters::De,
        lang: Lang::De,
        layout: DEFAULT,
    },
    Case {
        stem: "saavedra",
        letters: Letters::Pt,
        lang: Lang::Pt,
        layout: DEFAULT,
    },
    Case {
        stem: "club-draw",
        letters: Letters::De,
        lang: Lang::De,
        layout: DEFAULT,
    },
    Case {
        stem: "club-draw",
        letters: Letters::Pt,
        lang: Lang::Pt,
        layout: DEFAULT,
    },
    Case {
        stem: "club-draw",
        letters: Letters::En,
        lang: Lang::En,
        layout: DEFAULT,
    },
    Case {
        stem: "black-starts",
        letters: Letters::En,
        lang: Lang::En,
        layout: DEFAULT,
    },
];

fn data_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/export")
}

fn extension(format: Format) -> &'static str {
    match format {
        Format::Unicode => "unicode.txt",
        Format::Brf => "brf",
        Format::Pef => "pef",
        Format::Pgn => "pgn",
        Format::Text => "text.txt",
    }
}

fn golden_path(case: &Case, format: Format) -> PathBuf {
    let size = if case.layout == DEFAULT {
        String::new()
    } else {
        format!(".{}x{}", case.layout.cols, case.layout.rows)
    };
    let name = format!(
        "{}.{}-{}{size}.{}",
        case.stem,
        case.letters.code(),
        case.lang.code(),
        extension(format)
    );
    data_dir().join("golden").join(name)
}

fn updating() -> bool {
    std::env::var_os("UPDATE_GOLDEN").is_some_and(|v| v == "1")
}

/// Compares with the golden file, or writes it when `UPDATE_GOLDEN=1`.
fn check_golden(path: &Path, actual: &[u8]) -> Result<(), String> {
    if updating() {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, actual).unwrap();
        return Ok(());
    }
    let expected = std::fs::read(path).map_err(|e| {
        format!(
            "{}: {e} (run with UPDATE_GOLDEN=1 to create it)",
            path.display()
        )
    })?;
    if expected != actual {
        return Err(format!(
            "{} differs:\n--- expected\n{}\n--- actual\n{}",
            path.display(),
            String::from_utf8_lossy(&expected),
            String::from_utf8_lossy(actual)
        ));
    }
    Ok(())
}

#[test]
fn every_format_matches_its_golden_file() {
    let mut failures = Vec::new();
    for case in CASES {
        let pgn = std::fs::read_to_string(data_dir().join(format!("{}.pgn", case.stem))).unwrap();
        let record = read_pgn(&pgn, 0).unwrap_or_else(|e| panic!("{}: {e}", case.stem));
        let exporter = rochade::louis::bundled_exporter(ExportOptions {
            letters: case.letters,
            lang: case.lang,
            layout: case.layout,
            ..ExportOptions::default()
        })
        .unwrap();
        for format in Format::ALL {
            let out = exporter.render(&record, format).unwrap();
            if let Err(e) = check_golden(&golden_path(case, format), &out) {
                failures.push(e);
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// Hand-checked lines of the Opera game against the UK code as the spec
/// gives it, so a regenerated golden cannot silently change the code.
#[test]
fn opera_game_hand_checked() {
    let path = golden_path(&CASES[0], Format::Unicode);
    let text = std::fs::read_to_string(&path).unwrap();
    // Lines end in LF; a form feed starts each page after the first.
    let lines: Vec<&str> = text.split(['\n', '\u{0C}']).collect();
    // 1.e4 e5: lower-cell 1, blank, e4, blank, e5.
    assert!(lines.contains(&"⠂⠀⠑⠲⠀⠑⠢"), "{text}");
    // 2.Nf3 d6: the knight is s.
    assert!(lines.contains(&"⠆⠀⠎⠋⠒⠀⠙⠖"), "{text}");
    // 4.dxe5 Bxf3: capture sign dots 5-6 before the destination; bishop l.
    assert!(lines.contains(&"⠲⠀⠙⠰⠑⠢⠀⠇⠰⠋⠒"), "{text}");
    // 11.Bxb5+ Nbd7: capture with check dots 4-5-6; file disambiguation.
    assert!(lines.contains(&"⠂⠂⠀⠇⠸⠃⠢⠀⠎⠃⠙⠶"), "{text}");
    // 12.O-O-O Rd8.
    assert!(lines.contains(&"⠂⠆⠀⠴⠤⠴⠤⠴⠀⠗⠙⠦"), "{text}");
    // 17.Rd8# then the result 1-0.
    assert!(lines.contains(&"⠂⠶⠀⠗⠙⠦⠜⠍"), "{text}");
    // The result in literary Braille (UEB): #a-#j.
    assert!(lines.contains(&"⠼⠁⠤⠼⠚"), "{text}");
    // Header: "White: Morphy, Paul" in UEB grade 1.
    assert!(lines.contains(&"⠠⠺⠓⠊⠞⠑⠒⠀⠠⠍⠕⠗⠏⠓⠽⠂⠀⠠⠏⠁⠥⠇"), "{text}");
}

#[test]
fn command_line_writes_the_golden_output() {
    let config = tempfile::tempdir().unwrap();
    let out_dir = tempfile::tempdir().unwrap();
    let case = &CASES[4];
    for format in Format::ALL {
        let out = out_dir.path().join(format!("out.{}", format.extension()));
        let status = Command::new(env!("CARGO_BIN_EXE_rochade"))
            .env("ROCHADE_CONFIG_DIR", config.path())
            .args([
                "export",
                "--to",
                format.code(),
                "--letters",
                "de",
                "--lang",
                "de",
                "-o",
            ])
            .arg(&out)
            .arg(data_dir().join("club-draw.pgn"))
            .status()
            .unwrap();
        assert!(status.success(), "{format}");
        let expected = std::fs::read(golden_path(case, format)).unwrap();
        assert_eq!(std::fs::read(&out).unwrap(), expected, "{format}");
    }
    // Standard output when there is no -o.
    let game = data_dir().join("club-draw.pgn");
    let output = export_with_config(
        config.path(),
        &[
            "--to",
            "brf",
            "--letters",
            "de",
            "--lang",
            "de",
            game.to_str().unwrap(),
        ],
    );
    assert!(output.status.success());
    assert_eq!(
        output.stdout,
        std::fs::read(golden_path(case, Format::Brf)).unwrap()
    );
}

/// `rochade export ARGS` with the config folder `config`.
fn export_with_config(config: &Path, args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_rochade"))
        .env("ROCHADE_CONFIG_DIR", config)
        .arg("export")
        .args(args)
        .output()
        .unwrap()
}

#[test]
fn command_line_errors_are_clear_and_exit_2() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.pgn");
    std::fs::write(
        &bad,
        "[Event \"x\"]\n\n1. e4 e5 2. Nf3 Nc6\n3. Bb5 a6 4. Ba4 Nf6\n5. O-O Be7 6. Nf6 *\n",
    )
    .unwrap();
    let run = |args: &[&str]| export_with_config(dir.path(), args);
    let out = run(&["--to", "brf", bad.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("line 5: illegal move 'Nf6' (move 6 for White"),
        "{err}"
    );

    let out = run(&["--to", "brf", "--game", "2", bad.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("game 2 was asked for"));

    let out = run(&["--to", "brf", "--cols", "5", bad.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("at least"));

    let missing = dir.path().join("missing.pgn");
    let out = run(&["--to", "pgn", missing.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot read"));

    let out = run(&["--to", "docx", bad.to_str().unwrap()]);
    assert_eq!(
        out.status.code(),
        Some(2),
        "clap reports a bad value with exit code 2"
    );
}

/// A token of the movetext that is no move stops the export with its place,
/// in every format: the scoresheet never lacks a move the file has.
#[test]
fn an_unreadable_move_is_an_error_not_a_gap() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.pgn");
    std::fs::write(
        &bad,
        "[Event \"x\"]\n\n1. e4 e5 2. Nf3 Nc6\n3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7\n6. Re1 b5 7. Bb3 d6 8. c3 Oo *\n",
    )
    .unwrap();
    for format in ["pgn", "text", "brf"] {
        let out = export_with_config(dir.path(), &["--to", format, bad.to_str().unwrap()]);
        assert_eq!(out.status.code(), Some(2), "--to {format}");
        assert!(out.stdout.is_empty(), "--to {format}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains("line 5: unreadable move 'Oo' (move 8 for Black)"),
            "--to {format}: {err}"
        );
    }
}

/// An expert's corrected table in the config folder changes the output
/// without a rebuild; a broken one is reported with its file and key.
#[test]
fn user_tables_override_the_bundled_signs() {
    let config = tempfile::tempdir().unwrap();
    let braille = config.path().join("braille");
    std::fs::create_dir_all(&braille).unwrap();
    let bundled = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/braille/chess-uk.toml"),
    )
    .unwrap();
    // Castling as the letters o-o instead of zeros.
    let changed = bundled.replace(
        "castle_short = \"356 36 356\"",
        "castle_short = \"135 36 135\"",
    );
    assert_ne!(changed, bundled);
    std::fs::write(braille.join("chess-uk.toml"), &changed).unwrap();
    let game = data_dir().join("lasker-thomas.pgn");
    let run = || export_with_config(config.path(), &["--to", "brf", game.to_str().unwrap()]);
    let out = run();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let brf = String::from_utf8(out.stdout).unwrap();
    assert!(brf.contains("8 SE5 O-O\r\n"), "{brf}");

    std::fs::write(
        braille.join("chess-uk.toml"),
        bundled.replace("mate = \"345 134\"", "mate = \"3x\""),
    )
    .unwrap();
    let out = run();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("chess-uk.toml") && err.contains("signs.mate"),
        "{err}"
    );
}
