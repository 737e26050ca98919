//! The move tracker: occupancy snapshots in, FIDE Appendix E.2 events out.
//!
//! A peg-board only sees which holes hold a peg. The tracker compares every
//! *settled* board state (one that lasted at least the settle window) with
//! the game position and its legal moves:
//!
//! * a piece of the side to move leaving its hole is **touched** (E.2.2);
//! * a state equal to the result of a legal move **executes** it (E.2.3),
//!   at once, or after an extension window for a rook move that may be the
//!   first half of castling;
//! * a capture leaves the same occupancy for every target of the capturing
//!   piece, so it is recognised from the history of the attempt: the target
//!   must have been empty while the capturing piece was out of its hole,
//!   and then refilled. Lifting an opponent's piece and putting it back, then
//!   holding one's own piece, is not a capture;
//! * a promotion cannot be seen: the tracker reports it pending and takes
//!   the piece from a `P` line, an explicit choice, or the default after a
//!   time;
//! * the board back at the position before the last move is a takeback
//!   request (E.6); anything else that matches neither the game, a legal
//!   move nor a move in progress for longer than the mismatch time is a
//!   mismatch, with the squares that differ;
//! * at the start position, which looks the same turned round, the first
//!   lifted piece tells whether the board is turned: only one orientation
//!   makes it a piece of the side to move (or a `P` line with identities
//!   settles it at once).
//!
//! Time is passed in as milliseconds; the tracker never reads a clock.

use shakmaty::{CastlingSide, Chess, Color, Move, Piece, Position, Role, Square};

use crate::words::{Pack, Token, Utterance};

/// Tunables. The defaults follow the issue: settle at most 100 ms,
/// mismatch guidance after 2 s, queen after 4 s.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TrackerConfig {
    /// A state must last this long before it is acted on (glitch filter).
    pub settle_ms: u64,
    /// How long a rook move that may be the first half of castling waits
    /// for the king.
    pub extension_ms: u64,
    /// How long a board that matches nothing waits before guidance.
    pub mismatch_ms: u64,
    /// How long a promotion waits for the piece before the default.
    pub promotion_ms: u64,
    /// The default promotion piece.
    pub promote_to: Role,
    /// Strict tournament mode: rook before king is touch-move (Art. 4.4),
    /// so a rook move is never held back for castling.
    pub strict: bool,
}

impl Default for TrackerConfig {
    fn default() -> TrackerConfig {
        TrackerConfig {
            settle_ms: 80,
            extension_ms: 2000,
            mismatch_ms: 2000,
            promotion_ms: 4000,
            promote_to: Role::Queen,
            strict: false,
        }
    }
}

/// How the board differs from the game.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Mismatch {
    /// Squares where the game has a piece and the board has no peg.
    pub missing: Vec<(Square, Piece)>,
    /// Squares with a peg that the last move emptied (it was not carried out).
    pub expected_empty: Vec<Square>,
    /// Other squares with a peg where the game has none.
    pub extra: Vec<Square>,
}

impl Mismatch {
    pub fn is_empty(&self) -> bool {
        self.missing.is_empty() && self.expected_empty.is_empty() && self.extra.is_empty()
    }
}

/// What the tracker noticed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TrackerEvent {
    /// A piece of the side to move left its hole (E.2.2).
    Touched { square: Square, piece: Piece },
    /// A move was executed on the board (E.2.3); the tracker has played it.
    Executed(Move),
    /// A pawn reached the last rank; the piece is not yet known.
    PromotionPending { from: Square, to: Square },
    /// Strict mode: the rook was moved before the king (Art. 4.4 b), so
    /// castling is not allowed; the rook move stands.
    TouchMove { square: Square, piece: Piece },
    /// The board is back at the position before this move (E.6); the
    /// session asks the player to confirm and then calls
    /// [`Tracker::take_back`].
    TakebackRequested(Move),
    /// The board has differed from the game for the mismatch time.
    Mismatch(Mismatch),
    /// The board matches the game again after a mismatch, or after the
    /// player carried out a move entered elsewhere.
    InSync,
    /// The board was found turned round at the start; snapshots are now
    /// read rotated by 180 degrees.
    BoardTurned { flipped: bool },
}

