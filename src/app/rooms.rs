//! The rooms beside the game: puzzles, the Review window and a broadcast
//! watched, each a panel
//! with its own state, present once opened.

/// The rooms opened so far.
#[derive(Default)]
pub(super) struct Rooms {
    /// Puzzles, once started ([`super::puzzle_panel`]).
    pub puzzles: Option<super::puzzle_panel::PuzzlePanel>,
    /// The Review window ("learn from your games"), open.
    pub review: Option<super::review_panel::ReviewPanel>,
    /// A game being opened for review ([`super::review_open`]).
    pub review_open: Option<super::review_open::ReviewOpen>,
    /// A broadcast round being watched ([`super::watch_panel`]).
    pub watch: Option<super::watch_panel::WatchPanel>,
    /// A PGN file being made a Braille book ([`super::book_export`]).
    pub book: Option<super::book_export::BookJob>,
}
