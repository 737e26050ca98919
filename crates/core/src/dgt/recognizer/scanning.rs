//! A board that streams scans (Certabo): it settles by scans that show
//! nothing new, its scan's changes are followed in the order hands make
//! them, and plies no scan showed are caught up as a scan ends.

use shakmaty::Position;

use super::super::catch_up::{after, capture_in_hand, catch_up_within, mover_as_shown};
use super::{Recognizer, RecognizerEvent, landing};

/// Scans showing nothing new after a change before a streaming board
/// counts as settled: a position caught by one scan only (a slide's pause,
/// a move with the reply's hand already on its way) is not settled.
pub(super) const QUIET_SCANS: u32 = 1;

/// The most plies a scan is caught up by while the hands go on.
const STREAM_PLIES: usize = 2;

/// A streaming board whose scans stopped coming (a line lost, a cable
/// pulled) still settles after this long.
pub(super) const STREAM_SETTLE_FALLBACK_MS: u64 = 1200;

impl Recognizer {
    /// A board that streams scans ended one (its changes came before): a
    /// scan with nothing new after a change settles the board.
    pub fn on_scan(&mut self, now: u64, out: &mut Vec<RecognizerEvent>) {
        self.streaming = true;
        self.follow_scan_changes(now, out);
        // The scan that brought a change is not a quiet one.
        if !std::mem::take(&mut self.changed_since_scan) {
            self.quiet_scans = self.quiet_scans.saturating_add(1);
        } else {
            self.check_shown_at_scan_end();
            self.catch_up_stream(now, out);
        }
        if self.changed_at.is_some() && self.quiet_scans >= QUIET_SCANS {
            self.on_tick(now, out);
        }
    }

    /// The move shown, kept through a scan whose changes came in an order
    /// that may not be the hands', holds at the scan's end only while the
    /// mover's pieces stand as it left them.
    fn check_shown_at_scan_end(&mut self) {
        let (Some(mv), Some(seen)) = (self.shown, self.seen()) else {
            return;
        };
        let to = landing(mv, self.pos.turn());
        if !self.pos.is_legal(mv) || !mover_as_shown(&after(&self.pos, mv), to, &seen) {
            self.shown = None;
        }
    }

    /// A scan that shows no single move: the plies that lead to it (the
    /// other side moved while a scan saw the move in no position of its
    /// own). All but the last are played at once: each was followed by a
    /// move of the other side. The last waits as the move shown, for the
    /// reply's first touch. Only boards shown exactly, at most two plies
    /// on: a capture going on (the taken piece off, the taker paused on its
    /// way) looks like three plies.
    /// A blitz game on a scanning board may never stand still for a whole
    /// scan: without this it would be followed only when it does.
    fn catch_up_stream(&mut self, now: u64, out: &mut Vec<RecognizerEvent>) {
        if self.shown.is_some() || (!self.orientation_known && self.history.is_empty()) {
            return;
        }
        let Some(seen) = self.seen() else { return };
        if &seen == self.pos.board() || capture_in_hand(&self.pos, &seen) {
            return;
        }
        let Some(mut moves) = catch_up_within(&self.pos, &seen, &self.trail, STREAM_PLIES, false)
        else {
            return;
        };
        let last = moves.pop().expect("a catch-up has a move");
        for mv in moves {
            self.play(now, mv, out);
        }
        self.shown = Some(last);
        self.in_sync(out);
    }

    /// A scan's changes, in the order the hands most likely made them: a
    /// scan brings them with no order of its own. Pieces set down first (a
    /// move is done when its piece lands, and the reply begins with a
    /// lift), the side to move's before the other side's; then pieces
    /// lifted, the side to move's first.
    pub(super) fn follow_scan_changes(&mut self, now: u64, out: &mut Vec<RecognizerEvent>) {
        let changes = std::mem::take(&mut self.scan_changes);
        let (set, lifted): (Vec<_>, Vec<_>) = changes.into_iter().partition(|c| c.1.is_some());
        for group in [set, lifted] {
            // Whose turn it is after the pieces set down were followed.
            let Some(board) = self.board else { return };
            let mover = self.pos.turn();
            let mut group = group;
            group.sort_by_key(|&(square, piece)| {
                piece.or(board[usize::from(square)]).map(|p| p.color) != Some(mover)
            });
            for (square, piece) in group {
                if self.change(now, square, piece, out) {
                    self.from_updates = true;
                }
            }
        }
    }

    /// When the board changed at `at` counts as settled.
    pub(super) fn settles_at(&self, at: u64) -> u64 {
        match (self.streaming, self.quiet_scans >= QUIET_SCANS) {
            (false, _) => at + self.cfg.settle_ms,
            (true, true) => at,
            (true, false) => at + STREAM_SETTLE_FALLBACK_MS,
        }
    }

    /// The board counts as having stood still for the scans a streaming
    /// board settles by (the game changed under a settled board).
    pub(super) fn stood_still(&mut self) {
        self.quiet_scans = QUIET_SCANS;
    }
}
