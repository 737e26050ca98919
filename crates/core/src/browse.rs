//! Spoken answers for browsing the board by keyboard: a square, a rank or
//! file, one side's pieces, the attackers and defenders of a square. Pure:
//! a position and a language pack in, an [`Utterance`] out.

use shakmaty::{Board, Color, File, Piece, Rank, Role, Square};

use crate::announce::{piece_with_colour, side_word};
use crate::words::{Pack, Token, Utterance};

/// "Eva vier: weisser Bauer" / "Eva vier: leer".
pub fn square(pack: &Pack, board: &Board, sq: Square) -> Utterance {
    let piece = match board.piece_at(sq) {
        Some(p) => piece_with_colour(pack, p),
        None => (&pack.term("empty")).into(),
    };
    pack.phrase(
        "square_piece",
        &[("square", pack.square(sq)), ("piece", piece)],
    )
}

/// "Eva vier weisser Bauer": a square and the piece on it, for lists.
fn square_and_piece(pack: &Pack, sq: Square, piece: Piece) -> Utterance {
    Utterance::join(&[pack.square(sq), piece_with_colour(pack, piece)])
}

fn list_or_empty(pack: &Pack, items: Vec<Utterance>) -> Utterance {
    if items.is_empty() {
        (&pack.term("empty")).into()
    } else {
        Utterance::join_with(&items, ", ")
    }
}

/// "Reihe vier: Eva vier weisser Bauer, ..." (occupied squares, a to h).
pub fn rank(pack: &Pack, board: &Board, rank: Rank) -> Utterance {
    let items = File::ALL
        .into_iter()
        .map(|f| Square::from_coords(f, rank))
        .filter_map(|sq| board.piece_at(sq).map(|p| square_and_piece(pack, sq, p)))
        .collect();
    pack.phrase(
        "rank_line",
        &[
            ("rank", pack.rank(rank).into()),
            ("pieces", list_or_empty(pack, items)),
        ],
    )
}

/// "Linie Eva: Eva zwei weisser Bauer, ..." (occupied squares, 1 to 8).
pub fn file(pack: &Pack, board: &Board, file: File) -> Utterance {
    let items = Rank::ALL
        .into_iter()
        .map(|r| Square::from_coords(file, r))
        .filter_map(|sq| board.piece_at(sq).map(|p| square_and_piece(pack, sq, p)))
        .collect();
    pack.phrase(
        "file_line",
        &[
            ("file", pack.file(file).into()),
            ("pieces", list_or_empty(pack, items)),
        ],
    )
}

const ROLE_ORDER: [Role; 6] = [
    Role::King,
    Role::Queen,
    Role::Rook,
    Role::Bishop,
    Role::Knight,
    Role::Pawn,
];

/// "Weiss: Koenig Gustav eins, Dame David eins, ..." in the order king,
/// queen, rooks, bishops, knights, pawns, as a player counts material;
/// pawns file by file (Anna to Hector), as blind players asked.
pub fn side_pieces(pack: &Pack, board: &Board, side: Color) -> Utterance {
    let mut items = Vec::new();
    for role in ROLE_ORDER {
        let mut squares: Vec<Square> = board
            .by_piece(Piece { color: side, role })
            .into_iter()
            .collect();
        if role == Role::Pawn {
            squares.sort_by_key(|sq| (sq.file(), sq.rank()));
        }
        // The piece is named once, before its first square: "Bauer Anna
        // zwei, Bella zwei" (eight times "Bauer" was long by ear).
        for (i, sq) in squares.into_iter().enumerate() {
            items.push(if i == 0 {
                pack.render(&[Token::Piece(role), Token::Square(sq)])
            } else {
                pack.square(sq)
            });
        }
    }
    pack.phrase(
        "side_pieces",
        &[
            ("side", side_word(pack, side)),
            ("pieces", list_or_empty(pack, items)),
        ],
    )
}

/// The side whose pieces defend `sq`: the owner of the piece on it, or the
/// side to move for an empty square (the player asks "can I go there?").
fn owner(board: &Board, sq: Square, to_move: Color) -> Color {
    board.color_at(sq).unwrap_or(to_move)
}

fn pieces_of(pack: &Pack, board: &Board, squares: shakmaty::Bitboard) -> Vec<Utterance> {
    squares
        .into_iter()
        .filter_map(|s| board.piece_at(s).map(|p| square_and_piece(pack, s, p)))
        .collect()
}

/// "Eva fuenf angegriffen von: Felix sechs schwarzer Springer".
pub fn attackers(pack: &Pack, board: &Board, sq: Square, to_move: Color) -> Utterance {
    let them = !owner(board, sq, to_move);
    let found = pieces_of(pack, board, board.attacks_to(sq, them, board.occupied()));
    let square = pack.square(sq);
    if found.is_empty() {
        pack.phrase("no_attackers", &[("square", square)])
    } else {
        pack.phrase(
            "attacked_by",
            &[
                ("square", square),
                ("pieces", Utterance::join_with(&found, ", ")),
            ],
        )
    }
}

