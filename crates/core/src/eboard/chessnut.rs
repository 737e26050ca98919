//! Chessnut Air, Air+, Pro and Go over Bluetooth LE, as the maker's
//! published API describes them (chessnutech/Chessnut_eBoards, README):
//!
//! * the board's position comes as a notification on the FEN
//!   characteristic: `0x01 0x24`, 32 bytes of position (two squares a
//!   byte, the first square in the low nibble, h8 g8 ... a8 h7 ... a1), and
//!   4 more bytes the API leaves undocumented (36 = 0x24 bytes after the
//!   header);
//! * answers to commands come on the response characteristic in the same
//!   shape: an id, a length, that many bytes (battery: `0x2A 0x02 level x`);
//! * commands: `0x21 0x01 0x00` turns real-time reporting on (the board
//!   then sends its whole position on every change); `0x0A 0x08` and 8
//!   bytes sets the LEDs, one bit a square, rank 8 first, in each byte
//!   the h-file in bit 0 and the a-file in bit 7;
//! * the packet size (ATT MTU) must be raised to 500 after connecting, or
//!   the position notification is cut short.
//!
//! Pure: bytes in any chunking to [`Message`]s, with counters of
//! everything skipped. A frame with a piece code no piece has is dropped
//! whole, never passed on.
//!
//! The board sends its whole position on every change; the decoder passes
//! the first one on as a [`Message::Position`], and after that each change
//! as the squares it changed ([`Message::Square`], emptied squares before
//! filled ones, as hands lift before they set down), as a DGT board
//! reports: the recognizer then sees a fast reply begin and need not wait
//! for the board to stand still. A position that changed nothing (the
//! answer to a request for the board) is passed on whole, and confirms.

use shakmaty::{Bitboard, Color, Piece, Role, Square};

use super::Message;
use crate::board::{DecoderStats, HostCommand, Protocol};
use crate::eboard::Pieces;

/// The service that carries the position notifications.
pub const FEN_SERVICE: u128 = 0x1b7e8261_2877_41c3_b46e_cf057c562023;
/// The position notifications (notify).
pub const FEN_NOTIFY: u128 = 0x1b7e8262_2877_41c3_b46e_cf057c562023;
/// The service that takes commands.
pub const OPERATION_SERVICE: u128 = 0x1b7e8271_2877_41c3_b46e_cf057c562023;
/// Commands to the board (write).
pub const OPERATION_WRITE: u128 = 0x1b7e8272_2877_41c3_b46e_cf057c562023;
/// Answers to commands (notify).
pub const OPERATION_NOTIFY: u128 = 0x1b7e8273_2877_41c3_b46e_cf057c562023;

/// The packet size to ask for: smaller, and the position is cut short.
pub const MTU: u16 = 500;

/// The smallest packet size that carries a whole position notification
/// (3 bytes of ATT header and the 38 of the notification).
pub const MTU_NEEDED: u16 = 3 + FRAME_LEN as u16;

/// Advertised names start with this ("Chessnut Air", "Chessnut Pro" ...).
pub const NAME_PREFIX: &str = "Chessnut";

/// The models this decoder drives, as the word after [`NAME_PREFIX`] in
/// the advertised name starts: the maker's API names "Air, Air+, Go, Pro"
/// (chessnutech/Chessnut_eBoards, README, "Device Name"). The Chessnut Move
/// and Evo take other commands (PicoChess, `eboard/chessnut/command.py`:
/// `43 20` and colour bytes for the Move's lights) and are not driven.
pub const MODELS: &[&str] = &["Air", "Go", "Pro"];

/// Turns real-time reporting on; the board answers with its position.
pub const ENABLE_REALTIME: [u8; 3] = [0x21, 0x01, 0x00];
/// Asks for the battery level.
pub const BATTERY_REQUEST: [u8; 3] = [0x29, 0x01, 0x00];

