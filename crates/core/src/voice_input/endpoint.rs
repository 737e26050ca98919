//! Where the speech is in a recording: the recogniser's mean of the
//! features (batch CMN) is skewed by long stretches of silence or room
//! noise around a short move, so only the speech and a margin are decoded.

/// Length of one analysis frame at 16 kHz: 10 ms.
const FRAME: usize = 160;
/// Margin kept before the first and after the last loud frame: 200 ms.
const MARGIN_FRAMES: usize = 20;

/// The part of `samples` (16 kHz) from a little before the first frame
/// clearly louder than the recording's quiet floor to a little after the
/// last; `None` when nothing stands out (silence, steady noise): there is
/// nothing to decode, and a grammar decoded on silence still picks some
/// phrase.
pub fn speech_span(samples: &[i16]) -> Option<&[i16]> {
    let energies: Vec<f64> = samples
        .chunks(FRAME)
        .map(|frame| {
            let sum: f64 = frame.iter().map(|&s| f64::from(s) * f64::from(s)).sum();
            (sum / frame.len() as f64).sqrt()
        })
        .collect();
    if energies.len() < 3 {
        return None;
    }
    let mut sorted = energies.clone();
    sorted.sort_by(f64::total_cmp);
    let floor = sorted[sorted.len() / 10];
    let peak = sorted[sorted.len() - 1];
    // Speech stands well above the floor; a recording that is all floor
    // (silence, hiss) has no span.
    let threshold = (floor * 4.0).max(peak * 0.08).max(30.0);
    let first = energies.iter().position(|&e| e > threshold)?;
    let last = energies
        .iter()
        .rposition(|&e| e > threshold)
        .unwrap_or(first);
    let start = first.saturating_sub(MARGIN_FRAMES) * FRAME;
    let end = ((last + 1 + MARGIN_FRAMES) * FRAME).min(samples.len());
    Some(&samples[start..end])
}

/// The loudest sample after [`even_level`]: a quarter of full scale, where
/// espeak-ng's voices at several volumes were heard alike (at full scale
/// they were heard worse).
const TARGET_PEAK: f64 = 8_000.0;
/// Quiet speech is raised at most this much, so hiss stays hiss.
const MAX_GAIN: f64 = 20.0;

/// `speech` scaled so that its loudest sample is [`TARGET_PEAK`]: a quiet
/// microphone and a loud recording are heard alike.
pub fn even_level(speech: &[i16]) -> Vec<i16> {
    let peak = speech
        .iter()
        .map(|&s| f64::from(s).abs())
        .fold(0.0, f64::max);
    if peak == 0.0 {
        return speech.to_vec();
    }
    let gain = (TARGET_PEAK / peak).min(MAX_GAIN);
    speech
        .iter()
        .map(|&s| (f64::from(s) * gain).round() as i16)
        .collect()
}

/// Peak of the faint hiss [`with_room_floor`] adds: about -60 dB of full
/// scale, a tenth of a quiet room heard through a microphone.
const ROOM_FLOOR: i32 = 30;

/// `speech` with a faint, fixed hiss added, as a microphone always has:
/// stretches of digital silence (zeros from a recording, a noise gate, the
/// pause that ends an utterance) made the recogniser lose words at the
/// edge ("Knight Felix three" heard as "Felix three" after 100 ms of
/// zeros; "Springer Felix drei" as "ja" at some offsets within a 10 ms
/// frame), which the decoder's own dither did not prevent.
pub fn with_room_floor(speech: &[i16]) -> Vec<i16> {
    let mut x: u32 = 0x2545_f491;
    speech
        .iter()
        .map(|&s| {
            x = x.wrapping_mul(1_103_515_245).wrapping_add(12_345);
            let hiss = (x >> 16) as i32 % (2 * ROOM_FLOOR + 1) - ROOM_FLOOR;
            (i32::from(s) + hiss).clamp(i32::from(i16::MIN), i32::from(i16::MAX)) as i16
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A tone standing for speech: 300 Hz at `amplitude`.
    fn tone(n: usize, amplitude: f64) -> Vec<i16> {
        (0..n)
            .map(|i| {
                (amplitude * (i as f64 * 300.0 * std::f64::consts::TAU / 16_000.0).sin()) as i16
            })
            .collect()
    }

    /// Deterministic hiss: a small linear congruential generator.
    fn hiss(n: usize, amplitude: i32) -> Vec<i16> {
        let mut x: u32 = 12345;
        (0..n)
            .map(|_| {
                x = x.wrapping_mul(1_103_515_245).wrapping_add(12_345);
                ((x >> 16) as i32 % (2 * amplitude + 1) - amplitude) as i16
            })
            .collect()
    }

    #[test]
    fn loud_and_quiet_speech_reach_the_same_peak() {
        let loud = even_level(&[30_000, -15_000, 0]);
        assert_eq!(loud, vec![8_000, -4_000, 0]);
        let quiet = even_level(&[1_000, -500]);
        assert_eq!(quiet, vec![8_000, -4_000]);
        // Hiss is raised 20 times at most.
        assert_eq!(even_level(&[10, -5]), vec![200, -100]);
        assert_eq!(even_level(&[0, 0]), vec![0, 0]);
    }

    #[test]
    fn the_room_floor_is_faint_fixed_and_leaves_no_digital_silence() {
        let zeros = with_room_floor(&[0; 16_000]);
        assert!(zeros.iter().all(|&s| s.abs() <= 30));
        let level = zeros.iter().map(|&s| f64::from(s).powi(2)).sum::<f64>() / 16_000.0;
        assert!((100.0..600.0).contains(&level), "{level}");
        // No run of zeros longer than a few samples.
        assert!(zeros.windows(8).all(|w| w.iter().any(|&s| s != 0)));
        assert_eq!(zeros, with_room_floor(&[0; 16_000]));
        assert_eq!(with_room_floor(&[i16::MAX, i16::MIN]).len(), 2);
    }

    #[test]
    fn speech_between_silences_is_cut_out_with_margins() {
        let mut samples = vec![0i16; 16_000];
        samples.extend(tone(8_000, 8_000.0));
        samples.extend(vec![0i16; 16_000]);
        let span = speech_span(&samples).expect("speech");
        // Half a second of speech and 200 ms on either side.
        assert_eq!(span.len(), 8_000 + 2 * 3_200);
    }

    #[test]
    fn speech_in_hiss_is_found_and_hiss_or_silence_alone_is_none() {
        let mut samples = hiss(16_000, 300);
        let speech: Vec<i16> = tone(8_000, 6_000.0)
            .iter()
            .zip(hiss(8_000, 300))
            .map(|(a, b)| a.saturating_add(b))
            .collect();
        samples.extend(speech);
        samples.extend(hiss(16_000, 300));
        let span = speech_span(&samples).expect("speech");
        assert!((14_000..15_000).contains(&span.len()), "{}", span.len());
        let only_hiss = hiss(16_000, 300);
        assert_eq!(speech_span(&only_hiss), None);
        assert_eq!(speech_span(&[0; 16_000]), None);
        assert_eq!(speech_span(&[]), None);
    }
}
