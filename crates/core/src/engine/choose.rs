//! Choosing the engine's move among its candidate lines.

use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, Position};

use super::{Choice, Line};

/// A small seeded random number generator (SplitMix64), so tests can fix
/// the weakened levels' choices.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n` > 0).
    pub fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n
    }
}

/// The move to play: the best line's move, or a random candidate within
/// the level's window, or (sometimes, at the lowest levels) any legal move.
pub fn choose_move(
    pos: &Chess,
    lines: &[Line],
    best: Option<&UciMove>,
    choice: Choice,
    rng: &mut Rng,
) -> Option<UciMove> {
    let legal = pos.legal_moves();
    if legal.is_empty() {
        return None;
    }
    if choice.random_move_percent > 0 && rng.below(100) < u64::from(choice.random_move_percent) {
        let mv = legal[rng.below(legal.len() as u64) as usize];
        return Some(UciMove::from_move(mv, CastlingMode::Standard));
    }
    let top = lines.first().map(|l| l.score.as_cp());
    let candidates: Vec<&UciMove> = lines
        .iter()
        .filter(|l| top.is_some_and(|t| t - l.score.as_cp() <= choice.window_cp))
        .filter_map(|l| l.pv.first())
        .filter(|m| m.to_move(pos).is_ok())
        .collect();
    if choice.window_cp > 0 && !candidates.is_empty() {
        return Some(*candidates[rng.below(candidates.len() as u64) as usize]);
    }
    best.filter(|m| m.to_move(pos).is_ok())
        .or(candidates.first().copied())
        .cloned()
        .or_else(|| Some(UciMove::from_move(legal[0], CastlingMode::Standard)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Score;

    fn line(cp: i32, mv: &str) -> Line {
        Line {
            score: Score::Cp(cp),
            pv: vec![mv.parse().unwrap()],
        }
    }

    #[test]
    fn full_strength_plays_the_best_move() {
        let lines = [line(30, "e2e4"), line(20, "d2d4")];
        let best: UciMove = "e2e4".parse().unwrap();
        let mut rng = Rng::new(7);
        for _ in 0..20 {
            let m = choose_move(
                &Chess::default(),
                &lines,
                Some(&best),
                Choice::best(),
                &mut rng,
            );
            assert_eq!(m, Some(best));
        }
    }

    #[test]
    fn a_window_picks_among_candidates_reproducibly() {
        let lines = [line(30, "e2e4"), line(20, "d2d4"), line(-400, "g2g4")];
        let choice = Choice {
            random_move_percent: 0,
            window_cp: 50,
        };
        let pick = |seed| {
            let mut rng = Rng::new(seed);
            (0..30)
                .map(|_| choose_move(&Chess::default(), &lines, None, choice, &mut rng).unwrap())
                .collect::<Vec<_>>()
        };
        let a = pick(1);
        assert_eq!(a, pick(1));
        assert!(a.iter().any(|m| m.to_string() == "d2d4"));
        assert!(a.iter().all(|m| m.to_string() != "g2g4"));
    }
}
