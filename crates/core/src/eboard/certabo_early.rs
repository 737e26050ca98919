//! A Certabo board calibrated from the first scans that showed the
//! starting position, when the hands left it too soon for the
//! [`Learner`](super::certabo_chips::Learner) (which waits for most of five
//! scans in a row to agree): a board silent for a while that is moved 0.3 s
//! after it first answers, or a first move 0.1 s after `track` starts,
//! was never calibrated and no move of the game was announced.
//!
//! A chip is told by its code: a code read in two scans or more is a chip
//! (a weak read's wrong code is read once), and where it was first read
//! is where it stood. When every square of the start set-up had its chip
//! first (a move came after the scans that showed the set-up), or every
//! square but one, whose piece was first read where a first move takes it
//! (the move came before the first scan), the set-up is learnt; the host
//! is then given the start position, and the move follows as changes.
//! When the board stands near a set-up but fits neither (two moves came
//! first), the player is asked again to set up the starting position.
//!
//! Pure: scans in, a set-up out.

use std::collections::{BTreeMap, BTreeSet, VecDeque};

use shakmaty::{Board, Chess, Position, Square};

use super::certabo_chips::{
    BLACK_SPARE_QUEEN, ChipCode, EMPTY, Scan, Setup, WHITE_SPARE_QUEEN, looks_like_setup, normal,
    setup_piece,
};
use crate::eboard::Pieces;

/// Whole scans looked back over (3 s at the board's pace).
pub const EARLY_SCANS: usize = 12;
/// Scans the board may stand near a start set-up without being learnt
/// before the player is asked again (2 s at the board's pace).
pub const ASK_AGAIN_AFTER: usize = 8;
/// Squares that may differ from a start set-up for the board to stand
/// "near" one (two moves each side).
const NEAR: usize = 8;

/// A start set-up learnt from the first scans, and the position it was.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EarlySetup {
    pub setup: Setup,
    /// The start position (with spare queens if they stood there).
    pub start: Pieces,
}

/// The last scans of a board not calibrated yet.
#[derive(Clone, Debug, Default)]
pub struct EarlyLearner {
    recent: VecDeque<Scan>,
    /// Scans since the board came near a start set-up that was not learnt.
    near_scans: usize,
}

impl EarlyLearner {
    /// Takes a whole scan; true when the player is to be asked again to
    /// set up the starting position (once per stay near a set-up).
    pub fn push(&mut self, scan: &Scan) -> bool {
        if self.recent.len() == EARLY_SCANS {
            self.recent.pop_front();
        }
        self.recent.push_back(*scan);
        let chips = scan.iter().filter(|c| normal(c) != EMPTY).count();
        let off = misfits(scan);
        if off == 0 || chips < 30 {
            // A set-up (the learner's to take), or pieces being put up.
            self.near_scans = 0;
        } else if chips >= 32 && off <= NEAR {
            self.near_scans += 1;
            return self.near_scans == ASK_AGAIN_AFTER;
        }
        false
    }

