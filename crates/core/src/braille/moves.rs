//! One move in the chess code: piece letter, disambiguation, capture/check
//! sign before the destination, destination, promotion, en passant, mate.

use shakmaty::CastlingSide;
use shakmaty::san::{San, SanPlus, Suffix};

use super::Cell;
use super::tables::ChessCode;

/// How much a move says.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Coding {
    /// Capture and check signs written (for transcription, UK code).
    #[default]
    Full,
    /// No capture or check signs: "the minimum amount of coding", as the UK
    /// code asks for a player's own score. Mate is still written.
    Minimal,
}

/// Appends the cells of a move (without draw offer). `en_passant` says
/// whether the move is an en passant capture (SAN does not).
pub fn move_cells(
    code: &ChessCode,
    san: &SanPlus,
    en_passant: bool,
    coding: Coding,
    out: &mut Vec<Cell>,
) {
    let full = coding == Coding::Full;
    let check = full && san.suffix == Some(Suffix::Check);
    let mate = san.suffix == Some(Suffix::Checkmate);
    match san.san {
        San::Normal {
            role,
            file,
            rank,
            capture,
            to,
            promotion,
        } => {
            out.extend_from_slice(code.piece(role));
            if let Some(file) = file {
                out.extend_from_slice(&code.files[file.to_usize()]);
            }
            if let Some(rank) = rank {
                out.extend_from_slice(&code.digits[rank.to_usize() + 1]);
            }
            // The sign stands before the destination (UK code, as reported).
            let sign: &[Cell] = match (capture && full, check) {
                (true, true) => &code.capture_check,
                (true, false) => &code.capture,
                (false, true) => &code.check,
                (false, false) => &[],
            };
            out.extend_from_slice(sign);
            out.extend_from_slice(&code.files[to.file().to_usize()]);
            out.extend_from_slice(&code.digits[to.rank().to_usize() + 1]);
            if let Some(piece) = promotion {
                out.extend_from_slice(&code.promotion);
                out.extend_from_slice(code.piece(piece));
            }
            if en_passant {
                out.extend_from_slice(&code.en_passant);
            }
        }
        San::Castle(side) => {
            out.extend_from_slice(match side {
                CastlingSide::KingSide => &code.castle_short,
                CastlingSide::QueenSide => &code.castle_long,
            });
            if check {
                out.extend_from_slice(&code.check);
            }
        }
        // Neither occurs in a standard game record; write a placeholder
        // rather than nothing so the line still shows a move.
        San::Put { .. } | San::Null => out.extend_from_slice(&code.black_starts),
    }
    if mate {
        out.extend_from_slice(&code.mate);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::braille::to_unicode_line;
    use crate::chess::{GameRecord, Letters};

    fn cells_of_game(letters: Letters, sans: &str) -> Vec<String> {
        let code = ChessCode::bundled(letters);
        let mut g = GameRecord::new();
        for san in sans.split_whitespace() {
            let mv = san.parse::<San>().unwrap().to_move(g.position()).unwrap();
            g.play(mv, None).unwrap();
        }
        g.moves()
            .iter()
            .map(|m| {
                let mut out = Vec::new();
                move_cells(&code, &m.san, m.mv.is_en_passant(), Coding::Full, &mut out);
                to_unicode_line(&out)
            })
            .collect()
    }

    #[test]
    fn uk_code_examples_from_the_spec() {
        let got = cells_of_game(Letters::En, "e4 d5 Nf3 dxe4 Bb5+ c6");
        assert_eq!(got[0], "⠑⠲");
        assert_eq!(got[2], "⠎⠋⠒", "knight is s");
        assert_eq!(got[3], "⠙⠰⠑⠲", "capture sign before the destination");
        assert_eq!(
            got[4], "⠇⠘⠃⠢",
            "bishop is l, check sign before the destination"
        );
    }

    #[test]
    fn mate_castling_promotion_en_passant() {
        let got = cells_of_game(Letters::En, "e4 e5 Bc4 Nc6 Qh5 Nf6 Qxf7#");
        assert_eq!(got[6], "⠟⠰⠋⠶⠜⠍");
        let got = cells_of_game(
            Letters::En,
            "e4 Nf6 e5 d5 exd6 Nc6 Nf3 Bg4 Be2 Qd7 O-O O-O-O",
        );
        assert_eq!(got[4], "⠑⠰⠙⠖⠑⠏", "en passant");
        assert_eq!(got[10], "⠴⠤⠴");
        assert_eq!(got[11], "⠴⠤⠴⠤⠴");
        let got = cells_of_game(Letters::De, "h4 g5 hxg5 Nf6 gxf6 Rg8 fxe7 Rh8 exd8=N");
        assert_eq!(got[8], "⠑⠰⠙⠦⠎", "under-promotion to a knight (S in German)");
        let got = cells_of_game(Letters::De, "h4 g5 hxg5 Nf6 gxf6 Rg8 fxe7 Rh8 exd8=Q");
        assert_eq!(
            got[8], "⠑⠸⠙⠦⠨⠙",
            "promotion to a queen with check: D with its indicator"
        );
    }

    #[test]
    fn portuguese_letters() {
        let got = cells_of_game(Letters::Pt, "e4 d5 Bb5+ c6 Nc3");
        assert_eq!(got[4], "⠨⠉⠉⠒", "C for Cavalo, after the indicator");
        assert_eq!(got[2], "⠨⠃⠘⠃⠢", "B for Bispo, after the indicator");
    }

    #[test]
    fn german_queen_capture_differs_from_pawn_capture() {
        let got = cells_of_game(Letters::De, "d4 e5 dxe5 Qe7 Nc3 Qxe5");
        assert_eq!(got[2], "⠙⠰⠑⠢");
        assert_eq!(got[5], "⠨⠙⠰⠑⠢");
    }
}
