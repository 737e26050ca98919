//! Reading the user's language packs from the config folder (the shell's
//! part of [`super`]; the session only ever receives a finished [`Pack`]).

use std::path::{Path, PathBuf};

use super::{Lang, Pack, PackError};

/// Loading a [`Pack`] from the bundled words and the user's folder: a
/// trait because [`Pack`] lives in the core crate, which reads no files.
pub trait LoadPack: Sized {
    /// The bundled pack merged with the user's override from
    /// `<config>/speech/<lang>.toml`, if present.
    fn load(lang: Lang) -> Result<Self, PackError>;

    /// The bundled pack merged with `<dir>/<lang>.toml` when that file exists.
    fn load_with_override_dir(lang: Lang, dir: Option<&Path>) -> Result<Self, PackError>;

    /// As [`LoadPack::load_with_override_dir`]; a broken user pack falls
    /// back to the bundled one and its error comes alongside, for the shell
    /// to report.
    fn load_or_bundled(lang: Lang, dir: Option<&Path>) -> (Self, Option<PackError>);
}

impl LoadPack for Pack {
    fn load(lang: Lang) -> Result<Pack, PackError> {
        Self::load_with_override_dir(lang, user_pack_dir().as_deref())
    }

    fn load_with_override_dir(lang: Lang, dir: Option<&Path>) -> Result<Pack, PackError> {
        let Some(path) = dir.map(|d| d.join(format!("{}.toml", lang.code()))) else {
            return Ok(Pack::bundled(lang));
        };
        // Only a regular file of a sensible size: a link to /dev/zero or a
        // FIFO is refused at once, never read for ever.
        match crate::read_capped::read_text_capped(&path, crate::read_capped::WORDS_CAP) {
            Ok(text) => Pack::with_override(lang, &text, &path.display().to_string()),
            Err(e) if e.is_not_found() => Ok(Pack::bundled(lang)),
            Err(e) => Err(PackError {
                origin: path.display().to_string(),
                message: e.to_string(),
            }),
        }
    }

    fn load_or_bundled(lang: Lang, dir: Option<&Path>) -> (Pack, Option<PackError>) {
        match Pack::load_with_override_dir(lang, dir) {
            Ok(pack) => (pack, None),
            Err(e) => (Pack::bundled(lang), Some(e)),
        }
    }
}

/// The folder of the user's packs: `<config>/speech`.
pub fn user_pack_dir() -> Option<PathBuf> {
    crate::paths::config_dir().map(|d| d.join("speech"))
}

/// Where user packs live, for messages and docs.
pub fn user_pack_path(lang: Lang) -> Option<PathBuf> {
    user_pack_dir().map(|d| d.join(format!("{}.toml", lang.code())))
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::File;

    #[test]
    fn user_override_replaces_single_words_and_keeps_the_rest() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("de.toml"), "[files]\nc = \"Caesar\"\n").unwrap();
        let pack = Pack::load_with_override_dir(Lang::De, Some(dir.path())).unwrap();
        assert_eq!(pack.file(File::C).written, "Caesar");
        assert_eq!(pack.file(File::D).written, "David");
    }

    #[test]
    fn broken_user_pack_names_the_file() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("pt.toml"), "[files\n").unwrap();
        let err = Pack::load_with_override_dir(Lang::Pt, Some(dir.path())).unwrap_err();
        assert!(err.to_string().contains("pt.toml"), "{err}");
        let (pack, error) = Pack::load_or_bundled(Lang::Pt, Some(dir.path()));
        assert!(error.is_some());
        assert_eq!(
            pack.file(File::A).written,
            Pack::bundled(Lang::Pt).file(File::A).written
        );
    }
}
