//! The tracker's evaluation of a settled board: which move, correction,
//! catch-up after lost lines or sensor fault explains it, and which
//! guidance is due when nothing does.

use shakmaty::{Bitboard, CastlingSide, Move, Piece, Position, Role, Square};

use super::*;

/// What the standard start position occupies (either way round).
const START_OCCUPANCY: Bitboard = Bitboard(0xFFFF_0000_0000_FFFF);

impl Tracker {
    pub(super) fn settle(&mut self, raw: BoardMask, at: u64, out: &mut Vec<TrackerEvent>) {
        self.settled = Some(raw);
        self.sensors.observe(at, self.orient(raw), self.game_occ);
        self.seen_empty.0 |= !raw.0;
        self.lifted.0 |= self.orientation.get().to_board(self.game_occ).0 & !raw.0;
        if let OrientationState::Undecided(o) = self.orientation
            && self.symmetric_reference()
        {
            // Decided only by a board that one orientation explains as an
            // executed move and the other does not; a lift decides nothing.
            let here = self.explains(o.to_game(raw), o);
            let there = self.explains(o.other().to_game(raw), o.other());
            if here && !there {
                self.decide(o, out);
            } else if there && !here {
                self.decide(o.other(), out);
                self.clear_attempt();
                out.push(TrackerEvent::BoardTurned {
                    flipped: self.flipped(),
                });
            }
        }
        let m = self.orient(raw);
        // Whether this board stood in the game is known for the move it
        // may complete only after that move (a move made here is judged by
        // the boards before it).
        let stands = self.stands_in_game(m);
        let moves = self.history.len();
        self.evaluate(m, at, out);
        if stands && self.history.len() == moves {
            self.matched = true;
        }
    }

    /// Whether the board should still show a position that looks the same
    /// turned round (the standard start, before or just after the first
    /// move entered elsewhere).
    pub(super) fn symmetric_reference(&self) -> bool {
        let reference = match (self.history.len(), self.phase) {
            (0, _) => self.game_occ,
            (1, Phase::AwaitingBoard) => self.prev_occ.unwrap_or_default(),
            _ => return false,
        };
        reference.rotate_180() == reference
    }

    /// Whether a board (read in `o`) shows an executed move: a legal
    /// move's result, or a move entered elsewhere carried out.
    pub(super) fn explains(&self, m: Bitboard, o: Orientation) -> bool {
        if m == self.game_occ {
            return self.awaiting_board() && self.game_occ.rotate_180() != self.game_occ;
        }
        let seen_empty = o.to_game(self.seen_empty);
        self.candidates
            .iter()
            .any(|c| !c.capture && c.after == m && c.filled.is_subset(seen_empty))
    }

    /// Whether a state makes sense: the game, a legal move's result, a move
    /// in progress, or a move entered elsewhere being carried out. While
    /// the orientation is undecided, in either orientation.
    pub(super) fn plausible(&self, m: Bitboard) -> bool {
        if self.plausible_as_read(m) {
            return true;
        }
        match (self.orientation, self.settled) {
            (OrientationState::Undecided(o), Some(raw)) if self.symmetric_reference() => {
                self.plausible_as_read(o.other().to_game(raw))
            }
            _ => false,
        }
    }

    pub(super) fn plausible_as_read(&self, m: Bitboard) -> bool {
        if m == self.game_occ || Some(m) == self.prev_occ {
            return true;
        }
        if self.awaiting_board()
            && let Some((_, last)) = self.history.last()
        {
            let c = candidate(*last, self.prev_occ.unwrap_or_default(), !self.pos.turn());
            if ((m ^ self.game_occ) & !c.involved).is_empty() {
                return true;
            }
        }
        self.in_progress(m)
    }

