//! Voice input: a move (or a command) recognised from speech, offline,
//! through pocketsphinx (loaded at run time: Rochade starts without it)
//! with a grammar made anew for each position from its legal moves
//! (`rochade_core::voice_input`). German words are written in the English
//! model's phonemes (assets/voice-input/de.dict).

pub mod microphone;
#[cfg(unix)]
mod pocketsphinx;
pub mod wav;

use std::path::{Path, PathBuf};
use std::time::Duration;

#[cfg(unix)]
use rochade_core::voice_input::Grammar;
use rochade_core::voice_input::Heard;
use shakmaty::Chess;

use crate::words::{Lang, Pack};

/// Where Debian's pocketsphinx-en-us puts the English model.
pub const MODEL_DIR: &str = "/usr/share/pocketsphinx/model/en-us";

/// The environment variable naming another folder laid out as
/// [`MODEL_DIR`] is.
pub const MODEL_DIR_VARIABLE: &str = "ROCHADE_VOICE_MODEL";

/// pocketsphinx's settings besides the model and the dictionary.
pub const DECODER_OPTIONS: &[(&str, &str)] = &[
    ("-samprate", "16000"),
    // A recording's stretches of digital silence (zeros) would give
    // features of log(0), which ruin the feature mean: a little noise added
    // as pocketsphinx reads them.
    ("-dither", "yes"),
    // The 8 best Gaussians of each mixture scored instead of 4: tried with
    // the voice benchmark on its tuning seeds 11-15, German short form
    // 94 -> 95, letters 78 -> 80 of 100, English 283 -> 286 of 300
    // (docs/voice.md, "Measured").
    ("-topn", "8"),
    // Its log of every step would drown our output.
    ("-logfn", "/dev/null"),
];

/// Our pronunciations, before the model's dictionary.
const GERMAN_DICTIONARY: &str = include_str!("../../assets/voice-input/de.dict");
const ENGLISH_DICTIONARY: &str = include_str!("../../assets/voice-input/en.dict");

/// Why voice input cannot listen.
#[derive(Debug, thiserror::Error)]
pub enum VoiceError {
    #[error("voice input is not available on Windows yet")]
    NotOnThisSystem,
    #[error(
        "voice input needs pocketsphinx: install libpocketsphinx3 and pocketsphinx-en-us ({0})"
    )]
    NoLibrary(String),
    #[error(
        "voice input needs the English speech model: install pocketsphinx-en-us (nothing at {0})"
    )]
    NoModel(PathBuf),
    #[error("voice input understands German and English only, not {0}")]
    NoLanguage(Lang),
    #[error("the speech model's dictionary {0} cannot be read: {1}")]
    ModelDictionary(PathBuf, std::io::Error),
    #[error("voice input has no pronunciation for some words ({0})")]
    Words(#[from] rochade_core::voice_input::MissingWords),
    #[error("the dictionary for the recogniser cannot be written: {0}")]
    TempFile(std::io::Error),
    #[error("the recogniser failed: {0}")]
    Recogniser(String),
}

/// The files of the acoustic model and its dictionary.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Model {
    pub acoustic: PathBuf,
    pub dictionary: PathBuf,
}

impl Model {
    /// The model where Debian installs it, or in the folder
    /// [`MODEL_DIR_VARIABLE`] names (a model copied elsewhere; tests).
    pub fn find() -> Result<Model, VoiceError> {
        if cfg!(not(unix)) {
            // Before any search for the model: installing it would not help.
            return Err(VoiceError::NotOnThisSystem);
        }
        match std::env::var_os(MODEL_DIR_VARIABLE) {
            Some(dir) if !dir.is_empty() => Model::in_dir(Path::new(&dir)),
            _ => Model::in_dir(Path::new(MODEL_DIR)),
        }
    }

    /// The model in `dir` (`en-us/` and `cmudict-en-us.dict`, as the
    /// package lays them out), or why not.
    pub fn in_dir(dir: &Path) -> Result<Model, VoiceError> {
        let model = Model {
            acoustic: dir.join("en-us"),
            dictionary: dir.join("cmudict-en-us.dict"),
        };
        for needed in [model.acoustic.join("mdef"), model.dictionary.clone()] {
            if !needed.is_file() {
                return Err(VoiceError::NoModel(needed));
            }
        }
        Ok(model)
    }
}

