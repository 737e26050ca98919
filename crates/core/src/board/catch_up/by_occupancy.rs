//! The way back to a board: the legal plies that lead from the last
//! position the game and a board agreed on to the occupancy the board shows
//! now, when single moves no longer explain it (lines were lost, a reply
//! came before the move was seen, the board is several plies ahead).
//!
//! Only occupancy is known, so the search looks for every sequence of the
//! fewest plies that ends in it; the caller takes one only when it is the
//! only one (and the evidence it saw agrees), and otherwise waits for a
//! board that tells them apart. It never guesses.
//!
//! Pure and bounded: a depth limit and a node budget keep a hopeless board
//! from costing more than a few milliseconds.

use shakmaty::{Bitboard, CastlingSide, Chess, Color, Move, Position, Role, Square};

/// How far to look.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// The fewest plies an answer may have.
    pub min_plies: usize,
    /// The most plies an answer may have.
    pub max_plies: usize,
    /// Plies looked at beyond the fewest that explain the board (a way
    /// with one ply more may explain better what the board showed on the
    /// way: a piece in the hand reads like a capture done).
    pub more_plies: usize,
    /// Positions visited before the search gives up.
    pub max_nodes: usize,
    /// A promotion is looked for with this piece only (the default piece;
    /// the piece itself cannot be seen).
    pub promote_to: Role,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            min_plies: 1,
            max_plies: 4,
            more_plies: 0,
            max_nodes: 200_000,
            promote_to: Role::Queen,
        }
    }
}

/// What the search found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Found {
    /// No sequence within the limits ends in the occupancy.
    Nothing,
    /// Every sequence of the fewest plies that explains it (at most
    /// [`KEEP`]; more than one means the board does not tell them apart).
    Sequences(Vec<Way>),
    /// The node budget ran out first.
    TooHard,
}

/// One way from the game to the board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Way {
    pub moves: Vec<Move>,
    /// The board shows these moves and the next one in the hand (only that
    /// move's squares differ); else it shows exactly where they lead.
    pub in_hand: bool,
    /// The squares of the moves that may be in the hand (empty when none).
    pub hand: Bitboard,
}

/// Sequences kept at most: enough to know there is more than one.
pub const KEEP: usize = 16;

/// The occupancy a move leaves (game coordinates).
pub fn occupancy_after(mv: Move, occ: Bitboard, turn: Color) -> Bitboard {
    match mv {
        Move::Normal { from, to, .. } => occ.without(from).with(to),
        Move::EnPassant { from, to } => occ
            .without(from)
            .without(Square::from_coords(to.file(), from.rank()))
            .with(to),
        Move::Castle { king, rook } => {
            let side = CastlingSide::from_king_side(rook > king);
            occ.without(king)
                .without(rook)
                .with(side.king_to(turn))
                .with(side.rook_to(turn))
        }
        Move::Put { to, .. } => occ.with(to),
    }
}

/// The squares a move lifts from or puts on (the captured pawn of an en
/// passant capture and the castling rook included).
pub fn involved(mv: Move, turn: Color) -> Bitboard {
    match mv {
        Move::Normal { from, to, .. } => Bitboard::from(from) | to,
        Move::EnPassant { from, to } => {
            Bitboard::from(from) | to | Square::from_coords(to.file(), from.rank())
        }
        Move::Castle { king, rook } => {
            let side = CastlingSide::from_king_side(rook > king);
            Bitboard::from(king) | rook | side.king_to(turn) | side.rook_to(turn)
        }
        Move::Put { to, .. } => Bitboard::from(to),
    }
}

