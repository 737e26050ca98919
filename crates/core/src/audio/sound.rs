//! Sound's vocabulary: the short synthesised sounds the session asks for.
//! Below the session, so that the synthesis ([`super::earcon`]) and the
//! shell's audio thread need nothing of the session's.

use serde::Serialize;

/// A short synthesised sound. Each can be switched off in the settings.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
#[derive(strum::EnumCount, strum::VariantArray)]
pub enum Earcon {
    Touched,
    MoveAccepted,
    Illegal,
    Mismatch,
    InSync,
    LinkLost,
    LinkRestored,
    LowTime,
    FlagFall,
}

impl Earcon {
    /// Every variant, in declaration order (derived, so none is left out).
    pub const ALL: [Earcon; <Earcon as strum::EnumCount>::COUNT] =
        *<Earcon as strum::VariantArray>::VARIANTS
            .first_chunk()
            .expect("every variant");
}