    /// Only own pieces lifted, or every difference is part of one legal move.
    pub(super) fn in_progress(&self, m: Bitboard) -> bool {
        let diff = m ^ self.game_occ;
        let own = self.pos.board().by_color(self.pos.turn());
        if (diff & !(own & !m)).is_empty() {
            return true;
        }
        self.candidates
            .iter()
            .any(|c| (diff & !c.involved).is_empty())
    }

    pub(super) fn push_seen(&mut self, m: Bitboard) {
        if let Some(after) = &mut self.gap {
            *after += 1;
        }
        if self.seen_len == SEEN {
            self.seen.copy_within(1.., 0);
            self.seen_len -= 1;
        }
        self.seen[self.seen_len] = m;
        self.seen_len += 1;
    }

    pub(super) fn evaluate(&mut self, m: Bitboard, at: u64, out: &mut Vec<TrackerEvent>) {
        self.last_at = self.last_at.max(at);
        let mut rook_first = None;
        if let Phase::Castling(p) = self.phase {
            // A rook move waiting for the king: anything that is not the
            // king's half of that castling (or the rook going back) means
            // the rook move stands, e.g. the opponent has started his move.
            if !((m ^ p.mask) & !self.castling_squares(p.mv)).is_empty() {
                self.phase = Phase::Following;
                self.commit(p.mv, out);
            } else {
                rook_first = Some(p.mv);
            }
        }
        if let Phase::Promotion(p) = self.phase
            && p.mask != m
        {
            self.phase = Phase::Following;
            let to = Bitboard::from(p.mv.to());
            let back = m == self.game_occ;
            // The promoted piece lifted again (to exchange the pawn for the
            // piece) keeps the question open; the pawn back where it came
            // from withdraws the move; any other change means the opponent
            // has started his move: the default piece stands.
            if (m ^ p.mask) == to {
                self.phase = Phase::Promotion(p);
                return;
            }
            if !back {
                self.commit_default_promotion(p.mv, out);
            }
        }
        if let Phase::HiddenCapture(p) = self.phase
            && self.reply_begun(p, m)
        {
            // The other side lifts a piece while the capture shows done:
            // it is done (the reply is then read as usual).
            self.phase = Phase::Following;
            self.commit(p.mv, out);
        }
        if let Phase::Resync { mask, .. } | Phase::HiddenCapture(Pending { mask, .. }) = self.phase
            && mask != m
        {
            self.phase = Phase::Following;
        }
        if Some(m) != self.prev_occ && self.guidance == Guidance::TakebackAsked {
            self.guidance = Guidance::Quiet;
        }

        if m == self.game_occ {
            if self.awaiting_board() || self.guidance == Guidance::MismatchAnnounced {
                out.push(TrackerEvent::InSync);
            }
            self.game_shown |= !self.history.is_empty();
            self.phase = Phase::Following;
            self.guidance = Guidance::Quiet;
            self.gap = None;
            self.missed = false;
            if self.game_occ.rotate_180() != self.game_occ {
                self.decide(self.orientation.get(), out);
            }
            self.clear_attempt();
            return;
        }
        self.push_seen(m);

        if !self.awaiting_board() {
            let own = self.pos.board().by_color(self.pos.turn());
            for sq in self.game_occ & own & !m & !self.touched {
                self.touched.add(sq);
                if let Some(piece) = self.pos.board().piece_at(sq) {
                    out.push(TrackerEvent::Touched { square: sq, piece });
                }
            }
        }

        if let Some(new) = self.slid_on(m, at) {
            self.complete_slide(new, out);
            return;
        }

        if let Some(mv) = self.matching_move(m, out) {
            self.clear_guidance();
            if let (Some(rook), Move::Castle { .. }) = (rook_first, mv)
                && self.cfg.strict
            {
                self.touch_move_reported = true;
                out.push(TrackerEvent::TouchMove {
                    square: rook.to(),
                    piece: Piece {
                        color: self.pos.turn(),
                        role: Role::Rook,
                    },
                });
            }
            if mv.is_promotion() {
                self.phase = Phase::Promotion(Pending {
                    mv,
                    mask: m,
                    deadline: at + self.cfg.promotion_ms,
                });
                if let Some(from) = mv.from() {
                    out.push(TrackerEvent::PromotionPending { from, to: mv.to() });
                }
                self.answer_promotion_from_pieces(out);
            } else if self.extendable(mv) {
                self.phase = Phase::Castling(Pending {
                    mv,
                    mask: m,
                    deadline: at + self.cfg.extension_ms,
                });
            } else {
                self.commit(mv, out);
            }
            return;
        }

        if Some(m) == self.prev_occ {
            if !self.awaiting_board() && self.guidance != Guidance::TakebackAsked {
                self.guidance = Guidance::TakebackAsked;
                if let Some((_, last)) = self.history.last() {
                    out.push(TrackerEvent::TakebackRequested(*last));
                }
            } else {
                self.clear_guidance();
            }
            return;
        }

        // The start position set up after moves shown on the board (not
        // only entered elsewhere): the next game, as every e-board
        // program takes it. No guidance: the session starts the game, or
        // asks.
        if m == START_OCCUPANCY && self.game_shown && !self.history.is_empty() {
            self.clear_guidance();
            out.push(TrackerEvent::NewGameShown);
            return;
        }

        if self.cfg.strict
            && !self.touch_move_reported
            && let Some(ev) = self.castling_after_rook(m)
        {
            self.touch_move_reported = true;
            out.push(ev);
        }

        if self.plausible(m)
            && !self.two_hands_or_a_sensor(m, at, out)
            && !self.capture_beside_a_dead_sensor(m, at, out)
        {
            self.clear_guidance();
            // Also the position two plies on? Then it is taken over once
            // the hand is empty (the board stays so).
            let opponent = self.pos.board().by_color(!self.pos.turn());
            if !self.awaiting_board() && (self.game_occ & opponent & !m).any() {
                self.phase = Phase::Resync {
                    mask: m,
                    deadline: at + self.cfg.mismatch_ms,
                };
            } else if let Some(mv) = self.hidden_capture(m) {
                self.phase = Phase::HiddenCapture(Pending {
                    mv,
                    mask: m,
                    deadline: at + HIDDEN_CAPTURE_MS,
                });
            }
        } else if self.name_stuck_sensor(m, at, false, out)
            || self.recover(m, at, out)
            || self.name_stuck_sensor(m, at, true, out)
        {
            // The board is explained again; nothing to guide.
        } else if !matches!(
            self.guidance,
            Guidance::MismatchSince(_) | Guidance::MismatchAnnounced
        ) {
            self.guidance = Guidance::MismatchSince(at);
        } else if let Guidance::MismatchSince(_) = self.guidance {
            self.guidance = Guidance::MismatchSince(at);
        }
    }

