//! The user's word file, through the real binary: every command reads the
//! same words (`announce` and `play` alike), a word file that lies is
//! refused naming the word, and a word file that never ends (a link to
//! `/dev/zero`, a FIFO) is refused at once in bounded memory.

use std::io::{Read, Write};
use std::path::Path;
use std::process::Stdio;
use std::time::{Duration, Instant};

use crate::hermetic;

/// A config folder whose German word file is `text`.
fn config_with(text: &str) -> tempfile::TempDir {
    let config = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(config.path().join("speech")).unwrap();
    std::fs::write(config.path().join("speech/de.toml"), text).unwrap();
    config
}

/// `rochade ARGS` with this config folder and stdin; stdout, stderr, how
/// long it ran and its peak memory (KiB, from the kernel's account of the
/// child).
struct Run {
    stdout: String,
    stderr: String,
    status: i32,
    took: Duration,
    max_rss_kib: i64,
}

// The child is reaped by `libc::wait4` (which also gives its peak memory),
// not by `Child::wait`.
#[allow(clippy::zombie_processes)]
fn run(config: &Path, args: &[&str], stdin: &str) -> Run {
    let start = Instant::now();
    let mut child = hermetic::rochade()
        .env("ROCHADE_CONFIG_DIR", config)
        // The C locale: the written ASCII forms ("fuenf") the tests expect.
        .env("LC_ALL", "C")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let input = stdin.to_owned();
    let mut pipe = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || {
        let _ = pipe.write_all(input.as_bytes());
    });
    let mut stderr_pipe = child.stderr.take().unwrap();
    let err_reader = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = stderr_pipe.read_to_string(&mut s);
        s
    });
    let mut stdout = String::new();
    child
        .stdout
        .take()
        .unwrap()
        .read_to_string(&mut stdout)
        .unwrap();
    writer.join().unwrap();
    let stderr = err_reader.join().unwrap();
    // wait4: the child's own peak resident set, as the kernel counted it.
    let mut status = 0;
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    let pid = child.id() as libc::pid_t;
    let waited = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
    assert_eq!(waited, pid, "wait4");
    Run {
        stdout,
        stderr,
        status: libc::WEXITSTATUS(status),
        took: start.elapsed(),
        max_rss_kib: usage.ru_maxrss,
    }
}

#[test]
fn word_files_that_lie_are_refused_naming_the_word() {
    for (text, says) in [
        (
            "[files]\na = \"Eva vier\"\n",
            "file 'a' is \"Eva vier\" (spoken), which holds",
        ),
        (
            "[files]\na = \"Anna\\nBella\"\n",
            "file 'a' holds a line break",
        ),
        (
            "[files]\na = \"An\u{200b}na\"\n",
            "file 'a' holds a zero-width space",
        ),
        (
            "[files]\na = \"An\\u0000na\"\n",
            "file 'a' holds a NUL character",
        ),
        (
            "[files]\na = \"\u{202e}Anna\"\n",
            "file 'a' holds a direction mark",
        ),
        (
            "[terms]\ncheck = \"Matt\"\n",
            "term 'mate' is \"Matt\" (spoken), the same as term 'check'",
        ),
        (
            "[terms]\ncheck = \"Schach Matt\"\n",
            "term 'check' is \"Schach Matt\" (spoken), which holds term 'mate'",
        ),
    ] {
        let config = config_with(text);
        let out = run(config.path(), &["announce"], "a4 f5 e4 a6 Qh5+");
        assert_eq!(out.status, 0, "{text}: {}", out.stderr);
        assert!(out.stderr.contains(says), "{text:?}: {}", out.stderr);
        assert!(
            out.stderr.contains("the bundled words are used"),
            "{}",
            out.stderr
        );
        assert_eq!(
            out.stdout, "Anna vier\nFelix fuenf\nEva vier\nAnna sechs\nDame Hector fuenf Schach\n",
            "{text:?}"
        );
    }
}

