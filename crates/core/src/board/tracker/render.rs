//! The tracker's findings in words: what differs between the board and
//! the game, and that they agree again.

use super::Mismatch;
use crate::words::{Pack, Token, Utterance};

/// Spoken guidance for a mismatch: "Springer Felix drei fehlt. Eva vier
/// leer erwartet." in the pack's language.
pub fn render_mismatch(pack: &Pack, mismatch: &Mismatch) -> Utterance {
    let mut parts = Vec::new();
    for (sq, piece) in &mismatch.missing {
        let what = pack.render(&[Token::Piece(piece.role), Token::Square(*sq)]);
        parts.push(pack.phrase("missing", &[("piece", what)]));
    }
    for sq in &mismatch.expected_empty {
        parts.push(pack.phrase("expected_empty", &[("square", pack.square(*sq))]));
    }
    for sq in &mismatch.extra {
        parts.push(pack.phrase("unexpected_piece", &[("square", pack.square(*sq))]));
    }
    if parts.is_empty() {
        return render_in_sync(pack);
    }
    Utterance::join_with(&parts, ". ")
}

/// "Brett stimmt".
pub fn render_in_sync(pack: &Pack) -> Utterance {
    pack.say("board_ok")
}