    /// The last move's piece carried on from where it was read (set down
    /// on the way, then lifted again and set further, within the
    /// extension time and before the opponent's move): the move from the
    /// same square the board now shows. The opponent never empties the
    /// square the last move filled without filling it again (a capture),
    /// so no reply reads so.
    pub(super) fn slid_on(&self, m: Bitboard, at: u64) -> Option<Move> {
        let (last, until) = self.slide?;
        let (before, played) = self.history.last()?;
        if at > until || *played != last || self.awaiting_board() {
            return None;
        }
        let occ = before.board().occupied();
        // A capture only when its target was seen empty (the taken piece
        // off): a piece in the hand shows the same occupancy.
        let seen_empty = self.orient(self.slide_seen);
        before
            .legal_moves()
            .into_iter()
            .filter(|&mv| mv != last && mv.from() == last.from())
            .filter(|&mv| slidable(mv) || slid_capture(mv) && seen_empty.contains(mv.to()))
            .find(|&mv| candidate(mv, occ, before.turn()).after == m)
    }

    /// The last move becomes `new` (see [`Tracker::slid_on`]).
    pub(super) fn complete_slide(&mut self, new: Move, out: &mut Vec<TrackerEvent>) {
        let Some((before, old)) = self.history.pop() else {
            return;
        };
        let mut pos = before.clone();
        pos.play_unchecked(new);
        self.history.push((before, new));
        self.pos = pos;
        self.slide = self.slide.map(|(_, until)| (new, until));
        self.refresh();
        self.clear_attempt();
        self.clear_guidance();
        out.push(TrackerEvent::SlideCompleted { old, new });
    }

