//! A second look at the movetext, token by token, so that no move is lost
//! without an error: `pgn-reader` passes over a token it cannot read as a
//! move (`Zz9`, `e4xyz`, a stray `}` glued to a move, `e4` followed by a
//! non-breaking space) without telling its visitor. The scanner splits the
//! movetext the way `pgn-reader` does (same token ends, comments, escapes
//! and variations) and names every top-level token that is neither a move
//! number, a result, an annotation nor a move in SAN.

use shakmaty::CastlingSide;
use shakmaty::san::{San, SanPlus, Suffix};

/// What the scanner found next.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Found {
    /// A move in SAN starting at this offset.
    San { at: u64, san: SanPlus },
    /// A token that is no move, number, result or annotation, as written.
    Unreadable { at: u64, text: String },
    /// The bytes ran out before any of the above.
    End,
    /// A variation opened at this offset is never closed (the game ends
    /// inside it: every move after its `(` would be lost).
    Unclosed { at: u64 },
}

/// Bytes that end a token in `pgn-reader`.
fn is_token_end(byte: u8) -> bool {
    matches!(
        byte,
        b' ' | b'\t'
            | b'\n'
            | b'\r'
            | b'{'
            | b'}'
            | b'('
            | b')'
            | b'!'
            | b'?'
            | b'$'
            | b';'
            | b'.'
            | b'*'
    )
}

/// The longest text of an unreadable token an error shows.
const SHOWN: usize = 24;

/// Where the scan of one game's movetext stands.
#[derive(Clone, Debug)]
pub(super) struct Scanner {
    /// Input offset of the next byte to look at.
    pub at: u64,
    /// The previous byte was a line break (a `%` line is an escape).
    line_start: bool,
    /// Before the movetext: `[` starts a tag.
    in_tags: bool,
}

impl Scanner {
    /// A scan of a game that starts at input offset `at` (its tags, if any,
    /// first).
    pub fn new(at: u64) -> Scanner {
        Scanner {
            at,
            line_start: true,
            in_tags: true,
        }
    }

    /// The next move or unreadable token in `bytes`, which hold the input
    /// from offset `base` on; the end of `bytes` ends a token.
    pub fn next(&mut self, bytes: &[u8], base: u64) -> Found {
        loop {
            let Some(i) = self.at.checked_sub(base).map(|i| i as usize) else {
                return Found::End;
            };
            let Some(&byte) = bytes.get(i) else {
                return Found::End;
            };
            let line_start = std::mem::replace(&mut self.line_start, byte == b'\n');
            let rest = &bytes[i..];
            if !matches!(byte, b'\n' | b' ' | b'\t' | b'\r' | b'[' | b'%') {
                self.in_tags = false;
            }
            let skip = match byte {
                b'\n' | b' ' | b'\t' | b'\r' | b'.' | b'*' | b')' | b'!' | b'?' => 1,
                b'[' if self.in_tags => tag(rest),
                b'%' if line_start => until_line_end(rest),
                b';' => until_line_end(rest),
                b'{' => match rest.iter().position(|&b| b == b'}') {
                    Some(end) => end + 1,
                    None => return Found::End,
                },
                b'(' => match variation(rest) {
                    Some(len) => len,
                    None => return Found::Unclosed { at: self.at },
                },
                _ => {
                    let len = rest[1..]
                        .iter()
                        .position(|&b| is_token_end(b))
                        .map_or(rest.len(), |n| n + 1);
                    let at = self.at;
                    self.at += len as u64;
                    let token = &rest[..len];
                    if byte == b'$' {
                        // A NAG: `$` and digits, ended like a token.
                        let digits = rest[1..]
                            .iter()
                            .position(|b| !b.is_ascii_digit())
                            .unwrap_or(rest.len() - 1);
                        if digits > 0 {
                            self.at = at + 1 + digits as u64;
                            continue;
                        }
                    }
                    if token == b"e" && rest[1..].starts_with(b".p.") {
                        // `exd6 e.p.`: an en passant remark.
                        self.at += 3;
                        continue;
                    }
                    match classify(token) {
                        Token::Skip => continue,
                        Token::San(san) => return Found::San { at, san },
                        Token::Unreadable => {
                            let text = String::from_utf8_lossy(token);
                            let text = match text.char_indices().nth(SHOWN) {
                                Some((cut, _)) => format!("{}...", &text[..cut]),
                                None => text.into_owned(),
                            };
                            return Found::Unreadable { at, text };
                        }
                    }
                }
            };
            self.at += skip as u64;
        }
    }
}

/// Bytes up to (not including) the next line break.
fn until_line_end(bytes: &[u8]) -> usize {
    bytes
        .iter()
        .position(|&b| b == b'\n')
        .unwrap_or(bytes.len())
}

/// Bytes of a tag pair from its `[` to after its `]` (or to the end of its
/// line); a `]` in the quoted value does not end it.
fn tag(bytes: &[u8]) -> usize {
    let mut quoted = false;
    let mut i = 1;
    while let Some(&b) = bytes.get(i) {
        match b {
            b'\\' if quoted => i += 1,
            b'"' => quoted = !quoted,
            b']' if !quoted => return i + 1,
            b'\n' => return i,
            _ => {}
        }
        i += 1;
    }
    bytes.len()
}

