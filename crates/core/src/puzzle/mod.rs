//! Puzzles from the Lichess puzzle database (CC0), as a blind player
//! trains with them: the set and its parsing ([`set`]), the next puzzle
//! near the player's rating ([`choose`]), a move checked against the
//! solution ([`solution`]), the Glicko-2 puzzle rating ([`rating`]), the
//! player's progress ([`progress`]) and the position read aloud
//! ([`words`]). Pure: the set's text is compiled in, progress comes and
//! goes as text; the session's puzzle mode is `session/puzzle.rs`.

pub mod choose;
pub mod progress;
pub mod rating;
pub mod set;
pub mod solution;
pub mod words;

pub use choose::choose;
pub use progress::Progress;
pub use rating::Glicko;
pub use set::{Puzzle, PuzzleError, PuzzleSet};
pub use solution::{Verdict, judge};
