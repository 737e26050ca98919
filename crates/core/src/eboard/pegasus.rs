//! DGT Pegasus over Bluetooth LE: DGT's serial framing (message id with
//! the top bit set, a 14-bit length in two 7-bit halves, then the data;
//! [`crate::dgt::protocol`]) carried over the Nordic UART service, but a
//! board that **cannot tell pieces apart**: it is an occupancy board,
//! followed by the peg-board's tracker, with DGT's LED command (0x60).
//!
//! What the board says, as three independent clients read it:
//!
//! * board dump `0x86 0x00 0x43` and 64 bytes, a8 first ... h1 last, each
//!   `0x00` empty or `0x01` occupied (DGTCentaurMods,
//!   `emulators/pegasus.py`, `board_dump()`: "Real Pegasus board uses
//!   simple occupancy encoding"; BearChess,
//!   `EChessBoards/DGT/PegasusChessBoard/EChessBoard.cs`: its start
//!   position `_basePosition` is 16 ones, 32 zeros, 16 ones, and the board
//!   is made with `PieceRecognition = false`);
//! * field update `0x8E 0x00 0x05 field state`: `state` 0 = lifted, 1 =
//!   set down (`pegasus.py`, `handle_manager_event()`: `[field_hex,
//!   piece_event]`, "0=LIFT, 1=PLACE"); a DGT board would send a piece
//!   code there, and 0x01 would read as a white pawn on every square;
//! * version `0x93 0x00 0x05 major minor` (`pegasus.py`, `VERSION_RESP`).
//!
//! What the host sends: `0x40` reset, then the developer key `63 07 BE F5
//! AE DD A9 5F 00` ([`DEVELOPER_KEY`]; mono424/dgtdriver,
//! `lib/protocol/commands/MagicPegasusHandshakeCommand.dart`: code 0x63,
//! data 190 245 174 221 169 95 0, framed with its length by
//! `DataCommand`; BearChess's `_initialize`, sent first), without which a
//! board may say nothing; `0x44` field updates on (BearChess's
//! `_startReading`, `pegasus.py`'s `UNKNOWN_44`), `0x4D` version, `0x42`
//! board dump (`pegasus.py`'s `BOARD_DUMP`, BearChess's `_dumpBoard`).
//!
//! DGT publishes no LED command for the Pegasus (its board protocol
//! header, `dgtbrd13.h`, has only the Revelation II's `0x60 0x04 pattern
//! start end 0x00`). The Pegasus form is the one well-known drivers send
//! and DGT's own app was seen sending (`pegasus.py`: "Format: 96, [len-2],
//! 5, speed, mode, intensity, fields..., 0", and the app's opening bytes
//! `40 60 02 00 00`: reset, then all lights off):
//!
//! * on: `0x60`, the count of bytes that follow, `0x05`, speed, repeat,
//!   brightness, the DGT field index of each square to light (a8 = 0 ...
//!   h1 = 63), `0x00`;
//! * all off: `0x60 0x02 0x00 0x00`.
//!
//! Speed, repeat and brightness are those mono424/dgtdriver's
//! `LEDPattern()` and BearChess's Pegasus board send by default: speed 2,
//! repeat 0 (for ever), brightness 2 (dgtdriver's "middle": 0 is its
//! brightest, 3 its lowest).

use shakmaty::Bitboard;

use super::Message;
use super::pieces::index_of_square;
use crate::board::{DecoderStats, HostCommand, Protocol, pieces_mask};
use crate::dgt::Message as DgtMessage;
use crate::dgt::protocol::{Command, Decoder};

/// The Nordic UART service.
pub const UART_SERVICE: u128 = 0x6e400001_b5a3_f393_e0a9_e50e24dcca9e;
/// Host to board (write).
pub const UART_WRITE: u128 = 0x6e400002_b5a3_f393_e0a9_e50e24dcca9e;
/// Board to host (notify).
pub const UART_NOTIFY: u128 = 0x6e400003_b5a3_f393_e0a9_e50e24dcca9e;

