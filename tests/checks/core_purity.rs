//! The functional core does no I/O: no module of it reads a file, an
//! environment variable or a clock, sleeps, starts a thread or prints.
//! Time reaches it as a number in every event; words, tables and settings
//! reach it as data the shell loaded.
//!
//! The core is its own crate (`crates/core`, `rochade-core`), so the
//! compiler proves most of this: the crate depends on plain-data libraries
//! only (checked here against `cargo tree`), and its `clippy.toml` denies
//! the standard library's file, environment, thread, process, socket and
//! clock APIs (checked here to stay so). The scan of its source below also
//! catches what those two cannot name (the shell's own loaders, printing
//! macros behind another path).

use std::path::Path;
use std::process::Command;

use crate::source;
use source::rust_files;

/// The core crate's source.
const CORE: &str = "crates/core/src";

/// Libraries the core may depend on (directly): rules, PGN, UCI messages,
/// data formats, dates, error and enum derives.
const CORE_DEPENDENCIES: &[&str] = &[
    "shakmaty",
    "pgn-reader",
    "shakmaty-uci",
    "serde",
    "toml",
    "jiff",
    "thiserror",
    "strum",
];

/// Libraries of the world that must not reach the core, even indirectly.
const WORLD_LIBRARIES: &[&str] = &[
    "eframe",
    "egui",
    "tts",
    "cpal",
    "serialport",
    "speech-dispatcher",
    "zbus",
    "hound",
    "tempfile",
    "directories",
    "accesskit",
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

/// The uses of a forbidden API in one file's text, as (line number, API,
/// line). Comments do not count; the core's unit tests are core too.
fn violations(text: &str) -> Vec<(usize, &'static str, String)> {
    let mut found = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let code = line.split("//").next().unwrap_or("").trim();
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
    rust_files(&root.join(CORE), &mut files);
    assert!(files.len() >= 50, "read only {} core files", files.len());
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

/// The core crate's direct dependencies, from its manifest.
fn core_manifest_dependencies(root: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(root.join("crates/core/Cargo.toml")).unwrap();
    let manifest: toml::Table = text.parse().expect("crates/core/Cargo.toml is TOML");
    manifest
        .get("dependencies")
        .and_then(|d| d.as_table())
        .map(|d| d.keys().cloned().collect())
        .unwrap_or_default()
}

/// `cargo tree` of the core crate alone, one package a line as `format`
/// has it, following `edges`.
fn core_tree(root: &Path, edges: &str, format: &str) -> String {
    let output = Command::new(env!("CARGO"))
        .args(["tree", "--offline", "--package", "rochade-core"])
        .args(["--edges", edges, "--prefix", "none", "--format", format])
        .current_dir(root)
        .output()
        .expect("cargo tree runs");
    assert!(
        output.status.success(),
        "cargo tree failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8_lossy(&output.stdout).into_owned()
}

#[test]
fn the_core_crate_depends_on_plain_data_libraries_only() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let direct = core_manifest_dependencies(root);
    assert!(direct.iter().any(|d| d == "shakmaty"), "{direct:?}");
    let unexpected: Vec<&String> = direct
        .iter()
        .filter(|d| !CORE_DEPENDENCIES.contains(&d.as_str()))
        .collect();
    assert!(
        unexpected.is_empty(),
        "the core may depend on plain-data libraries only; new: {unexpected:?} \
         (a library of the world belongs to the shell crate)"
    );
    // Everything the core pulls in, indirectly too, as cargo resolves it.
    let tree = core_tree(root, "normal", "{p}");
    let names: Vec<&str> = tree
        .lines()
        .filter_map(|line| line.split_whitespace().next())
        .collect();
    assert!(names.contains(&"rochade-core"), "{tree}");
    assert!(names.contains(&"shakmaty"), "{tree}");
    let world: Vec<&&str> = WORLD_LIBRARIES
        .iter()
        .filter(|lib| names.contains(*lib))
        .collect();
    assert!(world.is_empty(), "the core reaches {world:?}:\n{tree}");
}

/// jiff features that read the system's clock or time zone (`std` gives
/// `Timestamp::now()`; the others the zone database of the machine).
const CLOCK_FEATURES: &[&str] = &[
    "std",
    "tz-system",
    "tzdb-zoneinfo",
    "tzdb-bundle-platform",
    "tzdb-concatenated",
    "tzdb-bundle-always",
];

#[test]
fn the_core_s_date_library_has_no_system_clock_or_zone_database() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    // The features as cargo resolves them for the core alone (`-p`), so
    // the shell's own use of jiff does not count.
    let tree = core_tree(root, "features", "{p} {f}");
    let jiff: Vec<&str> = tree.lines().filter(|l| l.starts_with("jiff v")).collect();
    assert!(!jiff.is_empty(), "the core uses jiff for dates:\n{tree}");
    for line in jiff {
        let features: Vec<&str> = line
            .split_whitespace()
            .nth(2)
            .unwrap_or("")
            .split(',')
            .collect();
        let clock: Vec<&&str> = CLOCK_FEATURES
            .iter()
            .filter(|f| features.contains(f))
            .collect();
        assert!(clock.is_empty(), "jiff in the core with {clock:?}: {line}");
    }
}

#[test]
fn the_core_crate_s_clippy_configuration_denies_the_world() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(root.join("crates/core/clippy.toml"))
        .expect("crates/core/clippy.toml");
    let config: toml::Table = text.parse().expect("clippy.toml is TOML");
    let paths = |key: &str| -> Vec<String> {
        config
            .get(key)
            .and_then(|v| v.as_array())
            .map(|entries| {
                entries
                    .iter()
                    .filter_map(|e| e.get("path").and_then(|p| p.as_str()))
                    .map(str::to_owned)
                    .collect()
            })
            .unwrap_or_default()
    };
    let methods = paths("disallowed-methods");
    for api in [
        "std::fs::read_to_string",
        "std::fs::write",
        "std::env::var",
        "std::thread::spawn",
        "std::thread::sleep",
        "std::time::Instant::now",
        "std::time::SystemTime::now",
    ] {
        assert!(methods.iter().any(|m| m == api), "{api} is not denied");
    }
    let types = paths("disallowed-types");
    for api in [
        "std::fs::File",
        "std::time::Instant",
        "std::process::Command",
    ] {
        assert!(types.iter().any(|t| t == api), "{api} is not denied");
    }
    let macros = paths("disallowed-macros");
    assert!(macros.iter().any(|m| m == "std::println"), "{macros:?}");
}