/// "Eva fuenf gedeckt von: David vier weisser Bauer".
pub fn defenders(pack: &Pack, board: &Board, sq: Square, to_move: Color) -> Utterance {
    let us = owner(board, sq, to_move);
    let found = pieces_of(pack, board, board.attacks_to(sq, us, board.occupied()));
    let square = pack.square(sq);
    if found.is_empty() {
        pack.phrase("no_defenders", &[("square", square)])
    } else {
        pack.phrase(
            "defended_by",
            &[
                ("square", square),
                ("pieces", Utterance::join_with(&found, ", ")),
            ],
        )
    }
}

/// The next square after `from` (a1, b1, ... h8, wrapping) holding a piece
/// of `role`, of either colour.
pub fn next_piece(board: &Board, from: Square, role: Role) -> Option<Square> {
    let start = u32::from(from);
    (1..=64)
        .map(|i| Square::new((start + i) % 64))
        .find(|&sq| board.role_at(sq) == Some(role))
}

/// "Springer: nicht auf dem Brett".
pub fn not_found(pack: &Pack, role: Role) -> Utterance {
    pack.phrase("piece_not_found", &[("piece", pack.piece(role).into())])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::words::Lang;
    use shakmaty::fen::Fen;

    fn board(fen: &str) -> Board {
        fen.parse::<Fen>().unwrap().into_setup().board
    }

    #[test]
    fn square_reads_piece_with_colour_or_empty() {
        let de = Pack::bundled(Lang::De);
        let b = Board::new();
        assert_eq!(square(&de, &b, Square::E2).spoken, "Eva zwei: weißer Bauer");
        assert_eq!(square(&de, &b, Square::E4).written, "Eva vier: leer");
    }

    #[test]
    fn rank_and_file_list_only_occupied_squares() {
        let en = Pack::bundled(Lang::En);
        let b = board("4k3/8/8/8/4P3/8/8/R3K3 w - - 0 1");
        assert_eq!(
            rank(&en, &b, Rank::First).written,
            "Rank one: Anna one white Rook, Eva one white King"
        );
        assert_eq!(rank(&en, &b, Rank::Fifth).written, "Rank five: empty");
        assert_eq!(
            file(&en, &b, File::E).written,
            "File Eva: Eva one white King, Eva four white Pawn, Eva eight black King"
        );
    }

    #[test]
    fn side_pieces_in_material_order() {
        let en = Pack::bundled(Lang::En);
        let b = board("4k3/8/8/8/4P3/8/8/R3K3 w - - 0 1");
        assert_eq!(
            side_pieces(&en, &b, Color::White).written,
            "White: King Eva one, Rook Anna one, Pawn Eva four"
        );
        assert_eq!(
            side_pieces(&en, &b, Color::Black).written,
            "Black: King Eva eight"
        );
    }

    #[test]
    fn pawns_are_read_file_by_file() {
        let en = Pack::bundled(Lang::En);
        let b = board("4k3/8/8/8/P7/1P5P/2P5/4K3 w - - 0 1");
        assert_eq!(
            side_pieces(&en, &b, Color::White).written,
            "White: King Eva one, Pawn Anna four, Bella three, Cesar two, Hector three"
        );
    }

    #[test]
    fn attackers_and_defenders_of_occupied_and_empty_squares() {
        let en = Pack::bundled(Lang::En);
        // White pawn e5 defended by d4, attacked by the knight on f7... (f7 knight attacks e5).
        let b = board("4k3/5n2/8/4P3/3P4/8/8/4K3 w - - 0 1");
        assert_eq!(
            attackers(&en, &b, Square::E5, Color::White).written,
            "Eva five attacked by: Felix seven black Knight"
        );
        assert_eq!(
            defenders(&en, &b, Square::E5, Color::White).written,
            "Eva five defended by: David four white Pawn"
        );
        assert_eq!(
            defenders(&en, &b, Square::A8, Color::White).written,
            "Anna eight: no defenders"
        );
        // Empty d6: the side to move (White) asks; the pawn e5 covers it,
        // the knight f7 attacks it.
        assert_eq!(
            defenders(&en, &b, Square::D6, Color::White).written,
            "David six defended by: Eva five white Pawn"
        );
        assert_eq!(
            attackers(&en, &b, Square::D6, Color::White).written,
            "David six attacked by: Felix seven black Knight"
        );
        assert_eq!(
            attackers(&en, &b, Square::H1, Color::White).written,
            "Hector one: no attackers"
        );
    }

    #[test]
    fn next_piece_wraps_round() {
        let b = Board::new();
        assert_eq!(next_piece(&b, Square::A1, Role::Knight), Some(Square::B1));
        assert_eq!(next_piece(&b, Square::B1, Role::Knight), Some(Square::G1));
        assert_eq!(next_piece(&b, Square::G8, Role::Knight), Some(Square::B1));
        assert_eq!(next_piece(&Board::empty(), Square::A1, Role::Queen), None);
    }
}
