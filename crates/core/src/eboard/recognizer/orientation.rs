//! Which way round a board that knows its pieces lies: decided from the
//! start position before a game, or from any position that fits the game
//! in the other reading when it fits nothing in the one in use (at
//! connection, or at a mismatch that lasted the guidance time: a board
//! joined mid-game, a position set up by hand, a Millennium reporting h1
//! first); or fixed by hand. Reported once when it changes.

use shakmaty::{Board, Position};

use super::{Recognizer, RecognizerEvent, rotated};
use crate::board::{Orientation, OrientationChoice};
use crate::eboard::pieces::{Pieces, board_of_pieces};

impl Recognizer {
    /// Which way round the board lies, as the player set it. A fixed
    /// reading different from the one in use turns the board now (said
    /// once) and reads it again.
    pub fn set_orientation_choice(
        &mut self,
        now: u64,
        choice: OrientationChoice,
        out: &mut Vec<RecognizerEvent>,
    ) {
        self.choice = choice;
        if let Some(fixed) = choice.fixed() {
            self.turn_to(fixed, out);
            self.recheck(now);
        }
    }

    /// Reads the board `orientation` round from now on; said when it
    /// changes (or is first decided).
    pub(super) fn turn_to(&mut self, orientation: Orientation, out: &mut Vec<RecognizerEvent>) {
        if self.orientation_known && self.orientation == orientation {
            return;
        }
        self.orientation = orientation;
        self.orientation_known = true;
        // What was seen in the old reading is no evidence in the new one.
        self.shown = None;
        self.trail.clear();
        self.remember();
        out.push(RecognizerEvent::Orientation {
            turned: orientation.is_turned(),
        });
    }

    /// The readings `pieces` may be taken in (game coordinates): both, or
    /// the one fixed by hand.
    pub(super) fn readings(&self, pieces: &Pieces) -> Vec<(Board, Orientation)> {
        let straight = board_of_pieces(pieces);
        let turned = rotated(&straight);
        let fixed = self.choice.fixed();
        [
            (straight, Orientation::Straight),
            (turned, Orientation::Turned),
        ]
        .into_iter()
        .filter(|(_, o)| fixed.is_none_or(|f| f == *o))
        .collect()
    }

    /// Matches the settled board against the game in the reading in use
    /// and, when that fits nothing and the other does, in the other (which
    /// then wins); the start position before a game decides it too.
    /// Whether the board matched the game (and what it showed was played).
    pub(super) fn read_either_way(
        &mut self,
        readings: &[(Board, Orientation)],
        now: u64,
        out: &mut Vec<RecognizerEvent>,
    ) -> bool {
        let start = Board::default();
        // Which way round: decided from the start position, before a game.
        if self.history.is_empty()
            && self.pos.board() == &start
            && let Some((_, o)) = readings.iter().find(|(b, _)| b == &start)
        {
            self.turn_to(*o, out);
        }
        let current = self.orientation;
        let Some((seen, _)) = readings.iter().find(|(_, o)| *o == current) else {
            return false;
        };
        if self.matches(seen, now, out) {
            if !self.orientation_known {
                // The first board that fits the game decides it.
                self.turn_to(current, out);
            }
            return true;
        }
        // The other reading, when the game fits it (a board joined mid-game
        // the other way round, a move or two made meanwhile), wins: tried
        // until a reading has fitted (at connection), then only once the
        // board differed from the game for the guidance time (a mismatch,
        // not hands on their way: a sparse endgame seen half-moved may
        // fit the other reading a few plies on). Tried on a copy: a
        // reading that fits nothing changes nothing.
        let may_turn = !self.orientation_known || self.guided();
        if may_turn && let Some((other, o)) = readings.iter().find(|(_, o)| *o != current) {
            let mut turned = self.clone();
            let mut said = Vec::new();
            turned.turn_to(*o, &mut said);
            if turned.matches(other, now, &mut said) {
                *self = turned;
                out.extend(said);
                return true;
            }
        }
        false
    }
}

#[cfg(test)]
#[path = "orientation_tests.rs"]
mod tests;
