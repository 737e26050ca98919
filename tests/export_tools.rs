//! Exports checked by tools we did not write: python-chess and pgn-extract
//! read our PGN, liblouis's `en-us-brf.dis` maps our BRF onto our Unicode
//! Braille, the official PEF 2008-1 schema (RELAX NG through xmllint, its
//! Schematron rules through Jing) and a Python check judge our PEF. A
//! missing tool FAILS the test (install: `pip install chess`; Debian
//! `pgn-extract`, `liblouis-data`, `libxml2-utils`, `python3`,
//! `libbrailleutils-java`, `libjing-java`, `libsaxonhe-java`,
//! `default-jre-headless`, `unzip`).

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use rochade::braille::Layout;
use rochade::chess::{GameRecord, Letters};
use rochade::export::{ExportOptions, Format, read_pgn};
use rochade::words::Lang;
use shakmaty::CastlingMode;

#[path = "support/pef_schema.rs"]
mod pef_schema;
use pef_schema::OfficialPefSchema;

const GAMES: [&str; 5] = [
    "opera",
    "lasker-thomas",
    "saavedra",
    "club-draw",
    "black-starts",
];

fn data_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/export")
}

fn games() -> Vec<(&'static str, GameRecord)> {
    GAMES
        .iter()
        .map(|stem| {
            let pgn = std::fs::read_to_string(data_dir().join(format!("{stem}.pgn"))).unwrap();
            (*stem, read_pgn(&pgn, 0).unwrap())
        })
        .collect()
}

/// Runs a tool; a missing tool is a failure that says what to install.
fn run(program: &str, args: &[&str], install: &str) -> Output {
    Command::new(program)
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("cannot run {program} ({e}): install {install}"))
}

fn pgn_extract() -> &'static str {
    // Debian installs it under /usr/games, which is not always on PATH.
    if Path::new("/usr/games/pgn-extract").exists() {
        "/usr/games/pgn-extract"
    } else {
        "pgn-extract"
    }
}

fn uci_moves(record: &GameRecord) -> Vec<String> {
    record
        .moves()
        .iter()
        .map(|m| m.mv.to_uci(CastlingMode::Standard).to_string())
        .collect()
}

