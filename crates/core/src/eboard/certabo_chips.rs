//! What a Certabo board's RFID codes mean: the chips learnt from the
//! starting position (calibration), the start set-up found in a few scans,
//! and each square's reading settled by a majority over the last scans.
//!
//! A Certabo board knows no pieces, only a 5-byte code per square; which
//! code is which piece is learnt from the starting position, as the maker's
//! own software and `certabo-lichess` do. Spare queens for promotion stand
//! on d3 (White's) and d6 (Black's) during calibration, as the maker's
//! software and the Certabo calibrators in other programs place them
//! ("extra queen squares", board index 43 and 19).
//!
//! Pure: scans in, readings out.

use std::collections::{BTreeMap, VecDeque};

use shakmaty::{Board, Color, Piece, Role, Square};

/// The RFID code a square reports: five bytes.
pub type ChipCode = [u8; 5];

/// One scan of the board: each square's code, by game square (a1 = 0).
pub type Scan = [ChipCode; 64];

/// The code of an empty square.
pub const EMPTY: ChipCode = [0; 5];

/// Where White's spare queen stands during calibration.
pub const WHITE_SPARE_QUEEN: Square = Square::D3;
/// Where Black's spare queen stands during calibration.
pub const BLACK_SPARE_QUEEN: Square = Square::D6;

/// Scans the start set-up is judged over (a majority of them must agree
/// on every square).
pub const SETUP_SCANS: usize = 5;
/// Scans a square's reading is settled over.
pub const SETTLE_SCANS: usize = 3;

/// Whether a code means an empty square: more than two zero bytes (the
/// board reports noise such as `0 0 56 0 0` on empty squares; a chip's
/// code has at most two zeros).
pub fn is_empty_code(code: &ChipCode) -> bool {
    code.iter().filter(|&&b| b == 0).count() > 2
}

/// The code as compared: every empty reading is the same.
pub(super) fn normal(code: &ChipCode) -> ChipCode {
    if is_empty_code(code) { EMPTY } else { *code }
}

/// What a square reads as, once the chips are known.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reading {
    Empty,
    Known(Piece),
    /// A chip no calibration learnt.
    Unknown(ChipCode),
}

/// The chips learnt, each with its piece.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Chips {
    by_code: BTreeMap<ChipCode, Piece>,
}

impl Chips {
    /// No chip learnt yet: the board must be calibrated.
    pub fn is_empty(&self) -> bool {
        self.by_code.is_empty()
    }

    pub fn len(&self) -> usize {
        self.by_code.len()
    }

    /// The piece a chip was learnt as.
    pub fn piece(&self, code: &ChipCode) -> Option<Piece> {
        self.by_code.get(code).copied()
    }

    pub fn read(&self, code: &ChipCode) -> Reading {
        if is_empty_code(code) {
            Reading::Empty
        } else {
            match self.by_code.get(code) {
                Some(&piece) => Reading::Known(piece),
                None => Reading::Unknown(*code),
            }
        }
    }

    /// Learns the chips of a start set-up that are not known yet (a chip
    /// already known keeps its piece); returns how many were new.
    pub fn learn(&mut self, setup: &Setup) -> usize {
        let mut new = 0;
        for &(code, piece) in &setup.chips {
            if let std::collections::btree_map::Entry::Vacant(e) = self.by_code.entry(code) {
                e.insert(piece);
                new += 1;
            }
        }
        new
    }
}

/// Why a saved calibration could not be read: the line (from 1) and what
/// is wrong with it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChipsTextError {
    pub line: usize,
    pub problem: &'static str,
}

impl std::fmt::Display for ChipsTextError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "line {}: {}", self.line, self.problem)
    }
}

impl Chips {
    /// The chips as text, one a line: the code's five numbers and the
    /// piece's letter (FEN: upper case White), e.g. `12 200 7 31 5 Q`.
    pub fn to_text(&self) -> String {
        let mut out =
            String::from("# Certabo chips learnt by Rochade: five numbers and the piece\n");
        for (code, piece) in &self.by_code {
            let numbers: Vec<String> = code.iter().map(u8::to_string).collect();
            out.push_str(&format!("{} {}\n", numbers.join(" "), piece.char()));
        }
        out
    }