/// How many of the board states seen on the way (oldest first) the way
/// explains in their order: each as the position after some ply, or with
/// the next ply in the hand (only its squares differ). States that
/// fit nowhere (a piece lifted and put back) are passed over. The order in
/// which plies were made, and which of several captures the board shows
/// alike, is told by this.
pub fn fit(start: &Chess, way: &Way, seen: &[Bitboard]) -> usize {
    let seq = &way.moves;
    let mut steps = Vec::with_capacity(seq.len() + 1);
    let mut occ = start.board().occupied();
    let mut turn = start.turn();
    for &mv in seq {
        steps.push((occ, involved(mv, turn)));
        occ = occupancy_after(mv, occ, turn);
        turn = !turn;
    }
    // After the last ply, the move in the hand (if any) is on its way.
    steps.push((occ, way.hand));
    let mut at = 0;
    let mut fitted = 0;
    for &state in seen {
        if let Some(k) =
            (at..steps.len()).find(|&k| ((state ^ steps[k].0) & !steps[k].1).is_empty())
        {
            at = k;
            fitted += 1;
        }
    }
    fitted
}

/// The position a sequence leads to.
pub fn play_all(start: &Chess, seq: &[Move]) -> Chess {
    let mut pos = start.clone();
    for &mv in seq {
        pos.play_unchecked(mv);
    }
    pos
}

struct Search<'a> {
    /// The caller's test of a way against what it saw (evidence): only
    /// ways it accepts are kept (and count towards [`KEEP`]).
    accept: &'a mut dyn FnMut(&Way) -> bool,
    target: Bitboard,
    limits: Limits,
    nodes: usize,
    found: Vec<Way>,
    /// The plies of the sequences looked at now.
    depth: usize,
}

/// Plies after which a board with a move in the hand is looked for (the
/// check costs a move generation per position).
const IN_HAND_PLIES: usize = 3;

impl Search<'_> {
    fn keep(&mut self, way: Way) {
        if (self.accept)(&way) {
            self.found.push(way);
        }
    }

    /// The plies a path reaching the end of this search has.
    fn path_len(&self, _left: usize) -> usize {
        self.depth
    }

    /// Depth-first over exactly `left` more plies.
    fn visit(&mut self, pos: &Chess, occ: Bitboard, left: usize, path: &mut Vec<Move>) {
        if self.nodes >= self.limits.max_nodes || self.found.len() >= KEEP {
            return;
        }
        self.nodes += 1;
        // A ply fills at most two squares and empties at most two
        // (castling), and removes at most one piece from the board; a move
        // in the hand at the end empties up to two more (the piece and the
        // one it takes).
        let hand = if self.path_len(left) <= IN_HAND_PLIES {
            2
        } else {
            0
        };
        let to_fill = (self.target & !occ).count();
        let to_empty = (occ & !self.target).count();
        let (now, then) = (occ.count(), self.target.count());
        if to_fill > 2 * left
            || to_empty > 2 * left + hand
            || then > now
            || now - then > left + hand
        {
            return;
        }
        let turn = pos.turn();
        for mv in pos.legal_moves() {
            if mv.promotion().is_some_and(|r| r != self.limits.promote_to) {
                continue;
            }
            let after = occupancy_after(mv, occ, turn);
            path.push(mv);
            if left == 1 {
                if after == self.target {
                    self.keep(Way {
                        moves: path.clone(),
                        in_hand: false,
                        hand: Bitboard::EMPTY,
                    });
                } else if path.len() <= IN_HAND_PLIES && (after ^ self.target).count() <= 4 {
                    let mut next = pos.clone();
                    next.play_unchecked(mv);
                    let hand = in_hand(&next, after, self.target);
                    if hand.any() {
                        self.keep(Way {
                            moves: path.clone(),
                            in_hand: true,
                            hand,
                        });
                    }
                }
            } else {
                let mut next = pos.clone();
                next.play_unchecked(mv);
                self.visit(&next, after, left - 1, path);
            }
            path.pop();
            if self.found.len() >= KEEP || self.nodes >= self.limits.max_nodes {
                return;
            }
        }
    }
}

