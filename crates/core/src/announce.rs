//! Move announcements as FIDE Appendix E suggests: a move and the position
//! before it become a list of [`Token`]s, which a language pack turns into
//! words ("Springer Felix drei", "Eva schlaegt David fuenf", "Kurze Rochade").

use serde::{Deserialize, Serialize};
use shakmaty::san::{San, Suffix};
use shakmaty::{CastlingSide, Chess, Move, Position, Role};

use crate::words::{Pack, Token, Utterance};

/// Short form: piece + destination (pawns by the square alone),
/// disambiguation as in SAN; the UK Braille Chess Association's way and the
/// default. Long form: piece + from + to, pawns named ("Bauer").
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
#[derive(strum::Display, strum::EnumString)]
#[strum(
    serialize_all = "lowercase",
    ascii_case_insensitive,
    parse_err_ty = UnknownForm,
    parse_err_fn = unknown_form
)]
pub enum AnnounceForm {
    #[default]
    Short,
    Long,
}

/// An announcement form's name that names none (in lower case).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown form '{0}' (use short or long)")]
pub struct UnknownForm(pub String);

fn unknown_form(s: &str) -> UnknownForm {
    UnknownForm(s.to_ascii_lowercase())
}

/// The tokens announcing `mv`, which must be legal in `pos`.
pub fn move_tokens(pos: &Chess, mv: Move, form: AnnounceForm) -> Vec<Token> {
    let mut tokens = Vec::with_capacity(8);
    match mv {
        Move::Castle { king, rook } => {
            let side = CastlingSide::from_queen_side(rook < king);
            tokens.push(Token::Term(match side {
                CastlingSide::KingSide => "castle_short",
                CastlingSide::QueenSide => "castle_long",
            }));
        }
        Move::Normal {
            role,
            from,
            capture,
            to,
            promotion,
        } => {
            let captures = capture.is_some();
            match form {
                AnnounceForm::Short => {
                    if role == Role::Pawn {
                        if captures {
                            tokens.push(Token::File(from.file()));
                        }
                    } else {
                        tokens.push(Token::Piece(role));
                        // Disambiguation exactly as SAN has it.
                        if let San::Normal { file, rank, .. } = San::from_move(pos, mv) {
                            match (file, rank) {
                                (Some(_), Some(_)) => tokens.push(Token::Square(from)),
                                (Some(f), None) => tokens.push(Token::File(f)),
                                (None, Some(r)) => tokens.push(Token::Rank(r)),
                                (None, None) => {}
                            }
                        }
                    }
                }
                AnnounceForm::Long => {
                    tokens.push(Token::Piece(role));
                    tokens.push(Token::Square(from));
                }
            }
            if captures {
                tokens.push(Token::Term("captures"));
            }
            tokens.push(Token::Square(to));
            if let Some(p) = promotion {
                tokens.push(Token::Piece(p));
            }
        }
        Move::EnPassant { from, to } => {
            match form {
                AnnounceForm::Short => tokens.push(Token::File(from.file())),
                AnnounceForm::Long => {
                    tokens.push(Token::Piece(Role::Pawn));
                    tokens.push(Token::Square(from));
                }
            }
            tokens.push(Token::Term("captures"));
            tokens.push(Token::Square(to));
            tokens.push(Token::Term("en_passant"));
        }
        Move::Put { role, to } => {
            tokens.push(Token::Piece(role));
            tokens.push(Token::Square(to));
        }
    }
    let mut after = pos.clone();
    after.play_unchecked(mv);
    match Suffix::from_position(&after) {
        Some(Suffix::Checkmate) => tokens.push(Token::Term("mate")),
        Some(Suffix::Check) => tokens.push(Token::Term("check")),
        None => {}
    }
    tokens
}

/// The announcement of `mv` in both forms.
pub fn announce_move(pack: &Pack, pos: &Chess, mv: Move, form: AnnounceForm) -> Utterance {
    pack.render(&move_tokens(pos, mv, form))
}

/// "Springer Gustav eins beruehrt" (E.2.2): a piece taken out of its hole.
pub fn announce_touched(pack: &Pack, role: Role, square: shakmaty::Square) -> Utterance {
    let piece = pack.render(&[Token::Piece(role), Token::Square(square)]);
    pack.phrase("touched", &[("piece", piece)])
}