/// Frame ids as the board sends them.
const POSITION: u8 = 0x01;
const POSITION_LEN: u8 = 0x24;
const BATTERY: u8 = 0x2A;
const BATTERY_LEN: u8 = 0x02;
/// The echo of the real-time command some boards send back.
const REALTIME_ACK: u8 = 0x21;
const REALTIME_ACK_LEN: u8 = 0x01;

/// The LED command's first two bytes.
const LEDS: [u8; 2] = [0x0A, 0x08];

/// A whole position notification, header included.
pub const FRAME_LEN: usize = 2 + POSITION_LEN as usize;

/// What a board sends in the position notification's 4 last bytes (seen
/// on a real Chessnut Air by others; the API does not say what they mean,
/// and the decoder ignores them).
pub const POSITION_TAIL: [u8; 4] = [0x44, 0x01, 0x00, 0x00];

/// The piece of each nibble code (0: empty; 13-15: no piece).
const CODES: [Option<(Color, Role)>; 13] = [
    None,
    Some((Color::Black, Role::Queen)),
    Some((Color::Black, Role::King)),
    Some((Color::Black, Role::Bishop)),
    Some((Color::Black, Role::Pawn)),
    Some((Color::Black, Role::Knight)),
    Some((Color::White, Role::Rook)),
    Some((Color::White, Role::Pawn)),
    Some((Color::Black, Role::Rook)),
    Some((Color::White, Role::Bishop)),
    Some((Color::White, Role::Knight)),
    Some((Color::White, Role::Queen)),
    Some((Color::White, Role::King)),
];

/// The piece a nibble stands for: `Some(None)` empty, `None` no piece.
fn piece_of_code(code: u8) -> Option<Option<Piece>> {
    CODES
        .get(usize::from(code))
        .map(|c| c.map(|(color, role)| Piece { color, role }))
}

fn code_of_piece(piece: Option<Piece>) -> u8 {
    let Some(p) = piece else { return 0 };
    CODES
        .iter()
        .position(|c| *c == Some((p.color, p.role)))
        .unwrap_or(0) as u8
}

/// The game square of the i-th nibble (h8 first, a1 last).
fn square_of_nibble(i: usize) -> Square {
    Square::new(63 - i as u32)
}

/// The 32 position bytes as pieces; `None` if a nibble is no piece.
pub fn parse_position(bytes: &[u8; 32]) -> Option<Pieces> {
    let mut pieces = [None; 64];
    for i in 0..64 {
        let byte = bytes[i / 2];
        let code = if i % 2 == 0 { byte & 0x0F } else { byte >> 4 };
        pieces[usize::from(square_of_nibble(i))] = piece_of_code(code)?;
    }
    Some(pieces)
}

/// The notification a board sends for `pieces` (for emulators and tests).
pub fn position_notification(pieces: &Pieces) -> Vec<u8> {
    let mut out = vec![POSITION, POSITION_LEN];
    for pair in 0..32 {
        let lo = code_of_piece(pieces[usize::from(square_of_nibble(2 * pair))]);
        let hi = code_of_piece(pieces[usize::from(square_of_nibble(2 * pair + 1))]);
        out.push(lo | hi << 4);
    }
    out.extend(POSITION_TAIL);
    out
}

/// The LED command lighting exactly `lit`.
pub fn lights_command(lit: Bitboard) -> [u8; 10] {
    let mut out = [0; 10];
    out[..2].copy_from_slice(&LEDS);
    let bits = lit.0;
    for (i, rank) in (0..8).rev().enumerate() {
        // A bitboard's rank byte has the a-file in bit 0; the board wants
        // it in bit 7.
        out[2 + i] = ((bits >> (8 * rank)) as u8).reverse_bits();
    }
    out
}

/// The squares an LED command lights (what an emulator shows).
pub fn lit_by_command(command: &[u8]) -> Option<Bitboard> {
    let rest = command.strip_prefix(&LEDS)?;
    let bytes: &[u8; 8] = rest.try_into().ok()?;
    let mut bits = 0u64;
    for (i, b) in bytes.iter().enumerate() {
        bits |= u64::from(b.reverse_bits()) << (8 * (7 - i));
    }
    Some(Bitboard(bits))
}

