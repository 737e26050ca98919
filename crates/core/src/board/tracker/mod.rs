//! The move tracker: occupancy snapshots in, FIDE Appendix E.2 events out.
//!
//! A peg-board only sees which holes hold a peg. The tracker compares every
//! *settled* board state (one that lasted at least the settle window) with
//! the game position and its legal moves:
//!
//! * a piece of the side to move leaving its hole is **touched** (E.2.2);
//! * a state equal to the result of a legal move **executes** it (E.2.3),
//!   at once, or after an extension window for a rook move that may be the
//!   first half of castling; every square the move fills must have been
//!   seen empty since the last move, so a stuck sensor never makes a move
//!   ([`TrackerEvent::SensorSuspect`] says so instead);
//! * a capture leaves the same occupancy for every target of the capturing
//!   piece, so it is recognised from the history of the attempt: the target
//!   must have been empty while the capturing piece was out of its hole,
//!   and then refilled. Lifting an opponent's piece and putting it back, then
//!   holding one's own piece, is not a capture;
//! * a promotion cannot be seen: the tracker reports it pending and takes
//!   the piece from a `P` line or an explicit choice; when the board moves
//!   on first (the opponent starts his move) or after a time, the default
//!   piece is played. Until the opponent's move is executed the choice can
//!   still be corrected ([`TrackerEvent::PromotionCorrected`]);
//! * the board back at the position before the last move is a takeback
//!   request (E.6);
//! * a board that shows a position several plies on (moves the tracker
//!   missed, e.g. lines lost during a capture, then the reply) is followed
//!   back by the one way that explains it ([`super::catch_up::by_occupancy`]: the fewest
//!   plies, a move in the hand, the states seen on the way deciding the
//!   order and which capture; [`TrackerEvent::Resynchronised`]); where
//!   several ways explain it alike, the tracker waits for a board that
//!   tells them apart. The game turned round is taken over too
//!   ([`TrackerEvent::BoardTurned`]);
//! * lost lines are a hole in time ([`Tracker::lines_lost`]; a line that
//!   vanished unheard is known from the next one, which shows two holes
//!   changed at once): a report is
//!   not settled while lines are lost; a hole too short for two steps of
//!   the hand hides nothing, a longer one may hide a whole capture, and then
//!   captures the board shows alike are told apart only by what was seen
//!   before it; a capture shown done whose evidence the lost lines may
//!   hold (its target seen empty before) is executed when the other side
//!   begins its reply, or when the board stands still a moment (a last
//!   move with no reply): within a second of the capture;
//! * a hole whose reading alone keeps the board from matching a legal move
//!   done (or the game, for the mismatch time) has a stuck or dead sensor:
//!   said by name ([`TrackerEvent::SensorStuck`]) and left out of the
//!   matching, whatever the pace ([`sensors`]);
//! * anything else that matches neither the game, a legal move nor a move
//!   in progress for longer than the mismatch time is a mismatch, with the
//!   squares that differ. No move is ever dropped or invented;
//! * at the start position, which looks the same turned round, the first
//!   executed move that only one orientation explains decides whether the
//!   board is turned (or a `P` line with identities, or a setting); a lift
//!   never does;
//! * strict mode: a piece of the side to move lifted and put back before
//!   another piece moves, and castling begun with the rook, are reported as
//!   touch-move (Art. 4.3, 4.4); the move is still recorded.
//!
//! Masks are typed: [`BoardMask`] is what the sensors report (board
//! coordinates); a [`Bitboard`] is always in game coordinates, obtained
//! through [`Orientation::to_game`].
//!
//! Time is passed in as milliseconds; the tracker never reads a clock.

use shakmaty::{Bitboard, CastlingSide, Chess, Color, Move, Piece, Position, Role, Square};

mod evaluate;
mod lost_lines;
use lost_lines::{HIDDEN_CAPTURE_MS, Hole};
mod render;
mod sensors;
mod types;

