//! `rochade track` where the first hour goes wrong: a port that does not
//! exist, and a board log read in the wrong format. The real binary.

use crate::cli;
use crate::hermetic;

use std::io::{BufRead, BufReader};
use std::process::Stdio;
use std::time::{Duration, Instant};

const MISSING: &str = "/dev/ttyNOPE";

#[test]
fn a_missing_port_ends_with_an_error_naming_it_within_5_s() {
    assert!(!std::path::Path::new(MISSING).exists());
    let started = Instant::now();
    let mut child = hermetic::rochade()
        .args(["track", MISSING])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("rochade runs");
    // It used to wait for ever: given 10 s, then killed and failed.
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break Some(status);
        }
        if started.elapsed() > Duration::from_secs(10) {
            child.kill().unwrap();
            child.wait().unwrap();
            break None;
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let took = started.elapsed();
    let mut stderr = String::new();
    std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut stderr).unwrap();
    let status = status.unwrap_or_else(|| panic!("still running after {took:?}: {stderr}"));
    assert!(!status.success(), "exit {status:?}: {stderr}");
    assert!(stderr.contains(MISSING), "the port is named: {stderr}");
    assert!(stderr.contains("--wait"), "the way out is said: {stderr}");
    assert!(took < Duration::from_secs(5), "took {took:?}");
    eprintln!("track {MISSING}: ended after {took:?}: {stderr}");
}

#[test]
fn with_wait_a_missing_port_is_said_once_and_waited_for() {
    let mut child = hermetic::rochade()
        .args(["track", "--wait", MISSING])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("rochade runs");
    let mut stderr = BufReader::new(child.stderr.take().unwrap());
    let mut first = String::new();
    stderr.read_line(&mut first).unwrap();
    assert!(
        first.contains("waiting for the board on /dev/ttyNOPE to be plugged in"),
        "{first:?}"
    );
    // Still waiting (not ended), and nothing more said: read what comes
    // on a thread while the process runs.
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut rest = String::new();
        let _ = std::io::Read::read_to_string(&mut stderr, &mut rest);
        let _ = tx.send(rest);
    });
    assert!(
        rx.recv_timeout(Duration::from_millis(1500)).is_err(),
        "it waits"
    );
    assert!(child.try_wait().unwrap().is_none(), "still running");
    child.kill().unwrap();
    child.wait().unwrap();
    let rest = rx.recv_timeout(Duration::from_secs(5)).unwrap_or_default();
    assert!(!rest.contains("waiting for the board"), "said once: {rest}");
}

fn peg_log() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/boardlogs/ruy_lopez.log")
}

#[test]
fn a_peg_board_log_read_as_dgt_says_the_format_looks_wrong() {
    let log = peg_log();
    let out = cli::run_rochade(
        &["track", "--format", "dgt", "--log", log.to_str().unwrap()],
        b"",
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{stderr}");
    assert!(stderr.contains("format looks wrong"), "{stderr}");
    assert!(stderr.contains("--format peg"), "{stderr}");

    // The same log without its header: nothing in it reads as DGT.
    let dir = tempfile::tempdir().unwrap();
    let bare = dir.path().join("bare.log");
    let text = std::fs::read_to_string(&log).unwrap();
    let body: String = text
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| format!("{l}\n"))
        .collect();
    std::fs::write(&bare, body).unwrap();
    let out = cli::run_rochade(
        &["track", "--format", "dgt", "--log", bare.to_str().unwrap()],
        b"",
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{stderr}");
    assert!(stderr.contains("format looks wrong"), "{stderr}");
    // Read in its own format, it is a game.
    let out = cli::run_rochade(&["track", "--log", log.to_str().unwrap()], b"");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn board_sim_refuses_a_board_it_does_not_emulate_before_printing_a_port() {
    for format in ["chessnut", "pegasus"] {
        let out = hermetic::rochade()
            .args(["board-sim", "--format", format])
            .stdin(Stdio::null())
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{format}: {stderr}");
        assert!(out.stdout.is_empty(), "no port printed: {format}");
        assert!(
            stderr.contains(&format!("no simulated {format} board"))
                && stderr.contains("peg, liboard, sentio, dgt, millennium or certabo"),
            "{stderr}"
        );
    }
}

#[test]
fn track_help_names_every_format() {
    let out = hermetic::rochade()
        .args(["track", "--help"])
        .output()
        .unwrap();
    let help = String::from_utf8_lossy(&out.stdout);
    for format in [
        "peg",
        "liboard",
        "sentio",
        "dgt",
        "millennium",
        "certabo",
        "chessnut",
        "pegasus",
    ] {
        let format_line = help
            .lines()
            .skip_while(|l| !l.contains("--format"))
            .take(4)
            .collect::<Vec<_>>()
            .join(" ");
        assert!(format_line.contains(format), "{format}: {help}");
    }
}

#[test]
fn a_pegasus_as_the_sighted_board_is_refused_in_words() {
    let out = hermetic::rochade()
        .args([
            "track",
            "--sighted",
            "/dev/null",
            "--sighted-format",
            "pegasus",
            "/dev/null",
        ])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{stderr}");
    assert!(
        stderr.contains("tells only which squares are occupied") && stderr.contains("chessnut"),
        "{stderr}"
    );
}
