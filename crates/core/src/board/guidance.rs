//! Guidance as one short sentence: how the player's board differs from the
//! game, said as the moves still to carry out ("Bauer von Eva zwei nach
//! Eva vier") and then the other differences, at most [`MAX_PARTS`] of them and
//! "und 3 weitere" for the rest. Pure: the mismatch, the record and the
//! words in, an utterance out.

use shakmaty::{Move, Piece, Position, Role, Square};

use super::Mismatch;
use super::tracker::{render_in_sync, render_mismatch};
use crate::chess::GameRecord;
use crate::words::{Pack, Token, Utterance};

/// How many differences one sentence names before "and N more": more than
/// three is no longer something a listener can keep in mind at once.
pub const MAX_PARTS: usize = 3;

/// More differences than this, none of them a move still to carry out,
/// are a board being set up (a new puzzle, a knocked-over board): guided
/// one square at a time. Fewer (a retrace, a slip) keep [`MAX_PARTS`].
pub const SET_UP_PARTS: usize = 8;

/// How far back a move not yet carried out on the board is looked for: the
/// assistant may have typed a move and its reply before the player's board
/// caught up.
const PLIES_BACK: usize = 4;

/// The guidance sentence for `mismatch` (the board in sync when it is empty).
pub fn guidance(pack: &Pack, mismatch: &Mismatch, record: &GameRecord) -> Utterance {
    if mismatch.is_empty() {
        return render_in_sync(pack);
    }
    let mut rest = mismatch.clone();
    let mut parts = Vec::new();
    // A piece of the side to move taken from its square to another that
    // it cannot legally reach: said as what it is, an illegal move, first.
    if let Some((from, to, role)) = illegal_move(mismatch, record) {
        let played = pack.render(&[Token::Piece(role), Token::Square(from), Token::Square(to)]);
        parts.push(pack.phrase("illegal_move", &[("move", played)]));
    }
    for (from, to, role) in moves_not_carried_out(&mut rest, record) {
        parts.push(carry_out(pack, from, to, role));
    }
    if let Some((from, to, role)) = piece_on_wrong_square(&mut rest) {
        parts.push(carry_out(pack, from, to, role));
    }
    let explained = parts.len();
    if !rest.is_empty() {
        let others = render_mismatch(pack, &rest);
        // render_mismatch joins its parts with ". ": split them back to count.
        parts.extend(split_parts(&others));
    }
    let total = parts.len();
    // A board being set up (many squares differ and no move explains
    // them: a new puzzle, a knocked-over board) is guided one square at
    // a time: three squares at once, of thirty, were lost by ear.
    let named = if explained == 0 && total > SET_UP_PARTS {
        1
    } else {
        MAX_PARTS
    };
    if total > named {
        parts.truncate(named);
        let count = pack.render(&[Token::Number((total - named) as u64)]);
        parts.push(pack.phrase("and_more", &[("count", count)]));
    }
    Utterance::join_with(&parts, ", ")
}

/// "Bauer von Eva zwei nach Eva vier": a piece to take from one square to another.
fn carry_out(pack: &Pack, from: Square, to: Square, role: Role) -> Utterance {
    pack.phrase(
        "carry_out",
        &[
            ("piece", pack.render(&[Token::Piece(role)])),
            ("from", pack.square(from)),
            ("to", pack.square(to)),
        ],
    )
}

/// The board shows one piece of the side to move gone from its square and
/// one peg on an empty square, and no legal move goes there: (from, to,
/// piece) of that illegal move.
fn illegal_move(
    mismatch: &Mismatch,
    record: &GameRecord,
) -> Option<(Square, Square, shakmaty::Role)> {
    let ([(from, piece)], [to], []) = (
        mismatch.missing.as_slice(),
        mismatch.extra.as_slice(),
        mismatch.expected_empty.as_slice(),
    ) else {
        return None;
    };
    let pos = record.position();
    let legal = pos
        .legal_moves()
        .iter()
        .any(|mv| mv.from() == Some(*from) && mv.to() == *to);
    (piece.color == pos.turn() && !legal).then_some((*from, *to, piece.role))
}

/// Moves of the last plies whose pieces still stand on their starting
/// squares (a peg where the game has none) while their target squares are
/// empty on the board: the moves the player has still to make, each named
/// with the piece it moves (a square taken again later, as in Bb5 axb5,
/// holds another piece now: both moves are said). Castling gives two (king
/// and rook). The differences they explain are taken out of `rest`, newest
/// move last.
fn moves_not_carried_out(
    rest: &mut Mismatch,
    record: &GameRecord,
) -> Vec<(Square, Square, shakmaty::Role)> {
    let moves = record.moves();
    let first = moves.len().saturating_sub(PLIES_BACK);
    let mut found = Vec::new();
    for (i, recorded) in moves.iter().enumerate().skip(first) {
        let mover = record.position_before(i).turn();
        for (from, to, role) in displacements(&recorded.mv) {
            let Some(mi) = rest.missing.iter().position(|(sq, _)| *sq == to) else {
                continue;
            };
            let taken_again = moves[i + 1..]
                .iter()
                .any(|later| displacements(&later.mv).iter().any(|d| d.1 == to));
            let its_piece = rest.missing[mi].1 == Piece { color: mover, role };
            if !its_piece && !taken_again {
                continue;
            }
            let from_peg = if let Some(i) = rest.expected_empty.iter().position(|s| *s == from) {
                rest.expected_empty.remove(i);
                true
            } else if let Some(i) = rest.extra.iter().position(|s| *s == from) {
                rest.extra.remove(i);
                true
            } else {
                false
            };
            if from_peg {
                // The square stays missing for the later move that takes it.
                if !taken_again {
                    rest.missing.remove(mi);
                }
                found.push((from, to, role));
            }
        }
    }
    found
}