#[test]
fn the_shell_holds_no_copy_of_a_core_module() {
    // A module moved into the core must not live on in the shell too.
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut core = Vec::new();
    rust_files(&root.join(CORE), &mut core);
    let twins: Vec<String> = core
        .iter()
        .filter_map(|f| f.strip_prefix(root.join(CORE)).ok())
        .filter(|rel| !rel.ends_with("mod.rs") && !rel.ends_with("lib.rs"))
        .filter(|rel| root.join("src").join(rel).exists())
        .map(|rel| rel.display().to_string())
        .collect();
    assert!(twins.is_empty(), "in both crates: {twins:?}");
}

#[test]
fn the_scan_finds_what_it_forbids() {
    let text = "use std::fs;\nlet t = Instant::now(); // a clock\n// std::env::var in a comment\nlet d = crate::paths::config_dir();\n";
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

#[test]
fn speech_and_sound_sit_below_the_session() {
    // The session speaks in speech's and sound's vocabulary; the
    // scheduler and the synthesis need nothing of the session's.
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    rust_files(&root.join(CORE).join("speech"), &mut files);
    rust_files(&root.join(CORE).join("audio"), &mut files);
    assert!(files.len() >= 4, "{files:?}");
    let upward: Vec<String> = files
        .iter()
        .filter(|f| {
            let text = std::fs::read_to_string(f).expect("readable source");
            text.contains("crate::session")
        })
        .map(|f| f.display().to_string())
        .collect();
    assert!(upward.is_empty(), "import the session: {upward:?}");
}