/// python-chess's reading of a PGN file ([`PYTHON_READ_PGN`]) as JSON.
fn python_read(script: &std::path::Path, file: &std::path::Path) -> serde_json::Value {
    let out = run(
        "python3",
        &[script.to_str().unwrap(), file.to_str().unwrap()],
        "python3 and `pip install chess`",
    );
    assert!(
        out.status.success(),
        "{}: {}",
        file.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

const PYTHON_READ_PGN: &str = r#"
import json, sys
import chess.pgn
game = chess.pgn.read_game(open(sys.argv[1], encoding="utf-8"))
if game.errors:
    sys.exit("python-chess errors: %r" % game.errors)
moves, clocks, offers = [], [], []
for node in game.mainline():
    moves.append(node.move.uci())
    clk = node.clock()
    clocks.append(None if clk is None else int(round(clk * 1000)))
    offers.append("(=)" in node.comment)
print(json.dumps({"headers": dict(game.headers), "moves": moves, "clocks": clocks, "offers": offers}))
"#;

#[test]
fn python_chess_reads_our_pgn_to_the_same_game() {
    let dir = tempfile::tempdir().unwrap();
    let script = dir.path().join("read.py");
    std::fs::write(&script, PYTHON_READ_PGN).unwrap();
    for (stem, record) in games() {
        let pgn = rochade::louis::bundled_exporter(ExportOptions::default())
            .unwrap()
            .render(&record, Format::Pgn)
            .unwrap();
        let file = dir.path().join(format!("{stem}.pgn"));
        std::fs::write(&file, &pgn).unwrap();
        let json = python_read(&script, &file);
        let headers = &json["headers"];
        let t = &record.tags;
        for (name, value) in [
            ("Event", &t.event),
            ("Site", &t.site),
            ("Date", &t.date),
            ("Round", &t.round),
            ("White", &t.white),
            ("Black", &t.black),
        ] {
            assert_eq!(
                headers[name].as_str(),
                Some(value.as_str()),
                "{stem}: {name}"
            );
        }
        assert_eq!(
            headers["Result"].as_str(),
            Some(record.result_str()),
            "{stem}"
        );
        assert_eq!(
            headers["TimeControl"].as_str(),
            t.time_control.as_deref(),
            "{stem}"
        );
        assert_eq!(
            headers["FEN"].as_str(),
            record.start_fen().as_deref(),
            "{stem}"
        );
        let moves: Vec<String> = serde_json::from_value(json["moves"].clone()).unwrap();
        assert_eq!(moves, uci_moves(&record), "{stem}");
        let clocks: Vec<Option<u64>> = serde_json::from_value(json["clocks"].clone()).unwrap();
        assert_eq!(
            clocks,
            record
                .moves()
                .iter()
                .map(|m| m.clock_ms)
                .collect::<Vec<_>>(),
            "{stem}"
        );
        let offers: Vec<bool> = serde_json::from_value(json["offers"].clone()).unwrap();
        assert_eq!(
            offers,
            record
                .moves()
                .iter()
                .map(|m| m.draw_offer)
                .collect::<Vec<_>>(),
            "{stem}"
        );
        assert!(
            String::from_utf8_lossy(&pgn)
                .lines()
                .all(|l| l.chars().count() <= 80),
            "{stem}: line over 80"
        );
    }
    // The test games do carry what the check is about.
    let club = &games()[3].1;
    assert!(
        club.moves().iter().any(|m| m.draw_offer)
            && club.moves().iter().all(|m| m.clock_ms.is_some())
    );
}

#[test]
fn pgn_extract_accepts_our_pgn() {
    let dir = tempfile::tempdir().unwrap();
    for (stem, record) in games() {
        let file = dir.path().join(format!("{stem}.pgn"));
        std::fs::write(
            &file,
            rochade::louis::bundled_exporter(ExportOptions::default())
                .unwrap()
                .render(&record, Format::Pgn)
                .unwrap(),
        )
        .unwrap();
        let out = run(
            pgn_extract(),
            &["-s", "-Wuci", "--nocomments", file.to_str().unwrap()],
            "Debian package pgn-extract",
        );
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            out.status.success() && stderr.trim().is_empty(),
            "{stem}: pgn-extract: {stderr}"
        );
        let stdout = String::from_utf8_lossy(&out.stdout);
        // Movetext lines are those after the tags; the last token is the result.
        let tokens: Vec<String> = stdout
            .lines()
            .filter(|l| !l.starts_with('[') && !l.trim().is_empty())
            .flat_map(|l| {
                l.split_whitespace()
                    .map(str::to_lowercase)
                    .collect::<Vec<_>>()
            })
            .collect();
        let (result, moves) = tokens.split_last().expect("pgn-extract wrote the game");
        assert_eq!(result, record.result_str(), "{stem}");
        assert_eq!(moves, uci_moves(&record), "{stem}");
    }
}

/// liblouis's North American Braille ASCII display table: character → dots.
fn brf_display_table() -> HashMap<u8, char> {
    let path = "/usr/share/liblouis/tables/en-us-brf.dis";
    let text = std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("{path}: {e}: install the Debian package liblouis-data"));
    let mut table = HashMap::new();
    for line in text.lines() {
        let mut fields = line.split_whitespace();
        if fields.next() != Some("display") {
            continue;
        }
        let (Some(ch), Some(dots)) = (fields.next(), fields.next()) else {
            continue;
        };
        let byte = match ch {
            "\\s" => b' ',
            "\\\\" => b'\\',
            c if c.len() == 1 => c.as_bytes()[0],
            other => panic!("unexpected entry {other} in {path}"),
        };
        let mask: u32 = dots
            .chars()
            .filter_map(|d| d.to_digit(10))
            .filter(|&d| d > 0)
            .map(|d| 1 << (d - 1))
            .sum();
        table.insert(byte, char::from_u32(0x2800 + mask).unwrap());
    }
    assert_eq!(table.len(), 64, "en-us-brf.dis has 64 cells");
    table
}