/// [`DECODER_OPTIONS`] with `options` in place of those of the same name
/// and after them (pocketsphinx's parser refuses an option given twice).
fn decoder_settings(options: &[(String, String)]) -> Vec<(&str, &str)> {
    let mut settings: Vec<(&str, &str)> = DECODER_OPTIONS.to_vec();
    for (name, value) in options {
        match settings.iter_mut().find(|(n, _)| n == name) {
            Some(setting) => setting.1 = value,
            None => settings.push((name, value)),
        }
    }
    settings
}

/// One recognition.
#[derive(Clone, Debug, PartialEq)]
pub struct Recognition {
    /// Whether anything in the recording stood out from its quiet floor.
    pub speech: bool,
    /// The words recognised, if any.
    pub text: Option<String>,
    /// What they mean here, if anything.
    pub heard: Option<Heard>,
    /// The grammar made and set, and the speech decoded.
    pub decoding: Duration,
}

/// A recogniser for one language: the model loaded once, the grammar set
/// anew for each position.
pub struct Listener {
    pack: Pack,
    #[cfg(unix)]
    decoder: pocketsphinx::Decoder,
}

impl Listener {
    /// Loads pocketsphinx and `model` with the dictionary of every word
    /// voice input may hear in `lang` (the bundled pack's words: a user's
    /// changed word would have no pronunciation).
    pub fn new(lang: Lang, model: &Model) -> Result<Listener, VoiceError> {
        Listener::with_pronunciations(lang, model, None)
    }

    /// [`Listener::new`] with `first`'s pronunciations (the dictionary
    /// format) taking the place of the bundled ones for the words it has:
    /// how a pronunciation is tried out (the voice benchmark's
    /// `PRONUNCIATIONS`) before it goes into assets/voice-input.
    pub fn with_pronunciations(
        lang: Lang,
        model: &Model,
        first: Option<&str>,
    ) -> Result<Listener, VoiceError> {
        Listener::tuned(lang, model, first, &[])
    }

    /// [`Listener::with_pronunciations`] with `options` (pocketsphinx's
    /// command-line options, such as `("-lw", "8")`) taking the place of
    /// [`DECODER_OPTIONS`]' or added to them: how the decoder's settings are
    /// tried out (the voice benchmark's `DECODER_OPTIONS`) without a rebuild.
    pub fn tuned(
        lang: Lang,
        model: &Model,
        first: Option<&str>,
        options: &[(String, String)],
    ) -> Result<Listener, VoiceError> {
        let pack = Pack::bundled(lang);
        let words = rochade_core::voice_input::vocabulary(&pack);
        // With the grammar's reject path (noise, wordless speech).
        let words = words
            .iter()
            .map(String::as_str)
            .chain([rochade_core::voice_input::REJECT_NOISE]);
        let mut sources: Vec<&str> = first.into_iter().collect();
        let model_words;
        match lang {
            Lang::De => sources.push(GERMAN_DICTIONARY),
            Lang::En => {
                model_words = std::fs::read_to_string(&model.dictionary)
                    .map_err(|e| VoiceError::ModelDictionary(model.dictionary.clone(), e))?;
                sources.extend([ENGLISH_DICTIONARY, model_words.as_str()]);
            }
            Lang::Pt => return Err(VoiceError::NoLanguage(lang)),
        }
        sources.push(rochade_core::voice_input::REJECT_DICTIONARY);
        let dictionary = rochade_core::voice_input::dictionary(words, &sources)?;
        Listener::with_dictionary(pack, model, &dictionary, &decoder_settings(options))
    }

