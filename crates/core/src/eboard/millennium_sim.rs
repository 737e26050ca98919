//! A Millennium ChessLink board on the emulator's side of the wire, pure:
//! the pieces on it, its E2ROM settings, its scans in virtual time, and its
//! answers to the host's commands, byte-exact with their block parity, as
//! the published protocol describes them (see [`super::millennium`]).
//!
//! Time comes in as milliseconds. The board scans every scan time (E2ROM
//! address 01, units of 2.048 ms) and, by the automatic reports mode
//! (address 02), sends its status on every scan, on change (after a
//! debounce of 1 to 5 scans), at a fixed interval (address 03, units of
//! 4.096 ms), or never. `rochade board-sim --format millennium` puts it on
//! a pseudo-terminal; the tests drive it with a person's hands.

use shakmaty::{Bitboard, Piece, Square};

use super::millennium::{self, Command, E2_AUTO_REPORTS, E2_SCAN_TIME, LEDS, with_check};
use crate::eboard::Pieces;

/// The E2ROM address of the interval of timed reports (units of 4.096 ms).
pub const E2_REPORT_TIME: u8 = 0x03;
/// How long the board is silent after a reset (the document: 3 s).
pub const RESET_MS: u64 = 3000;
/// The scan time the board uses when E2ROM asks for less than the
/// minimum (15) : the default, 20 (40.96 ms).
const DEFAULT_SCAN: u8 = 20;

/// The LEDs as the host last set them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Lights {
    /// The slot time (units of 4.096 ms).
    pub slot: u8,
    /// The flash pattern of each LED (LED 1 first).
    pub leds: [u8; LEDS],
}

impl Lights {
    /// The squares whose four corners are lit.
    pub fn squares(&self) -> Bitboard {
        millennium::lit_squares(&self.leds)
    }
}

/// The emulated board.
#[derive(Clone, Debug)]
pub struct MillenniumSim {
    /// What stands on the board now (a1 = 0).
    pieces: Pieces,
    /// The position the last scan saw the same for `same_scans` scans.
    candidate: Pieces,
    same_scans: u32,
    /// The position last sent automatically (`None`: none yet since the
    /// board started or was reset).
    reported: Option<Pieces>,
    e2rom: [u8; 256],
    lights: Lights,
    /// When the next scan runs, in microseconds.
    next_scan_us: u64,
    /// When the last timed report went (mode 010).
    last_timed_us: u64,
    /// Host bytes not yet a whole command.
    input: Vec<u8>,
    pub version: (u8, u8),
    /// Commands the board carried out, by letter (`S`, `V`, ...).
    pub commands: Vec<u8>,
    /// Commands dropped: a wrong check or data no command has.
    pub rejected: u64,
    /// The board's 7O1 UART read through an 8N1 line (a USB bridge that
    /// passes the bits as they are): a host byte whose bit 7 is not the
    /// odd parity of its seven bits is a parity error and lost, and the
    /// board's own bytes carry their parity bit in bit 7. Off (the
    /// default), the board takes either (bit 7 stripped) and sends 7-bit
    /// bytes, as over a bridge that strips the parity.
    pub parity_line: bool,
    /// Host bytes lost to a parity error (with `parity_line`).
    pub parity_errors: u64,
    /// The status comes h1 first (h1, g1, ..., a1, h2, ..., a8), as the
    /// DGTCentaurMods emulator sends it (`fen_to_eone`) and python-mchess
    /// reads it by default: the document's order (a8 first) turned round.
    pub h1_first: bool,
}

impl Default for MillenniumSim {
    fn default() -> MillenniumSim {
        MillenniumSim::new()
    }
}

