//! What a board that knows its pieces shows: a piece (or nothing) on each
//! square, whatever the board. Every decoder turns its wire's squares into
//! these; the recognizer reads them.

use shakmaty::{Piece, Square};

/// The pieces on the board, indexed by game square (a1 = 0 ... h8 = 63) as
/// seen from White's side of the board's own labelling.
pub type Pieces = [Option<Piece>; 64];

/// The game square of the `i`th square of a board read a8 first, rank by
/// rank (a8 = 0, b8 = 1, ..., h1 = 63): a DGT board's field index, the
/// order of a Millennium status and of a Certabo scan.
pub fn square_of_index(i: u8) -> Square {
    let i = u32::from(i & 63);
    Square::new((7 - i / 8) * 8 + i % 8)
}

/// The index of a game square in a board read a8 first.
pub fn index_of_square(sq: Square) -> u8 {
    let s = u8::from(sq);
    (7 - s / 8) * 8 + s % 8
}

/// The start position as a board reports it (White at the bottom).
pub fn start_pieces() -> Pieces {
    pieces_of_board(shakmaty::Board::default())
}

/// A shakmaty board as a piece array.
pub fn pieces_of_board(board: shakmaty::Board) -> Pieces {
    let mut out = [None; 64];
    for (sq, piece) in board {
        out[usize::from(sq)] = Some(piece);
    }
    out
}

/// A piece array as a shakmaty board.
pub fn board_of_pieces(pieces: &Pieces) -> shakmaty::Board {
    let mut board = shakmaty::Board::empty();
    for (i, p) in pieces.iter().enumerate() {
        if let Some(p) = p {
            board.set_piece_at(Square::new(i as u32), *p);
        }
    }
    board
}
