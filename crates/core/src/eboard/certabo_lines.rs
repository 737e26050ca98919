//! A Certabo board's byte stream cut into lines: a colon opens a scan
//! line, CR LF closes it; bytes outside a line are garbage, except the
//! board's own markers.
//!
//! What the independent drivers show of the stream, and how it is read
//! here:
//!
//! * The board answers a light command with a line `L` or `D` (PicoChess's
//!   captured lines in `tests/test_certabo_parser.py`: `... 252 15 \r\nL\r\n\r\n:3 0 84 ...`).
//!   A marker line, and a blank line, is no line dropped: it is passed on
//!   as [`Framed::Marker`].
//! * A marker may come inside a scan line (`... 252 17` + `0\nL\r\n` in the
//!   same tests; PicoChess strips `L`, `D` and `*` anywhere before reading
//!   the numbers): it is kept in the line's body (a log replays it) and
//!   left out when the numbers are read ([`super::certabo::parse_scan`]).
//! * PicoChess's captures carry a bare LF every 64 bytes, inside numbers
//!   too (`... 3 0 8\n4 107 52 ...`), and its parser joins them. A bare LF
//!   in a line that does not yet hold a whole scan is such a break and is
//!   left out; a line's end is CR LF (the form certabo-lichess reads:
//!   `readline()`, then the body without `:` and ` \r\n`), or a bare LF
//!   after a whole scan's numbers and a blank.

use super::certabo::NUMBERS;
use super::certabo_lights::is_marker;

/// Longest line kept: 320 numbers of three digits with a space each, the
/// colon, and room for trailing blanks and markers.
pub const MAX_LINE: usize = 1 + NUMBERS * 4 + 16;

/// Lines out of a byte stream.
#[derive(Clone, Debug, Default)]
pub(super) struct Lines {
    buf: Vec<u8>,
    /// Inside a line (after its colon).
    open: bool,
    /// The open line ran past [`MAX_LINE`].
    overlong: bool,
    /// Bytes outside any line since the last line.
    stray: bool,
}

/// What a framed line came to.
pub(super) enum Framed<'a> {
    /// A whole line's body (colon and LF left out).
    Line(&'a [u8]),
    /// Cut short by the next colon or by silence (the body so far).
    Cut(&'a [u8]),
    /// Garbage between lines.
    Garbage(&'a [u8]),
    TooLong(&'a [u8]),
    /// A line of the board's markers only (`L`, `D`), or a blank one.
    Marker(&'a [u8]),
}

impl Lines {
    pub(super) fn push(&mut self, bytes: &[u8], on: &mut dyn FnMut(Framed)) {
        for &b in bytes {
            match b {
                b':' => {
                    self.close_stray(on);
                    if self.open {
                        // The last line never ended: cut short.
                        self.finish(false, on);
                    }
                    self.open = true;
                }
                b'\n' if self.open => {
                    if self.buf.last() == Some(&b'\r') || self.holds_a_scan() {
                        self.finish(true, on);
                    }
                    // Else a break inside the line: left out.
                }
                b'\n' => self.close_stray(on),
                _ if self.open => {
                    if self.buf.len() < MAX_LINE {
                        self.buf.push(b);
                    } else {
                        self.overlong = true;
                    }
                }
                _ => {
                    if self.buf.len() < MAX_LINE {
                        self.buf.push(b);
                    }
                    self.stray = true;
                }
            }
        }
    }

    /// The open line holds a whole scan's numbers, the last one ended by
    /// a blank (a bare LF then ends the line rather than breaking it).
    fn holds_a_scan(&self) -> bool {
        if self.buf.last() != Some(&b' ') {
            return false;
        }
        let mut numbers = 0;
        let mut in_number = false;
        for &b in self.buf.iter().filter(|b| !is_marker(**b)) {
            let digit = b.is_ascii_digit();
            numbers += usize::from(digit && !in_number);
            in_number = digit;
        }
        numbers == NUMBERS
    }

    fn close_stray(&mut self, on: &mut dyn FnMut(Framed)) {
        if std::mem::take(&mut self.stray) {
            let markers_only = self
                .buf
                .iter()
                .all(|&b| is_marker(b) || b == b'\r' || b == b' ');
            if markers_only {
                on(Framed::Marker(&self.buf));
            } else {
                on(Framed::Garbage(&self.buf));
            }
            self.buf.clear();
        }
    }

    fn finish(&mut self, ended: bool, on: &mut dyn FnMut(Framed)) {
        let framed = if self.overlong {
            Framed::TooLong(&self.buf)
        } else if ended {
            Framed::Line(&self.buf)
        } else {
            Framed::Cut(&self.buf)
        };
        on(framed);
        self.buf.clear();
        self.open = false;
        self.overlong = false;
    }

    /// Silence: a part-line is a lost one's.
    pub(super) fn idle(&mut self, on: &mut dyn FnMut(Framed)) {
        if self.open {
            self.finish(false, on);
        }
        self.close_stray(on);
    }
}
