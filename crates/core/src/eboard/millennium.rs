//! The Millennium ChessLink board (eONE, Exclusive, Supreme Tournament 55):
//! its serial protocol, as published by its maker ("ChessLink: Magic
//! Chessboard Communications Protocol", Dave Woodfield 25/10/17, kept as
//! `mchess/magic-board.md` in the python-mchess project).
//!
//! The wire: 38400 baud, 7 data bits, odd parity, 1 stop bit; printable
//! ASCII only. Every message, both ways, is closed by a block-parity check:
//! the XOR of all its characters as two upper-case hex digits. The host
//! sends one upper-case letter and its data; the board answers with the
//! same letter in lower case.
//!
//! The character parity is Rochade's own, as every independent driver
//! does it: the port is opened 8N1 and each byte written carries the odd
//! parity of its seven bits in bit 7 ([`odd_parity`]); each byte read has
//! bit 7 stripped. On the line that is bit for bit a 7O1 character, so it
//! reaches the board the same whether or not a USB bridge honours a 7O1
//! setting (one that ignores it sent `V56` with bit 7 clear: a parity
//! error at the board for every character with an even number of ones,
//! and no answer). Over Bluetooth the same bytes travel as they are.
//!
//! The board's messages have no terminator: each has a fixed length known
//! from its letter. The decoder tries a frame at the head of what it holds
//! and, when the frame is damaged (a wrong check, a character no such
//! message has), drops one byte and tries again, so it finds the next good
//! frame even when it starts inside the damaged one.
//!
//! Pure: bytes in (any chunking), [`Message`]s out, with counters.

use shakmaty::{Bitboard, Color, Piece, Role, Square};

use super::Message;
use crate::board::{DecoderStats, Framing, HostCommand, Protocol};
use crate::eboard::Pieces;

/// The board's baud rate (7 data bits, odd parity, 1 stop bit: on the
/// host's 8N1 port, the parity is bit 7 of each byte).
pub const BAUD: u32 = 38400;

/// How often the host asks for the status: the board reports only on
/// change, so a report lost on the line would otherwise stand until the
/// next move. Asked every half second, a lost report is repaired well
/// within the recognizer's correction time (2 s: a piece that paused on
/// its way and went on), even when one answer is lost too; and the answer
/// shows the link is alive. (67 bytes twice a second: under 4 % of the
/// line.)
pub const KEEP_ALIVE_MS: u64 = 500;

/// E2ROM address of the scan time (units of 2.048 ms; default 20).
pub const E2_SCAN_TIME: u8 = 0x01;
/// E2ROM address of the automatic status reports mode.
pub const E2_AUTO_REPORTS: u8 = 0x02;
/// Automatic reports mode: send the status on any change, no debounce
/// (the recognizer settles the position itself; the document advises this
/// for speed chess).
pub const REPORTS_ON_CHANGE: u8 = 0x03;

/// LEDs on the board: one at every corner of the 9×9 grid of square
/// corners.
pub const LEDS: usize = 81;
/// The LED pattern of a lit corner: on in all eight time slots (steady).
pub const LED_ON: u8 = 0xFF;
/// The slot time of the host's LED commands (units of 4.096 ms). With a
/// steady pattern it changes nothing the eye sees.
pub const LED_SLOT_TIME: u8 = 0x20;

/// The length of each board message by its letter, check included.
fn reply_len(letter: u8) -> Option<usize> {
    match letter {
        b's' => Some(1 + 64 + 2),
        b'v' | b'w' | b'r' => Some(1 + 4 + 2),
        b'l' | b'x' => Some(1 + 2),
        _ => None,
    }
}

/// `c` with the odd parity of its seven bits in bit 7: the total of ones
/// in the byte is odd. (python-mchess `chess_link_protocol.py`
/// `add_odd_par`; BearChess `CRCConversions.AddOddPar`.)
pub fn odd_parity(c: u8) -> u8 {
    let c = c & 0x7F;
    if c.count_ones().is_multiple_of(2) {
        c | 0x80
    } else {
        c
    }
}

