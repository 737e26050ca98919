//! The Certabo e-board (USB serial, 38400 baud): an RFID code per square,
//! sent several times a second whether anything changed or not, as a line
//! `:` + 320 decimal numbers (64 squares × 5 bytes, a8, b8, ... h1) + CR LF
//! (the maker's software and `certabo-lichess` read it so). The host may
//! send 8 bytes of LED bits (one byte a rank, rank 8 first, bit 0 = file a).
//!
//! The decoder frames lines (bytes in any chunking; a line cut short, too
//! long or holding anything but 320 numbers up to 255 is dropped and
//! counted; the squares a line cut short did bring are still read, see
//! [`CertaboDecoder`]), learns the chips from the starting position (see
//! [`super::certabo_chips`]), settles each square by a majority over the
//! last 3 scans and passes a [`Message::Position`] on when the settled
//! position changes, and always on the scan after a snapshot request (the
//! board is asked nothing: it streams anyway). The calibration survives a
//! new connection ([`Protocol::fresh`]): the chips are the same.

use std::collections::BTreeSet;

use shakmaty::Square;

use super::certabo_chips::{ChipCode, Chips, EMPTY, Learner, Reading, Scan, Settler};
use super::certabo_early::EarlyLearner;
use super::certabo_lights::is_marker;
use super::certabo_lines::{Framed, Lines};
use super::{CalibrationStep, Message};
use crate::board::{DecoderStats, HostCommand, Protocol};
use crate::eboard::Pieces;
use crate::eboard::pieces::square_of_index;

/// The board's baud rate (8N1).
pub const BAUD: u32 = 38400;
/// Numbers in a line: 64 squares × 5 bytes.
pub const NUMBERS: usize = 320;
pub use super::certabo_lines::MAX_LINE;
/// Chips not learnt a line cut short may show and still be read (weak
/// reads): more, and its numbers are more likely shifted than read.
const MAX_UNKNOWN_IN_HEAD: usize = 2;
/// How the board names itself (it sends no name of its own).
pub const IDENT: &str = "Certabo";

/// One line of a scan from the board, as the host reads it: `:` + the
/// numbers + ` \r\n` (the trailing space as the board sends it).
pub fn encode_scan(scan: &Scan) -> Vec<u8> {
    let mut out = Vec::with_capacity(MAX_LINE);
    out.push(b':');
    for i in 0..64u8 {
        for (k, byte) in scan[usize::from(square_of_index(i))].iter().enumerate() {
            if i > 0 || k > 0 {
                out.push(b' ');
            }
            out.extend_from_slice(byte.to_string().as_bytes());
        }
    }
    out.extend_from_slice(b" \r\n");
    out
}

/// The numbers of a line's body (after the colon, before the LF), if it
/// holds exactly a scan.
pub fn parse_scan(body: &[u8]) -> Option<Scan> {
    let numbers = numbers(body).filter(|n| n.len() == NUMBERS)?;
    let mut scan = [EMPTY; 64];
    for (i, code) in chip_codes(&numbers).enumerate() {
        scan[usize::from(square_of_index(i as u8))] = code;
    }
    Some(scan)
}

/// The squares at the head of a line cut short (its body up to the cut):
/// the codes of every square whose five numbers all came, a8 first. A
/// number the cut may have shortened (the last, unless a blank follows it)
/// is left out; anything but numbers up to 255 makes the line unreadable.
pub fn parse_head(body: &[u8]) -> Option<Vec<ChipCode>> {
    let mut numbers = numbers(body)?;
    if !body.ends_with(b" ") {
        numbers.pop();
    }
    Some(chip_codes(&numbers).collect())
}

/// A line body's numbers: at most a scan's, each of up to three digits and
/// at most 255, else `None`. The board's markers (see
/// [`super::certabo_lines`]) are left out first, wherever they stand.
fn numbers(body: &[u8]) -> Option<Vec<u8>> {
    let body: Vec<u8> = body.iter().copied().filter(|&b| !is_marker(b)).collect();
    let mut numbers = Vec::with_capacity(NUMBERS);
    for token in body
        .split(|&b| b == b' ' || b == b'\r' || b == b'\t')
        .filter(|t| !t.is_empty())
    {
        if numbers.len() == NUMBERS || token.len() > 3 || !token.iter().all(u8::is_ascii_digit) {
            return None;
        }
        let value = token.iter().fold(0u16, |v, d| v * 10 + u16::from(d - b'0'));
        numbers.push(u8::try_from(value).ok()?);
    }
    Some(numbers)
}

