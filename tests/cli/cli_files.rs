//! Files the user names on the command line (issue 37, items 3 and 4):
//! `rochade play --pgn FILE` run again on the same file keeps the earlier
//! game beside it and says so, and clears what a killed run left
//! half-written; `--pgn` and `export -o` write through a symbolic link to
//! the file it points at, keep an existing file's mode, and refuse a
//! folder or a device with a clear error (export: a non-zero exit code).
//! Through the real binary; `play` against the real Stockfish (Debian
//! `stockfish`; fails loudly without it). The device is a node of our
//! own made with `mknod` (it needs root, as CI has), never the system's.

#![cfg(unix)]

use crate::cli;
use crate::hermetic;

use std::os::unix::fs::{FileTypeExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::process::Output;

use cli::run_rochade;

const QUIET: [&str; 8] = [
    "--level",
    "1",
    "--lang",
    "en",
    "--quiet",
    "--pause-ms",
    "0",
    "--json",
];

fn play(pgn: &Path, input: &str) -> Output {
    let path = rochade::engine::DEFAULT_ENGINE_PATH;
    assert!(
        Path::new(path).exists(),
        "{path} is missing: install Debian's stockfish (scripts/deps.sh)"
    );
    let mut args = vec!["play"];
    args.extend(QUIET);
    args.extend(["--seed", "3", "--pgn", pgn.to_str().unwrap()]);
    run_rochade(&args, input.as_bytes())
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// The command refused its file: this exit code, and stderr says `says`.
fn assert_refused(out: &Output, code: i32, says: &str) {
    assert_eq!(out.status.code(), Some(code), "{}", stderr(out));
    assert!(stderr(out).contains(says), "{}", stderr(out));
}

fn is_device(path: &Path) -> bool {
    std::fs::metadata(path)
        .unwrap()
        .file_type()
        .is_char_device()
}

fn mode(path: &Path) -> u32 {
    std::fs::metadata(path).unwrap().permissions().mode() & 0o777
}

/// The moves of the PGN at `path`, as SAN.
fn moves_in(path: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(path).unwrap();
    rochade::export::read_pgn(&text, 0)
        .unwrap_or_else(|e| panic!("{}: {e}\n{text}", path.display()))
        .moves()
        .iter()
        .map(|m| m.san.san.to_string())
        .collect()
}

/// A character device like `/dev/full` (major 1, minor 7), in `dir`.
fn full_device(dir: &Path) -> PathBuf {
    let path = dir.join("full");
    let status = std::process::Command::new("mknod")
        .arg(&path)
        .args(["c", "1", "7"])
        .status()
        .expect("mknod runs");
    assert!(
        status.success(),
        "this test makes a device node like /dev/full: it needs root (CI runs as root)"
    );
    path
}

#[test]
fn play_again_on_the_same_file_keeps_the_earlier_game_beside_and_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let pgn = dir.path().join("p.pgn");
    let first = play(&pgn, "e4\nquit\n");
    assert!(first.status.success(), "{}", stderr(&first));
    assert_eq!(moves_in(&pgn)[0], "e4");
    // What a run killed mid-write leaves, and one a live run is writing
    // now (it holds its lock): only the first is cleared.
    let stale = dir.path().join(".p.pgn.tmp-Kx91aB");
    std::fs::write(&stale, "1. e4").unwrap();
    let live = dir.path().join(".p.pgn.tmp-Zq02cD");
    let writing = std::fs::File::create(&live).unwrap();
    writing.lock().unwrap();

    let second = play(&pgn, "d4\nquit\n");
    assert!(second.status.success(), "{}", stderr(&second));
    assert_eq!(moves_in(&pgn)[0], "d4", "the new game is in the file");
    let kept = dir.path().join("p-2.pgn");
    assert_eq!(moves_in(&kept)[0], "e4", "the earlier game is kept beside");
    assert!(
        stderr(&second).contains(&format!(
            "{} held an earlier game; it was kept as {}",
            pgn.display(),
            kept.display()
        )),
        "{}",
        stderr(&second)
    );
    assert!(!stale.exists(), "a killed run's temporary file is cleared");
    assert!(live.exists(), "one being written is left alone");
    drop(writing);

    // A third run keeps the second game under the next free name.
    let third = play(&pgn, "c4\nquit\n");
    assert!(third.status.success(), "{}", stderr(&third));
    assert_eq!(moves_in(&dir.path().join("p-3.pgn"))[0], "d4");
    assert_eq!(moves_in(&kept)[0], "e4");
    assert_eq!(moves_in(&pgn)[0], "c4");
}

#[test]
fn play_writes_through_a_link_and_keeps_the_mode() {
    let dir = tempfile::tempdir().unwrap();
    let games = dir.path().join("games");
    std::fs::create_dir(&games).unwrap();
    let real = games.join("real.pgn");
    std::fs::write(&real, "").unwrap();
    std::fs::set_permissions(&real, std::fs::Permissions::from_mode(0o644)).unwrap();
    let link = dir.path().join("link.pgn");
    std::os::unix::fs::symlink("games/real.pgn", &link).unwrap();
    let out = play(&link, "e4\nquit\n");
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink(),
        "the link stays a link"
    );
    assert_eq!(moves_in(&real)[0], "e4", "the file it points at is written");
    assert_eq!(mode(&real), 0o644, "a 0644 file stays 0644");
    // A new file: readable by the user only, as before.
    let new = dir.path().join("new.pgn");
    let out = play(&new, "e4\nquit\n");
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(mode(&new), 0o600);
}

