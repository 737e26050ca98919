//! A DGT Pegasus on the emulator's side of the wire, pure, made to match
//! what three independent clients read and send (see [`super::pegasus`]):
//!
//! * it knows only which squares are occupied: its board dump is `86 00
//!   43` and one byte a square (a8 ... h1), 0x00 empty, 0x01 occupied, and
//!   its field update `8E 00 05 field state`, 0 lifted, 1 set down
//!   (DGTCentaurMods, `emulators/pegasus.py`: `board_dump()`,
//!   `handle_manager_event()`);
//! * it says nothing, and lights nothing, until the host has sent the
//!   developer key `63 07 BE F5 AE DD A9 5F 00` (mono424/dgtdriver's
//!   `MagicPegasusHandshakeCommand`, BearChess's `_initialize`; a board
//!   that was not sent it may stay silent);
//! * its notifications go out cut into packets of at most 20 bytes (the
//!   Bluetooth LE payload of the default packet size): a board dump is
//!   four of them;
//! * field updates flow after `0x44`; `0x42` asks for the dump, `0x4D`
//!   for the version (answered `1.0`, as `pegasus.py` answers), `0x40`
//!   resets (no answer; field updates stop until `0x44` again); `0x60`
//!   sets the lights ([`super::pegasus::lit_by_command`]).

use shakmaty::{Bitboard, Square};

use super::pegasus::{DEVELOPER_KEY, lit_by_command};
use crate::eboard::pieces::{index_of_square, square_of_index};

/// The most bytes one notification carries.
pub const PACKET: usize = 20;

/// The emulated board.
#[derive(Clone, Debug)]
pub struct PegasusSim {
    /// Which squares are occupied (a1 = bit 0).
    occupied: u64,
    /// The developer key came.
    authorized: bool,
    /// Field updates are sent (after `0x44`).
    updates: bool,
    lit: Bitboard,
    /// Host bytes not yet a whole command.
    input: Vec<u8>,
    /// Every command byte received after the key, in order (tests).
    pub commands: Vec<u8>,
}

impl Default for PegasusSim {
    fn default() -> PegasusSim {
        PegasusSim::new()
    }
}

/// One notification cut into the packets that carry it.
fn packets(message: Vec<u8>) -> Vec<Vec<u8>> {
    message.chunks(PACKET).map(<[u8]>::to_vec).collect()
}

impl PegasusSim {
    /// A board with the starting position set up, not yet greeted.
    pub fn new() -> PegasusSim {
        PegasusSim {
            occupied: 0xFFFF_0000_0000_FFFF,
            authorized: false,
            updates: false,
            lit: Bitboard::EMPTY,
            input: Vec::new(),
            commands: Vec::new(),
        }
    }

    /// Which squares are occupied (a1 = bit 0).
    pub fn occupancy(&self) -> u64 {
        self.occupied
    }

    /// The squares lit now.
    pub fn lit(&self) -> Bitboard {
        self.lit
    }

    /// Whether the developer key came.
    pub fn authorized(&self) -> bool {
        self.authorized
    }

    /// The board dump, as the board sends it (one message).
    pub fn dump(&self) -> Vec<u8> {
        let mut out = vec![0x86, 0x00, 0x43];
        out.extend((0..64u8).map(|i| {
            let square = square_of_index(i);
            u8::from(self.occupied & 1 << usize::from(square) != 0)
        }));
        out
    }

    /// A piece set down on `square` (`true`) or lifted from it: the
    /// packets of its field update, when the board sends them (the
    /// occupancy changes all the same).
    pub fn set(&mut self, square: Square, occupied: bool) -> Vec<Vec<u8>> {
        let bit = 1u64 << usize::from(square);
        let before = self.occupied;
        if occupied {
            self.occupied |= bit;
        } else {
            self.occupied &= !bit;
        }
        if !self.authorized || !self.updates || before == self.occupied {
            return Vec::new();
        }
        packets(vec![
            0x8E,
            0x00,
            0x05,
            index_of_square(square),
            u8::from(occupied),
        ])
    }

    /// The host's bytes (in any chunking): the packets the board answers.
    pub fn receive(&mut self, bytes: &[u8]) -> Vec<Vec<u8>> {
        self.input.extend_from_slice(bytes);
        let mut out = Vec::new();
        while let Some(&id) = self.input.first() {
            // 0x60 and 0x63 carry a length and a body; the rest are one
            // byte.
            let whole = match id {
                0x60 | 0x63 => match self.input.get(1) {
                    Some(&len) if self.input.len() >= 2 + usize::from(len) => 2 + usize::from(len),
                    _ => break,
                },
                _ => 1,
            };
            let command: Vec<u8> = self.input.drain(..whole).collect();
            out.extend(self.command(&command));
        }
        out
    }

    fn command(&mut self, command: &[u8]) -> Vec<Vec<u8>> {
        if command == DEVELOPER_KEY {
            self.authorized = true;
            return Vec::new();
        }
        if !self.authorized {
            return Vec::new();
        }
        self.commands.push(command[0]);
        match command[0] {
            0x40 => self.updates = false,
            0x44 => self.updates = true,
            0x42 => return packets(self.dump()),
            0x4D => return packets(vec![0x93, 0x00, 0x05, 0x01, 0x00]),
            0x60 => {
                if let Some(lit) = lit_by_command(command, self.lit) {
                    self.lit = lit;
                }
            }
            _ => {}
        }
        Vec::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{HostCommand, Protocol};
    use crate::eboard::{Message, PegasusDecoder};

    #[test]
    fn silent_until_the_developer_key_then_occupancy_in_20_byte_packets() {
        let mut sim = PegasusSim::new();
        // Everything but the key: not a byte back, no updates.
        assert!(sim.receive(&[0x40, 0x44, 0x4D, 0x42]).is_empty());
        assert!(sim.set(Square::E2, false).is_empty());
        assert!(sim.set(Square::E2, true).is_empty());
        let decoder = PegasusDecoder::new();
        let answer = sim.receive(&decoder.greeting());
        assert!(sim.authorized());
        // The version (5 bytes) and the dump (67 bytes: 20, 20, 20, 7).
        let sizes: Vec<usize> = answer.iter().map(Vec::len).collect();
        assert_eq!(sizes, [5, 20, 20, 20, 7]);
        let mut d = PegasusDecoder::new();
        let got: Vec<Message> = answer.iter().flat_map(|p| d.decode_all(p)).collect();
        assert_eq!(
            got,
            [
                Message::Ident("DGT Pegasus 1.0".into()),
                Message::Occupancy(0xFFFF_0000_0000_FFFF)
            ]
        );
        // Field updates flow: e2 lifted is `8E 00 05 34 00`.
        assert_eq!(sim.set(Square::E2, false), [vec![0x8E, 0, 5, 52, 0]]);
        assert_eq!(sim.set(Square::E4, true), [vec![0x8E, 0, 5, 36, 1]]);
        // Lights, in any chunking.
        let lit = Bitboard::from(Square::E2) | Square::E4;
        let bytes = d.encode(HostCommand::Lights(lit));
        for b in bytes.chunks(3) {
            assert!(sim.receive(b).is_empty());
        }
        assert_eq!(sim.lit(), lit);
        // A wrong key leaves a new board silent.
        let mut other = PegasusSim::new();
        let mut wrong = DEVELOPER_KEY;
        wrong[4] ^= 1;
        assert!(other.receive(&wrong).is_empty());
        assert!(other.receive(&[0x42]).is_empty());
        assert!(!other.authorized());
    }
}
