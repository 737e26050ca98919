//! The way from the game to a board several plies ahead, by pieces: a
//! board that knows its pieces (DGT, Millennium, Certabo, Chessnut) and
//! was scanned too seldom to show every position on the way (a blitz game
//! on a board that scans every quarter second, reports lost on the line).
//!
//! The board says where every piece stands now, and the boards it showed
//! since the game last moved say roughly when each piece went there. So
//! the search looks for the sequences of the fewest legal plies (and a
//! few with one or two plies more: a piece that made two moves) that end
//! exactly in the board, and keeps the one the boards seen on the way
//! fit best, in order. A ply more costs more than a square of misfit and
//! less than two: a square a piece paused on for one scan on its way (a
//! slide) is no move, a square it stood on for the other side's reply is.
//!
//! [`chain`] is the stricter way, tried first: the moves whose positions
//! the board showed exactly, in order.
//!
//! Pure and bounded: a ply limit and a node budget.

use shakmaty::{Board, Chess, Color, Move, Piece, Position, Role, Square};

/// The most plies a catch-up plays.
pub const MAX_PLIES: usize = 8;
/// Positions visited before the search gives up.
const BUDGET: usize = 60_000;
/// Sequences kept per length, in the order the search finds them: enough
/// for every order of a long catch-up (seven plies of a blitz game that
/// never stood still, game 137: 24 kept lost the right one).
const KEEP: usize = 200;
/// Plies more than the fewest that are still looked at.
const MORE_PLIES: usize = 2;
/// What a square a board differs in costs.
const SQUARE_COST: usize = 2;
/// What one ply more than the fewest costs: more than a square, less than
/// two. One board that shows a piece where the shorter way never has it
/// (it stood there through the other side's move) is worth the ply more;
/// a piece set down on its way is not (see [`misfit`]).
const EXTRA_PLY_COST: usize = 3;

/// The sequence of legal moves from `start` that ends exactly in `seen`
/// (game coordinates), or, if `in_hand`, in `seen` with the next move
/// begun (a piece in the hand), that the boards shown on the way (`trail`,
/// oldest first) fit best; at most `max_plies` plies; `None` when none is
/// found within the limits.
pub fn catch_up_within(
    start: &Chess,
    seen: &Board,
    trail: &[Board],
    max_plies: usize,
    in_hand: bool,
) -> Option<Vec<Move>> {
    best_way(start, seen, trail, max_plies, in_hand, false)
}

/// As [`catch_up_within`], exactly there, for the ways that move a piece
/// standing where the board has it now away and back (to take a piece on
/// its way, or to wait while the other side moved twice): never the fewest
/// plies by the board alone, so only the boards seen on the way can tell
/// (see [`fits_better_than_none`]).
pub fn catch_up_shuttling(
    start: &Chess,
    seen: &Board,
    trail: &[Board],
    max_plies: usize,
) -> Option<Vec<Move>> {
    // Three plies at least (away, the other side, back): worth looking for
    // only when the boards seen fit no move at all worse than that costs.
    if misfit(start, &[], trail) <= 3 * EXTRA_PLY_COST {
        return None;
    }
    best_way(start, seen, trail, max_plies, false, true)
}

/// The search both catch-ups make: the ways of the fewest plies (and up
/// to `MORE_PLIES` more) within `max_plies`, the best fit kept.
fn best_way(
    start: &Chess,
    seen: &Board,
    trail: &[Board],
    max_plies: usize,
    in_hand: bool,
    shuttles: bool,
) -> Option<Vec<Move>> {
    if start.board() == seen {
        return None;
    }
    // A board that differs is at least a ply away, even when no piece
    // stands anywhere new (a capture taken back by the same kind of piece).
    let fewest = plies_needed(start, seen).max(1);
    if fewest > max_plies {
        return None;
    }
    let mut search = Search {
        seen,
        in_hand,
        shuttles,
        nodes: 0,
        found: Vec::new(),
    };
    let shortest = search.run(start, fewest, max_plies)?;
    Some(best_fit(start, search.found, shortest, trail))
}