fn layouts() -> Vec<(Letters, Lang, Layout)> {
    vec![
        (Letters::En, Lang::En, Layout { cols: 40, rows: 25 }),
        (Letters::De, Lang::De, Layout { cols: 32, rows: 10 }),
        (Letters::Pt, Lang::Pt, Layout { cols: 16, rows: 6 }),
    ]
}

#[test]
fn brf_maps_to_the_unicode_output_through_liblouis() {
    let table = brf_display_table();
    let mut pages_seen = 0;
    for (stem, record) in games() {
        for (letters, lang, layout) in layouts() {
            let exporter = rochade::louis::bundled_exporter(ExportOptions {
                letters,
                lang,
                layout,
                ..ExportOptions::default()
            })
            .unwrap();
            let brf = exporter.render(&record, Format::Brf).unwrap();
            let unicode =
                String::from_utf8(exporter.render(&record, Format::Unicode).unwrap()).unwrap();
            let mapped: String = brf
                .split(|&b| b == b'\n')
                .map(|line| {
                    // CR LF line ends: every line but the tail ends in CR.
                    line.strip_suffix(b"\r").unwrap_or(line)
                })
                .map(|line| {
                    line.iter()
                        .map(|b| match b {
                            0x0C => '\u{0C}',
                            b => *table.get(b).unwrap_or_else(|| {
                                panic!("{stem}: byte {b:#x} not in en-us-brf.dis")
                            }),
                        })
                        .collect::<String>()
                })
                .collect::<Vec<_>>()
                .join("\n");
            assert_eq!(mapped, unicode, "{stem} {letters} {lang}");
            assert!(
                !brf.windows(2).any(|w| w[1] == b'\n' && w[0] != b'\r'),
                "{stem}: bare LF"
            );
            let text = String::from_utf8(brf).unwrap();
            // A form feed after every page, no line end before it (no blank
            // sheet on an embosser set to the page length).
            assert!(text.ends_with('\u{0C}'), "{stem}: no form feed at the end");
            let pages: Vec<&str> = text.split_terminator('\u{0C}').collect();
            pages_seen += pages.len();
            for page in &pages {
                assert!(
                    !page.ends_with("\r\n"),
                    "{stem}: line end before a form feed"
                );
                let lines: Vec<&str> = page.split("\r\n").collect();
                assert!(
                    lines.len() <= layout.rows,
                    "{stem}: page of {} lines",
                    lines.len()
                );
                for line in lines {
                    assert!(
                        line.len() <= layout.cols,
                        "{stem}: line '{line}' over {}",
                        layout.cols
                    );
                }
            }
        }
    }
    assert!(pages_seen > 3 * GAMES.len(), "the small layouts paginate");
}

const PYTHON_CHECK_PEF: &str = r#"
import sys
import xml.etree.ElementTree as ET
P = "{http://www.daisy.org/ns/2008/pef}"
DC = "{http://purl.org/dc/elements/1.1/}"
root = ET.parse(sys.argv[1]).getroot()
assert root.tag == P + "pef", root.tag
assert root.get("version") == "2008-1"
meta = root.find(P + "head/" + P + "meta")
assert meta is not None, "no head/meta"
fmt = meta.find(DC + "format")
assert fmt is not None and fmt.text == "application/x-pef+xml", "dc:format"
ident = meta.find(DC + "identifier")
assert ident is not None and ident.text and ident.text.strip(), "dc:identifier"
date = meta.find(DC + "date")
if date is not None:
    import re
    assert re.fullmatch(r"\d{4}-\d{2}-\d{2}", date.text), date.text
