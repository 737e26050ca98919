//! A mono sound in memory, WAV reading and writing (via `hound`), and the
//! small signal chores the clip voice needs: resampling, trimming silence,
//! normalising a recording.

use std::io::Cursor;
use std::path::Path;

use super::AudioError;

/// Sample rate of the clips the app writes (bundled and recorded): small
/// files, clear enough for single words.
pub const CLIP_RATE: u32 = 16_000;

/// Mono samples in -1..1 at a sample rate.
#[derive(Clone, Debug, PartialEq)]
pub struct Clip {
    pub samples: Vec<f32>,
    pub rate: u32,
}

impl Clip {
    pub fn new(samples: Vec<f32>, rate: u32) -> Clip {
        Clip { samples, rate }
    }

    pub fn duration_ms(&self) -> u64 {
        self.samples.len() as u64 * 1000 / self.rate.max(1) as u64
    }

    /// Reads a WAV file (any channel count and sample format `hound`
    /// reads), mixing channels down to mono.
    pub fn read_wav(path: &Path) -> Result<Clip, AudioError> {
        let reader = hound::WavReader::open(path)
            .map_err(|e| AudioError::new(format!("{}: {e}", path.display())))?;
        Self::from_reader(reader).map_err(|e| AudioError::new(format!("{}: {e}", path.display())))
    }

    /// Reads WAV data from memory (the bundled clips).
    pub fn from_wav_bytes(bytes: &[u8]) -> Result<Clip, AudioError> {
        let reader = hound::WavReader::new(Cursor::new(bytes))
            .map_err(|e| AudioError::new(e.to_string()))?;
        Self::from_reader(reader).map_err(|e| AudioError::new(e.to_string()))
    }

    fn from_reader<R: std::io::Read>(reader: hound::WavReader<R>) -> Result<Clip, hound::Error> {
        let spec = reader.spec();
        let channels = spec.channels.max(1) as usize;
        let interleaved: Vec<f32> = match spec.sample_format {
            hound::SampleFormat::Float => reader.into_samples::<f32>().collect::<Result<_, _>>()?,
            hound::SampleFormat::Int => {
                let scale = 1.0 / (1u64 << (spec.bits_per_sample.clamp(1, 32) - 1)) as f32;
                reader
                    .into_samples::<i32>()
                    .map(|s| s.map(|v| v as f32 * scale))
                    .collect::<Result<_, _>>()?
            }
        };
        let samples = interleaved
            .chunks(channels)
            .map(|frame| frame.iter().sum::<f32>() / frame.len() as f32)
            .collect();
        Ok(Clip {
            samples,
            rate: spec.sample_rate,
        })
    }

    /// Writes 16-bit mono PCM.
    pub fn write_wav(&self, path: &Path) -> Result<(), AudioError> {
        let spec = hound::WavSpec {
            channels: 1,
            sample_rate: self.rate,
            bits_per_sample: 16,
            sample_format: hound::SampleFormat::Int,
        };
        let err = |e: hound::Error| AudioError::new(format!("{}: {e}", path.display()));
        let mut writer = hound::WavWriter::create(path, spec).map_err(err)?;
        for &s in &self.samples {
            writer
                .write_sample((s.clamp(-1.0, 1.0) * i16::MAX as f32) as i16)
                .map_err(err)?;
        }
        writer.finalize().map_err(err)
    }

    /// Linear-interpolation resampling: plenty for speech clips and
    /// earcons, and cheap enough to do on load.
    pub fn resampled(&self, rate: u32) -> Clip {
        if rate == self.rate || self.samples.is_empty() {
            return Clip {
                samples: self.samples.clone(),
                rate,
            };
        }
        let ratio = self.rate as f64 / rate as f64;
        let n = ((self.samples.len() as f64) / ratio).round() as usize;
        let last = self.samples.len() - 1;
        let samples = (0..n)
            .map(|i| {
                let pos = i as f64 * ratio;
                let i0 = (pos.floor() as usize).min(last);
                let i1 = (i0 + 1).min(last);
                let frac = (pos - i0 as f64) as f32;
                self.samples[i0] * (1.0 - frac) + self.samples[i1] * frac
            })
            .collect();
        Clip { samples, rate }
    }