/// A legal move with the occupancy it leaves and the squares it touches.
#[derive(Clone, Copy, Debug)]
struct Candidate {
    mv: Move,
    after: u64,
    involved: u64,
    /// A normal capture: the same `after` for every target of the piece.
    capture: bool,
}

#[derive(Clone, Copy, Debug)]
struct Pending {
    mv: Move,
    mask: u64,
    deadline: u64,
}

const SEEN: usize = 16;

/// The move tracker. See the module documentation.
#[derive(Clone, Debug)]
pub struct Tracker {
    cfg: TrackerConfig,
    pos: Chess,
    /// Position before each move and the move, for takebacks.
    history: Vec<(Chess, Move)>,
    game_occ: u64,
    prev_occ: Option<u64>,
    candidates: Vec<Candidate>,
    flipped: bool,
    orientation_locked: bool,
    /// Last snapshot as received (board coordinates) and since when.
    raw: Option<(u64, u64)>,
    /// Last settled snapshot (board coordinates).
    settled: Option<u64>,
    /// Settled states (game coordinates) since the board last matched the game.
    seen: [u64; SEEN],
    seen_len: usize,
    touched: u64,
    extension: Option<Pending>,
    promotion: Option<Pending>,
    mismatch_since: Option<u64>,
    mismatch_announced: bool,
    takeback_reported: bool,
    touch_move_reported: bool,
    /// A move entered elsewhere that the board has not shown yet.
    awaiting_external: bool,
    last_pieces: Option<[Option<Piece>; 64]>,
}

fn bit(sq: Square) -> u64 {
    1u64 << u32::from(sq)
}

fn squares(mut mask: u64) -> impl Iterator<Item = Square> {
    std::iter::from_fn(move || {
        if mask == 0 {
            return None;
        }
        let i = mask.trailing_zeros();
        mask &= mask - 1;
        Some(Square::new(i))
    })
}

fn candidate(mv: Move, occ: u64, turn: Color) -> Candidate {
    match mv {
        Move::Normal {
            from, to, capture, ..
        } => Candidate {
            mv,
            after: (occ & !bit(from)) | bit(to),
            involved: bit(from) | bit(to),
            capture: capture.is_some(),
        },
        Move::EnPassant { from, to } => {
            let taken = bit(Square::from_coords(to.file(), from.rank()));
            Candidate {
                mv,
                after: (occ & !bit(from) & !taken) | bit(to),
                involved: bit(from) | bit(to) | taken,
                capture: false,
            }
        }
        Move::Castle { king, rook } => {
            let side = CastlingSide::from_king_side(rook > king);
            let (k2, r2) = (bit(side.king_to(turn)), bit(side.rook_to(turn)));
            let from = bit(king) | bit(rook);
            Candidate {
                mv,
                after: (occ & !from) | k2 | r2,
                involved: from | k2 | r2,
                capture: false,
            }
        }
        Move::Put { to, .. } => Candidate {
            mv,
            after: occ | bit(to),
            involved: bit(to),
            capture: false,
        },
    }
}

impl Tracker {
    pub fn new(cfg: TrackerConfig, pos: Chess) -> Tracker {
        let mut t = Tracker {
            cfg,
            pos,
            history: Vec::new(),
            game_occ: 0,
            prev_occ: None,
            candidates: Vec::with_capacity(256),
            flipped: false,
            orientation_locked: false,
            raw: None,
            settled: None,
            seen: [0; SEEN],
            seen_len: 0,
            touched: 0,
            extension: None,
            promotion: None,
            mismatch_since: None,
            mismatch_announced: false,
            takeback_reported: false,
            touch_move_reported: false,
            awaiting_external: false,
            last_pieces: None,
        };
        t.refresh();
        t
    }

    pub fn config(&self) -> &TrackerConfig {
        &self.cfg
    }

    pub fn set_config(&mut self, cfg: TrackerConfig) {
        self.cfg = cfg;
    }

    /// The game position as the tracker knows it.
    pub fn position(&self) -> &Chess {
        &self.pos
    }