volumes = root.findall(P + "body/" + P + "volume")
assert volumes, "no volume"
pages = 0
for volume in volumes:
    cols, rows = int(volume.get("cols")), int(volume.get("rows"))
    assert volume.get("rowgap") is not None and volume.get("duplex") in ("true", "false")
    sections = volume.findall(P + "section")
    assert sections, "no section"
    for section in sections:
        for page in section.findall(P + "page"):
            pages += 1
            page_rows = page.findall(P + "row")
            assert len(page_rows) <= rows, "page with %d rows > %d" % (len(page_rows), rows)
            for row in page_rows:
                text = row.text or ""
                assert len(text) <= cols, "row of %d cells > %d" % (len(text), cols)
                for ch in text:
                    assert 0x2800 <= ord(ch) <= 0x28FF, "U+%04X in a row" % ord(ch)
print(pages)
"#;

#[test]
fn pef_is_valid_against_the_official_schema_and_follows_the_rules() {
    let dir = tempfile::tempdir().unwrap();
    let schema = OfficialPefSchema::extract(dir.path());
    let mut files = Vec::new();
    let script = dir.path().join("check_pef.py");
    std::fs::write(&script, PYTHON_CHECK_PEF).unwrap();
    for (stem, mut record) in games() {
        // Characters XML must escape, in the title.
        record.tags.event.push_str(" <A & B> \"quoted\"");
        for (letters, lang, layout) in layouts() {
            let exporter = rochade::louis::bundled_exporter(ExportOptions {
                letters,
                lang,
                layout,
                ..ExportOptions::default()
            })
            .unwrap();
            let file = dir.path().join(format!("{stem}-{}.pef", lang.code()));
            std::fs::write(&file, exporter.render(&record, Format::Pef).unwrap()).unwrap();
            let out = run(
                "xmllint",
                &["--noout", file.to_str().unwrap()],
                "Debian package libxml2-utils",
            );
            assert!(
                out.status.success(),
                "{stem}: xmllint: {}",
                String::from_utf8_lossy(&out.stderr)
            );
            let out = run(
                "python3",
                &[script.to_str().unwrap(), file.to_str().unwrap()],
                "python3",
            );
            assert!(
                out.status.success(),
                "{stem}: {}",
                String::from_utf8_lossy(&out.stderr)
            );
            let pages: usize = String::from_utf8_lossy(&out.stdout).trim().parse().unwrap();
            let sheet = exporter.scoresheet(&record).unwrap();
            assert_eq!(pages, sheet.pages.len(), "{stem}");
            files.push(file);
        }
    }
    // One run of each validator over all files (the JVM starts once).
    schema.validate(&files).unwrap();
    assert_eq!(files.len(), GAMES.len() * layouts().len());

    // The check can fail: a row one cell too long (Schematron rule 2), a
    // page one row too long (rule 1), an element PEF does not know (RELAX NG).
    let good = std::fs::read_to_string(&files[0]).unwrap();
    let cols: usize = attr(&good, "cols");
    let rows: usize = attr(&good, "rows");
    let broken = [
        (
            "row",
            good.replacen("<row>", &format!("<row>{}", "\u{283F}".repeat(cols + 1)), 1),
            "[Rule 2]",
        ),
        (
            "page",
            good.replacen(
                "<row>",
                &format!("{}<row>", "<row></row>".repeat(rows + 1)),
                1,
            ),
            "[Rule 1]",
        ),
        (
            "element",
            good.replacen("<row>", "<line/><row>", 1),
            "relaxng",
        ),
    ];
    for (what, text, expected) in broken {
        let file = dir.path().join(format!("broken-{what}.pef"));
        std::fs::write(&file, text).unwrap();
        let err = schema
            .validate(std::slice::from_ref(&file))
            .expect_err(what);
        assert!(err.contains(expected), "{what}: {err}");
    }
}

