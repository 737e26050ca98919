//! Moves the puzzle tests play: a wrong one the pegs can make.
//! Included with `#[path]`.
#![allow(dead_code)]

use shakmaty::{Chess, Move, Position};

/// A move with two pegs: no castling, promotion or en passant.
pub fn plain(mv: &Move) -> bool {
    matches!(
        mv,
        Move::Normal {
            promotion: None,
            ..
        }
    )
}

/// A quiet, plain, legal move in `pos` that is not `right` and does not
/// mate: a wrong answer to a puzzle.
pub fn quiet_wrong_move(pos: &Chess, right: &Move) -> Move {
    pos.legal_moves()
        .into_iter()
        .find(|m| {
            let mut after = pos.clone();
            after.play_unchecked(*m);
            m != right && plain(m) && !m.is_capture() && !after.is_checkmate()
        })
        .expect("a quiet wrong move")
}
