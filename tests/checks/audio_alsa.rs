//! Earcons and the clip voice played through `cpal` into an ALSA `file`
//! device, and the written audio checked: not silent, the expected length,
//! and a distinct dominant frequency per earcon.
//!
//! The playing happens in a child process (the built `rochade` binary) whose
//! HOME is a temporary folder with a `.asoundrc` that makes the default ALSA
//! device a `plug` (fixed format: 16-bit mono 16 kHz) over a `file` device
//! over `null`. The real user's `~/.asoundrc` is never touched. The test
//! fails loudly if ALSA cannot be used.

use std::path::{Path, PathBuf};
use std::process::Command;

use rochade::audio::{dominant_frequency, earcon_dominant_hz, earcon_duration_ms};
use rochade::session::Earcon;
use rochade::speech::ClipStore;
use rochade::words::Lang;

const RATE: u32 = 16_000;

fn asoundrc(out: &Path) -> String {
    format!(
        "pcm.!default {{\n  type plug\n  slave {{\n    pcm \"rochade_file\"\n    format S16_LE\n    rate {RATE}\n    channels 1\n  }}\n}}\n\
         pcm.rochade_file {{\n  type file\n  slave.pcm \"null\"\n  file \"{}\"\n  format \"raw\"\n}}\n",
        out.display()
    )
}

/// Runs `rochade say ARGS` with ALSA writing into a raw file; returns the samples.
fn play(dir: &Path, name: &str, args: &[&str]) -> Vec<f32> {
    let home = dir.join(format!("home-{name}"));
    std::fs::create_dir_all(&home).unwrap();
    let out: PathBuf = dir.join(format!("{name}.raw"));
    std::fs::write(home.join(".asoundrc"), asoundrc(&out)).unwrap();
    let result = Command::new(env!("CARGO_BIN_EXE_rochade"))
        .arg("say")
        .args(args)
        .env("HOME", &home)
        .env("ROCHADE_CONFIG_DIR", home.join("config"))
        .env("ROCHADE_DATA_DIR", home.join("data"))
        .env_remove("PULSE_SERVER")
        .output()
        .expect("run rochade");
    assert!(
        result.status.success(),
        "rochade say {args:?} failed (is ALSA usable? libasound2 must be installed): {}",
        String::from_utf8_lossy(&result.stderr)
    );
    let bytes =
        std::fs::read(&out).unwrap_or_else(|e| panic!("ALSA wrote no file {}: {e}", out.display()));
    bytes
        .chunks_exact(2)
        .map(|b| i16::from_le_bytes([b[0], b[1]]) as f32 / 32768.0)
        .collect()
}

/// The stretch from the first to the last sample above the threshold.
fn sounding(samples: &[f32]) -> &[f32] {
    let loud = |s: &f32| s.abs() > 0.02;
    let a = samples
        .iter()
        .position(loud)
        .expect("the written audio is silent");
    let b = samples.iter().rposition(loud).unwrap();
    &samples[a..=b]
}

fn ms(n: usize) -> u32 {
    (n as u64 * 1000 / RATE as u64) as u32
}

#[test]
fn earcons_reach_alsa_with_their_length_and_their_own_pitch() {
    let dir = tempfile::tempdir().unwrap();
    let mut found = Vec::new();
    for earcon in Earcon::ALL {
        let name = format!("{earcon:?}");
        let samples = play(dir.path(), &name, &["--earcon", &name]);
        let sound = sounding(&samples);
        let peak = sound.iter().fold(0.0f32, |m, s| m.max(s.abs()));
        assert!(peak > 0.2, "{name}: peak {peak}");
        // The sounding stretch runs from the first tone's start to the last
        // tone's end: the pattern minus its trailing gap (none) and fades.
        let expected = earcon_duration_ms(earcon);
        let got = ms(sound.len());
        assert!(
            got + 15 >= expected && got <= expected + 15,
            "{name}: {got} ms of sound, expected {expected} ms"
        );
        let hz = dominant_frequency(sound, RATE, 150.0, 2000.0, 2.0);
        let designed = earcon_dominant_hz(earcon);
        assert!(
            (hz - designed).abs() <= designed * 0.02,
            "{name}: dominant {hz} Hz, designed {designed} Hz"
        );
        found.push((name, hz));
    }
    for (i, (a, fa)) in found.iter().enumerate() {
        for (b, fb) in &found[i + 1..] {
            assert!(
                (fa / fb).max(fb / fa) > 1.09,
                "{a} ({fa} Hz) and {b} ({fb} Hz) sound alike"
            );
        }
    }
}

#[test]
fn the_clip_voice_plays_a_word_sequence_through_alsa() {
    let dir = tempfile::tempdir().unwrap();
    let text = "Springer schlägt Eva fünf";
    let samples = play(
        dir.path(),
        "clips",
        &["--backend", "clips", "--lang", "de", text],
    );
    let sound = sounding(&samples);
    // Expected: the four bundled clips plus three gaps between them.
    let mut store = ClipStore::new(Lang::De, None);
    let (rendered, missing) = store.render(text, RATE);
    assert!(missing.is_empty(), "{missing:?}");
    let expected = ms(rendered.len());
    let got = ms(sound.len());
    // Clips start and end quietly, so the sounding stretch may be a bit shorter.
    assert!(
        got <= expected + 20 && got + 150 >= expected,
        "{got} ms of speech, expected about {expected} ms"
    );
    // Four words: at least three pauses of some 70 ms inside the speech.
    let frame = (RATE / 100) as usize;
    let quiet: Vec<bool> = sound
        .chunks(frame)
        .map(|c| c.iter().map(|s| s * s).sum::<f32>() / (c.len() as f32) < 1e-5)
        .collect();
    let pauses = quiet.windows(4).filter(|w| w.iter().all(|q| *q)).count();
    assert!(
        pauses >= 3,
        "expected pauses between words, found {pauses} quiet windows"
    );
}
