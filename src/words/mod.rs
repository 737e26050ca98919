//! Language packs: every spoken or written word the app uses for chess.
//!
//! A pack is a TOML file under `assets/speech/<lang>.toml`. Each word has a
//! written form (ASCII-safe, for scoresheets and Braille: "fuenf") and a
//! spoken form (for speech engines: "fünf"). A user can correct any word
//! without a rebuild: a file with the same name in the user's config folder
//! (`<config>/speech/<lang>.toml`) is merged over the bundled pack, key by
//! key, so it only needs the words it changes.
//!
//! The packs and their rendering are in the core crate; loading the user's
//! files is here, in the shell ([`LoadPack`]).

pub use rochade_core::words::{
    Ambiguity, Form, Lang, Pack, PackError, Token, UnknownLang, Utterance, Word, role_key,
};

mod load;

pub use load::{LoadPack, user_pack_dir, user_pack_path};