    /// Reads [`Chips::to_text`]'s text back (blank lines and `#` lines
    /// skipped); every line must be a chip's code (not an empty square's)
    /// and a piece, every code once.
    pub fn from_text(text: &str) -> Result<Chips, ChipsTextError> {
        let mut chips = Chips::default();
        for (i, line) in text.lines().enumerate() {
            let fail = |problem| ChipsTextError {
                line: i + 1,
                problem,
            };
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let words: Vec<&str> = line.split_whitespace().collect();
            let [a, b, c, d, e, letter] = words[..] else {
                return Err(fail("not five numbers and a piece"));
            };
            let mut code: ChipCode = [0; 5];
            for (byte, word) in code.iter_mut().zip([a, b, c, d, e]) {
                *byte = word.parse().map_err(|_| fail("a number is not 0 to 255"))?;
            }
            if is_empty_code(&code) {
                return Err(fail("an empty square's code, not a chip's"));
            }
            let mut letters = letter.chars();
            let piece = match (letters.next(), letters.next()) {
                (Some(l), None) => Piece::from_char(l).ok_or(fail("no piece letter"))?,
                _ => return Err(fail("no piece letter")),
            };
            if chips.by_code.insert(code, piece).is_some() {
                return Err(fail("a chip given twice"));
            }
        }
        Ok(chips)
    }
}

/// A start set-up read off the board: every chip with the piece its square
/// stands for, and the spare queens among them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setup {
    pub chips: Vec<(ChipCode, Piece)>,
    pub spare_queens: u8,
}

/// The piece a square holds in a start set-up for calibration (the start
/// position, and the spare queens' squares).
pub(super) fn setup_piece(square: Square) -> Option<Piece> {
    match square {
        WHITE_SPARE_QUEEN => Some(Piece {
            color: Color::White,
            role: Role::Queen,
        }),
        BLACK_SPARE_QUEEN => Some(Piece {
            color: Color::Black,
            role: Role::Queen,
        }),
        sq => Board::default().piece_at(sq),
    }
}

/// The last few scans, to find a start set-up that stands still.
#[derive(Clone, Debug, Default)]
pub struct Learner {
    recent: VecDeque<Scan>,
}

impl Learner {
    pub fn clear(&mut self) {
        self.recent.clear();
    }

    /// Takes a scan; returns the start set-up the board shows, if a
    /// majority of the last scans agree on every square and it is one:
    /// 32 chips, all different, on ranks 1, 2, 7 and 8; ranks 3 to 6 empty
    /// but for a spare queen on d3 or d6.
    pub fn push(&mut self, scan: &Scan) -> Option<Setup> {
        if self.recent.len() == SETUP_SCANS {
            self.recent.pop_front();
        }
        self.recent.push_back(*scan);
        // Quick refusal during play: the latest scan must look like one.
        let need = SETUP_SCANS / 2 + 1;
        if !looks_like_setup(scan) || self.recent.len() < need {
            return None;
        }
        let start = Board::default();
        let mut chips = Vec::with_capacity(34);
        let mut spare_queens = 0;
        for square in Square::ALL {
            let code = majority(
                self.recent.iter().map(|s| normal(&s[usize::from(square)])),
                need,
            )?;
            let home = start.piece_at(square).is_some();
            if home && code == EMPTY {
                return None;
            }
            if code == EMPTY {
                continue;
            }
            let piece = setup_piece(square)?;
            if !home {
                spare_queens += 1;
            }
            if chips.iter().any(|(c, _)| *c == code) {
                // One chip on two squares: a misread, not a set-up.
                return None;
            }
            chips.push((code, piece));
        }
        Some(Setup {
            chips,
            spare_queens,
        })
    }
}

/// Ranks 1, 2, 7, 8 full; ranks 3 to 6 empty but for d3 and d6.
pub(super) fn looks_like_setup(scan: &Scan) -> bool {
    Square::ALL.into_iter().all(|sq| {
        let empty = is_empty_code(&scan[usize::from(sq)]);
        match setup_piece(sq) {
            Some(_) if Board::default().piece_at(sq).is_some() => !empty,
            Some(_) => true,
            None => empty,
        }
    })
}

