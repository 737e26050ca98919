//! What the server sends, made safe before anything else sees it: the
//! stream cut into lines whatever the chunks (several lines in one read,
//! one line over many), every line bounded, and every text the server
//! wrote cleaned of control and invisible characters and capped, so no
//! escape sequence reaches a terminal and no 100 KB name is spoken.
//!
//! Pure: bytes in, lines and values out.

use rochade_core::text::is_hidden;

/// The longest line a stream may send. A `gameFull` of a 300-move game is
/// about 3 KB; anything far beyond is a broken or hostile server.
pub const MAX_LINE: usize = 256 * 1024;

/// The longest answer to a plain request.
pub const MAX_BODY: usize = 1024 * 1024;

/// The longest text kept of one field the server wrote (a name, a chat
/// line, a reason); the move list is never cut.
pub const MAX_TEXT: usize = 300;

/// The fields that are lists of moves: kept whole (they are long in long
/// games and hold nothing but UCI moves and spaces, checked later).
const WHOLE_FIELDS: [&str; 1] = ["moves"];

/// A line too long to keep: the stream is broken or hostile.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LineTooLong;

/// Cuts a byte stream into lines (`\n`, an optional `\r` before it),
/// holding at most [`MAX_LINE`] bytes of an unfinished line.
#[derive(Debug, Default)]
pub struct LineSplitter {
    partial: Vec<u8>,
    max: usize,
}

impl LineSplitter {
    pub fn new() -> LineSplitter {
        LineSplitter::with_max(MAX_LINE)
    }

    pub fn with_max(max: usize) -> LineSplitter {
        LineSplitter {
            partial: Vec::new(),
            max,
        }
    }

    /// The complete lines in `bytes` (with what came before), in order;
    /// blank lines too (they are the server's keep-alives). Invalid UTF-8
    /// is replaced, not dropped.
    pub fn push(&mut self, bytes: &[u8]) -> Result<Vec<String>, LineTooLong> {
        let mut lines = Vec::new();
        let mut rest = bytes;
        while let Some(end) = rest.iter().position(|&b| b == b'\n') {
            if self.partial.len() + end > self.max {
                return Err(LineTooLong);
            }
            self.partial.extend_from_slice(&rest[..end]);
            if self.partial.last() == Some(&b'\r') {
                self.partial.pop();
            }
            lines.push(String::from_utf8_lossy(&self.partial).into_owned());
            self.partial.clear();
            rest = &rest[end + 1..];
        }
        if self.partial.len() + rest.len() > self.max {
            return Err(LineTooLong);
        }
        self.partial.extend_from_slice(rest);
        Ok(lines)
    }

    /// Bytes of a line begun and not ended.
    pub fn pending(&self) -> usize {
        self.partial.len()
    }
}

/// `text` as it may be shown, printed and spoken: line breaks and tabs
/// become spaces, other hidden characters go, runs of spaces shrink to
/// one, and at most `max` characters are kept (an ellipsis says the cut).
pub fn clean_text(text: &str, max: usize) -> String {
    let mut out = String::with_capacity(text.len().min(max * 4));
    let mut kept = 0;
    let mut last_space = false;
    for c in text.chars() {
        let c = if matches!(c, '\n' | '\r' | '\t') {
            ' '
        } else {
            c
        };
        if is_hidden(c) {
            continue;
        }
        if c == ' ' && last_space {
            continue;
        }
        if kept == max {
            out.push('…');
            break;
        }
        last_space = c == ' ';
        out.push(c);
        kept += 1;
    }
    out
}

/// Every text in `value` cleaned ([`clean_text`], capped at [`MAX_TEXT`]);
/// a move list is only cleaned. Object keys are cleaned too.
pub fn clean_value(value: &mut serde_json::Value) {
    clean_in(value, false);
}

fn clean_in(value: &mut serde_json::Value, whole: bool) {
    use serde_json::Value;
    match value {
        Value::String(s) => {
            let max = if whole { usize::MAX } else { MAX_TEXT };
            if needs_cleaning(s, max) {
                *s = clean_text(s, max);
            }
        }
        Value::Array(items) => items.iter_mut().for_each(|v| clean_in(v, whole)),
        Value::Object(map) => {
            // Nearly every key is clean: only the others are copied.
            let dirty: Vec<String> = map
                .keys()
                .filter(|k| needs_cleaning(k, MAX_TEXT))
                .cloned()
                .collect();
            for key in dirty {
                if let Some(v) = map.remove(&key) {
                    map.insert(clean_text(&key, MAX_TEXT), v);
                }
            }
            for (key, v) in map.iter_mut() {
                clean_in(v, WHOLE_FIELDS.contains(&key.as_str()));
            }
        }
        Value::Null | Value::Bool(_) | Value::Number(_) => {}
    }
}