#[test]
fn play_refuses_a_device_or_a_folder_and_leaves_it_alone() {
    let dir = tempfile::tempdir().unwrap();
    let device = full_device(dir.path());
    let out = play(&device, "e4\nquit\n");
    assert_refused(&out, 2, "a device or another special file, not a file");
    assert!(is_device(&device), "the device is still a device");
    assert!(out.stdout.is_empty(), "no game was played");
    // A link to it is refused as well, naming where it leads.
    let link = dir.path().join("link.pgn");
    std::os::unix::fs::symlink(&device, &link).unwrap();
    let out = play(&link, "e4\nquit\n");
    assert_refused(&out, 2, &format!("it leads to {}", device.display()));
    let folder = dir.path().join("folder");
    std::fs::create_dir(&folder).unwrap();
    let out = play(&folder, "e4\nquit\n");
    assert_refused(&out, 2, "a folder, not a file");
    assert!(folder.is_dir());
}

fn export_to(output: &Path) -> Output {
    let game = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/export/saavedra.pgn");
    hermetic::rochade()
        .args(["export", "--to", "pgn", "-o"])
        .arg(output)
        .arg(game)
        .output()
        .expect("rochade runs")
}

#[test]
fn export_writes_through_a_link_keeps_the_mode_and_refuses_devices_and_folders() {
    let dir = tempfile::tempdir().unwrap();
    let real = dir.path().join("real.pgn");
    std::fs::write(&real, "old").unwrap();
    std::fs::set_permissions(&real, std::fs::Permissions::from_mode(0o644)).unwrap();
    let link = dir.path().join("link.pgn");
    std::os::unix::fs::symlink(&real, &link).unwrap();
    let out = export_to(&link);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert!(std::fs::read_to_string(&real).unwrap().contains("[Event "));
    assert_eq!(mode(&real), 0o644);
    // A link to a file not there yet makes that file.
    let dangling = dir.path().join("dangling.pgn");
    std::os::unix::fs::symlink("made.pgn", &dangling).unwrap();
    let out = export_to(&dangling);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        std::fs::read_to_string(dir.path().join("made.pgn"))
            .unwrap()
            .contains("[Event ")
    );

    let device = full_device(dir.path());
    let out = export_to(&device);
    assert_refused(
        &out,
        1,
        &format!(
            "cannot write {}: it is a device or another special file, not a file; nothing was written",
            device.display()
        ),
    );
    assert!(is_device(&device), "the device is still a device");
    let out = export_to(dir.path());
    assert_refused(&out, 1, "it is a folder, not a file");
    let fifo = dir.path().join("fifo");
    let status = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap();
    assert!(status.success());
    let out = export_to(&fifo);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(std::fs::metadata(&fifo).unwrap().file_type().is_fifo());
}
