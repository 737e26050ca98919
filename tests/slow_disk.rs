//! `rochade track --pgn` on a slow disk, for real: a peg-board on a
//! pseudo-terminal plays twelve moves 0.3 s apart while every `fsync` of
//! the process takes 1.5 s (an `LD_PRELOAD` shim compiled here with `cc`,
//! see `support/slow_fsync.rs`). Each save overlaps the one under way
//! (their renames in order), so the last move is announced within 4.5 s
//! of being made (about two syncs, 3.1 s; saving one save after another
//! took half a minute), every move reaches the file, and the slow disk is
//! said.

#[path = "support/hermetic.rs"]
mod hermetic;
#[path = "support/paced_game.rs"]
mod paced_game;
#[path = "support/slow_fsync.rs"]
mod slow_fsync;

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::time::{Duration, Instant};

use paced_game::{Fault, RUY_LOPEZ, paced_frames, sans};
use serialport::{SerialPort, TTYPort};
use shakmaty::{Chess, Position};

/// A board on the master side of a pty pair, with a stable name (symlink).
struct TestBoard {
    master: TTYPort,
    _slave: TTYPort,
}

impl TestBoard {
    fn plug(link: &Path) -> TestBoard {
        let (master, slave) = TTYPort::pair().unwrap();
        let _ = std::fs::remove_file(link);
        std::os::unix::fs::symlink(slave.name().unwrap(), link).unwrap();
        TestBoard {
            master,
            _slave: slave,
        }
    }

    fn send(&mut self, mask: u64) {
        self.master
            .write_all(rochade::board::protocol::write_snapshot(mask).as_bytes())
            .unwrap();
    }
}

/// A child process killed when the test ends, passed or not.
struct KillOnDrop(Child);

impl Drop for KillOnDrop {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Each JSON line with the moment it was read.
fn timed_lines(stdout: std::process::ChildStdout) -> Receiver<(Instant, serde_json::Value)> {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            let Ok(line) = line else { return };
            let value = serde_json::from_str(&line).unwrap_or_else(|e| panic!("{line}: {e}"));
            if tx.send((Instant::now(), value)).is_err() {
                return;
            }
        }
    });
    rx
}

const PLIES: usize = 12;
const PLY_MS: u64 = 300;

/// Plays twelve moves on a pty board followed by `track --pgn`, each
/// sync taking `sync_ms` (0: the disk as it is); how long after it was
/// made the last move was announced, and every event.
fn last_move_delay(sync_ms: u64) -> (Duration, Vec<serde_json::Value>) {
    let moves = sans(&RUY_LOPEZ[..PLIES]);
    let dir = tempfile::tempdir().unwrap();
    let link_path = dir.path().join("board");
    let pgn = dir.path().join("game.pgn");
    let mut board = TestBoard::plug(&link_path);
    // A sound board: a "stuck" sensor under the rook on a1, which these
    // moves never lift, reports what is there.
    let frames = paced_frames(&moves, PLY_MS, Fault::Stuck(shakmaty::Square::A1), 0);
    let mut last = Chess::default();
    for &mv in &moves {
        last.play_unchecked(mv);
    }
    let last_board = last.board().occupied().0;
    board.send(frames[0].1);
    let mut command = hermetic::rochade();
    if sync_ms > 0 {
        slow_fsync::slow_disk(&mut command, sync_ms);
    }
    let mut child = KillOnDrop(
        command
            .args(["track", "--lang", "de", "--pgn"])
            .arg(&pgn)
            .arg(&link_path)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("track starts"),
    );
    let rx = timed_lines(child.0.stdout.take().unwrap());
    let first = rx.recv_timeout(Duration::from_secs(5)).expect("track runs");
    let mut seen = vec![first];
    let start = Instant::now();
    let mut made = None;
    for &(at, mask) in &frames {
        let due = start + Duration::from_millis(at);
        if let Some(wait) = due.checked_duration_since(Instant::now()) {
            std::thread::sleep(wait);
        }
        board.send(mask);
        if mask == last_board && made.is_none() && at >= PLIES as u64 * PLY_MS {
            made = Some(Instant::now());
        }
        seen.extend(rx.try_iter());
        if seen
            .iter()
            .any(|(_, v)| v["event"] == "move" && v["ply"] == PLIES)
        {
            break;
        }
    }
    let made = made.expect("the last move was made");
    let end = Instant::now() + Duration::from_secs(20);
    while !seen
        .iter()
        .any(|(_, v)| v["event"] == "move" && v["ply"] == PLIES)
    {
        let left = end
            .checked_duration_since(Instant::now())
            .unwrap_or_else(|| panic!("no move {PLIES}: {seen:?}"));
        match rx.recv_timeout(left) {
            Ok(v) => seen.push(v),
            Err(e) => panic!("no move {PLIES} ({e}): {seen:?}"),
        }
    }
    let announced = seen
        .iter()
        .find(|(_, v)| v["event"] == "move" && v["ply"] == PLIES)
        .unwrap()
        .0;
    // Every announced move is in the file.
    let text = std::fs::read_to_string(&pgn).unwrap_or_default();
    let record = rochade::export::read_pgn(&text, 0).expect("the file reads");
    assert_eq!(record.moves().len(), PLIES, "every move on disk: {text}");
    let events = seen.into_iter().map(|(_, v)| v).collect();
    (announced.saturating_duration_since(made), events)
}

#[test]
fn a_slow_disk_delays_the_last_of_twelve_quick_moves_by_less_than_4_5_s() {
    let (quick, _) = last_move_delay(0);
    let (slow, events) = last_move_delay(1500);
    println!("the 12th move announced {quick:?} after it was made (1.5 s syncs: {slow:?})");
    assert!(
        slow < Duration::from_millis(4500),
        "the 12th move was announced {slow:?} after it was made"
    );
    let moves: Vec<&serde_json::Value> = events.iter().filter(|e| e["event"] == "move").collect();
    assert_eq!(moves.len(), PLIES, "every move announced once: {events:?}");
    assert!(
        events.iter().any(|e| e["event"] == "save_slow"),
        "the slow disk is said: {events:?}"
    );
}