impl MillenniumSim {
    /// A board with the start position set up, as it powers up: E2ROM at
    /// its defaults (scan time 20, a status on every scan), LEDs dark.
    pub fn new() -> MillenniumSim {
        let pieces = crate::eboard::pieces::start_pieces();
        let mut e2rom = [0u8; 256];
        e2rom[usize::from(E2_SCAN_TIME)] = DEFAULT_SCAN;
        e2rom[usize::from(E2_REPORT_TIME)] = 0x7A; // about half a second
        e2rom[0x04] = 0x0F;
        MillenniumSim {
            pieces,
            candidate: pieces,
            same_scans: 0,
            reported: None,
            e2rom,
            lights: Lights {
                slot: 0,
                leds: [0; LEDS],
            },
            next_scan_us: 0,
            last_timed_us: 0,
            input: Vec::new(),
            version: (1, 3),
            commands: Vec::new(),
            rejected: 0,
            parity_line: false,
            parity_errors: 0,
            h1_first: false,
        }
    }

    /// A board as its 7O1 UART sees an 8N1 line ([`Self::parity_line`]).
    pub fn on_parity_line() -> MillenniumSim {
        MillenniumSim {
            parity_line: true,
            ..MillenniumSim::new()
        }
    }

    /// The board's bytes as they reach the host.
    fn out(&self, frame: Vec<u8>) -> Vec<u8> {
        if self.parity_line {
            millennium::with_parity(&frame)
        } else {
            frame
        }
    }

    pub fn pieces(&self) -> &Pieces {
        &self.pieces
    }

    /// A hand sets a piece down on `square` or (`None`) lifts what stood
    /// there. The board sees it at its next scan.
    pub fn set(&mut self, square: Square, piece: Option<Piece>) {
        self.pieces[usize::from(square)] = piece;
    }

    /// The whole board changes at once (a position set up).
    pub fn set_pieces(&mut self, pieces: &Pieces) {
        self.pieces = *pieces;
    }

    /// A byte of E2ROM.
    pub fn e2rom(&self, address: u8) -> u8 {
        self.e2rom[usize::from(address)]
    }

    /// The time of a complete scan, in microseconds.
    pub fn scan_us(&self) -> u64 {
        let units = match self.e2rom(E2_SCAN_TIME) {
            n if n < 15 => DEFAULT_SCAN,
            n => n,
        };
        u64::from(units) * 2048
    }

    /// When the next scan runs, in whole milliseconds (rounded up).
    pub fn next_scan_ms(&self) -> u64 {
        self.next_scan_us.div_ceil(1000)
    }

    /// The LEDs as last set (all dark after `X` or a reset).
    pub fn lights(&self) -> &Lights {
        &self.lights
    }

    /// The status message for the board as it stands now.
    pub fn status(&self) -> Vec<u8> {
        self.status_of(&self.pieces)
    }

    /// The status message for `pieces`, in the order this board reports.
    fn status_of(&self, pieces: &Pieces) -> Vec<u8> {
        if self.h1_first {
            let mut turned = [None; 64];
            for (i, piece) in pieces.iter().enumerate() {
                turned[63 - i] = *piece;
            }
            with_check(&millennium::status_body(&turned))
        } else {
            with_check(&millennium::status_body(pieces))
        }
    }

    /// Runs every scan due up to `now_ms`: the automatic status reports
    /// they send, each with the time of its scan in milliseconds.
    pub fn scan_until(&mut self, now_ms: u64) -> Vec<(u64, Vec<u8>)> {
        let now_us = now_ms * 1000;
        let mut out = Vec::new();
        while self.next_scan_us <= now_us {
            let at_us = self.next_scan_us;
            self.next_scan_us += self.scan_us();
            let seen = self.pieces;
            if seen == self.candidate {
                self.same_scans = self.same_scans.saturating_add(1);
            } else {
                self.candidate = seen;
                self.same_scans = 1;
            }
            let send = match self.e2rom(E2_AUTO_REPORTS) & 0x07 {
                0 => true,
                1 => false,
                2 => {
                    let every = u64::from(self.e2rom(E2_REPORT_TIME)).max(1) * 4096;
                    let due = at_us >= self.last_timed_us + every;
                    if due {
                        self.last_timed_us = at_us;
                    }
                    due
                }
                // 011: on any change; 100-111: after 2 to 5 equal scans.
                mode => {
                    let debounce = u32::from(mode) - 2;
                    self.same_scans >= debounce && self.reported != Some(self.candidate)
                }
            };
            if send {
                self.reported = Some(self.candidate);
                let report = self.status_of(&self.candidate);
                out.push((at_us / 1000, self.out(report)));
            }
        }
        out
    }

