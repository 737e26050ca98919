//! A puzzle said the way a blind player takes in a position: the side to
//! move and the goal ("Weiss am Zug, Matt in zwei"), White's pieces by
//! kind, then Black's (pawns file by file); a hint; the whole line.

use shakmaty::{Chess, Move, Position};

use super::set::Puzzle;
use crate::announce::{self, AnnounceForm};
use crate::browse;
use crate::words::{Pack, Token, Utterance};

/// "Matt in zwei" / "Finde den besten Zug".
pub fn goal(pack: &Pack, puzzle: &Puzzle) -> Utterance {
    match puzzle.mate_in() {
        Some(n) => pack.phrase(
            "puzzle_goal_mate",
            &[("moves", pack.render(&[Token::Number(n.into())]))],
        ),
        None => pack.say("puzzle_goal_best"),
    }
}

/// "Weiss am Zug, Matt in zwei. Weiss: Koenig ... Schwarz: ...".
pub fn position(pack: &Pack, pos: &Chess, puzzle: &Puzzle) -> Utterance {
    let board = pos.board();
    pack.phrase(
        "puzzle_position",
        &[
            ("to_move", announce::announce_to_move(pack, pos.turn())),
            ("goal", goal(pack, puzzle)),
            (
                "white",
                browse::side_pieces(pack, board, shakmaty::Color::White),
            ),
            (
                "black",
                browse::side_pieces(pack, board, shakmaty::Color::Black),
            ),
        ],
    )
}

/// The position to set up on the player's own board, rank by rank from
/// the eighth (the empty ranks left out): "Weiss am Zug, Matt in zwei.
/// Aufbauen: Reihe acht: Hector acht schwarzer Koenig. Reihe drei: ...".
pub fn set_up(pack: &Pack, pos: &Chess, puzzle: &Puzzle) -> Utterance {
    let board = pos.board();
    let ranks: Vec<Utterance> = shakmaty::Rank::ALL
        .into_iter()
        .rev()
        .filter(|&rank| (board.occupied() & shakmaty::Bitboard::from_rank(rank)).any())
        .map(|rank| browse::rank(pack, board, rank))
        .collect();
    pack.phrase(
        "puzzle_set_up",
        &[
            ("to_move", announce::announce_to_move(pack, pos.turn())),
            ("goal", goal(pack, puzzle)),
            ("ranks", Utterance::join_with(&ranks, ". ")),
        ],
    )
}

/// The first hint: the piece to move ("Springer Gustav eins"); the second
/// adds the square it goes to.
pub fn hint(pack: &Pack, pos: &Chess, mv: Move, with_square: bool) -> Utterance {
    let from = mv.from().unwrap_or(mv.to());
    let role = pos.board().role_at(from).unwrap_or(mv.role());
    let piece = pack.render(&[Token::Piece(role), Token::Square(from)]);
    if with_square {
        pack.phrase(
            "puzzle_hint_square",
            &[("piece", piece), ("square", pack.square(mv.to()))],
        )
    } else {
        pack.phrase("puzzle_hint_piece", &[("piece", piece)])
    }
}

/// The moves of a line, each announced from the position before it.
pub fn line(pack: &Pack, moves: &[(Chess, Move)], form: AnnounceForm) -> Utterance {
    let said: Vec<Utterance> = moves
        .iter()
        .map(|(pos, mv)| announce::announce_move(pack, pos, *mv, form))
        .collect();
    Utterance::join_with(&said, ", ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::PuzzleSet;
    use crate::words::Lang;

    fn mate_in_one() -> Puzzle {
        PuzzleSet::parse(
            "PuzzleId,FEN,Moves,Rating,RatingDeviation,Themes,GameUrl
t1,6k1/5ppp/8/8/8/8/5PPP/3R2K1 b - - 0 1,g8f8 d1d8,700,80,mate mateIn1 backRankMate,https://lichess.org/x
",
        )
        .unwrap()
        .puzzles()[0]
            .clone()
    }

    #[test]
    fn side_to_move_goal_then_pieces_by_kind_pawns_file_by_file() {
        let p = mate_in_one();
        let line = p.line().unwrap();
        let (mut pos, first) = line[0].clone();
        pos.play_unchecked(first);
        let de = Pack::bundled(Lang::De);
        assert_eq!(
            position(&de, &pos, &p).written,
            "Weiss am Zug, Matt in 1. Weiss: Koenig Gustav eins, Turm David eins, \
             Bauer Felix zwei, Gustav zwei, Hector zwei. \
             Schwarz: Koenig Felix acht, Bauer Felix sieben, Gustav sieben, Hector sieben"
        );
        assert_eq!(
            set_up(&de, &pos, &p).written,
            "Weiss am Zug, Matt in 1. Aufbauen, Reihe fuer Reihe: \
             Reihe acht: Felix acht schwarzer Koenig. \
             Reihe sieben: Felix sieben schwarzer Bauer, Gustav sieben schwarzer Bauer, \
             Hector sieben schwarzer Bauer. \
             Reihe zwei: Felix zwei weisser Bauer, Gustav zwei weisser Bauer, \
             Hector zwei weisser Bauer. \
             Reihe eins: David eins weisser Turm, Gustav eins weisser Koenig"
        );
        let en = Pack::bundled(Lang::En);
        let (before, mv) = &line[1];
        assert_eq!(
            hint(&en, before, *mv, false).written,
            "Hint: Rook David one"
        );
        assert_eq!(
            hint(&en, before, *mv, true).written,
            "Hint: Rook David one to David eight"
        );
    }
}