/// The value at least `need` of `values` share, if any.
fn majority<T: PartialEq + Copy>(
    values: impl Iterator<Item = T> + Clone,
    need: usize,
) -> Option<T> {
    let all = values.clone();
    values
        .into_iter()
        .find(|v| all.clone().filter(|w| w == v).count() >= need)
}

/// Each square's reading, settled over the last 3 scans, one scan late:
/// the middle scan's reading, unless it is empty or a chip not learnt
/// while the scans before and after it agree on a learnt chip (a weak chip
/// read as empty or as a wrong code for one scan is outvoted), and that
/// chip is read on no other square in the middle scan (every piece has a
/// chip of its own: seen elsewhere, it was moved there and back, and a
/// scan lost on the line hid the second scan it was away). Every state a
/// scan saw is kept, in order: at blitz pace a piece may stand on a square
/// for a single scan before the reply takes it.
///
/// A scan may lack squares (a line cut short: [`Settler::push_part`]).
/// Such a scan is settled once a whole scan follows it, and a square it
/// lacks reads as in the scans before and after it when they agree; when
/// they differ, in the order hands make changes (a move is done when its
/// piece lands, the reply begins with a lift): a piece the scan after
/// shows has landed, a piece it no longer shows is still there unless its
/// chip is read elsewhere (read as before, a piece paused on its way for
/// one scan would look paused for two, and a paused piece seen twice is a
/// move made). The scan after it is the "after" only of the squares it
/// brought.
#[derive(Clone, Debug, Default)]
pub struct Settler {
    /// The last scan settled (the next one's "before"), if any, then the
    /// scans not settled yet, oldest first.
    before: Option<Seen>,
    pending: Vec<Seen>,
}

/// A scan's readings, settled.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Settled {
    pub readings: [Reading; 64],
    /// The scan brought every square (else some were told from the scans
    /// around it).
    pub whole: bool,
}

/// One scan as the settler keeps it.
#[derive(Clone, Debug)]
struct Seen {
    readings: [Reading; 64],
    codes: Scan,
    /// The squares the scan brought (all but the lost end of a cut line).
    read: [bool; 64],
}

impl Seen {
    /// The scan brought every square.
    fn whole(&self) -> bool {
        self.read == [true; 64]
    }
}

impl Settler {
    /// Takes one scan's readings and its codes; returns the scans before
    /// it not settled yet, settled, oldest first (none for the first scan;
    /// two after a scan that lacked squares).
    pub fn push(&mut self, readings: [Reading; 64], scan: &Scan) -> Vec<Settled> {
        self.push_part(readings, scan, [true; 64])
    }

    /// As [`Settler::push`], for a scan that brought only the squares
    /// `read` (the others' readings and codes are not looked at). Such a
    /// scan settles nothing: it waits for a whole scan.
    pub fn push_part(
        &mut self,
        readings: [Reading; 64],
        scan: &Scan,
        read: [bool; 64],
    ) -> Vec<Settled> {
        let mut seen = Seen {
            readings,
            codes: scan.map(|c| normal(&c)),
            read,
        };
        for i in (0..64).filter(|&i| !read[i]) {
            seen.readings[i] = Reading::Empty;
            seen.codes[i] = EMPTY;
        }
        let whole = seen.whole();
        self.pending.push(seen);
        // A cut line's scan waits for a whole one; a run of cut lines
        // longer than that lets its oldest scans go unsettled, as lines
        // lost whole.
        if !whole {
            if self.pending.len() > SETTLE_SCANS {
                self.pending.remove(0);
            }
            return Vec::new();
        }
        let mut out = Vec::new();
        while self.pending.len() > 1 {
            let mut middle = self.pending.remove(0);
            let (settled, codes) = self.settle(&middle);
            let whole = middle.whole();
            // As the next scan's "before": the squares it lacked told.
            middle.readings = settled;
            middle.codes = codes;
            middle.read = [true; 64];
            self.before = Some(middle);
            out.push(Settled {
                readings: settled,
                whole,
            });
        }
        out
    }