    /// Bytes from the host at `now_ms`: each whole command with a good
    /// check is carried out, and the answers come back, in order.
    /// Damaged commands are ignored, as the board ignores them.
    pub fn receive(&mut self, now_ms: u64, bytes: &[u8]) -> Vec<u8> {
        let mut out = Vec::new();
        for &b in bytes {
            if self.parity_line && !millennium::parity_ok(b) {
                // A parity error: the UART drops the character, and the
                // command it belonged to fails its check or length.
                self.parity_errors += 1;
                continue;
            }
            self.input.push(b & 0x7F);
            while let Some(&letter) = self.input.first() {
                let Some(len) = Command::len_of(letter) else {
                    self.input.remove(0);
                    continue;
                };
                // Data and check are upper-case hex: anything else starts
                // over at the next byte.
                if self.input[1..].iter().any(|&c| !millennium::is_hex(c)) {
                    self.rejected += 1;
                    self.input.remove(0);
                    continue;
                }
                if self.input.len() < len {
                    break;
                }
                let frame: Vec<u8> = self.input.drain(..len).collect();
                match Command::parse(&frame) {
                    Some(cmd) => {
                        self.commands.push(letter);
                        let answer = self.carry_out(now_ms, cmd);
                        out.extend(self.out(answer));
                    }
                    // A wrong check: its tail is hex digits, no command
                    // starts there.
                    None => self.rejected += 1,
                }
            }
        }
        out
    }

