//! The game of chess as the scoresheet sees it: moves, results, claims,
//! piece letters and move input. Rules and SAN come from `shakmaty`.

pub(crate) mod input;
mod letters;
mod record;

pub use input::{MoveInputError, PieceLetters, parse_move};
pub use letters::{Letters, UnknownLetters};
pub use record::{
    Claim, ClaimVerdict, EndReason, FenError, GameEnd, GameRecord, PlayError, RecordedMove,
    ScoresheetRow, Tags,
};
pub use shakmaty::{Chess, Color, KnownOutcome, Move, Position, Role, Square};

/// A position from FEN, for tests (panics on a bad FEN).
#[cfg(test)]
pub(crate) fn position(fen: &str) -> shakmaty::Chess {
    fen.parse::<shakmaty::fen::Fen>()
        .expect("FEN")
        .into_position(shakmaty::CastlingMode::Standard)
        .expect("legal position")
}