/// A numeric attribute of the first element that has it.
fn attr(xml: &str, name: &str) -> usize {
    let key = format!(" {name}=\"");
    let start = xml.find(&key).unwrap_or_else(|| panic!("no {name}")) + key.len();
    xml[start..].split('"').next().unwrap().parse().unwrap()
}

/// Our liblouis calls (the C API, `rochade::louis`) against liblouis's own
/// command-line tool (`lou_translate`), uncontracted and contracted, for
/// names with accents.
#[test]
fn header_text_agrees_with_liblouis() {
    let cases: &[(Lang, &str, &[&str])] = &[
        (
            Lang::De,
            "de-g0.utb",
            &[
                "Jürgen Müller-Weiß",
                "Köln",
                "Bärbel Schröder",
                "Runde 5.2",
                "2025.03.14",
                "José Raúl Capablanca",
                "1-0",
            ],
        ),
        (
            Lang::Pt,
            "pt-pt-g1.utb",
            &[
                "João Gonçalves Araújo",
                "Rodada 3",
                "São Paulo",
                "Ritmo: 90+30",
                "Brancas: Mário Fuentes",
                "Lisboa, 2025",
            ],
        ),
        (
            Lang::En,
            "en-ueb-g1.ctb",
            &[
                "Jürgen Müller-Weiß",
                "José Raúl Capablanca",
                "Round 5.2",
                "Time control: 5400+30",
                "Hastings",
                "FIDE Open",
            ],
        ),
    ];
    use rochade::braille::Translator;
    use rochade::louis::{Grade, Louis, table_name as louis_table};
    for ((lang, table_name, texts), grade) in cases
        .iter()
        .flat_map(|case| [(case, Grade::Uncontracted), (case, Grade::Contracted)])
    {
        let louis = Louis::new(*lang, grade).unwrap();
        if grade == Grade::Uncontracted {
            assert_eq!(louis_table(*lang, grade), *table_name);
        }
        let table_name = louis_table(*lang, grade);
        for text in *texts {
            let expected = lou_translate("--forward", table_name, text);
            let ours = rochade::braille::to_unicode_line(&louis.translate(text));
            assert_eq!(ours, expected, "{lang:?} '{text}' ({table_name})");
        }
    }
}