#[test]
fn play_reads_the_same_word_file_as_announce_and_reports_a_clash() {
    let path = rochade::engine::DEFAULT_ENGINE_PATH;
    assert!(
        Path::new(path).exists(),
        "{path} is missing: install Debian's stockfish (scripts/deps.sh)"
    );
    let play = [
        "play",
        "--lang",
        "de",
        "--json",
        "--quiet",
        "--pause-ms",
        "0",
        "--seed",
        "5",
        "--level",
        "1",
    ];
    let config = config_with("[files]\nc = \"Caesar\"\n");
    let out = run(config.path(), &["announce"], "c4");
    assert_eq!(out.stdout, "Caesar vier\n", "{}", out.stderr);
    let out = run(config.path(), &play, "c4\nresign\n");
    assert_eq!(out.status, 0, "{}", out.stderr);
    let first = out
        .stdout
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
        .find(|e| e["event"] == "move")
        .expect("a move");
    assert_eq!(first["announcement"], "Caesar vier", "{}", out.stdout);

    let config = config_with("[files]\na = \"Eva vier\"\n");
    let out = run(config.path(), &play, "c4\nresign\n");
    assert_eq!(out.status, 0, "{}", out.stderr);
    assert!(
        out.stderr.contains("file 'a' is \"Eva vier\"")
            && out.stderr.contains("the bundled words are used"),
        "{}",
        out.stderr
    );
    assert!(out.stdout.contains("\"Cesar vier\""), "{}", out.stdout);
}

#[cfg(unix)]
#[test]
fn a_word_file_that_never_ends_is_refused_at_once_in_bounded_memory() {
    // A link to /dev/zero, a FIFO nobody writes, a 100 MB file of NULs.
    let zero = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(zero.path().join("speech")).unwrap();
    std::os::unix::fs::symlink("/dev/zero", zero.path().join("speech/de.toml")).unwrap();
    let fifo = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(fifo.path().join("speech")).unwrap();
    let made = std::process::Command::new("mkfifo")
        .arg(fifo.path().join("speech/de.toml"))
        .status()
        .expect("mkfifo (coreutils) is needed for this test");
    assert!(made.success());
    let nuls = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(nuls.path().join("speech")).unwrap();
    let file = std::fs::File::create(nuls.path().join("speech/de.toml")).unwrap();
    file.set_len(100 << 20).unwrap();
    // Under the cap, NULs are a TOML error quoted short.
    let some_nuls = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(some_nuls.path().join("speech")).unwrap();
    std::fs::write(some_nuls.path().join("speech/de.toml"), vec![0u8; 900_000]).unwrap();
    for (config, says) in [
        (some_nuls.path(), "de.toml: line 1, column "),
        (zero.path(), "character device, not a regular file"),
        (fifo.path(), "FIFO (named pipe), not a regular file"),
        (nuls.path(), "larger than 1 MB"),
    ] {
        let out = run(config, &["announce"], "e4");
        assert_eq!(out.status, 0, "{}", out.stderr);
        assert_eq!(out.stdout, "Eva vier\n");
        assert!(out.stderr.contains(says), "{}", out.stderr);
        assert!(
            out.stderr.len() < 400,
            "a short error: {}",
            out.stderr.len()
        );
        assert!(out.took < Duration::from_secs(1), "{:?}", out.took);
        // The whole process, speech pack and all, stays small.
        assert!(
            out.max_rss_kib < 64 * 1024,
            "{} KiB at most",
            out.max_rss_kib
        );
        eprintln!(
            "{says}: refused in {:?}, peak memory {} KiB",
            out.took, out.max_rss_kib
        );
    }
}

#[cfg(unix)]
#[test]
fn every_file_a_command_reads_is_refused_at_once_when_it_never_ends() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("game.pgn");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .expect("mkfifo (coreutils) is needed for this test");
    assert!(made.success());
    let link = dir.path().join("board.log");
    std::os::unix::fs::symlink("/dev/zero", &link).unwrap();
    let fifo = fifo.to_str().unwrap();
    let link = link.to_str().unwrap();
    let config = tempfile::tempdir().unwrap();
    for args in [
        vec!["announce", fifo],
        vec!["announce", "/dev/zero"],
        vec!["export", "--to", "pgn", fifo],
        vec!["export", "--to", "brf", "/dev/zero"],
        vec!["track", "--log", link],
        vec!["track", "--log", fifo],
    ] {
        let out = run(config.path(), &args, "");
        assert_eq!(out.status, 2, "{args:?}: {}", out.stderr);
        assert!(
            out.stderr.contains("not a regular file"),
            "{args:?}: {}",
            out.stderr
        );
        assert!(
            out.took < Duration::from_secs(1),
            "{args:?}: {:?}",
            out.took
        );
        assert!(
            out.max_rss_kib < 64 * 1024,
            "{args:?}: {} KiB",
            out.max_rss_kib
        );
    }
}
