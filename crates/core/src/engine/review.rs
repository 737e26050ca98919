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

/// The worst moves of `side` (up to `max`), worst first. `evals[i]` is the
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
    found.sort_by_key(|m| (-m.loss_cp, m.index));
    found.truncate(max);
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
