//! A person's hands at a full-position e-board, as a list of timed square
//! changes: every e-board's emulator test (Millennium, Certabo, Chessnut,
//! Pegasus) turns these into its own board's reports and bytes, so all
//! boards are played the same way.
//!
//! The hands vary as on a real board: captures with the taken piece off
//! first or last, castling king or rook first, en passant in either order,
//! slides (a piece set down on the way and lifted again), a piece lifted
//! and put back, at a human pace and at blitz pace (a hand step every
//! 30-170 ms, the reply 100-400 ms after the move). Games: the self-play
//! corpus `tests/data/selfplay.pgn` (330 games).
//!
//! Included with `#[path]` next to `rng.rs`:
//! `#[path = "support/rng.rs"] mod rng;` and
//! `#[path = "support/eboard_hands.rs"] mod eboard_hands;`.
#![allow(dead_code)]

use rochade::pgn::{Games, ReadOptions};
use shakmaty::{Board, CastlingSide, Chess, Move, Piece, Position, Square};

use super::rng::Rng;

/// The self-play corpus: 330 games, as moves from the start position.
pub fn selfplay() -> Vec<Vec<Move>> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/selfplay.pgn");
    let text = std::fs::read(path).expect("tests/data/selfplay.pgn");
    Games::new(&text[..], ReadOptions::default())
        .map(|game| {
            let record = game.record.expect("a game");
            record.moves().iter().map(|m| m.mv).collect()
        })
        .collect()
}

/// How fast the hands are.
#[derive(Clone, Copy, Debug)]
pub struct Pace {
    /// Between two steps of one hand, in ms.
    pub step: (u64, u64),
    /// Between one move's last step and the reply's first, in ms.
    pub between: (u64, u64),
}

pub const HUMAN: Pace = Pace {
    step: (150, 600),
    between: (800, 3000),
};

pub const BLITZ: Pace = Pace {
    step: (30, 170),
    between: (100, 400),
};

/// One square set or emptied by a hand, at a time in ms.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Change {
    pub at_ms: u64,
    pub square: Square,
    pub piece: Option<Piece>,
}

/// What the hands did in a game.
#[derive(Clone, Debug, Default)]
pub struct Played {
    /// Every change, in time order.
    pub changes: Vec<Change>,
    /// When each move's last change was made (index: ply).
    pub move_done_ms: Vec<u64>,
    /// Slides made (a piece set down on the way).
    pub slides: u64,
    /// Pieces lifted and put back.
    pub put_back: u64,
    /// The time after the last move, with the reply pause added.
    pub end_ms: u64,
}

/// The hands playing `moves` from the start position, the first step at
/// `start_ms`.
pub fn play_game(moves: &[Move], pace: Pace, rng: &mut Rng, start_ms: u64) -> Played {
    let mut hands = Hands {
        board: Board::default(),
        now: start_ms,
        rng,
        pace,
        played: Played::default(),
    };
    let mut pos = Chess::default();
    for &mv in moves {
        hands.play(&pos, mv);
        let done = hands.played.changes.last().map_or(start_ms, |c| c.at_ms);
        hands.played.move_done_ms.push(done);
        let (lo, hi) = hands.pace.between;
        hands.now += hands.rng.between(lo, hi);
        pos.play_unchecked(mv);
    }
    hands.played.end_ms = hands.now;
    hands.played
}

/// Applies a change to a board (what an emulator holds).
pub fn apply(board: &mut Board, change: &Change) {
    match change.piece {
        Some(p) => board.set_piece_at(change.square, p),
        None => {
            board.discard_piece_at(change.square);
        }
    }
}

struct Hands<'a> {
    board: Board,
    now: u64,
    rng: &'a mut Rng,
    pace: Pace,
    played: Played,
}

impl Hands<'_> {
    /// One square changes, then the hand's next step comes a little later.
    fn set(&mut self, square: Square, piece: Option<Piece>) {
        let change = Change {
            at_ms: self.now,
            square,
            piece,
        };
        apply(&mut self.board, &change);
        self.played.changes.push(change);
        let (lo, hi) = self.pace.step;
        self.now += self.rng.between(lo, hi);
    }

    fn lift(&mut self, sq: Square) -> Piece {
        let p = self.board.piece_at(sq).expect("a piece to lift");
        self.set(sq, None);
        p
    }

    /// A piece carried from one square to another, sometimes set down on
    /// the way and lifted again (a slide).
    fn carry(&mut self, from: Square, to: Square, piece: Piece) {
        let on_the_way = shakmaty::attacks::between(from, to) & !self.board.occupied();
        if on_the_way.any() && self.rng.chance(25) {
            let stop = on_the_way
                .into_iter()
                .nth(self.rng.below(on_the_way.count() as u64) as usize);
            if let Some(stop) = stop {
                self.played.slides += 1;
                self.set(stop, Some(piece));
                self.set(stop, None);
            }
        }
        self.set(to, Some(piece));
    }

    fn play(&mut self, pos: &Chess, mv: Move) {
        // Now and then a piece of the mover lifted and put back first.
        if self.rng.chance(8) {
            let own: Vec<Square> = pos.board().by_color(pos.turn()).into_iter().collect();
            let sq = own[self.rng.below(own.len() as u64) as usize];
            let p = self.lift(sq);
            self.set(sq, Some(p));
            self.played.put_back += 1;
        }
        match mv {
            Move::Normal {
                from,
                to,
                capture,
                promotion,
                ..
            } => {
                let mut moved = pos.board().piece_at(from).expect("mover");
                if let Some(role) = promotion {
                    moved.role = role;
                }
                if capture.is_some() && self.rng.chance(50) {
                    self.lift(to);
                    self.lift(from);
                    self.carry(from, to, moved);
                } else if capture.is_some() {
                    self.lift(from);
                    self.lift(to);
                    self.set(to, Some(moved));
                } else {
                    self.lift(from);
                    self.carry(from, to, moved);
                }
            }
            Move::EnPassant { from, to } => {
                let taken = Square::from_coords(to.file(), from.rank());
                if self.rng.chance(50) {
                    self.lift(taken);
                    let p = self.lift(from);
                    self.set(to, Some(p));
                } else {
                    let p = self.lift(from);
                    self.set(to, Some(p));
                    self.lift(taken);
                }
            }
            Move::Castle { king, rook } => {
                let side = CastlingSide::from_king_side(rook > king);
                let (k2, r2) = (side.king_to(pos.turn()), side.rook_to(pos.turn()));
                let (kp, rp) = (
                    pos.board().piece_at(king).expect("king"),
                    pos.board().piece_at(rook).expect("rook"),
                );
                if self.rng.chance(50) {
                    self.lift(king);
                    self.set(k2, Some(kp));
                    self.lift(rook);
                    self.set(r2, Some(rp));
                } else {
                    self.lift(rook);
                    self.set(r2, Some(rp));
                    self.lift(king);
                    self.set(k2, Some(kp));
                }
            }
            Move::Put { .. } => unreachable!(),
        }
    }
}
