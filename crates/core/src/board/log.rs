//! The board log: one line per frame the board sent, as
//! `<milliseconds since start> <the line as received>`, so a game can be
//! replayed exactly and an arbiter can read what the board said. Frames that
//! are not plain printable ASCII (LiBoard's raw bytes, a corrupted line) are
//! written as `hex:<bytes>`.

use std::fmt::Write as _;

/// One logged frame.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LogEntry {
    pub ms: u64,
    /// The frame's bytes, without line terminator.
    pub bytes: Vec<u8>,
}

fn is_plain(bytes: &[u8]) -> bool {
    !bytes.is_empty()
        && bytes.iter().all(|b| (0x20..0x7f).contains(b))
        && !bytes.starts_with(b"hex:")
}

/// Formats one entry, with its LF.
pub fn format_entry(ms: u64, frame: &[u8], force_hex: bool) -> String {
    let mut out = format!("{ms} ");
    if !force_hex && is_plain(frame) {
        // Plain printable ASCII: the bytes are valid UTF-8.
        out.push_str(std::str::from_utf8(frame).unwrap_or_default());
    } else {
        out.push_str("hex:");
        for b in frame {
            let _ = write!(out, "{b:02x}");
        }
    }
    out.push('\n');
    out
}

/// Formats a line of the session's own (a tracker decision, as the JSON
/// `rochade track` prints), with its LF: `# <ms> <text>`, a comment that a
/// replay skips. Line breaks in `text` become spaces.
pub fn format_note(ms: u64, text: &str) -> String {
    let text: String = text
        .chars()
        .map(|c| if matches!(c, '\n' | '\r') { ' ' } else { c })
        .collect();
    format!("# {ms} {text}\n")
}

/// The session's lines in a board log ([`format_note`]): time and text.
pub fn notes(text: &str) -> impl Iterator<Item = (u64, &str)> {
    text.lines().filter_map(|line| {
        let (ms, rest) = line.strip_prefix("# ")?.split_once(' ')?;
        Some((ms.parse().ok()?, rest))
    })
}

/// Why a log line could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("board log line {line}: {problem}")]
pub struct LogError {
    pub line: usize,
    pub problem: LineError,
}

/// What is wrong with one log line.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LineError {
    #[error("expected '<ms> <frame>'")]
    NoFrame,
    #[error("bad time '{0}'")]
    BadTime(String),
    #[error("odd number of hex digits")]
    OddHex,
    #[error("bad hex '{0}'")]
    BadHex(String),
    #[error("time goes backwards")]
    TimeGoesBackwards,
}

/// Parses one line (without LF). Blank lines and lines starting with `#`
/// are comments and give `Ok(None)`.
pub fn parse_entry(line: &str) -> Result<Option<LogEntry>, LineError> {
    let line = line.strip_suffix('\r').unwrap_or(line);
    if line.trim().is_empty() || line.starts_with('#') {
        return Ok(None);
    }
    let (ms, rest) = line.split_once(' ').ok_or(LineError::NoFrame)?;
    let ms: u64 = ms
        .parse()
        .map_err(|_| LineError::BadTime(crate::text::excerpt(ms, crate::text::EXCERPT_CHARS)))?;
    let bytes = match rest.strip_prefix("hex:") {
        Some(hex) => {
            if hex.len() % 2 != 0 {
                return Err(LineError::OddHex);
            }
            let mut out = Vec::with_capacity(hex.len() / 2);
            for pair in hex.as_bytes().chunks(2) {
                let s = String::from_utf8_lossy(pair);
                out.push(u8::from_str_radix(&s, 16).map_err(|_| LineError::BadHex(s.into()))?);
            }
            out
        }
        None => rest.as_bytes().to_vec(),
    };
    Ok(Some(LogEntry { ms, bytes }))
}

/// Parses a whole log; times must not go backwards.
pub fn parse_log(text: &str) -> Result<Vec<LogEntry>, LogError> {
    let mut out: Vec<LogEntry> = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let entry = parse_entry(line).map_err(|problem| LogError {
            line: i + 1,
            problem,
        })?;
        if let Some(entry) = entry {
            if out.last().is_some_and(|prev| prev.ms > entry.ms) {
                return Err(LogError {
                    line: i + 1,
                    problem: LineError::TimeGoesBackwards,
                });
            }
            out.push(entry);
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_and_hex_round_trip() {
        let text = format_entry(120, b"B FFFF00000000FFFF*20", false);
        assert_eq!(text, "120 B FFFF00000000FFFF*20\n");
        assert_eq!(
            parse_entry(text.trim_end()).unwrap().unwrap(),
            LogEntry {
                ms: 120,
                bytes: b"B FFFF00000000FFFF*20".to_vec()
            }
        );
        let bin = format_entry(7, &[0, 0xff, 0x10], true);
        assert_eq!(bin, "7 hex:00ff10\n");
        assert_eq!(
            parse_entry(bin.trim_end()).unwrap().unwrap().bytes,
            vec![0, 0xff, 0x10]
        );
        // Non-printable text is written as hex so the log stays one line per frame.
        assert_eq!(format_entry(1, b"a\x07b", false), "1 hex:610762\n");
        // A line that happens to start with "hex:" is escaped too.
        let tricky = format_entry(1, b"hex:zz", false);
        assert_eq!(
            parse_entry(tricky.trim_end()).unwrap().unwrap().bytes,
            b"hex:zz".to_vec()
        );
    }

    #[test]
    fn notes_are_comments_a_replay_skips() {
        let note = format_note(250, "{\"event\":\"orientation\",\n\"turned\":false}");
        assert_eq!(
            note,
            "# 250 {\"event\":\"orientation\", \"turned\":false}\n"
        );
        let text = format!(
            "{}{note}",
            format_entry(200, b"B FFFF00000000FFFF*20", false)
        );
        assert_eq!(parse_log(&text).unwrap().len(), 1, "the note is no frame");
        assert_eq!(
            notes(&text).collect::<Vec<_>>(),
            [(250, "{\"event\":\"orientation\", \"turned\":false}")]
        );
    }

    #[test]
    fn errors_name_the_line() {
        let err = parse_log("# comment\n\n5 B x\n4 B y\n").unwrap_err();
        assert_eq!(err.problem, LineError::TimeGoesBackwards);
        assert!(err.to_string().contains("line 4: time goes backwards"));
        assert_eq!(parse_log("x y").unwrap_err().line, 1);
        assert_eq!(parse_entry("1 hex:0"), Err(LineError::OddHex));
        assert_eq!(parse_entry("1 hex:zz"), Err(LineError::BadHex("zz".into())));
    }
}