/// Whether [`clean_text`] would change `text` (checked without building
/// the cleaned copy, which most texts do not need).
fn needs_cleaning(text: &str, max: usize) -> bool {
    text.len() > max || text.contains("  ") || text.chars().any(is_hidden)
}

/// A line of the stream as `T`, every text in it cleaned first. The error
/// is short and quotes nothing of the line.
pub fn parse_line<T: serde::de::DeserializeOwned>(line: &str) -> Result<T, String> {
    let mut value: serde_json::Value = serde_json::from_str(line).map_err(|e| e.to_string())?;
    clean_value(&mut value);
    serde_json::from_value(value).map_err(|e| clean_text(&e.to_string(), MAX_TEXT))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_come_whole_however_the_chunks_fall() {
        let text = b"{\"a\":1}\n\n{\"b\":2}\r\n{\"c\":3}\n";
        // Every way of cutting the bytes in three gives the same lines.
        for i in 0..text.len() {
            for j in i..text.len() {
                let mut s = LineSplitter::new();
                let mut lines = s.push(&text[..i]).unwrap();
                lines.extend(s.push(&text[i..j]).unwrap());
                lines.extend(s.push(&text[j..]).unwrap());
                assert_eq!(
                    lines,
                    ["{\"a\":1}", "", "{\"b\":2}", "{\"c\":3}"],
                    "{i} {j}"
                );
                assert_eq!(s.pending(), 0);
            }
        }
    }

    #[test]
    fn a_line_that_never_ends_is_refused_at_the_bound() {
        let mut s = LineSplitter::with_max(10);
        assert_eq!(s.push(b"0123456789").unwrap(), Vec::<String>::new());
        assert_eq!(s.push(b"x"), Err(LineTooLong));
        let mut s = LineSplitter::with_max(10);
        assert_eq!(s.push(b"01234567890\n"), Err(LineTooLong));
        let mut s = LineSplitter::with_max(10);
        assert_eq!(s.push(b"0123456789\nab").unwrap(), ["0123456789"]);
        assert_eq!(s.pending(), 2);
    }

    #[test]
    fn escape_sequences_and_invisible_characters_go() {
        assert_eq!(
            clean_text("hi\u{1b}]0;owned\u{7}there\u{1b}[31m!", 100),
            "hi]0;ownedthere[31m!"
        );
        assert_eq!(clean_text("a\u{200B}b\u{202E}c\u{FEFF}d\0e", 100), "abcde");
        assert_eq!(
            clean_text("two\nlines\tand   spaces", 100),
            "two lines and spaces"
        );
        assert_eq!(clean_text("\u{85}C1\u{9b}", 100), "C1");
    }

    #[test]
    fn long_texts_are_cut_with_an_ellipsis_on_a_character_boundary() {
        let name = "ü".repeat(100_000);
        let cut = clean_text(&name, 5);
        assert_eq!(cut, "üüüüü…");
        assert_eq!(clean_text("short", 5), "short");
    }

    #[test]
    fn a_parsed_line_keeps_its_moves_whole_and_cleans_every_other_text() {
        #[derive(serde::Deserialize)]
        struct Line {
            moves: String,
            name: String,
            nested: Vec<Inner>,
        }
        #[derive(serde::Deserialize)]
        struct Inner {
            text: String,
        }
        let moves = vec!["e2e4"; 2000].join(" ");
        let line = serde_json::json!({
            "moves": moves,
            "name": "x".repeat(100_000),
            "nested": [{"text": "\u{1b}]0;title\u{7}hello"}],
        })
        .to_string();
        let parsed: Line = parse_line(&line).unwrap();
        assert_eq!(parsed.moves, moves);
        assert_eq!(parsed.name.chars().count(), MAX_TEXT + 1);
        assert_eq!(parsed.nested[0].text, "]0;titlehello");
    }

    #[test]
    fn a_parse_error_quotes_nothing_of_the_line() {
        let secret = "x".repeat(10_000);
        let e = parse_line::<serde_json::Value>(&format!("{{\"a\": {secret}")).unwrap_err();
        assert!(e.len() < 200, "{e}");
    }
}
