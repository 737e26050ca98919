//! A board that streams scans (Certabo): it settles by scans that show
//! nothing new, its scan's changes are followed in the order hands make
//! them, and plies no scan showed are caught up as a scan ends.

use shakmaty::{Board, Position, Square};

use super::{Recognizer, RecognizerEvent, landing};
use crate::board::catch_up::by_pieces::{
    after, capture_in_hand, catch_up_shuttling, catch_up_within, fits_better_than_none,
    mover_as_shown,
};

/// Scans showing nothing new after a change before a streaming board
/// counts as settled: a position caught by one scan only (a slide's pause,
/// a move with the reply's hand already on its way) is not settled.
pub(super) const QUIET_SCANS: u32 = 1;

/// The most plies a scan is caught up by while the hands go on.
const STREAM_PLIES: usize = 2;

/// The most plies a way that moves a piece away and back is looked for
/// in (a capture on its way and back, or a wait: four plies).
const SHUTTLE_PLIES: usize = 4;

/// A streaming board whose scans stopped coming (a line lost, a cable
/// pulled) still settles after this long.
pub(super) const STREAM_SETTLE_FALLBACK_MS: u64 = 1200;

impl Recognizer {
    /// A board that streams scans ended one (its changes came before): a
    /// scan with nothing new after a change settles the board.
    pub fn on_scan(&mut self, now: u64, out: &mut Vec<RecognizerEvent>) {
        self.streaming = true;
        // The move the last scan showed done, exactly, if any.
        let done_before = self.shown.filter(|mv| self.pos.is_legal(*mv)).filter(|mv| {
            self.seen()
                .is_some_and(|seen| after(&self.pos, *mv).board() == &seen)
        });
        self.follow_scan_changes(now, out);
        // The scan that brought a change is not a quiet one.
        if !std::mem::take(&mut self.changed_since_scan) {
            self.quiet_scans = self.quiet_scans.saturating_add(1);
        } else {
            self.check_shown_at_scan_end();
            self.correct_slide(now, out);
            self.catch_up_stream(now, done_before, out);
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
    /// A move the scan before showed done (`done_before`) may be the first
    /// of three: the reply and the mover's next move in this scan, their
    /// order lost (a piece moved there and back around the reply reads as
    /// the move taken back). Two plies may also be three when the boards
    /// seen fit that better: a piece that stood for the reply, then went
    /// on (a king's stop, which no slide explains).
    fn catch_up_stream(
        &mut self,
        now: u64,
        done_before: Option<shakmaty::Move>,
        out: &mut Vec<RecognizerEvent>,
    ) {
        if self.shown.is_some() || (!self.orientation_known && self.history.is_empty()) {
            return;
        }
        let Some(seen) = self.seen() else { return };
        if &seen == self.pos.board() || capture_in_hand(&self.pos, &seen) {
            return;
        }
        let anchored = || {
            // Still the move to make: no move was played meanwhile.
            let mv = done_before.filter(|mv| self.pos.is_legal(*mv))?;
            let next = after(&self.pos, mv);
            let mut moves = catch_up_within(&next, &seen, &self.trail, STREAM_PLIES, false)?;
            moves.insert(0, mv);
            Some(moves)
        };
        // Three plies no scan showed apart (a capture, the recapture and
        // the piece going on, the hands never still for a scan): taken
        // only when the boards seen fit them better than no move, as a
        // capture going on can look like three plies too. Without it a
        // game whose hands never rest falls behind for good.
        let three = || {
            catch_up_within(&self.pos, &seen, &self.trail, STREAM_PLIES + 1, false)
                .filter(|moves| fits_better_than_none(&self.pos, moves, &self.trail))
        };
        let Some(mut moves) = catch_up_within(&self.pos, &seen, &self.trail, STREAM_PLIES, false)
            .or_else(anchored)
            .or_else(three)
        else {
            return;
        };
        if moves.len() == STREAM_PLIES {
            // Two plies may be three: a piece that landed for the other
            // side's move, then went on (the boards seen tell).
            if let Some(longer) =
                catch_up_within(&self.pos, &seen, &self.trail, STREAM_PLIES + 1, false)
            {
                moves = longer;
            }
        }
        let last = moves.pop().expect("a catch-up has a move");
        for mv in moves {
            self.play(now, mv, out);
        }
        self.shown = Some(last);
        self.in_sync(out);
    }

    /// A settled board no fewest plies explain may be plies no scan
    /// showed whole that took a piece away and back (to capture on its
    /// way, or to wait while the other side moved twice): played when the
    /// boards seen since the last move fit them better than they fit no
    /// move at all.
    pub(super) fn catch_up_shuttle(
        &mut self,
        now: u64,
        seen: &Board,
        out: &mut Vec<RecognizerEvent>,
    ) -> bool {
        let Some(moves) = catch_up_shuttling(&self.pos, seen, &self.trail, SHUTTLE_PLIES)
            .filter(|moves| fits_better_than_none(&self.pos, moves, &self.trail))
        else {
            return false;
        };
        for mv in moves {
            self.play(now, mv, out);
        }
        self.in_sync(out);
        true
    }

    /// The last move played, its piece gone on along the same line to a
    /// square it could have reached at once, while the other side has
    /// only lifted a piece (or not begun): the move was a slide that
    /// paused for a scan, and a weak read of the other side's piece looked
    /// like the reply begun. (The other side cannot have moved: none of
    /// its pieces was set down since.) The move is corrected to where the
    /// piece went.
    fn correct_slide(&mut self, now: u64, out: &mut Vec<RecognizerEvent>) {
        let Some(last) = self.history.last() else {
            return;
        };
        let Some(seen) = self.seen() else { return };
        if last.at.is_none_or(|at| now >= at + self.cfg.correction_ms) || &seen == self.pos.board()
        {
            return;
        }
        // A piece of the other side set down since: its reply was made.
        let replier = self.pos.turn();
        let own = self.pos.board().by_color(replier);
        if self
            .trail
            .iter()
            .any(|b| (b.by_color(replier) & !own).any())
        {
            return;
        }
        let (old, before) = (last.mv, &last.before);
        let Some(from) = old.from() else { return };
        let new = before.legal_moves().into_iter().find(|m| {
            *m != old
                && m.from() == Some(from)
                && m.role() == old.role()
                && shakmaty::attacks::between(from, m.to()).contains(old.to())
                && reply_not_done(&self.pos, after(before, *m).board(), &seen, m.to())
        });
        let Some(new) = new else { return };
        let old = self.history.pop().expect("a last move");
        self.pos = old.before;
        self.play(now, new, &mut Vec::new());
        out.push(RecognizerEvent::Corrected { old: old.mv, new });
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

/// Whether `seen` is `board`, or `board` with one piece of the side to
/// move in `pos` lifted: the reply not begun, or not done. (A piece that
/// could have gone to `taken_on` may have been taken there: the reply
/// done.)
fn reply_not_done(pos: &shakmaty::Chess, board: &Board, seen: &Board, taken_on: Square) -> bool {
    if board == seen {
        return true;
    }
    let missing = board.occupied() & !seen.occupied();
    let Some(square) = missing.single_square() else {
        return false;
    };
    let mut lifted = board.clone();
    let replier = pos.turn();
    lifted
        .remove_piece_at(square)
        .is_some_and(|p| p.color == replier)
        && &lifted == seen
        && !pos
            .legal_moves()
            .iter()
            .any(|m| m.from() == Some(square) && m.to() == taken_on)
}
