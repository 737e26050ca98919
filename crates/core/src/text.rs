//! Small helpers for text read from files: where a byte stands (line and
//! column, for error messages) and a short excerpt of text that may be
//! huge (an error quotes at most [`EXCERPT_CHARS`] characters of a file,
//! so a 100 MB line is never printed, shown or spoken whole).

/// The most characters of a file's text an error message quotes.
pub const EXCERPT_CHARS: usize = 80;

/// `text` as it may be quoted in a message: at most `max` characters,
/// cut with "..." and the number of characters left out; line breaks,
/// other control characters and invisible ones shown as `\u{..}` escapes
/// so a quote stays one visible line.
pub fn excerpt(text: &str, max: usize) -> String {
    let mut out = String::new();
    let mut chars = text.chars();
    for (shown, c) in chars.by_ref().enumerate() {
        if shown == max {
            let rest = 1 + chars.count();
            out.push_str(&format!("... ({rest} more characters)"));
            return out;
        }
        if is_hidden(c) {
            out.push_str(&c.escape_unicode().to_string());
        } else {
            out.push(c);
        }
    }
    out
}

/// A character that is not seen as itself: a control character (a line
/// break, NUL, ...) or an invisible one (zero-width spaces and joiners,
/// direction marks and overrides, the byte order mark, a soft hyphen).
pub fn is_hidden(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{00AD}'
                | '\u{034F}'
                | '\u{061C}'
                | '\u{115F}'
                | '\u{1160}'
                | '\u{180E}'
                | '\u{200B}'..='\u{200F}'
                | '\u{2028}'..='\u{202E}'
                | '\u{2060}'..='\u{206F}'
                | '\u{3164}'
                | '\u{FE00}'..='\u{FE0F}'
                | '\u{FEFF}'
                | '\u{FFA0}'
                | '\u{FFF9}'..='\u{FFFB}'
        )
}

/// Line and column (both from 1; the column counts characters, a broken
/// byte as one) of byte `offset` in `bytes`.
pub fn line_column(bytes: &[u8], offset: usize) -> (usize, usize) {
    let before = &bytes[..offset.min(bytes.len())];
    let line_start = before
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |i| i + 1);
    let line = 1 + before.iter().filter(|&&b| b == b'\n').count();
    let column = 1 + String::from_utf8_lossy(&before[line_start..])
        .chars()
        .count();
    (line, column)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_text_is_cut_and_hidden_characters_are_shown() {
        let long = "\0".repeat(100_000_000 / 1000);
        let quoted = excerpt(&long, EXCERPT_CHARS);
        assert!(quoted.len() < 1000, "{}", quoted.len());
        assert!(quoted.ends_with("(99920 more characters)"), "{quoted}");
        assert_eq!(excerpt("Anna\nBella", 80), "Anna\\u{a}Bella");
        assert_eq!(excerpt("Eva\u{200b}", 80), "Eva\\u{200b}");
        assert_eq!(excerpt("kurz", 80), "kurz");
    }

    #[test]
    fn a_byte_is_placed_by_line_and_column() {
        assert_eq!(line_column(b"abc", 0), (1, 1));
        assert_eq!(line_column(b"ab\ncd\xffe", 5), (2, 3));
        assert_eq!(line_column("ä\nüx".as_bytes(), 5), (2, 2));
    }
}