/// A streaming decoder of what a Chessnut board notifies (both
/// characteristics, fed as they come).
#[derive(Clone, Debug, Default)]
pub struct ChessnutDecoder {
    buf: Vec<u8>,
    /// Skipping bytes that start no known frame (counted once a run).
    skipping: bool,
    /// The board was named once on this connection.
    named: bool,
    /// The last position passed on: changes are reported against it.
    last: Option<Box<Pieces>>,
    stats: DecoderStats,
}

impl ChessnutDecoder {
    pub fn new() -> ChessnutDecoder {
        ChessnutDecoder::default()
    }

    fn skip_byte(&mut self) {
        if !self.skipping {
            self.skipping = true;
            self.stats.garbage += 1;
        }
        self.buf.remove(0);
    }

    /// Feeds bytes; complete, valid frames become messages.
    pub fn push(&mut self, bytes: &[u8], out: &mut Vec<Message>) {
        self.buf.extend_from_slice(bytes);
        while self.buf.len() >= 2 {
            let (id, len) = (self.buf[0], self.buf[1]);
            let known = matches!(
                (id, len),
                (POSITION, POSITION_LEN)
                    | (BATTERY, BATTERY_LEN)
                    | (REALTIME_ACK, REALTIME_ACK_LEN)
            );
            if !known {
                self.skip_byte();
                continue;
            }
            let total = 2 + usize::from(len);
            if self.buf.len() < total {
                return;
            }
            self.skipping = false;
            self.stats.frames += 1;
            let frame: Vec<u8> = self.buf.drain(..total).collect();
            let position = match id {
                POSITION => {
                    let bytes: &[u8; 32] = frame[2..34].try_into().expect("32 bytes");
                    match parse_position(bytes) {
                        Some(p) => Some(p),
                        None => {
                            // A piece code no piece has: the frame is damaged.
                            self.stats.bad_checksum += 1;
                            continue;
                        }
                    }
                }
                _ => None,
            };
            if !self.named {
                self.named = true;
                out.push(Message::Ident(NAME_PREFIX.into()));
            }
            self.stats.messages += 1;
            match position {
                Some(p) => self.report(p, out),
                None => out.push(Message::Ack),
            }
        }
    }

    pub fn stats(&self) -> DecoderStats {
        self.stats
    }

    /// A position: whole when it is the first or changed nothing, else the
    /// squares it changed.
    fn report(&mut self, pieces: Pieces, out: &mut Vec<Message>) {
        match self.last.as_deref() {
            Some(last) if *last != pieces => {
                let changed = |i: &usize| last[*i] != pieces[*i];
                let emptied = (0..64).filter(|i| changed(i) && pieces[*i].is_none());
                let filled = (0..64).filter(|i| changed(i) && pieces[*i].is_some());
                for i in emptied.chain(filled) {
                    out.push(Message::Square {
                        square: Square::new(i as u32),
                        piece: pieces[i],
                    });
                }
            }
            _ => out.push(Message::Position(Box::new(pieces))),
        }
        self.last = Some(Box::new(pieces));
    }
}

impl Protocol for ChessnutDecoder {
    type Message = Message;

    fn fresh(&self) -> ChessnutDecoder {
        ChessnutDecoder::new()
    }