    /// Two own pieces off their holes that no castling lifts: one of them
    /// may be a dead sensor, and the board with it read the other way a
    /// move done (then the sensor is named). A hand holds one piece.
    pub(super) fn two_hands_or_a_sensor(
        &mut self,
        m: Bitboard,
        at: u64,
        out: &mut Vec<TrackerEvent>,
    ) -> bool {
        let own_off = self.game_occ & self.pos.board().by_color(self.pos.turn()) & !m;
        let castling = self
            .candidates
            .iter()
            .any(|c| matches!(c.mv, Move::Castle { .. }) && own_off.is_subset(c.involved));
        own_off.count() >= 2 && !castling && self.name_stuck_sensor(m, at, false, out)
    }

    /// A state that needs no guidance (the announced mismatch stays until
    /// the board agrees again).
    pub(super) fn clear_guidance(&mut self) {
        if matches!(self.guidance, Guidance::MismatchSince(_)) {
            self.guidance = Guidance::Quiet;
        }
    }

    /// The legal move whose result the board shows, if any. A move that
    /// fills a square never seen empty since the last move is reported
    /// ([`TrackerEvent::SensorSuspect`]) and not returned.
    pub(super) fn matching_move(
        &mut self,
        m: Bitboard,
        out: &mut Vec<TrackerEvent>,
    ) -> Option<Move> {
        let mut best: Option<(usize, Move)> = None;
        let seen_empty = self.orient(self.seen_empty);
        let mut suspect = None;
        let mut captures = 0;
        for c in self.candidates.iter().filter(|c| c.after == m) {
            // A hole that showed its peg too early, or one left out.
            let early = (!self.sensors.may_match(c.mv)).then(|| c.mv.to());
            captures += usize::from(c.capture);
            if !c.capture {
                if c.filled.is_subset(seen_empty) && early.is_none() {
                    return Some(c.mv);
                }
                suspect = suspect.or(Some((c.mv, (c.filled & !seen_empty).first().or(early))));
                continue;
            } else if early.is_some() {
                continue;
            }
            // A capture needs evidence: an earlier state with both the
            // capturing piece's square and the target empty (before a hole
            // in time, when one may hide the capture).
            if let Some(age) = self.capture_evidence(c.mv)
                && best.is_none_or(|(a, _)| age < a)
            {
                best = Some((age, c.mv));
            }
        }
        if let (Some(after_gap), true) = (self.gap, captures > 1) {
            // Any of them may have been made unseen: evidence seen since
            // may be a piece lifted and put back.
            return self.pre_gap_capture(m, after_gap);
        }
        if let Some((_, Some(square))) = suspect {
            self.sensors.suspect(square);
        }
        if best.is_none()
            && let Some((mv, Some(square))) = suspect
            && !self.suspect_reported
        {
            self.suspect_reported = true;
            out.push(TrackerEvent::SensorSuspect { mv, square });
        }
        best.map(|(_, mv)| mv)
    }

