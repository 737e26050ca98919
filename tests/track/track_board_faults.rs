//! `rochade track` with a board's faults it must report, not hide or
//! flood: a Certabo calibration that cannot be written (said as a
//! `calibration` event, `not_saved`, the board read all the same), and a
//! flood of bad lines (one `lines_dropped` event a line: 23,234 in 13 s;
//! now at most one a second, with the count).

use crate::board_sim;
use crate::hermetic;

use std::io::{BufRead, BufReader};
use std::process::Stdio;
use std::sync::mpsc;
use std::time::{Duration, Instant};

fn json_lines(stdout: &[u8]) -> Vec<serde_json::Value> {
    String::from_utf8_lossy(stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("not JSON: {l}: {e}")))
        .collect()
}

/// A board log of 13 s of a Certabo board sending only bad lines, one
/// every half millisecond (26,000), replayed: the drops come as one event
/// a second at most, and every drop is counted in them.
#[test]
fn a_flood_of_bad_lines_gives_one_lines_dropped_event_a_second_with_the_count() {
    let dir = hermetic::private_dir("flood-log");
    let log = dir.join("board.log");
    let mut text = String::from("# rochade board log format=certabo baud=38400 port=/dev/null\n");
    for i in 0..26_000u64 {
        text.push_str(&format!("{} noise {i}\n", i / 2));
    }
    std::fs::write(&log, text).unwrap();
    let out = hermetic::rochade()
        .args(["track", "--lang", "en", "--log", log.to_str().unwrap()])
        .stdin(Stdio::null())
        .output()
        .expect("rochade runs");
    let dropped: Vec<u64> = json_lines(&out.stdout)
        .iter()
        .filter(|v| v["event"] == "link" && v["state"] == "lines_dropped")
        .map(|v| v["detail"].as_str().unwrap().parse().unwrap())
        .collect();
    assert!(
        (1..=14).contains(&dropped.len()),
        "{} lines_dropped events",
        dropped.len()
    );
    assert_eq!(dropped.iter().sum::<u64>(), 26_000);
}

/// The config folder cannot be made (a file stands where it should be):
/// the calibration is not saved, `track` says so as an event, and the
/// board is calibrated and followed all the same.
#[test]
fn a_calibration_that_cannot_be_saved_is_an_event_and_the_board_is_followed() {
    let blocked = hermetic::private_dir("blocked").join("config");
    std::fs::write(&blocked, "a file, not a folder").unwrap();
    let mut sim = board_sim::Sim::start(&["--format", "certabo"]);
    let mut child = KillOnDrop(
        hermetic::rochade()
            .env("ROCHADE_CONFIG_DIR", &blocked)
            .args(["track", "--format", "certabo", "--lang", "en", &sim.device])
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("rochade runs"),
    );
    let stdout = child.0.stdout.take().unwrap();
    let (tx, rx) = mpsc::channel::<serde_json::Value>();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            let Ok(line) = line else { return };
            let value = serde_json::from_str(&line).unwrap_or_else(|e| panic!("{line}: {e}"));
            if tx.send(value).is_err() {
                return;
            }
        }
    });
    let until = |secs: u64, want: &dyn Fn(&serde_json::Value) -> bool| {
        let end = Instant::now() + Duration::from_secs(secs);
        let mut seen = Vec::new();
        loop {
            let left = end.saturating_duration_since(Instant::now());
            match rx.recv_timeout(left) {
                Ok(v) => {
                    let done = want(&v);
                    seen.push(v);
                    if done {
                        return seen;
                    }
                }
                Err(_) => panic!("no matching event within {secs} s; saw {seen:?}"),
            }
        }
    };
    let seen = until(20, &|v| v["event"] == "calibration" && v["step"] == "done");
    let mut seen = seen;
    // The write follows the calibration within the same chunk or the next.
    if !seen.iter().any(|v| v["step"] == "not_saved") {
        seen.extend(until(5, &|v| v["step"] == "not_saved"));
    }
    let not_saved = seen.iter().find(|v| v["step"] == "not_saved").unwrap();
    let detail = not_saved["detail"].as_str().unwrap();
    assert!(
        detail.contains("certabo-chips-mine.txt") && detail.contains("not written"),
        "{not_saved}"
    );
    sim.say("move e2e4");
    until(30, &|v| v["event"] == "move" && v["uci"] == "e2e4");
    drop(child);
    sim.quit();
}

/// A child process killed when the test ends, failed or not.
struct KillOnDrop(std::process::Child);

impl Drop for KillOnDrop {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}
