//! Moves from full positions: what a board that knows its pieces (DGT,
//! Millennium, Certabo, Chessnut) shows, settled, matched
//! against the game.
//!
//! A DGT board knows every piece, so there is no touch or lift to follow:
//! the recognizer waits until the board has shown the same position for the
//! settle window (a scan takes 200-250 ms and field updates arrive out of
//! order, so in-between states are common), then compares it with
//!
//! 1. the game position (in sync);
//! 2. the position after every legal move (promotion included: the board
//!    sees the new piece; castling and captures in any order of hands);
//! 3. the position before the last move (a takeback);
//! 4. the position after another move from the position before the last
//!    one, within the correction time (castling begun with the rook, a
//!    piece that paused on its way);
//! 5. the position after several plies never shown (a reply made before
//!    the board settled, a board polled once a second, a blitz game on a
//!    board that scans): the fewest plies that end there, ordered as the
//!    boards seen on the way fit best ([`crate::board::catch_up::by_pieces`]);
//! 6. the start position, either way round, after moves made on this board
//!    (a new game) or before any move (which way round the board lies).
//!
//! Which way round the board lies is found from any position, not only
//! the start: when the settled board fits nothing in the reading in use
//! (at connection, or at a mismatch that lasted the guidance time: a board
//! joined mid-game, a position set up by hand, a Millennium reporting h1
//! first), it is matched in the other reading too, and the reading that
//! fits the game wins. A board
//! whose reading the player fixed by hand ([`OrientationChoice`]) is never
//! turned. "Turned" is reported once when it changes, not at every game.
//!
//! A board that streams scans (Certabo) settles by scans that show nothing
//! new, not by the clock, and is caught up while the hands go on: a blitz
//! game on it may never stand still for a whole scan.
//!
//! A position that matches nothing for longer than the guidance time gets
//! a [`Mismatch`] naming the differences, worded by
//! [`crate::board::guidance`] as for the peg-board.
//!
//! Pure: time comes in as milliseconds, events go out in a `Vec`.

use shakmaty::{Board, Chess, Move, Position, Square};

use super::pieces::{Pieces, board_of_pieces};
use crate::board::catch_up::by_pieces::{
    MAX_PLIES, after, capture_in_hand, catch_up_within, chain, mover_as_shown,
};
use crate::board::{Mismatch, Orientation, OrientationChoice};

mod orientation;
// Only a board that streams scans (Certabo) goes this way: its code stands
// beside the Certabo decoder.
#[path = "certabo_scanning.rs"]
mod scanning;

/// Tunables.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecognizerConfig {
    /// A position must be shown unchanged this long before it counts.
    pub settle_ms: u64,
    /// How long the last move made on the board may still be completed
    /// differently (castling begun with the rook, a piece that paused on
    /// its way): the position after another move from the same position
    /// replaces it.
    pub correction_ms: u64,
    /// How long a position matching nothing waits before guidance.
    pub guidance_ms: u64,
}

impl Default for RecognizerConfig {
    fn default() -> RecognizerConfig {
        RecognizerConfig {
            settle_ms: 300,
            correction_ms: 2000,
            guidance_ms: 2000,
        }
    }
}

/// What the recognizer noticed or needs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RecognizerEvent {
    /// Ask the board for a full dump (field updates have settled, or the
    /// recognizer has no position yet).
    RequestBoard,
    /// A move was made on the board; the recognizer has played it.
    Move(Move),
    /// The last move was completed differently within the correction
    /// time (castling begun with the rook): `old` is replaced by `new`.
    Corrected { old: Move, new: Move },
    /// The board went back to the position before this move; the
    /// recognizer has taken it back.
    Takeback(Move),
    /// The start position was set up after a game: a new game, which the
    /// recognizer has started.
    NewGame,
    /// Which way round the board lies, decided from the start position.
    Orientation { turned: bool },
    /// The board has matched nothing for the guidance time.
    Mismatch(Mismatch),
    /// The board matches the game again after a mismatch.
    InSync,
}