/// "Weiss am Zug".
pub fn announce_to_move(pack: &Pack, side: shakmaty::Color) -> Utterance {
    pack.phrase("to_move", &[("side", side_word(pack, side))])
}

/// "Weiss" / "Schwarz".
pub fn side_word(pack: &Pack, side: shakmaty::Color) -> Utterance {
    (&pack.term(match side {
        shakmaty::Color::White => "white",
        shakmaty::Color::Black => "black",
    }))
        .into()
}

/// "weisser Bauer": a piece with its colour, for browsing the board.
pub fn piece_with_colour(pack: &Pack, piece: shakmaty::Piece) -> Utterance {
    let colour = match piece.color {
        shakmaty::Color::White => "white",
        shakmaty::Color::Black => "black",
    };
    let role = crate::words::role_key(piece.role);
    (&pack.term(&format!("{colour}_{role}"))).into()
}

/// "Weiss gewinnt" / "Remis".
pub fn announce_result(pack: &Pack, end: &crate::chess::GameEnd) -> Utterance {
    let result = match end.outcome {
        shakmaty::KnownOutcome::Decisive {
            winner: shakmaty::Color::White,
        } => pack.say("result_white_wins"),
        shakmaty::KnownOutcome::Decisive {
            winner: shakmaty::Color::Black,
        } => pack.say("result_black_wins"),
        shakmaty::KnownOutcome::Draw => pack.say("result_draw"),
    };
    let side = end.side.map(|s| side_word(pack, s)).unwrap_or_default();
    let reason = pack.phrase(end.reason.phrase_key(), &[("side", side)]);
    pack.phrase("game_over", &[("result", result), ("reason", reason)])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::words::Lang;

    use crate::chess::position as pos;

    fn say(lang: Lang, form: AnnounceForm, fen: &str, san: &str) -> Utterance {
        let p = pos(fen);
        let mv = san.parse::<San>().unwrap().to_move(&p).unwrap();
        announce_move(&Pack::bundled(lang), &p, mv, form)
    }

    fn de(fen: &str, san: &str) -> String {
        say(Lang::De, AnnounceForm::Short, fen, san).written
    }

    const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

    /// Every row of the table, in a position where the move is legal.
    #[test]
    fn german_short_form_table() {
        assert_eq!(de(START, "e4"), "Eva vier");
        assert_eq!(de(START, "Nf3"), "Springer Felix drei");
        assert_eq!(
            de(
                "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2",
                "exd5"
            ),
            "Eva schlaegt David fuenf"
        );
        let castle = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
        assert_eq!(de(castle, "O-O"), "Kurze Rochade");
        assert_eq!(de(castle, "O-O-O"), "Lange Rochade");
        assert_eq!(
            de(
                "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2",
                "Qh5"
            ),
            "Dame Hector fuenf"
        );
        assert_eq!(
            de(
                "rnbqkbnr/ppppp2p/5p2/6p1/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 3",
                "Qh5+"
            ),
            "Dame Hector fuenf Matt"
        );
        assert_eq!(
            de(
                "rnbqkbnr/ppppp1pp/8/5p2/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2",
                "Qh5+"
            ),
            "Dame Hector fuenf Schach"
        );
        assert_eq!(
            de(
                "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4",
                "Qxf7#"
            ),
            "Dame schlaegt Felix sieben Matt"
        );
        assert_eq!(
            de("8/4P3/8/8/8/8/k7/4K3 w - - 0 1", "e8=Q"),
            "Eva acht Dame"
        );
        assert_eq!(
            de("4r3/3P2k1/8/8/8/8/8/4K3 w - - 0 1", "dxe8=N+"),
            "David schlaegt Eva acht Springer Schach"
        );
        assert_eq!(
            de("4r2k/3P4/8/8/8/8/8/4K3 w - - 0 1", "dxe8=N"),
            "David schlaegt Eva acht Springer"
        );
        assert_eq!(
            de(
                "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 3",
                "exd6"
            ),
            "Eva schlaegt David sechs en passant"
        );
        assert_eq!(
            de(
                "rnbqkb1r/ppp2ppp/5n2/3pp3/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 3",
                "Nbd7"
            ),
            "Springer Bella David sieben"
        );
        assert_eq!(
            de("4k3/8/8/8/8/8/8/4K2R w K - 0 1", "Rh2"),
            "Turm Hector zwei"
        );
        assert_eq!(
            de("7k/8/8/8/8/4R3/8/K3R3 w - - 0 1", "R1e2"),
            "Turm eins Eva zwei"
        );
        assert_eq!(
            de("8/8/1k6/8/4Q2Q/8/8/K6Q w - - 0 1", "Qh4e1"),
            "Dame Hector vier Eva eins"
        );
    }

    #[test]
    fn spoken_form_has_umlauts() {
        let u = say(
            Lang::De,
            AnnounceForm::Short,
            "rnbqkbnr/ppppp1pp/8/5p2/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2",
            "Qh5+",
        );
        assert_eq!(u.spoken, "Dame Hector fünf Schach");
        let u = say(
            Lang::De,
            AnnounceForm::Short,
            "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2",
            "exd5",
        );
        assert_eq!(u.spoken, "Eva schlägt David fünf");
    }

    #[test]
    fn german_long_form() {
        let long = |fen: &str, san: &str| say(Lang::De, AnnounceForm::Long, fen, san).written;
        assert_eq!(long(START, "Nf3"), "Springer Gustav eins Felix drei");
        assert_eq!(long(START, "e4"), "Bauer Eva zwei Eva vier");
        assert_eq!(
            long(
                "rnbqkbnr/pppp1ppp/8/4p3/8/5N2/PPPPPPPP/RNBQKB1R w KQkq - 0 2",
                "Nxe5"
            ),
            "Springer Felix drei schlaegt Eva fuenf"
        );
        assert_eq!(
            long("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "O-O"),
            "Kurze Rochade"
        );
        assert_eq!(
            long(
                "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 3",
                "exd6"
            ),
            "Bauer Eva fuenf schlaegt David sechs en passant"
        );
    }

    #[test]
    fn portuguese_and_english_packs() {
        let pt = |fen: &str, san: &str| say(Lang::Pt, AnnounceForm::Short, fen, san);
        assert_eq!(pt(START, "Nf3").written, "Cavalo Felix tres");
        assert_eq!(pt(START, "Nf3").spoken, "Cavalo Felix três");
        assert_eq!(
            pt(
                "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2",
                "exd5"
            )
            .written,
            "Eva captura David cinco"
        );
        assert_eq!(
            pt("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "O-O-O").written,
            "Roque grande"
        );
        let en = |fen: &str, san: &str| say(Lang::En, AnnounceForm::Short, fen, san).written;
        assert_eq!(en(START, "Nf3"), "Knight Felix three");
        assert_eq!(
            en(
                "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4",
                "Qxf7#"
            ),
            "Queen takes Felix seven mate"
        );
        assert_eq!(
            en("8/4P3/8/8/8/8/k7/4K3 w - - 0 1", "e8=R"),
            "Eva eight Rook"
        );
    }

    #[test]
    fn touched_and_side_phrases() {
        let de = Pack::bundled(Lang::De);
        assert_eq!(
            announce_touched(&de, Role::Knight, shakmaty::Square::G1).written,
            "Springer Gustav eins beruehrt"
        );
        assert_eq!(
            announce_to_move(&de, shakmaty::Color::White).spoken,
            "Weiß am Zug"
        );
        assert_eq!(
            announce_to_move(&de, shakmaty::Color::Black).written,
            "Schwarz am Zug"
        );
        let piece = shakmaty::Piece {
            color: shakmaty::Color::White,
            role: Role::Pawn,
        };
        assert_eq!(piece_with_colour(&de, piece).written, "weisser Bauer");
    }

    #[test]
    fn results_are_phrased() {
        let de = Pack::bundled(Lang::De);
        let mut g = crate::chess::GameRecord::new();
        g.resign(shakmaty::Color::Black);
        assert_eq!(
            announce_result(&de, &g.end().unwrap()).written,
            "Partie beendet: Weiss gewinnt, Aufgabe"
        );
        let mut g = crate::chess::GameRecord::new();
        g.flag_fall(shakmaty::Color::White);
        assert_eq!(
            announce_result(&de, &g.end().unwrap()).written,
            "Partie beendet: Schwarz gewinnt, Zeit abgelaufen fuer Weiss"
        );
    }
}
