//! `rochade puzzle` and its progress file, `puzzles.toml`, when the file
//! or the disk misbehaves: a file that cannot be read for any reason (a
//! Latin-1 byte, a FIFO, a link to `/dev/zero`, a huge file) is kept beside
//! under a new name and said, never overwritten, and the start never
//! hangs; a puzzle's result is said only once it is on disk (a kill -9
//! right after hearing it, on a slow disk, loses nothing); temporary files
//! a killed write left are cleared at start.

use crate::hermetic;
use crate::slow_fsync;

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::{Duration, Instant};

use rochade::puzzle::Progress;
use serde_json::Value;

/// A run of `rochade puzzle --json` on the data folder `data`.
struct Run {
    child: Child,
    lines: Receiver<String>,
    seen: Vec<Value>,
}

impl Run {
    fn start(mut command: Command, data: &Path) -> Run {
        let mut child = command
            .env("ROCHADE_DATA_DIR", data)
            .args(["puzzle", "--json", "--quiet", "--lang", "en", "--seed", "3"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("rochade runs");
        let stdout = BufReader::new(child.stdout.take().unwrap());
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in stdout.lines().map_while(Result::ok) {
                if tx.send(line).is_err() {
                    return;
                }
            }
        });
        Run {
            child,
            lines,
            seen: Vec::new(),
        }
    }

    fn type_line(&mut self, line: &str) {
        let stdin = self.child.stdin.as_mut().unwrap();
        writeln!(stdin, "{line}").unwrap();
        stdin.flush().unwrap();
    }

    fn until(&mut self, event: &str) -> Value {
        loop {
            let line = self
                .lines
                .recv_timeout(Duration::from_secs(20))
                .unwrap_or_else(|e| panic!("no {event} event ({e}); got {:#?}", self.seen));
            let value: Value = serde_json::from_str(&line).unwrap();
            self.seen.push(value.clone());
            if value["event"] == event {
                return value;
            }
        }
    }

    /// Quits; stderr.
    fn quit(mut self) -> String {
        self.type_line("quit");
        drop(self.child.stdin.take());
        let out = self.child.wait_with_output().unwrap();
        assert!(out.status.success(), "{out:?}");
        String::from_utf8_lossy(&out.stderr).into_owned()
    }
}

/// A seasoned player's progress: rating 2105, 40 solved.
fn seasoned() -> String {
    let mut progress = Progress {
        solved: 40,
        failed: 7,
        ..Progress::default()
    };
    progress.rating.rating = 2105.0;
    progress.to_text()
}

/// Starts a run on `data`, plays one puzzle (skipped: failed) and quits;
/// the events and stderr. The start must not hang.
fn one_puzzle(data: &Path) -> (Vec<Value>, String) {
    let started = Instant::now();
    let mut run = Run::start(hermetic::rochade(), data);
    run.until("puzzle");
    assert!(
        started.elapsed() < Duration::from_secs(10),
        "the start took {:?}",
        started.elapsed()
    );
    run.type_line("skip");
    run.until("failed");
    let seen = run.seen.clone();
    (seen, run.quit())
}

fn said_kept(seen: &[Value], stderr: &str, kept: &str) {
    let event = seen
        .iter()
        .find(|e| e["event"] == "progress_unreadable")
        .unwrap_or_else(|| panic!("no progress_unreadable event: {seen:#?}"));
    assert!(
        event["kept"].as_str().is_some_and(|k| k.ends_with(kept)),
        "{event}"
    );
    assert!(
        seen.iter().any(|e| e["event"] == "say"
            && e["text"]
                .as_str()
                .is_some_and(|t| t.contains("could not be read") && t.contains(kept))),
        "said: {seen:#?}"
    );
    assert!(stderr.contains("kept as "), "{stderr}");
}

/// The fresh progress after one failed puzzle.
fn fresh_after_one(data: &Path) {
    let text = std::fs::read_to_string(data.join("puzzles.toml")).unwrap();
    let progress = Progress::from_text(&text).unwrap();
    assert_eq!((progress.solved, progress.failed), (0, 1), "{text}");
}

#[test]
fn a_progress_file_with_a_latin1_byte_is_kept_beside_and_said() {
    let data = hermetic::private_dir("progress-latin1");
    let mut bytes = b"# Fortschritt von Ren\xe9\n".to_vec();
    bytes.extend_from_slice(seasoned().as_bytes());
    std::fs::write(data.join("puzzles.toml"), &bytes).unwrap();
    let (seen, stderr) = one_puzzle(&data);
    said_kept(&seen, &stderr, "puzzles-2.toml");
    assert!(stderr.contains("not UTF-8"), "{stderr}");
    assert_eq!(
        std::fs::read(data.join("puzzles-2.toml")).unwrap(),
        bytes,
        "the player's file is kept byte for byte"
    );
    fresh_after_one(&data);
}

