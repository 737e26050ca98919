//! The Glicko-2 rating (Glickman, "Example of the Glicko-2 system"), as
//! Lichess rates puzzle solvers: each puzzle is a game against the
//! puzzle's own rating and deviation, won when solved.

use std::f64::consts::PI;

use serde::{Deserialize, Serialize};

/// Glicko-2's scale between ratings and its internal units.
const SCALE: f64 = 173.7178;
/// How much the volatility may change (Lichess: 0.75).
const TAU: f64 = 0.75;
const EPSILON: f64 = 0.000_001;
/// Lichess's bounds of the deviation.
const MIN_DEVIATION: f64 = 45.0;
const MAX_DEVIATION: f64 = 500.0;

/// A rating with its deviation and volatility.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Glicko {
    pub rating: f64,
    pub deviation: f64,
    pub volatility: f64,
}

impl Default for Glicko {
    /// A new player: 1500, as uncertain as can be (Lichess's start).
    fn default() -> Glicko {
        Glicko {
            rating: 1500.0,
            deviation: MAX_DEVIATION,
            volatility: 0.09,
        }
    }
}

/// One result: the opponent's rating and deviation, and the score (1 a
/// win, 0 a loss).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Outcome {
    pub rating: f64,
    pub deviation: f64,
    pub score: f64,
}

impl Glicko {
    /// The rating after a solved (`true`) or failed puzzle.
    pub fn after_puzzle(self, puzzle_rating: u32, puzzle_deviation: u32, solved: bool) -> Glicko {
        let outcome = Outcome {
            rating: f64::from(puzzle_rating),
            deviation: f64::from(puzzle_deviation),
            score: if solved { 1.0 } else { 0.0 },
        };
        let mut next = self.updated(TAU, &[outcome]);
        next.deviation = next.deviation.clamp(MIN_DEVIATION, MAX_DEVIATION);
        next
    }

    /// Glicko-2's update for one rating period with these results.
    pub fn updated(self, tau: f64, outcomes: &[Outcome]) -> Glicko {
        let mu = (self.rating - 1500.0) / SCALE;
        let phi = self.deviation / SCALE;
        if outcomes.is_empty() {
            let phi = (phi * phi + self.volatility * self.volatility).sqrt();
            return Glicko {
                deviation: phi * SCALE,
                ..self
            };
        }
        let g = |phi_j: f64| 1.0 / (1.0 + 3.0 * phi_j * phi_j / (PI * PI)).sqrt();
        let expected = |mu_j: f64, phi_j: f64| 1.0 / (1.0 + (-g(phi_j) * (mu - mu_j)).exp());
        let mut inverse_v = 0.0;
        let mut sum = 0.0;
        for o in outcomes {
            let (mu_j, phi_j) = ((o.rating - 1500.0) / SCALE, o.deviation / SCALE);
            let e = expected(mu_j, phi_j);
            inverse_v += g(phi_j).powi(2) * e * (1.0 - e);
            sum += g(phi_j) * (o.score - e);
        }
        let v = 1.0 / inverse_v;
        let delta = v * sum;
        let sigma = new_volatility(self.volatility, phi, v, delta, tau);
        let phi_star = (phi * phi + sigma * sigma).sqrt();
        let phi_new = 1.0 / (1.0 / (phi_star * phi_star) + 1.0 / v).sqrt();
        let mu_new = mu + phi_new * phi_new * sum;
        Glicko {
            rating: mu_new * SCALE + 1500.0,
            deviation: phi_new * SCALE,
            volatility: sigma,
        }
    }
}

/// Step 5 of Glickman's paper: the new volatility (Illinois algorithm).
fn new_volatility(sigma: f64, phi: f64, v: f64, delta: f64, tau: f64) -> f64 {
    let a = (sigma * sigma).ln();
    let f = |x: f64| {
        let ex = x.exp();
        ex * (delta * delta - phi * phi - v - ex) / (2.0 * (phi * phi + v + ex).powi(2))
            - (x - a) / (tau * tau)
    };
    let mut big_a = a;
    let mut big_b = if delta * delta > phi * phi + v {
        (delta * delta - phi * phi - v).ln()
    } else {
        let mut k = 1.0;
        while f(a - k * tau) < 0.0 {
            k += 1.0;
        }
        a - k * tau
    };
    let (mut f_a, mut f_b) = (f(big_a), f(big_b));
    for _ in 0..100 {
        if (big_b - big_a).abs() <= EPSILON {
            break;
        }
        let c = big_a + (big_a - big_b) * f_a / (f_b - f_a);
        let f_c = f(c);
        if f_c * f_b <= 0.0 {
            big_a = big_b;
            f_a = f_b;
        } else {
            f_a /= 2.0;
        }
        big_b = c;
        f_b = f_c;
    }
    (big_a / 2.0).exp()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn glickmans_worked_example() {
        let player = Glicko {
            rating: 1500.0,
            deviation: 200.0,
            volatility: 0.06,
        };
        let games = [
            Outcome {
                rating: 1400.0,
                deviation: 30.0,
                score: 1.0,
            },
            Outcome {
                rating: 1550.0,
                deviation: 100.0,
                score: 0.0,
            },
            Outcome {
                rating: 1700.0,
                deviation: 300.0,
                score: 0.0,
            },
        ];
        let after = player.updated(0.5, &games);
        assert!((after.rating - 1464.06).abs() < 0.01, "{after:?}");
        assert!((after.deviation - 151.52).abs() < 0.01, "{after:?}");
        assert!((after.volatility - 0.05999).abs() < 0.00001, "{after:?}");
    }

    #[test]
    fn solving_raises_failing_lowers_and_certainty_grows() {
        let start = Glicko::default();
        let up = start.after_puzzle(1500, 80, true);
        let down = start.after_puzzle(1500, 80, false);
        assert!(
            up.rating > 1600.0 && down.rating < 1400.0,
            "{up:?} {down:?}"
        );
        assert!(up.deviation < start.deviation);
        let mut r = start;
        for _ in 0..200 {
            r = r.after_puzzle(1500, 80, true).after_puzzle(1500, 80, false);
        }
        assert!(r.deviation >= MIN_DEVIATION);
        assert!((r.rating - 1500.0).abs() < 150.0, "{r:?}");
    }
}