/// The way found that the boards seen fit best.
fn best_fit(
    start: &Chess,
    found: Vec<(Vec<Move>, bool)>,
    shortest: usize,
    trail: &[Board],
) -> Vec<Move> {
    found
        .into_iter()
        .map(|(moves, in_hand)| {
            let cost = misfit(start, &moves, trail) + (moves.len() - shortest) * EXTRA_PLY_COST;
            (cost, in_hand, moves)
        })
        // Alike otherwise: the board shown exactly, rather than with a
        // piece in the hand.
        .min_by_key(|(cost, in_hand, moves)| (*cost, moves.len(), *in_hand))
        .map(|(_, _, moves)| moves)
        .expect("a way was found")
}

/// Whether the boards shown on the way (`trail`) fit `moves` from `start`
/// better than they fit no move at all, each ply costing as one more than
/// the fewest does.
pub fn fits_better_than_none(start: &Chess, moves: &[Move], trail: &[Board]) -> bool {
    misfit(start, moves, trail) + moves.len() * EXTRA_PLY_COST < misfit(start, &[], trail)
}

struct Search<'a> {
    seen: &'a Board,
    in_hand: bool,
    /// Whether a piece standing where the board has it may move (and come
    /// back).
    shuttles: bool,
    nodes: usize,
    /// Each way found, and whether it ends with a piece in the hand.
    found: Vec<(Vec<Move>, bool)>,
}

impl Search<'_> {
    /// Looks from `fewest` plies to `max_plies`, and up to `MORE_PLIES`
    /// beyond the first length found; returns that length.
    fn run(&mut self, start: &Chess, fewest: usize, max_plies: usize) -> Option<usize> {
        let mut shortest = None;
        for plies in fewest..=max_plies {
            if shortest.is_some_and(|s| plies > s + MORE_PLIES) || self.nodes >= BUDGET {
                break;
            }
            let before = self.found.len();
            self.visit(start, plies, &mut Vec::with_capacity(plies));
            if self.found.len() > before && shortest.is_none() {
                shortest = Some(plies);
            }
        }
        shortest
    }

    fn visit(&mut self, pos: &Chess, left: usize, moves: &mut Vec<Move>) {
        if self.nodes >= BUDGET {
            return;
        }
        self.nodes += 1;
        if left == 0 {
            let kept = self
                .found
                .iter()
                .filter(|m| m.0.len() == moves.len())
                .count();
            // Exactly there, or with the next move begun: a piece is in
            // the hand (the board settled while the player held it).
            let exact = pos.board() == self.seen;
            let in_hand = !exact
                && self.in_hand
                && next_in_hand(pos, self.seen)
                && !capture_going_on(moves, pos, self.seen);
            if (exact || in_hand) && kept < KEEP {
                self.found.push((moves.clone(), in_hand));
            }
            return;
        }
        if plies_needed(pos, self.seen) > left {
            return;
        }
        for mv in pos.legal_moves() {
            // A piece standing where the board has it now does not move
            // (a way that moves it and back is never the fewest).
            let stays = mv
                .from()
                .is_some_and(|from| self.seen.piece_at(from) == pos.board().piece_at(from));
            if stays && !self.shuttles {
                continue;
            }
            let mut next = pos.clone();
            next.play_unchecked(mv);
            moves.push(mv);
            self.visit(&next, left - 1, moves);
            moves.pop();
        }
    }
}

/// Whether `seen` is `pos` with a capture going on: the taken piece off
/// and the taker lifted or set down on its way there (a board that stood
/// still for a scan in the middle of it reads like several plies).
pub(crate) fn capture_in_hand(pos: &Chess, seen: &Board) -> bool {
    pos.legal_moves().iter().any(|mv| {
        let Move::Normal {
            from,
            to,
            capture: Some(_),
            ..
        } = *mv
        else {
            return false;
        };
        let Some(taker) = pos.board().piece_at(from) else {
            return false;
        };
        let mut lifted = pos.board().clone();
        lifted.discard_piece_at(from);
        lifted.discard_piece_at(to);
        if &lifted == seen {
            return true;
        }
        shakmaty::attacks::between(from, to).into_iter().any(|sq| {
            let mut paused = lifted.clone();
            paused.set_piece_at(sq, taker);
            &paused == seen
        })
    })
}

