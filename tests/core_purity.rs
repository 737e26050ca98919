//! The functional core does no I/O: no module of it reads a file, an
//! environment variable or a clock, sleeps, starts a thread or prints.
//! Time reaches it as a number in every event; words, tables and settings
//! reach it as data the shell loaded.
//!
//! The proof reads the core's source files (not their `#[cfg(test)]`
//! parts) and fails naming every file and line that uses an API of the
//! world. A crate boundary would let the compiler prove it; this test
//! stands in until the core is split into its own crate.

use std::path::Path;

/// The core: game rules and record, announcements, clock, the peg-board
/// protocol decoders, move tracker and guidance, the DGT protocol and move
/// recognition, the session, the words' rendering, the Braille layout, the
/// export formatters, the PGN writer and reader, the speech queue, voice
/// choice and mode, the earcons' synthesis, and what is pure of the engine
/// (levels, move choice, options, evaluation words, the review).
const CORE: &[&str] = &[
    "src/announce.rs",
    "src/chess",
    "src/clock.rs",
    "src/dgt",
    "src/board/decoder.rs",
    "src/board/guidance.rs",
    "src/board/liboard.rs",
    "src/board/log.rs",
    "src/board/mod.rs",
    "src/board/protocol.rs",
    "src/board/sentio.rs",
    "src/board/sim.rs",
    "src/board/tracker.rs",
    "src/engine/choose.rs",
    "src/engine/level.rs",
    "src/engine/options.rs",
    "src/engine/review.rs",
    "src/engine/words.rs",
    "src/session",
    "src/words/mod.rs",
    "src/words/pack.rs",
    "src/words/render.rs",
    "src/braille",
    "src/export/mod.rs",
    "src/export/text.rs",
    "src/pgn",
    "src/speech/queue.rs",
    "src/speech/mode.rs",
    "src/speech/voice.rs",
    "src/audio/earcon.rs",
];

/// Files inside a core folder that are unit tests, not core (`tests.rs`,
/// `board_tests.rs`, ...).
fn is_test_file(path: &Path) -> bool {
    path.file_name()
        .is_some_and(|n| n.to_string_lossy().ends_with("tests.rs"))
}

/// Every other module of the crate, the shell: a new module must be put in
/// one list or the other, so none slips past the proof unclassified.
const SHELL: &[&str] = &[
    "src/app",
    "src/audio/clip.rs",
    "src/audio/mod.rs",
    "src/audio/player.rs",
    "src/audio/record.rs",
    "src/cli",
    "src/config.rs",
    "src/engine/driver.rs",
    "src/engine/mod.rs",
    "src/engine/process.rs",
    "src/lib.rs",
    "src/louis.rs",
    "src/main.rs",
    "src/paths.rs",
    "src/save_worker.rs",
    "src/savegame.rs",
    "src/serial",
    "src/speech/backend.rs",
    "src/speech/bundled_clips.rs",
    "src/speech/clips.rs",
    "src/speech/mod.rs",
    "src/speech/service.rs",
    "src/speech/system.rs",
    "src/words/load.rs",
];

/// What the world looks like in source: files, environment, clocks,
/// sleeping, threads, processes, sockets, the terminal, the platform's
/// folders, and this crate's own loaders that read them.
const FORBIDDEN: &[&str] = &[
    "std::fs",
    "fs::",
    "File::open",
    "File::create",
    "OpenOptions",
    "read_to_string(",
    "std::env",
    "env::var",
    "env!(\"HOME",
    "Instant",
    "SystemTime",
    "UNIX_EPOCH",
    "thread::sleep",
    "std::thread",
    "thread::spawn",
    "std::process",
    "std::net",
    "io::stdin",
    "io::stdout",
    "io::stderr",
    "println!",
    "eprintln!",
    "print!(",
    "eprint!(",
    "dbg!(",
    "directories::",
    "paths::",
    "Pack::load",
    "::now()",
    "TimeZone::system",
    "rand::",
    // Libraries of the world: files, devices, the window.
    "hound::",
    "cpal",
    "serialport",
    "tts::",
    "eframe",
    "egui",
    "tempfile",
];

fn rust_files(path: &Path, out: &mut Vec<std::path::PathBuf>) {
    if path.is_dir() {
        let mut entries: Vec<_> = std::fs::read_dir(path)
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
            .map(|e| e.expect("directory entry").path())
            .collect();
        entries.sort();
        for entry in entries {
            rust_files(&entry, out);
        }
    } else if path.extension().is_some_and(|e| e == "rs") {
        out.push(path.to_path_buf());
    }
}

/// The uses of a forbidden API in one file's text, as (line number, API,
/// line). Comments and everything from the first `#[cfg(test)]` on (the
/// unit tests) do not count.
fn violations(text: &str) -> Vec<(usize, &'static str, String)> {
    let mut found = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let code = line.split("//").next().unwrap_or("").trim();
        if code.starts_with("#[cfg(test)]") {
            break;
        }
        for api in FORBIDDEN {
            if code.contains(api) {
                found.push((i + 1, *api, line.trim().to_owned()));
            }
        }
    }
    found
}

#[test]
fn no_module_of_the_core_reads_a_file_the_environment_or_a_clock() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    for entry in CORE {
        let path = root.join(entry);
        assert!(
            path.exists(),
            "core module {entry} is listed here but does not exist: update CORE"
        );
        rust_files(&path, &mut files);
    }
    files.retain(|f| !is_test_file(f));
    assert!(files.len() >= CORE.len(), "read {} files", files.len());
    let mut report = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap();
        for (line, api, code) in violations(&text) {
            let shown = file.strip_prefix(root).unwrap_or(file).display();
            report.push(format!("{shown}:{line}: uses `{api}`: {code}"));
        }
    }
    assert!(
        report.is_empty(),
        "the core must do no I/O (pass data and time in from the shell):\n{}",
        report.join("\n")
    );
}

#[test]
fn every_module_is_either_core_or_shell() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut all = Vec::new();
    rust_files(&root.join("src"), &mut all);
    let listed = |f: &Path| {
        CORE.iter()
            .chain(SHELL)
            .any(|entry| f.starts_with(root.join(entry)))
    };
    let unlisted: Vec<String> = all
        .iter()
        .filter(|f| !listed(f) && !is_test_file(f))
        .map(|f| f.strip_prefix(root).unwrap_or(f).display().to_string())
        .collect();
    assert!(
        unlisted.is_empty(),
        "add each new module to CORE (pure) or SHELL in tests/core_purity.rs: {unlisted:?}"
    );
}

#[test]
fn the_scan_finds_what_it_forbids() {
    let text = "use std::fs;\nlet t = Instant::now(); // a clock\n// std::env::var in a comment\nlet d = crate::paths::config_dir();\n#[cfg(test)]\nmod tests { use std::fs; }\n";
    let found: Vec<(usize, &str)> = violations(text).iter().map(|v| (v.0, v.1)).collect();
    assert_eq!(
        found,
        [
            (1, "std::fs"),
            (2, "Instant"),
            (2, "::now()"),
            (4, "paths::")
        ]
    );
}
