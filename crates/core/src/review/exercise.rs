//! A mistake offered again: "Move 14: you played Läufer Cesar vier. Find
//! a better move." The answer is checked like a puzzle.

use shakmaty::uci::UciMove;
use shakmaty::{Chess, Move};

use super::judge;
use crate::engine::{Line, Score};

/// How far below the engine's best move, in Lichess's winning chances
/// (-1 to 1), another answer may score and still count as found: 0.05,
/// half the drop that makes an inaccuracy. A move that loses less than
/// an inaccuracy's worth is one Lichess would not mark either; half of it
/// keeps a clearly weaker move from passing.
pub const ACCEPT_MARGIN: f64 = 0.05;

/// One exercise: the position before a mistake.
#[derive(Clone, Debug, PartialEq)]
pub struct Exercise {
    /// 0-based index of the mistaken move in the record.
    pub index: usize,
    pub position: Chess,
    /// The move played in the game.
    pub played: Move,
    /// The engine's best move.
    pub best: Move,
    /// The engine's score of the position, best play, side to move's view.
    pub best_score: Score,
    /// The engine's line, its best move first.
    pub line: Vec<UciMove>,
}

/// What an answer was.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The engine's best move.
    Best,
    /// Another move the engine scores within [`ACCEPT_MARGIN`] of it.
    Good,
    /// The move of the game again.
    Played,
    /// A move that is not good enough: the exercise goes on.
    Wrong,
    /// Another move, whose score the engine must give first
    /// ([`Exercise::needs_engine`]).
    Unchecked,
}

impl Verdict {
    /// The exercise is done (found); otherwise the player tries again.
    pub fn solved(self) -> bool {
        matches!(self, Verdict::Best | Verdict::Good)
    }
}

impl Exercise {
    /// Whether `answer` needs the engine's line in the position after it
    /// to be judged (neither the best move nor the one played).
    pub fn needs_engine(&self, answer: Move) -> bool {
        answer != self.best && answer != self.played
    }

    /// Judges `answer`, a legal move in [`Exercise::position`];
    /// `after_answer` is the engine's line in the position after it (the
    /// opponent's view), searched as deep as the review's lines.
    pub fn check(&self, answer: Move, after_answer: Option<&Line>) -> Verdict {
        if answer == self.best {
            return Verdict::Best;
        }
        if answer == self.played {
            return Verdict::Played;
        }
        let Some(after) = after_answer else {
            return Verdict::Unchecked;
        };
        if judge::drop_of(self.best_score, after.score) <= ACCEPT_MARGIN {
            Verdict::Good
        } else {
            Verdict::Wrong
        }
    }
}