/// Numbers five by five, as the squares' codes in the line's order (a8
/// first); a last square short of numbers is left out.
fn chip_codes(numbers: &[u8]) -> impl Iterator<Item = ChipCode> + '_ {
    numbers
        .chunks_exact(5)
        .map(|c| [c[0], c[1], c[2], c[3], c[4]])
}

/// The squares that differ from `before` to `after`, as field updates:
/// pieces set down first, then squares emptied, so a move finished and a
/// reply begun in one scan come in the order the hands made them (a move
/// is done when a piece lands; a reply begins with a lift).
fn changes(before: &Pieces, after: &Pieces, out: &mut Vec<Message>) {
    let changed = || (0..64).filter(|&i| before[i] != after[i]);
    for i in changed().filter(|&i| after[i].is_some()) {
        out.push(Message::Square {
            square: Square::new(i as u32),
            piece: after[i],
        });
    }
    for i in changed().filter(|&i| after[i].is_none()) {
        out.push(Message::Square {
            square: Square::new(i as u32),
            piece: None,
        });
    }
}

/// A Certabo board on the wire: lines to scans, scans to positions.
///
/// A line cut short still tells what stood on the squares it brought
/// (a8 onwards): it is read as a scan that lacks the other squares (the
/// settler tells them from the scans around it, see [`Settler`]). At
/// blitz pace a scan lost whole can be the only one that showed a move (a
/// pawn's double step taken en passant at once reads like a single step
/// taken). Only a line cut at its end is read so (one that ends with its
/// line feed but lacks numbers lost them somewhere inside, and its squares
/// after that point would be shifted), and only when at most two squares
/// of its head read a chip not learnt (those are left unread: a weak read).
#[derive(Clone, Debug, Default)]
pub struct CertaboDecoder {
    lines: Lines,
    stats: DecoderStats,
    /// The chips learnt: kept by [`Protocol::fresh`].
    chips: Chips,
    learner: Learner,
    /// Before the first calibration: the first scans, for a start set-up
    /// left too soon for `learner`.
    early: EarlyLearner,
    settler: Settler,
    /// The last position passed on (boxed: the decoder is one arm of
    /// `AnyDecoder`, kept small).
    shown: Option<Box<Pieces>>,
    named: bool,
    asked_to_set_up: bool,
    /// Chips already said to be unknown.
    unknown_said: BTreeSet<ChipCode>,
    /// Pass the next position on even if unchanged (a snapshot request).
    snapshot_wanted: bool,
    /// The last scan passed on was told partly from the scans around it.
    after_told: bool,
    /// The board's lights, as its answers tell (kept by
    /// [`Protocol::fresh`]).
    lights: LightKind,
}

impl CertaboDecoder {
    /// A decoder that knows no chips yet: the player is asked to set up
    /// the starting position.
    pub fn new() -> CertaboDecoder {
        CertaboDecoder::default()
    }

    /// The kind of lights the board's answers told.
    pub fn lights(&self) -> LightKind {
        self.lights
    }

    /// The chips learnt so far.
    pub fn chips(&self) -> &Chips {
        &self.chips
    }

    /// A decoder that already knows these chips (a calibration kept).
    pub fn with_chips(chips: Chips) -> CertaboDecoder {
        CertaboDecoder {
            chips,
            ..CertaboDecoder::default()
        }
    }

    /// A line cut short, read as a scan if its head can be trusted (see
    /// the type's comment).
    fn cut_scan(&mut self, body: &[u8], out: &mut Vec<Message>) {
        if self.chips.is_empty() {
            return;
        }
        let Some(head) = parse_head(body).filter(|h| !h.is_empty()) else {
            return;
        };
        let unknown = |code: &ChipCode| matches!(self.chips.read(code), Reading::Unknown(_));
        if head.iter().filter(|code| unknown(code)).count() > MAX_UNKNOWN_IN_HEAD {
            return;
        }
        let mut scan = [EMPTY; 64];
        let mut read = [false; 64];
        for (i, code) in head.iter().enumerate() {
            // A chip not learnt is a weak read (or a stray chip, which a
            // whole scan names): that square is not read.
            if !unknown(code) {
                let square = usize::from(square_of_index(i as u8));
                scan[square] = *code;
                read[square] = true;
            }
        }
        self.scan(&scan, Some(read), out);
    }

