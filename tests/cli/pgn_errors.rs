//! PGN errors that point the right way, through the real binary: a tag
//! value too long is said so (not "unterminated tag" at line 1, column 1),
//! a tag left open is an error (never read as if closed), and export
//! places bytes that are not UTF-8 and NUL bytes by line and column.

use std::process::Output;

use crate::hermetic;

fn rochade(args: &[&str], file: &[u8]) -> (Output, String) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("game.pgn");
    std::fs::write(&path, file).unwrap();
    let out = hermetic::rochade().args(args).arg(&path).output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    (out, stderr)
}

#[test]
fn a_long_tag_value_that_is_closed_is_too_long_not_unterminated() {
    let file = format!("[Event \"{}\"]\n\n1. e4 e5 *\n", "x".repeat(20_000));
    for args in [&["announce"][..], &["export", "--to", "pgn"]] {
        let (out, stderr) = rochade(args, file.as_bytes());
        assert_eq!(out.status.code(), Some(2), "{stderr}");
        // `announce` gives the column too.
        let place = if args[0] == "announce" {
            "line 1, column 1"
        } else {
            "line 1"
        };
        let says = format!(
            "{place}: the value of the tag Event is 20000 bytes long: a tag value may hold at most 16375"
        );
        assert!(stderr.contains(&says), "{args:?}: {stderr}");
        assert!(!stderr.contains("unterminated"), "{stderr}");
    }
}

#[test]
fn a_tag_left_open_is_an_error() {
    for file in [&b"[Event \"x\n\n1. e4 *\n"[..], b"[Event \"x"] {
        let (out, stderr) = rochade(&["announce"], file);
        assert_eq!(out.status.code(), Some(2), "{stderr}");
        assert!(stderr.contains("line 1"), "{stderr}");
        assert!(stderr.contains("unterminated tag"), "{stderr}");
        let (out, stderr) = rochade(&["export", "--to", "pgn"], file);
        assert_eq!(out.status.code(), Some(2), "{stderr}");
        assert!(stderr.contains("unterminated tag"), "{stderr}");
    }
}

#[test]
fn export_places_bytes_that_are_not_utf8_and_nul_bytes_by_line_and_column() {
    let (out, stderr) = rochade(
        &["export", "--to", "pgn"],
        b"[Event \"a\"]\n\n1. e4 {caf\xe9} e5 *\n",
    );
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("line 3, column 11: not UTF-8 text"),
        "{stderr}"
    );
    let (out, stderr) = rochade(
        &["export", "--to", "pgn"],
        b"[Event \"a\"]\n\n1. e4\0 e5 *\n",
    );
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("line 3, column 6: not a PGN text (a NUL byte)"),
        "{stderr}"
    );
    assert!(!stderr.contains("byte 1"), "{stderr}");
}

#[test]
fn a_huge_token_or_tag_name_is_quoted_short() {
    let token = format!("1. e4 {} e5 *\n", "Q".repeat(5_000_000)).into_bytes();
    // A tag whose value is not UTF-8 is named in the error.
    let mut name = format!("[{} \"", "N".repeat(16_000)).into_bytes();
    name.extend_from_slice(b"\xff\"]\n\n1. e4 *\n");
    for file in [token, name] {
        let (out, stderr) = rochade(&["announce"], &file);
        assert_eq!(
            out.status.code(),
            Some(2),
            "{}",
            &stderr[..stderr.len().min(300)]
        );
        assert!(
            stderr.len() < 600,
            "{} bytes: {}",
            stderr.len(),
            &stderr[..300]
        );
    }
}
