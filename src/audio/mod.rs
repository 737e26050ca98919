//! Sound: synthesised earcons, the output thread that plays them and the
//! clip voice's words, WAV clips, and microphone recording for users who
//! record their own clips.
//!
//! [`earcon`] (from the core crate) and [`clip`] are pure; [`player`] and
//! [`record`] are the shell around `cpal`.

pub use rochade_core::audio::earcon;

pub mod clip;
pub mod player;
pub mod record;

pub use clip::{CLIP_RATE, Clip};
pub use earcon::{
    dominant_frequency, earcon_dominant_hz, earcon_duration_ms, earcon_pattern, earcon_samples,
};
pub use player::{AudioOut, DoneCallback, EarconSettings};
pub use record::{MicRecorder, record_for, start_recording};

/// A sound device or file problem, in words for the user.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct AudioError(pub String);

impl AudioError {
    pub fn new(message: impl Into<String>) -> AudioError {
        AudioError(message.into())
    }
}