/// Whether a piece missing from `seen` (which shows `pos` with a piece in
/// the hand) may instead be taken by the last move's piece, paused on its
/// way there: the last move then is no move yet.
fn capture_going_on(moves: &[Move], pos: &Chess, seen: &Board) -> bool {
    let Some(last) = moves.last() else {
        return false;
    };
    let Some(from) = last.from() else {
        return false;
    };
    let missing = pos.board().occupied() & !seen.occupied();
    let Some(piece) = pos.board().piece_at(last.to()) else {
        return false;
    };
    // From where the piece stood before its last move.
    let mut board = pos.board().clone();
    board.discard_piece_at(last.to());
    board.set_piece_at(from, piece);
    // The piece stands on the way from where it came to the missing one.
    missing.into_iter().any(|sq| {
        pos.board()
            .piece_at(sq)
            .is_some_and(|p| p.color != piece.color)
            && shakmaty::attacks::between(from, sq).contains(last.to())
            && board
                .attacks_to(sq, piece.color, board.occupied())
                .contains(from)
    })
}

/// The fewest plies that can lead from `pos` to `seen`: every move puts
/// one piece of its side on a square (castling two), so each side needs at
/// least as many moves as it has pieces standing where `pos` has them not,
/// and the sides take turns.
fn plies_needed(pos: &Chess, seen: &Board) -> usize {
    let moves = |color: Color| {
        let placed = Role::ALL
            .iter()
            .map(|&role| Piece { color, role })
            .map(|p| (seen.by_piece(p) & !pos.board().by_piece(p)).count())
            .sum::<usize>();
        if pos.castles().has_color(color) {
            placed.div_ceil(2)
        } else {
            placed
        }
    };
    let (mover, other) = (moves(pos.turn()), moves(!pos.turn()));
    match (mover, other) {
        (0, 0) => 0,
        (0, b) => 2 * b,
        (a, b) => (2 * a - 1).max(2 * b),
    }
}

/// How badly the boards shown on the way fit the positions of `moves`,
/// taken in order: each board is matched to a position no earlier than
/// the one before it was, and costs the squares it differs in. A piece on
/// a square one of the moves passes over costs nothing there: it was set
/// down on its way (a slide).
fn misfit(start: &Chess, moves: &[Move], trail: &[Board]) -> usize {
    let mut positions = Vec::with_capacity(moves.len() + 1);
    let mut pos = start.clone();
    positions.push(pos.board().clone());
    let mut on_the_way = Vec::new();
    for &mv in moves {
        if let Move::Normal { from, to, .. } = mv
            && let Some(piece) = pos.board().piece_at(from)
        {
            on_the_way.push(Slide {
                from,
                piece,
                squares: shakmaty::attacks::between(from, to),
            });
        }
        pos.play_unchecked(mv);
        positions.push(pos.board().clone());
    }
    // best[k]: the least cost of the boards so far, the last matched to
    // position k or an earlier one.
    let mut best = vec![0usize; positions.len()];
    for board in trail {
        let mut least = usize::MAX;
        for (k, position) in positions.iter().enumerate() {
            least = least.min(best[k]);
            best[k] = least + differ(board, position, &on_the_way);
        }
    }
    best.into_iter().min().unwrap_or(0)
}

/// A move's piece and the squares it passes over.
struct Slide {
    from: Square,
    piece: Piece,
    squares: shakmaty::Bitboard,
}

/// What the squares a board shown differs from a position in cost; a
/// piece shown on an empty square a move of it passes over, lifted from
/// where that move starts, costs nothing there.
fn differ(shown: &Board, position: &Board, on_the_way: &[Slide]) -> usize {
    let differing = Color::ALL
        .iter()
        .flat_map(|&color| Role::ALL.map(|role| Piece { color, role }))
        .map(|p| shown.by_piece(p) ^ position.by_piece(p))
        .fold(shakmaty::Bitboard::EMPTY, |acc, d| acc | d);
    let paused = (differing & shown.occupied() & !position.occupied())
        .into_iter()
        .filter(|&sq| {
            on_the_way.iter().any(|s| {
                s.squares.contains(sq)
                    && shown.piece_at(sq) == Some(s.piece)
                    && shown.piece_at(s.from) != Some(s.piece)
            })
        })
        .count();
    (differing.count() - paused) * SQUARE_COST
}