/// Whether bit 7 of `b` is the odd parity of its seven bits (as a 7O1
/// UART checks the character).
pub fn parity_ok(b: u8) -> bool {
    !b.count_ones().is_multiple_of(2)
}

/// `frame` as the host writes it on its 8N1 port: each byte with its
/// odd-parity bit.
pub fn with_parity(frame: &[u8]) -> Vec<u8> {
    frame.iter().map(|&c| odd_parity(c)).collect()
}

/// The block parity of `bytes`: XOR of all characters.
pub fn block_parity(bytes: &[u8]) -> u8 {
    bytes.iter().fold(0, |acc, b| acc ^ (b & 0x7F))
}

const HEX: &[u8; 16] = b"0123456789ABCDEF";

fn push_hex(out: &mut Vec<u8>, value: u8) {
    out.push(HEX[usize::from(value >> 4)]);
    out.push(HEX[usize::from(value & 0x0F)]);
}

fn hex_digit(c: u8) -> Option<u8> {
    match c {
        b'0'..=b'9' => Some(c - b'0'),
        b'A'..=b'F' => Some(c - b'A' + 10),
        _ => None,
    }
}

/// Whether `c` is an upper-case hex digit.
pub fn is_hex(c: u8) -> bool {
    hex_digit(c).is_some()
}

/// Two upper-case hex digits as a byte.
pub fn hex_byte(pair: &[u8]) -> Option<u8> {
    Some(hex_digit(*pair.first()?)? << 4 | hex_digit(*pair.get(1)?)?)
}

/// `body` closed by its block-parity check, as sent on the wire.
pub fn with_check(body: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(body.len() + 2);
    out.extend_from_slice(body);
    push_hex(&mut out, block_parity(body));
    out
}

/// Splits a frame into its body and checks the block parity: the body
/// without the check, or `None` when the check is wrong or missing.
pub fn checked_body(frame: &[u8]) -> Option<&[u8]> {
    let (body, check) = frame.split_at_checked(frame.len().checked_sub(2)?)?;
    (hex_byte(check)? == block_parity(body)).then_some(body)
}

/// The piece a status character stands for: `Some(None)` for an empty
/// square, `None` for a character no status has.
pub fn piece_of_char(c: u8) -> Option<Option<Piece>> {
    if c == b'.' {
        return Some(None);
    }
    let role = Role::from_char(char::from(c.to_ascii_lowercase()))?;
    let color = if c.is_ascii_uppercase() {
        Color::White
    } else {
        Color::Black
    };
    Some(Some(Piece { color, role }))
}

/// The status character of a piece (`.` for an empty square).
pub fn char_of_piece(piece: Option<Piece>) -> u8 {
    piece.map_or(b'.', |p| p.char() as u8)
}

/// The game square of status position `i` (a8 = 0, b8 = 1, ..., h1 = 63:
/// "Data order is A8...H8, A7...H7 etc.").
pub fn square_of_index(i: usize) -> Square {
    crate::eboard::pieces::square_of_index(i as u8)
}

/// The status message's body (without the check) for `pieces`.
pub fn status_body(pieces: &Pieces) -> Vec<u8> {
    let mut out = Vec::with_capacity(65);
    out.push(b's');
    out.extend((0..64).map(|i| char_of_piece(pieces[usize::from(square_of_index(i))])));
    out
}

/// The LED index (0-based: LED 1 of the document is 0) of the corner at
/// `file_edge` (0: the a-file's outer edge ... 8: the h-file's outer edge)
/// and `rank_edge` (0: the 8th rank's outer edge ... 8: the 1st rank's).
/// The document: "LED 1 is in the A8 corner, LED 9 is in the A1 corner,
/// LED 73 is in the H8 corner, LED 81 is in the H1 corner": nine LEDs down
/// each line of corners from the 8th rank to the 1st, lines from a to h.
pub fn led_index(file_edge: usize, rank_edge: usize) -> usize {
    file_edge * 9 + rank_edge
}