/// One piece missing and one peg where the game has none: that peg is the
/// piece put on the wrong square ("Springer von Hector drei nach Felix
/// drei", not "Springer Felix drei fehlt, Hector drei: zusätzliche
/// Figur"). (from, to, piece), taken out of `rest`.
fn piece_on_wrong_square(rest: &mut Mismatch) -> Option<(Square, Square, shakmaty::Role)> {
    let ([(to, piece)], pegs) = (rest.missing.as_slice(), [&rest.extra, &rest.expected_empty])
    else {
        return None;
    };
    let from = match pegs.map(|p| p.as_slice()) {
        [[from], []] | [[], [from]] => *from,
        _ => return None,
    };
    let found = (from, *to, piece.role);
    *rest = Mismatch::default();
    Some(found)
}

/// Where pieces go in a move and which: one (from, to, piece) for a move
/// (the piece promoted to for a promotion), two for castling.
fn displacements(mv: &Move) -> Vec<(Square, Square, Role)> {
    match *mv {
        Move::Castle { king, rook } => {
            let side = shakmaty::CastlingSide::from_king_side(king < rook);
            let rank = king.rank();
            vec![
                (
                    king,
                    Square::from_coords(side.king_to_file(), rank),
                    Role::King,
                ),
                (
                    rook,
                    Square::from_coords(side.rook_to_file(), rank),
                    Role::Rook,
                ),
            ]
        }
        ref m => match m.from() {
            Some(from) => vec![(from, m.to(), m.promotion().unwrap_or(m.role()))],
            None => Vec::new(),
        },
    }
}

