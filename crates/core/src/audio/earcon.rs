//! Earcon synthesis: pure functions from an [`Earcon`] to samples. No files
//! are needed, and each earcon has its own dominant pitch and rhythm so a
//! player can tell them apart without speech.

use std::f32::consts::TAU;

use super::sound::Earcon;

/// One tone of an earcon: frequency, length, then silence before the next.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Tone {
    pub hz: f32,
    pub ms: u32,
    pub gap_ms: u32,
}

/// A literal `Tone`, so patterns can live in static slices.
macro_rules! tone {
    ($hz:expr, $ms:expr, $gap:expr) => {
        Tone {
            hz: $hz,
            ms: $ms,
            gap_ms: $gap,
        }
    };
}

/// The tone pattern of each earcon. The longest-sounding pitch of each is its
/// dominant frequency, and no two earcons share one.
pub fn earcon_pattern(earcon: Earcon) -> &'static [Tone] {
    match earcon {
        // A short high tick, like a key press.
        Earcon::Touched => &[tone!(1320.0, 60, 0)],
        // Rising fifth: done, next player.
        Earcon::MoveAccepted => &[tone!(523.0, 60, 20), tone!(784.0, 160, 0)],
        // Three low buzzes: wrong.
        Earcon::Illegal => &[
            tone!(220.0, 90, 50),
            tone!(220.0, 90, 50),
            tone!(220.0, 90, 0),
        ],
        // Two low-middle pulses: the board and the game disagree.
        Earcon::Mismatch => &[tone!(294.0, 130, 70), tone!(294.0, 130, 0)],
        // A single soft high chime: all pieces where they belong.
        Earcon::InSync => &[tone!(1047.0, 200, 0)],
        // Falling: the board went away.
        Earcon::LinkLost => &[tone!(587.0, 80, 20), tone!(370.0, 260, 0)],
        // Rising: the board is back.
        Earcon::LinkRestored => &[tone!(440.0, 80, 20), tone!(659.0, 260, 0)],
        // Three quick high beeps: hurry.
        Earcon::LowTime => &[
            tone!(1568.0, 70, 60),
            tone!(1568.0, 70, 60),
            tone!(1568.0, 70, 0),
        ],
        // A long middle tone after a short lead-in: the flag fell.
        Earcon::FlagFall => &[tone!(988.0, 60, 40), tone!(466.0, 600, 0)],
    }
}

/// The pitch that carries most of the earcon's energy.
pub fn earcon_dominant_hz(earcon: Earcon) -> f32 {
    let mut by_hz: Vec<(f32, u32)> = Vec::new();
    for t in earcon_pattern(earcon) {
        match by_hz.iter_mut().find(|(hz, _)| *hz == t.hz) {
            Some((_, ms)) => *ms += t.ms,
            None => by_hz.push((t.hz, t.ms)),
        }
    }
    by_hz
        .into_iter()
        .max_by_key(|(_, ms)| *ms)
        .map(|(hz, _)| hz)
        .unwrap_or(0.0)
}

/// Length of the earcon in milliseconds, gaps included.
pub fn earcon_duration_ms(earcon: Earcon) -> u32 {
    earcon_pattern(earcon).iter().map(|t| t.ms + t.gap_ms).sum()
}

/// Peak amplitude of synthesised earcons (full scale is 1.0).
pub const EARCON_AMPLITUDE: f32 = 0.5;

/// Mono samples of an earcon at `sample_rate`, in -1..1.
pub fn earcon_samples(earcon: Earcon, sample_rate: u32) -> Vec<f32> {
    let rate = sample_rate as f32;
    let mut out = Vec::new();
    for t in earcon_pattern(earcon) {
        let n = (t.ms as f32 * rate / 1000.0).round() as usize;
        // 5 ms fade in and out so tones start and stop without clicks.
        let fade = ((0.005 * rate) as usize).clamp(1, n / 2 + 1);
        for i in 0..n {
            let env = (i.min(n - 1 - i) as f32 / fade as f32).min(1.0);
            out.push(EARCON_AMPLITUDE * env * (TAU * t.hz * i as f32 / rate).sin());
        }
        out.resize(
            out.len() + (t.gap_ms as f32 * rate / 1000.0).round() as usize,
            0.0,
        );
    }
    out
}

/// Energy of `samples` at `hz` (a single-bin DFT), for finding the dominant
/// pitch of recorded audio in tests and checks.
pub fn tone_energy(samples: &[f32], sample_rate: u32, hz: f32) -> f32 {
    // Goertzel algorithm.
    let w = TAU * hz / sample_rate as f32;
    let coeff = 2.0 * w.cos();
    let (mut s1, mut s2) = (0.0f32, 0.0f32);
    for &x in samples {
        let s0 = x + coeff * s1 - s2;
        s2 = s1;
        s1 = s0;
    }
    (s1 * s1 + s2 * s2 - coeff * s1 * s2).max(0.0)
}

/// The frequency between `lo` and `hi` Hz (in `step` Hz steps) with the most
/// energy in `samples`.
pub fn dominant_frequency(samples: &[f32], sample_rate: u32, lo: f32, hi: f32, step: f32) -> f32 {
    let mut best = (lo, 0.0f32);
    let mut hz = lo;
    while hz <= hi {
        let e = tone_energy(samples, sample_rate, hz);
        if e > best.1 {
            best = (hz, e);
        }
        hz += step;
    }
    best.0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_earcon_has_the_expected_length_and_is_not_silent() {
        for e in Earcon::ALL {
            let s = earcon_samples(e, 48_000);
            let expected = earcon_duration_ms(e) as usize * 48;
            assert!(
                s.len().abs_diff(expected) <= 4,
                "{e:?}: {} samples, expected {expected}",
                s.len()
            );
            let peak = s.iter().fold(0.0f32, |m, x| m.max(x.abs()));
            assert!(peak > 0.4 && peak <= EARCON_AMPLITUDE, "{e:?}: peak {peak}");
        }
    }

    #[test]
    fn every_earcon_has_its_own_dominant_frequency() {
        let mut seen: Vec<f32> = Vec::new();
        for e in Earcon::ALL {
            let hz = earcon_dominant_hz(e);
            let found = dominant_frequency(&earcon_samples(e, 44_100), 44_100, 150.0, 2000.0, 2.0);
            assert!(
                (found - hz).abs() <= hz * 0.02,
                "{e:?}: dominant {found} Hz, designed {hz} Hz"
            );
            for other in &seen {
                // At least a semitone and a half apart: audibly different.
                assert!(
                    (hz / other).max(other / hz) > 1.09,
                    "{e:?} at {hz} Hz is too close to {other} Hz"
                );
            }
            seen.push(hz);
        }
    }
}
