//! Peg-board serial protocol, version 1 (see `docs/board-builders.md`).
//!
//! Lines are ASCII, end in LF (a CR before the LF is ignored), at most
//! [`MAX_LINE`] bytes, and end in `*HH`: the XOR of every byte before the `*`
//! as two upper-case hex digits, as in NMEA 0183. This module is pure: it
//! turns one line into a [`PegMessage`] or a reason to drop it, and writes
//! lines for the simulator and for firmware authors' tests.

use shakmaty::{Color, Piece, Role};

use super::PegMessage;

/// Longest accepted line, without its LF (and without a CR before it).
pub const MAX_LINE: usize = 96;

/// Why a received line was not acted on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DropReason {
    /// The `*HH` checksum is missing, malformed or does not match.
    BadChecksum,
    /// Longer than the format allows.
    TooLong,
    /// Checksum fine (or no checksum in the format) but the content is not
    /// a message this format knows.
    Garbage,
}

/// A command the host sends to the board (no checksum).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HostCommand {
    /// `?`: send a snapshot now.
    Snapshot,
    /// `I?`: send the identification line.
    Ident,
    /// Light these squares' LEDs, all others dark (an empty set: all
    /// dark). Boards without lights ignore it.
    Lights(shakmaty::Bitboard),
}

impl HostCommand {
    pub fn line(self) -> &'static [u8] {
        match self {
            HostCommand::Snapshot => b"?\n",
            HostCommand::Ident => b"I?\n",
            // A peg-board has no lights.
            HostCommand::Lights(_) => b"",
        }
    }

    /// Parses a command line as a board would (CR/LF and spaces trimmed).
    pub fn parse(line: &[u8]) -> Option<HostCommand> {
        match line.trim_ascii() {
            b"?" => Some(HostCommand::Snapshot),
            b"I?" => Some(HostCommand::Ident),
            _ => None,
        }
    }
}

/// XOR of all bytes: the NMEA-style checksum.
pub fn checksum(bytes: &[u8]) -> u8 {
    bytes.iter().fold(0, |acc, b| acc ^ b)
}

fn hex_digit(b: u8) -> Option<u8> {
    match b {
        b'0'..=b'9' => Some(b - b'0'),
        b'A'..=b'F' => Some(b - b'A' + 10),
        b'a'..=b'f' => Some(b - b'a' + 10),
        _ => None,
    }
}

/// Parses one line (without LF; a trailing CR is ignored).
pub fn parse_line(line: &[u8]) -> Result<PegMessage, DropReason> {
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    if line.len() > MAX_LINE {
        return Err(DropReason::TooLong);
    }
    let n = line.len();
    if n < 3 || line[n - 3] != b'*' {
        return Err(DropReason::BadChecksum);
    }
    let (Some(hi), Some(lo)) = (hex_digit(line[n - 2]), hex_digit(line[n - 1])) else {
        return Err(DropReason::BadChecksum);
    };
    let body = &line[..n - 3];
    if checksum(body) != (hi << 4 | lo) {
        return Err(DropReason::BadChecksum);
    }
    parse_body(body).ok_or(DropReason::Garbage)
}

fn parse_body(body: &[u8]) -> Option<PegMessage> {
    let (kind, rest) = match body {
        [k, b' ', rest @ ..] => (*k, rest),
        _ => return None,
    };
    match kind {
        b'B' => {
            if rest.len() != 16 {
                return None;
            }
            let mut mask = 0u64;
            for &b in rest {
                mask = mask << 4 | u64::from(hex_digit(b)?);
            }
            Some(PegMessage::Snapshot(mask))
        }
        b'P' => {
            if rest.len() != 64 {
                return None;
            }
            let mut pieces = [None; 64];
            for (slot, &b) in pieces.iter_mut().zip(rest) {
                *slot = match b {
                    b'.' => None,
                    _ => Some(Piece::from_char(char::from(b))?),
                };
            }
            Some(PegMessage::Pieces(pieces))
        }
        b'I' | b'E' => {
            if !rest.iter().all(|b| (0x20..0x7f).contains(b)) {
                return None;
            }
            let text = String::from_utf8_lossy(rest).trim().to_owned();
            Some(if kind == b'I' {
                PegMessage::Ident(text)
            } else {
                PegMessage::Fault(text)
            })
        }
        _ => None,
    }
}

/// Appends `*HH\n` to a line body.
pub fn seal(body: &str) -> String {
    format!("{body}*{:02X}\n", checksum(body.as_bytes()))
}

/// `B <mask>*HH\n`.
pub fn write_snapshot(mask: u64) -> String {
    seal(&format!("B {mask:016X}"))
}

