//! The next puzzle: near the player's rating, of a theme if one was
//! chosen, not one played lately, picked at random (seeded) among the
//! nearest so that the same rating does not always give the same puzzle.

use super::set::{Puzzle, PuzzleSet};
use crate::engine::Rng;

/// How many of the nearest puzzles the pick is made among.
const NEAREST: usize = 12;

/// A puzzle near `rating`, with `theme` if given, not `played` lately
/// (when every candidate was played, the played ones count again).
pub fn choose<'a>(
    set: &'a PuzzleSet,
    rating: f64,
    theme: Option<&str>,
    seed: u64,
    played: &dyn Fn(&str) -> bool,
) -> Option<&'a Puzzle> {
    let of_theme: Vec<&Puzzle> = set
        .puzzles()
        .iter()
        .filter(|p| theme.is_none_or(|t| p.has_theme(t)))
        .collect();
    let fresh: Vec<&Puzzle> = of_theme
        .iter()
        .copied()
        .filter(|p| !played(&p.id))
        .collect();
    let mut pool = if fresh.is_empty() { of_theme } else { fresh };
    pool.sort_by(|a, b| {
        let da = (f64::from(a.rating) - rating).abs();
        let db = (f64::from(b.rating) - rating).abs();
        da.total_cmp(&db).then_with(|| a.id.cmp(&b.id))
    });
    pool.truncate(NEAREST);
    if pool.is_empty() {
        return None;
    }
    let i = Rng::new(seed).below(pool.len() as u64) as usize;
    Some(pool[i])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn near_the_rating_of_the_theme_and_seeded() {
        let set = PuzzleSet::bundled();
        let never = |_: &str| false;
        let p = choose(&set, 1500.0, None, 7, &never).unwrap();
        assert!((1300..=1700).contains(&p.rating), "{}", p.rating);
        assert_eq!(choose(&set, 1500.0, None, 7, &never).unwrap().id, p.id);
        let fork = choose(&set, 900.0, Some("fork"), 1, &never).unwrap();
        assert!(fork.has_theme("fork"));
        assert!(choose(&set, 900.0, Some("noSuchTheme"), 1, &never).is_none());
    }

    #[test]
    fn a_played_puzzle_comes_again_only_when_none_is_left() {
        let set = PuzzleSet::bundled();
        let first = choose(&set, 1500.0, None, 3, &|_| false)
            .unwrap()
            .id
            .clone();
        let next = choose(&set, 1500.0, None, 3, &|id| id == first).unwrap();
        assert_ne!(next.id, first);
        assert!(choose(&set, 1500.0, None, 3, &|_| true).is_some());
    }
}
