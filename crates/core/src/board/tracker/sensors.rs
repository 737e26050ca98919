//! Stuck and dead sensors: the detector and the mask the tracker reads the
//! board through.
//!
//! A sensor that keeps reporting a peg where the game has none (stuck), or
//! no peg where the game has one (dead), makes every later board differ
//! from every legal move's result by that one hole. In a quick game the
//! board never rests long enough for a mismatch timer, so the evidence is
//! gathered per hole, whatever the pace:
//!
//! * each settled board updates, for every hole, since when its reading has
//!   differed from the game without a break ([`SensorWatch::observe`]);
//! * a board that nothing explains, but that shows a legal move's result
//!   (or, two or more plies on, a way the catch-up finds) with exactly one
//!   hole read the other way, and that hole already differed before this
//!   board, names that sensor at once: the hand cannot be holding that
//!   piece (or have put a stray peg there) while a move elsewhere is
//!   completed around it. A hole that starts to differ with the very board
//!   that completes a move is no evidence (a piece knocked with the sleeve);
//! * a board that differs from the game by one stray peg only, for the
//!   mismatch time, names it too (a slow game);
//! * but a hole that began to differ as a step of a legal move in progress
//!   (the king put on g1 in castling begun with the king) is not named
//!   while a hole that changed after it reads the board that way;
//! * and a capture done beside a hole that went dead before it (its
//!   evidence seen, its target filled again) names that hole, rather than
//!   reading the board as a capture onto the dead hole begun.
//!
//! A named sensor is left out of the matching: it is read as the game has
//! it, except that a dead sensor under a piece is read empty when that
//! makes the board a legal move of that piece (the pawn on a dead h2 moved
//! to h4). It is trusted again when it reports the other state once.
//! A move onto a stuck hole cannot be seen (its peg looks like a piece
//! held in the hand): that alone is guided, as any board that differs.

use shakmaty::{Bitboard, Move, Position, Square};

use super::{BoardMask, Guidance, Tracker, TrackerEvent};

/// No difference: the reading agrees with the game.
const AGREES: u64 = u64::MAX;

/// How well a board with one hole read the other way is explained.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum Fit {
    /// A piece of the side to move lifted, or a move in progress.
    InProgress,
    /// The game as it stands.
    Game,
    /// The result of a legal move (or of several plies, caught up).
    Move,
}

/// The detector and the mask, in game coordinates.
#[derive(Clone, Debug)]
pub(super) struct SensorWatch {
    /// Sensors taken as stuck reporting a peg.
    full: Bitboard,
    /// Sensors taken as dead: reporting no peg.
    empty: Bitboard,
    /// Per hole: since when (ms) its settled reading has differed from the
    /// game without a break, or [`AGREES`].
    since: [u64; 64],
    /// Holes that differed in a settled board nothing explained, and have
    /// differed since (a piece lifted for a move in progress is no
    /// suspect: that board was explained).
    suspects: Bitboard,
    /// The game's occupancy at the last [`SensorWatch::observe`]: a hole
    /// the game changed since starts its count again.
    game: Bitboard,
}

impl Default for SensorWatch {
    fn default() -> SensorWatch {
        SensorWatch {
            full: Bitboard::EMPTY,
            empty: Bitboard::EMPTY,
            since: [AGREES; 64],
            suspects: Bitboard::EMPTY,
            game: Bitboard::EMPTY,
        }
    }
}

impl SensorWatch {
    /// The holes left out of the matching.
    pub(super) fn masked(&self) -> Bitboard {
        self.full | self.empty
    }

    /// The board as the tracker reads it: a named sensor that reports the
    /// state it is stuck against is trusted again (and said so); the others
    /// are read as the game has them, or, for a dead one under a piece,
    /// empty when that is a legal move of the piece (`moved_off(board,
    /// hole)`).
    pub(super) fn read(
        &mut self,
        reading: Bitboard,
        game: Bitboard,
        moved_off: impl Fn(Bitboard, Square) -> bool,
        out: &mut Vec<TrackerEvent>,
    ) -> Bitboard {
        let recovered = (self.full & !reading) | (self.empty & reading);
        for square in recovered {
            self.full.discard(square);
            self.empty.discard(square);
            self.since[usize::from(square)] = AGREES;
            out.push(TrackerEvent::SensorRecovered { square });
        }
        let masked = self.masked();
        let mut board = (reading & !masked) | (game & masked);
        for square in self.empty & game {
            let off = board.without(square);
            if moved_off(off, square) {
                board = off;
            }
        }
        board
    }

