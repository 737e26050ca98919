//! Tag pairs `pgn-reader` reads wrong, told right: a value with no closing
//! quote before its line ends (`[Event "x` then a new line) is handed over
//! as if it were closed, and a closed value longer than the reader's
//! buffer is reported as "unterminated tag". Both are judged here from the
//! bytes of the tag line.

/// The longest tag value `pgn-reader` takes whole (its 16 KiB buffer,
/// less the tag's name and brackets).
pub(super) const TAG_VALUE_MAX: usize = 16_375;

/// Whether a value handed over as ending at input offset `end` ends at
/// its closing quote. `bytes` holds the input from offset `bytes_from` on;
/// `None` when the byte is not at hand.
pub(super) fn value_closed(bytes: &[u8], bytes_from: u64, end: u64) -> Option<bool> {
    let i = usize::try_from(end.checked_sub(bytes_from)?).ok()?;
    bytes.get(i).map(|&b| b == b'"')
}

/// A tag line `pgn-reader` refused: where it starts (input offset) and
/// what is wrong with it. `last` is the offset of its last byte read.
pub(super) fn open_tag(bytes: &[u8], bytes_from: u64, last: u64) -> (u64, String) {
    let last = usize::try_from(last.saturating_sub(bytes_from))
        .unwrap_or(usize::MAX)
        .min(bytes.len());
    // The line holding the last byte read (a new line ends it).
    let start = bytes[..last]
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |i| i + 1);
    let end = bytes[start..]
        .iter()
        .position(|&b| b == b'\n')
        .map_or(bytes.len(), |i| start + i);
    let problem = describe(&bytes[start..end]);
    (bytes_from + start as u64, problem)
}

/// "unterminated tag", or a closed value too long for the reader.
fn describe(line: &[u8]) -> String {
    let unterminated = || "unterminated tag".to_owned();
    let Some(open) = line.iter().position(|&b| b == b'"') else {
        return unterminated();
    };
    let mut i = open + 1;
    while i < line.len() {
        match line[i] {
            b'\\' => i += 2,
            b'"' => {
                let name = String::from_utf8_lossy(&line[1.min(line.len())..open]);
                let name = crate::text::excerpt(name.trim(), 40);
                let length = i - open - 1;
                return format!(
                    "the value of the tag {name} is {length} bytes long: a tag value may hold at most {TAG_VALUE_MAX}"
                );
            }
            _ => i += 1,
        }
    }
    unterminated()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pgn::read_pgn;

    fn tag_of(len: usize) -> String {
        format!("[Event \"{}\"]\n\n1. e4 *\n", "x".repeat(len))
    }

    #[test]
    fn a_long_closed_tag_is_too_long_not_unterminated() {
        let game = read_pgn(&tag_of(TAG_VALUE_MAX), 0).unwrap();
        assert_eq!(game.tags.event.len(), TAG_VALUE_MAX);
        for len in [TAG_VALUE_MAX + 1, 100_000] {
            let err = read_pgn(&tag_of(len), 0).unwrap_err();
            assert_eq!((err.line, err.column), (Some(1), Some(1)), "{err}");
            assert_eq!(
                err.message,
                format!(
                    "the value of the tag Event is {len} bytes long: a tag value may hold at most 16375"
                )
            );
        }
        // On a later line, after other tags.
        let text = format!("[Site \"here\"]\n{}", tag_of(20_000));
        let err = read_pgn(&text, 0).unwrap_err();
        assert_eq!((err.line, err.column), (Some(2), Some(1)), "{err}");
    }

    #[test]
    fn a_tag_without_its_closing_quote_is_an_error() {
        for text in [
            "[Event \"x\n\n1. e4 *\n",
            "[Event \"x\n",
            "[Event \"x",
            "[Site \"a\"]\n[Event \"x]\n1. e4 *\n",
        ] {
            let err = read_pgn(text, 0).unwrap_err();
            assert!(err.message.contains("unterminated tag"), "{text:?}: {err}");
            assert!(err.line.is_some(), "{text:?}: {err}");
        }
        let err = read_pgn("[Site \"a\"]\n[Event \"x\n1. e4 *\n", 0).unwrap_err();
        assert_eq!(err.line, Some(2), "{err}");
        // An escaped quote inside a closed value is fine.
        let game = read_pgn("[Event \"a \\\"b\\\" c\"]\n\n1. e4 *\n", 0).unwrap();
        assert_eq!(game.tags.event, "a \"b\" c");
    }
}
