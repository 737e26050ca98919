//! A simulated Certabo board, pure: a set of chips (every piece with a
//! fixed random 5-byte code, the two spare queens too), the squares they
//! stand on, and a scan line every `scan_ms` as the real board streams,
//! with weak chips: an occupied square reads empty or a wrong code for one
//! scan at a given rate (never two scans running), and an empty square now and then shows the board's
//! noise codes (`0 0 56 0 0`). Pieces put down take a chip of that piece
//! from beside the board (the one lifted last first): a promotion takes a
//! captured piece or the spare queen, as a player does.
//!
//! Its lights are of one kind or the other (see [`super::certabo_lights`]):
//! one a square (the 8-byte command, answered by a line `L`) or colour
//! lights at the corners (the `FF 55` command, answered by `D`); a board
//! ignores the other kind's command (what a real one does with it no
//! reference says). An answer is a line of its own after the scan line
//! being sent, or, with [`CertaboSim::answer_inside_line`], inside the
//! next scan line, as PicoChess's captured lines show both.

use shakmaty::{Bitboard, Board, Color, Piece, Role, Square};

use super::certabo::{decode_lights, encode_scan};
use super::certabo_chips::{BLACK_SPARE_QUEEN, ChipCode, EMPTY, Scan, WHITE_SPARE_QUEEN};
use super::certabo_lights::{COLOUR_COMMAND_LEN, COLOUR_START, LightKind, lit_by_colour_command};

/// No chip of this piece lies beside the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NoChip(pub Piece);

impl std::fmt::Display for NoChip {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "no {:?} {:?} beside the board",
            self.0.color, self.0.role
        )
    }
}

/// A line (as [`encode_scan`] makes it) cut short after its first
/// `squares` squares, a8 onwards, and one digit of the next number, as a
/// line that lost its end on the wire (it then runs into the next line's
/// colon).
pub fn cut_line(line: &[u8], squares: usize) -> Vec<u8> {
    let mut numbers = 0;
    let at = line
        .iter()
        .position(|&b| {
            numbers += usize::from(b == b' ');
            numbers == squares * 5
        })
        .expect("that many squares");
    line[..at + 2].to_vec()
}

/// The Certabo board on the simulator's side of the wire.
#[derive(Clone, Debug)]
pub struct CertaboSim {
    /// Every chip the owner has, with its piece.
    chips: Vec<(ChipCode, Piece)>,
    /// The chip on each square (game squares, a1 = 0).
    on: [Option<usize>; 64],
    /// Chips beside the board, the one lifted last at the end.
    beside: Vec<usize>,
    rng: u64,
    /// Chance of a weak read per occupied square and scan, per mille.
    pub weak_per_mille: u32,
    /// Milliseconds between two scans.
    pub scan_ms: u64,
    next_scan_at: u64,
    lights: Bitboard,
    /// Squares read weak in the last scan (a weak read lasts one scan).
    weak_last: u64,
    /// Weak reads sent so far.
    pub weak_reads: u64,
    /// The kind of lights the board has (`Plain` or `Colour`).
    pub light_kind: LightKind,
    /// Answers to light commands go inside the next scan line.
    pub answer_inside_line: bool,
    /// Bytes from the host not yet framed into a command.
    from_host: Vec<u8>,
    /// Answers to light commands not sent yet.
    answers: Vec<u8>,
}

/// How often the board sends a scan: several times a second, and no
/// faster than a line goes over the wire (about 900 bytes at 38400 baud:
/// some 235 ms).
pub const SCAN_MS: u64 = 250;

impl CertaboSim {
    /// A board with the start position set up, and with `spares` the two
    /// spare queens on d3 and d6, ready for calibration (without, the set
    /// has none). Chip codes and noise follow `seed`.
    pub fn new(seed: u64, spares: bool) -> CertaboSim {
        let mut sim = CertaboSim {
            chips: Vec::new(),
            on: [None; 64],
            beside: Vec::new(),
            rng: seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1,
            weak_per_mille: 0,
            scan_ms: SCAN_MS,
            next_scan_at: 0,
            lights: Bitboard::EMPTY,
            weak_last: 0,
            weak_reads: 0,
            light_kind: LightKind::Plain,
            answer_inside_line: false,
            from_host: Vec::new(),
            answers: Vec::new(),
        };
        for (sq, piece) in &Board::default() {
            let chip = sim.add_chip(piece);
            sim.beside.retain(|&c| c != chip);
            sim.on[usize::from(sq)] = Some(chip);
        }
        if spares {
            for (sq, color) in [
                (WHITE_SPARE_QUEEN, Color::White),
                (BLACK_SPARE_QUEEN, Color::Black),
            ] {
                let chip = sim.add_chip(Piece {
                    color,
                    role: Role::Queen,
                });
                sim.put_chip(sq, chip);
            }
        }
        sim
    }