pub use render::{render_in_sync, render_mismatch};
pub use types::{
    BoardMask, Mismatch, Orientation, OrientationChoice, TrackerConfig, TrackerEvent,
    board_difference,
};

/// A legal move with the occupancy it leaves and the squares it touches
/// (game coordinates).
#[derive(Clone, Copy, Debug)]
struct Candidate {
    mv: Move,
    after: Bitboard,
    involved: Bitboard,
    /// Squares the move fills that were empty before.
    filled: Bitboard,
    /// A normal capture: the same `after` for every target of the piece.
    capture: bool,
}

/// A move seen on the board that waits before it is executed.
#[derive(Clone, Copy, Debug)]
struct Pending {
    mv: Move,
    mask: Bitboard,
    deadline: u64,
}

/// What the tracker waits for.
#[derive(Clone, Copy, Debug, Default)]
enum Phase {
    /// Following the board.
    #[default]
    Following,
    /// A move entered elsewhere that the board has not shown yet.
    AwaitingBoard,
    /// A rook move that may be the first half of castling waits for the king.
    Castling(Pending),
    /// A pawn on the last rank waits for the piece.
    Promotion(Pending),
    /// The board may show the position two plies on, but a hand may still
    /// be moving a piece: if it stays so, it is explained then.
    Resync { mask: Bitboard, deadline: u64 },
    /// Lines were lost, and the board shows a capture done whose target
    /// was seen empty before: the capture, or its piece still in the hand.
    /// If it stays so (the hand is empty), the capture is executed.
    HiddenCapture(Pending),
}

/// What the tracker has said about a board that differs from the game.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum Guidance {
    #[default]
    Quiet,
    /// Unexplained since this time; guidance at the mismatch time.
    MismatchSince(u64),
    /// Mismatch guidance given; `InSync` follows when the board agrees.
    MismatchAnnounced,
    /// The takeback request for this board was reported.
    TakebackAsked,
}

/// The orientation and whether it is settled.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum OrientationState {
    /// Still to be decided by the first move only one orientation explains.
    Undecided(Orientation),
    Decided(Orientation),
}

impl OrientationState {
    fn get(self) -> Orientation {
        match self {
            OrientationState::Undecided(o) | OrientationState::Decided(o) => o,
        }
    }
}

const SEEN: usize = 16;

/// How many plies the board may be ahead of the game and still be followed
/// back ([`super::catch_up::by_occupancy`]); more, and the player is guided instead.
const CATCH_UP_PLIES: usize = 4;
/// The catch-up's node budget: a few milliseconds at most.
const CATCH_UP_NODES: usize = 60_000;

