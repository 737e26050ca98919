//! Runs the real `rochade` binary with arguments and stdin, with an empty
//! config folder (bundled words only, never the developer's own).
//! Included with `#[path]` by the CLI tests.
#![allow(dead_code)]

use std::io::Write;
use std::process::{Command, Output, Stdio};

pub fn run_rochade(args: &[&str], stdin: &[u8]) -> Output {
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
    pipe.write_all(stdin).unwrap();
    drop(pipe);
    child.wait_with_output().unwrap()
}