    /// The start set-up the last scans showed before a move, if they tell
    /// it (see the module's comment).
    pub fn setup(&self) -> Option<EarlySetup> {
        // Each code: how many scans read it, and where it was first read.
        let mut seen: BTreeMap<ChipCode, (usize, Square)> = BTreeMap::new();
        for scan in &self.recent {
            let mut in_scan = BTreeSet::new();
            for square in Square::ALL {
                let code = normal(&scan[usize::from(square)]);
                if code == EMPTY || !in_scan.insert(code) {
                    continue;
                }
                seen.entry(code).or_insert((0, square)).0 += 1;
            }
        }
        let mut first_on: [Option<ChipCode>; 64] = [None; 64];
        for (code, (scans, square)) in seen {
            // Read once: a weak read's wrong code.
            if scans >= 2 && first_on[usize::from(square)].replace(code).is_some() {
                // Two chips first read on one square: a piece put where
                // another was lifted, no set-up.
                return None;
            }
        }
        let start = Board::default();
        let home_empty: Vec<Square> = Square::ALL
            .into_iter()
            .filter(|&sq| start.piece_at(sq).is_some() && first_on[usize::from(sq)].is_none())
            .collect();
        let strays: Vec<Square> = Square::ALL
            .into_iter()
            .filter(|&sq| setup_piece(sq).is_none() && first_on[usize::from(sq)].is_some())
            .collect();
        let mut chips = Vec::with_capacity(34);
        let mut pieces: Pieces = [None; 64];
        let mut spare_queens = 0;
        for square in Square::ALL {
            if let (Some(code), Some(piece)) = (first_on[usize::from(square)], setup_piece(square))
            {
                chips.push((code, piece));
                pieces[usize::from(square)] = Some(piece);
                spare_queens += u8::from(start.piece_at(square).is_none());
            }
        }
        let first_move = |from: Square, to: Square| {
            let moves = Chess::default().legal_moves();
            moves.iter().any(|m| m.from() == Some(from) && m.to() == to)
        };
        let moved_to = match (&home_empty[..], &strays[..]) {
            ([], []) => None,
            (&[from], &[to]) => Some((from, to)),
            // A first move onto a spare queen's square (d2-d3): the chip
            // there is the pawn, not a spare queen (a queen there would
            // have kept the pawn from going), unless the other spare
            // queen stands too (then the pawn is in the hand).
            (&[from], []) => {
                let spares = [WHITE_SPARE_QUEEN, BLACK_SPARE_QUEEN];
                let standing = spares
                    .iter()
                    .filter(|&&sq| first_on[usize::from(sq)].is_some());
                if standing.count() != 1 {
                    return None;
                }
                let spare = spares
                    .into_iter()
                    .find(|&sq| first_on[usize::from(sq)].is_some() && first_move(from, sq))?;
                let code = first_on[usize::from(spare)];
                chips.retain(|&(c, _)| Some(c) != code);
                pieces[usize::from(spare)] = None;
                spare_queens -= 1;
                Some((from, spare))
            }
            _ => return None,
        };
        if let Some((from, to)) = moved_to {
            // The move came before the first scan: its piece is the one
            // first read where a first move from `from` goes.
            if !first_move(from, to) {
                return None;
            }
            let piece = start.piece_at(from)?;
            let code = first_on[usize::from(to)]?;
            chips.push((code, piece));
            pieces[usize::from(from)] = Some(piece);
        }
        Some(EarlySetup {
            setup: Setup {
                chips,
                spare_queens,
            },
            start: pieces,
        })
    }
}

