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
//! fit best, in order. A ply more costs [`EXTRA_PLY_COST`] squares of
//! misfit: a square a piece paused on for one scan (a slide) is no move,
//! a square it stood on for the other side's whole reply is.
//!
//! [`chain`] is the stricter way, tried first: the moves whose positions
//! the board showed exactly, in order.
//!
//! Pure and bounded: a ply limit and a node budget.

use shakmaty::{Board, Chess, Color, Move, Piece, Position, Role};

use super::recognizer::after;

/// The most plies a catch-up plays.
pub const MAX_PLIES: usize = 8;
/// Positions visited before the search gives up.
const BUDGET: usize = 60_000;
/// Sequences kept per length.
const KEEP: usize = 24;
/// Plies more than the fewest that are still looked at.
const MORE_PLIES: usize = 2;
/// What one ply more than the fewest costs, in squares of misfit.
const EXTRA_PLY_COST: usize = 3;

/// The sequence of legal moves from `start` that ends exactly in `seen`
/// (game coordinates), or in `seen` with the next move begun (a piece in
/// the hand), and that the boards shown on the way (`trail`, oldest first)
/// fit best; `None` when none is found within the limits.
pub fn catch_up(start: &Chess, seen: &Board, trail: &[Board]) -> Option<Vec<Move>> {
    let fewest = plies_needed(start, seen);
    if fewest == 0 || fewest > MAX_PLIES {
        return None;
    }
    let mut search = Search {
        seen,
        nodes: 0,
        found: Vec::new(),
    };
    let mut shortest = None;
    for plies in fewest..=MAX_PLIES {
        if shortest.is_some_and(|s| plies > s + MORE_PLIES) || search.nodes >= BUDGET {
            break;
        }
        let before = search.found.len();
        search.visit(start, plies, &mut Vec::with_capacity(plies));
        if search.found.len() > before && shortest.is_none() {
            shortest = Some(plies);
        }
    }
    let shortest = shortest?;
    search
        .found
        .into_iter()
        .map(|moves| {
            let cost = misfit(start, &moves, trail) + (moves.len() - shortest) * EXTRA_PLY_COST;
            (cost, moves)
        })
        .min_by_key(|(cost, moves)| (*cost, moves.len()))
        .map(|(_, moves)| moves)
}

struct Search<'a> {
    seen: &'a Board,
    nodes: usize,
    found: Vec<Vec<Move>>,
}

impl Search<'_> {
    fn visit(&mut self, pos: &Chess, left: usize, moves: &mut Vec<Move>) {
        if self.nodes >= BUDGET {
            return;
        }
        self.nodes += 1;
        if left == 0 {
            let kept = self.found.iter().filter(|m| m.len() == moves.len()).count();
            // Exactly there, or with the next move begun: a piece is in
            // the hand (the board settled while the player held it).
            let ends_here = pos.board() == self.seen || next_in_hand(pos, self.seen);
            if ends_here && kept < KEEP {
                self.found.push(moves.clone());
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
            if stays {
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
/// the one before it was, and costs the squares it differs in.
fn misfit(start: &Chess, moves: &[Move], trail: &[Board]) -> usize {
    let mut positions = Vec::with_capacity(moves.len() + 1);
    let mut pos = start.clone();
    positions.push(pos.board().clone());
    for &mv in moves {
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
            best[k] = least + differ(board, position);
        }
    }
    best.into_iter().min().unwrap_or(0)
}

/// The squares two boards differ in.
fn differ(a: &Board, b: &Board) -> usize {
    Color::ALL
        .iter()
        .flat_map(|&color| Role::ALL.map(|role| Piece { color, role }))
        .map(|p| a.by_piece(p) ^ b.by_piece(p))
        .fold(shakmaty::Bitboard::EMPTY, |acc, d| acc | d)
        .count()
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
pub(super) fn chain(
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
                crate::board::catch_up::occupancy_after(mv, occ, turn) == board.occupied()
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
pub(super) fn next_in_hand(next: &Chess, board: &Board) -> bool {
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

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::san::San;

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
        mid.discard_piece_at(shakmaty::Square::A7);
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
        seen.discard_piece_at(shakmaty::Square::E2);
        assert_eq!(catch_up(&start, &seen, &[]), None);
        assert_eq!(catch_up(&start, start.board(), &[]), None);
    }

    #[test]
    fn a_board_settled_with_a_piece_in_the_hand_is_not_read_as_captures() {
        let (start, _) = play(&Chess::default(), "d4 Nf6 c4 e6 Nc3 Bb4 Qc2 O-O a3");
        // Bxc3+ bxc3, and Black's queen lifted for the next move.
        let (after, want) = play(&start, "Bxc3+ bxc3");
        let mut seen = after.board().clone();
        seen.discard_piece_at(shakmaty::Square::D8);
        assert_eq!(catch_up(&start, &seen, &[]), Some(want));
    }

    #[test]
    fn castling_counts_two_pieces_placed() {
        let (start, _) = play(&Chess::default(), "e4 e5 Nf3 Nc6 Bc4 Bc5");
        let (after, want) = play(&start, "O-O Nf6");
        assert_eq!(plies_needed(&start, after.board()), 2);
        assert_eq!(catch_up(&start, after.board(), &[]), Some(want));
    }
}
