//! A player's hands at the Millennium emulator on its pseudo-terminal
//! ([`super::millennium_pty`]), for the commands that take it as the
//! player's own board: a move made by hand, and a bounded wait for the
//! lights the host asked for.
//!
//! Included with `#[path]` next to `millennium_pty.rs`:
//! `#[path = "support/millennium_hands.rs"] mod millennium_hands;`.
#![allow(dead_code)]

use std::time::{Duration, Instant};

use shakmaty::{Bitboard, Chess, Move, Position};

use super::millennium_pty::MillenniumPty;

/// How long the board's lights may take to show what the session asked
/// (a scan, the guidance time, the LED command on the wire).
pub const LIGHTS_TIMEOUT: Duration = Duration::from_secs(15);

/// A hand makes the plain move `mv` of `pos` (no castling, promotion or
/// en passant) on the board: lifts the piece, sets it down (over a
/// captured piece, which goes).
pub fn make(board: &MillenniumPty, pos: &Chess, mv: &Move) {
    let from = mv.from().expect("a plain move");
    board.set(from, None);
    board.set(mv.to(), pos.board().piece_at(from));
}

/// A move's from- and to-square, as the lights show it.
pub fn squares(mv: &Move) -> Bitboard {
    Bitboard::from(mv.from().expect("a plain move")) | mv.to()
}

/// Waits (bounded by [`LIGHTS_TIMEOUT`]) until the board's LEDs light
/// exactly `want`; `what` names the wait in the failure. The LEDs sit on
/// the squares' corners, so two squares of a file with one between them
/// frame that one too: `want` is compared as the board shows it.
pub fn until_lit(board: &MillenniumPty, want: Bitboard, what: &str) {
    use rochade::eboard::millennium::{led_pattern, lit_squares};
    let want = lit_squares(&led_pattern(want));
    let until = Instant::now() + LIGHTS_TIMEOUT;
    while board.lit() != want {
        assert!(
            Instant::now() < until,
            "{what}: lit {:?}, wanted {want:?}",
            board.lit()
        );
        std::thread::sleep(Duration::from_millis(10));
    }
}