    /// A settled board (as read): which holes differ from the game, since
    /// when.
    pub(super) fn observe(&mut self, at: u64, board: Bitboard, game: Bitboard) {
        let differ = (board ^ game) & !self.masked();
        let moved = std::mem::replace(&mut self.game, game) ^ game;
        self.suspects &= differ & !moved;
        for (i, since) in self.since.iter_mut().enumerate() {
            if moved.contains(Square::new(i as u32)) {
                *since = AGREES;
            }
            if differ.contains(Square::new(i as u32)) {
                *since = (*since).min(at);
            } else {
                *since = AGREES;
            }
        }
    }

    /// A hole that showed a move's peg it cannot have had (never seen
    /// empty, or before the piece left its hole): a suspect.
    pub(super) fn suspect(&mut self, square: Square) {
        self.suspects.add(square);
    }

    /// Whether a hole differed from the game before `at` (and still does).
    pub(super) fn differed_before(&self, square: Square, at: u64) -> bool {
        self.since[usize::from(square)] < at
    }

    /// The holes of `board` that began to differ from the game with the
    /// board settled at `at`.
    pub(super) fn newly_differing(&self, at: u64, board: Bitboard, game: Bitboard) -> Bitboard {
        ((board ^ game) & !self.masked())
            .into_iter()
            .filter(|sq| self.since[usize::from(*sq)] >= at)
            .collect()
    }

    /// A settled board nothing explains: the holes that may be named now,
    /// the suspects it had before first, then the other holes that
    /// differed before `at` (each the longest differing first); `culprit`,
    /// the one hole whose reading turned would explain it, becomes a
    /// suspect.
    pub(super) fn unexplained(
        &mut self,
        at: u64,
        board: Bitboard,
        game: Bitboard,
        culprit: Option<Square>,
    ) -> Vec<Square> {
        let since = |sq: &Square| self.since[usize::from(*sq)];
        let mut holes: Vec<Square> = self.suspects.into_iter().collect();
        holes.sort_by_key(since);
        let mut others: Vec<Square> = ((board ^ game) & !self.masked() & !self.suspects)
            .into_iter()
            .filter(|sq| since(sq) < at)
            .collect();
        others.sort_by_key(since);
        holes.extend(others);
        if let Some(square) = culprit {
            self.suspects.add(square);
        }
        holes
    }

    /// The one hole of `board` (not yet named) whose reading, turned the
    /// other way, explains the board best (`fit`), if no other hole
    /// explains it as well.
    pub(super) fn best_flip(
        &self,
        board: Bitboard,
        game: Bitboard,
        fit: impl Fn(Bitboard) -> Option<Fit>,
    ) -> Option<(Square, Fit)> {
        let mut best: Option<(Square, Fit)> = None;
        let mut tied = false;
        for square in (board ^ game) & !self.masked() {
            let Some(f) = fit(board ^ Bitboard::from(square)) else {
                continue;
            };
            match best {
                Some((_, b)) if f < b => {}
                Some((_, b)) if f == b => tied = true,
                _ => {
                    best = Some((square, f));
                    tied = false;
                }
            }
        }
        best.filter(|_| !tied)
    }

    /// Whether the board may show `mv` done. A capture onto a hole left
    /// out of the matching cannot be seen (it looks like the piece held);
    /// a move whose target hole reported a peg before the piece left its
    /// own is a stuck sensor there, not the move (a hand puts a piece down
    /// after lifting it).
    pub(super) fn may_match(&self, mv: Move) -> bool {
        if self.masked().contains(mv.to()) {
            return false;
        }
        match mv {
            Move::Normal {
                from,
                to,
                capture: None,
                ..
            } => {
                // (A hole that agrees holds no order: the game moved on
                // since, e.g. plies caught up.)
                let (to, from) = (self.since[usize::from(to)], self.since[usize::from(from)]);
                from == AGREES || to >= from
            }
            _ => true,
        }
    }

    /// Takes the sensor of `square` as stuck (reporting a peg when
    /// `occupied`, else none) and says so.
    pub(super) fn name(&mut self, square: Square, occupied: bool) -> TrackerEvent {
        if occupied {
            self.full.add(square);
        } else {
            self.empty.add(square);
        }
        self.since[usize::from(square)] = AGREES;
        self.suspects.discard(square);
        TrackerEvent::SensorStuck { square, occupied }
    }
}