    /// The settled readings of `middle`, the oldest scan pending, and the
    /// codes of the squares it lacked as told; the "after" of each square
    /// is the first scan after it that brought it.
    fn settle(&self, middle: &Seen) -> ([Reading; 64], Scan) {
        let mut out = middle.readings;
        let Some(b) = &self.before else {
            return (out, middle.codes);
        };
        let after = |i: usize| self.pending.iter().find(|s| s.read[i]);
        for (i, o) in out.iter_mut().enumerate() {
            // (The squares the scan lacks are told below.)
            let Some(after) = middle.read[i].then(|| after(i)).flatten() else {
                continue;
            };
            if !matches!(middle.readings[i], Reading::Known(_))
                && matches!(b.readings[i], Reading::Known(_))
                && b.readings[i] == after.readings[i]
                && !middle.codes.contains(&b.codes[i])
            {
                *o = b.readings[i];
            }
        }
        if middle.whole() {
            return (out, middle.codes);
        }
        // The squares a cut scan lacks, in the order hands make changes
        // (a move is done when its piece lands; the reply begins with a
        // lift): as before when the scan after agrees; a piece the scan
        // after shows there has landed; a piece it no longer shows is
        // still there, unless its chip is read elsewhere.
        // Every piece has a chip of its own: one read or kept on a square
        // is on no other.
        let mut codes = middle.codes;
        let mut changed = Vec::new();
        for i in (0..64).filter(|&i| !middle.read[i]) {
            match after(i) {
                Some(after) if b.readings[i] != after.readings[i] => changed.push(i),
                _ => (out[i], codes[i]) = (b.readings[i], b.codes[i]),
            }
        }
        let mut lifted = Vec::new();
        for i in changed {
            let after = after(i).expect("changed");
            if matches!(after.readings[i], Reading::Known(_)) && !codes.contains(&after.codes[i]) {
                (out[i], codes[i]) = (after.readings[i], after.codes[i]);
            } else {
                out[i] = Reading::Empty;
                lifted.push(i);
            }
        }
        for i in lifted {
            if matches!(b.readings[i], Reading::Known(_)) && !codes.contains(&b.codes[i]) {
                (out[i], codes[i]) = (b.readings[i], b.codes[i]);
            }
        }
        (out, codes)
    }