    /// The one capture resulting in `m` with evidence from before a hole
    /// in time (states older than the last `after_gap`).
    pub(super) fn pre_gap_capture(&self, m: Bitboard, after_gap: usize) -> Option<Move> {
        let mut found = self
            .candidates
            .iter()
            .filter(|c| c.capture && c.after == m)
            .filter_map(|c| {
                let both = Bitboard::from(c.mv.from()?) | c.mv.to();
                self.seen[..self.seen_len.saturating_sub(after_gap)]
                    .iter()
                    .rev()
                    .position(|s| !s.intersects(both))
                    .map(|age| (age, c.mv))
            });
        let first = found.next()?;
        // The youngest evidence decides, as without a hole.
        Some(found.fold(first, |a, b| if b.0 < a.0 { b } else { a }).1)
    }

    /// After lost lines, the one capture whose result the board shows and
    /// whose evidence (both its squares empty at once) may have been in
    /// them: its target was seen empty (before a hole that may hide a
    /// whole capture, if there was one), and no other capture's was.
    /// Without lost lines that evidence would have been seen: a target
    /// lifted and put back is then a hesitation, not a capture.
    pub(super) fn hidden_capture(&self, m: Bitboard) -> Option<Move> {
        if !self.missed || self.awaiting_board() {
            return None;
        }
        let trusted = &self.seen[..self.seen_len - self.gap.unwrap_or(0).min(self.seen_len)];
        let mut found = self
            .candidates
            .iter()
            .filter(|c| c.capture && c.after == m && self.sensors.may_match(c.mv))
            .filter(|c| trusted.iter().any(|s| !s.contains(c.mv.to())));
        let first = found.next()?;
        found.next().is_none().then_some(first.mv)
    }

    /// Whether the board, after showing a hidden capture done, shows only
    /// pieces lifted that the other side moves or takes: the reply has
    /// begun. (Read the other way, with the capturing piece still in the
    /// hand, it would be a second piece of the capturer's off its hole, or
    /// the capture's own evidence.)
    pub(super) fn reply_begun(&self, p: Pending, m: Bitboard) -> bool {
        let lifted = p.mask & !m;
        if lifted.is_empty() || !m.is_subset(p.mask) {
            return false;
        }
        let replier = self
            .pos
            .board()
            .by_color(!self.pos.turn())
            .without(p.mv.to());
        if lifted.is_subset(replier) {
            return true;
        }
        let mut after = self.pos.clone();
        after.play_unchecked(p.mv);
        let takes = after
            .legal_moves()
            .iter()
            .filter(|reply| reply.is_capture())
            .fold(Bitboard::EMPTY, |acc, reply| acc.with(reply.to()));
        lifted.is_subset(replier | takes)
    }

    /// How many settled states ago both squares of a capture were empty.
    pub(super) fn capture_evidence(&self, mv: Move) -> Option<usize> {
        let both = Bitboard::from(mv.from()?) | mv.to();
        self.seen[..self.seen_len]
            .iter()
            .rev()
            .position(|s| !s.intersects(both))
    }

    /// A rook move onto the square where castling would put it, while that
    /// castling is legal: the king may follow.
    pub(super) fn extendable(&self, mv: Move) -> bool {
        let Move::Normal {
            role: Role::Rook,
            from,
            to,
            ..
        } = mv
        else {
            return false;
        };
        let turn = self.pos.turn();
        self.candidates.iter().any(|c| match c.mv {
            Move::Castle { king, rook } => {
                rook == from && CastlingSide::from_king_side(rook > king).rook_to(turn) == to
            }
            _ => false,
        })
    }

    /// The squares of the castling a rook move may be the first half of.
    pub(super) fn castling_squares(&self, rook_move: Move) -> Bitboard {
        let from = rook_move.from();
        self.candidates
            .iter()
            .filter(|c| matches!(c.mv, Move::Castle { rook, .. } if Some(rook) == from))
            .fold(Bitboard::EMPTY, |acc, c| acc | c.involved)
    }