/// The tracker's side: reading through the mask, naming a sensor.
impl Tracker {
    /// The plies the catch-up plays for `board` when they are all done
    /// (no piece still in the hand, which a hole read the other way could
    /// fake).
    fn caught_up_whole(&self, board: Bitboard) -> Option<Vec<Move>> {
        let plies = self.catch_up(board)?;
        let pos = crate::board::catch_up::by_occupancy::play_all(&self.pos, &plies);
        let (occ, turn) = (pos.board().occupied(), pos.turn());
        pos.legal_moves()
            .iter()
            .any(|&mv| super::candidate(mv, occ, turn).after == board)
            .then_some(plies)
    }

    /// A report read through the sensor mask ([`super::sensors`]).
    pub(super) fn unstick(&mut self, mask: BoardMask, out: &mut Vec<TrackerEvent>) -> BoardMask {
        let o = self.orientation.get();
        let (game, candidates) = (self.game_occ, &self.candidates);
        let moved_off = |b: Bitboard, sq: Square| {
            candidates
                .iter()
                .any(|c| c.after == b && c.involved.contains(sq))
        };
        o.to_board(self.sensors.read(o.to_game(mask), game, moved_off, out))
    }

    /// Whether the peg in the hole `square` may be a step of the hand (a
    /// piece put down) rather than a sensor gone wrong: with the holes
    /// that began to differ with this board read as the game has them,
    /// the board is a legal move in progress, its piece off its hole, that
    /// puts a piece on `square` (the king put on g1 in castling begun with
    /// the king, then e2 stuck: not Ke2 with g1 stuck). A later board
    /// tells them apart.
    fn hand_step(&self, square: Square, m: Bitboard, at: u64) -> bool {
        let newly = self.sensors.newly_differing(at, m, self.game_occ);
        if newly.is_empty() || newly.contains(square) || !(m & !self.game_occ).contains(square) {
            return false;
        }
        let before = m ^ newly;
        let diff = before ^ self.game_occ;
        self.candidates.iter().any(|c| {
            let from = match c.mv {
                Move::Castle { king, .. } => Some(king),
                mv => mv.from(),
            };
            c.filled.contains(square)
                && diff.is_subset(c.involved)
                && from.is_some_and(|from| !before.contains(from))
        })
    }

    /// A capture done beside a hole that went dead before it: the board
    /// shows, with that one hole read the other way, the result of a
    /// capture whose evidence was seen (both its squares empty at once)
    /// and whose target has its piece again. Read as it is, the board
    /// would be another capture in progress, onto the dead hole, with two
    /// pieces of the other side and the own piece in the hand on the way
    /// (Nxf6 with a dead c7 under a pawn the knight could take: not Nxc7
    /// begun). The sensor is named and the states seen are read without
    /// it, so the capture it faked has no evidence left.
    pub(super) fn capture_beside_a_dead_sensor(
        &mut self,
        m: Bitboard,
        at: u64,
        out: &mut Vec<TrackerEvent>,
    ) -> bool {
        let differ = (m ^ self.game_occ) & !self.sensors.masked();
        let mut found = None;
        for square in differ & self.game_occ {
            if !self.sensors.differed_before(square, at) {
                continue;
            }
            let read = m.with(square);
            let explained = self.candidates.iter().any(|c| {
                c.capture
                    && c.after == read
                    && c.mv.to() != square
                    && self.sensors.may_match(c.mv)
                    && self.capture_evidence(c.mv).is_some()
            });
            if explained {
                if found.is_some() {
                    return false;
                }
                found = Some(square);
            }
        }
        let Some(square) = found else {
            return false;
        };
        for state in &mut self.seen[..self.seen_len] {
            state.add(square);
        }
        self.name_sensor(square, at, None, out);
        true
    }

    /// At the mismatch time (a slow game): one stray peg that the game and
    /// the legal moves' results do not have names its sensor.
    pub(super) fn name_stray_peg(
        &mut self,
        m: Bitboard,
        at: u64,
        out: &mut Vec<TrackerEvent>,
    ) -> bool {
        let fit = |b: Bitboard| {
            (b == self.game_occ || self.candidates.iter().any(|c| c.after == b))
                .then_some(Fit::Game)
        };
        match self.sensors.best_flip(m, self.game_occ, fit) {
            Some((square, _)) if m.contains(square) => {
                self.name_sensor(square, at, None, out);
                true
            }
            _ => false,
        }
    }

    /// Names a stuck or dead sensor and reads the board again without it
    /// (after the plies the catch-up found with it left out, if any).
    pub(super) fn name_sensor(
        &mut self,
        square: Square,
        at: u64,
        missed: Option<Vec<Move>>,
        out: &mut Vec<TrackerEvent>,
    ) {
        let occupied = !self.game_occ.contains(square);
        out.push(self.sensors.name(square, occupied));
        self.guidance = Guidance::Quiet;
        let Some(reported) = self.reported else {
            return;
        };
        let raw = self.unstick(reported, out);
        self.raw = Some((raw, at));
        match missed {
            Some(missed) => {
                self.settled = Some(raw);
                self.resynchronise(missed, self.orient(raw), at, out);
            }
            None => self.settle(raw, at, out),
        }
    }