/// Follows one board that knows its pieces.
#[derive(Clone, Debug)]
pub struct Recognizer {
    cfg: RecognizerConfig,
    pos: Chess,
    /// Each move with the position before it.
    history: Vec<Played>,
    orientation: Orientation,
    orientation_known: bool,
    /// Found from what the board shows, or fixed by hand.
    choice: OrientationChoice,
    /// What the board shows (board coordinates), once known.
    board: Option<Pieces>,
    /// When the board last changed, while not yet settled.
    changed_at: Option<u64>,
    /// The last change came from field updates (confirm with a dump).
    from_updates: bool,
    /// A settled position that matches nothing: since when, and whether
    /// guidance was given for it.
    mismatch_since: Option<u64>,
    guided: bool,
    /// The board (field updates as a stream) shows the position after this
    /// legal move; it counts as made once the other side's pieces are
    /// touched, before the board settles (a fast reply).
    shown: Option<Move>,
    /// Every board shown since the game last changed (game coordinates),
    /// in order: the evidence a way back several plies long must fit.
    trail: Vec<Board>,
    /// The board reports its whole position on every change and has
    /// never sent a field update (a Millennium board; not a DGT board nor
    /// a Certabo board, which send field updates too): its reports are
    /// followed as a stream, and a lost report leaves a hole in the trail,
    /// which the catch-up then allows for.
    whole_reports: bool,
    /// A field update has come: the board is followed by its updates.
    field_updates: bool,
    /// The board streams scans ([`Recognizer::on_scan`]): it settles by
    /// scans that show nothing new, not by the clock.
    streaming: bool,
    /// A square changed since the last scan ended.
    changed_since_scan: bool,
    /// Whole scans since the last change that showed nothing new.
    quiet_scans: u32,
    /// The changes of the scan coming in, not followed yet.
    scan_changes: Vec<(Square, Option<shakmaty::Piece>)>,
    /// When the board last reported anything.
    heard_at: u64,
    /// The link was lost: the board was last heard then, and its next
    /// report may show changes made at any time since.
    deaf_since: Option<u64>,
}

/// Boards kept in the trail at most.
const TRAIL: usize = 256;

impl Recognizer {
    pub fn new(cfg: RecognizerConfig, start: Chess) -> Recognizer {
        Recognizer {
            cfg,
            pos: start,
            history: Vec::new(),
            orientation: Orientation::Straight,
            orientation_known: false,
            choice: OrientationChoice::Auto,
            board: None,
            changed_at: None,
            from_updates: false,
            mismatch_since: None,
            guided: false,
            shown: None,
            trail: Vec::new(),
            whole_reports: false,
            field_updates: false,
            streaming: false,
            changed_since_scan: false,
            quiet_scans: 0,
            scan_changes: Vec::new(),
            heard_at: 0,
            deaf_since: None,
        }
    }

    pub fn config(&self) -> &RecognizerConfig {
        &self.cfg
    }

    pub fn set_config(&mut self, cfg: RecognizerConfig) {
        self.cfg = cfg;
    }

    /// The game as the recognizer follows it.
    pub fn position(&self) -> &Chess {
        &self.pos
    }