/// Bytes of a variation from its `(` to after its `)` (nested ones, comments
/// and escapes inside), as `pgn-reader` skips it; `None` when it is never
/// closed.
fn variation(bytes: &[u8]) -> Option<usize> {
    let mut depth = 0usize;
    let mut i = 0;
    while let Some(&b) = bytes.get(i) {
        match b {
            b'(' => depth += 1,
            b')' => {
                depth -= 1;
                if depth == 0 {
                    return Some(i + 1);
                }
            }
            b'{' => match bytes[i..].iter().position(|&b| b == b'}') {
                Some(end) => i += end,
                None => return None,
            },
            b';' => i += until_line_end(&bytes[i..]).saturating_sub(1),
            b'\n' if bytes.get(i + 1) == Some(&b'%') => {
                i += 1 + until_line_end(&bytes[i + 1..]).saturating_sub(1);
            }
            _ => {}
        }
        i += 1;
    }
    None
}

enum Token {
    /// A move number or a result.
    Skip,
    San(SanPlus),
    Unreadable,
}

/// One token of the movetext.
fn classify(token: &[u8]) -> Token {
    // The dashes `pgn-reader` takes in results and castling.
    let text = String::from_utf8_lossy(token).replace(['–', '—'], "-");
    match text.as_str() {
        "1-0" | "0-1" | "1/2-1/2" | "½-½" => return Token::Skip,
        _ => {}
    }
    if let Some(castle) = zeros_castling(&text) {
        return Token::San(castle);
    }
    // A move number, perhaps with the move glued on (`12e4` after `12.`
    // is split at the dot already).
    let san = match text.find(|c: char| !c.is_ascii_digit()) {
        None if !text.starts_with('0') => return Token::Skip,
        Some(n) if n > 0 && !text.starts_with('0') => &text[n..],
        _ => text.as_str(),
    };
    match SanPlus::from_ascii(san.as_bytes()) {
        Ok(san) => Token::San(san),
        // Evaluation signs some programs write (`±`, `+=`, `∞`): with no
        // letter or digit the token cannot be, or hide, a move.
        Err(_) if !token.iter().any(u8::is_ascii_alphanumeric) => Token::Skip,
        Err(_) => Token::Unreadable,
    }
}

/// `0-0`, `0-0-0` (with `+` or `#`), as `pgn-reader` reads them.
fn zeros_castling(text: &str) -> Option<SanPlus> {
    let (body, suffix) = match text.as_bytes().last()? {
        b'+' => (&text[..text.len() - 1], Some(Suffix::Check)),
        b'#' => (&text[..text.len() - 1], Some(Suffix::Checkmate)),
        _ => (text, None),
    };
    let side = match body {
        "0-0" => CastlingSide::KingSide,
        "0-0-0" => CastlingSide::QueenSide,
        _ => return None,
    };
    Some(SanPlus {
        san: San::Castle(side),
        suffix,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scan(text: &str) -> Vec<String> {
        let mut scanner = Scanner::new(0);
        let mut out = Vec::new();
        loop {
            match scanner.next(text.as_bytes(), 0) {
                Found::San { at, san } => out.push(format!("{at}:{san}")),
                Found::Unreadable { at, text } => out.push(format!("{at}:?{text}")),
                Found::Unclosed { at } => {
                    out.push(format!("{at}:(?"));
                    return out;
                }
                Found::End => return out,
            }
        }
    }

    #[test]
    fn moves_numbers_results_comments_and_variations() {
        assert_eq!(
            scan(
                "1. e4 {a (b} e5 2.Nf3!? $1 (2. f4 {x)} exf4 (2... d5)) Nc6 ; c5\n%x\n3. 0-0+ 1/2-1/2"
            ),
            ["3:e4", "13:e5", "18:Nf3", "55:Nc6", "70:O-O+"]
        );
        assert_eq!(scan("1.e4 e5 2. exd6 e.p. *"), ["2:e4", "5:e5", "11:exd6"]);
        assert_eq!(scan("12e4 1–0"), ["0:e4"]);
    }

    #[test]
    fn a_scoresheet_reads_as_its_moves_with_what_is_no_move_kept() {
        assert_eq!(
            crate::pgn::movetext_moves("1. e4 e5 2. 0-0+ Sf3 (2. d4) Nc6# *"),
            ["e4", "e5", "O-O", "Sf3", "Nc6"]
        );
    }

    #[test]
    fn tags_come_first() {
        assert_eq!(
            scan("[Event \"a ] \\\" b\"] [Site \"x\"]\n%esc\n\n1. e4 [x] *"),
            ["39:e4", "42:?[x]"]
        );
    }

    #[test]
    fn tokens_that_are_no_move_are_named() {
        assert_eq!(scan("1. e4 Zz9 e5"), ["3:e4", "6:?Zz9", "10:e5"]);
        assert_eq!(scan("e4xyz e5"), ["0:?e4xyz", "6:e5"]);
        assert_eq!(scan("e4 }e5"), ["0:e4", "3:?}e5"]);
        assert_eq!(scan("e4 ± e5 += Nf3 ∞"), ["0:e4", "6:e5", "12:Nf3"]);
        assert_eq!(scan("e4\u{a0}e5"), ["0:?e4\u{a0}e5"]);
        assert_eq!(scan("1/2 $x 0"), ["0:?1/2", "4:?$x", "7:?0"]);
        assert_eq!(
            scan(&"x".repeat(40)),
            [format!("0:?{}...", "x".repeat(SHOWN))]
        );
    }
}
