//! Language packs: every spoken or written word the app uses for chess.
//!
//! A pack is a TOML file under `assets/speech/<lang>.toml`. Each word has a
//! written form (ASCII-safe, for scoresheets and Braille: "fuenf") and a
//! spoken form (for speech engines: "fünf"). The bundled packs are built
//! in; a user's correction reaches [`Pack::with_override`] as text read by
//! the shell (the `rochade` crate's `words::LoadPack`).

mod check;
mod pack;
mod render;

pub use check::WordFault;
pub use pack::{Ambiguity, Lang, Pack, PackError, REQUIRED_TERMS, UnknownLang, Word, role_key};
pub use render::{Form, Token, Utterance};