/// Advertised names start with this ("DGT_PEGASUS_1234").
pub const NAME_PREFIX: &str = "DGT_PEGASUS";

/// The packet size to ask for (a board dump is 67 bytes).
pub const MTU: u16 = 247;

/// The developer key, sent right after the reset: `0x63`, the count of
/// bytes that follow (7), the key, `0x00` (dgtdriver's
/// `MagicPegasusHandshakeCommand`, BearChess's `_initialize`).
pub const DEVELOPER_KEY: [u8; 9] = [0x63, 0x07, 0xBE, 0xF5, 0xAE, 0xDD, 0xA9, 0x5F, 0x00];

/// The rate of a Bluetooth-to-serial bridge that passes the board's Nordic
/// UART bytes on (`rochade track --format pegasus /dev/ttyX`); Bluetooth
/// LE itself has none. `--baud` sets another.
pub const BRIDGE_BAUD: u32 = 115_200;

/// The tracker's settle time for a Pegasus (ms): its field updates are
/// whole lifts and set-downs, not a scan's bounce, and a hand quick at
/// blitz pace leaves a square empty for as little as 30 ms (a taken
/// piece): at the peg-board's 80 ms such a capture went unseen.
pub const SETTLE_MS: u64 = 20;

/// `DGT_SET_LEDS`.
const SET_LEDS: u8 = 0x60;
/// The sub-command that lights a list of fields.
const LEDS_ON: u8 = 0x05;
/// Speed, repeat (0: for ever) and brightness (2: dgtdriver's "middle")
/// of the lit fields, as dgtdriver and BearChess send them.
const LED_SPEED: u8 = 0x02;
const LED_REPEAT: u8 = 0x00;
const LED_BRIGHTNESS: u8 = 0x02;

/// Every light off.
pub const LIGHTS_OFF: [u8; 4] = [SET_LEDS, 0x02, 0x00, 0x00];

/// The LED command lighting exactly `lit` (all others dark).
pub fn lights_command(lit: Bitboard) -> Vec<u8> {
    if lit.is_empty() {
        return LIGHTS_OFF.to_vec();
    }
    // Whether a list switches the others off is published nowhere: the
    // list follows an all-off in the same write, so it does either way.
    let mut out = LIGHTS_OFF.to_vec();
    let fields: Vec<u8> = lit.into_iter().map(index_of_square).collect();
    out.push(SET_LEDS);
    out.push(fields.len() as u8 + 5);
    out.extend([LEDS_ON, LED_SPEED, LED_REPEAT, LED_BRIGHTNESS]);
    out.extend(fields);
    out.push(0x00);
    out
}

/// The squares an LED write lights, read as a board would (what an
/// emulator shows); `None` for bytes that are no LED command.
pub fn lit_by_command(mut bytes: &[u8], mut lit: Bitboard) -> Option<Bitboard> {
    while !bytes.is_empty() {
        let (&id, rest) = bytes.split_first()?;
        let (&len, rest) = rest.split_first()?;
        if id != SET_LEDS || rest.len() < usize::from(len) {
            return None;
        }
        let (body, next) = rest.split_at(usize::from(len));
        match body {
            [0x00, 0x00] => lit = Bitboard::EMPTY,
            [LEDS_ON, _, _, _, fields @ .., 0x00] => {
                for &f in fields {
                    if f > 63 {
                        return None;
                    }
                    lit |= Bitboard::from(crate::eboard::pieces::square_of_index(f));
                }
            }
            _ => return None,
        }
        bytes = next;
    }
    Some(lit)
}

/// The Pegasus's messages: DGT's framing, read as occupancy.
#[derive(Clone, Debug, Default)]
pub struct PegasusDecoder {
    dgt: Decoder,
    /// The squares occupied: the last board dump with every field update
    /// since (`None` until a dump came: an update alone says one square).
    mask: Option<u64>,
}

impl PegasusDecoder {
    pub fn new() -> PegasusDecoder {
        PegasusDecoder::default()
    }
}

