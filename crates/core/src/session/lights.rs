//! Which squares an e-board with LEDs lights: the move the board still has
//! to make, the way back after a takeback, or the squares that differ once
//! the guidance time ran out; dark when the board agrees with the game.
//!
//! A low-vision player sees where to move; the assistant sees what the
//! blind player's board expects. Pure: computed from the recognizer's view
//! of the board and the record, in game coordinates, then turned to the
//! board's own when it lies the other way round.

use shakmaty::{Bitboard, Board, Chess, Color, Move, Position};

use crate::chess::GameRecord;
use crate::eboard::Recognizer;

/// How many plies back a board that lags the game is looked for: a board
/// further behind than this is shown its differing squares instead.
const BEHIND_PLIES: usize = 8;

/// The squares to light (board coordinates) now. `way_back`: the moves
/// taken back from the record that the board may still show, oldest
/// first; `lit`: what is lit now, kept while the pieces are in the hand.
pub(super) fn squares(
    rec: &Recognizer,
    record: &GameRecord,
    way_back: &[Move],
    lit: Bitboard,
) -> Bitboard {
    // Pieces in the hand: the lights stay as they are until the board
    // stands still.
    if rec.settling() {
        return lit;
    }
    let Some(seen) = rec.seen() else {
        return Bitboard::EMPTY;
    };
    let game = rec.position();
    let squares = if game.board() == &seen {
        Bitboard::EMPTY
    } else if let Some(mv) = still_to_make(&seen, record) {
        mv
    } else if let Some(mv) = way_back_shown(&seen, game, way_back) {
        mv
    } else if rec.guided() {
        let differs = difference(&seen, game.board());
        // Half way through the last move (a piece still in the hand): that
        // move stays lit; anything else shows where the board differs.
        match last_move_touching(record, differs) {
            Some(mv) => mv,
            None => differs,
        }
    } else {
        // Matches nothing yet (a piece set down on the way): what was
        // lit stays until the guidance time runs out.
        return lit;
    };
    if rec.orientation().is_turned() {
        squares.flip_vertical().flip_horizontal()
    } else {
        squares
    }
}

/// The board shows a position the game passed through: the squares of the
/// next move from there (a move made elsewhere, not yet on this board).
fn still_to_make(seen: &Board, record: &GameRecord) -> Option<Bitboard> {
    let moves = record.moves();
    (moves.len().saturating_sub(BEHIND_PLIES)..moves.len())
        .rev()
        .find(|&k| record.position_before(k).board() == seen)
        .map(|k| move_squares(moves[k].mv, record.position_before(k).turn()))
}

/// The squares of the record's last move when every square where the
/// board differs is one that move changed.
fn last_move_touching(record: &GameRecord, differs: Bitboard) -> Option<Bitboard> {
    let last = record.moves().len().checked_sub(1)?;
    let before = record.position_before(last);
    let changed = difference(before.board(), record.position().board());
    (differs.is_subset(changed)).then(|| move_squares(record.moves()[last].mv, before.turn()))
}

/// The board shows a position after moves taken back (elsewhere): the
/// squares of the last move it still shows, the first to undo.
fn way_back_shown(seen: &Board, game: &Chess, way_back: &[Move]) -> Option<Bitboard> {
    let mut pos = game.clone();
    for &mv in way_back {
        if !pos.is_legal(mv) {
            return None;
        }
        let mover = pos.turn();
        pos.play_unchecked(mv);
        if pos.board() == seen {
            return Some(move_squares(mv, mover));
        }
    }
    None
}

/// The squares a move is shown on: from and to; castling the king's two
/// squares; en passant the capturing pawn's.
pub(super) fn move_squares(mv: Move, mover: Color) -> Bitboard {
    match mv {
        Move::Castle { king, .. } => {
            let side = mv.castling_side().expect("castling has a side");
            Bitboard::from(king) | Bitboard::from(side.king_to(mover))
        }
        Move::Normal { from, to, .. } | Move::EnPassant { from, to } => {
            Bitboard::from(from) | Bitboard::from(to)
        }
        Move::Put { to, .. } => Bitboard::from(to),
    }
}

/// The squares whose piece differs between two boards.
fn difference(a: &Board, b: &Board) -> Bitboard {
    shakmaty::Square::ALL
        .into_iter()
        .filter(|&sq| a.piece_at(sq) != b.piece_at(sq))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::Square;

    #[test]
    fn castling_lights_the_kings_squares_and_en_passant_the_pawns() {
        let castle = Move::Castle {
            king: Square::E8,
            rook: Square::A8,
        };
        assert_eq!(
            move_squares(castle, Color::Black),
            Bitboard::from(Square::E8) | Bitboard::from(Square::C8)
        );
        let ep = Move::EnPassant {
            from: Square::E5,
            to: Square::D6,
        };
        assert_eq!(
            move_squares(ep, Color::White),
            Bitboard::from(Square::E5) | Bitboard::from(Square::D6)
        );
    }
}