    /// Strict mode: after a rook move to its castling square, the same
    /// player completed castling with the king.
    pub(super) fn castling_after_rook(&self, m: Bitboard) -> Option<TrackerEvent> {
        let (before, last) = self.history.last()?;
        let Move::Normal {
            role: Role::Rook,
            from,
            to,
            ..
        } = *last
        else {
            return None;
        };
        let occ = before.board().occupied();
        let turn = before.turn();
        before.legal_moves().into_iter().find_map(|mv| match mv {
            Move::Castle { rook, .. } if rook == from && candidate(mv, occ, turn).after == m => {
                Some(TrackerEvent::TouchMove {
                    square: to,
                    piece: Piece {
                        color: turn,
                        role: Role::Rook,
                    },
                })
            }
            _ => None,
        })
    }

    /// A board no single move explains: the game turned round, or the
    /// position two plies on with exactly one explanation. Takes it over
    /// and says so.
    pub(super) fn recover(&mut self, m: Bitboard, at: u64, out: &mut Vec<TrackerEvent>) -> bool {
        if self.awaiting_board() {
            return false;
        }
        let Some(raw) = self.settled else {
            return false;
        };
        let other = self.orientation.get().other();
        if other.to_game(raw) == self.game_occ {
            self.decide(other, out);
            self.orientation = OrientationState::Decided(other);
            self.clear_attempt();
            out.push(TrackerEvent::BoardTurned {
                flipped: self.flipped(),
            });
            self.evaluate(self.game_occ, at, out);
            return true;
        }
        let Some(missed) = self.catch_up(m) else {
            return false;
        };
        self.resynchronise(missed, m, at, out);
        true
    }

    /// The missed moves are played; the last ply is then an ordinary move
    /// on the board (a rook move may still be castling, a promotion waits
    /// for its piece, a capture needs its evidence), with the evidence
    /// seen so far.
    pub(super) fn resynchronise(
        &mut self,
        missed: Vec<Move>,
        m: Bitboard,
        at: u64,
        out: &mut Vec<TrackerEvent>,
    ) {
        out.push(TrackerEvent::Resynchronised {
            moves: missed.clone(),
        });
        let (seen, seen_len, seen_empty) = (self.seen, self.seen_len, self.seen_empty);
        for mv in missed {
            // What was lifted since belongs to a later ply: no touch-move.
            self.touched = Bitboard::EMPTY;
            self.lifted = BoardMask(0);
            self.commit(mv, out);
        }
        (self.seen, self.seen_len, self.seen_empty) = (seen, seen_len, seen_empty);
        self.evaluate(m, at, out);
    }