/// Bit i for square i (a1 = 0): what the tracker reads.
fn square_bit(square: shakmaty::Square) -> u64 {
    1 << usize::from(square)
}

impl Protocol for PegasusDecoder {
    type Message = Message;

    fn fresh(&self) -> PegasusDecoder {
        PegasusDecoder::new()
    }

    fn name(&self) -> &'static str {
        "pegasus"
    }

    fn default_baud(&self) -> u32 {
        BRIDGE_BAUD
    }

    fn has_heartbeat(&self) -> bool {
        // It talks on change; the BLE stack reports a lost link.
        false
    }

    fn decode(&mut self, bytes: &[u8], log: &mut dyn FnMut(&[u8], bool), out: &mut Vec<Message>) {
        log(bytes, true);
        let PegasusDecoder { dgt, mask } = self;
        dgt.push(bytes, |m| match m {
            DgtMessage::Version { major, minor } => {
                out.push(Message::Ident(format!("DGT Pegasus {major}.{minor}")))
            }
            // 0x00 empty, 0x01 occupied: the DGT framing reads 0x01 as a
            // piece code, and only "not empty" is kept.
            DgtMessage::BoardDump(pieces) => {
                let whole = pieces_mask(&pieces);
                *mask = Some(whole);
                out.push(Message::Occupancy(whole));
            }
            // 0 lifted, 1 set down (read as empty / a piece code).
            DgtMessage::FieldUpdate { square, piece } => {
                if let Some(known) = mask {
                    match piece {
                        Some(_) => *known |= square_bit(square),
                        None => *known &= !square_bit(square),
                    }
                    out.push(Message::Occupancy(*known));
                }
            }
            other => out.push(Message::from(other)),
        });
    }

    fn stats(&self) -> DecoderStats {
        Protocol::stats(&self.dgt)
    }

    fn encode(&self, command: HostCommand) -> Vec<u8> {
        match command {
            HostCommand::Snapshot => Command::SendBoard.as_slice().to_vec(),
            HostCommand::Ident => Command::Version.as_slice().to_vec(),
            HostCommand::Lights(lit) => lights_command(lit),
        }
    }

    fn greeting(&self) -> Vec<u8> {
        // Reset and the developer key (as DGT's app opens, and without
        // which the board may stay silent), lights off, field updates,
        // the version, then the whole board.
        let mut out = vec![Command::Reset.byte()];
        out.extend(DEVELOPER_KEY);
        out.extend(LIGHTS_OFF);
        out.extend([
            Command::SendUpdateBoard.byte(),
            Command::Version.byte(),
            Command::SendBoard.byte(),
        ]);
        out
    }

    fn logged_to_wire(&self, logged: &[u8]) -> Vec<u8> {
        logged.to_vec()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::Square;

    /// The start position as a Pegasus dumps it: a8 ... h1, one byte a
    /// square, 0x01 occupied (BearChess's `_basePosition`: 16 ones, 32
    /// zeros, 16 ones), framed `86 00 43` (`pegasus.py`'s `send_packet`:
    /// type, length high, length low, payload, no terminator).
    fn start_dump() -> Vec<u8> {
        let mut wire = vec![0x86, 0x00, 0x43];
        wire.extend([0x01; 16]);
        wire.extend([0x00; 32]);
        wire.extend([0x01; 16]);
        wire
    }

    const START: u64 = 0xFFFF_0000_0000_FFFF;

    #[test]
    fn an_occupancy_dump_and_lift_place_updates_are_occupancy() {
        let mut d = PegasusDecoder::new();
        assert_eq!(d.name(), "pegasus");
        let mut wire = vec![0x93, 0x00, 0x05, 0x01, 0x02];
        wire.extend(start_dump());
        // e2 (field 52) lifted, e4 (field 36) set down: [field, 0 / 1]
        // (`pegasus.py`'s `handle_manager_event`: 0 = LIFT, 1 = PLACE).
        wire.extend([0x8E, 0x00, 0x05, 52, 0x00]);
        wire.extend([0x8E, 0x00, 0x05, 36, 0x01]);
        let e2 = 1u64 << usize::from(Square::E2);
        let e4 = 1u64 << usize::from(Square::E4);
        let want = vec![
            Message::Ident("DGT Pegasus 1.2".into()),
            Message::Occupancy(START),
            Message::Occupancy(START & !e2),
            Message::Occupancy(START & !e2 | e4),
        ];
        assert_eq!(d.decode_all(&wire), want);
        assert_eq!(d.decode_all(&[]), []);
        // Cut into 20-byte notifications (the Pegasus's packet size), or
        // byte by byte: the same.
        for size in [1, 3, 20] {
            let mut d = PegasusDecoder::new();
            let got: Vec<Message> = wire.chunks(size).flat_map(|c| d.decode_all(c)).collect();
            assert_eq!(got, want, "cut in {size}");
        }
        // The start position is a start position, not 32 white pawns.
        assert_eq!(
            crate::board::BoardReport::pieces(&want[1]),
            None,
            "no pieces are claimed"
        );
        assert_eq!(crate::board::BoardReport::occupancy(&want[1]), Some(START));
    }

    #[test]
    fn an_update_before_any_dump_says_nothing_and_a_dump_starts_afresh() {
        let mut d = PegasusDecoder::new();
        assert_eq!(d.decode_all(&[0x8E, 0x00, 0x05, 52, 0x00]), []);
        assert_eq!(d.decode_all(&start_dump()), [Message::Occupancy(START)]);
        let mut fresh = d.fresh();
        assert_eq!(fresh.decode_all(&[0x8E, 0x00, 0x05, 52, 0x00]), []);
    }

    #[test]
    fn the_greeting_sends_the_developer_key_after_the_reset() {
        // 40, then dgtdriver's and BearChess's key frame byte for byte.
        let d = PegasusDecoder::new();
        assert_eq!(
            d.greeting(),
            [
                0x40, 0x63, 0x07, 0xBE, 0xF5, 0xAE, 0xDD, 0xA9, 0x5F, 0x00, 0x60, 0x02, 0x00, 0x00,
                0x44, 0x4D, 0x42
            ]
        );
        // dgtdriver's data bytes, in decimal as it writes them.
        assert_eq!(DEVELOPER_KEY[2..], [190, 245, 174, 221, 169, 95, 0]);
        assert_eq!(usize::from(DEVELOPER_KEY[1]), DEVELOPER_KEY.len() - 2);
        let kind: super::super::Kind = "Pegasus".parse().unwrap();
        assert_eq!(super::super::AnyDecoder::new(kind).greeting(), d.greeting());
    }

    #[test]
    fn the_led_command_has_dgts_bytes() {
        // e2 is DGT field 52, e4 field 36; the list comes in square order.
        let lit = Bitboard::from(Square::E2) | Bitboard::from(Square::E4);
        assert_eq!(
            lights_command(lit),
            [
                0x60, 0x02, 0x00, 0x00, // all off
                0x60, 0x07, 0x05, 0x02, 0x00, 0x02, 52, 36, 0x00
            ]
        );
        assert_eq!(lights_command(Bitboard::EMPTY), [0x60, 0x02, 0x00, 0x00]);
        for bb in [
            lit,
            Bitboard::EMPTY,
            Bitboard::from(Square::A8),
            Bitboard(0xF0F0),
        ] {
            assert_eq!(
                lit_by_command(&lights_command(bb), Bitboard::FULL),
                Some(bb)
            );
        }
        assert_eq!(lit_by_command(&[0x42], Bitboard::EMPTY), None);
        let d = PegasusDecoder::new();
        assert_eq!(d.encode(HostCommand::Lights(lit)), lights_command(lit));
        assert_eq!(d.encode(HostCommand::Snapshot), [0x42]);
        assert_eq!(d.encode(HostCommand::Ident), [0x4D]);
    }
}

#[cfg(test)]
#[path = "pegasus_lights_tests.rs"]
mod published_lights;
