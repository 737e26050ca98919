//! A player's move against the solution. As Lichess judges: the
//! solution's move is right, and so is any move that mates (the last move
//! of a mate puzzle may be any mate); any other move is wrong.

use shakmaty::{Chess, Move, Position};

/// What a move does to the puzzle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The solution's move (or a mate): the puzzle goes on.
    Right,
    /// The player's last move (or a mate): the puzzle is solved.
    Solved,
    /// Not the solution: said, taken back, the player tries again.
    Wrong,
}

/// Judges `mv` played in `pos` where the solution has `expected`;
/// `last` when it is the player's last move of the line.
pub fn judge(pos: &Chess, expected: Move, mv: Move, last: bool) -> Verdict {
    let mates = pos.is_legal(mv) && {
        let mut after = pos.clone();
        after.play_unchecked(mv);
        after.is_checkmate()
    };
    match (mv == expected, mates, last) {
        (_, true, _) | (true, _, true) => Verdict::Solved,
        (true, false, false) => Verdict::Right,
        (false, false, _) => Verdict::Wrong,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::CastlingMode;
    use shakmaty::fen::Fen;
    use shakmaty::uci::UciMove;

    fn pos(fen: &str) -> Chess {
        fen.parse::<Fen>()
            .unwrap()
            .into_position(CastlingMode::Standard)
            .unwrap()
    }

    fn mv(pos: &Chess, uci: &str) -> Move {
        uci.parse::<UciMove>().unwrap().to_move(pos).unwrap()
    }

    #[test]
    fn the_solution_goes_on_and_ends_another_move_is_wrong() {
        let p = pos("r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5Q2/PPPP1PPP/RNB1K1NR w KQkq - 0 1");
        let mate = mv(&p, "f3f7");
        assert_eq!(judge(&p, mate, mate, true), Verdict::Solved);
        assert_eq!(judge(&p, mate, mv(&p, "f3f6"), true), Verdict::Wrong);
        let quiet = mv(&p, "g1e2");
        assert_eq!(judge(&p, quiet, quiet, false), Verdict::Right);
        assert_eq!(judge(&p, quiet, mv(&p, "b1c3"), false), Verdict::Wrong);
    }

    #[test]
    fn any_mate_solves() {
        // Two mates: Ra8 and Rb8 (the king on h8 boxed in by its pawns).
        let p = pos("7k/6pp/8/8/8/8/8/RR4K1 w - - 0 1");
        let ra8 = mv(&p, "a1a8");
        assert_eq!(judge(&p, ra8, mv(&p, "b1b8"), true), Verdict::Solved);
        assert_eq!(judge(&p, ra8, mv(&p, "b1b7"), true), Verdict::Wrong);
    }
}
