//! The DGT e-board's serial protocol (see `/docs/connect-board.md` and the
//! project's `dgt-protocol.md` notes): one-byte commands from the host, and
//! messages from the board framed as `id | 0x80`, a 14-bit total length in
//! two 7-bit halves, then data bytes that all have their top bit clear.
//!
//! Pure: bytes in (any chunking), [`Message`]s out, with counters of
//! everything skipped. A byte with its top bit set always starts a new
//! message, so the decoder resynchronises on it after garbage; unknown or
//! malformed messages are counted and never passed on.

use shakmaty::{Color, Piece, Role, Square};

use crate::eboard::pieces::{Pieces, index_of_square, square_of_index};

/// The board's baud rate (8N1, no handshake).
pub const BAUD: u32 = 9600;

/// Longest message accepted (a board dump is 67 bytes); anything announcing
/// more is garbage.
pub const MAX_MESSAGE: usize = 128;

/// Message ids (with the top bit set, as on the wire).
pub const BOARD_DUMP: u8 = 0x86;
pub const BWTIME: u8 = 0x8D;
pub const FIELD_UPDATE: u8 = 0x8E;
pub const SERIALNR: u8 = 0x91;
pub const VERSION: u8 = 0x93;

/// A command from the host to the board: one byte each.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Command {
    /// 0x40: back to idle (no reply).
    Reset,
    /// 0x41: send the clock.
    SendClock,
    /// 0x42: send a board dump.
    SendBoard,
    /// 0x43: field updates, and the clock at least every second.
    SendUpdate,
    /// 0x44: field updates only.
    SendUpdateBoard,
    /// 0x45: send the serial number (also the keep-alive).
    SerialNumber,
    /// 0x4B: field updates, the clock only when it changes.
    SendUpdateNice,
    /// 0x4D: send the firmware version.
    Version,
}

impl Command {
    pub const ALL: [Command; 8] = [
        Command::Reset,
        Command::SendClock,
        Command::SendBoard,
        Command::SendUpdate,
        Command::SendUpdateBoard,
        Command::SerialNumber,
        Command::SendUpdateNice,
        Command::Version,
    ];

    pub fn byte(self) -> u8 {
        match self {
            Command::Reset => 0x40,
            Command::SendClock => 0x41,
            Command::SendBoard => 0x42,
            Command::SendUpdate => 0x43,
            Command::SendUpdateBoard => 0x44,
            Command::SerialNumber => 0x45,
            Command::SendUpdateNice => 0x4B,
            Command::Version => 0x4D,
        }
    }

    /// The command as the bytes written to the port.
    pub fn as_slice(self) -> &'static [u8] {
        match self {
            Command::Reset => &[0x40],
            Command::SendClock => &[0x41],
            Command::SendBoard => &[0x42],
            Command::SendUpdate => &[0x43],
            Command::SendUpdateBoard => &[0x44],
            Command::SerialNumber => &[0x45],
            Command::SendUpdateNice => &[0x4B],
            Command::Version => &[0x4D],
        }
    }

    /// The command a board reads from `byte` (unknown bytes: `None`).
    pub fn from_byte(byte: u8) -> Option<Command> {
        Command::ALL.into_iter().find(|c| c.byte() == byte)
    }
}

/// The bytes the host sends when a link opens: update mode (field updates,
/// clock on change), the version, then a full board dump.
pub fn start_sequence() -> [u8; 3] {
    [
        Command::SendUpdateNice.byte(),
        Command::Version.byte(),
        Command::SendBoard.byte(),
    ]
}

/// One side of a DGT clock's display.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct ClockSide {
    pub hours: u8,
    pub minutes: u8,
    pub seconds: u8,
    /// The flag has fallen.
    pub flag: bool,
}

impl ClockSide {
    /// Total seconds shown.
    pub fn seconds_total(self) -> u32 {
        u32::from(self.hours) * 3600 + u32::from(self.minutes) * 60 + u32::from(self.seconds)
    }
}

/// A clock reading (BWTIME message).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct ClockReading {
    pub right: ClockSide,
    pub left: ClockSide,
    /// Status bits as sent (see the methods).
    pub status: u8,
}

impl ClockReading {
    pub fn running(self) -> bool {
        self.status & 0x01 != 0
    }
    /// The lever is high on the right player's side.
    pub fn lever_right_high(self) -> bool {
        self.status & 0x02 != 0
    }
    pub fn battery_low(self) -> bool {
        self.status & 0x04 != 0
    }
    pub fn right_to_move(self) -> bool {
        self.status & 0x08 != 0
    }
    pub fn left_to_move(self) -> bool {
        self.status & 0x10 != 0
    }
    /// The board reports that no clock is attached.
    pub fn no_clock(self) -> bool {
        self.status & 0x20 != 0
    }
}