/// The move tracker. See the module documentation.
#[derive(Clone, Debug)]
pub struct Tracker {
    cfg: TrackerConfig,
    pos: Chess,
    /// Position before each move and the move, for takebacks.
    history: Vec<(Chess, Move)>,
    game_occ: Bitboard,
    prev_occ: Option<Bitboard>,
    candidates: Vec<Candidate>,
    orientation: OrientationState,
    /// Last snapshot as received and since when.
    raw: Option<(BoardMask, u64)>,
    /// Last settled snapshot.
    settled: Option<BoardMask>,
    /// Holes seen empty in a settled state since the last move.
    seen_empty: BoardMask,
    /// Settled states (game coordinates) since the board last matched the game.
    seen: [Bitboard; SEEN],
    seen_len: usize,
    /// Own pieces lifted in this attempt (game coordinates).
    touched: Bitboard,
    /// Holes of the game's pieces seen empty since the last move (board
    /// coordinates, so a board found turned later reads them right):
    /// touch-move in strict mode.
    lifted: BoardMask,
    touch_move_reported: bool,
    suspect_reported: bool,
    /// Lines were lost and the next good one has not come yet: what the
    /// board did meanwhile is judged when it comes ([`Hole`]).
    hole: Option<Hole>,
    /// A hole in time may have hidden a whole capture since the board last
    /// matched the game or a move was executed: captures the board shows
    /// alike are told apart only by what was seen before the hole
    /// (`Some(n)`: the last `n` settled states came after it).
    gap: Option<usize>,
    /// A line was lost since the board last matched the game or a move was
    /// executed: a lift may have gone unseen.
    missed: bool,
    /// Stuck and dead sensors: found, named, left out of the matching.
    sensors: sensors::SensorWatch,
    /// The last report as the sensors sent it (before the mask).
    reported: Option<BoardMask>,
    phase: Phase,
    guidance: Guidance,
    /// The last move, a promotion executed on the board, whose piece can
    /// still be corrected (until the next move).
    correctable: Option<Move>,
    /// The last move, a plain move made on the board, and until when the
    /// same piece carried on may still complete it differently (a slide:
    /// the piece set down on the way long enough to be read).
    slide: Option<(Move, u64)>,
    /// Holes reported empty since the last move, as the sensors sent them
    /// (a sensor taken for dead counts too): a slide's capture target.
    slide_seen: BoardMask,
    /// The time of the last board state or tick handled.
    last_at: u64,
    last_pieces: Option<[Option<Piece>; 64]>,
    /// The board has shown the game's position since the position last
    /// changed (a move, a takeback, a reset).
    matched: bool,
    /// A move of this game was shown on the board since the last reset
    /// (executed on it, or one entered elsewhere carried out): the start
    /// position set up then is the next game.
    game_shown: bool,
    /// The last move executed on the board began from a board that showed
    /// the game's position (not caught up from a board that never did).
    last_from_game: bool,
}

#[inline]
fn candidate(mv: Move, occ: Bitboard, turn: Color) -> Candidate {
    let (from, to) = match mv {
        Move::Normal { from, to, .. } => (Bitboard::from(from), Bitboard::from(to)),
        Move::EnPassant { from, to } => (
            Bitboard::from(from) | Square::from_coords(to.file(), from.rank()),
            Bitboard::from(to),
        ),
        Move::Castle { king, rook } => {
            let side = CastlingSide::from_king_side(rook > king);
            (
                Bitboard::from(king) | rook,
                Bitboard::from(side.king_to(turn)) | side.rook_to(turn),
            )
        }
        Move::Put { to, .. } => (Bitboard::EMPTY, Bitboard::from(to)),
    };
    let after = occ.without(from).with(to);
    Candidate {
        mv,
        after,
        involved: from | to,
        filled: after & !occ,
        capture: matches!(
            mv,
            Move::Normal {
                capture: Some(_),
                ..
            }
        ),
    }
}