#[test]
fn a_progress_file_that_is_no_toml_of_progress_is_kept_beside() {
    let data = hermetic::private_dir("progress-bad-toml");
    // An earlier kept file: the next free name is taken.
    std::fs::write(data.join("puzzles-2.toml"), "earlier").unwrap();
    std::fs::write(data.join("puzzles.toml"), "solved = \"many\"\n").unwrap();
    let (seen, stderr) = one_puzzle(&data);
    said_kept(&seen, &stderr, "puzzles-3.toml");
    assert_eq!(
        std::fs::read_to_string(data.join("puzzles-2.toml")).unwrap(),
        "earlier"
    );
    assert_eq!(
        std::fs::read_to_string(data.join("puzzles-3.toml")).unwrap(),
        "solved = \"many\"\n"
    );
    fresh_after_one(&data);
}

#[test]
fn a_fifo_a_link_to_dev_zero_and_a_huge_file_neither_hang_nor_are_read() {
    // A FIFO with no writer: opening it for reading would wait for ever.
    let data = hermetic::private_dir("progress-fifo");
    let status = Command::new("mkfifo")
        .arg(data.join("puzzles.toml"))
        .status()
        .expect("mkfifo (coreutils)");
    assert!(status.success());
    let (seen, stderr) = one_puzzle(&data);
    said_kept(&seen, &stderr, "puzzles-2.toml");
    assert!(stderr.contains("FIFO"), "{stderr}");
    use std::os::unix::fs::FileTypeExt;
    let kept = std::fs::symlink_metadata(data.join("puzzles-2.toml")).unwrap();
    assert!(kept.file_type().is_fifo(), "the FIFO itself is kept");
    fresh_after_one(&data);

    // A link to /dev/zero: read to the end, it fills the memory.
    let data = hermetic::private_dir("progress-zero");
    std::os::unix::fs::symlink("/dev/zero", data.join("puzzles.toml")).unwrap();
    let (seen, stderr) = one_puzzle(&data);
    said_kept(&seen, &stderr, "puzzles-2.toml");
    assert!(stderr.contains("character device"), "{stderr}");
    let kept = std::fs::read_link(data.join("puzzles-2.toml")).unwrap();
    assert_eq!(kept, Path::new("/dev/zero"), "the link itself is kept");
    fresh_after_one(&data);

    // A 1 GB file (sparse: it takes no room on the disk).
    let data = hermetic::private_dir("progress-huge");
    let huge = std::fs::File::create(data.join("puzzles.toml")).unwrap();
    huge.set_len(1 << 30).unwrap();
    drop(huge);
    let (seen, stderr) = one_puzzle(&data);
    said_kept(&seen, &stderr, "puzzles-2.toml");
    assert!(stderr.contains("larger than 1 MB"), "{stderr}");
    let kept = std::fs::metadata(data.join("puzzles-2.toml")).unwrap();
    assert_eq!(kept.len(), 1 << 30);
    fresh_after_one(&data);
}

#[test]
fn temporary_files_a_killed_write_left_are_cleared_at_start() {
    let data = hermetic::private_dir("progress-temps");
    std::fs::write(data.join("puzzles.toml"), seasoned()).unwrap();
    std::fs::write(data.join(".puzzles.toml.tmp-AbC123"), "half").unwrap();
    let (seen, _) = one_puzzle(&data);
    assert!(!seen.iter().any(|e| e["event"] == "progress_unreadable"));
    let left: Vec<String> = std::fs::read_dir(&data)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.contains(".tmp-"))
        .collect();
    assert!(left.is_empty(), "{left:?}");
    let progress =
        Progress::from_text(&std::fs::read_to_string(data.join("puzzles.toml")).unwrap()).unwrap();
    assert_eq!((progress.solved, progress.failed), (40, 8));
}

#[test]
fn a_result_is_said_only_once_it_is_on_disk() {
    // Every sync takes 700 ms: a result said before its save would be
    // heard more than a second before the file holds it.
    let data = hermetic::private_dir("progress-kill");
    let mut command = hermetic::rochade();
    slow_fsync::slow_disk(&mut command, 700);
    let mut run = Run::start(command, &data);
    run.until("puzzle");
    run.type_line("skip");
    run.until("failed");
    // Killed the moment the result is out.
    run.child.kill().unwrap();
    run.child.wait().unwrap();
    fresh_after_one(&data);
}