    /// One scan; `part`: the squares a cut line brought (such a scan
    /// teaches no chips).
    fn scan(&mut self, scan: &Scan, part: Option<[bool; 64]>, out: &mut Vec<Message>) {
        if !self.named {
            self.named = true;
            out.push(Message::Ident(IDENT.into()));
        }
        let learnt = match part {
            None => self.learner.push(scan),
            Some(_) => None,
        };
        if let Some(setup) = learnt {
            let first = self.chips.is_empty();
            if self.chips.learn(&setup) > 0 {
                if first {
                    // What was read before the chips were known is void.
                    self.settler = Settler::default();
                }
                out.push(Message::Calibration(CalibrationStep::Done {
                    spare_queens: setup.spare_queens,
                }));
            }
        }
        if self.chips.is_empty() && part.is_none() {
            self.learn_early(scan, out);
        }
        if self.chips.is_empty() {
            if !std::mem::replace(&mut self.asked_to_set_up, true) {
                out.push(Message::Calibration(CalibrationStep::SetUpStart));
            }
            // Every whole scan ends so, calibrated or not: the host hears
            // the board is there while it waits for the starting position.
            out.push(Message::Scanned);
            return;
        }
        let readings = scan.map(|code| self.chips.read(&code));
        let settled = self
            .settler
            .push_part(readings, scan, part.unwrap_or([true; 64]));
        if settled.is_empty() && part.is_none() {
            out.push(Message::Scanned);
        }
        for settled in settled {
            let changed = self.settled(&settled.readings, out);
            // A scan told partly from the scans around it may read as the
            // one before or after it does (a square that changed meanwhile
            // reads as empty, as in the hand): the board did not stand
            // still for it, so neither it nor the next scan counts as a
            // scan that shows nothing new (a streaming board settles by
            // those). It counts as a scan when it shows something new.
            let told = std::mem::replace(&mut self.after_told, !settled.whole && changed);
            if changed || (settled.whole && !told) {
                out.push(Message::Scanned);
            }
        }
    }

    /// A whole scan of a board never calibrated: the start set-up learnt
    /// from the first scans that showed it when the hands left it too
    /// soon for the learner (see [`super::certabo_early`]); the host is
    /// then given the start position, and what the board shows now
    /// follows as changes. Near a set-up not learnt, the player is asked
    /// again.
    fn learn_early(&mut self, scan: &Scan, out: &mut Vec<Message>) {
        let ask_again = self.early.push(scan);
        let standing_in_set_up = super::certabo_chips::looks_like_setup(scan);
        if let Some(early) = self.early.setup().filter(|_| !standing_in_set_up) {
            self.chips.learn(&early.setup);
            self.settler = Settler::default();
            self.early = EarlyLearner::default();
            self.learner.clear();
            out.push(Message::Calibration(CalibrationStep::Done {
                spare_queens: early.setup.spare_queens,
            }));
            self.shown = Some(Box::new(early.start));
            out.push(Message::Position(Box::new(early.start)));
            return;
        }
        if ask_again && self.asked_to_set_up {
            out.push(Message::Calibration(CalibrationStep::SetUpAgain));
        }
    }

    /// A scan's settled readings passed on; whether any square changed.
    fn settled(&mut self, settled: &[Reading; 64], out: &mut Vec<Message>) -> bool {
        let mut pieces: Pieces = [None; 64];
        for (i, reading) in settled.iter().enumerate() {
            match reading {
                Reading::Known(piece) => pieces[i] = Some(*piece),
                Reading::Empty => {}
                Reading::Unknown(code) => {
                    if self.settler.unknown_stays(i) && self.unknown_said.insert(*code) {
                        out.push(Message::Calibration(CalibrationStep::UnknownPiece(
                            Square::new(i as u32),
                        )));
                    }
                }
            }
        }
        // Changes as field updates, so a move finished and a reply begun
        // are seen as the hands made them; the whole position on the first
        // scan and when asked (after the changes, which it then confirms).
        let before = self.shown.replace(Box::new(pieces));
        let changed = before.as_ref().is_some_and(|before| **before != pieces);
        if let Some(before) = &before {
            changes(before, &pieces, out);
        }
        if before.is_none() || std::mem::take(&mut self.snapshot_wanted) {
            out.push(Message::Position(Box::new(pieces)));
        }
        changed
    }