    fn next(&mut self) -> u64 {
        self.rng ^= self.rng >> 12;
        self.rng ^= self.rng << 25;
        self.rng ^= self.rng >> 27;
        self.rng.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// A chip code no chip has, with no zero byte.
    fn new_code(&mut self) -> ChipCode {
        loop {
            let bytes = self.next().to_le_bytes();
            let code = [bytes[0], bytes[1], bytes[2], bytes[3], bytes[4]].map(|b| b.max(1));
            if self.chips.iter().all(|(c, _)| *c != code) {
                return code;
            }
        }
    }

    /// A new chip of `piece` beside the board (a second set's piece);
    /// returns its index.
    pub fn add_chip(&mut self, piece: Piece) -> usize {
        let code = self.new_code();
        self.chips.push((code, piece));
        self.beside.push(self.chips.len() - 1);
        self.chips.len() - 1
    }

    /// Every chip's code and piece.
    pub fn chips(&self) -> &[(ChipCode, Piece)] {
        &self.chips
    }

    /// The chip on a square.
    pub fn chip_on(&self, square: Square) -> Option<usize> {
        self.on[usize::from(square)]
    }

    /// The pieces on the board.
    pub fn board(&self) -> Board {
        let mut board = Board::empty();
        for sq in Square::ALL {
            if let Some(chip) = self.on[usize::from(sq)] {
                board.set_piece_at(sq, self.chips[chip].1);
            }
        }
        board
    }

    /// Chips of `piece` beside the board.
    pub fn beside(&self, piece: Piece) -> usize {
        self.beside
            .iter()
            .filter(|&&c| self.chips[c].1 == piece)
            .count()
    }

    /// A hand lifts what stands on `square` (`None`) or puts `piece` there
    /// (a chip of that piece from beside the board, the last lifted first;
    /// whatever stood there goes beside the board).
    pub fn set(&mut self, square: Square, piece: Option<Piece>) -> Result<(), NoChip> {
        let i = usize::from(square);
        if let (Some(chip), Some(p)) = (self.on[i], piece)
            && self.chips[chip].1 == p
        {
            return Ok(());
        }
        let Some(p) = piece else {
            if let Some(chip) = self.on[i].take() {
                self.beside.push(chip);
            }
            return Ok(());
        };
        let at = self
            .beside
            .iter()
            .rposition(|&c| self.chips[c].1 == p)
            .ok_or(NoChip(p))?;
        let chip = self.beside.remove(at);
        if let Some(old) = self.on[i].replace(chip) {
            self.beside.push(old);
        }
        Ok(())
    }

    /// Makes the board show `pieces` (a1 = 0), as hands would: every
    /// square that changes is cleared first, then the pieces are set down
    /// with chips from beside the board. Fails when a piece has no chip
    /// left beside the board (what could be set stays set).
    pub fn set_pieces(&mut self, pieces: &[Option<Piece>; 64]) -> Result<(), NoChip> {
        let board = self.board();
        let differs: Vec<Square> = Square::ALL
            .into_iter()
            .filter(|&sq| board.piece_at(sq) != pieces[usize::from(sq)])
            .collect();
        for &sq in &differs {
            self.set(sq, None)?;
        }
        let mut result = Ok(());
        for &sq in &differs {
            if let Some(p) = pieces[usize::from(sq)]
                && let Err(e) = self.set(sq, Some(p))
            {
                result = Err(e);
            }
        }
        result
    }

    /// Puts chip `chip` (beside the board) on `square`; what stood there
    /// goes beside the board.
    pub fn put_chip(&mut self, square: Square, chip: usize) {
        self.beside.retain(|&c| c != chip);
        if let Some(old) = self.on[usize::from(square)].replace(chip) {
            self.beside.push(old);
        }
    }

    /// What the board reads now, without weak chips.
    pub fn exact_scan(&self) -> Scan {
        let mut scan = [EMPTY; 64];
        for (code, chip) in scan.iter_mut().zip(self.on) {
            if let Some(c) = chip {
                *code = self.chips[c].0;
            }
        }
        scan
    }

    /// One scan as the board sends it, weak chips and all.
    pub fn scan(&mut self) -> Scan {
        let mut scan = self.exact_scan();
        let weak_before = std::mem::take(&mut self.weak_last);
        for (i, code) in scan.iter_mut().enumerate() {
            let roll = self.next();
            if self.on[i].is_some()
                && weak_before & (1 << i) == 0
                && (roll % 1000) < u64::from(self.weak_per_mille)
            {
                self.weak_last |= 1 << i;
                self.weak_reads += 1;
                *code = if roll & (1 << 20) == 0 {
                    [0, 0, (roll >> 24) as u8, 0, 0]
                } else {
                    self.new_code()
                };
            } else if self.on[i].is_none() && (roll % 1000) < 20 {
                // The board's own noise on an empty square.
                *code = [(roll >> 24) as u8, 0, 0, 0, 0];
            }
        }
        scan
    }

    /// The line of one scan, with the answers due in it or after it.
    pub fn line(&mut self) -> Vec<u8> {
        let scan = self.scan();
        let mut line = encode_scan(&scan);
        let answers = std::mem::take(&mut self.answers);
        if self.answer_inside_line {
            // At a blank somewhere in the numbers.
            let blanks = line.iter().filter(|&&b| b == b' ').count() as u64;
            for &answer in answers.iter().filter(|&&b| b != b'\r' && b != b'\n') {
                let nth = (self.next() % blanks) as usize;
                let at = line
                    .iter()
                    .enumerate()
                    .filter(|(_, b)| **b == b' ')
                    .nth(nth)
                    .map_or(1, |(i, _)| i + 1);
                line.splice(at..at, [answer, b' ']);
            }
        } else {
            line.extend(answers);
        }
        line
    }

    /// The board is silent until `ms` (its first scan then), as a board
    /// plugged in late or a host that opened the port mid-stream sees it.
    pub fn first_scan_at(&mut self, ms: u64) {
        self.next_scan_at = ms;
    }

    /// When the next scan goes out.
    pub fn next_scan_at(&self) -> u64 {
        self.next_scan_at
    }

    /// The lines of every scan due by `now_ms`, each with its time.
    pub fn scans_until(&mut self, now_ms: u64) -> Vec<(u64, Vec<u8>)> {
        let mut out = Vec::new();
        while self.next_scan_at <= now_ms {
            let at = self.next_scan_at;
            out.push((at, self.line()));
            self.next_scan_at += self.scan_ms.max(1);
        }
        out
    }

    /// Bytes from the host, in any chunking: light commands, 8 bytes or
    /// `FF 55` … CR LF each. (An 8-byte command that starts `FF 55`, rank
    /// 8 all lit and every other square of rank 7, is read as the start
    /// of a colour command until 247 bytes show it is none.)
    pub fn receive(&mut self, bytes: &[u8]) {
        self.from_host.extend_from_slice(bytes);
        loop {
            let buf = &self.from_host;
            if buf.starts_with(&COLOUR_START) && buf.len() < COLOUR_COMMAND_LEN {
                return;
            }
            if let Some(lit) = buf
                .get(..COLOUR_COMMAND_LEN)
                .and_then(lit_by_colour_command)
            {
                self.from_host.drain(..COLOUR_COMMAND_LEN);
                if self.light_kind == LightKind::Colour {
                    self.lights = lit;
                    self.answers.extend_from_slice(b"D\r\n");
                }
                continue;
            }
            if buf.len() < 8 {
                return;
            }
            let frame: Vec<u8> = self.from_host.drain(..8).collect();
            if self.light_kind == LightKind::Plain {
                self.lights = decode_lights(frame.try_into().expect("8 bytes"));
                self.answers.extend_from_slice(b"L\r\n");
            }
        }
    }

    /// The squares lit (on a board with colour lights: those whose four
    /// corners shine).
    pub fn lights(&self) -> Bitboard {
        self.lights
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{BoardReport, Protocol};
    use crate::eboard::{CalibrationStep, CertaboDecoder, Message};

    #[test]
    fn the_simulated_board_calibrates_and_a_promotion_takes_the_spare_queen() {
        let mut sim = CertaboSim::new(5, true);
        sim.weak_per_mille = 20;
        let mut d = CertaboDecoder::new();
        let mut out = Vec::new();
        for (_, line) in sim.scans_until(3000) {
            out.extend(d.decode_all(&line));
        }
        assert!(
            out.contains(&Message::Calibration(CalibrationStep::Done {
                spare_queens: 2
            })),
            "{out:?}"
        );
        assert_eq!(d.chips().len(), 34);
        // Queens put aside, then a white pawn lifted and a queen put on e8.
        let wq = Piece {
            color: Color::White,
            role: Role::Queen,
        };
        sim.set(Square::D3, None).unwrap();
        sim.set(Square::D6, None).unwrap();
        sim.set(Square::E8, None).unwrap();
        sim.set(Square::E2, None).unwrap();
        sim.set(Square::E8, Some(wq)).unwrap();
        assert_eq!(sim.beside(wq), 0);
        assert_eq!(
            sim.set(Square::E7, Some(wq)),
            Err(NoChip(wq)),
            "only one spare"
        );
        // Asked for the whole position once the hands are done.
        for (_, line) in sim.scans_until(4000) {
            d.decode_all(&line);
        }
        d.sent(crate::board::HostCommand::Snapshot);
        let mut last = None;
        for (_, line) in sim.scans_until(6000) {
            for m in d.decode_all(&line) {
                if let Some(p) = m.pieces() {
                    last = Some(*p);
                }
            }
        }
        let last = last.expect("a position");
        assert_eq!(last[usize::from(Square::E8)], Some(wq));
        assert_eq!(last[usize::from(Square::E2)], None);
        assert!(sim.weak_reads > 0);
        sim.receive(&d.encode(crate::board::HostCommand::Lights(Bitboard::from(
            Square::E8,
        ))));
        assert_eq!(sim.lights(), Bitboard::from(Square::E8));
    }
}
