//! DGT Pegasus over Bluetooth LE: the DGT board's serial protocol
//! ([`crate::dgt::protocol`]: one-byte commands, field updates, board
//! dumps) carried over the Nordic UART service, plus the LED command of
//! DGT's boards with lights (0x60, `DGT_SET_LEDS`).
//!
//! DGT publishes no LED command for the Pegasus (its board protocol
//! header, `dgtbrd13.h`, has only the Revelation II's `0x60 0x04 pattern
//! start end 0x00`). The Pegasus form is the one well-known drivers send
//! and DGT's own app was seen sending (the DGTCentaurMods project's
//! Pegasus emulator, `pegasus.py`: "Format: 96, [len-2], 5, speed, mode,
//! intensity, fields..., 0", and the app's opening bytes `40 60 02 00 00`:
//! reset, then all lights off):
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
use crate::board::{DecoderStats, HostCommand, Protocol};
use crate::dgt::protocol::{Command, Decoder, index_of_square};

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
                    lit |= Bitboard::from(crate::dgt::protocol::square_of_index(f));
                }
            }
            _ => return None,
        }
        bytes = next;
    }
    Some(lit)
}

/// The DGT decoder, with the Pegasus's commands and name.
#[derive(Clone, Debug, Default)]
pub struct PegasusDecoder {
    dgt: Decoder,
}

impl PegasusDecoder {
    pub fn new() -> PegasusDecoder {
        PegasusDecoder::default()
    }
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
        // Bluetooth LE: no serial line, no baud rate.
        0
    }

    fn has_heartbeat(&self) -> bool {
        // It talks on change; the BLE stack reports a lost link.
        false
    }

    fn decode(&mut self, bytes: &[u8], log: &mut dyn FnMut(&[u8], bool), out: &mut Vec<Message>) {
        log(bytes, true);
        self.dgt.push(bytes, |m| {
            out.push(match m {
                crate::dgt::Message::Version { major, minor } => {
                    Message::Ident(format!("DGT Pegasus {major}.{minor}"))
                }
                other => Message::from(other),
            })
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
        // Reset, lights off (as DGT's app opens), field updates, the
        // version, then the whole board.
        let mut out = vec![Command::Reset.byte()];
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
    use crate::board::BoardReport;
    use crate::dgt::Message as Dgt;
    use crate::dgt::protocol::{encode, start_pieces};
    use shakmaty::{Color, Piece, Role, Square};

    #[test]
    fn dgt_messages_come_out_as_positions_squares_and_a_pegasus_ident() {
        let mut d = PegasusDecoder::new();
        assert_eq!(d.name(), "pegasus");
        let mut wire = encode(&Dgt::Version { major: 1, minor: 2 });
        wire.extend(encode(&Dgt::BoardDump(start_pieces())));
        wire.extend(encode(&Dgt::FieldUpdate {
            square: Square::E2,
            piece: None,
        }));
        wire.extend(encode(&Dgt::FieldUpdate {
            square: Square::E4,
            piece: Some(Piece {
                color: Color::White,
                role: Role::Pawn,
            }),
        }));
        let got = d.decode_all(&wire);
        assert_eq!(got[0], Message::Ident("DGT Pegasus 1.2".into()));
        assert_eq!(got[1].pieces(), Some(&start_pieces()));
        assert_eq!(
            got[2],
            Message::Square {
                square: Square::E2,
                piece: None
            }
        );
        assert_eq!(got.len(), 4);
    }

    #[test]
    fn the_kind_pegasus_decodes_through_any_decoder() {
        let kind: super::super::Kind = "Pegasus".parse().unwrap();
        let mut any = super::super::AnyDecoder::new(kind);
        assert_eq!(any.name(), "pegasus");
        let got = any.decode_all(&encode(&Dgt::BoardDump(start_pieces())));
        assert_eq!(got[0].pieces(), Some(&start_pieces()));
        assert_eq!(any.greeting(), PegasusDecoder::new().greeting());
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
        assert_eq!(
            d.greeting(),
            [0x40, 0x60, 0x02, 0x00, 0x00, 0x44, 0x4D, 0x42]
        );
    }
}

#[cfg(test)]
#[path = "pegasus_lights_tests.rs"]
mod published_lights;
