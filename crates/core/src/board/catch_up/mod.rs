//! The catch-up: the legal plies from the last position the game and a
//! board agreed on to what the board shows now, when single moves no
//! longer explain it (a reply made before the move was seen, lines lost, a
//! board scanned too seldom to show every position on the way).
//!
//! One concept, two searches, because the boards know different things:
//!
//! * [`by_occupancy`]: a board that knows only which squares are occupied
//!   (a peg-board, LiBoard, Sentio, the DGT Pegasus; the peg-board's
//!   tracker). Many ways end in the same occupancy, so it returns every
//!   way of the fewest plies and the caller takes one only when it is the
//!   only one: it never guesses.
//! * [`by_pieces`]: a board that knows its pieces (DGT, Millennium,
//!   Certabo, Chessnut; the recognizer). The board fixes where the way
//!   ends; the boards shown on the way pick the order of the plies, and
//!   the way they fit best is taken.
//!
//! Pure and bounded (ply limits and node budgets).

pub mod by_occupancy;
pub mod by_pieces;