/// The save file (with its extras: millisecond clocks, `[%at]`, a pending
/// draw offer, the date filled in) is read by python-chess and pgn-extract
/// to the same game, and by our import.
#[test]
fn save_file_is_read_by_python_chess_and_pgn_extract() {
    use rochade::savegame::{GameStore, Saved};
    use shakmaty::san::San;
    let dir = tempfile::tempdir().unwrap();
    let store = GameStore::new(dir.path().join("data"));
    let mut g = GameRecord::new();
    g.tags.white = "Müller, Jörg".into();
    g.tags.black = "Silva, Zé".into();
    g.tags.time_control = Some("5400+30".into());
    for (i, san) in ["e4", "c5", "Nf3", "d6"].into_iter().enumerate() {
        let mv = san.parse::<San>().unwrap().to_move(g.position()).unwrap();
        g.play(mv, Some(1_000 + i as u64 * 7_250)).unwrap();
        g.set_last_clock(5_400_000 - i as u64 * 1_250);
    }
    g.offer_draw(shakmaty::Color::White);
    let saved = store.save_current(&g).unwrap();
    assert_eq!(saved, Saved::InProgress(store.current_path()));
    let file = store.current_path();
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(text.contains("[%at 0:00:08.250]"), "{text}");
    assert!(text.contains("[DrawOfferPending \"white\"]"), "{text}");

    let script = dir.path().join("read.py");
    std::fs::write(&script, PYTHON_READ_PGN).unwrap();
    let json = python_read(&script, &file);
    let date = json["headers"]["Date"].as_str().unwrap().to_owned();
    // A real calendar date (today's), not "????.??.??".
    assert!(rochade::pgn::parse_pgn_date(&date).is_some(), "{date}");
    assert_eq!(json["headers"]["White"].as_str(), Some("Müller, Jörg"));
    assert_eq!(json["headers"]["Black"].as_str(), Some("Silva, Zé"));
    let moves: Vec<String> = serde_json::from_value(json["moves"].clone()).unwrap();
    assert_eq!(moves, uci_moves(&g));
    let clocks: Vec<Option<u64>> = serde_json::from_value(json["clocks"].clone()).unwrap();
    assert_eq!(clocks[3], Some(5_396_250));

    let out = run(
        pgn_extract(),
        &["-s", "-Wuci", "--nocomments", file.to_str().unwrap()],
        "Debian package pgn-extract",
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success() && stderr.trim().is_empty(), "{stderr}");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("e2e4 c7c5 g1f3 d7d6 *"), "{stdout}");
    assert!(stdout.contains(&format!("[Date \"{date}\"]")), "{stdout}");

    // The import reads the save file too, and the save reader keeps it all.
    let imported = read_pgn(&text, 0).unwrap();
    assert_eq!(uci_moves(&imported), uci_moves(&g));
    assert_eq!(imported.tags.date, date);
    let resumed = rochade::savegame::from_pgn(&text).unwrap();
    assert_eq!(resumed.moves(), g.moves());
    assert_eq!(resumed.open_draw_offer(), Some(shakmaty::Color::White));
}

/// A book's cells: each page's content lines (the running header and the
/// page-number line taken off), blank lines left out.
fn content_lines(pages: &[Vec<Vec<u8>>], running: bool) -> Vec<Vec<u8>> {
    pages
        .iter()
        .flat_map(|page| {
            let body = &page[..page.len() - 1];
            body[usize::from(running)..].to_vec()
        })
        .filter(|line| line.iter().any(|&c| c != 0))
        .collect()
}