    /// The way back ([`crate::board::catch_up::by_occupancy`]): when the board shows what two or
    /// more plies from the game reach, and one sequence explains it best
    /// (the fewest plies, then the states seen on the way, which tell the
    /// order of the plies and which capture was made), its plies but the
    /// last. Sequences that end in different positions and that the states
    /// seen do not tell apart are waited on: a later board will.
    pub(super) fn catch_up(&self, m: Bitboard) -> Option<Vec<Move>> {
        let limits = crate::board::catch_up::by_occupancy::Limits {
            min_plies: 1,
            max_plies: CATCH_UP_PLIES,
            more_plies: 1,
            max_nodes: CATCH_UP_NODES,
            promote_to: self.cfg.promote_to,
        };
        // After a hole in time that may hide a capture, only what was seen
        // before it tells captures apart.
        let trusted = self.seen_len - self.gap.unwrap_or(0).min(self.seen_len);
        let seen = &self.seen[..self.seen_len];
        let seen_empty_since = seen
            .iter()
            .fold(Bitboard::EMPTY, |acc, s| acc | (self.game_occ & !*s));
        let seen_lifted = self.orient(self.seen_empty);
        // A square seen holding a piece after it had stood empty since the
        // game and the board last agreed (a piece put down there, seen).
        let refilled = |sq: Square| {
            let mut was_empty = !self.game_occ.contains(sq);
            seen.iter().any(|s| {
                if s.contains(sq) {
                    was_empty
                } else {
                    was_empty = true;
                    false
                }
            })
        };
        // The plies to play now: all of them when the board shows the next
        // move in the hand, else all but the last, which is then read as
        // an ordinary move (with its evidence).
        let to_play = |way: &crate::board::catch_up::by_occupancy::Way| -> Vec<Move> {
            let n = way.moves.len() - usize::from(!way.in_hand);
            way.moves[..n].to_vec()
        };
        let evidenced = |way: &crate::board::catch_up::by_occupancy::Way| {
            let seq = &way.moves;
            // Every ply's piece was seen out of its hole (unless a line was
            // lost meanwhile): a board that is simply wrong (a piece knocked
            // over, a peg in the wrong hole) is no string of moves.
            let lifted = self.missed
                || seq.iter().all(|&mv| match mv {
                    Move::Castle { king, .. } => seen_lifted.contains(king),
                    _ => mv.from().is_none_or(|from| seen_lifted.contains(from)),
                });
            // A piece a ply put down and a later ply lifts (or takes) was
            // seen standing there: else the later ply moved a piece that
            // never stood there (a hand still holding one, read as moves).
            let mut filled = Bitboard::EMPTY;
            let mut occ = self.game_occ;
            let mut turn = self.pos.turn();
            let stood = seq.iter().all(|&mv| {
                let touched = crate::board::catch_up::by_occupancy::involved(mv, turn) & occ;
                let ok = self.gap.is_some() || (touched & filled).into_iter().all(refilled);
                let after = crate::board::catch_up::by_occupancy::occupancy_after(mv, occ, turn);
                filled |= after & !occ;
                (occ, turn) = (after, !turn);
                ok
            });
            // The piece in the hand, if a ply put it down, was seen there.
            let held = !way.in_hand || (filled & !m).into_iter().all(refilled);
            // Every capture played now took a piece the board was seen
            // without (unless a hole may hide it).
            // The first ply as the sensors allow ([`sensors`]): no piece
            // put down before it was lifted, none onto a hole left out.
            lifted
                && seq.first().is_none_or(|&mv| self.sensors.may_match(mv))
                && stood
                && held
                && to_play(way).iter().all(|&mv| {
                    !mv.is_capture()
                        || self.gap.is_some()
                        || seen_empty_since.contains(mv.to())
                        || !self.game_occ.contains(mv.to())
                })
        };
        let states = if self.gap.is_some() {
            &seen[..trusted]
        } else {
            seen
        };
        let crate::board::catch_up::by_occupancy::Found::Sequences(ways) =
            crate::board::catch_up::by_occupancy::explain_with(&self.pos, m, limits, &mut |way| {
                evidenced(way)
            })
        else {
            return None;
        };
        let scored: Vec<(usize, Vec<Move>)> = ways
            .iter()
            .map(|way| {
                (
                    crate::board::catch_up::by_occupancy::fit(&self.pos, way, states),
                    to_play(way),
                )
            })
            .collect();
        // What explains most of what the board showed on the way wins; then
        // the fewest plies.
        let best = scored
            .iter()
            .map(|(score, moves)| (*score, std::cmp::Reverse(moves.len())))
            .max()?;
        let top: Vec<&Vec<Move>> = scored
            .iter()
            .filter(|(score, moves)| (*score, std::cmp::Reverse(moves.len())) == best)
            .map(|(_, moves)| moves)
            .collect();
        let first = top[0];
        let end = |moves: &Vec<Move>| {
            let pos = crate::board::catch_up::by_occupancy::play_all(&self.pos, moves);
            (
                pos.board().clone(),
                pos.turn(),
                pos.castles().castling_rights(),
                pos.maybe_ep_square(),
            )
        };
        // Ways that play the same moves now, or several orders of the same
        // moves that no state seen tells apart, reach the same position:
        // the position is certain, the order the first the search found.
        (!first.is_empty() && top.iter().all(|moves| end(moves) == end(first)))
            .then(|| first.clone())
    }
}
