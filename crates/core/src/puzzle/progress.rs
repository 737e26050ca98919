//! The player's puzzle progress: the rating, how many were solved and
//! failed, and the puzzles played lately (not offered again soon). Kept
//! by the shell in the user's data as TOML text; pure here.

use serde::{Deserialize, Serialize};

use super::rating::Glicko;
use super::set::Puzzle;

/// How many recent puzzles are remembered.
const RECENT: usize = 500;

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Progress {
    pub rating: Glicko,
    pub solved: u32,
    pub failed: u32,
    /// Ids of the puzzles played lately, oldest first.
    pub recent: Vec<String>,
}

impl Progress {
    /// The progress after `puzzle` was solved or failed.
    pub fn record(&mut self, puzzle: &Puzzle, solved: bool) {
        self.rating = self
            .rating
            .after_puzzle(puzzle.rating, puzzle.rating_deviation, solved);
        if solved {
            self.solved += 1;
        } else {
            self.failed += 1;
        }
        self.recent.retain(|id| *id != puzzle.id);
        self.recent.push(puzzle.id.clone());
        if self.recent.len() > RECENT {
            self.recent.drain(..self.recent.len() - RECENT);
        }
    }

    pub fn played(&self, id: &str) -> bool {
        self.recent.iter().any(|r| r == id)
    }

    /// The rating as a whole number, as it is said.
    pub fn rating_number(&self) -> u32 {
        self.rating.rating.round().max(0.0) as u32
    }

    pub fn to_text(&self) -> String {
        toml::to_string(self).expect("plain numbers and strings")
    }

    pub fn from_text(text: &str) -> Result<Progress, String> {
        toml::from_str(text).map_err(|e| e.to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::PuzzleSet;

    #[test]
    fn recorded_results_round_trip_as_text() {
        let set = PuzzleSet::bundled();
        let mut p = Progress::default();
        p.record(&set.puzzles()[0], true);
        p.record(&set.puzzles()[1], false);
        assert_eq!((p.solved, p.failed), (1, 1));
        assert!(p.played(&set.puzzles()[0].id));
        let back = Progress::from_text(&p.to_text()).unwrap();
        assert_eq!(back, p);
        assert_eq!(Progress::from_text("").unwrap(), Progress::default());
        assert!(Progress::from_text("solved = \"x\"").is_err());
    }
}