    fn framed(&mut self, framed: Framed, log: &mut dyn FnMut(&[u8], bool), out: &mut Vec<Message>) {
        match framed {
            Framed::Line(body) => {
                // A line ended by a bare LF is logged with a CR, so that a
                // replay ends it too (see `logged_to_wire`).
                let cr: &[u8] = if body.ends_with(b"\r") { b"" } else { b"\r" };
                log(&[b":", body, cr].concat(), false);
                self.lights = self.lights.after(body);
                self.stats.frames += 1;
                match parse_scan(body) {
                    Some(scan) => {
                        self.stats.messages += 1;
                        self.scan(&scan, None, out);
                    }
                    None => self.stats.garbage += 1,
                }
            }
            Framed::Cut(body) => {
                // Logged with its colon and no line end: replayed, it is
                // cut by the next line as it was here.
                log(&[b":", body].concat(), false);
                self.lights = self.lights.after(body);
                self.stats.frames += 1;
                self.stats.garbage += 1;
                self.cut_scan(body, out);
            }
            Framed::Garbage(bytes) => {
                log(bytes, false);
                self.stats.frames += 1;
                self.stats.garbage += 1;
            }
            Framed::TooLong(bytes) => {
                log(bytes, false);
                self.stats.frames += 1;
                self.stats.too_long += 1;
            }
            Framed::Marker(bytes) => {
                // The board's answer to a light command, or a blank line:
                // no line dropped, nothing to read but the kind of lights.
                log(bytes, false);
                self.lights = self.lights.after(bytes);
            }
        }
    }
}

impl Protocol for CertaboDecoder {
    type Message = Message;

    fn fresh(&self) -> CertaboDecoder {
        // The same board: its chips and the kind of its lights are kept.
        CertaboDecoder {
            lights: self.lights,
            ..CertaboDecoder::with_chips(self.chips.clone())
        }
    }

    fn name(&self) -> &'static str {
        "certabo"
    }

    fn default_baud(&self) -> u32 {
        BAUD
    }

    fn has_heartbeat(&self) -> bool {
        // It streams scans.
        true
    }

    fn decode(&mut self, bytes: &[u8], log: &mut dyn FnMut(&[u8], bool), out: &mut Vec<Message>) {
        let mut lines = std::mem::take(&mut self.lines);
        lines.push(bytes, &mut |f| self.framed(f, log, out));
        self.lines = lines;
    }

    fn idle(&mut self) {
        let mut lines = std::mem::take(&mut self.lines);
        let mut out = Vec::new();
        lines.idle(&mut |f| self.framed(f, &mut |_, _| {}, &mut out));
        self.lines = lines;
    }

    fn stats(&self) -> DecoderStats {
        self.stats
    }

    fn encode(&self, command: HostCommand) -> Vec<u8> {
        match command {
            // The board streams: it is asked nothing.
            HostCommand::Snapshot | HostCommand::Ident => Vec::new(),
            // In the form the board's answers asked for; both forms until
            // it has answered (see `certabo_lights`).
            HostCommand::Lights(squares) => self.lights.command(squares),
        }
    }

    fn sent(&mut self, command: HostCommand) {
        if command == HostCommand::Snapshot {
            self.snapshot_wanted = true;
        }
    }

    fn memory(&self) -> Option<String> {
        (!self.chips.is_empty()).then(|| self.chips.to_text())
    }

    /// The chips a calibration learnt in an earlier run: the board is read
    /// at once, mid-game too (see [`Chips::from_text`]).
    fn recall(&mut self, memory: &str) -> Result<(), String> {
        self.chips = Chips::from_text(memory).map_err(|e| e.to_string())?;
        Ok(())
    }

    fn greeting(&self) -> Vec<u8> {
        // All lights off, as the maker's software starts, in the 8-byte
        // form only: a board with one light a square answers `L` and is
        // never sent the colour form.
        encode_lights(shakmaty::Bitboard::EMPTY).to_vec()
    }

    fn logged_to_wire(&self, logged: &[u8]) -> Vec<u8> {
        // A line the board ended came with its CR (the board sends CR LF);
        // a line cut short did not, and is cut again by the next one.
        if logged.starts_with(b":") && !logged.ends_with(b"\r") {
            logged.to_vec()
        } else {
            [logged, b"\r\n"].concat()
        }
    }
}

