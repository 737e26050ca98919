//! The review in words: a line per move, the summary, the exercise and
//! its answers, the engine's line in the phonetics.

use shakmaty::uci::UciMove;
use shakmaty::{Chess, Move, Position};

use super::{Exercise, GameReview, Kind, MoveReview, Verdict};
use crate::announce::{AnnounceForm, announce_move, side_word};
use crate::chess::GameRecord;
use crate::engine::{Line, evaluation_words};
use crate::words::{Pack, Token, Utterance};

/// How many plies of the engine's line are said.
pub const LINE_PLIES: usize = 6;

fn number(pack: &Pack, n: u64) -> Utterance {
    pack.render(&[Token::Number(n)])
}

/// The name of a judgement: "Patzer", "blunder", "erro grave".
pub fn kind_words(pack: &Pack, kind: Kind) -> Utterance {
    pack.say(match kind {
        Kind::Inaccuracy => "review_kind_inaccuracy",
        Kind::Mistake => "review_kind_mistake",
        Kind::Blunder => "review_kind_blunder",
    })
}

/// The engine's line from `pos` in the phonetics, at most
/// [`LINE_PLIES`] plies, stopping at a move that is not legal.
pub fn line_words(pack: &Pack, pos: &Chess, line: &[UciMove], form: AnnounceForm) -> Utterance {
    let mut pos = pos.clone();
    let mut parts = Vec::new();
    for uci in line.iter().take(LINE_PLIES) {
        let Ok(mv) = uci.to_move(&pos) else { break };
        parts.push(announce_move(pack, &pos, mv, form));
        pos.play_unchecked(mv);
    }
    Utterance::join_with(&parts, ", ")
}

/// One move of the list: "Zug 14, Weiß: Läufer Cesar vier. Schwarz steht
/// deutlich besser. 35 Sekunden. Patzer, besser Springer Felix drei".
pub fn move_row(pack: &Pack, record: &GameRecord, m: &MoveReview, form: AnnounceForm) -> Utterance {
    let before = record.position_before(m.index);
    let after = record.position_before(m.index + 1);
    let mut parts = vec![pack.phrase(
        "review_row",
        &[
            (
                "number",
                number(pack, record.fullmove_number_of(m.index).into()),
            ),
            ("side", side_word(pack, m.mover)),
            ("move", announce_move(pack, before, m.played, form)),
        ],
    )];
    // The score in words only: the material the engine's line wins
    // ("White wins a bishop") reads as a recapture's gain in a list.
    let score_only = Line {
        score: m.after_line.score,
        pv: Vec::new(),
    };
    // A mate is said by the move itself ("... Matt"): no "Schachmatt"
    // after it.
    if !after.is_checkmate() {
        parts.push(evaluation_words(pack, after, &score_only));
    }
    if let Some(ms) = m.spent_ms {
        parts.push(pack.phrase(
            "review_time_spent",
            &[("time", crate::clock::duration_words(pack, ms))],
        ));
    }
    if let Some(k) = &m.mistake {
        parts.push(pack.phrase(
            "review_row_mistake",
            &[
                ("kind", kind_words(pack, k.kind)),
                ("better", announce_move(pack, before, k.best, form)),
            ],
        ));
    }
    Utterance::join_with(&parts, ". ")
}

/// "Rückblick: Patzer 1, Fehler 0, Ungenauigkeiten 2", or no mistakes.
pub fn summary_words(pack: &Pack, review: &GameReview) -> Utterance {
    let count = |kind: Kind| review.mistakes().filter(|(_, k)| k.kind == kind).count() as u64;
    if review.mistakes().next().is_none() {
        return pack.say("review_no_mistakes");
    }
    pack.phrase(
        "review_summary",
        &[
            ("blunders", number(pack, count(Kind::Blunder))),
            ("mistakes", number(pack, count(Kind::Mistake))),
            ("inaccuracies", number(pack, count(Kind::Inaccuracy))),
        ],
    )
}

/// "Zug 14: Sie haben Läufer Cesar vier gespielt. Finden Sie einen
/// besseren Zug."
pub fn exercise_prompt(pack: &Pack, exercise: &Exercise, form: AnnounceForm) -> Utterance {
    let pos = &exercise.position;
    pack.phrase(
        "review_exercise",
        &[
            ("number", number(pack, pos.fullmoves().get().into())),
            ("move", announce_move(pack, pos, exercise.played, form)),
        ],
    )
}

/// The exercise's position, as a puzzle's is said: "Weiß am Zug. Weiß:
/// König Gustav eins, ... Schwarz: ...".
pub fn exercise_position(pack: &Pack, exercise: &Exercise) -> Utterance {
    let pos = &exercise.position;
    let board = pos.board();
    pack.phrase(
        "review_position",
        &[
            (
                "to_move",
                crate::announce::announce_to_move(pack, pos.turn()),
            ),
            (
                "white",
                crate::browse::side_pieces(pack, board, shakmaty::Color::White),
            ),
            (
                "black",
                crate::browse::side_pieces(pack, board, shakmaty::Color::Black),
            ),
        ],
    )
}

/// A hint towards the engine's move, as a puzzle gives it: the piece to
/// move ("Tipp: Springer Gustav eins"); from the second on, the square too.
pub fn exercise_hint(pack: &Pack, exercise: &Exercise, with_square: bool) -> Utterance {
    crate::puzzle::words::hint(pack, &exercise.position, exercise.best, with_square)
}

/// The words for an answer: found (with the engine's line), or try again.
/// [`Verdict::Unchecked`] has none (the engine is asked first).
pub fn verdict_words(
    pack: &Pack,
    exercise: &Exercise,
    answer: Move,
    verdict: Verdict,
    form: AnnounceForm,
) -> Utterance {
    let pos = &exercise.position;
    let said = announce_move(pack, pos, answer, form);
    let line = continuation(pack, exercise, form);
    let best = announce_move(pack, pos, exercise.best, form);
    match verdict {
        Verdict::Best => pack.phrase("review_found_best", &[("move", said), ("line", line)]),
        Verdict::Good => pack.phrase(
            "review_found_good",
            &[("move", said), ("best", best), ("line", line)],
        ),
        Verdict::Played => pack.phrase("review_same_move", &[("move", said)]),
        Verdict::Wrong => pack.phrase("review_not_better", &[("move", said)]),
        Verdict::Unchecked => Utterance::default(),
    }
}

/// The answer given up: "Der Computer spielt ...: line".
pub fn solution_words(pack: &Pack, exercise: &Exercise, form: AnnounceForm) -> Utterance {
    let pos = &exercise.position;
    pack.phrase(
        "review_solution",
        &[
            ("best", announce_move(pack, pos, exercise.best, form)),
            ("line", continuation(pack, exercise, form)),
        ],
    )
}

/// The engine's line after its best move, in the phonetics.
fn continuation(pack: &Pack, exercise: &Exercise, form: AnnounceForm) -> Utterance {
    let mut after = exercise.position.clone();
    after.play_unchecked(exercise.best);
    let rest = match exercise.line.first() {
        Some(first) if first.to_move(&exercise.position).ok() == Some(exercise.best) => {
            &exercise.line[1..]
        }
        _ => &[],
    };
    line_words(pack, &after, rest, form)
}
