//! Reading a recording for voice input: 16 kHz, 16-bit, mono is what the
//! model was trained on. Stereo is mixed to mono; another sample rate or
//! sample format is refused with the command that converts it.

use std::path::Path;

/// The sample rate of the speech model.
pub const SAMPLE_RATE: u32 = 16_000;

/// Why a recording cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum WavError {
    #[error("cannot read the recording {file}: {reason}")]
    Unreadable { file: String, reason: String },
    #[error(
        "the recording {file} is {found}; voice input needs 16 kHz 16-bit WAV: convert it with `sox {file} -r 16000 -c 1 -b 16 out.wav`"
    )]
    Format { file: String, found: String },
}

/// The samples of `path` at 16 kHz, mono.
pub fn read_speech(path: &Path) -> Result<Vec<i16>, WavError> {
    let file = path.display().to_string();
    let reader = hound::WavReader::open(path).map_err(|e| WavError::Unreadable {
        file: file.clone(),
        reason: match e {
            hound::Error::IoError(io) => io.to_string(),
            other => format!("not a WAV file ({other})"),
        },
    })?;
    let spec = reader.spec();
    if spec.sample_rate != SAMPLE_RATE
        || spec.bits_per_sample != 16
        || spec.sample_format != hound::SampleFormat::Int
    {
        let format = match spec.sample_format {
            hound::SampleFormat::Int => "integer",
            hound::SampleFormat::Float => "floating point",
        };
        return Err(WavError::Format {
            file,
            found: format!(
                "{} Hz, {}-bit {format}",
                spec.sample_rate, spec.bits_per_sample
            ),
        });
    }
    let samples: Vec<i16> = reader
        .into_samples::<i16>()
        .collect::<Result<_, _>>()
        .map_err(|e| WavError::Unreadable {
            file,
            reason: e.to_string(),
        })?;
    let channels = usize::from(spec.channels.max(1));
    if channels == 1 {
        return Ok(samples);
    }
    Ok(samples
        .chunks(channels)
        .map(|frame| (frame.iter().map(|&s| i32::from(s)).sum::<i32>() / frame.len() as i32) as i16)
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(path: &Path, rate: u32, channels: u16, samples: &[i16]) {
        let spec = hound::WavSpec {
            channels,
            sample_rate: rate,
            bits_per_sample: 16,
            sample_format: hound::SampleFormat::Int,
        };
        let mut w = hound::WavWriter::create(path, spec).expect("create");
        for &s in samples {
            w.write_sample(s).expect("sample");
        }
        w.finalize().expect("finalize");
    }

    #[test]
    fn mono_is_read_stereo_mixed_other_rates_refused() {
        let dir = tempfile::tempdir().expect("dir");
        let mono = dir.path().join("mono.wav");
        write(&mono, 16_000, 1, &[1, -2, 300]);
        assert_eq!(read_speech(&mono).expect("mono"), vec![1, -2, 300]);
        let stereo = dir.path().join("stereo.wav");
        write(&stereo, 16_000, 2, &[100, 300, -10, -30]);
        assert_eq!(read_speech(&stereo).expect("stereo"), vec![200, -20]);
        let fast = dir.path().join("fast.wav");
        write(&fast, 22_050, 1, &[0; 10]);
        let e = read_speech(&fast).expect_err("22 kHz").to_string();
        assert!(e.contains("22050 Hz, 16-bit integer"), "{e}");
        assert!(e.contains("-r 16000 -c 1 -b 16"), "{e}");
        let text = dir.path().join("text.wav");
        std::fs::write(&text, "hello").expect("write");
        let e = read_speech(&text).expect_err("no WAV").to_string();
        assert!(e.contains("not a WAV file"), "{e}");
        let e = read_speech(&dir.path().join("absent.wav"))
            .expect_err("absent")
            .to_string();
        // The system's own words for a missing file differ (Linux "No such
        // file", Windows "File not found"): the file is named either way.
        assert!(
            e.starts_with("cannot read the recording") && e.contains("absent.wav"),
            "{e}"
        );
        assert!(!e.contains("not a WAV file"), "{e}");
    }
}