/// liblouis's own tool on one line (`--forward`: print to Unicode
/// Braille, `--backward`: back to print).
fn lou_translate(direction: &str, table: &str, text: &str) -> String {
    let out = Command::new("lou_translate")
        .args([direction, &format!("unicode.dis,{table}")])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .and_then(|mut child| {
            use std::io::Write;
            child.stdin.take().unwrap().write_all(text.as_bytes())?;
            child.wait_with_output()
        })
        .unwrap_or_else(|e| {
            panic!("cannot run lou_translate ({e}): install liblouis-bin and liblouis-data")
        });
    assert!(
        out.status.success(),
        "lou_translate {table}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout)
        .unwrap()
        .trim_end_matches('\n')
        .to_owned()
}

/// Reads Braille back to print with liblouis's own tool.
fn back_translate(table: &str, cells: &[u8]) -> String {
    let text = rochade::braille::to_unicode_line(cells);
    lou_translate("--backward", table, &text).trim().to_owned()
}

/// `rochade export --game all`: the five games as one book. Every game is
/// in it whole (its lines as its own scoresheet has them), from the page
/// its contents entry names; the event runs at the top of every page after
/// the legend; liblouis reads the contents back to the players; the PEF is
/// valid against the official schema.
#[test]
fn a_braille_book_of_an_event_holds_every_game_from_the_page_its_contents_name() {
    let records: Vec<GameRecord> = games().into_iter().map(|(_, r)| r).collect();
    let dir = tempfile::tempdir().unwrap();
    let schema = OfficialPefSchema::extract(dir.path());
    let mut files = Vec::new();
    for (letters, lang, layout) in layouts() {
        let options = ExportOptions {
            letters,
            lang,
            layout,
            ..ExportOptions::default()
        };
        let exporter = rochade::louis::bundled_exporter(options).unwrap();
        let single = rochade::louis::bundled_exporter(ExportOptions {
            legend: false,
            ..options
        })
        .unwrap();
        let book = exporter.book(&records).unwrap();
        for page in &book.pages {
            assert_eq!(page.len(), layout.rows, "{lang:?}");
            assert!(page.iter().all(|l| l.len() <= layout.cols), "{lang:?}");
        }
        // The legend comes first; then the contents, under the event.
        let title = exporter
            .literary
            .translate(&exporter.tables.literary.book.contents);
        let legend_pages = book
            .pages
            .iter()
            .position(|page| page[1].starts_with(&title))
            .expect("a contents page");
        assert!(legend_pages > 0, "{lang:?}: the legend first");
        let event = records[0].tags.event.trim();
        let running = &book.pages[legend_pages][0];
        let table = rochade::louis::table_name(lang, rochade::louis::Grade::Uncontracted);
        let read_back = back_translate(table, running).to_lowercase();
        assert!(
            event
                .to_lowercase()
                .starts_with(read_back.trim_end_matches('-')),
            "{lang:?}: running header '{read_back}' for '{event}'"
        );
        for page in &book.pages[legend_pages..] {
            assert_eq!(
                &page[0], running,
                "{lang:?}: every page has the event on top"
            );
        }
        let literary = exporter.literary.clone();
        let mut first_pages = Vec::new();
        for (k, record) in records.iter().enumerate() {
            let own = content_lines(&single.scoresheet(record).unwrap().pages, false);
            // Its first page: the page whose first lines are the game's.
            let start = (legend_pages..book.pages.len())
                .find(|&p| {
                    let lines = content_lines(&book.pages[p..=p], true);
                    lines.len() >= 3.min(own.len())
                        && lines[..3.min(own.len())] == own[..3.min(own.len())]
                        && content_lines(&book.pages[p..], true).starts_with(&own)
                })
                .unwrap_or_else(|| panic!("{lang:?}: game {} is not in the book whole", k + 1));
            first_pages.push(start + 1);
        }
        // The contents: entry k ends with the number of game k's first page.
        let contents = content_lines(&book.pages[legend_pages..first_pages[0] - 1], true);
        let mut entries = Vec::new();
        for line in &contents[1..] {
            if line.first() == Some(&0) {
                let last: &mut Vec<u8> = entries.last_mut().expect("an entry begins unindented");
                last.push(0);
                last.extend(line.iter().copied().skip_while(|&c| c == 0));
            } else {
                entries.push(line.clone());
            }
        }
        assert_eq!(entries.len(), records.len(), "{lang:?}: one entry a game");
        for (k, entry) in entries.iter().enumerate() {
            let page = literary.translate(&first_pages[k].to_string());
            assert!(
                entry.ends_with(&page),
                "{lang:?}: entry {} names page {}",
                k + 1,
                first_pages[k]
            );
            // Accents aside: a table for one language writes another's
            // accents as it can (German Braille has no ú).
            let ascii =
                |s: &str| -> String { s.to_lowercase().chars().filter(char::is_ascii).collect() };
            let text = ascii(&back_translate(table, entry));
            let t = &records[k].tags;
            // (liblouis's Portuguese back-translation drops the capital
            // letter after "1. ", "1. Morphy" read back as "1. orphy": the
            // names are read back in English and German only.)
            let names = if lang == Lang::Pt {
                vec![]
            } else {
                vec![t.white.trim(), t.black.trim()]
            };
            for name in names {
                let surname = ascii(name.split([',', ' ']).next().unwrap());
                assert!(
                    text.contains(&surname),
                    "{lang:?}: '{text}' lacks {surname}"
                );
            }
        }
        let file = dir.path().join(format!("book-{}.pef", lang.code()));
        std::fs::write(&file, exporter.render_all(&records, Format::Pef).unwrap()).unwrap();
        files.push(file);
    }
    schema.validate(&files).unwrap();
}