    #[cfg(unix)]
    fn with_dictionary(
        pack: Pack,
        model: &Model,
        dictionary: &str,
        settings: &[(&str, &str)],
    ) -> Result<Listener, VoiceError> {
        use std::io::Write;
        // pocketsphinx reads its dictionary from a file, once, in ps_init.
        let mut file = tempfile::NamedTempFile::new().map_err(VoiceError::TempFile)?;
        file.write_all(dictionary.as_bytes())
            .and_then(|()| file.flush())
            .map_err(VoiceError::TempFile)?;
        let path = |p: &Path| p.to_string_lossy().into_owned();
        let (acoustic, dict) = (path(&model.acoustic), path(file.path()));
        let mut options = vec![("-hmm", acoustic.as_str()), ("-dict", dict.as_str())];
        options.extend_from_slice(settings);
        let decoder = pocketsphinx::Decoder::new(&options).map_err(|e| match e {
            pocketsphinx::BindingError::Load(why) => VoiceError::NoLibrary(why),
            other => VoiceError::Recogniser(other.to_string()),
        })?;
        Ok(Listener { pack, decoder })
    }

    #[cfg(not(unix))]
    fn with_dictionary(
        _: Pack,
        _: &Model,
        _: &str,
        _: &[(&str, &str)],
    ) -> Result<Listener, VoiceError> {
        Err(VoiceError::NotOnThisSystem)
    }

    /// The language pack whose words are heard.
    pub fn pack(&self) -> &Pack {
        &self.pack
    }

    /// What `samples` (16 kHz mono) say in `pos`.
    #[cfg(unix)]
    pub fn listen(&mut self, pos: &Chess, samples: &[i16]) -> Result<Recognition, VoiceError> {
        let started = std::time::Instant::now();
        let grammar = Grammar::new(pos, &self.pack);
        let failed = |e: pocketsphinx::BindingError| VoiceError::Recogniser(e.to_string());
        self.decoder.set_grammar(&grammar.jsgf()).map_err(failed)?;
        // Only the speech and a margin: long silence or room noise around a
        // short move skews the recogniser's feature mean (batch CMN); no
        // speech at all is nothing heard (a grammar decoded on silence
        // still picks a phrase).
        let span = rochade_core::voice_input::speech_span(samples);
        let text = match span {
            Some(speech) => {
                let speech = rochade_core::voice_input::even_level(speech);
                // Digital silence lost words at the edges: a microphone's
                // faint hiss instead.
                let speech = rochade_core::voice_input::with_room_floor(&speech);
                self.decoder.decode(&speech).map_err(failed)?
            }
            None => None,
        };
        // Heard by the reject path: what was said fits no phrase; its
        // words are the recogniser's own, never shown.
        let text = text.filter(|t| !rochade_core::voice_input::is_rejected(t));
        let decoding = started.elapsed();
        let heard = text.as_deref().and_then(|t| grammar.interpret(t));
        Ok(Recognition {
            speech: span.is_some(),
            text,
            heard,
            decoding,
        })
    }

    #[cfg(not(unix))]
    pub fn listen(&mut self, _: &Chess, _: &[i16]) -> Result<Recognition, VoiceError> {
        Err(VoiceError::NotOnThisSystem)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_missing_model_says_which_package_to_install() {
        let dir = tempfile::tempdir().expect("temp dir");
        let e = Model::in_dir(dir.path()).expect_err("no model there");
        let text = e.to_string();
        assert!(text.contains("install pocketsphinx-en-us"), "{text}");
        assert!(text.contains(&dir.path().display().to_string()), "{text}");
    }

    #[test]
    fn tried_decoder_options_replace_the_defaults_of_their_name() {
        let tried = [("-topn", "6"), ("-lw", "8")].map(|(n, v)| (n.to_owned(), v.to_owned()));
        let settings = decoder_settings(&tried);
        assert_eq!(settings.len(), DECODER_OPTIONS.len() + 1);
        assert_eq!(settings.iter().filter(|(n, _)| *n == "-topn").count(), 1);
        assert!(settings.contains(&("-topn", "6")));
        assert_eq!(settings.last(), Some(&("-lw", "8")));
        assert!(settings.contains(&("-dither", "yes")));
        assert_eq!(decoder_settings(&[]), DECODER_OPTIONS.to_vec());
    }

    #[test]
    fn portuguese_is_refused_clearly() {
        let model = Model {
            acoustic: PathBuf::from("/nonexistent"),
            dictionary: PathBuf::from("/nonexistent"),
        };
        let e = Listener::new(Lang::Pt, &model).err().expect("refused");
        assert_eq!(
            e.to_string(),
            "voice input understands German and English only, not pt"
        );
    }
}