    pub fn moves(&self) -> impl Iterator<Item = Move> + '_ {
        self.history.iter().map(|p| p.mv)
    }

    pub fn orientation(&self) -> Orientation {
        self.orientation
    }

    /// The board's last known pieces, in game coordinates.
    pub fn seen(&self) -> Option<Board> {
        self.board.as_ref().map(|p| self.to_game(p))
    }

    /// The current mismatch, if the settled board differs from the game.
    pub fn mismatch(&self) -> Option<Mismatch> {
        self.mismatch_since?;
        Some(self.difference(&self.seen()?))
    }

    /// Whether the board changed and has not stood still for the settle
    /// time yet (pieces in the hand).
    pub fn settling(&self) -> bool {
        self.changed_at.is_some()
    }

    /// Whether the settled board differs from the game and its guidance
    /// was given (the guidance time ran out).
    pub fn guided(&self) -> bool {
        self.guided && self.mismatch_since.is_some()
    }

    /// Starts again from `pos` (a new or resumed game, or a move the game
    /// refused); the board is matched again when it next changes.
    pub fn reset(&mut self, pos: Chess) {
        self.shown = None;
        self.trail.clear();
        self.pos = pos;
        self.history.clear();
        self.mismatch_since = None;
        self.guided = false;
    }

    /// A move made elsewhere (the peg-board, the keyboard): the board is
    /// now expected to show it.
    pub fn apply_external(&mut self, now: u64, mv: Move) {
        if !self.pos.is_legal(mv) {
            return;
        }
        let before = self.pos.clone();
        self.pos.play_unchecked(mv);
        self.shown = None;
        self.trail.clear();
        self.history.push(Played {
            before,
            mv,
            shown: false,
            at: None,
            unheard: false,
        });
        self.recheck(now);
    }

    /// A takeback made elsewhere: the board is expected to follow it. A
    /// board still showing the move taken back is not read as that move
    /// again: it gets guidance after the guidance time, and is matched
    /// afresh when it changes.
    pub fn take_back_external(&mut self, now: u64) -> Option<Move> {
        let played = self.history.pop()?;
        self.pos = played.before;
        self.guided = false;
        self.mismatch_since = match self.seen() {
            Some(seen) if &seen != self.pos.board() && self.changed_at.is_none() => Some(now),
            _ => None,
        };
        Some(played.mv)
    }

    /// The game changed under the board (started again elsewhere): a
    /// settled board is compared with it again now.
    pub fn compare_again(&mut self, now: u64) {
        self.recheck(now);
    }

    /// The game changed under a settled board: compare it again at once.
    fn recheck(&mut self, now: u64) {
        self.mismatch_since = None;
        self.guided = false;
        if self.board.is_some() && self.changed_at.is_none() {
            self.changed_at = Some(now.saturating_sub(self.cfg.settle_ms));
            // The board stood still: nothing to wait for.
            self.stood_still();
        }
    }

    /// The link was lost or bytes were dropped: ask for the whole board.
    pub fn link_lost(&mut self, out: &mut Vec<RecognizerEvent>) {
        self.deaf_since.get_or_insert(self.heard_at);
        out.push(RecognizerEvent::RequestBoard);
    }

    /// The board reports at `now`. After a lost link, what it shows may
    /// have been done at any time since it was last heard (a piece that
    /// paused on its way and went on while the link was down): the last
    /// move's correction time does not run while the board went unheard.
    fn heard(&mut self, now: u64) {
        if let Some(since) = self.deaf_since.take()
            && let Some(last) = self.history.last_mut()
            && let Some(at) = last.at.as_mut()
            && since < *at + self.cfg.correction_ms
        {
            *at += now.saturating_sub(since.max(*at));
            last.unheard = true;
        }
        self.heard_at = now;
    }

    /// A full board dump. A board that reports its whole position on
    /// every change (Millennium, Certabo, Chessnut) is followed as a stream
    /// too: each square that changed since the last report as if it were a
    /// field update, in the order a move finished in the same scan as the
    /// reply begun needs: the mover's own pieces lifted first, then pieces
    /// set down on empty squares, then pieces taken (the taken one off,
    /// the taker on), then the other side's pieces lifted.
    pub fn on_dump(&mut self, now: u64, pieces: &Pieces, out: &mut Vec<RecognizerEvent>) {
        self.heard(now);
        // The scan's changes first: the dump comes with them.
        self.follow_scan_changes(now, out);
        if let Some(board) = self.board
            && &board != pieces
            && !self.field_updates
        {
            let changed: Vec<usize> = (0..64).filter(|&i| board[i] != pieces[i]).collect();
            // The mover's own pieces lifted come first of all: the same
            // hand still on its way (a slide goes on).
            let mover = self.pos.turn();
            let own_lifted =
                |i: usize| pieces[i].is_none() && board[i].is_some_and(|p| p.color == mover);
            let lifted = changed.iter().filter(|&&i| own_lifted(i));
            let set = changed.iter().filter(|&&i| board[i].is_none());
            let taken = changed
                .iter()
                .filter(|&&i| board[i].is_some() && pieces[i].is_some());
            let emptied = changed
                .iter()
                .filter(|&&i| pieces[i].is_none() && !own_lifted(i));
            let steps = lifted
                .map(|&i| (i, None))
                .chain(set.map(|&i| (i, pieces[i])))
                .chain(taken.flat_map(|&i| [(i, None), (i, pieces[i])]))
                .chain(emptied.map(|&i| (i, None)));
            self.whole_reports = true;
            for (i, piece) in steps {
                self.change(now, Square::new(i as u32), piece, out);
            }
            self.from_updates = false;
            return;
        }
        if self.board.as_ref() != Some(pieces) {
            self.board = Some(*pieces);
            self.changed_at = Some(now);
            self.changed_since_scan = true;
            self.quiet_scans = 0;
            self.from_updates = false;
            self.remember();
        } else if self.changed_at.is_some() {
            // The dump confirms what the updates said.
            self.from_updates = false;
        }
    }

    /// One field changed. Before the first dump there is nothing to apply
    /// it to: the board is asked for one.
    pub fn on_field_update(
        &mut self,
        now: u64,
        square: shakmaty::Square,
        piece: Option<shakmaty::Piece>,
        out: &mut Vec<RecognizerEvent>,
    ) {
        self.heard(now);
        if self.board.is_none() {
            out.push(RecognizerEvent::RequestBoard);
            return;
        }
        self.whole_reports = false;
        self.field_updates = true;
        if self.streaming {
            // Followed as the scan ends, in an order the hands can have
            // made them in (see `on_scan`).
            self.scan_changes.push((square, piece));
            return;
        }
        if self.change(now, square, piece, out) {
            self.from_updates = true;
        }
    }

    /// One square of a known board changed: remembered and followed as a
    /// stream. Whether it changed anything.
    fn change(
        &mut self,
        now: u64,
        square: Square,
        piece: Option<shakmaty::Piece>,
        out: &mut Vec<RecognizerEvent>,
    ) -> bool {
        let Some(board) = self.board.as_mut() else {
            return false;
        };
        let before = board[usize::from(square)];
        if before == piece {
            return false;
        }
        board[usize::from(square)] = piece;
        self.changed_at = Some(now);
        self.changed_since_scan = true;
        self.quiet_scans = 0;
        self.remember();
        self.follow_stream(now, square, before, piece, out);
        true
    }

    /// The game moved on: boards before it are no evidence any more, but
    /// the one shown now still is.
    fn forget_trail(&mut self) {
        let now = self.trail.pop();
        self.trail.clear();
        self.trail.extend(now);
    }

    /// Keeps the board now shown in the trail.
    fn remember(&mut self) {
        if let Some(seen) = self.seen() {
            if self.trail.len() == TRAIL {
                self.trail.remove(0);
            }
            self.trail.push(seen);
        }
    }

    /// Field updates as a stream of evidence: a board that shows the
    /// position after a legal move is remembered; when the other side then
    /// lifts or sets down a piece of its own elsewhere, the move was done
    /// (the reply has begun), and it is played at once, without waiting for
    /// a board that stands still. The mover's own pieces going on (a slide,
    /// castling begun with the rook) wait: the move may not be finished.
    /// The other side's piece lifted where the mover could take it may be
    /// the mover's capture going on (a scan brings its changes in no order
    /// of the hands): it neither plays the move nor forgets it, and the
    /// next change tells.
    fn follow_stream(
        &mut self,
        now: u64,
        square: Square,
        before: Option<shakmaty::Piece>,
        piece: Option<shakmaty::Piece>,
        out: &mut Vec<RecognizerEvent>,
    ) {
        if !self.orientation_known && self.history.is_empty() {
            return;
        }
        let Some(seen) = self.seen() else { return };
        let square = if self.orientation.is_turned() {
            square.flip_vertical().flip_horizontal()
        } else {
            square
        };
        let mut kept = None;
        if let Some(mv) = self.shown.take().filter(|mv| self.pos.is_legal(*mv)) {
            let mover = self.pos.turn();
            let involved = crate::board::catch_up::by_occupancy::involved(mv, mover);
            let next = after(&self.pos, mv);
            let to = landing(mv, mover);
            let attacked_by = |color: shakmaty::Color| {
                [&self.pos, &next].iter().any(|p| {
                    p.board()
                        .attacks_to(square, color, p.board().occupied())
                        .any()
                })
            };
            let lifted = piece.is_none();
            let theirs = before.or(piece).is_some_and(|p| p.color != mover);
            // The other side takes off one of the mover's that it attacks
            // (the mover's king is never taken).
            let taken_off = lifted
                && before.is_some_and(|p| p.color == mover && p.role != shakmaty::Role::King)
                && attacked_by(!mover);
            // On a board whose scans bring changes in no order of the
            // hands, the other side's piece lifted where the piece the
            // board shows moving, paused on its way there, could take it
            // may be that capture going on. (A board that sends each change
            // as it happens needs no such doubt.)
            let maybe_captured = self.streaming
                && lifted
                && theirs
                && self
                    .pos
                    .legal_moves()
                    .iter()
                    .any(|m| m.from() == mv.from() && m.to() == square && m.is_capture())
                && mv
                    .from()
                    .is_some_and(|from| shakmaty::attacks::between(from, square).contains(to));
            // The move's squares all stand as the move left them.
            let still = involved
                .into_iter()
                .all(|sq| seen.piece_at(sq) == next.board().piece_at(sq));
            // The moved piece off its square again: only the other side's
            // capture there goes on with the move done (the taker lifted,
            // or set down on it); anything else may be the move going on.
            let to_kept = seen.piece_at(to).is_some();
            let capturing_there = piece.is_some_and(|p| p.color != mover && square == to)
                || (lifted
                    && theirs
                    && next
                        .board()
                        .attacks_to(to, !mover, next.board().occupied())
                        .contains(square));
            let replying = (!involved.contains(square) || capturing_there)
                && ((theirs && !maybe_captured) || taken_off);
            if !self.streaming {
                // A board that sends each change as it happens: the other
                // side touches its own piece, or takes one of the mover's
                // that it attacks (the mover's king is never taken).
                let replying = !involved.contains(square)
                    && before.or(piece).is_some_and(|p| {
                        p.color != mover
                            || (p.role != shakmaty::Role::King
                                && next
                                    .board()
                                    .attacks_to(square, !mover, next.board().occupied())
                                    .any())
                    });
                if replying {
                    self.play(now, mv, out);
                    self.in_sync(out);
                }
            } else if replying && (to_kept || capturing_there) {
                self.play(now, mv, out);
                self.in_sync(out);
            } else if (still
                && (mover_as_shown(&next, to, &seen)
                    || (self.streaming
                        && (lifted || before.or(piece) != next.board().piece_at(to)))))
                || (self.streaming && square == to && mover_as_shown(&next, to, &seen))
            {
                // A scan's changes come in no order of the hands: the
                // mover's next move, with another piece (one lifted from
                // elsewhere, or one of another kind set down), may come
                // before the reply that preceded it; the moved piece lifted again
                // where the other side can take it may be that capture
                // begun. The next change, or the scan's end, tells (see
                // `on_scan`).
                kept = Some(mv);
            }
        }
        self.shown = self
            .pos
            .legal_moves()
            .iter()
            .find(|m| after(&self.pos, **m).board() == &seen)
            .copied()
            .or(kept);
    }

    /// When [`Recognizer::on_tick`] must run next.
    pub fn next_deadline(&self) -> Option<u64> {
        match (self.changed_at, self.mismatch_since) {
            (Some(at), _) => Some(self.settles_at(at)),
            (None, Some(since)) if !self.guided => Some(since + self.cfg.guidance_ms),
            _ => None,
        }
    }

    pub fn on_tick(&mut self, now: u64, out: &mut Vec<RecognizerEvent>) {
        if let Some(at) = self.changed_at
            && now >= self.settles_at(at)
        {
            self.changed_at = None;
            if std::mem::take(&mut self.from_updates) {
                out.push(RecognizerEvent::RequestBoard);
            }
            self.settled(now, out);
        }
        if self.changed_at.is_none()
            && let Some(since) = self.mismatch_since
            && !self.guided
            && now >= since + self.cfg.guidance_ms
            && let Some(m) = self.mismatch()
        {
            self.guided = true;
            out.push(RecognizerEvent::Mismatch(m));
        }
    }

    fn to_game(&self, pieces: &Pieces) -> Board {
        let board = board_of_pieces(pieces);
        if self.orientation.is_turned() {
            rotated(&board)
        } else {
            board
        }
    }

    /// The board has settled: what does it show?
    fn settled(&mut self, now: u64, out: &mut Vec<RecognizerEvent>) {
        let Some(pieces) = self.board else { return };
        let start = Board::default();
        let readings = self.readings(&pieces);
        if self.read_either_way(&readings, now, out) {
            return;
        }
        // The start position after a game played on this board: a new
        // game, either way round. (Moves made elsewhere and not carried
        // out yet leave the board at the start: no new game.)
        if self.history.iter().any(|p| p.shown)
            && let Some((_, o)) = readings.iter().find(|(b, _)| b == &start)
        {
            let o = *o;
            self.pos = Chess::default();
            self.history.clear();
            self.in_sync(out);
            out.push(RecognizerEvent::NewGame);
            self.turn_to(o, out);
            return;
        }
        if self.mismatch_since.is_none() || self.guided {
            // A new state that matches nothing: the guidance time starts.
            self.mismatch_since = Some(now);
            self.guided = false;
        }
    }

    fn in_sync(&mut self, out: &mut Vec<RecognizerEvent>) {
        if self.mismatch_since.take().is_some() && self.guided {
            out.push(RecognizerEvent::InSync);
        }
        self.guided = false;
    }

    /// Matches `seen` (game coordinates) against the game; plays what it
    /// finds.
    fn matches(&mut self, seen: &Board, now: u64, out: &mut Vec<RecognizerEvent>) -> bool {
        if self.pos.board() == seen {
            if let Some(last) = self.history.last_mut() {
                last.shown = true;
            }
            self.in_sync(out);
            return true;
        }
        let legal = self.pos.legal_moves();
        if let Some(mv) = legal.iter().find(|m| after(&self.pos, **m).board() == seen) {
            self.play(now, *mv, out);
            self.in_sync(out);
            return true;
        }
        // Back to before the last move, once the board had shown that move
        // (a move made elsewhere and not yet carried out is no takeback).
        if let Some(last) = self.history.last()
            && last.shown
            && last.before.board() == seen
        {
            let last = self.history.pop().expect("a last move");
            self.pos = last.before;
            out.push(RecognizerEvent::Takeback(last.mv));
            self.in_sync(out);
            return true;
        }
        // A move in the hand (a capture half made: both squares empty) may
        // look like a whole reply made: wait for the hand.
        let in_hand = crate::board::catch_up::by_occupancy::in_hand(
            &self.pos,
            self.pos.board().occupied(),
            seen.occupied(),
        )
        .any()
            || (self.streaming && capture_in_hand(&self.pos, seen));
        // Replies the board showed, each exactly, in order: before the
        // correction below, which the same board can fit when the last
        // move's piece was moved again after the other side's move.
        if self.whole_reports
            && !in_hand
            && let Some(moves) = chain(&self.pos, &self.trail, seen, true)
        {
            for mv in moves {
                self.play(now, mv, out);
            }
            self.in_sync(out);
            return true;
        }
        // The last move made on this board, completed differently.
        if let Some(last) = self.history.last()
            && last.at.is_some_and(|at| now < at + self.cfg.correction_ms)
            && let Some(new) = last
                .before
                .legal_moves()
                .into_iter()
                .find(|m| *m != last.mv && after(&last.before, *m).board() == seen)
        {
            let old = self.history.pop().expect("a last move");
            self.pos = old.before;
            self.play(now, new, &mut Vec::new());
            out.push(RecognizerEvent::Corrected { old: old.mv, new });
            self.in_sync(out);
            return true;
        }
        // The same, completed while the link was down, and the reply
        // begun or made since: the positions the board showed, from the
        // one before the last move (the first report after the loss shows
        // the move completed).
        if let Some(last) = self.history.last()
            && last.unheard
            && last.at.is_some_and(|at| now < at + self.cfg.correction_ms)
            && let Some(moves) =
                chain(&last.before, &self.trail, seen, false).filter(|m| m[0] != last.mv)
        {
            let old = self.history.pop().expect("a last move");
            self.pos = old.before;
            self.play(now, moves[0], &mut Vec::new());
            out.push(RecognizerEvent::Corrected {
                old: old.mv,
                new: moves[0],
            });
            for &mv in &moves[1..] {
                self.play(now, mv, out);
            }
            self.in_sync(out);
            return true;
        }
        if in_hand {
            return false;
        }
        // Further ahead (a fast game that never stood still): the moves
        // whose positions the board showed on its way here, in order.
        // (Before the blind two-ply search below: a piece set down on its
        // way can make a wrong pair of moves end on the same board.)
        if let Some(moves) = chain(&self.pos, &self.trail, seen, !self.whole_reports) {
            for mv in moves {
                self.play(now, mv, out);
            }
            self.in_sync(out);
            return true;
        }
        // Plies the board did not show on the way (a board polled once a
        // second, a blitz game on a board that scans): the fewest that end
        // here, ordered as the boards seen on the way fit best.
        // A board that sends every change as it happens is caught up by
        // two plies at most: a longer way is more often a capture going on
        // (the taken piece off, the taker paused on its way) than moves.
        let plies = if self.streaming { MAX_PLIES } else { 2 };
        if let Some(moves) = catch_up_within(&self.pos, seen, &self.trail, plies, self.streaming) {
            for mv in moves {
                self.play(now, mv, out);
            }
            self.in_sync(out);
            return true;
        }
        self.streaming && self.catch_up_shuttle(now, seen, out)
    }

    fn play(&mut self, now: u64, mv: Move, out: &mut Vec<RecognizerEvent>) {
        let before = self.pos.clone();
        self.pos.play_unchecked(mv);
        self.shown = None;
        self.forget_trail();
        self.history.push(Played {
            before,
            mv,
            shown: true,
            at: Some(now),
            unheard: false,
        });
        out.push(RecognizerEvent::Move(mv));
    }

    /// How `seen` (game coordinates) differs from the game.
    fn difference(&self, seen: &Board) -> Mismatch {
        let game = self.pos.board();
        let emptied: Vec<shakmaty::Square> = self
            .history
            .last()
            .map(|last| {
                (last.before.board().occupied() & !game.occupied())
                    .into_iter()
                    .collect()
            })
            .unwrap_or_default();
        let mut m = Mismatch::default();
        for sq in shakmaty::Square::ALL {
            let want = game.piece_at(sq);
            let have = seen.piece_at(sq);
            if want == have {
                continue;
            }
            if let Some(p) = want {
                m.missing.push((sq, p));
            }
            if have.is_some() {
                if emptied.contains(&sq) {
                    m.expected_empty.push(sq);
                } else {
                    m.extra.push(sq);
                }
            }
        }
        m
    }
}

/// Where a move's piece lands (castling: the king's square).
fn landing(mv: Move, mover: shakmaty::Color) -> Square {
    match mv {
        Move::Castle { king, rook } => {
            shakmaty::CastlingSide::from_king_side(rook > king).king_to(mover)
        }
        _ => mv.to(),
    }
}

/// A move in the recognizer's history.
#[derive(Clone, Debug)]
struct Played {
    before: Chess,
    mv: Move,
    /// The board has shown the position after it.
    shown: bool,
    /// When it was made on this board (`None`: made elsewhere).
    at: Option<u64>,
    /// The link was lost within its correction time.
    unheard: bool,
}

fn rotated(board: &Board) -> Board {
    let mut board = board.clone();
    board.rotate_180();
    board
}
