//! Recordings for the voice-input tests: espeak-ng says a move into a
//! WAV (16 kHz mono, as the recogniser takes it), sox makes noise.
//! Included with `#[path]` by the tests that feed voice input.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;

/// `text` said by espeak-ng's `voice` into `dir/name.wav`, 16 kHz mono.
pub fn speak(dir: &Path, name: &str, voice: &str, text: &str) -> PathBuf {
    let raw = dir.join(format!("{name}-raw.wav"));
    let status = Command::new("espeak-ng")
        .args(["-v", voice, "-w"])
        .arg(&raw)
        .arg(text)
        .status()
        .expect("espeak-ng runs (scripts/deps.sh installs it)");
    assert!(status.success(), "espeak-ng {voice} {text}");
    let wav = dir.join(format!("{name}.wav"));
    sox(
        &[raw.to_str().unwrap(), "-r", "16000", "-c", "1", "-b", "16"],
        &wav,
        &[],
    );
    wav
}

pub fn sox(input: &[&str], output: &Path, effects: &[&str]) {
    let status = Command::new("sox")
        .args(input)
        .arg(output)
        .args(effects)
        .status()
        .expect("sox runs (scripts/deps.sh installs it)");
    assert!(status.success(), "sox {input:?} {effects:?}");
}

/// A burst of noise between short silences: loud enough to be taken for
/// speech, and no move.
pub fn noise(dir: &Path) -> PathBuf {
    let wav = dir.join("noise.wav");
    let format = ["-R", "-n", "-r", "16000", "-c", "1", "-b", "16"];
    sox(
        &format,
        &wav,
        &[
            "synth",
            "0.3",
            "sine",
            "0",
            "synth",
            "1.2",
            "pinknoise",
            "vol",
            "0.3",
        ],
    );
    wav
}
