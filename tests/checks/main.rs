//! Checks of the data and the code: words, Braille, exports against golden
//! files, the core's purity, audio and voice input: one test binary for 10
//! files, so that the suite links one program instead of one per file
//! (docs/testing.md, "CI's time"). Each file is a module; run one with
//! `cargo test --test checks <file>::`.

// Test support, shared by the files (each once: a file loaded twice is
// two copies of its types, and clippy denies it).
#[path = "../support/cli.rs"]
mod cli;
#[path = "../support/hermetic.rs"]
mod hermetic;
#[path = "../support/source.rs"]
mod source;
#[path = "../support/spoken_wav.rs"]
mod spoken_wav;

mod audio_alsa;
mod braille_unambiguous;
mod core_purity;
mod engine_flood;
mod export_golden;
mod message_keys;
mod one_language;
mod readme_packages;
mod speech_classes;
mod voice_listen;