/// The legal moves from `start` whose positions the board showed in
/// order (`trail`), ending in `seen` (the last may be shown only there): a
/// fast game passes through the position after each move for a moment;
/// a piece set down on the way (a slide) shows a move too, earlier, so the
/// latest showing of each is tried first.
/// A board that reports whole positions may lose a report on the line
/// without a trace. When no string of shown positions leads to `seen`, a
/// move may be read from a board that shows it done with the next move
/// already in the hand (the report of the move itself lost); and failing
/// that, one move whose position was never seen at all is allowed.
/// `exact`: only positions shown exactly.
/// `None` when no such string of moves exists (within a budget).
pub(crate) fn chain(
    start: &Chess,
    trail: &[Board],
    seen: &Board,
    exact: bool,
) -> Option<Vec<Move>> {
    struct Walk<'a> {
        trail: &'a [Board],
        seen: &'a Board,
        moves: Vec<Move>,
        budget: usize,
        in_hand: bool,
    }
    impl Walk<'_> {
        fn walk(&mut self, pos: &Chess, from: usize, gaps: usize) -> bool {
            if self.budget == 0 || self.moves.len() >= CHAIN_PLIES {
                return false;
            }
            self.budget -= 1;
            let legal = pos.legal_moves();
            let occ = pos.board().occupied();
            let turn = pos.turn();
            let shows = |mv: Move, board: &Board| {
                super::by_occupancy::occupancy_after(mv, occ, turn) == board.occupied()
                    && after(pos, mv).board() == board
            };
            if let Some(&mv) = legal.iter().find(|&&mv| shows(mv, self.seen)) {
                self.moves.push(mv);
                return true;
            }
            // The latest board each move's position was shown in first: a
            // piece set down on the way shows a move too, earlier.
            for i in (from..self.trail.len()).rev() {
                let board = &self.trail[i];
                for &mv in &legal {
                    let shown =
                        shows(mv, board) || (self.in_hand && next_in_hand(&after(pos, mv), board));
                    if !shown {
                        continue;
                    }
                    self.moves.push(mv);
                    if self.walk(&after(pos, mv), i + 1, gaps) {
                        return true;
                    }
                    self.moves.pop();
                }
            }
            if gaps > 0 {
                for &mv in &legal {
                    self.moves.push(mv);
                    if self.walk(&after(pos, mv), from, gaps - 1) {
                        return true;
                    }
                    self.moves.pop();
                }
            }
            false
        }
    }
    // Exact showings first; then a move shown with the next one in the
    // hand; then one move never shown.
    let levels: &[(bool, usize)] = if exact {
        &[(false, 0)]
    } else {
        &[(false, 0), (true, 0), (true, CHAIN_GAPS)]
    };
    levels.iter().copied().find_map(|(in_hand, gaps)| {
        let mut w = Walk {
            trail,
            seen,
            moves: Vec::new(),
            budget: CHAIN_BUDGET,
            in_hand,
        };
        w.walk(start, 0, gaps).then_some(w.moves)
    })
}

/// Whether `board` is `next` with the next move begun: one piece of the
/// side to move lifted, or one of the other side's that it attacks taken
/// off first, or both; every other square as in `next`.
pub(crate) fn next_in_hand(next: &Chess, board: &Board) -> bool {
    let want = next.board();
    let missing = want.occupied() & !board.occupied();
    if missing.is_empty() || (board.occupied() & !want.occupied()).any() {
        return false;
    }
    if board
        .occupied()
        .into_iter()
        .any(|sq| board.piece_at(sq) != want.piece_at(sq))
    {
        return false;
    }
    let mover = next.turn();
    let own = missing & want.by_color(mover);
    let theirs = missing & want.by_color(!mover);
    own.count() <= 1
        && theirs.count() <= 1
        && theirs
            .into_iter()
            .all(|sq| want.attacks_to(sq, mover, want.occupied()).any())
}

/// Moves a catch-up may play whose position the board never showed.
const CHAIN_GAPS: usize = 0;

/// The most moves one catch-up plays, and the positions it may try.
const CHAIN_PLIES: usize = 40;
const CHAIN_BUDGET: usize = 2_000;

/// The position after a move.
pub(crate) fn after(pos: &Chess, mv: Move) -> Chess {
    let mut next = pos.clone();
    next.play_unchecked(mv);
    next
}