pub use super::certabo_lights::{LightKind, decode_lights, encode_lights};

#[cfg(test)]
mod tests {
    use super::super::certabo_chips::EMPTY;
    use super::*;
    use crate::board::BoardReport;
    use shakmaty::{Board, Color, Piece, Role};

    fn chip(sq: Square) -> ChipCode {
        let n = u8::from(sq);
        [n + 1, 7, n.wrapping_mul(3) + 1, 5, 200 - n]
    }

    fn scan_of(board: &Board, spares: &[Square]) -> Scan {
        let mut scan = [EMPTY; 64];
        for (sq, _) in board {
            scan[usize::from(sq)] = chip(sq);
        }
        for &sq in spares {
            scan[usize::from(sq)] = chip(sq);
        }
        scan
    }

    #[test]
    fn a_line_round_trips_and_its_squares_run_from_a8_to_h1() {
        let mut scan = [EMPTY; 64];
        scan[usize::from(Square::A8)] = [1, 2, 3, 4, 5];
        scan[usize::from(Square::H1)] = [255, 0, 9, 8, 7];
        let line = encode_scan(&scan);
        assert!(line.starts_with(b":1 2 3 4 5 0 0 0"));
        assert!(line.ends_with(b"255 0 9 8 7 \r\n"));
        assert_eq!(parse_scan(&line[1..line.len() - 1]), Some(scan));
    }

    #[test]
    fn short_long_and_bad_lines_are_dropped_and_counted() {
        let good = encode_scan(&[EMPTY; 64]);
        let mut d = CertaboDecoder::new();
        let mut wire = Vec::new();
        wire.extend_from_slice(b"noise\r\n");
        wire.extend_from_slice(&good[..100]); // cut short by the next colon
        wire.extend_from_slice(&good);
        wire.extend_from_slice(b":1 2 3\r\n"); // too few numbers
        let mut long = good.clone();
        long.splice(1..1, b"1 ".repeat(400));
        wire.extend_from_slice(&long);
        let mut bad = good.clone();
        bad[1] = b'7';
        bad[2] = b'7';
        bad[3] = b'7'; // 777 is no byte
        wire.extend_from_slice(&bad);
        let out = d.decode_all(&wire);
        assert_eq!(
            out,
            vec![
                Message::Ident(IDENT.into()),
                Message::Calibration(CalibrationStep::SetUpStart),
                // The one good line's end; the bad ones end no scan.
                Message::Scanned,
            ]
        );
        let s = d.stats();
        assert_eq!((s.frames, s.messages, s.garbage, s.too_long), (6, 1, 4, 1));
    }

    #[test]
    fn calibration_then_positions_on_change_and_after_a_snapshot_request() {
        let mut d = CertaboDecoder::new();
        let start = Board::default();
        let wq = Piece {
            color: Color::White,
            role: Role::Queen,
        };
        let setup = encode_scan(&scan_of(&start, &[Square::D3, Square::D6]));
        let mut out = Vec::new();
        for _ in 0..3 {
            out.extend(d.decode_all(&setup));
        }
        assert_eq!(
            out.iter().filter(|m| **m == Message::Scanned).count(),
            3,
            "every scan ends so, calibrated or not (the host hears the board)"
        );
        out.retain(|m| m != &Message::Scanned);
        assert_eq!(
            out,
            vec![
                Message::Ident(IDENT.into()),
                Message::Calibration(CalibrationStep::SetUpStart),
                Message::Calibration(CalibrationStep::Done { spare_queens: 2 }),
            ]
        );
        // The spare queens stand on d3 and d6 until put aside.
        let got = d.decode_all(&setup);
        let Some(pieces) = got[0].pieces() else {
            panic!("{got:?}")
        };
        assert_eq!(pieces[usize::from(Square::D3)], Some(wq));
        assert_eq!(
            d.decode_all(&setup),
            vec![Message::Scanned],
            "unchanged: only the scan's end, which a streaming board settles by"
        );
        d.sent(HostCommand::Snapshot);
        let asked = d.decode_all(&setup);
        assert_eq!(asked.len(), 2, "asked: passed on again");
        assert_eq!(asked[1], Message::Scanned);
        // A reconnect keeps the chips: the position comes after two scans.
        let mut again = d.fresh();
        let plain = encode_scan(&scan_of(&start, &[]));
        assert_eq!(
            again.decode_all(&plain),
            vec![Message::Ident(IDENT.into()), Message::Scanned]
        );
        let got = again.decode_all(&plain);
        assert_eq!(got.len(), 2);
        assert_eq!(got[1], Message::Scanned);
        assert_eq!(
            got[0].pieces(),
            Some(&crate::eboard::pieces::pieces_of_board(start))
        );
    }

