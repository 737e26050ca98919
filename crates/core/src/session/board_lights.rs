//! Which squares an occupancy board with LEDs (the DGT Pegasus) lights,
//! from the peg-board tracker's view: the move made elsewhere that the
//! board still has to make; the squares that differ once guidance was
//! given; dark when the board agrees with the game. While pieces are in
//! the hand (a board that matches nothing yet, no guidance due) what is
//! lit stays. Pure; game coordinates turned to the board's own when it
//! lies the other way round.

use shakmaty::{Bitboard, Position};

use crate::board::Tracker;
use crate::chess::GameRecord;

/// The squares to light (board coordinates) now. `guided`: guidance was
/// given for the board as it stands; `lit`: what is lit now.
pub(super) fn squares(
    tracker: &Tracker,
    record: &GameRecord,
    guided: bool,
    lit: Bitboard,
) -> Bitboard {
    let differs = tracker.difference();
    let squares = if differs.is_empty() {
        Bitboard::EMPTY
    } else if let Some(mv) = tracker
        .awaiting_board()
        .then(|| last_move(record))
        .flatten()
    {
        mv
    } else if guided {
        differs
    } else {
        return lit;
    };
    if tracker.orientation().is_turned() {
        squares.flip_vertical().flip_horizontal()
    } else {
        squares
    }
}

/// The squares of the record's last move (from and to; castling the
/// king's).
fn last_move(record: &GameRecord) -> Option<Bitboard> {
    let last = record.moves().len().checked_sub(1)?;
    let mover = record.position_before(last).turn();
    Some(super::lights::move_squares(record.moves()[last].mv, mover))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{BoardMask, TrackerConfig};
    use shakmaty::{Chess, Square, uci::UciMove};

    fn play(record: &mut GameRecord, uci: &str) -> shakmaty::Move {
        let mv = uci
            .parse::<UciMove>()
            .unwrap()
            .to_move(record.position())
            .unwrap();
        record.play(mv, None).unwrap();
        mv
    }

    #[test]
    fn a_move_made_elsewhere_is_lit_until_made_then_dark() {
        let mut tracker = Tracker::new(TrackerConfig::default(), Chess::default());
        let mut out = Vec::new();
        let start = BoardMask(0xFFFF_0000_0000_FFFF);
        tracker.on_snapshot(0, start, &mut out);
        tracker.on_tick(1000, &mut out);
        let mut record = GameRecord::default();
        assert_eq!(
            squares(&tracker, &record, false, Bitboard::EMPTY),
            Bitboard::EMPTY
        );
        let mv = play(&mut record, "e2e4");
        tracker.apply_external(1000, mv, &mut out);
        let e2e4 = Bitboard::from(Square::E2) | Square::E4;
        assert_eq!(squares(&tracker, &record, false, Bitboard::EMPTY), e2e4);
        // Made on the board: dark.
        let after = start.0 & !(1 << 12) | 1 << 28;
        tracker.on_snapshot(2000, BoardMask(after), &mut out);
        tracker.on_tick(3000, &mut out);
        assert_eq!(squares(&tracker, &record, false, e2e4), Bitboard::EMPTY);
        // A piece in the hand: what is lit stays; once guided, the
        // differing square.
        tracker.on_snapshot(4000, BoardMask(after & !1), &mut out);
        tracker.on_tick(4200, &mut out);
        let a1 = Bitboard::from(Square::A1);
        assert_eq!(squares(&tracker, &record, false, e2e4), e2e4);
        assert_eq!(squares(&tracker, &record, true, e2e4), a1);
    }
}