/// The four LEDs around a square.
pub fn leds_of_square(sq: Square) -> [usize; 4] {
    let file = usize::from(sq.file());
    let top = 7 - usize::from(sq.rank());
    [
        led_index(file, top),
        led_index(file, top + 1),
        led_index(file + 1, top),
        led_index(file + 1, top + 1),
    ]
}

/// The LED patterns that light `squares` (each by its four corners,
/// steady) and leave every other LED dark.
pub fn led_pattern(squares: Bitboard) -> [u8; LEDS] {
    let mut leds = [0u8; LEDS];
    for sq in squares {
        for i in leds_of_square(sq) {
            leds[i] = LED_ON;
        }
    }
    leds
}

/// The squares whose four corners are all lit in `leds`.
pub fn lit_squares(leds: &[u8; LEDS]) -> Bitboard {
    Square::ALL
        .into_iter()
        .filter(|sq| leds_of_square(*sq).iter().all(|&i| leds[i] != 0))
        .collect()
}

/// A host command, as the board reads it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// `S`: send the status.
    Status,
    /// `V`: send the firmware version.
    Version,
    /// `X`: all LEDs off.
    LedsOff,
    /// `L`: the slot time and the 81 LED patterns.
    Leds { slot: u8, leds: Box<[u8; LEDS]> },
    /// `W`: write a byte of E2ROM.
    Write { address: u8, value: u8 },
    /// `R`: read a byte of E2ROM.
    Read { address: u8 },
    /// `T`: hardware reset (no answer).
    Reset,
}

impl Command {
    /// The command's bytes on the wire, check included.
    pub fn encode(&self) -> Vec<u8> {
        let mut body = Vec::new();
        match self {
            Command::Status => body.push(b'S'),
            Command::Version => body.push(b'V'),
            Command::LedsOff => body.push(b'X'),
            Command::Reset => body.push(b'T'),
            Command::Leds { slot, leds } => {
                body.push(b'L');
                push_hex(&mut body, *slot);
                for &led in leds.iter() {
                    push_hex(&mut body, led);
                }
            }
            Command::Write { address, value } => {
                body.push(b'W');
                push_hex(&mut body, *address);
                push_hex(&mut body, *value);
            }
            Command::Read { address } => {
                body.push(b'R');
                push_hex(&mut body, *address);
            }
        }
        with_check(&body)
    }

    /// The length of a command by its letter, check included (`None`: no
    /// such command).
    pub fn len_of(letter: u8) -> Option<usize> {
        match letter {
            b'S' | b'V' | b'X' | b'T' => Some(1 + 2),
            b'L' => Some(1 + 2 + 2 * LEDS + 2),
            b'W' => Some(1 + 4 + 2),
            b'R' => Some(1 + 2 + 2),
            _ => None,
        }
    }

    /// Parses one whole command frame (check included): `None` when the
    /// check is wrong or the data is not upper-case hex.
    pub fn parse(frame: &[u8]) -> Option<Command> {
        let body = checked_body(frame)?;
        let (&letter, data) = body.split_first()?;
        if Command::len_of(letter)? != frame.len() {
            return None;
        }
        let byte = |i: usize| hex_byte(data.get(2 * i..2 * i + 2)?);
        Some(match letter {
            b'S' => Command::Status,
            b'V' => Command::Version,
            b'X' => Command::LedsOff,
            b'T' => Command::Reset,
            b'L' => {
                let mut leds = Box::new([0u8; LEDS]);
                for (i, led) in leds.iter_mut().enumerate() {
                    *led = byte(i + 1)?;
                }
                Command::Leds {
                    slot: byte(0)?,
                    leds,
                }
            }
            b'W' => Command::Write {
                address: byte(0)?,
                value: byte(1)?,
            },
            b'R' => Command::Read { address: byte(0)? },
            _ => return None,
        })
    }
}

/// What a frame at the head of the buffer is, so far.
enum Head {
    /// Not a frame's first character.
    NotAFrame,
    /// A frame may be coming: more bytes needed.
    Incomplete,
    /// Damaged: a character no such message has there, or a wrong check.
    Damaged { bad_check: bool },
    /// A whole, good frame of this length.
    Frame(Message, usize),
}

