//! How bad a move was: Lichess's judgement from the drop in winning
//! chances.
//!
//! Lichess (lila, `modules/analyse/src/main/Advice.scala` and
//! `modules/tree/src/main/WinPercent.scala` / `ui/ceval/src/winningChances.ts`)
//! turns an evaluation into *winning chances* on a scale from -1 (lost)
//! to +1 (won):
//!
//! ```text
//! winning_chances(cp) = 2 / (1 + exp(-0.00368208 * cp)) - 1
//! ```
//!
//! with the centipawns clamped to ±1000 and a forced mate counted as ±1000.
//! A move is judged by how much it lowered the mover's winning chances
//! (the position before it, best play, against the position after it):
//! a drop of at least 0.3 is a blunder, 0.2 a mistake, 0.1 an inaccuracy
//! (`CpAdvice.winningChanceJudgements` in lila). Lichess judges moves
//! around a mate separately (`MateAdvice`); here a mate is the ±1000
//! ceiling, so a move that lets a mate in is a blunder and one that gives
//! up a mate for a won position is not, as a player would say it.

use super::super::engine::Score;

/// Lichess's judgement of a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Kind {
    Inaccuracy,
    Mistake,
    Blunder,
}

impl Kind {
    /// The word of `--json` (`"inaccuracy"`, `"mistake"`, `"blunder"`),
    /// also the end of its speech key (`review_kind_blunder`).
    pub fn word(self) -> &'static str {
        match self {
            Kind::Inaccuracy => "inaccuracy",
            Kind::Mistake => "mistake",
            Kind::Blunder => "blunder",
        }
    }
}

/// The centipawn ceiling of the winning-chances formula (and of a mate).
pub const CP_CEILING: i32 = 1000;

/// Lichess's multiplier of the logistic curve.
const MULTIPLIER: f64 = -0.003_682_08;

/// The drops in winning chances from which a move is an inaccuracy, a
/// mistake, a blunder (lila's `winningChanceJudgements`).
pub const THRESHOLDS: [(f64, Kind); 3] = [
    (0.3, Kind::Blunder),
    (0.2, Kind::Mistake),
    (0.1, Kind::Inaccuracy),
];

/// A score in centipawns for the formula: clamped to ±1000, a mate the
/// ceiling with its sign (`Mate(0)`, the side to move is mated: lost).
pub fn ceiling_cp(score: Score) -> i32 {
    match score {
        Score::Cp(cp) => cp.clamp(-CP_CEILING, CP_CEILING),
        Score::Mate(n) if n > 0 => CP_CEILING,
        Score::Mate(_) => -CP_CEILING,
    }
}

/// The winning chances, -1 to 1, of the side whose score this is.
pub fn winning_chances(score: Score) -> f64 {
    let cp = f64::from(ceiling_cp(score));
    2.0 / (1.0 + (MULTIPLIER * cp).exp()) - 1.0
}

/// The judgement of a drop in winning chances, none under 0.1.
pub fn judge(drop: f64) -> Option<Kind> {
    THRESHOLDS
        .iter()
        .find(|(at, _)| drop >= *at)
        .map(|(_, kind)| *kind)
}

/// The score of the position after a move (the opponent's view, as the
/// engine gives it) seen by the mover. A mate on the board (`Mate(0)`:
/// the opponent, to move, is mated) is the mover's win; flipped, it would
/// read as his loss.
pub fn mover_view(after: Score) -> Score {
    match after {
        Score::Mate(0) => Score::Mate(1),
        other => other.flip(),
    }
}

/// How much the mover's winning chances dropped from `before` (the
/// position before the move, from the mover's view) to `after` (the
/// position after it, from the opponent's view, as the engine gives it).
pub fn drop_of(before: Score, after: Score) -> f64 {
    winning_chances(before) - winning_chances(mover_view(after))
}

/// The loss in centipawns (never below 0), each score clamped as the
/// formula clamps it.
pub fn loss_cp(before: Score, after: Score) -> i32 {
    (ceiling_cp(before) - ceiling_cp(mover_view(after))).max(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_curve_is_lichess_s() {
        assert!(winning_chances(Score::Cp(0)).abs() < 1e-12);
        // lila: +100 cp is about 0.1826 (59 % win percent).
        assert!((winning_chances(Score::Cp(100)) - 0.1820).abs() < 0.001);
        assert_eq!(
            winning_chances(Score::Cp(5000)),
            winning_chances(Score::Mate(3))
        );
        assert!(winning_chances(Score::Mate(-1)) < -0.95);
        assert_eq!(
            winning_chances(Score::Mate(0)),
            winning_chances(Score::Cp(-1000))
        );
    }

    #[test]
    fn the_thresholds_are_0_1_0_2_0_3() {
        assert_eq!(judge(0.05), None);
        assert_eq!(judge(0.1), Some(Kind::Inaccuracy));
        assert_eq!(judge(0.25), Some(Kind::Mistake));
        assert_eq!(judge(0.3), Some(Kind::Blunder));
        // Even, then the queen hangs (the opponent is 900 up): a blunder.
        let drop = drop_of(Score::Cp(20), Score::Cp(900));
        assert_eq!(judge(drop), Some(Kind::Blunder));
        assert_eq!(loss_cp(Score::Cp(20), Score::Cp(900)), 920);
        // Winning by a rook, then only by a knight: the chances barely
        // move, the same loss in an even position would be a mistake.
        let drop = drop_of(Score::Cp(900), Score::Cp(-700));
        assert_eq!(judge(drop), None, "{drop}");
        // From even, a pawn lost is an inaccuracy, two a blunder.
        assert_eq!(
            judge(drop_of(Score::Cp(0), Score::Cp(100))),
            Some(Kind::Inaccuracy)
        );
        assert_eq!(
            judge(drop_of(Score::Cp(0), Score::Cp(130))),
            Some(Kind::Mistake)
        );
        assert_eq!(
            judge(drop_of(Score::Cp(0), Score::Cp(200))),
            Some(Kind::Blunder)
        );
        // A move that mates (the opponent, to move, is mated: `Mate(0)`)
        // loses nothing, whatever the score before.
        assert_eq!(drop_of(Score::Mate(2), Score::Mate(0)), 0.0);
        assert_eq!(loss_cp(Score::Cp(300), Score::Mate(0)), 0);
        // A move that lets the opponent mate at once is a blunder.
        assert_eq!(
            judge(drop_of(Score::Cp(0), Score::Mate(1))),
            Some(Kind::Blunder)
        );
    }
}