    fn carry_out(&mut self, now_ms: u64, cmd: Command) -> Vec<u8> {
        match cmd {
            Command::Status => self.status(),
            Command::Version => {
                let mut body = b"v".to_vec();
                body.extend(format!("{:02X}{:02X}", self.version.0, self.version.1).bytes());
                with_check(&body)
            }
            Command::LedsOff => {
                self.lights.leds = [0; LEDS];
                with_check(b"x")
            }
            Command::Leds { slot, leds } => {
                self.lights = Lights { slot, leds: *leds };
                with_check(b"l")
            }
            Command::Write { address, value } => {
                self.e2rom[usize::from(address)] = value;
                with_check(format!("w{address:02X}{value:02X}").as_bytes())
            }
            Command::Read { address } => {
                let value = self.e2rom(address);
                with_check(format!("r{address:02X}{value:02X}").as_bytes())
            }
            Command::Reset => {
                // A hardware reset: LEDs and status cleared, scanning again
                // after the start-up delay; E2ROM keeps its settings.
                self.lights.leds = [0; LEDS];
                self.reported = None;
                self.same_scans = 0;
                self.input.clear();
                self.next_scan_us = (now_ms + RESET_MS) * 1000;
                self.last_timed_us = self.next_scan_us;
                Vec::new()
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{BoardReport, HostCommand, Protocol};
    use crate::eboard::Message;
    use crate::eboard::millennium::Decoder;

    fn pawn() -> Option<Piece> {
        Piece::from_char('P')
    }

    #[test]
    fn answers_every_command_byte_exact() {
        let mut sim = MillenniumSim::new();
        assert_eq!(sim.receive(0, b"V56"), b"v010374");
        let status = sim.receive(0, b"S53");
        assert_eq!(status.len(), 67);
        assert_eq!(&status[..9], b"srnbqkbnr");
        assert_eq!(sim.receive(0, b"W020356"), with_check(b"w0203"));
        assert_eq!(sim.e2rom(E2_AUTO_REPORTS), 3);
        assert_eq!(sim.receive(0, &with_check(b"R01")), with_check(b"r0114"));
        let d = Decoder::new();
        let lights = d.encode(HostCommand::Lights(Bitboard::from(Square::E2) | Square::E4));
        assert_eq!(sim.receive(0, &lights), b"l6C");
        assert_eq!(sim.lights().slot, millennium::LED_SLOT_TIME);
        assert!(sim.lights().squares().contains(Square::E2));
        assert!(sim.lights().squares().contains(Square::E4));
        assert_eq!(sim.receive(0, b"X58"), b"x78");
        assert!(sim.lights().squares().is_empty());
        // The greeting, in one go and a byte at a time.
        let greeting = d.greeting();
        let whole = MillenniumSim::new().receive(0, &greeting);
        let mut bytewise = MillenniumSim::new();
        let split: Vec<u8> = greeting
            .iter()
            .flat_map(|b| bytewise.receive(0, &[*b]))
            .collect();
        assert_eq!(whole, split);
        let mut dec = Decoder::new();
        let got = dec.decode_all(&whole);
        assert_eq!(got.len(), 3, "{got:?}");
        assert_eq!(got[0], Message::Ack);
        assert_eq!(
            got[1].ident().as_deref(),
            Some("Millennium ChessLink 01.03")
        );
        assert!(got[2].pieces().is_some());
        assert_eq!(sim.commands, b"VSWRLX");
    }

    #[test]
    fn damaged_commands_are_ignored_and_the_next_one_carried_out() {
        let mut sim = MillenniumSim::new();
        assert!(sim.receive(0, b"S54").is_empty(), "a wrong check");
        assert!(sim.receive(0, b"Q").is_empty(), "no such command");
        // A version request cut short by a status request.
        assert_eq!(sim.receive(0, b"V5S53").len(), 67);
        assert_eq!(sim.rejected, 2);
        assert_eq!(sim.commands, b"S");
    }

    #[test]
    fn reports_on_change_come_at_the_next_scan_once_per_change() {
        let mut sim = MillenniumSim::new();
        // Default: a status on every scan (40.96 ms).
        assert_eq!(sim.scan_until(200).len(), 5);
        sim.receive(200, b"W020356");
        assert_eq!(sim.scan_until(1000).len(), 0, "nothing changed since");
        sim.set(Square::E2, None);
        sim.set(Square::E4, pawn());
        let sent = sim.scan_until(1100);
        assert_eq!(sent.len(), 1);
        assert!(sent[0].0 > 1000 && sent[0].0 <= 1041, "{}", sent[0].0);
        let got = Decoder::new().decode_all(&sent[0].1);
        assert_eq!(got[0].pieces(), Some(sim.pieces()));
        assert!(sim.scan_until(5000).is_empty());
        // Two changes within one scan: one report.
        sim.set(Square::E4, None);
        sim.set(Square::E5, pawn());
        assert_eq!(sim.scan_until(5041).len(), 1);
    }

    #[test]
    fn debounce_scan_time_timed_reports_and_reset() {
        let mut sim = MillenniumSim::new();
        sim.receive(0, &with_check(b"W0206")); // 4 equal scans
        sim.receive(0, &with_check(b"W0140")); // 64 × 2.048 ms = 131 ms
        assert_eq!(sim.scan_us(), 131_072);
        sim.scan_until(1000);
        sim.set(Square::A2, None);
        let sent = sim.scan_until(2000);
        assert_eq!(sent.len(), 1);
        assert!(sent[0].0 >= 1000 + 3 * 131, "{}", sent[0].0);
        // A scan time under the minimum counts as the default.
        sim.receive(2000, &with_check(b"W010A"));
        assert_eq!(sim.scan_us(), 40_960);
        // Timed reports every 0x7A × 4.096 ms (500 ms).
        sim.receive(2000, &with_check(b"W0202"));
        let n = sim.scan_until(7000).len();
        assert!((9..=11).contains(&n), "{n}");
        // Reset: no answer, lights off, silent for three seconds, then
        // the status again (E2ROM kept: on change).
        sim.receive(7000, &with_check(b"W0203"));
        let lights = Decoder::new().encode(HostCommand::Lights(Bitboard::from(Square::A1)));
        assert_eq!(sim.receive(7000, &lights), b"l6C");
        assert_eq!(sim.lights().squares(), Bitboard::from(Square::A1));
        assert!(sim.receive(7000, b"T54").is_empty());
        assert!(sim.scan_until(9900).is_empty());
        let after = sim.scan_until(10_100);
        assert_eq!(after.len(), 1);
        assert_eq!(sim.e2rom(E2_AUTO_REPORTS), 3);
        assert!(sim.lights().squares().is_empty());
    }
}