/// Whether `c` may stand in the data of a message that begins with
/// `letter` (a piece code in a status, upper-case hex elsewhere).
fn fits(letter: u8, c: u8) -> bool {
    match letter {
        b's' => piece_of_char(c).is_some(),
        _ => hex_digit(c).is_some(),
    }
}

fn head(buf: &[u8]) -> Head {
    let Some(len) = buf.first().and_then(|&l| reply_len(l)) else {
        return Head::NotAFrame;
    };
    let letter = buf[0];
    // Every character is checked as it arrives: a damaged frame is left
    // as soon as it shows, and the next frame read without delay.
    for (i, &c) in buf.iter().enumerate().take(len).skip(1) {
        let ok = if i < len - 2 {
            fits(letter, c)
        } else {
            hex_digit(c).is_some()
        };
        if !ok {
            return Head::Damaged { bad_check: false };
        }
    }
    if buf.len() < len {
        return Head::Incomplete;
    }
    let frame = &buf[..len];
    let Some(body) = checked_body(frame) else {
        return Head::Damaged { bad_check: true };
    };
    let message = match letter {
        b's' => {
            let mut pieces: Pieces = [None; 64];
            for (i, &c) in body[1..].iter().enumerate() {
                pieces[usize::from(square_of_index(i))] = piece_of_char(c).flatten();
            }
            Message::Position(Box::new(pieces))
        }
        b'v' => {
            let text = String::from_utf8_lossy(&body[1..]);
            Message::Ident(format!(
                "Millennium ChessLink {}.{}",
                &text[..2],
                &text[2..]
            ))
        }
        _ => Message::Ack,
    };
    Head::Frame(message, len)
}

/// A streaming decoder of the board's messages.
#[derive(Clone, Debug, Default)]
pub struct Decoder {
    buf: Vec<u8>,
    /// Bytes dropped and not yet written to the board log (each byte is
    /// logged exactly once, in order, so a replay reads the same).
    dropped: Vec<u8>,
    /// Bytes are being skipped after a drop (a run is counted once).
    skipping: bool,
    stats: DecoderStats,
}

impl Decoder {
    pub fn new() -> Decoder {
        Decoder::default()
    }

    fn drop_head(&mut self, bad_check: bool) {
        if !self.skipping {
            self.skipping = true;
            self.stats.frames += 1;
            if bad_check {
                self.stats.bad_checksum += 1;
            } else {
                self.stats.garbage += 1;
            }
        }
        let b = self.buf.remove(0);
        self.dropped.push(b);
    }

    fn log_dropped(&mut self, log: &mut dyn FnMut(&[u8], bool)) {
        if !self.dropped.is_empty() {
            log(&self.dropped, false);
            self.dropped.clear();
        }
    }

    /// Feeds bytes; each good message goes to `out`; every byte goes to
    /// `log` once: a good frame as one entry, dropped bytes together.
    fn push(&mut self, bytes: &[u8], log: &mut dyn FnMut(&[u8], bool), out: &mut Vec<Message>) {
        for &b in bytes {
            // The parity bit, when it comes as the top bit, is no data.
            self.buf.push(b & 0x7F);
            while !self.buf.is_empty() {
                match head(&self.buf) {
                    Head::Incomplete => break,
                    Head::NotAFrame => self.drop_head(false),
                    Head::Damaged { bad_check } => self.drop_head(bad_check),
                    Head::Frame(message, len) => {
                        self.log_dropped(log);
                        log(&self.buf[..len], false);
                        self.buf.drain(..len);
                        self.skipping = false;
                        self.stats.frames += 1;
                        self.stats.messages += 1;
                        out.push(message);
                    }
                }
            }
        }
        self.log_dropped(log);
    }
}

impl Protocol for Decoder {
    type Message = Message;

    fn fresh(&self) -> Decoder {
        Decoder::new()
    }

