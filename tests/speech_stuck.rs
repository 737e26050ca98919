//! A speech daemon that hangs (a module without audio, a daemon left by a
//! killed process): a socket that takes the connection and never answers,
//! handed to the real client library through `SPEECHD_ADDRESS`. Nothing
//! may wait for it for ever: `rochade say` and `rochade voices` end with an
//! error and a non-zero exit within seconds.

use std::os::unix::net::UnixListener;
use std::time::{Duration, Instant};

#[path = "support/hermetic.rs"]
mod hermetic;

/// A speech-dispatcher socket that accepts every connection and never
/// says a word; kept open for the test's life.
fn stuck_daemon(dir: &std::path::Path) -> std::path::PathBuf {
    let path = dir.join("speechd.sock");
    let listener = UnixListener::bind(&path).expect("bind a socket");
    std::thread::spawn(move || {
        let mut held = Vec::new();
        for stream in listener.incoming().flatten() {
            held.push(stream); // read nothing, answer nothing
        }
    });
    path
}

fn run_against(socket: &std::path::Path, args: &[&str]) -> (std::process::Output, Duration) {
    let started = Instant::now();
    let out = hermetic::rochade()
        .args(args)
        .env(
            "SPEECHD_ADDRESS",
            format!("unix_socket:{}", socket.display()),
        )
        .output()
        .expect("rochade runs");
    (out, started.elapsed())
}

#[test]
fn a_speech_daemon_that_never_answers_ends_say_and_voices_with_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let socket = stuck_daemon(dir.path());

    let (out, took) = run_against(&socket, &["say", "--backend", "system", "Eva vier"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "say must fail: {stderr}");
    assert!(stderr.contains("did not answer"), "{stderr}");
    assert!(took < Duration::from_secs(20), "say took {took:?}");

    let (out, took) = run_against(&socket, &["voices"]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(!out.status.success(), "voices must fail: {stdout}");
    assert!(stdout.contains("did not answer"), "{stdout}");
    assert!(
        stdout.contains("Clip voices:"),
        "the clip voices are still listed: {stdout}"
    );
    assert!(took < Duration::from_secs(20), "voices took {took:?}");
}