    /// A board nothing explains that a legal move done explains with one
    /// hole read the other way, a hole that differed before this board
    /// (tried before the catch-up, which could read a dead hole as a piece
    /// in the hand, unless it explains every ply done); or,
    /// `by_catch_up`, that the catch-up explains so, for a hole that
    /// differed in an earlier board nothing explained: its sensor is named
    /// and the board read again.
    pub(super) fn name_stuck_sensor(
        &mut self,
        m: Bitboard,
        at: u64,
        by_catch_up: bool,
        out: &mut Vec<TrackerEvent>,
    ) -> bool {
        let seen_empty = self.orient(self.seen_empty);
        let fit = |b: Bitboard| {
            self.candidates
                .iter()
                .any(|c| {
                    c.after == b
                        && (c.capture || c.filled.is_subset(seen_empty))
                        && self.sensors.may_match(c.mv)
                })
                .then_some(Fit::Move)
                .or_else(|| (b == self.game_occ).then_some(Fit::Game))
                .or_else(|| self.plausible_as_read(b).then_some(Fit::InProgress))
        };
        let best = self.sensors.best_flip(m, self.game_occ, fit);
        let (square, missed) = if by_catch_up {
            // Several plies on (the moves came faster than the evidence).
            let culprit = best.map(|(sq, _)| sq);
            let suspects = self.sensors.unexplained(at, m, self.game_occ, culprit);
            match suspects.into_iter().take(3).find_map(|sq| {
                let plies = self.caught_up_whole(m ^ Bitboard::from(sq))?;
                Some((sq, plies))
            }) {
                Some((sq, plies)) => (sq, Some(plies)),
                None => return false,
            }
        } else {
            // Unless lines were lost and the catch-up explains the board
            // as it is, every ply done (a move missed then, and the
            // reply). With no line lost every ply was seen: plies made up
            // around a dead hole (Bc8-a6 Bxa6 for a bishop gone back to
            // f1 with c8 dead) are no explanation.
            match best {
                Some((sq, Fit::Move))
                    if self.sensors.differed_before(sq, at)
                        && !self.hand_step(sq, m, at)
                        && (!self.missed || self.caught_up_whole(m).is_none()) =>
                {
                    (sq, None)
                }
                _ => return false,
            }
        };
        self.name_sensor(square, at, missed, out);
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::Square::*;

    #[test]
    fn a_named_sensor_is_read_as_the_game_and_trusted_again_when_it_changes() {
        let mut watch = SensorWatch::default();
        let game = Bitboard::from(E2) | H2;
        let mut out = Vec::new();
        assert_eq!(
            watch.name(A3, true),
            TrackerEvent::SensorStuck {
                square: A3,
                occupied: true
            }
        );
        watch.name(H2, false);
        let no_move = |_: Bitboard, _: Square| false;
        // a3 reports a peg, h2 none: read as the game has them.
        let reading = Bitboard::from(E2) | A3;
        assert_eq!(watch.read(reading, game, no_move, &mut out), game);
        // The pawn on the dead h2 moved to h4: read as that move.
        let moved = Bitboard::from(E2) | A3 | H4;
        let h2h4 = |b: Bitboard, sq: Square| sq == H2 && b == Bitboard::from(E2) | H4;
        assert_eq!(
            watch.read(moved, game, h2h4, &mut out),
            Bitboard::from(E2) | H4
        );
        assert!(out.is_empty());
        // a3 empty at last: its sensor works again.
        watch.read(Bitboard::from(E2), game, no_move, &mut out);
        assert_eq!(out, vec![TrackerEvent::SensorRecovered { square: A3 }]);
        assert_eq!(watch.masked(), Bitboard::from(H2));
    }

    #[test]
    fn the_best_flip_must_be_alone() {
        let watch = SensorWatch::default();
        let game = Bitboard::from(E2);
        let board = Bitboard::from(E2) | A3 | B3;
        let fit = |b: Bitboard| (b == Bitboard::from(E2) | B3).then_some(Fit::Move);
        assert_eq!(watch.best_flip(board, game, fit), Some((A3, Fit::Move)));
        let either = |b: Bitboard| (b.count() == 2).then_some(Fit::Move);
        assert_eq!(watch.best_flip(board, game, either), None);
    }
}
