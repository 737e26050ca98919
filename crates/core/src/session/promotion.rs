//! A defaulted promotion corrected (Art. 3.7e): the record's last move
//! replaced by the piece the player meant, before the opponent's move.

use shakmaty::{Move, Position};

use super::{Effect, Priority, Session, Source};
use crate::announce;

impl Session {
    /// The peg-board player corrected the promotion piece of his last move
    /// before the opponent's move was executed (Art. 3.7e): the record's
    /// last move is replaced (same time and clock reading, the clock is not
    /// pressed again) and the corrected move is announced.
    pub(super) fn correct_promotion(&mut self, now: u64, mv: Move, out: &mut Vec<Effect>) {
        let Some(last) = self.record.moves().last().cloned() else {
            return;
        };
        if !last.mv.is_promotion() || last.mv.from() != mv.from() || last.mv.to() != mv.to() {
            return;
        }
        self.replace_last(now, mv, Source::PegBoard, "promotion_corrected", out);
    }

    /// The record's last move becomes `mv` (same time and clock reading,
    /// the clock is not pressed again), announced with the phrase `key`.
    pub(super) fn replace_last(
        &mut self,
        now: u64,
        mv: Move,
        source: Source,
        key: &str,
        out: &mut Vec<Effect>,
    ) {
        let Some(last) = self.record.moves().last().cloned() else {
            return;
        };
        self.record.takeback(1);
        let before = self.record.position().clone();
        let mv = if before.is_legal(mv) { mv } else { last.mv };
        let announcement = announce::announce_move(&self.pack, &before, mv, self.config.form);
        let played = self
            .record
            .play(mv, last.at_ms)
            .expect("a promotion legal here a moment ago")
            .clone();
        if let Some(ms) = last.clock_ms {
            self.record.set_last_clock(ms);
        }
        let text = self.pack.phrase(key, &[("move", announcement.clone())]);
        out.push(Effect::SaveGame);
        self.speak(out, text, Priority::Move);
        self.recorded(now, &played, announcement, source, out);
    }
}
