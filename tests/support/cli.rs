//! Runs the real `rochade` binary with arguments and stdin, with an empty
//! config folder (bundled words only, never the developer's own).
//! Included with `#[path]` by the CLI tests.
#![allow(dead_code)]

use std::io::Write;
use std::process::{Output, Stdio};

pub fn run_rochade(args: &[&str], stdin: &[u8]) -> Output {
    let mut child = super::hermetic::rochade()
        .args(args)
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
