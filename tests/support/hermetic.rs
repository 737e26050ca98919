//! The `rochade` binary as the tests run it: with config and data folders
//! of its own, empty, so no test reads or writes the developer's settings,
//! word corrections, Braille tables, saved games or board logs.
//! Included with `#[path]` by the tests that start the binary.
#![allow(dead_code)]

use std::path::PathBuf;
use std::process::Command;

/// A fresh, empty folder for one run (left for a look after a failure;
/// the system's temporary folder is cleaned at boot).
pub fn private_dir(what: &str) -> PathBuf {
    tempfile::Builder::new()
        .prefix(&format!("rochade-test-{what}-"))
        .tempdir()
        .expect("a temporary folder")
        .keep()
}

/// `rochade` with empty config and data folders of its own.
pub fn rochade() -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_rochade"));
    command
        .env("ROCHADE_CONFIG_DIR", private_dir("config"))
        .env("ROCHADE_DATA_DIR", private_dir("data"));
    command
}