    /// Whether a chip not learnt showed in two scans running on square `i`
    /// (a stray chip, not a misread).
    pub fn unknown_stays(&self, i: usize) -> bool {
        let mut last = self
            .before
            .iter()
            .chain(&self.pending)
            .rev()
            .filter(|s| s.read[i]);
        match (last.next(), last.next()) {
            (Some(a), Some(b)) => {
                matches!(a.readings[i], Reading::Unknown(_)) && a.readings[i] == b.readings[i]
            }
            _ => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn code(n: u8) -> ChipCode {
        [n, 1, 2, 3, n.wrapping_add(7)]
    }

    /// The start position with a distinct chip per square, spare queens too.
    fn start_scan(spares: bool) -> Scan {
        let mut scan = [EMPTY; 64];
        for sq in Square::ALL {
            if Board::default().piece_at(sq).is_some()
                || (spares && (sq == WHITE_SPARE_QUEEN || sq == BLACK_SPARE_QUEEN))
            {
                scan[usize::from(sq)] = code(u8::from(sq) + 1);
            }
        }
        scan
    }

    #[test]
    fn chips_saved_as_text_read_back_the_same_and_bad_text_is_refused() {
        let mut chips = knights();
        chips.learn(&Setup {
            chips: vec![([255, 0, 1, 0, 9], Piece::from_char('q').unwrap())],
            spare_queens: 1,
        });
        let text = chips.to_text();
        assert_eq!(Chips::from_text(&text), Ok(chips));
        assert_eq!(Chips::from_text("\n# nothing\n"), Ok(Chips::default()));
        for (bad, line, problem) in [
            ("1 2 3 4 N", 1, "not five numbers and a piece"),
            ("# ok\n1 2 3 4 256 N", 2, "a number is not 0 to 255"),
            ("0 0 0 7 0 N", 1, "an empty square's code, not a chip's"),
            ("1 2 3 4 5 X", 1, "no piece letter"),
            ("1 2 3 4 5 Nb", 1, "no piece letter"),
            ("1 2 3 4 5 N\n1 2 3 4 5 n", 2, "a chip given twice"),
        ] {
            assert_eq!(
                Chips::from_text(bad),
                Err(ChipsTextError { line, problem }),
                "{bad}"
            );
        }
    }

    #[test]
    fn empty_codes_are_the_ones_with_more_than_two_zeros() {
        assert!(is_empty_code(&[0, 0, 0, 0, 0]));
        assert!(is_empty_code(&[0, 0, 56, 0, 0]));
        assert!(is_empty_code(&[201, 0, 0, 0, 0]));
        assert!(!is_empty_code(&[3, 0, 115, 87, 237]));
        assert!(!is_empty_code(&[10, 0, 0, 7, 1]));
    }

    #[test]
    fn a_start_set_up_is_learnt_once_most_scans_agree() {
        let mut l = Learner::default();
        let scan = start_scan(true);
        assert_eq!(l.push(&scan), None);
        assert_eq!(l.push(&scan), None);
        let setup = l.push(&scan).expect("three of three agree");
        assert_eq!(setup.chips.len(), 34);
        assert_eq!(setup.spare_queens, 2);
        let mut chips = Chips::default();
        assert_eq!(chips.learn(&setup), 34);
        assert_eq!(chips.learn(&setup), 0);
        assert_eq!(
            chips.read(&code(u8::from(Square::D3) + 1)),
            Reading::Known(Piece {
                color: Color::White,
                role: Role::Queen
            })
        );
        assert_eq!(
            chips.read(&code(u8::from(Square::E8) + 1)),
            Reading::Known(Piece {
                color: Color::Black,
                role: Role::King
            })
        );
        assert_eq!(chips.read(&[9, 9, 9, 9, 9]), Reading::Unknown([9; 5]));
    }

    #[test]
    fn no_set_up_while_a_piece_stands_in_the_middle_or_a_chip_shows_twice() {
        let mut l = Learner::default();
        let mut scan = start_scan(false);
        scan[usize::from(Square::E4)] = code(99);
        for _ in 0..6 {
            assert_eq!(l.push(&scan), None);
        }
        let mut twice = start_scan(false);
        twice[usize::from(Square::A1)] = twice[usize::from(Square::H1)];
        for _ in 0..6 {
            assert_eq!(l.push(&twice), None);
        }
    }

    /// Chips that know two white knights, by codes 1 and 2.
    fn knights() -> Chips {
        let knight = Piece {
            color: Color::White,
            role: Role::Knight,
        };
        let mut chips = Chips::default();
        chips.learn(&Setup {
            chips: vec![(code(1), knight), (code(2), knight)],
            spare_queens: 0,
        });
        chips
    }

    /// Pushes a scan with these codes on these squares; returns square
    /// `at`'s settled reading.
    fn settle(
        s: &mut Settler,
        chips: &Chips,
        codes: &[(usize, ChipCode)],
        at: usize,
    ) -> Option<Reading> {
        let mut scan = [EMPTY; 64];
        for &(i, c) in codes {
            scan[i] = c;
        }
        s.push(scan.map(|c| chips.read(&c)), &scan)
            .last()
            .map(|r| r.readings[at])
    }

    #[test]
    fn a_weak_read_in_one_scan_is_outvoted() {
        let chips = knights();
        let knight = chips.read(&code(1));
        let mut s = Settler::default();
        let on_b = [(1, code(1))];
        assert_eq!(
            settle(&mut s, &chips, &on_b, 1),
            None,
            "a scan is settled by the next one"
        );
        assert_eq!(settle(&mut s, &chips, &on_b, 1), Some(knight));
        assert_eq!(settle(&mut s, &chips, &[(1, [7; 5])], 1), Some(knight));
        assert_eq!(settle(&mut s, &chips, &on_b, 1), Some(knight));
        assert_eq!(
            settle(&mut s, &chips, &[(1, [0, 0, 9, 0, 0])], 1),
            Some(knight)
        );
        assert_eq!(
            settle(&mut s, &chips, &on_b, 1),
            Some(knight),
            "read empty once: weak"
        );
        // Lifted: empty in two scans of three.
        assert_eq!(settle(&mut s, &chips, &[], 1), Some(knight));
        assert_eq!(settle(&mut s, &chips, &[], 1), Some(Reading::Empty));
    }

    /// Pushes a scan that brought only the squares from `first` on; the
    /// settled scans it let out.
    fn settle_part(
        s: &mut Settler,
        chips: &Chips,
        codes: &[(usize, ChipCode)],
        first: usize,
    ) -> usize {
        let mut scan = [EMPTY; 64];
        for &(i, c) in codes {
            scan[i] = c;
        }
        let read = std::array::from_fn(|i| i >= first);
        s.push_part(scan.map(|c| chips.read(&c)), &scan, read).len()
    }

    #[test]
    fn a_square_a_cut_scan_lacks_reads_as_hands_make_changes() {
        let chips = knights();
        let knight = chips.read(&code(1));
        let on = |sq: usize| [(sq, code(1))];
        let push = |s: &mut Settler, codes: &[(usize, ChipCode)]| {
            let mut scan = [EMPTY; 64];
            for &(i, c) in codes {
                scan[i] = c;
            }
            s.push(scan.map(|c| chips.read(&c)), &scan)
        };
        // The cut scans below lack squares 0 to 8.
        // Unchanged around it: as before; it waits for the scan after it.
        let mut s = Settler::default();
        push(&mut s, &on(1));
        push(&mut s, &on(1));
        assert_eq!(settle_part(&mut s, &chips, &[], 9), 0, "it waits");
        let settled = push(&mut s, &on(1));
        assert_eq!(settled.len(), 2, "the scan before it, and it");
        assert!(settled[0].whole);
        assert_eq!((settled[1].readings[1], settled[1].whole), (knight, false));
        // Moved on meanwhile (paused on b1 for one scan, then on c1): it
        // has landed on c1, and is not paused on b1 twice.
        let mut s = Settler::default();
        push(&mut s, &on(0));
        push(&mut s, &on(1));
        settle_part(&mut s, &chips, &[], 9);
        let settled = push(&mut s, &on(2));
        assert_eq!(settled.len(), 2);
        assert_eq!(settled[1].readings[1], Reading::Empty);
        assert_eq!(settled[1].readings[2], knight);
        // Gone in the scan after it (lifted, or read weak there): still
        // there in the cut scan, a lift begins no sooner than it must.
        let mut s = Settler::default();
        push(&mut s, &on(1));
        push(&mut s, &on(1));
        settle_part(&mut s, &chips, &[], 9);
        let settled = push(&mut s, &[]);
        assert_eq!(settled[1].readings[1], knight, "the cut scan's square");
        let settled = push(&mut s, &on(1));
        assert_eq!(settled[0].readings[1], knight, "the weak read outvoted");
    }

    #[test]
    fn a_chip_read_on_another_square_in_between_was_moved_there_and_back() {
        let chips = knights();
        let knight = chips.read(&code(1));
        let mut s = Settler::default();
        let home = [(1, code(1)), (9, code(2))];
        settle(&mut s, &chips, &home, 1);
        // The knight to c1 and back, one of its two scans away lost on the
        // line; the other knight read weak on b2 meanwhile.
        assert_eq!(settle(&mut s, &chips, &[(2, code(1))], 1), Some(knight));
        let mut s2 = s.clone();
        assert_eq!(
            settle(&mut s, &chips, &home, 1),
            Some(Reading::Empty),
            "its own chip on c1: moved"
        );
        assert_eq!(
            settle(&mut s2, &chips, &home, 9),
            Some(knight),
            "b2's chip seen nowhere: a weak read"
        );
    }
}