    fn name(&self) -> &'static str {
        "millennium"
    }

    fn default_baud(&self) -> u32 {
        BAUD
    }

    /// 8N1: the parity bit is computed here ([`odd_parity`]), not asked
    /// of the port.
    fn framing(&self) -> Framing {
        Framing::EightNone
    }

    fn has_heartbeat(&self) -> bool {
        // It answers the keep-alive status request.
        true
    }

    fn keep_alive_ms(&self) -> Option<u64> {
        Some(KEEP_ALIVE_MS)
    }

    fn keep_alive(&self) -> HostCommand {
        HostCommand::Snapshot
    }

    fn decode(&mut self, bytes: &[u8], log: &mut dyn FnMut(&[u8], bool), out: &mut Vec<Message>) {
        self.push(bytes, log, out);
    }

    fn stats(&self) -> DecoderStats {
        self.stats
    }

    fn encode(&self, command: HostCommand) -> Vec<u8> {
        let frame = match command {
            HostCommand::Snapshot => Command::Status.encode(),
            HostCommand::Ident => Command::Version.encode(),
            HostCommand::Lights(squares) if squares.is_empty() => Command::LedsOff.encode(),
            HostCommand::Lights(squares) => Command::Leds {
                slot: LED_SLOT_TIME,
                leds: Box::new(led_pattern(squares)),
            }
            .encode(),
        };
        with_parity(&frame)
    }

    /// Status reports on every change, the version, then the status now.
    fn greeting(&self) -> Vec<u8> {
        let mut out = Command::Write {
            address: E2_AUTO_REPORTS,
            value: REPORTS_ON_CHANGE,
        }
        .encode();
        out.extend(Command::Version.encode());
        out.extend(Command::Status.encode());
        with_parity(&out)
    }

    fn logged_to_wire(&self, logged: &[u8]) -> Vec<u8> {
        logged.to_vec()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::BoardReport;
    use crate::eboard::pieces::start_pieces;

    /// The seven bits of each byte (the parity bit off).
    fn stripped(bytes: &[u8]) -> Vec<u8> {
        bytes.iter().map(|b| b & 0x7F).collect()
    }

    fn decode(bytes: &[u8]) -> (Vec<Message>, DecoderStats) {
        let mut d = Decoder::new();
        let got = d.decode_all(bytes);
        (got, Protocol::stats(&d))
    }

    #[test]
    fn the_block_parity_is_the_xor_of_the_characters_in_two_hex_digits() {
        // The version exchange logged in python-mchess's `chess_link.py`:
        // the host sent "V56", the board answered "v010374" (version 01.03).
        assert_eq!(with_check(b"V"), b"V56");
        assert_eq!(with_check(b"v0103"), b"v010374");
        assert_eq!(block_parity(b"v0103"), 0x74);
        // The parity bit in the top bit (over Bluetooth) is no data.
        assert_eq!(block_parity(&[b'v' | 0x80, b'0']), block_parity(b"v0"));
        assert_eq!(checked_body(b"v010374"), Some(&b"v0103"[..]));
        assert_eq!(checked_body(b"v010375"), None);
        assert_eq!(checked_body(b"v01037"), None);
        assert_eq!(hex_byte(b"C4"), Some(0xC4));
        assert_eq!(hex_byte(b"c4"), None, "upper-case hex only");
        let (got, _) = decode(b"v010374");
        assert_eq!(
            got,
            vec![Message::Ident("Millennium ChessLink 01.03".into())]
        );
        // With odd parity in the top bit, as Bluetooth carries it: 'v'
        // (0x76, five ones) has its parity bit clear, '0' (two ones) set.
        let parity: Vec<u8> = b"v010374"
            .iter()
            .map(|&c| {
                if c.count_ones().is_multiple_of(2) {
                    c | 0x80
                } else {
                    c
                }
            })
            .collect();
        assert_eq!(&parity[..3], &[0x76, 0xB0, 0x31]);
        assert_eq!(decode(&parity).0, got);
    }

    #[test]
    fn a_status_frame_reads_a8_first_and_h1_last() {
        let body: Vec<u8> =
            b"srnbqkbnrpppppppp................................PPPPPPPPRNBQKBNR".to_vec();
        assert_eq!(status_body(&start_pieces()), body);
        let wire = with_check(&body);
        assert_eq!(wire.len(), 67);
        let (got, stats) = decode(&wire);
        assert_eq!(got.len(), 1);
        assert_eq!(got[0].pieces(), Some(&start_pieces()));
        assert_eq!((stats.frames, stats.messages, stats.dropped()), (1, 1, 0));
        // One piece moved: e2-e4.
        let mut pieces = start_pieces();
        pieces[usize::from(Square::E4)] = pieces[usize::from(Square::E2)].take();
        let body = status_body(&pieces);
        assert_eq!(body[1 + 36], b'P', "e4 is position 36 (row 4 from the top)");
        assert_eq!(body[1 + 52], b'.', "e2 is position 52");
        assert_eq!(decode(&with_check(&body)).0[0].pieces(), Some(&pieces));
    }

    #[test]
    fn the_leds_of_e2_and_e4_are_the_corners_the_document_numbers() {
        // The document: LED 1 in the A8 corner, LED 9 in the A1 corner,
        // LED 73 in the H8 corner, LED 81 in the H1 corner (1-based).
        assert_eq!(leds_of_square(Square::A8)[0] + 1, 1);
        assert_eq!(leds_of_square(Square::A1)[1] + 1, 9);
        assert_eq!(leds_of_square(Square::H8)[2] + 1, 73);
        assert_eq!(leds_of_square(Square::H1)[3] + 1, 81);
        // e2: between the d/e and e/f lines of corners (the 5th and 6th,
        // LEDs 37-45 and 46-54), below the 3rd rank and above the 1st
        // (the 7th and 8th corner of each line): LEDs 43, 44, 52, 53.
        let e2: Vec<usize> = leds_of_square(Square::E2).iter().map(|i| i + 1).collect();
        assert_eq!(e2, [43, 44, 52, 53]);
        let e4: Vec<usize> = leds_of_square(Square::E4).iter().map(|i| i + 1).collect();
        assert_eq!(e4, [41, 42, 50, 51]);
        let d = Decoder::new();
        let sent = d.encode(HostCommand::Lights(Bitboard::from(Square::E2) | Square::E4));
        assert!(
            sent.iter().all(|&b| parity_ok(b)),
            "odd parity on every byte"
        );
        let wire = stripped(&sent);
        assert_eq!(wire.len(), 1 + 2 + 162 + 2);
        assert_eq!(&wire[..3], b"L20");
        let mut expected = String::from("L20");
        for led in 1..=81 {
            let lit = [41, 42, 43, 44, 50, 51, 52, 53].contains(&led);
            expected.push_str(if lit { "FF" } else { "00" });
        }
        // Eight LEDs at FF: their XOR is zero, and so is that of the 73
        // "00" pairs; "L20" leaves 'L' ^ '2' ^ '0' = 0x4C ^ 0x32 ^ 0x30.
        assert_eq!(block_parity(expected.as_bytes()), 0x4E);
        expected.push_str("4E");
        assert_eq!(String::from_utf8(wire.clone()).unwrap(), expected);
        let Some(Command::Leds { slot, leds }) = Command::parse(&wire) else {
            panic!("an LED command")
        };
        assert_eq!(slot, 0x20);
        assert_eq!(*leds, led_pattern(Bitboard::from(Square::E2) | Square::E4));
        // Corners light squares: e3 lies between e2's upper corners and
        // e4's lower ones, so it shows framed too.
        assert_eq!(
            lit_squares(&leds),
            Bitboard::from(Square::E2) | Square::E3 | Square::E4
        );
        assert_eq!(
            lit_squares(&led_pattern(Bitboard::from(Square::G1) | Square::F3)),
            Bitboard::from(Square::G1) | Square::F3
        );
        assert_eq!(
            d.encode(HostCommand::Lights(Bitboard::EMPTY)),
            with_parity(b"X58")
        );
    }

    #[test]
    fn the_host_commands_and_the_greeting() {
        let d = Decoder::new();
        assert_eq!(stripped(&d.encode(HostCommand::Snapshot)), b"S53");
        assert_eq!(stripped(&d.encode(HostCommand::Ident)), b"V56");
        // W, address 02 (automatic reports), 03 (on any change).
        assert_eq!(stripped(&d.greeting()), b"W020356V56S53");
        assert!(d.greeting().iter().all(|&b| parity_ok(b)));
        // 8N1 with the parity computed: on the line, a 7O1 character.
        assert_eq!(d.framing(), Framing::EightNone);
        assert_eq!(d.keep_alive(), HostCommand::Snapshot);
        for cmd in [
            Command::Status,
            Command::Version,
            Command::LedsOff,
            Command::Reset,
            Command::Write {
                address: 1,
                value: 0x0F,
            },
            Command::Read { address: 2 },
            Command::Leds {
                slot: 7,
                leds: Box::new(led_pattern(Bitboard::from(Square::H8))),
            },
        ] {
            let wire = cmd.encode();
            assert_eq!(Command::len_of(wire[0]), Some(wire.len()));
            assert_eq!(Command::parse(&wire), Some(cmd.clone()), "{cmd:?}");
            let mut bad = wire.clone();
            let last = bad.len() - 1;
            bad[last] = if bad[last] == b'0' { b'1' } else { b'0' };
            assert_eq!(Command::parse(&bad), None, "{cmd:?} with a wrong check");
        }
    }

    #[test]
    fn the_answers_are_acks() {
        for body in [&b"x"[..], b"l", b"w0203", b"r0114"] {
            let (got, stats) = decode(&with_check(body));
            assert_eq!(got, vec![Message::Ack], "{body:?}");
            assert_eq!(stats.dropped(), 0);
        }
        assert_eq!(with_check(b"x"), b"x78");
        assert_eq!(with_check(b"l"), b"l6C");
    }

    #[test]
    fn any_chunking_gives_the_same_messages() {
        let mut wire = with_check(&status_body(&start_pieces()));
        wire.extend(with_check(b"v0103"));
        wire.extend(with_check(b"l"));
        wire.extend(with_check(b"w0203"));
        wire.extend(with_check(&status_body(&[None; 64])));
        let whole = decode(&wire).0;
        assert_eq!(whole.len(), 5);
        let mut seed = 0x2545_F491_4F6C_DD1Du64;
        for _ in 0..300 {
            let mut d = Decoder::new();
            let mut got = Vec::new();
            let mut rest = &wire[..];
            while !rest.is_empty() {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                let n = (seed % 70 + 1).min(rest.len() as u64) as usize;
                got.extend(d.decode_all(&rest[..n]));
                rest = &rest[n..];
            }
            assert_eq!(got, whole);
            assert_eq!(Protocol::stats(&d).dropped(), 0);
        }
    }

    #[test]
    fn damaged_frames_are_dropped_counted_and_the_next_one_read() {
        let status = with_check(&status_body(&start_pieces()));
        let mut corrupted = status.clone();
        corrupted[30] = b'Q'; // a piece misread on the line: the check fails
        let mut cut = status.clone();
        cut.truncate(40); // a status cut short by the next one
        let mut wire = b"zz?".to_vec(); // garbage
        wire.extend(&status);
        wire.extend(&corrupted);
        wire.extend(&status);
        wire.extend(&cut);
        wire.extend(&status);
        wire.extend(b"v01037"); // a version cut short
        wire.extend(with_check(b"x"));
        let (got, stats) = decode(&wire);
        assert_eq!(
            got.iter().filter(|m| m.pieces().is_some()).count(),
            3,
            "{got:?}"
        );
        assert_eq!(got.last(), Some(&Message::Ack));
        assert_eq!(got.len(), 4);
        assert_eq!(stats.messages, 4);
        assert_eq!(stats.bad_checksum, 1);
        assert_eq!(stats.garbage, 3);
        assert_eq!(stats.too_long, 0);
    }
}

#[cfg(test)]
#[path = "millennium_lights_tests.rs"]
mod published_lights;

#[cfg(test)]
#[path = "millennium_reference_tests.rs"]
mod published_bytes;