    /// The moves played so far (executed on the board or entered elsewhere).
    pub fn moves(&self) -> impl Iterator<Item = Move> + '_ {
        self.history.iter().map(|(_, m)| *m)
    }

    /// Whether snapshots are read rotated by 180 degrees.
    pub fn flipped(&self) -> bool {
        self.flipped
    }

    /// Sets the orientation by hand (and stops detecting it).
    pub fn set_flipped(&mut self, flipped: bool) {
        self.flipped = flipped;
        self.orientation_locked = true;
        self.clear_attempt();
    }

    /// Whether a move entered elsewhere still has to be carried out on the board.
    pub fn awaiting_board(&self) -> bool {
        self.awaiting_external
    }

    /// The pending promotion, if a pawn stands on the last rank unresolved.
    pub fn promotion_pending(&self) -> Option<(Square, Square)> {
        self.promotion.and_then(|p| Some((p.mv.from()?, p.mv.to())))
    }

    /// Starts over with a new game position (a new game, or a position
    /// loaded from FEN). Orientation is detected again at the start position.
    pub fn reset(&mut self, pos: Chess) {
        self.pos = pos;
        self.history.clear();
        self.orientation_locked = false;
        self.awaiting_external = false;
        self.mismatch_announced = false;
        self.refresh();
        self.clear_attempt();
    }

    fn refresh(&mut self) {
        self.game_occ = self.pos.board().occupied().0;
        self.prev_occ = self.history.last().map(|(p, _)| p.board().occupied().0);
        self.candidates.clear();
        let turn = self.pos.turn();
        for mv in self.pos.legal_moves() {
            self.candidates.push(candidate(mv, self.game_occ, turn));
        }
    }

    fn clear_attempt(&mut self) {
        self.seen_len = 0;
        self.touched = 0;
        self.extension = None;
        self.promotion = None;
        self.mismatch_since = None;
        self.takeback_reported = false;
        self.touch_move_reported = false;
    }

    fn orient(&self, mask: u64) -> u64 {
        if self.flipped {
            mask.reverse_bits()
        } else {
            mask
        }
    }

    /// When [`Tracker::on_tick`] must next be called, if anything waits.
    pub fn next_deadline(&self) -> Option<u64> {
        let (raw, since) = self.raw?;
        if self.settled != Some(raw) {
            return Some(since + self.cfg.settle_ms);
        }
        [
            self.extension.map(|p| p.deadline),
            self.promotion.map(|p| p.deadline),
            self.mismatch_since.map(|s| s + self.cfg.mismatch_ms),
        ]
        .into_iter()
        .flatten()
        .min()
    }

    /// Acts on every deadline up to `now`.
    pub fn on_tick(&mut self, now: u64, out: &mut Vec<TrackerEvent>) {
        // Each step consumes its deadline, so this ends; the bound is a guard.
        for _ in 0..16 {
            let Some(deadline) = self.next_deadline() else {
                return;
            };
            if deadline > now {
                return;
            }
            let Some((raw, since)) = self.raw else { return };
            if self.settled != Some(raw) {
                self.settle(raw, since + self.cfg.settle_ms, out);
            } else if let Some(p) = self.extension.filter(|p| p.deadline <= now) {
                self.extension = None;
                self.commit(p.mv, out);
            } else if let Some(p) = self.promotion.filter(|p| p.deadline <= now) {
                self.promotion = None;
                let mv = with_promotion(p.mv, self.cfg.promote_to);
                self.commit(mv, out);
            } else if let Some(since) = self
                .mismatch_since
                .filter(|s| s + self.cfg.mismatch_ms <= now)
            {
                let _ = since;
                self.mismatch_since = None;
                self.mismatch_announced = true;
                let m = self.orient(raw);
                out.push(TrackerEvent::Mismatch(self.diff(m)));
            } else {
                return;
            }
        }
    }

    /// A snapshot arrived at `now` (board coordinates, as the board sent it).
    pub fn on_snapshot(&mut self, now: u64, mask: u64, out: &mut Vec<TrackerEvent>) {
        self.on_tick(now, out);
        match self.raw {
            Some((raw, _)) if raw == mask => {}
            _ => self.raw = Some((mask, now)),
        }
        if self.cfg.settle_ms == 0 {
            self.on_tick(now, out);
        }
    }

    /// Convenience: [`Tracker::on_snapshot`] returning the events.
    pub fn feed(&mut self, now: u64, mask: u64) -> Vec<TrackerEvent> {
        let mut out = Vec::new();
        self.on_snapshot(now, mask, &mut out);
        out
    }

    /// Convenience: [`Tracker::on_tick`] returning the events.
    pub fn tick(&mut self, now: u64) -> Vec<TrackerEvent> {
        let mut out = Vec::new();
        self.on_tick(now, &mut out);
        out
    }

    /// A `P` line: piece identities (board coordinates). Used for the
    /// orientation at the start, to answer a pending promotion, and as a
    /// snapshot.
    pub fn on_pieces(
        &mut self,
        now: u64,
        pieces: &[Option<Piece>; 64],
        out: &mut Vec<TrackerEvent>,
    ) {
        if !self.orientation_locked && self.history.is_empty() {
            let board = self.pos.board();
            let score = |rotated: bool| {
                (0..64u32)
                    .filter(|&i| {
                        let sq = Square::new(i);
                        let idx = if rotated { 63 - i as usize } else { i as usize };
                        board.piece_at(sq) == pieces[idx]
                    })
                    .count()
            };
            let (straight, turned) = (score(self.flipped), score(!self.flipped));
            if turned > straight {
                self.flipped = !self.flipped;
                self.clear_attempt();
                self.settled = None;
                out.push(TrackerEvent::BoardTurned {
                    flipped: self.flipped,
                });
            }
            if turned != straight {
                self.orientation_locked = true;
            }
        }
        let mut oriented = *pieces;
        if self.flipped {
            oriented.reverse();
        }
        self.last_pieces = Some(oriented);
        self.on_snapshot(now, super::pieces_mask(pieces), out);
        self.answer_promotion_from_pieces(out);
    }

    fn answer_promotion_from_pieces(&mut self, out: &mut Vec<TrackerEvent>) {
        let (Some(p), Some(pieces)) = (self.promotion, self.last_pieces) else {
            return;
        };
        let Some((raw, _)) = self.raw else { return };
        if self.orient(raw) != p.mask {
            return;
        }
        if let Some(piece) = pieces[usize::from(p.mv.to())]
            && piece.color == self.pos.turn()
            && !matches!(piece.role, Role::Pawn | Role::King)
        {
            self.promotion = None;
            self.commit(with_promotion(p.mv, piece.role), out);
        }
    }

    /// The player (or the session on his behalf) chose the promotion piece.
    pub fn choose_promotion(&mut self, role: Role, out: &mut Vec<TrackerEvent>) -> bool {
        if matches!(role, Role::Pawn | Role::King) {
            return false;
        }
        match self.promotion.take() {
            Some(p) => {
                self.commit(with_promotion(p.mv, role), out);
                true
            }
            None => false,
        }
    }

    /// A move entered elsewhere (the sighted player's move typed by the
    /// assistant, or an electronic board). The tracker plays it and expects
    /// the board to follow; [`TrackerEvent::InSync`] reports when it has.
    pub fn apply_external(&mut self, now: u64, mv: Move, out: &mut Vec<TrackerEvent>) {
        self.history.push((self.pos.clone(), mv));
        self.pos.play_unchecked(mv);
        self.refresh();
        self.clear_attempt();
        self.awaiting_external = true;
        if let Some(s) = self.settled {
            let m = self.orient(s);
            self.evaluate(m, now, out);
        }
    }

    /// Takes back the last move (after the player confirmed the request).
    pub fn take_back(&mut self, now: u64, out: &mut Vec<TrackerEvent>) -> Option<Move> {
        let (pos, mv) = self.history.pop()?;
        self.pos = pos;
        self.refresh();
        self.clear_attempt();
        self.awaiting_external = false;
        if let Some(s) = self.settled {
            let m = self.orient(s);
            self.evaluate(m, now, out);
        }
        Some(mv)
    }

    /// How the last settled board differs from the game now (for
    /// "repeat the guidance" on request). `None` when it matches.
    pub fn mismatch(&self) -> Option<Mismatch> {
        let m = self.orient(self.settled?);
        (m != self.game_occ).then(|| self.diff(m))
    }

    fn diff(&self, m: u64) -> Mismatch {
        let board = self.pos.board();
        let vacated = self.prev_occ.map_or(0, |p| p & !self.game_occ);
        let extra = m & !self.game_occ;
        Mismatch {
            missing: squares(self.game_occ & !m)
                .filter_map(|sq| Some((sq, board.piece_at(sq)?)))
                .collect(),
            expected_empty: squares(extra & vacated).collect(),
            extra: squares(extra & !vacated).collect(),
        }
    }

    fn settle(&mut self, raw: u64, at: u64, out: &mut Vec<TrackerEvent>) {
        self.settled = Some(raw);
        if self.detecting_orientation() {
            let straight = self.orient(raw);
            let turned = self.orient(raw.reverse_bits());
            // Decisive when exactly one orientation makes sense (a lifted
            // piece belongs to the side to move in only one of them).
            match (self.plausible(straight), self.plausible(turned)) {
                (true, false) => self.orientation_locked = true,
                (false, true) => {
                    self.flipped = !self.flipped;
                    self.orientation_locked = true;
                    self.clear_attempt();
                    out.push(TrackerEvent::BoardTurned {
                        flipped: self.flipped,
                    });
                }
                _ => {}
            }
        }
        let m = self.orient(raw);
        self.evaluate(m, at, out);
    }

    /// Orientation is detected while the board should still show a
    /// position that looks the same turned round (the standard start), and
    /// only until the board has matched a position that does not.
    fn detecting_orientation(&self) -> bool {
        if self.orientation_locked {
            return false;
        }
        let reference = match (self.history.len(), self.awaiting_external) {
            (0, _) => self.game_occ,
            (1, true) => self.prev_occ.unwrap_or(0),
            _ => return false,
        };
        reference.reverse_bits() == reference
    }

    /// Whether a state makes sense in this orientation: the game, a legal
    /// move's result, a move in progress, or a move entered elsewhere being
    /// carried out.
    fn plausible(&self, m: u64) -> bool {
        if m == self.game_occ || Some(m) == self.prev_occ {
            return true;
        }
        if self.awaiting_external
            && let Some((_, last)) = self.history.last()
        {
            let c = candidate(*last, self.prev_occ.unwrap_or(0), !self.pos.turn());
            if (m ^ self.game_occ) & !c.involved == 0 {
                return true;
            }
        }
        self.in_progress(m)
    }

    /// Only own pieces lifted, or every difference is part of one legal move.
    fn in_progress(&self, m: u64) -> bool {
        let diff = m ^ self.game_occ;
        let own = self.pos.board().by_color(self.pos.turn()).0;
        if diff & !(own & !m) == 0 {
            return true;
        }
        self.candidates.iter().any(|c| diff & !c.involved == 0)
    }

    fn push_seen(&mut self, m: u64) {
        if self.seen_len == SEEN {
            self.seen.copy_within(1.., 0);
            self.seen_len -= 1;
        }
        self.seen[self.seen_len] = m;
        self.seen_len += 1;
    }

    fn evaluate(&mut self, m: u64, at: u64, out: &mut Vec<TrackerEvent>) {
        if let Some(p) = self.extension.take() {
            // A rook move waiting for the king: anything that is not the
            // king's half of that castling (or the rook going back) means
            // the rook move stands, e.g. the opponent has started his move.
            if (m ^ p.mask) & !self.castling_squares(p.mv) != 0 {
                self.commit(p.mv, out);
            }
        }
        if self.promotion.is_some_and(|p| p.mask != m) {
            self.promotion = None;
        }
        if Some(m) != self.prev_occ {
            self.takeback_reported = false;
        }

        if m == self.game_occ {
            if self.awaiting_external || self.mismatch_announced {
                out.push(TrackerEvent::InSync);
            }
            self.awaiting_external = false;
            self.mismatch_announced = false;
            if self.game_occ.reverse_bits() != self.game_occ {
                self.orientation_locked = true;
            }
            self.clear_attempt();
            return;
        }
        self.push_seen(m);

        if !self.awaiting_external {
            let own = self.pos.board().by_color(self.pos.turn()).0;
            for sq in squares(self.game_occ & own & !m & !self.touched) {
                self.touched |= bit(sq);
                if let Some(piece) = self.pos.board().piece_at(sq) {
                    out.push(TrackerEvent::Touched { square: sq, piece });
                }
            }
        }

        if let Some(mv) = self.matching_move(m) {
            self.mismatch_since = None;
            if mv.is_promotion() {
                if self.promotion.is_none() {
                    self.promotion = Some(Pending {
                        mv,
                        mask: m,
                        deadline: at + self.cfg.promotion_ms,
                    });
                    if let Some(from) = mv.from() {
                        out.push(TrackerEvent::PromotionPending { from, to: mv.to() });
                    }
                    self.answer_promotion_from_pieces(out);
                }
            } else if self.extendable(mv) {
                self.extension = Some(Pending {
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
            self.mismatch_since = None;
            if !self.awaiting_external && !self.takeback_reported {
                self.takeback_reported = true;
                if let Some((_, last)) = self.history.last() {
                    out.push(TrackerEvent::TakebackRequested(*last));
                }
            }
            return;
        }

        if self.cfg.strict
            && !self.touch_move_reported
            && let Some(ev) = self.castling_after_rook(m)
        {
            self.touch_move_reported = true;
            out.push(ev);
        }

        if self.plausible(m) {
            self.mismatch_since = None;
        } else {
            self.mismatch_since = Some(at);
        }
    }

    /// The legal move whose result the board shows, if any.
    fn matching_move(&self, m: u64) -> Option<Move> {
        let mut best: Option<(usize, Move)> = None;
        for c in self.candidates.iter().filter(|c| c.after == m) {
            if !c.capture {
                return Some(c.mv);
            }
            // A capture needs evidence: an earlier state with both the
            // capturing piece's square and the target empty.
            let (Some(from), to) = (c.mv.from(), c.mv.to()) else {
                continue;
            };
            let both = bit(from) | bit(to);
            let age = self.seen[..self.seen_len]
                .iter()
                .rev()
                .position(|s| s & both == 0);
            if let Some(age) = age
                && best.is_none_or(|(a, _)| age < a)
            {
                best = Some((age, c.mv));
            }
        }
        best.map(|(_, mv)| mv)
    }

    /// A rook move onto the square where castling would put it, while that
    /// castling is legal: the king may follow.
    fn extendable(&self, mv: Move) -> bool {
        if self.cfg.strict {
            return false;
        }
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
    fn castling_squares(&self, rook_move: Move) -> u64 {
        let from = rook_move.from();
        self.candidates
            .iter()
            .filter(|c| matches!(c.mv, Move::Castle { rook, .. } if Some(rook) == from))
            .fold(0, |acc, c| acc | c.involved)
    }

    /// Strict mode: after a rook move to its castling square, the same
    /// player completed castling with the king.
    fn castling_after_rook(&self, m: u64) -> Option<TrackerEvent> {
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
        let occ = before.board().occupied().0;
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

    fn commit(&mut self, mv: Move, out: &mut Vec<TrackerEvent>) {
        self.history.push((self.pos.clone(), mv));
        self.pos.play_unchecked(mv);
        self.refresh();
        self.clear_attempt();
        self.orientation_locked = true;
        self.awaiting_external = false;
        out.push(TrackerEvent::Executed(mv));
        if self.mismatch_announced {
            self.mismatch_announced = false;
            out.push(TrackerEvent::InSync);
        }
    }
}

fn with_promotion(mv: Move, role: Role) -> Move {
    match mv {
        Move::Normal {
            role: r,
            from,
            capture,
            to,
            promotion: Some(_),
        } => Move::Normal {
            role: r,
            from,
            capture,
            to,
            promotion: Some(role),
        },
        other => other,
    }
}

/// Spoken guidance for a mismatch: "Springer Felix drei fehlt. Eva vier
/// leer erwartet." in the pack's language.
pub fn render_mismatch(pack: &Pack, mismatch: &Mismatch) -> Utterance {
    let mut parts = Vec::new();
    for (sq, piece) in &mismatch.missing {
        let what = pack.render(&[Token::Piece(piece.role), Token::Square(*sq)]);
        parts.push(pack.phrase("missing", &[("piece", what)]));
    }
    for sq in &mismatch.expected_empty {
        parts.push(pack.phrase("expected_empty", &[("square", pack.square(*sq))]));
    }
    for sq in &mismatch.extra {
        parts.push(pack.phrase("unexpected_piece", &[("square", pack.square(*sq))]));
    }
    if parts.is_empty() {
        return render_in_sync(pack);
    }
    Utterance::join_with(&parts, ". ")
}

/// "Brett stimmt".
pub fn render_in_sync(pack: &Pack) -> Utterance {
    pack.say("board_ok")
}