impl Tracker {
    pub fn new(cfg: TrackerConfig, pos: Chess) -> Tracker {
        let mut t = Tracker {
            cfg,
            pos,
            // A game's worth, so playing moves does not reallocate.
            history: Vec::with_capacity(128),
            game_occ: Bitboard::EMPTY,
            prev_occ: None,
            candidates: Vec::with_capacity(256),
            orientation: OrientationState::Undecided(Orientation::Straight),
            raw: None,
            settled: None,
            seen_empty: BoardMask(0),
            seen: [Bitboard::EMPTY; SEEN],
            seen_len: 0,
            touched: Bitboard::EMPTY,
            lifted: BoardMask(0),
            touch_move_reported: false,
            suspect_reported: false,
            hole: None,
            gap: None,
            missed: false,
            sensors: Default::default(),
            reported: None,
            phase: Phase::Following,
            guidance: Guidance::Quiet,
            correctable: None,
            slide: None,
            slide_seen: BoardMask(0),
            last_at: 0,
            last_pieces: None,
            matched: false,
            game_shown: false,
            last_from_game: false,
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

    /// How the board lies (as far as known).
    pub fn orientation(&self) -> Orientation {
        self.orientation.get()
    }

    /// Whether snapshots are read rotated by 180 degrees.
    pub fn flipped(&self) -> bool {
        self.orientation().is_turned()
    }

    /// Sets the orientation by hand (and stops detecting it).
    pub fn set_flipped(&mut self, flipped: bool) {
        self.orientation = OrientationState::Decided(Orientation::from_flipped(flipped));
        self.clear_attempt();
    }

    /// Whether a move entered elsewhere still has to be carried out on the board.
    pub fn awaiting_board(&self) -> bool {
        matches!(self.phase, Phase::AwaitingBoard)
    }

    /// The pending promotion, if a pawn stands on the last rank unresolved.
    pub fn promotion_pending(&self) -> Option<(Square, Square)> {
        match self.phase {
            Phase::Promotion(p) => Some((p.mv.from()?, p.mv.to())),
            _ => None,
        }
    }

    /// Where the last settled report differs from the game (game
    /// coordinates); empty before the first report.
    pub fn difference(&self) -> Bitboard {
        self.settled
            .map_or(Bitboard::EMPTY, |s| self.orient(s) ^ self.game_occ)
    }

    /// Starts over with a new game position (a new game, or a position
    /// loaded from FEN). Orientation is detected again at the start position.
    pub fn reset(&mut self, pos: Chess) {
        self.pos = pos;
        self.history.clear();
        self.orientation = OrientationState::Undecided(self.orientation.get());
        self.phase = Phase::Following;
        self.guidance = Guidance::Quiet;
        self.correctable = None;
        self.slide = None;
        self.lifted = BoardMask(0);
        self.game_shown = false;
        self.refresh();
        self.clear_attempt();
    }

    /// Starts again from `pos` when the record moved under the board (a
    /// retrace, a refused move): the board is not read for moves until it
    /// changes, but when it differs from `pos` the player is guided after
    /// the mismatch time, unasked.
    pub fn reset_guided(&mut self, now: u64, pos: Chess) {
        self.reset(pos);
        if let Some(settled) = self.settled
            && self.orient(settled) != self.game_occ
        {
            self.guidance = Guidance::MismatchSince(now);
        }
    }

    /// Whether the last move executed on the board began from a board that
    /// showed the game's position. False for a move read from a board that
    /// never matched the game since its last change (pieces left from an
    /// earlier game, a catch-up's later moves): online play takes only
    /// moves made from the game's position as the player's.
    pub fn executed_from_game(&self) -> bool {
        self.last_from_game
    }

    /// Whether a board (game coordinates) shows the game's position, or
    /// differs from it only on the last move's squares (that move, entered
    /// elsewhere, not yet carried out, or carried out half).
    fn stands_in_game(&self, m: Bitboard) -> bool {
        if m == self.game_occ {
            return true;
        }
        let Some((before, last)) = self.history.last() else {
            return false;
        };
        let c = candidate(*last, before.board().occupied(), before.turn());
        ((m ^ self.game_occ) & !c.involved).is_empty()
    }

    fn refresh(&mut self) {
        self.game_occ = self.pos.board().occupied();
        // The board's last report (settled or not yet) may already show
        // the new position (the move was just made on it, or a reset to
        // what it shows), or the one before a move entered elsewhere that
        // it has yet to carry out.
        self.matched = self
            .raw
            .map(|(raw, _)| raw)
            .or(self.settled)
            .is_some_and(|s| self.stands_in_game(self.orient(s)));
        self.prev_occ = self.history.last().map(|(p, _)| p.board().occupied());
        self.candidates.clear();
        let (turn, occ) = (self.pos.turn(), self.game_occ);
        // Built in place from the move list (the hot path of the tracker:
        // once per move).
        let moves = self.pos.legal_moves();
        self.candidates
            .extend(moves.iter().map(|&mv| candidate(mv, occ, turn)));
    }

    /// Forgets the current attempt at a move (a wait for the king or the
    /// promotion piece included; a wait for the board is kept).
    fn clear_attempt(&mut self) {
        self.seen_len = 0;
        self.touched = Bitboard::EMPTY;
        if matches!(
            self.phase,
            Phase::Castling(_)
                | Phase::Promotion(_)
                | Phase::Resync { .. }
                | Phase::HiddenCapture(_)
        ) {
            self.phase = Phase::Following;
        }
        if self.guidance != Guidance::MismatchAnnounced {
            self.guidance = Guidance::Quiet;
        }
        self.touch_move_reported = false;
        self.suspect_reported = false;
    }

    fn orient(&self, mask: BoardMask) -> Bitboard {
        self.orientation.get().to_game(mask)
    }

    /// When [`Tracker::on_tick`] must next be called, if anything waits.
    pub fn next_deadline(&self) -> Option<u64> {
        let (raw, since) = self.raw?;
        // While lines are lost, the last report may already be over (the
        // line that ended it may be among them): it settles only when a
        // good line confirms it.
        if self.settled != Some(raw) && self.hole.is_none() {
            return Some(since + self.cfg.settle_ms);
        }
        let phase = match self.phase {
            Phase::Castling(p) | Phase::Promotion(p) | Phase::HiddenCapture(p) => Some(p.deadline),
            Phase::Resync { deadline, .. } => Some(deadline),
            _ => None,
        };
        let guidance = match self.guidance {
            Guidance::MismatchSince(s) => Some(s + self.cfg.mismatch_ms),
            _ => None,
        };
        phase.into_iter().chain(guidance).min()
    }

    /// Acts on every deadline up to `now`.
    pub fn on_tick(&mut self, now: u64, out: &mut Vec<TrackerEvent>) {
        self.last_at = self.last_at.max(now);
        // Each step consumes its deadline, so this ends; the bound is a guard.
        for _ in 0..16 {
            let Some(deadline) = self.next_deadline() else {
                return;
            };
            if deadline > now {
                return;
            }
            let Some((raw, since)) = self.raw else { return };
            if self.settled != Some(raw) && self.hole.is_none() {
                self.settle(raw, since + self.cfg.settle_ms, out);
                continue;
            }
            match self.phase {
                Phase::Castling(p) if p.deadline <= now => {
                    self.phase = Phase::Following;
                    self.commit(p.mv, out);
                    continue;
                }
                Phase::Promotion(p) if p.deadline <= now => {
                    self.phase = Phase::Following;
                    self.commit_default_promotion(p.mv, out);
                    continue;
                }
                Phase::HiddenCapture(p) if p.deadline <= now => {
                    self.phase = Phase::Following;
                    if self.orient(raw) == p.mask {
                        self.commit(p.mv, out);
                    }
                    continue;
                }
                Phase::Resync { mask, deadline } if deadline <= now => {
                    self.phase = Phase::Following;
                    let m = self.orient(raw);
                    if m == mask {
                        self.recover(m, now, out);
                    }
                    continue;
                }
                _ => {}
            }
            match self.guidance {
                Guidance::MismatchSince(s) if s + self.cfg.mismatch_ms <= now => {
                    let m = self.orient(raw);
                    if self.name_stray_peg(m, now, out) {
                        continue;
                    }
                    self.guidance = Guidance::MismatchAnnounced;
                    out.push(TrackerEvent::Mismatch(self.diff(m)));
                }
                _ => return,
            }
        }
    }

    /// A snapshot arrived at `now`, as the board sent it.
    pub fn on_snapshot(&mut self, now: u64, mask: BoardMask, out: &mut Vec<TrackerEvent>) {
        self.on_tick(now, out);
        self.notice_unheard_loss(now, mask);
        self.slide_seen.0 |= !mask.0;
        let mask = self.unstick(mask, out);
        // A report that shows the game counts even before it settles: a
        // quick first move lifts a piece within the settle time of the
        // board's first report.
        if self.stands_in_game(self.orient(mask)) {
            self.matched = true;
        }
        let shown_since = self.close_hole(mask);
        match self.raw {
            Some((raw, _)) if raw == mask => {}
            _ => self.raw = Some((mask, shown_since.unwrap_or(now).min(now))),
        }
        if self.cfg.settle_ms == 0 {
            self.on_tick(now, out);
        }
    }

    /// Convenience: [`Tracker::on_snapshot`] returning the events.
    pub fn feed(&mut self, now: u64, mask: BoardMask) -> Vec<TrackerEvent> {
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
        if let OrientationState::Undecided(o) = self.orientation
            && self.history.is_empty()
        {
            let board = self.pos.board();
            let score = |o: Orientation| {
                Square::ALL
                    .into_iter()
                    .filter(|&sq| {
                        let hole = o.to_board(Bitboard::from(sq)).0.trailing_zeros() as usize;
                        board.piece_at(sq) == pieces[hole]
                    })
                    .count()
            };
            let (straight, turned) = (score(o), score(o.other()));
            if turned != straight {
                self.decide(if turned > straight { o.other() } else { o }, out);
            }
            if turned > straight {
                self.clear_attempt();
                self.settled = None;
                out.push(TrackerEvent::BoardTurned {
                    flipped: self.flipped(),
                });
            }
        }
        let mut oriented = *pieces;
        if self.flipped() {
            oriented.reverse();
        }
        self.last_pieces = Some(oriented);
        self.on_snapshot(now, BoardMask(super::pieces_mask(pieces)), out);
        self.answer_promotion_from_pieces(out);
    }

    fn answer_promotion_from_pieces(&mut self, out: &mut Vec<TrackerEvent>) {
        let (Phase::Promotion(p), Some(pieces)) = (self.phase, self.last_pieces) else {
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
            self.phase = Phase::Following;
            self.commit(with_promotion(p.mv, piece.role), out);
        }
    }

    /// The player (or the session on his behalf) chose the promotion
    /// piece: for a pending promotion, or as a correction of the last move
    /// while the opponent's move is not executed yet.
    pub fn choose_promotion(&mut self, role: Role, out: &mut Vec<TrackerEvent>) -> bool {
        if matches!(role, Role::Pawn | Role::King) {
            return false;
        }
        if let Phase::Promotion(p) = self.phase {
            self.phase = Phase::Following;
            self.commit(with_promotion(p.mv, role), out);
            return true;
        }
        let Some(old) = self.correctable else {
            return false;
        };
        if old.promotion() == Some(role) {
            return true;
        }
        let Some((before, _)) = self.history.pop() else {
            return false;
        };
        let new = with_promotion(old, role);
        let mut pos = before.clone();
        pos.play_unchecked(new);
        self.history.push((before, new));
        self.pos = pos;
        self.refresh();
        self.correctable = Some(new);
        out.push(TrackerEvent::PromotionCorrected { old, new });
        true
    }

    /// A move entered elsewhere (the sighted player's move typed by the
    /// assistant, or an electronic board). The tracker plays it and expects
    /// the board to follow; [`TrackerEvent::InSync`] reports when it has.
    pub fn apply_external(&mut self, now: u64, mv: Move, out: &mut Vec<TrackerEvent>) {
        self.history.push((self.pos.clone(), mv));
        self.pos.play_unchecked(mv);
        self.correctable = None;
        self.slide = None;
        self.lifted = BoardMask(0);
        self.refresh();
        self.clear_attempt();
        self.phase = Phase::AwaitingBoard;
        if let Some(s) = self.settled {
            let m = self.orient(s);
            self.evaluate(m, now, out);
        }
    }

    /// Takes back the last move (after the player confirmed the request).
    pub fn take_back(&mut self, now: u64, out: &mut Vec<TrackerEvent>) -> Option<Move> {
        let (pos, mv) = self.history.pop()?;
        self.pos = pos;
        self.correctable = None;
        self.slide = None;
        self.lifted = BoardMask(0);
        self.refresh();
        self.clear_attempt();
        self.phase = Phase::Following;
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

    fn diff(&self, m: Bitboard) -> Mismatch {
        let board = self.pos.board();
        let vacated = self
            .prev_occ
            .map_or(Bitboard::EMPTY, |p| p & !self.game_occ);
        let extra = m & !self.game_occ;
        Mismatch {
            missing: (self.game_occ & !m)
                .into_iter()
                .filter_map(|sq| Some((sq, board.piece_at(sq)?)))
                .collect(),
            expected_empty: (extra & vacated).into_iter().collect(),
            extra: (extra & !vacated).into_iter().collect(),
        }
    }
    /// Settles the orientation (once: later calls change nothing), and
    /// reports the decision.
    fn decide(&mut self, o: Orientation, out: &mut Vec<TrackerEvent>) {
        if let OrientationState::Undecided(_) = self.orientation {
            self.orientation = OrientationState::Decided(o);
            out.push(TrackerEvent::OrientationDecided {
                flipped: o.is_turned(),
            });
        }
    }

    /// A pending promotion played with the default piece.
    fn commit_default_promotion(&mut self, pending: Move, out: &mut Vec<TrackerEvent>) {
        let mv = with_promotion(pending, self.cfg.promote_to);
        out.push(TrackerEvent::PromotionDefaulted { mv });
        self.commit(mv, out);
    }

    fn commit(&mut self, mv: Move, out: &mut Vec<TrackerEvent>) {
        if self.cfg.strict && !self.touch_move_reported {
            // Art. 4.3: a piece of the side to move touched, put back, and
            // another piece moved.
            let c = candidate(mv, self.game_occ, self.pos.turn());
            let m = self.settled.map_or(c.after, |s| self.orient(s));
            let lifted = self.orient(self.lifted) & self.pos.board().by_color(self.pos.turn());
            if let Some(square) = (lifted & m & !c.involved).first()
                && let Some(piece) = self.pos.board().piece_at(square)
            {
                self.touch_move_reported = true;
                out.push(TrackerEvent::TouchMove { square, piece });
            }
        }
        self.last_from_game = self.matched;
        self.history.push((self.pos.clone(), mv));
        self.pos.play_unchecked(mv);
        self.lifted = BoardMask(0);
        self.gap = None;
        self.missed = false;
        self.correctable = mv.is_promotion().then_some(mv);
        self.slide = (self.cfg.complete_slides && slidable(mv))
            .then_some((mv, self.last_at + self.cfg.extension_ms));
        self.slide_seen = BoardMask(!self.reported.map_or(0, |r| r.0));
        self.refresh();
        self.clear_attempt();
        self.decide(self.orientation.get(), out);
        self.phase = Phase::Following;
        if let Some(s) = self.settled {
            self.seen_empty = BoardMask(!s.0);
            // Pieces already off now belong to the next move.
            self.lifted = BoardMask(self.orientation.get().to_board(self.game_occ).0 & !s.0);
        }
        self.game_shown = true;
        out.push(TrackerEvent::Executed(mv));
        if self.guidance == Guidance::MismatchAnnounced {
            self.guidance = Guidance::Quiet;
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

/// A plain move (no capture, castling or promotion): the only kind a
/// slide read early can be, and be completed into.
fn slidable(mv: Move) -> bool {
    matches!(
        mv,
        Move::Normal {
            capture: None,
            promotion: None,
            ..
        }
    )
}

/// A capture a slide read early may be completed into (the taken piece
/// off first, the piece set down on the way, then on the target).
fn slid_capture(mv: Move) -> bool {
    matches!(
        mv,
        Move::Normal {
            capture: Some(_),
            promotion: None,
            ..
        }
    )
}