/// Whether `target` is `pos` (with occupancy `occ`) with its next move in
/// the hand, not yet done: a piece lifted, its target taken off, part of
/// castling done. (A move done is one ply more, found as such: a capture
/// done looks like its piece lifted, and the caller reads the last ply of
/// a way with the evidence it needs.)
/// Returns the squares of every such move (empty: none is).
pub fn in_hand(pos: &Chess, occ: Bitboard, target: Bitboard) -> Bitboard {
    let diff = occ ^ target;
    let turn = pos.turn();
    if diff.is_empty() {
        return Bitboard::EMPTY;
    }
    pos.legal_moves()
        .iter()
        .filter(|&&mv| {
            (diff & !involved(mv, turn)).is_empty() && occupancy_after(mv, occ, turn) != target
        })
        .fold(Bitboard::EMPTY, |acc, &mv| acc | involved(mv, turn))
}

/// Every sequence of the fewest legal plies (within `limits`, and up to
/// `limits.more_plies` more) from `pos` whose occupancy is `target`, or is
/// `target` with one more move in the hand.
pub fn explain(pos: &Chess, target: Bitboard, limits: Limits) -> Found {
    explain_with(pos, target, limits, &mut |_| true)
}

/// As [`explain`], keeping only the ways `accept` takes (the caller's
/// evidence): the fewest plies among those.
pub fn explain_with(
    pos: &Chess,
    target: Bitboard,
    limits: Limits,
    accept: &mut dyn FnMut(&Way) -> bool,
) -> Found {
    let mut search = Search {
        accept,
        target,
        limits,
        nodes: 0,
        found: Vec::new(),
        depth: 0,
    };
    let occ = pos.board().occupied();
    let mut last = limits.max_plies;
    let mut plies = limits.min_plies.max(1);
    while plies <= last {
        search.depth = plies;
        search.visit(pos, occ, plies, &mut Vec::with_capacity(plies));
        if search.nodes >= limits.max_nodes {
            break;
        }
        if !search.found.is_empty() && last == limits.max_plies {
            last = (plies + limits.more_plies).min(limits.max_plies);
        }
        plies += 1;
    }
    match (search.found.is_empty(), search.nodes >= limits.max_nodes) {
        (false, _) => Found::Sequences(search.found),
        (true, true) => Found::TooHard,
        (true, false) => Found::Nothing,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::san::San;

    fn play(sans: &str) -> (Chess, Vec<Move>) {
        let mut pos = Chess::default();
        let mut moves = Vec::new();
        for san in sans.split_whitespace() {
            let mv = san.parse::<San>().unwrap().to_move(&pos).unwrap();
            pos.play_unchecked(mv);
            moves.push(mv);
        }
        (pos, moves)
    }

    fn sans(start: &Chess, seq: &[Move]) -> String {
        let mut pos = start.clone();
        seq.iter()
            .map(|&mv| {
                let san = San::from_move(&pos, mv).to_string();
                pos.play_unchecked(mv);
                san
            })
            .collect::<Vec<_>>()
            .join(" ")
    }

    #[test]
    fn four_plies_ahead_are_found_in_every_order_the_board_allows() {
        let start = Chess::default();
        let (after, _) = play("e4 e5 Nf3 Nc6");
        let found = explain(&start, after.board().occupied(), Limits::default());
        let Found::Sequences(ways) = found else {
            panic!("{found:?}")
        };
        let seqs: Vec<Vec<Move>> = ways
            .into_iter()
            .filter(|w| !w.in_hand)
            .map(|w| w.moves)
            .collect();
        // Knights' moves can be made in either order: the board alone does
        // not tell which came first, so all orders are returned.
        assert!(seqs.len() > 1, "{seqs:?}");
        assert!(
            seqs.iter().any(|s| sans(&start, s) == "e4 e5 Nf3 Nc6"),
            "{seqs:?}"
        );
        assert!(seqs.iter().all(|s| s.len() == 4));
    }

    #[test]
    fn a_capture_done_is_one_ply_more_not_a_piece_in_the_hand() {
        let (start, _) = play("e4 e5 Nf3 Nc6 Bb5 a6");
        let (after, _) = play("e4 e5 Nf3 Nc6 Bb5 a6 Bxc6 dxc6");
        let target = after.board().occupied();
        let ways = |accept: &mut dyn FnMut(&Way) -> bool| {
            let Found::Sequences(ways) = explain_with(&start, target, Limits::default(), accept)
            else {
                panic!()
            };
            let mut all: Vec<(String, bool)> = ways
                .iter()
                .map(|w| (sans(&start, &w.moves), w.in_hand))
                .collect();
            all.sort();
            all
        };
        // The fewest plies: Bxa6 with Black's d-pawn in the hand (after
        // Bxc6 the pawn is pinned: only dxc6, which is done, not in the
        // hand). The caller's evidence (a6 never seen empty) refuses it.
        assert_eq!(ways(&mut |_| true), [("Bxa6".to_owned(), true)]);
        // Then two plies: bxc6 or Bxa6 bxa6 would leave b7 empty, so the
        // board tells dxc6 apart.
        assert_eq!(ways(&mut |w| !w.in_hand), [("Bxc6 dxc6".to_owned(), false)]);
    }

    #[test]
    fn captures_the_board_shows_alike_are_all_returned() {
        // The knight on c3 can take d5 or b5: the same occupancy.
        let (start, _) = play("e4 d5 Nc3 a6 a3 b5");
        let occ = start.board().occupied().without(Square::C3);
        let Found::Sequences(ways) = explain(&start, occ, Limits::default()) else {
            panic!()
        };
        let mut all: Vec<String> = ways.iter().map(|w| sans(&start, &w.moves)).collect();
        all.sort();
        assert!(
            all.contains(&"Nxb5".to_owned()) && all.contains(&"Nxd5".to_owned()),
            "{all:?}"
        );
    }

    #[test]
    fn a_move_and_the_reply_in_the_hand_is_fewer_plies_than_three_moves() {
        // 1... Bxf4 was missed; Black has taken the white queen off f2 and
        // holds his rook (f3): one ply and a move in the hand, not three.
        let (start, _) = play("d4 e5 dxe5 Qh4 Bf4 Qxf4");
        let (after, _) = play("d4 e5 dxe5 Qh4 Bf4 Qxf4 e3");
        let occ = after.board().occupied().without(Square::F8);
        let Found::Sequences(ways) = explain(&start, occ, Limits::default()) else {
            panic!()
        };
        assert!(ways.iter().all(|w| w.moves.len() == 1), "{ways:?}");
        assert!(
            ways.iter()
                .any(|w| w.in_hand && sans(&start, &w.moves) == "e3")
        );
        assert!(ways.iter().all(|w| w.hand.contains(Square::F8)));
    }

    #[test]
    fn an_impossible_board_is_nothing_and_a_budget_ends_the_search() {
        let start = Chess::default();
        let empty = Bitboard::EMPTY;
        assert_eq!(explain(&start, empty, Limits::default()), Found::Nothing);
        let (far, _) = play("e4 e5 Nf3 Nc6 Bc4 Bc5 d3 d6");
        let tight = Limits {
            max_plies: 8,
            max_nodes: 500,
            ..Limits::default()
        };
        assert_eq!(
            explain(&start, far.board().occupied(), tight),
            Found::TooHard
        );
    }

    #[test]
    fn castling_en_passant_and_promotion_leave_their_occupancy() {
        let (pos, _) = play("e4 d5 e5 f5");
        let ep = "exf6".parse::<San>().unwrap().to_move(&pos).unwrap();
        let after = occupancy_after(ep, pos.board().occupied(), Color::White);
        assert!(!after.contains(Square::F5) && after.contains(Square::F6));
        let (pos, _) = play("e4 e5 Nf3 Nc6 Bc4 Bc5");
        let castle = "O-O".parse::<San>().unwrap().to_move(&pos).unwrap();
        let after = occupancy_after(castle, pos.board().occupied(), Color::White);
        assert!(after.contains(Square::G1) && after.contains(Square::F1));
        assert!(!after.contains(Square::E1) && !after.contains(Square::H1));
    }
}
