//! Sound, the pure part: the earcons ([`sound`]) and their synthesis. The output thread, WAV
//! clips and microphone recording are the shell's (the `rochade` crate's
//! `audio` module).

pub mod earcon;
pub mod sound;

pub use earcon::{
    dominant_frequency, earcon_dominant_hz, earcon_duration_ms, earcon_pattern, earcon_samples,
};
pub use sound::Earcon;