/// `P <64 chars>*HH\n`.
pub fn write_pieces(pieces: &[Option<Piece>; 64]) -> String {
    let chars: String = pieces.iter().map(|p| p.map_or('.', Piece::char)).collect();
    seal(&format!("P {chars}"))
}

/// `I <text>*HH\n`; non-printable characters are replaced by `?`.
pub fn write_ident(text: &str) -> String {
    seal(&format!("I {}", printable(text)))
}

/// `E <text>*HH\n`.
pub fn write_fault(text: &str) -> String {
    seal(&format!("E {}", printable(text)))
}

fn printable(text: &str) -> String {
    text.chars()
        .map(|c| if (' '..='~').contains(&c) { c } else { '?' })
        .take(MAX_LINE - 6)
        .collect()
}

/// The pieces of the standard start position in protocol order.
pub fn start_pieces() -> [Option<Piece>; 64] {
    let back = [
        Role::Rook,
        Role::Knight,
        Role::Bishop,
        Role::Queen,
        Role::King,
        Role::Bishop,
        Role::Knight,
        Role::Rook,
    ];
    let mut out = [None; 64];
    for f in 0..8 {
        out[f] = Some(Piece {
            color: Color::White,
            role: back[f],
        });
        out[8 + f] = Some(Piece {
            color: Color::White,
            role: Role::Pawn,
        });
        out[48 + f] = Some(Piece {
            color: Color::Black,
            role: Role::Pawn,
        });
        out[56 + f] = Some(Piece {
            color: Color::Black,
            role: back[f],
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_snapshot_round_trips() {
        let line = write_snapshot(0xFFFF_0000_0000_FFFF);
        assert!(line.starts_with("B FFFF00000000FFFF*"));
        let parsed = parse_line(line.trim_end().as_bytes()).unwrap();
        assert_eq!(parsed, PegMessage::Snapshot(0xFFFF_0000_0000_FFFF));
    }

    #[test]
    fn checksum_matches_nmea_rule() {
        // XOR of "B FFFF00000000FFFF" by hand: the eight Fs and eight 0s
        // cancel in pairs, leaving 'B' ^ ' ' = 0x42 ^ 0x20 = 0x62.
        let expected = 0x62;
        assert_eq!(checksum(b"B FFFF00000000FFFF"), expected);
        assert_eq!(
            write_snapshot(0xFFFF_0000_0000_FFFF),
            format!("B FFFF00000000FFFF*{expected:02X}\n")
        );
    }

    #[test]
    fn bad_lines_are_dropped_with_a_reason() {
        assert_eq!(
            parse_line(b"B FFFF00000000FFFF*00"),
            Err(DropReason::BadChecksum)
        );
        assert_eq!(
            parse_line(b"B FFFF00000000FFFF"),
            Err(DropReason::BadChecksum)
        );
        assert_eq!(parse_line(&[b'x'; 97]), Err(DropReason::TooLong));
        assert_eq!(
            parse_line(seal("Z 1").trim_end().as_bytes()),
            Err(DropReason::Garbage)
        );
        assert_eq!(
            parse_line(seal("B FFF").trim_end().as_bytes()),
            Err(DropReason::Garbage)
        );
        assert_eq!(
            parse_line(seal("B FFFF00000000FFFG").trim_end().as_bytes()),
            Err(DropReason::Garbage)
        );
    }

    #[test]
    fn cr_is_ignored_and_lowercase_checksum_accepted() {
        let line = write_snapshot(1);
        let with_cr = format!("{}\r", line.trim_end());
        assert_eq!(parse_line(with_cr.as_bytes()), Ok(PegMessage::Snapshot(1)));
        assert_eq!(
            parse_line(
                line.trim_end()
                    .to_ascii_lowercase()
                    .replace("b 0", "B 0")
                    .as_bytes()
            ),
            Ok(PegMessage::Snapshot(1))
        );
    }

    #[test]
    fn pieces_ident_and_fault() {
        let pieces = start_pieces();
        let line = write_pieces(&pieces);
        assert_eq!(
            parse_line(line.trim_end().as_bytes()),
            Ok(PegMessage::Pieces(pieces))
        );
        let ident = write_ident("pegboard 1 fw=0.3");
        assert_eq!(
            parse_line(ident.trim_end().as_bytes()),
            Ok(PegMessage::Ident("pegboard 1 fw=0.3".into()))
        );
        let fault = write_fault("sensor e4 stuck");
        assert_eq!(
            parse_line(fault.trim_end().as_bytes()),
            Ok(PegMessage::Fault("sensor e4 stuck".into()))
        );
    }

    #[test]
    fn host_commands() {
        assert_eq!(HostCommand::parse(b"?\r"), Some(HostCommand::Snapshot));
        assert_eq!(HostCommand::parse(b"I?"), Some(HostCommand::Ident));
        assert_eq!(HostCommand::parse(b"X"), None);
    }
}