    #[test]
    fn an_unknown_chip_is_said_once_and_reads_as_empty() {
        let start = Board::default();
        let mut d = CertaboDecoder::new();
        let setup = encode_scan(&scan_of(&start, &[]));
        for _ in 0..4 {
            d.decode_all(&setup);
        }
        let mut stranger = scan_of(&start, &[]);
        stranger[usize::from(Square::E4)] = [9, 9, 9, 9, 9];
        let line = encode_scan(&stranger);
        let mut out = Vec::new();
        for _ in 0..4 {
            out.extend(d.decode_all(&line));
        }
        out.retain(|m| m != &Message::Scanned);
        assert_eq!(
            out,
            vec![Message::Calibration(CalibrationStep::UnknownPiece(
                Square::E4
            ))]
        );
    }

    /// A decoder that knows the start position's chips, shown it settled.
    fn calibrated() -> CertaboDecoder {
        let mut d = CertaboDecoder::new();
        let start = encode_scan(&scan_of(&Board::default(), &[]));
        for _ in 0..6 {
            d.decode_all(&start);
        }
        d
    }

    fn cut(line: &[u8], squares: usize) -> Vec<u8> {
        super::super::certabo_sim::cut_line(line, squares)
    }

    #[test]
    fn the_head_of_a_cut_line_is_its_whole_squares() {
        assert_eq!(
            parse_head(b"1 2 3 4 5 6 7 8 9 1"),
            Some(vec![[1, 2, 3, 4, 5]]),
            "the last number may be cut (10 to 1)"
        );
        assert_eq!(
            parse_head(b"1 2 3 4 5 6 7 8 9 10 "),
            Some(vec![[1, 2, 3, 4, 5], [6, 7, 8, 9, 10]]),
            "a blank after the last number: it came whole"
        );
        assert_eq!(parse_head(b"1 2 3 4"), Some(vec![]));
        assert_eq!(parse_head(b"1 2 x 4 5 6"), None);
        assert_eq!(parse_head(b"1 2 300 4 5 6"), None);
    }

    /// The start position's scan with the chip on `from` moved to `to`
    /// (`None`: off the board).
    fn moved(moves: &[(Square, Option<Square>)]) -> Scan {
        let mut scan = scan_of(&Board::default(), &[]);
        for &(from, to) in moves {
            let chip = std::mem::replace(&mut scan[usize::from(from)], EMPTY);
            if let Some(to) = to {
                scan[usize::from(to)] = chip;
            }
        }
        scan
    }

    #[test]
    fn a_line_cut_short_still_brings_the_squares_before_the_cut() {
        let mut d = calibrated();
        let p = Piece::from_char('P').unwrap();
        // The only scan that shows the pawn on e4 lost its end (e2 on):
        // e4 is the 37th square from a8.
        let mut wire = cut(&encode_scan(&moved(&[(Square::E2, Some(Square::E4))])), 40);
        assert!(parse_scan(&wire[1..]).is_none());
        let lifted_again = encode_scan(&moved(&[(Square::E2, None)]));
        for _ in 0..3 {
            wire.extend_from_slice(&lifted_again);
        }
        let out = d.decode_all(&wire);
        assert_eq!(
            out,
            vec![
                // The scan before it.
                Message::Scanned,
                Message::Square {
                    square: Square::E4,
                    piece: Some(p)
                },
                // e2 was not in the head and changed meanwhile: it reads
                // as in the hand.
                Message::Square {
                    square: Square::E2,
                    piece: None
                },
                Message::Scanned,
                Message::Square {
                    square: Square::E4,
                    piece: None
                },
                Message::Scanned,
                // Two whole scans alike: the board stands still.
                Message::Scanned,
            ]
        );
        assert_eq!(d.stats().garbage, 1, "still counted as a line dropped");

        // A lift the cut hid (e2 is after the cut): the cut scan reads as
        // the next, which is then no scan the board stood still in.
        let mut d = calibrated();
        let lifted = encode_scan(&moved(&[(Square::E2, None)]));
        let mut wire = cut(&lifted, 40);
        for _ in 0..3 {
            wire.extend_from_slice(&lifted);
        }
        let gone = Message::Square {
            square: Square::E2,
            piece: None,
        };
        assert_eq!(
            d.decode_all(&wire),
            vec![Message::Scanned, gone, Message::Scanned, Message::Scanned]
        );
    }