/// A message from the board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Message {
    /// 0x86: every square's piece.
    BoardDump(Pieces),
    /// 0x8E: one square changed (`None`: emptied).
    FieldUpdate {
        square: Square,
        piece: Option<Piece>,
    },
    /// 0x8D: the clock's times.
    Clock(ClockReading),
    /// 0x8D with the acknowledgement marker: an answer to a clock command.
    ClockAck,
    /// 0x93: firmware version.
    Version { major: u8, minor: u8 },
    /// 0x91: the serial number (ASCII digits).
    SerialNumber(String),
}

const ROLES: [Role; 6] = [
    Role::Pawn,
    Role::Rook,
    Role::Knight,
    Role::Bishop,
    Role::King,
    Role::Queen,
];

/// The piece a code stands for: `Some(None)` for empty, `None` for codes
/// no piece has. "Magic pieces" (0x0D-0x0F) are read as empty squares: they are
/// no chess piece, and the recognizer then sees a piece missing.
pub fn piece_of_code(code: u8) -> Option<Option<Piece>> {
    match code {
        0 | 0x0D..=0x0F => Some(None),
        1..=12 => {
            let color = if code <= 6 {
                Color::White
            } else {
                Color::Black
            };
            let role = ROLES[usize::from((code - 1) % 6)];
            Some(Some(Piece { color, role }))
        }
        _ => None,
    }
}

/// The code of a piece (0 for empty).
pub fn code_of_piece(piece: Option<Piece>) -> u8 {
    let Some(p) = piece else { return 0 };
    let role = ROLES.iter().position(|r| *r == p.role).unwrap_or(0) as u8 + 1;
    match p.color {
        Color::White => role,
        Color::Black => role + 6,
    }
}

fn bcd(b: u8) -> Option<u8> {
    let (hi, lo) = (b >> 4, b & 0x0F);
    (hi <= 9 && lo <= 9).then_some(hi * 10 + lo)
}

fn to_bcd(v: u8) -> u8 {
    ((v / 10) << 4) | (v % 10)
}

fn clock_side(b: &[u8]) -> Option<ClockSide> {
    Some(ClockSide {
        hours: b[0] & 0x0F,
        flag: b[0] & 0x10 != 0,
        minutes: bcd(b[1]).filter(|m| *m < 60)?,
        seconds: bcd(b[2]).filter(|s| *s < 60)?,
    })
}

/// Parses one complete message (header included). `None`: unknown id,
/// wrong length for its id, or data no board sends.
pub fn parse_message(msg: &[u8]) -> Option<Message> {
    let (&id, data) = msg.split_first()?;
    let data = data.get(2..)?;
    match (id, data.len()) {
        (BOARD_DUMP, 64) => {
            let mut pieces = [None; 64];
            for (i, &code) in data.iter().enumerate() {
                pieces[usize::from(square_of_index(i as u8))] = piece_of_code(code)?;
            }
            Some(Message::BoardDump(pieces))
        }
        (FIELD_UPDATE, 2) => {
            if data[0] > 63 {
                return None;
            }
            Some(Message::FieldUpdate {
                square: square_of_index(data[0]),
                piece: piece_of_code(data[1])?,
            })
        }
        (BWTIME, 7) => {
            if data[0] & 0x0F == 0x0A || data[3] & 0x0F == 0x0A {
                return Some(Message::ClockAck);
            }
            Some(Message::Clock(ClockReading {
                right: clock_side(&data[0..3])?,
                left: clock_side(&data[3..6])?,
                status: data[6],
            }))
        }
        (VERSION, 2) => Some(Message::Version {
            major: data[0],
            minor: data[1],
        }),
        (SERIALNR, 5) => {
            if !data.iter().all(|b| (0x20..0x7f).contains(b)) {
                return None;
            }
            Some(Message::SerialNumber(
                String::from_utf8_lossy(data).into_owned(),
            ))
        }
        _ => None,
    }
}

fn frame(id: u8, data: &[u8]) -> Vec<u8> {
    let len = data.len() + 3;
    let mut out = vec![id, (len >> 7) as u8 & 0x7F, len as u8 & 0x7F];
    out.extend(data.iter().map(|b| b & 0x7F));
    out
}