    /// Peak absolute amplitude.
    pub fn peak(&self) -> f32 {
        self.samples.iter().fold(0.0f32, |m, s| m.max(s.abs()))
    }

    /// Cuts leading and trailing stretches quieter than `threshold` (a
    /// fraction of full scale), keeping `margin_ms` on each side.
    pub fn trimmed(&self, threshold: f32, margin_ms: u32) -> Clip {
        let margin = (self.rate as u64 * margin_ms as u64 / 1000) as usize;
        let first = self.samples.iter().position(|s| s.abs() > threshold);
        let last = self.samples.iter().rposition(|s| s.abs() > threshold);
        match (first, last) {
            (Some(a), Some(b)) => {
                let a = a.saturating_sub(margin);
                let b = (b + margin + 1).min(self.samples.len());
                Clip {
                    samples: self.samples[a..b].to_vec(),
                    rate: self.rate,
                }
            }
            _ => Clip {
                samples: Vec::new(),
                rate: self.rate,
            },
        }
    }

    /// Scales so the peak is `target` (no-op for silence).
    pub fn normalised(&self, target: f32) -> Clip {
        let peak = self.peak();
        if peak <= f32::EPSILON {
            return self.clone();
        }
        let g = target / peak;
        Clip {
            samples: self.samples.iter().map(|s| s * g).collect(),
            rate: self.rate,
        }
    }

    /// A raw microphone take made ready to be a voice clip: 16 kHz,
    /// silence trimmed, peak at 0.9. `None` when nothing was heard.
    pub fn prepared_for_voice(&self) -> Option<Clip> {
        let noise_floor = (self.peak() * 0.08).max(0.01);
        let clip = self.resampled(CLIP_RATE).trimmed(noise_floor, 40);
        (!clip.samples.is_empty()).then(|| clip.normalised(0.9))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wav_round_trip_keeps_the_signal() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("x.wav");
        let clip = Clip::new(
            (0..1600).map(|i| (i as f32 / 10.0).sin() * 0.5).collect(),
            CLIP_RATE,
        );
        clip.write_wav(&path).unwrap();
        let back = Clip::read_wav(&path).unwrap();
        assert_eq!(back.rate, CLIP_RATE);
        assert_eq!(back.samples.len(), 1600);
        assert!(
            back.samples
                .iter()
                .zip(&clip.samples)
                .all(|(a, b)| (a - b).abs() < 1e-3)
        );
    }

    #[test]
    fn resampling_keeps_duration_and_pitch() {
        let tone: Vec<f32> = (0..16_000)
            .map(|i| (std::f32::consts::TAU * 440.0 * i as f32 / 16_000.0).sin())
            .collect();
        let up = Clip::new(tone, 16_000).resampled(48_000);
        assert_eq!(up.samples.len(), 48_000);
        let hz = super::super::earcon::dominant_frequency(&up.samples, 48_000, 300.0, 600.0, 2.0);
        assert!((hz - 440.0).abs() <= 2.0, "{hz}");
    }

    #[test]
    fn trimming_and_preparing_a_take() {
        let mut s = vec![0.001f32; 8000];
        s.extend((0..4000).map(|i| (i as f32 / 5.0).sin() * 0.3));
        s.extend(vec![0.0f32; 8000]);
        let clip = Clip::new(s, 16_000).prepared_for_voice().unwrap();
        let ms = clip.duration_ms();
        assert!((250..=340).contains(&ms), "{ms} ms");
        assert!((clip.peak() - 0.9).abs() < 0.01);
        assert!(
            Clip::new(vec![0.0; 1000], 16_000)
                .prepared_for_voice()
                .is_none()
        );
    }
}
