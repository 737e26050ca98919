//! The corpus replays' seeds and sample (issue 47): each corpus figure is
//! measured over five seeds and the test asserts the worst seed's figure.
//! By default (CI) each seed plays every fifth game (seed k the games
//! whose index is k modulo 5, so the five seeds together play every game
//! once); `ROCHADE_FULL_CORPUS=1` plays every game with every seed. A game
//! comes out the same in the sample and in the full run (its seed depends
//! on the game, not on what ran before), so a seed's sample misses no more
//! games than its full run: the full run's worst figure is an honest bound
//! for the sample. Included with `#[path]` by each corpus test.
#![allow(dead_code)]

/// How many seeds each corpus figure is measured over.
pub const SEEDS: u64 = 5;

/// Every game with every seed (`ROCHADE_FULL_CORPUS=1`), not the sample.
pub fn full() -> bool {
    std::env::var("ROCHADE_FULL_CORPUS").is_ok_and(|v| v == "1")
}

/// Whether game `index` (from 0) is played with the `k`-th seed (from 0).
pub fn plays(index: usize, k: u64) -> bool {
    full() || index as u64 % SEEDS == k
}

/// "full" or "sample", for the printed figures.
pub fn run_name() -> &'static str {
    if full() { "full" } else { "sample" }
}
