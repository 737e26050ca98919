//! The evaluation in words: "Weiß steht deutlich besser", "Schwarz gewinnt
//! einen Springer".

use shakmaty::uci::UciMove;
use shakmaty::{Chess, Color, Position, Role};

use super::{EngineError, Line, Score};
use crate::announce::side_word;
use crate::words::{Pack, Token, Utterance};

fn value(role: Role) -> i32 {
    match role {
        Role::Pawn => 1,
        Role::Knight | Role::Bishop => 3,
        Role::Rook => 5,
        Role::Queen => 9,
        Role::King => 0,
    }
}

fn material(pos: &Chess, color: Color) -> [i32; 6] {
    let board = pos.board();
    let mut counts = [0; 6];
    for (i, role) in Role::ALL.iter().enumerate() {
        counts[i] = (board.by_role(*role) & board.by_color(color)).count() as i32;
    }
    counts
}

/// The piece a side wins along the engine's line, if any: the most
/// valuable role the other side ends up short of, when the material
/// balance moves by at least a pawn in the winner's favour.
pub fn material_gain(pos: &Chess, pv: &[UciMove]) -> Option<(Color, Role)> {
    let mut end = pos.clone();
    for m in pv.iter().take(12) {
        match m.to_move(&end) {
            Ok(mv) => end.play_unchecked(mv),
            Err(_) => break,
        }
    }
    let balance = |p: &Chess| {
        let w = material(p, Color::White);
        let b = material(p, Color::Black);
        Role::ALL
            .iter()
            .enumerate()
            .map(|(i, r)| (w[i] - b[i]) * value(*r))
            .sum::<i32>()
    };
    let change = balance(&end) - balance(pos);
    if change == 0 {
        return None;
    }
    let winner = if change > 0 {
        Color::White
    } else {
        Color::Black
    };
    let loser_before = material(pos, !winner);
    let loser_after = material(&end, !winner);
    let winner_before = material(pos, winner);
    let winner_after = material(&end, winner);
    Role::ALL
        .iter()
        .enumerate()
        .filter(|(i, _)| {
            (loser_before[*i] - loser_after[*i]) > (winner_before[*i] - winner_after[*i])
        })
        .map(|(_, r)| *r)
        .max_by_key(|r| value(*r))
        .map(|r| (winner, r))
}

/// Words for the engine's best line in `pos` (its score is from the side
/// to move's view).
pub fn evaluation_words(pack: &Pack, pos: &Chess, line: &Line) -> Utterance {
    let white_view = if pos.turn() == Color::White {
        line.score
    } else {
        line.score.flip()
    };
    if let Score::Mate(n) = white_view {
        let side = side_word(pack, if n > 0 { Color::White } else { Color::Black });
        return if n.abs() <= 1 {
            pack.phrase("eval_mate_in_one", &[("side", side)])
        } else {
            let count = pack.render(&[Token::Number(n.unsigned_abs().into())]);
            pack.phrase("eval_mate_in", &[("side", side), ("count", count)])
        };
    }
    let cp = white_view.as_cp();
    let leader = if cp > 0 { Color::White } else { Color::Black };
    if cp.abs() >= 80
        && let Some((winner, role)) = material_gain(pos, &line.pv)
        && winner == leader
    {
        let piece = pack.say(&format!("eval_piece_{}", crate::words::role_key(role)));
        return pack.phrase(
            "eval_wins_piece",
            &[("side", side_word(pack, winner)), ("piece", piece)],
        );
    }
    let key = match cp.abs() {
        0..=30 => return pack.say("eval_equal"),
        31..=100 => "eval_slightly_better",
        101..=300 => "eval_clearly_better",
        _ => "eval_winning",
    };
    pack.phrase(key, &[("side", side_word(pack, leader))])
}

/// Why the engine failed, in the user's words (the reason in
/// `engine_failed` and `review_engine_failed`).
pub fn failure_words(pack: &Pack, error: &EngineError) -> Utterance {
    match error {
        EngineError::Missing(detail) => {
            pack.phrase("engine_missing", &[("detail", detail.as_str().into())])
        }
        EngineError::Crashed => pack.say("engine_crashed"),
        EngineError::Hung => pack.say("engine_hung"),
        EngineError::BadRequest(detail) => {
            pack.phrase("engine_bad_request", &[("detail", detail.as_str().into())])
        }
        EngineError::Flooded => pack.say("engine_flooded"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::words::Lang;

    use crate::chess::position as pos;

    fn line(score: Score, pv: &[&str]) -> Line {
        Line {
            score,
            pv: pv.iter().map(|m| m.parse().unwrap()).collect(),
        }
    }

    fn said(lang: Lang, pos: &Chess, line: &Line) -> String {
        evaluation_words(&Pack::bundled(lang), pos, line).spoken
    }

    #[test]
    fn a_won_piece_is_named_for_the_side_that_wins_it() {
        // Black to move; the white knight on e5 hangs to the d6 pawn.
        let p = pos("4k3/8/3p4/4N3/8/8/8/4K3 b - - 0 1");
        let l = line(Score::Cp(250), &["d6e5", "e1d2"]);
        assert_eq!(material_gain(&p, &l.pv), Some((Color::Black, Role::Knight)));
        assert_eq!(said(Lang::En, &p, &l), "Black wins a knight");
        assert_eq!(said(Lang::De, &p, &l), "Schwarz gewinnt einen Springer");
        assert_eq!(said(Lang::Pt, &p, &l), "Pretas ganha um cavalo");
    }

    #[test]
    fn scores_become_words_from_white_s_view() {
        let p = pos("4k3/8/8/8/8/8/8/4K3 b - - 0 1");
        // Black to move and 2 pawns down: White is clearly better.
        assert_eq!(
            said(Lang::En, &p, &line(Score::Cp(-200), &[])),
            "White is clearly better"
        );
        assert_eq!(
            said(Lang::De, &p, &line(Score::Cp(10), &[])),
            "Die Stellung ist ausgeglichen"
        );
        assert_eq!(
            said(Lang::En, &p, &line(Score::Cp(60), &[])),
            "Black is slightly better"
        );
        assert_eq!(
            said(Lang::En, &p, &line(Score::Mate(-3), &[])),
            "White mates in 3 moves"
        );
        assert_eq!(
            said(Lang::En, &p, &line(Score::Mate(1), &[])),
            "Black mates next move"
        );
    }
}