    fn name(&self) -> &'static str {
        "chessnut"
    }

    fn default_baud(&self) -> u32 {
        // Bluetooth LE: no serial line, no baud rate.
        0
    }

    fn has_heartbeat(&self) -> bool {
        // It only talks on change; the BLE stack reports a lost link.
        false
    }

    fn decode(&mut self, bytes: &[u8], log: &mut dyn FnMut(&[u8], bool), out: &mut Vec<Message>) {
        log(bytes, true);
        self.push(bytes, out);
    }

    fn idle(&mut self) {
        // A notification cut short (a packet size too small) never gets
        // its end: the next one starts afresh.
        if !self.buf.is_empty() {
            self.buf.clear();
            self.stats.too_long += 1;
        }
        self.skipping = false;
    }

    fn stats(&self) -> DecoderStats {
        self.stats
    }

    fn encode(&self, command: HostCommand) -> Vec<u8> {
        match command {
            // No reference shows the board sending an unchanged position
            // again on any request (only when real-time reporting is
            // turned on, at the greeting): it is asked nothing. A lost
            // notification is healed by the next (each carries the whole
            // board) or by a reconnection.
            HostCommand::Snapshot => Vec::new(),
            // The API has no version request.
            HostCommand::Ident => Vec::new(),
            HostCommand::Lights(lit) => lights_command(lit).to_vec(),
        }
    }

    /// A request for the board is answered with the last position the
    /// board notified, whole: every notification carries the whole board,
    /// so that is all a request could bring (a lost notification is
    /// healed by the next, not by asking).
    fn answer(&mut self, command: HostCommand) -> Vec<Message> {
        match (command, &self.last) {
            (HostCommand::Snapshot, Some(last)) => vec![Message::Position(last.clone())],
            _ => Vec::new(),
        }
    }

    fn greeting(&self) -> Vec<u8> {
        ENABLE_REALTIME.to_vec()
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

    /// The start position as the API's nibble table and square order give
    /// it, written out by hand: rank 8 from h8 (low nibble) to a8, then
    /// rank 7 ... rank 1.
    const START: [u8; 32] = [
        // h8 r, g8 n | f8 b, e8 k | d8 q, c8 b | b8 n, a8 r
        0x58, 0x23, 0x31, 0x85, // rank 8
        0x44, 0x44, 0x44, 0x44, // rank 7: black pawns
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, // ranks 6-3
        0x77, 0x77, 0x77, 0x77, // rank 2: white pawns
        // h1 R, g1 N | f1 B, e1 K | d1 Q, c1 B | b1 N, a1 R
        0xA6, 0xC9, 0x9B, 0x6A,
    ];

    #[test]
    fn the_start_position_decodes_from_the_documented_layout() {
        let mut wire = vec![0x01, 0x24];
        wire.extend(START);
        wire.extend(POSITION_TAIL);
        let mut d = ChessnutDecoder::new();
        let got = d.decode_all(&wire);
        assert_eq!(got[0], Message::Ident("Chessnut".into()));
        assert_eq!(got[1], Message::Position(Box::new(start_pieces())));
        assert_eq!(got.len(), 2);
        assert_eq!(position_notification(&start_pieces()), wire);
        assert_eq!(wire.len(), FRAME_LEN);
    }

    #[test]
    fn changes_come_as_squares_emptied_first_and_a_resent_board_whole() {
        let mut board = shakmaty::Board::default();
        let mut wire = position_notification(&start_pieces());
        // 1. Nf3 in one scan: g1 emptied, f3 filled.
        let knight = board.remove_piece_at(Square::G1).unwrap();
        board.set_piece_at(Square::F3, knight);
        let after = crate::eboard::pieces::pieces_of_board(board);
        wire.extend(position_notification(&after));
        wire.extend(position_notification(&after));
        let got = ChessnutDecoder::new().decode_all(&wire);
        assert_eq!(
            got[2..],
            [
                Message::Square {
                    square: Square::G1,
                    piece: None
                },
                Message::Square {
                    square: Square::F3,
                    piece: Some(knight)
                },
                Message::Position(Box::new(after)),
            ]
        );
    }

    #[test]
    fn any_chunking_gives_the_same_messages_and_a_battery_answer_is_an_ack() {
        let mut wire = position_notification(&start_pieces());
        wire.extend([0x2A, 0x02, 0x55, 0x00]);
        wire.extend(position_notification(&start_pieces()));
        let whole = ChessnutDecoder::new().decode_all(&wire);
        assert_eq!(whole.len(), 4);
        assert_eq!(whole[2], Message::Ack);
        for size in 1..wire.len() {
            let mut d = ChessnutDecoder::new();
            let got: Vec<Message> = wire.chunks(size).flat_map(|c| d.decode_all(c)).collect();
            assert_eq!(got, whole, "chunks of {size}");
            assert_eq!(d.stats().dropped(), 0);
        }
    }

    #[test]
    fn damage_is_counted_never_passed_on() {
        let mut bad = position_notification(&start_pieces());
        bad[10] = 0xEE; // nibbles 14: no piece
        let mut wire = vec![0x99, 0x33];
        wire.extend(&bad);
        wire.extend(position_notification(&start_pieces()));
        let mut d = ChessnutDecoder::new();
        let got = d.decode_all(&wire);
        assert_eq!(got.len(), 2, "{got:?}");
        assert_eq!(got[1].pieces(), Some(&start_pieces()));
        assert_eq!(d.stats().garbage, 1);
        assert_eq!(d.stats().bad_checksum, 1);
        // A notification cut short, then a quiet line: dropped whole.
        let mut d = ChessnutDecoder::new();
        let cut = position_notification(&start_pieces());
        assert!(d.decode_all(&cut[..20]).is_empty());
        d.idle();
        assert_eq!(d.decode_all(&cut).len(), 2);
        assert_eq!(d.stats().too_long, 1);
    }

    #[test]
    fn leds_follow_the_documented_bit_order() {
        // e2 and e4: rank 2 is the 7th byte, rank 4 the 5th; the e-file is
        // bit 3 counted from h in bit 0.
        let lit = Bitboard::from(Square::E2) | Bitboard::from(Square::E4);
        assert_eq!(
            lights_command(lit),
            [0x0A, 0x08, 0, 0, 0, 0, 0x08, 0, 0x08, 0]
        );
        // a8 is the top bit of the first byte, h1 the low bit of the last.
        let corners = Bitboard::from(Square::A8) | Bitboard::from(Square::H1);
        assert_eq!(
            lights_command(corners),
            [0x0A, 0x08, 0x80, 0, 0, 0, 0, 0, 0, 0x01]
        );
        assert_eq!(
            lights_command(Bitboard::EMPTY),
            [0x0A, 0x08, 0, 0, 0, 0, 0, 0, 0, 0]
        );
        for bb in [
            lit,
            corners,
            Bitboard::FULL,
            Bitboard(0x0123_4567_89AB_CDEF),
        ] {
            assert_eq!(lit_by_command(&lights_command(bb)), Some(bb));
        }
        let d = ChessnutDecoder::new();
        assert_eq!(d.encode(HostCommand::Lights(lit)), lights_command(lit));
        assert_eq!(d.greeting(), [0x21, 0x01, 0x00]);
        assert!(d.encode(HostCommand::Snapshot).is_empty());
        assert!(d.encode(HostCommand::Ident).is_empty());
    }

    #[test]
    fn the_kind_chessnut_decodes_through_any_decoder() {
        let kind: super::super::Kind = "chessnut".parse().unwrap();
        let mut any = super::super::AnyDecoder::new(kind);
        assert_eq!(any.name(), "chessnut");
        let got = any.decode_all(&position_notification(&start_pieces()));
        assert_eq!(got[1].pieces(), Some(&start_pieces()));
        let lit = Bitboard::from(Square::D7);
        assert_eq!(any.encode(HostCommand::Lights(lit)), lights_command(lit));
    }

    #[test]
    fn every_code_round_trips() {
        for code in 0..13 {
            assert_eq!(code_of_piece(piece_of_code(code).unwrap()), code);
        }
        assert_eq!(piece_of_code(13), None);
        assert_eq!(square_of_nibble(0), Square::H8);
        assert_eq!(square_of_nibble(7), Square::A8);
        assert_eq!(square_of_nibble(8), Square::H7);
        assert_eq!(square_of_nibble(63), Square::A1);
    }
}

#[cfg(test)]
#[path = "chessnut_lights_tests.rs"]
mod published_lights;

#[cfg(test)]
#[path = "chessnut_captured_tests.rs"]
mod captured;