/// The bytes a board sends for a message (for the simulator and tests).
pub fn encode(msg: &Message) -> Vec<u8> {
    match msg {
        Message::BoardDump(pieces) => {
            let data: Vec<u8> = (0..64u8)
                .map(|i| code_of_piece(pieces[usize::from(square_of_index(i))]))
                .collect();
            frame(BOARD_DUMP, &data)
        }
        Message::FieldUpdate { square, piece } => frame(
            FIELD_UPDATE,
            &[index_of_square(*square), code_of_piece(*piece)],
        ),
        Message::Clock(c) => {
            let side = |s: ClockSide| {
                [
                    (s.hours & 0x0F) | if s.flag { 0x10 } else { 0 },
                    to_bcd(s.minutes.min(59)),
                    to_bcd(s.seconds.min(59)),
                ]
            };
            let mut data = side(c.right).to_vec();
            data.extend(side(c.left));
            data.push(c.status);
            frame(BWTIME, &data)
        }
        Message::ClockAck => frame(BWTIME, &[0x0A, 0, 0, 0x0A, 0, 0, 0]),
        Message::Version { major, minor } => frame(VERSION, &[*major, *minor]),
        Message::SerialNumber(s) => {
            let mut digits: Vec<u8> = s.bytes().take(5).collect();
            digits.resize(5, b'0');
            frame(SERIALNR, &digits)
        }
    }
}

/// Counters for the diagnostics view and the board log.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct DgtStats {
    /// Messages passed on.
    pub messages: u64,
    /// Complete messages skipped: unknown id, wrong length, bad data.
    pub unknown: u64,
    /// Runs of bytes skipped while resynchronising (stray data bytes, a
    /// message cut short by the next header, an impossible length).
    pub garbage: u64,
}

impl DgtStats {
    pub fn dropped(&self) -> u64 {
        self.unknown + self.garbage
    }
}

/// A streaming decoder: bytes in any chunking to [`Message`]s.
#[derive(Clone, Debug, Default)]
pub struct Decoder {
    buf: Vec<u8>,
    /// The total length the current message announced (0: not known yet).
    want: usize,
    /// Skipping stray data bytes until the next header (counted once).
    skipping: bool,
    stats: DgtStats,
}

impl Decoder {
    pub fn new() -> Decoder {
        Decoder::default()
    }

    pub fn stats(&self) -> DgtStats {
        self.stats
    }

    fn skip(&mut self) {
        if !self.skipping {
            self.skipping = true;
            self.stats.garbage += 1;
        }
        self.buf.clear();
        self.want = 0;
    }

    /// Feeds bytes; calls `on_message` for each complete, known message.
    pub fn push(&mut self, bytes: &[u8], mut on_message: impl FnMut(Message)) {
        for &b in bytes {
            if b & 0x80 != 0 {
                if !self.buf.is_empty() {
                    // A message cut short: its bytes are lost.
                    self.skip();
                }
                self.skipping = false;
                self.buf.push(b);
                continue;
            }
            if self.buf.is_empty() {
                self.skip();
                continue;
            }
            self.buf.push(b);
            if self.buf.len() == 3 {
                let want = usize::from(self.buf[1]) << 7 | usize::from(self.buf[2]);
                if !(3..=MAX_MESSAGE).contains(&want) {
                    self.skip();
                    continue;
                }
                self.want = want;
            }
            if self.want != 0 && self.buf.len() == self.want {
                match parse_message(&self.buf) {
                    Some(m) => {
                        self.stats.messages += 1;
                        on_message(m);
                    }
                    None => self.stats.unknown += 1,
                }
                self.buf.clear();
                self.want = 0;
            }
        }
    }