/// The sentences of an utterance joined with ". ", written and spoken
/// forms kept side by side.
fn split_parts(u: &Utterance) -> Vec<Utterance> {
    let written: Vec<&str> = u.written.split(". ").collect();
    let spoken: Vec<&str> = u.spoken.split(". ").collect();
    if written.len() != spoken.len() {
        return vec![u.clone()];
    }
    written
        .into_iter()
        .zip(spoken)
        .map(|(w, s)| Utterance {
            written: w.to_string(),
            spoken: s.to_string(),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::words::Lang;
    use shakmaty::{Color, Piece, Role};

    fn de() -> Pack {
        Pack::bundled(Lang::De)
    }

    #[test]
    fn an_illegal_move_on_the_board_is_said_as_one_first() {
        // 1. e4 e5, then the knight from g1 to g3: no knight goes there.
        let r = record(&["e4", "e5"]);
        let m = Mismatch {
            missing: vec![(
                Square::G1,
                Piece {
                    color: Color::White,
                    role: Role::Knight,
                },
            )],
            expected_empty: vec![],
            extra: vec![Square::G3],
        };
        let said = guidance(&de(), &m, &r).spoken;
        assert!(
            said.starts_with("Unzulässiger Zug: Springer Gustav eins Gustav drei"),
            "{said}"
        );
        let en = guidance(&Pack::bundled(Lang::En), &m, &r).spoken;
        assert!(en.starts_with("Illegal move: "), "{en}");
        // A legal move not finished (Nf3 with the peg still in the hand)
        // or the opponent's piece is no illegal move.
        let legal = Mismatch {
            extra: vec![Square::F3],
            ..m.clone()
        };
        assert!(!guidance(&de(), &legal, &r).spoken.contains("Unzulässig"));
        let black = Mismatch {
            missing: vec![(
                Square::G8,
                Piece {
                    color: Color::Black,
                    role: Role::Knight,
                },
            )],
            ..m
        };
        assert!(!guidance(&de(), &black, &r).spoken.contains("Unzulässig"));
    }

    fn record(sans: &[&str]) -> GameRecord {
        let mut r = GameRecord::new();
        for san in sans {
            let san: shakmaty::san::San = san.parse().expect("SAN");
            let mv = san.to_move(r.position()).expect("legal");
            r.play(mv, None).expect("plays");
        }
        r
    }

    fn pawn(color: Color) -> Piece {
        Piece {
            color,
            role: Role::Pawn,
        }
    }

    #[test]
    fn a_move_not_made_on_the_board_is_said_as_the_move_to_make() {
        let r = record(&["e4"]);
        let m = Mismatch {
            missing: vec![(Square::E4, pawn(Color::White))],
            expected_empty: vec![Square::E2],
            extra: vec![],
        };
        assert_eq!(
            guidance(&de(), &m, &r).spoken,
            "Bauer von Eva zwei nach Eva vier"
        );
    }

    #[test]
    fn two_typed_moves_make_one_short_sentence() {
        // The case: e4 e5 typed, the board untouched. Today's
        // guidance was four sentences.
        let r = record(&["e4", "e5"]);
        let m = Mismatch {
            missing: vec![
                (Square::E4, pawn(Color::White)),
                (Square::E5, pawn(Color::Black)),
            ],
            expected_empty: vec![Square::E7],
            extra: vec![Square::E2],
        };
        assert_eq!(
            guidance(&de(), &m, &r).spoken,
            "Bauer von Eva zwei nach Eva vier, Bauer von Eva sieben nach Eva fünf"
        );
    }

    #[test]
    fn castling_not_made_names_king_and_rook() {
        let r = record(&["e4", "e5", "Nf3", "Nc6", "Bc4", "Bc5", "O-O"]);
        let king = Piece {
            color: Color::White,
            role: Role::King,
        };
        let rook = Piece {
            color: Color::White,
            role: Role::Rook,
        };
        let m = Mismatch {
            missing: vec![(Square::G1, king), (Square::F1, rook)],
            expected_empty: vec![Square::E1, Square::H1],
            extra: vec![],
        };
        assert_eq!(
            guidance(&de(), &m, &r).spoken,
            "König von Eva eins nach Gustav eins, Turm von Hector eins nach Felix eins"
        );
    }

    #[test]
    fn other_differences_follow_and_the_rest_is_counted() {
        let r = record(&["e4"]);
        let m = Mismatch {
            missing: vec![
                (Square::E4, pawn(Color::White)),
                (Square::A2, pawn(Color::White)),
                (Square::B2, pawn(Color::White)),
                (Square::C2, pawn(Color::White)),
            ],
            expected_empty: vec![Square::E2],
            extra: vec![Square::D5],
        };
        assert_eq!(
            guidance(&de(), &m, &r).spoken,
            "Bauer von Eva zwei nach Eva vier, Bauer Anna zwei fehlt, Bauer Bella zwei fehlt, \
             und 2 weitere"
        );
    }

    #[test]
    fn a_square_taken_again_names_each_move_with_its_own_piece() {
        // Issue 51: 2. Bb5 axb5 typed, the board untouched. The bishop's
        // move was said with the pawn that stands on b5 now ("Bauer Felix
        // eins nach Bella fünf") and the capture not at all.
        let r = record(&["e4", "a6", "Bb5", "axb5"]);
        let m = Mismatch {
            missing: vec![(Square::B5, pawn(Color::Black))],
            expected_empty: vec![Square::A6],
            extra: vec![Square::F1],
        };
        assert_eq!(
            guidance(&de(), &m, &r).spoken,
            "Läufer von Felix eins nach Bella fünf, Bauer von Anna sechs nach Bella fünf"
        );
    }

    #[test]
    fn a_piece_put_on_the_wrong_square_is_said_as_the_move_that_puts_it_right() {
        // Issue 51: Nf3 played, the knight put on h3 ("Springer Felix drei
        // fehlt, Hector drei: zusätzliche Figur" before).
        let r = record(&["Nf3"]);
        let knight = Piece {
            color: Color::White,
            role: Role::Knight,
        };
        let m = Mismatch {
            missing: vec![(Square::F3, knight)],
            expected_empty: vec![],
            extra: vec![Square::H3],
        };
        assert_eq!(
            guidance(&de(), &m, &r).spoken,
            "Springer von Hector drei nach Felix drei"
        );
        // Two pegs for one hole: which is which is not known.
        let two = Mismatch {
            extra: vec![Square::H3, Square::A3],
            ..m
        };
        assert!(guidance(&de(), &two, &r).spoken.contains("fehlt"));
    }

    #[test]
    fn a_board_being_set_up_is_guided_one_square_at_a_time() {
        let r = record(&[]);
        let m = Mismatch {
            missing: shakmaty::File::ALL
                .into_iter()
                .map(|f| {
                    (
                        Square::from_coords(f, shakmaty::Rank::Second),
                        pawn(Color::White),
                    )
                })
                .collect(),
            expected_empty: vec![],
            extra: vec![Square::E4],
        };
        assert_eq!(
            guidance(&de(), &m, &r).spoken,
            "Bauer Anna zwei fehlt, und 8 weitere"
        );
        // Fewer are named three at a time.
        let m = Mismatch {
            missing: m.missing[..4].to_vec(),
            expected_empty: vec![],
            extra: vec![],
        };
        assert_eq!(
            guidance(&de(), &m, &r).spoken,
            "Bauer Anna zwei fehlt, Bauer Bella zwei fehlt, Bauer Cesar zwei fehlt, \
             und 1 weitere"
        );
    }

    #[test]
    fn a_board_in_sync_says_so() {
        assert_eq!(
            guidance(&de(), &Mismatch::default(), &record(&[])).spoken,
            "Brett stimmt"
        );
    }
}