/// Squares that do not fit a start set-up: a home square empty, a piece
/// elsewhere but on a spare queen's square.
fn misfits(scan: &Scan) -> usize {
    if looks_like_setup(scan) {
        return 0;
    }
    let start = Board::default();
    Square::ALL
        .into_iter()
        .filter(|&sq| {
            let empty = normal(&scan[usize::from(sq)]) == EMPTY;
            match setup_piece(sq) {
                Some(_) if start.piece_at(sq).is_some() => empty,
                Some(_) => false,
                None => !empty,
            }
        })
        .count()
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::{Color, Piece, Role};

    fn code(n: u8) -> ChipCode {
        [n, 7, n.wrapping_mul(3) | 1, 5, 200 - n]
    }

    /// The start position, each piece's chip `code(its square + 1)`.
    fn start_scan() -> Scan {
        let mut scan = [EMPTY; 64];
        for (sq, _) in &Board::default() {
            scan[usize::from(sq)] = code(u8::from(sq) + 1);
        }
        scan
    }

    fn moved(scan: &Scan, from: Square, to: Option<Square>) -> Scan {
        let mut out = *scan;
        let chip = std::mem::replace(&mut out[usize::from(from)], EMPTY);
        if let Some(to) = to {
            out[usize::from(to)] = chip;
        }
        out
    }

    fn learnt(scans: &[Scan]) -> Option<EarlySetup> {
        let mut l = EarlyLearner::default();
        for scan in scans {
            l.push(scan);
        }
        l.setup()
    }

    fn pawn() -> Piece {
        Piece {
            color: Color::White,
            role: Role::Pawn,
        }
    }

    #[test]
    fn one_scan_of_the_start_then_the_move_is_enough() {
        let start = start_scan();
        let lifted = moved(&start, Square::E2, None);
        let e4 = moved(&start, Square::E2, Some(Square::E4));
        assert_eq!(learnt(&[start, lifted]), None, "the pawn's chip read once");
        let got = learnt(&[start, lifted, e4]).expect("learnt");
        assert_eq!(got.setup.chips.len(), 32);
        assert!(
            got.setup
                .chips
                .contains(&(code(u8::from(Square::E2) + 1), pawn()))
        );
        assert_eq!(
            got.start,
            crate::eboard::pieces::pieces_of_board(Board::default())
        );
        // A weak read's wrong code (once) is passed over; an empty read
        // of a chip read in other scans too.
        let mut weak = start;
        weak[usize::from(Square::A1)] = [9, 9, 9, 9, 9];
        weak[usize::from(Square::H8)] = EMPTY;
        assert!(learnt(&[weak, lifted, e4]).is_some());
    }

    #[test]
    fn a_move_before_the_first_scan_is_told_by_where_its_piece_went() {
        let start = start_scan();
        let lifted = moved(&start, Square::G1, None);
        let f3 = moved(&start, Square::G1, Some(Square::F3));
        let got = learnt(&[lifted, f3, f3]).expect("learnt");
        let knight = Piece {
            color: Color::White,
            role: Role::Knight,
        };
        assert!(
            got.setup
                .chips
                .contains(&(code(u8::from(Square::G1) + 1), knight))
        );
        assert_eq!(got.start[usize::from(Square::G1)], Some(knight));
        // d2-d3 goes to the white spare queen's square: a pawn there.
        let d3 = moved(&start, Square::D2, Some(Square::D3));
        let got = learnt(&[d3, d3, d3]).expect("learnt");
        assert_eq!(got.setup.spare_queens, 0);
        assert!(
            got.setup
                .chips
                .contains(&(code(u8::from(Square::D2) + 1), pawn()))
        );
        assert_eq!(got.start[usize::from(Square::D3)], None);
        assert_eq!(got.start[usize::from(Square::D2)], Some(pawn()));
        // The pawn in the hand while both spare queens stand: not told
        // (the queen on d3 is no pawn).
        let mut spares = moved(&start, Square::D2, None);
        spares[usize::from(Square::D3)] = code(70);
        spares[usize::from(Square::D6)] = code(71);
        assert_eq!(learnt(&[spares, spares, spares]), None);
        // No first move goes from g1 to g4; two moves are not told.
        assert_eq!(
            learnt(&[moved(&start, Square::G1, Some(Square::G4)); 3]),
            None
        );
        let e5 = moved(&f3, Square::E7, Some(Square::E5));
        assert_eq!(learnt(&[e5, e5, e5]), None);
    }

    #[test]
    fn near_a_set_up_not_learnt_the_player_is_asked_again_once() {
        let start = start_scan();
        let two_moves = moved(
            &moved(&start, Square::E2, Some(Square::E4)),
            Square::E7,
            Some(Square::E5),
        );
        let mut l = EarlyLearner::default();
        let asked: Vec<bool> = (0..3 * ASK_AGAIN_AFTER)
            .map(|_| l.push(&two_moves))
            .collect();
        assert_eq!(asked.iter().filter(|&&a| a).count(), 1);
        assert!(asked[ASK_AGAIN_AFTER - 1]);
        // Pieces being put up (fewer than 30) are no reason to ask.
        let mut l = EarlyLearner::default();
        let mut half = start;
        for sq in Square::ALL.into_iter().take(16) {
            half[usize::from(sq)] = EMPTY;
        }
        assert!((0..3 * ASK_AGAIN_AFTER).all(|_| !l.push(&half)));
    }
}
