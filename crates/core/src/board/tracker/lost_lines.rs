//! Lost lines: a hole in time in the board's reports. A line with a bad
//! checksum, a line cut short or the link going down are reported; a line
//! that vanished on the wire is known from the next one, which shows two
//! holes changed at once (the board sends a line for every change). What
//! the board did meanwhile is judged when the next good line comes.

use shakmaty::Position;

use super::{BoardMask, Tracker};

/// The least time between two steps of a hand (a piece taken off, a piece
/// put down): lost lines closer together than this hide at most one.
const HAND_STEP_MS: u64 = 150;

/// How long the board stands still showing a capture done whose evidence
/// a lost line may hold before the capture is executed: the capture's
/// target was lifted out of its hole (seen) and the capturing piece is
/// out of its hole now, so the only other reading is that piece held in
/// the hand, and a piece of both colours touched binds the player to that
/// very capture (Art. 4.3 c, E.2.2). Short enough that the tracker agrees
/// with the board within a second of the capture.
pub(super) const HIDDEN_CAPTURE_MS: u64 = 600;

/// Lines lost since the last good one.
#[derive(Clone, Copy, Debug)]
pub(super) struct Hole {
    /// The last report before them.
    before: Option<BoardMask>,
    /// When the first and the last of them were lost.
    first_ms: u64,
    last_ms: u64,
    /// How many lines were lost (a burst counts each line).
    lines: u64,
    /// The link itself went down (unplugged): anything may have happened.
    link_down: bool,
}

impl Tracker {
    /// The board link was lost (unplugged, silent): whatever happened on
    /// the board until it is back was not seen.
    pub fn link_lost(&mut self) {
        self.open_hole(0, 1, true);
    }

    /// Lines arrived with a bad checksum or cut short: a hole in time, not
    /// a lost game. The board's state before and after it are known; when
    /// enough was lost that a whole capture may have been made unseen,
    /// captures the board shows alike are told apart only by what was seen
    /// before the hole (a piece lifted and put back after it only looks
    /// like the other capture).
    pub fn lines_lost(&mut self, now: u64, count: u64) {
        self.open_hole(now, count.max(1), false);
    }

    fn open_hole(&mut self, now: u64, lines: u64, link_down: bool) {
        self.missed = true;
        let before = self.raw.map(|(r, _)| r);
        let hole = self.hole.get_or_insert(Hole {
            before,
            first_ms: now,
            last_ms: now,
            lines: 0,
            link_down: false,
        });
        hole.last_ms = hole.last_ms.max(now);
        hole.lines += lines;
        hole.link_down |= link_down;
    }

    /// The first good report after lost lines: were states missed that
    /// could hide a capture? A capture made wholly unseen needs two steps
    /// of the hand unseen (the target taken off or the piece lifted, then
    /// the piece put down), so lines lost closer together than a hand's
    /// step hide none that matters: a heartbeat, the answers to the
    /// host's requests, or the one change the board shows now. Lines lost
    /// further apart, or a link that went down, may.
    /// A capture made also leaves its piece's hole empty: a board after
    /// the hole with every piece of the side to move in place hides none.
    pub(super) fn close_hole(&mut self, after: BoardMask) -> Option<u64> {
        let hole = self.hole.take()?;
        let hand_steps = hole.lines >= 2 && hole.last_ms - hole.first_ms >= HAND_STEP_MS;
        let own = self.pos.board().by_color(self.pos.turn());
        let own_lifted = (self.game_occ & own & !self.orient(after)).any();
        if hole.link_down || (hand_steps && own_lifted) {
            if self.gap.is_none() {
                self.gap = Some(0);
            }
            return None;
        }
        // At most one step of the hand was hidden, and the board shows just
        // that step (one hole changed): it has shown this since the first
        // lost line, so it may settle from then on, before the hand moves
        // again. Anything more (a glitch besides) settles as usual.
        let one_step = hole
            .before
            .is_some_and(|b| (b.0 ^ after.0).count_ones() == 1);
        one_step.then_some(hole.first_ms)
    }

    /// A line whose holes differ from the last line's in two or more
    /// places: a line between them vanished unheard (no bad checksum to
    /// tell of it). The loss is known now, so it is judged as a reported
    /// one.
    pub(super) fn notice_unheard_loss(&mut self, now: u64, mask: BoardMask) {
        if let Some(previous) = self.reported.replace(mask)
            && self.hole.is_none()
            && (previous.0 ^ mask.0).count_ones() >= 2
        {
            self.open_hole(now, 1, false);
        }
    }
}
