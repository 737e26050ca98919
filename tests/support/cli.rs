//! Runs the real `rochade` binary with arguments and stdin, with an empty
//! config folder (bundled words only, never the developer's own).
//! Included with `#[path]` by the CLI tests.
#![allow(dead_code)]

use std::io::Write;
use std::process::{Output, Stdio};

pub fn run_rochade(args: &[&str], stdin: &[u8]) -> Output {
    run_rochade_env(args, stdin, &[])
}

/// [`run_rochade`] with environment variables set (a locale: `LC_ALL`).
pub fn run_rochade_env(args: &[&str], stdin: &[u8], env: &[(&str, &str)]) -> Output {
    let mut child = super::hermetic::rochade()
        .envs(env.iter().copied())
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("rochade runs");
    let mut pipe = child.stdin.take().unwrap();
    // A command that refuses its arguments exits without reading stdin:
    // the pipe is then closed, which is no failure of the test.
    if let Err(e) = pipe.write_all(stdin) {
        assert_eq!(e.kind(), std::io::ErrorKind::BrokenPipe, "{e}");
    }
    drop(pipe);
    child.wait_with_output().unwrap()
}