    #[test]
    fn a_cut_line_is_not_read_when_its_head_is_doubtful_but_a_weak_read_is_passed_over() {
        let start = encode_scan(&scan_of(&Board::default(), &[]));
        let e2_e4 = moved(&[(Square::E2, Some(Square::E4))]);
        let mut stranger = e2_e4;
        for (k, sq) in [Square::A8, Square::B8, Square::C8].into_iter().enumerate() {
            stranger[usize::from(sq)] = [9, 9, 9, 9, k as u8 + 1];
        }
        let mut weak = e2_e4;
        weak[usize::from(Square::A8)] = [9, 9, 9, 9, 9];
        // Three chips no calibration learnt in the head (more than weak
        // reads: its numbers may be shifted); a line with its line feed
        // but numbers missing inside (the squares after the gap would be
        // shifted); the cut line itself, and one with a weak read, for
        // comparison.
        let unknown = cut(&encode_scan(&stranger), 40);
        let mut short = encode_scan(&e2_e4);
        short.drain(20..30);
        let readable = cut(&encode_scan(&e2_e4), 40);
        let weak = cut(&encode_scan(&weak), 40);
        for (line, read) in [
            (unknown, false),
            (short, false),
            (readable, true),
            (weak, true),
        ] {
            let mut d = calibrated();
            let out = d.decode_all(&[line.as_slice(), &start, &start, &start].concat());
            let e4 = Message::Square {
                square: Square::E4,
                piece: Some(Piece::from_char('P').unwrap()),
            };
            assert_eq!(
                out.contains(&e4),
                read,
                "{}",
                String::from_utf8_lossy(&line)
            );
        }
    }

    #[test]
    fn a_cut_line_logged_is_replayed_cut() {
        let mut d = calibrated();
        let start = encode_scan(&scan_of(&Board::default(), &[]));
        let wire = [
            cut(&encode_scan(&moved(&[(Square::E2, Some(Square::E4))])), 40),
            start.clone(),
            start.clone(),
            start,
        ]
        .concat();
        let mut log = Vec::new();
        let mut live = Vec::new();
        d.decode(&wire, &mut |bytes, _| log.push(bytes.to_vec()), &mut live);
        assert!(live.len() > 3, "{live:?}");
        let mut again = calibrated();
        let replayed: Vec<u8> = log.iter().flat_map(|l| d.logged_to_wire(l)).collect();
        assert_eq!(again.decode_all(&replayed), live);
    }

    #[test]
    fn lights_are_one_byte_a_rank_from_rank_8() {
        let mut d = CertaboDecoder::new();
        // The board answers the greeting: one light a square.
        assert!(d.decode_all(b"L\r\n").is_empty());
        let lit = shakmaty::Bitboard::from(Square::E2) | shakmaty::Bitboard::from(Square::E4);
        // e4 in the fifth byte (rank 4), e2 in the seventh; file e is bit 4.
        assert_eq!(
            d.encode(HostCommand::Lights(lit)),
            [0, 0, 0, 0, 16, 0, 16, 0]
        );
        assert_eq!(decode_lights([0, 0, 0, 0, 16, 0, 16, 0]), lit);
        assert_eq!(d.encode(HostCommand::Snapshot), Vec::<u8>::new());
        assert_eq!(d.greeting(), [0; 8]);
    }
}

#[cfg(test)]
#[path = "certabo_lights_tests.rs"]
mod published_lights;

#[cfg(test)]
#[path = "certabo_captured_tests.rs"]
mod captured;