/// Whether the mover of the move that led to `next`, ending on `to`, has
/// every piece where `next` has it (the other side's pieces may differ:
/// its reply going on), the moved piece perhaps taken off `to` by the
/// other side (its capture begun with the taken piece).
pub(crate) fn mover_as_shown(next: &Chess, to: Square, seen: &Board) -> bool {
    let mover = !next.turn();
    let board = next.board();
    let taken_off = |sq: Square| {
        sq == to
            && seen.piece_at(sq).is_none()
            && board.attacks_to(sq, !mover, board.occupied()).any()
    };
    Square::ALL.into_iter().all(|sq| {
        let want = board.piece_at(sq);
        let have = seen.piece_at(sq);
        want == have
            || (want.is_none_or(|p| p.color != mover) && have.is_none_or(|p| p.color != mover))
            || taken_off(sq)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::san::San;

    fn catch_up(start: &Chess, seen: &Board, trail: &[Board]) -> Option<Vec<Move>> {
        catch_up_within(start, seen, trail, MAX_PLIES, true)
    }

    fn position(fen: &str) -> Chess {
        fen.parse::<shakmaty::fen::Fen>()
            .unwrap()
            .into_position(shakmaty::CastlingMode::Standard)
            .unwrap()
    }

    fn play(start: &Chess, sans: &str) -> (Chess, Vec<Move>) {
        let mut pos = start.clone();
        let mut moves = Vec::new();
        for san in sans.split_whitespace() {
            let mv = san.parse::<San>().unwrap().to_move(&pos).unwrap();
            pos.play_unchecked(mv);
            moves.push(mv);
        }
        (pos, moves)
    }

    fn boards(start: &Chess, sans: &str) -> Vec<Board> {
        let mut pos = start.clone();
        let mut out = Vec::new();
        for san in sans.split_whitespace() {
            let mv = san.parse::<San>().unwrap().to_move(&pos).unwrap();
            pos.play_unchecked(mv);
            out.push(pos.board().clone());
        }
        out
    }

    #[test]
    fn two_plies_never_shown_are_found() {
        let (start, _) = play(&Chess::default(), "e4 e5");
        let (after, want) = play(&start, "Nf3 Nc6");
        assert_eq!(catch_up(&start, after.board(), &[]), Some(want));
    }

    #[test]
    fn the_order_of_four_plies_comes_from_the_boards_on_the_way() {
        let start = Chess::default();
        // Either order ends on the same board; what was seen tells.
        for sans in ["e4 e5 Nf3 Nc6", "Nf3 Nc6 e4 e5", "e4 Nc6 Nf3 e5"] {
            let (after, want) = play(&start, sans);
            let trail = boards(&start, sans);
            // Only every other position was scanned.
            let seen_some: Vec<Board> = trail.iter().step_by(2).cloned().collect();
            assert_eq!(
                catch_up(&start, after.board(), &seen_some),
                Some(want),
                "{sans}"
            );
        }
    }

    #[test]
    fn a_piece_that_stood_through_a_reply_made_two_moves() {
        let (start, _) = play(&Chess::default(), "d4 d5 e3 e6");
        // Bd3, a6, Be2: the bishop stood on d3 while Black moved.
        let (after, want) = play(&start, "Bd3 a6 Be2");
        let mut mid = play(&start, "Bd3").0.board().clone();
        let on_d3 = mid.clone();
        mid.discard_piece_at(Square::A7);
        let trail = vec![on_d3, mid, play(&start, "Bd3 a6").0.board().clone()];
        assert_eq!(catch_up(&start, after.board(), &trail), Some(want));
        // Without the boards on the way, the fewest plies: Be2 a6.
        let fewest = play(&start, "Be2 a6").1;
        assert_eq!(catch_up(&start, after.board(), &[]), Some(fewest));
    }

    #[test]
    fn a_slide_paused_on_a_square_for_one_scan_is_no_move() {
        let (start, _) = play(&Chess::default(), "d4 d5 Nf3 e6 e3");
        // Black's queen goes d8-f6 and pauses on e7 for a scan; White
        // replies Bd3.
        let (after, want) = play(&start, "Qf6 Bd3");
        let paused = play(&start, "Qe7").0.board().clone();
        let trail = vec![paused, play(&start, "Qf6").0.board().clone()];
        assert_eq!(catch_up(&start, after.board(), &trail), Some(want));
    }

    #[test]
    fn a_board_no_legal_moves_reach_is_not_explained() {
        let start = Chess::default();
        let mut seen = start.board().clone();
        seen.discard_piece_at(Square::E2);
        assert_eq!(catch_up(&start, &seen, &[]), None);
        assert_eq!(catch_up(&start, start.board(), &[]), None);
    }

    #[test]
    fn a_board_settled_with_a_piece_in_the_hand_is_not_read_as_captures() {
        let (start, _) = play(&Chess::default(), "d4 Nf6 c4 e6 Nc3 Bb4 Qc2 O-O a3");
        // Bxc3+ bxc3, and Black's queen lifted for the next move.
        let (after, want) = play(&start, "Bxc3+ bxc3");
        let mut seen = after.board().clone();
        seen.discard_piece_at(Square::D8);
        assert_eq!(catch_up(&start, &seen, &[]), Some(want));
    }

    #[test]
    fn a_piece_seen_once_on_a_square_off_its_way_while_the_other_side_moved_made_two_moves() {
        // King and pawn ending: Kc2-c3, b2-b1=Q, Kc3-d2; one board showed
        // the king on c3 with the new queen already on b1.
        let start = position("7k/7P/8/8/8/8/1p2K3/8 w - - 0 1");
        let (after, want) = play(&start, "Kd3 b1=Q+ Kd2");
        let on_d3 = boards(&start, "Kd3 b1=Q+")[1].clone();
        assert_eq!(catch_up(&start, after.board(), &[on_d3]), Some(want));
    }

    #[test]
    fn a_piece_that_took_on_its_way_and_came_back_is_found_by_the_boards_seen() {
        // Rook ending (game 235 of the self-play set): Ka6-a5, Rf4xh4,
        // Ka5-a6, Rh4-f4: the board ends with only Black's pawn gone.
        let start = position("8/8/k1K5/8/5R1p/7P/8/8 b - - 0 1");
        let sans = "Ka5 Rxh4 Ka6 Rf4";
        let (after, want) = play(&start, sans);
        // The fewest plies by the pieces alone never move a piece that
        // stands where the board has it.
        assert_eq!(catch_up(&start, after.board(), &[]), None);
        // Seen on the way: the king on a5, the rook on h4.
        let trail = boards(&start, sans);
        let found = catch_up_shuttling(&start, after.board(), &trail, 4);
        assert_eq!(found, Some(want.clone()));
        assert!(fits_better_than_none(&start, &want, &trail));
        // With nothing seen on the way, nothing tells the king's way, nor
        // that any move was made: no move explains the boards better.
        assert_eq!(catch_up_shuttling(&start, after.board(), &[], 4), None);
        let held = [after.board().clone()];
        assert!(!fits_better_than_none(&start, &want, &held));
    }

    #[test]
    fn a_capture_going_on_is_told_from_moves() {
        let start = position("4k3/p7/8/8/8/8/8/R3K3 w - - 0 1");
        let rook = Piece {
            color: Color::White,
            role: Role::Rook,
        };
        let mut taken_off = start.board().clone();
        taken_off.discard_piece_at(Square::A7);
        taken_off.discard_piece_at(Square::A1);
        // Ra1xa7: the pawn off and the rook in the hand ...
        assert!(capture_in_hand(&start, &taken_off));
        // ... or paused on a4 on its way.
        let mut paused = taken_off.clone();
        paused.set_piece_at(Square::A4, rook);
        assert!(capture_in_hand(&start, &paused));
        // The pawn still there: a rook move, no capture.
        let mut moved = start.board().clone();
        moved.discard_piece_at(Square::A1);
        moved.set_piece_at(Square::A4, rook);
        assert!(!capture_in_hand(&start, &moved));
    }

    #[test]
    fn a_recapture_by_the_same_kind_of_piece_is_found() {
        // Nxc5 dxc5 leaves a white pawn on c5 again.
        let (start, _) = play(&Chess::default(), "d4 Na6 c4 e6 c5");
        let (after, want) = play(&start, "Nxc5 dxc5");
        assert_eq!(catch_up(&start, after.board(), &[]), Some(want));
    }

    #[test]
    fn castling_counts_two_pieces_placed() {
        let (start, _) = play(&Chess::default(), "e4 e5 Nf3 Nc6 Bc4 Bc5");
        let (after, want) = play(&start, "O-O Nf6");
        assert_eq!(plies_needed(&start, after.board()), 2);
        assert_eq!(catch_up(&start, after.board(), &[]), Some(want));
    }
}
