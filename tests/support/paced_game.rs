//! A game played on a peg-board at a fixed pace, with one sensor that goes
//! wrong on the way: the snapshots the board sends, with their times.
//! Each ply's steps (a capture's piece taken off, the piece lifted, put
//! down; castling's king and rook) are spread over the ply's time; the
//! board repeats its state as a heartbeat at least once a second.
//! Included with `#[path]` by the tests that need it.
#![allow(dead_code)]

use shakmaty::{Bitboard, CastlingSide, Chess, Move, Position, Square};

/// What goes wrong with one sensor, and from when.
#[derive(Clone, Copy, Debug)]
pub enum Fault {
    /// The sensor always reports a peg.
    Stuck(Square),
    /// The sensor never reports a peg.
    Dead(Square),
}

impl Fault {
    pub fn square(self) -> Square {
        match self {
            Fault::Stuck(sq) | Fault::Dead(sq) => sq,
        }
    }

    fn apply(self, mask: u64) -> u64 {
        match self {
            Fault::Stuck(sq) => mask | 1 << u32::from(sq),
            Fault::Dead(sq) => mask & !(1 << u32::from(sq)),
        }
    }
}

/// The snapshots (ms, mask as sent) of `moves` from the start position,
/// one ply every `ply_ms`, the first at `ply_ms`; the fault from
/// `fault_ms` on.
pub fn paced_frames(moves: &[Move], ply_ms: u64, fault: Fault, fault_ms: u64) -> Vec<(u64, u64)> {
    let mut pos = Chess::default();
    let mut occ = pos.board().occupied();
    // The true board over time: (ms, occupancy).
    let mut states: Vec<(u64, u64)> = vec![(0, occ.0)];
    for (i, &mv) in moves.iter().enumerate() {
        let steps = hand_steps(&pos, mv);
        let start = (i as u64 + 1) * ply_ms;
        let gap = ply_ms / (steps.len() as u64 + 1);
        for (k, (square, put)) in steps.into_iter().enumerate() {
            occ.set(square, put);
            states.push((start + k as u64 * gap, occ.0));
        }
        pos.play_unchecked(mv);
        assert_eq!(occ, pos.board().occupied(), "{mv:?}");
    }
    let end = (moves.len() as u64 + 4) * ply_ms + 3000;
    // Frames: every change of the true board or of the fault, and a
    // heartbeat within every second.
    let mut times: Vec<u64> = states.iter().map(|s| s.0).collect();
    times.push(fault_ms);
    times.extend((0..=end).step_by(900));
    times.sort_unstable();
    times.dedup();
    times
        .into_iter()
        .map(|t| {
            let truth = states.iter().rev().find(|s| s.0 <= t).unwrap().1;
            let sent = if t >= fault_ms {
                fault.apply(truth)
            } else {
                truth
            };
            (t, sent)
        })
        .collect()
}

/// The holes a hand empties and fills for a move, in order.
fn hand_steps(pos: &Chess, mv: Move) -> Vec<(Square, bool)> {
    match mv {
        Move::Normal {
            from, to, capture, ..
        } => {
            let mut steps = Vec::new();
            if capture.is_some() {
                steps.push((to, false));
            }
            steps.extend([(from, false), (to, true)]);
            steps
        }
        Move::EnPassant { from, to } => {
            let taken = Square::from_coords(to.file(), from.rank());
            vec![(from, false), (to, true), (taken, false)]
        }
        Move::Castle { king, rook } => {
            let side = CastlingSide::from_king_side(rook > king);
            let turn = pos.turn();
            vec![
                (king, false),
                (side.king_to(turn), true),
                (rook, false),
                (side.rook_to(turn), true),
            ]
        }
        Move::Put { .. } => unreachable!("no drops in chess"),
    }
}

/// The squares no move of `moves` (from ply `from` on) lands on, with the
/// occupancy of each ply: a stuck sensor there hides no move.
pub fn untouched_from(moves: &[Move], from: usize) -> Bitboard {
    let mut pos = Chess::default();
    let mut landed = Bitboard::EMPTY;
    for (i, &mv) in moves.iter().enumerate() {
        if i >= from {
            landed |= hand_steps(&pos, mv)
                .into_iter()
                .filter(|s| s.1)
                .fold(Bitboard::EMPTY, |b, s| b | s.0);
            if let Move::Normal { to, .. } = mv {
                landed.add(to);
            }
        }
        pos.play_unchecked(mv);
    }
    !landed
}

/// The moves of a SAN list from the start position.
pub fn sans(list: &[&str]) -> Vec<Move> {
    let mut pos = Chess::default();
    list.iter()
        .map(|s| {
            let mv = s
                .parse::<shakmaty::san::San>()
                .unwrap()
                .to_move(&pos)
                .unwrap();
            pos.play_unchecked(mv);
            mv
        })
        .collect()
}

/// A Ruy Lopez to move 8: a3 stays empty and the pawn on h2 never moves.
pub const RUY_LOPEZ: [&str; 16] = [
    "e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Ba4", "Nf6", "O-O", "Be7", "Re1", "b5", "Bb3", "d6",
    "c3", "O-O",
];