    /// Convenience for tests and replays: all messages from `bytes`.
    pub fn push_collect(&mut self, bytes: &[u8]) -> Vec<Message> {
        let mut out = Vec::new();
        self.push(bytes, |m| out.push(m));
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eboard::pieces::start_pieces;

    fn sample_messages() -> Vec<Message> {
        vec![
            Message::BoardDump(start_pieces()),
            Message::FieldUpdate {
                square: Square::E2,
                piece: None,
            },
            Message::FieldUpdate {
                square: Square::E4,
                piece: Some(Piece {
                    color: Color::White,
                    role: Role::Pawn,
                }),
            },
            Message::Clock(ClockReading {
                right: ClockSide {
                    hours: 1,
                    minutes: 29,
                    seconds: 58,
                    flag: false,
                },
                left: ClockSide {
                    hours: 0,
                    minutes: 5,
                    seconds: 7,
                    flag: true,
                },
                status: 0x09,
            }),
            Message::ClockAck,
            Message::Version { major: 1, minor: 7 },
            Message::SerialNumber("12345".into()),
        ]
    }

    #[test]
    fn the_start_position_dump_is_what_the_spec_says() {
        let wire = encode(&Message::BoardDump(start_pieces()));
        assert_eq!(&wire[..3], &[0x86, 0, 67]);
        // a8 first: black rook (08), then black knight (09) ...
        assert_eq!(&wire[3..11], &[8, 9, 0x0A, 0x0C, 0x0B, 0x0A, 9, 8]);
        assert_eq!(&wire[11..19], &[7; 8]);
        assert_eq!(&wire[51..59], &[1; 8]);
        // ... and h1 last: white rook (02); white queen 06 on d1, king 05 on e1.
        assert_eq!(&wire[59..67], &[2, 3, 4, 6, 5, 4, 3, 2]);
        assert_eq!(wire.len(), 67);
    }

    #[test]
    fn every_message_type_round_trips() {
        for m in sample_messages() {
            let wire = encode(&m);
            assert_eq!(Decoder::new().push_collect(&wire), vec![m.clone()], "{m:?}");
        }
        let clock = encode(&sample_messages()[3]);
        assert_eq!(
            clock,
            [0x8D, 0, 10, 0x01, 0x29, 0x58, 0x10, 0x05, 0x07, 0x09]
        );
        assert_eq!(encode(&sample_messages()[1]), [0x8E, 0, 5, 52, 0]);
        assert_eq!(encode(&sample_messages()[5]), [0x93, 0, 5, 1, 7]);
        assert_eq!(
            encode(&sample_messages()[6]),
            [0x91, 0, 8, b'1', b'2', b'3', b'4', b'5']
        );
    }

    #[test]
    fn field_indices_run_from_a8_to_h1() {
        assert_eq!(square_of_index(0), Square::A8);
        assert_eq!(square_of_index(7), Square::H8);
        assert_eq!(square_of_index(8), Square::A7);
        assert_eq!(square_of_index(63), Square::H1);
        for sq in Square::ALL {
            assert_eq!(square_of_index(index_of_square(sq)), sq);
        }
        for code in 0..=12 {
            assert_eq!(code_of_piece(piece_of_code(code).unwrap()), code);
        }
        assert_eq!(piece_of_code(0x0E), Some(None));
        assert!(piece_of_code(0x10).is_none());
    }

    #[test]
    fn commands_are_single_bytes() {
        assert_eq!(Command::SendBoard.byte(), 0x42);
        assert_eq!(Command::SendUpdateNice.byte(), 0x4B);
        assert_eq!(Command::Version.byte(), 0x4D);
        assert_eq!(Command::SerialNumber.byte(), 0x45);
        assert_eq!(Command::Reset.byte(), 0x40);
        for c in Command::ALL {
            assert_eq!(Command::from_byte(c.byte()), Some(c));
            assert_eq!(c.as_slice(), [c.byte()]);
        }
        assert_eq!(Command::from_byte(0x99), None);
        assert_eq!(start_sequence(), [0x4B, 0x4D, 0x42]);
    }

    #[test]
    fn random_fragmentation_gives_the_same_messages() {
        let wire: Vec<u8> = sample_messages().iter().flat_map(encode).collect();
        let whole = Decoder::new().push_collect(&wire);
        assert_eq!(whole, sample_messages());
        // A small deterministic generator: chunk sizes 1..=13 in varying order.
        let mut seed = 0x2545_F491_4F6C_DD1Du64;
        for _ in 0..500 {
            let mut d = Decoder::new();
            let mut got = Vec::new();
            let mut rest = &wire[..];
            while !rest.is_empty() {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                let n = (seed % 13 + 1).min(rest.len() as u64) as usize;
                got.extend(d.push_collect(&rest[..n]));
                rest = &rest[n..];
            }
            assert_eq!(got, whole);
            assert_eq!(d.stats().dropped(), 0);
        }
    }

    #[test]
    fn garbage_is_skipped_counted_and_never_acted_on() {
        let update = encode(&sample_messages()[2]);
        let mut wire = vec![0x01, 0x02, 0x7F]; // stray data bytes
        wire.extend(&update);
        wire.extend([0x86, 0, 67, 1, 2, 3]); // a dump cut short by the next header
        wire.extend(&update);
        wire.extend([0x99, 0, 4, 0x11]); // unknown message, well framed
        wire.extend([0x8E, 0, 6, 1, 1, 1]); // known id, wrong length
        wire.extend([0x8E, 0, 5, 64, 1]); // square out of range
        wire.extend([0x8E, 0, 5, 3, 0x10]); // no such piece code
        wire.extend([0x8E, 0x7F, 0x7F]); // impossible length: resync
        wire.extend([5, 6]);
        wire.extend(&update);
        let mut d = Decoder::new();
        let got = d.push_collect(&wire);
        assert_eq!(got, vec![sample_messages()[2].clone(); 3]);
        let s = d.stats();
        assert_eq!((s.messages, s.unknown, s.garbage), (3, 4, 3));
    }

    #[test]
    fn a_clock_with_impossible_digits_is_dropped() {
        let mut bad = encode(&sample_messages()[3]);
        bad[4] = 0x6A; // minutes "6A"
        let mut d = Decoder::new();
        assert!(d.push_collect(&bad).is_empty());
        assert_eq!(d.stats().unknown, 1);
    }
}
