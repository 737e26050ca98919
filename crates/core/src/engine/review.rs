//! The after-game review: the moves where the evaluation dropped most,
//! each with the better move.

use shakmaty::{Color, Move, Position};

use super::Line;
use crate::announce::{AnnounceForm, announce_move};
use crate::chess::GameRecord;
use crate::words::{Pack, Token, Utterance};

/// A move that lost at least a pawn's worth against the engine's choice.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mistake {
    /// 0-based index of the move in the record.
    pub index: usize,
    pub played: Move,
    pub better: Move,
    /// How much the mover's evaluation dropped, in centipawns.
    pub loss_cp: i32,
}

/// The worst moves of `side` (up to `max`), in game order. `evals[i]` is the
/// engine's best line in the position before move `i` (one more for the
/// final position), scores from the side to move's view.
pub fn find_mistakes(record: &GameRecord, evals: &[Line], side: Color, max: usize) -> Vec<Mistake> {
    let clip = |cp: i32| cp.clamp(-2000, 2000);
    let mut found: Vec<Mistake> = Vec::new();
    for (i, m) in record.moves().iter().enumerate() {
        let before = record.position_before(i);
        if before.turn() != side {
            continue;
        }
        let (Some(now), Some(after)) = (evals.get(i), evals.get(i + 1)) else {
            continue;
        };
        // After the move the score is the opponent's: flip it.
        let after_cp = if record.position_before(i + 1).is_checkmate() {
            2000
        } else {
            clip(-after.score.as_cp())
        };
        let loss = clip(now.score.as_cp()) - after_cp;
        let Some(better) = now.pv.first().and_then(|u| u.to_move(before).ok()) else {
            continue;
        };
        if loss >= 100 && better != m.mv {
            found.push(Mistake {
                index: i,
                played: m.mv,
                better,
                loss_cp: loss,
            });
        }
    }
    // The worst ones are kept, then said in the order they were played:
    // a review follows the game.
    found.sort_by_key(|m| (-m.loss_cp, m.index));
    found.truncate(max);
    found.sort_by_key(|m| m.index);
    found
}

/// "Rückblick. Zug 12: ..., besser ...".
pub fn review_words(
    pack: &Pack,
    record: &GameRecord,
    mistakes: &[Mistake],
    form: AnnounceForm,
) -> Utterance {
    if mistakes.is_empty() {
        return pack.say("review_clean");
    }
    let mut parts = vec![pack.say("review_intro")];
    for m in mistakes {
        let before = record.position_before(m.index);
        let number = pack.render(&[Token::Number(record.fullmove_number_of(m.index).into())]);
        parts.push(pack.phrase(
            "review_item",
            &[
                ("number", number),
                ("move", announce_move(pack, before, m.played, form)),
                ("better", announce_move(pack, before, m.better, form)),
            ],
        ));
    }
    Utterance::join_with(&parts, ". ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Score;
    use shakmaty::CastlingMode;
    use shakmaty::uci::UciMove;

    #[test]
    fn the_worst_moves_are_said_in_the_order_they_were_played() {
        let mut record = GameRecord::new();
        record.play_sans("e4 e5 Nf3 Nc6 Bb5 a6 Ba4 Nf6").unwrap();
        // Before each move: 0 for the side to move; after White's 2nd move
        // Black is 150 up, after White's 4th 300 up (White lost that much).
        let line = |i: usize, cp: i32| {
            let before = record.position_before(i.min(record.moves().len()));
            let other = before
                .legal_moves()
                .into_iter()
                .find(|m| i >= record.moves().len() || *m != record.moves()[i].mv)
                .unwrap();
            Line {
                score: Score::Cp(cp),
                pv: vec![UciMove::from_move(other, CastlingMode::Standard)],
            }
        };
        let evals: Vec<Line> = (0..=8)
            .map(|i| match i {
                3 => line(i, 150),
                7 => line(i, 300),
                _ => line(i, 0),
            })
            .collect();
        let found = find_mistakes(&record, &evals, Color::White, 5);
        let order: Vec<usize> = found.iter().map(|m| m.index).collect();
        assert_eq!(order, [2, 6], "game order, not worst first: {found:?}");
        // With room for one, the worst is the one kept.
        let worst = find_mistakes(&record, &evals, Color::White, 1);
        assert_eq!(worst[0].index, 6);
    }
}
