//! The clip voice: each vocabulary word of a language pack as a short WAV
//! clip, played one after another. It speaks the Appendix E words on any
//! machine with sound but no speech engine, and users can record their own
//! clips (many blind players prefer a familiar human voice).
//!
//! A clip's file name is the word normalised: lower case, ASCII, letters
//! and digits only ("Läufer" -> `laeufer.wav`, "fünf" -> `fuenf.wav`).
//! Clips are looked up first in the user's folder
//! (`<data dir>/voice/<lang>/`, where recorded clips go), then among the
//! clips bundled into the binary (`assets/voice/<lang>/`).

use std::collections::{BTreeMap, HashMap};
use std::path::PathBuf;

use super::backend::{Finished, SpeechBackend, SpeechError, Spoken, VoiceSettings};
use super::queue::UtteranceKey;
use super::voice::VoiceInfo;
use crate::audio::{AudioOut, Clip};
use crate::session::Speech;
use crate::words::{Lang, Pack};

/// Numbers the vocabulary covers, for clock readings ("29 Minuten").
pub const NUMBER_RANGE: std::ops::RangeInclusive<u32> = 0..=59;

/// Silence between words, in milliseconds.
pub const WORD_GAP_MS: u32 = 70;

/// Lower case, ASCII letters and digits only; umlauts spelt out the German
/// way and other accents dropped, so file names work on every system.
pub fn normalise_word(word: &str) -> String {
    let mut out = String::new();
    for c in word.chars().flat_map(char::to_lowercase) {
        match c {
            'a'..='z' | '0'..='9' => out.push(c),
            'ä' => out.push_str("ae"),
            'ö' => out.push_str("oe"),
            'ü' => out.push_str("ue"),
            'ß' => out.push_str("ss"),
            'á' | 'à' | 'â' | 'ã' => out.push('a'),
            'é' | 'è' | 'ê' | 'ë' => out.push('e'),
            'í' | 'ì' | 'î' | 'ï' => out.push('i'),
            'ó' | 'ò' | 'ô' | 'õ' => out.push('o'),
            'ú' | 'ù' | 'û' => out.push('u'),
            'ç' => out.push('c'),
            'ñ' => out.push('n'),
            _ => {}
        }
    }
    out
}

/// Splits text into the words a clip voice says: runs of letters and
/// digits ("75-Züge-Regel" is "75", "Züge", "Regel"); `{placeholders}` of
/// phrase templates are left out.
pub fn split_words(text: &str) -> Vec<&str> {
    let mut words = Vec::new();
    let mut in_placeholder = false;
    let mut start = None;
    for (i, c) in text.char_indices() {
        let is_word = c.is_alphanumeric() && !in_placeholder;
        match (is_word, start) {
            (true, None) => start = Some(i),
            (false, Some(s)) => {
                words.push(&text[s..i]);
                start = None;
            }
            _ => {}
        }
        if c == '{' {
            in_placeholder = true;
        } else if c == '}' {
            in_placeholder = false;
        }
    }
    if let Some(s) = start {
        words.push(&text[s..]);
    }
    words
}

/// Every word the clip voice of `pack` must know, as (clip name, spoken
/// form) pairs in a stable order: the numbers 0..=59, then the pack's
/// files, ranks, pieces, terms and the words in its phrases.
pub fn vocabulary(pack: &Pack) -> Vec<(String, String)> {
    let mut seen = BTreeMap::new();
    let mut out = Vec::new();
    let mut add = |spoken: &str| {
        let name = normalise_word(spoken);
        if !name.is_empty() && seen.insert(name.clone(), ()).is_none() {
            out.push((name, spoken.to_owned()));
        }
    };
    for n in NUMBER_RANGE {
        add(&n.to_string());
    }
    for word in pack.all_words() {
        for w in split_words(&word.spoken) {
            add(w);
        }
    }
    out
}

/// Where the user's own clips for `lang` live (recorded from the app).
pub fn user_clip_dir(lang: Lang) -> Option<PathBuf> {
    crate::paths::data_dir().map(|d| d.join("voice").join(lang.code()))
}

/// Saves a recorded take as the user's clip for `word` (any spelling; it
/// is normalised) and returns the file written. The take is trimmed,
/// resampled to 16 kHz and normalised first.
pub fn save_user_clip(lang: Lang, word: &str, take: &Clip) -> Result<PathBuf, SpeechError> {
    let dir =
        user_clip_dir(lang).ok_or_else(|| SpeechError::new("no data folder for recorded clips"))?;
    save_clip_in(&dir, word, take)
}

/// Like [`save_user_clip`] into an explicit folder.
pub fn save_clip_in(
    dir: &std::path::Path,
    word: &str,
    take: &Clip,
) -> Result<PathBuf, SpeechError> {
    let name = normalise_word(word);
    if name.is_empty() {
        return Err(SpeechError::new(format!(
            "'{word}' has no letters or digits to name a clip after"
        )));
    }
    let clip = take
        .prepared_for_voice()
        .ok_or_else(|| SpeechError::new("the recording is silent"))?;
    std::fs::create_dir_all(dir)
        .map_err(|e| SpeechError::new(format!("{}: {e}", dir.display())))?;
    let path = dir.join(format!("{name}.wav"));
    clip.write_wav(&path)
        .map_err(|e| SpeechError::new(e.to_string()))?;
    Ok(path)
}

/// Finds and caches clips for one language.
pub struct ClipStore {
    lang: Lang,
    user_dir: Option<PathBuf>,
    cache: HashMap<String, Option<Clip>>,
}

impl ClipStore {
    pub fn new(lang: Lang, user_dir: Option<PathBuf>) -> ClipStore {
        ClipStore {
            lang,
            user_dir,
            cache: HashMap::new(),
        }
    }

    /// The user's folder first, then the bundled clips.
    pub fn for_lang(lang: Lang) -> ClipStore {
        ClipStore::new(lang, user_clip_dir(lang))
    }

    pub fn get(&mut self, name: &str) -> Option<&Clip> {
        if !self.cache.contains_key(name) {
            let clip = self.load(name);
            self.cache.insert(name.to_owned(), clip);
        }
        self.cache.get(name).and_then(Option::as_ref)
    }

    fn load(&self, name: &str) -> Option<Clip> {
        let user = self
            .user_dir
            .as_ref()
            .map(|d| d.join(format!("{name}.wav")));
        if let Some(path) = user.filter(|p| p.exists()) {
            match Clip::read_wav(&path) {
                Ok(c) => return Some(c),
                Err(e) => eprintln!("rochade: ignoring unreadable clip {e}"),
            }
        }
        super::bundled_clips::bundled_clip(self.lang, name)
            .and_then(|bytes| Clip::from_wav_bytes(bytes).ok())
    }

    /// The clips for `text` joined into one buffer at `rate`, with a short
    /// gap between words, plus the words that have no clip.
    pub fn render(&mut self, text: &str, rate: u32) -> (Vec<f32>, Vec<String>) {
        let mut out = Vec::new();
        let mut missing = Vec::new();
        let gap = (rate as u64 * WORD_GAP_MS as u64 / 1000) as usize;
        for word in split_words(text) {
            let name = normalise_word(word);
            match self.get(&name) {
                Some(clip) => {
                    if !out.is_empty() {
                        out.resize(out.len() + gap, 0.0);
                    }
                    out.extend(clip.resampled(rate).samples);
                }
                None => missing.push(word.to_owned()),
            }
        }
        (out, missing)
    }

    /// How many of the pack's vocabulary words have a clip.
    pub fn coverage(&mut self, pack: &Pack) -> (usize, usize) {
        let vocab = vocabulary(pack);
        let have = vocab
            .iter()
            .filter(|(name, _)| self.get(name).is_some())
            .count();
        (have, vocab.len())
    }
}

/// Whether clips exist for `lang` at all (bundled or recorded).
pub fn has_clips(lang: Lang) -> bool {
    super::bundled_clips::bundled_count(lang) > 0
        || user_clip_dir(lang).is_some_and(|d| {
            std::fs::read_dir(d).is_ok_and(|mut r| {
                r.any(|e| e.is_ok_and(|e| e.path().extension().is_some_and(|x| x == "wav")))
            })
        })
}

/// The clip voice backend.
pub struct ClipVoice {
    out: AudioOut,
    stores: BTreeMap<Lang, ClipStore>,
    finished: Finished,
    volume: f32,
}

impl ClipVoice {
    pub fn new(out: AudioOut, finished: Finished) -> ClipVoice {
        ClipVoice {
            out,
            stores: BTreeMap::new(),
            finished,
            volume: 1.0,
        }
    }

    /// Opens the default sound output.
    pub fn open(finished: Finished) -> Result<ClipVoice, SpeechError> {
        let out = AudioOut::open().map_err(|e| SpeechError::new(format!("clip voice: {e}")))?;
        Ok(ClipVoice::new(out, finished))
    }

    pub fn audio(&self) -> &AudioOut {
        &self.out
    }
}

impl SpeechBackend for ClipVoice {
    fn name(&self) -> String {
        "clip voice".into()
    }

    fn speak(&mut self, key: UtteranceKey, speech: &Speech) -> Result<Spoken, SpeechError> {
        let rate = self.out.sample_rate();
        let store = self
            .stores
            .entry(speech.lang)
            .or_insert_with(|| ClipStore::for_lang(speech.lang));
        let (mut samples, missing) = store.render(&speech.text.spoken, rate);
        if samples.is_empty() {
            return Ok(Spoken::over(missing));
        }
        if self.volume < 1.0 {
            samples.iter_mut().for_each(|s| *s *= self.volume);
        }
        let finished = self.finished.clone();
        self.out
            .play_speech(samples, Some(Box::new(move || finished.finished(key))));
        Ok(Spoken::playing(missing))
    }

    fn stop(&mut self) -> Result<(), SpeechError> {
        self.out.stop_speech();
        Ok(())
    }

    fn is_speaking(&self) -> bool {
        self.out.is_speaking()
    }

    fn voices(&self) -> Vec<VoiceInfo> {
        Vec::new()
    }

    fn apply_settings(&mut self, settings: &VoiceSettings) -> Result<(), SpeechError> {
        // Rate and pitch would need time-stretching; clips play as recorded.
        self.volume = settings.volume.clamp(0.0, 1.0);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_are_normalised_to_ascii_file_names() {
        assert_eq!(normalise_word("Läufer"), "laeufer");
        assert_eq!(normalise_word("fünf"), "fuenf");
        assert_eq!(normalise_word("Weiß"), "weiss");
        assert_eq!(normalise_word("Peão"), "peao");
        assert_eq!(normalise_word("Bispo,"), "bispo");
        assert_eq!(normalise_word("59"), "59");
    }

    #[test]
    fn text_splits_into_words_without_placeholders() {
        assert_eq!(split_words("75-Züge-Regel"), ["75", "Züge", "Regel"]);
        assert_eq!(
            split_words("{side}: {remaining} übrig, {used} verbraucht"),
            ["übrig", "verbraucht"]
        );
        assert_eq!(
            split_words("Springer schlägt Eva fünf, Schach!"),
            ["Springer", "schlägt", "Eva", "fünf", "Schach"]
        );
    }

    #[test]
    fn german_vocabulary_has_the_appendix_e_words_and_numbers() {
        let vocab = vocabulary(&Pack::bundled(Lang::De));
        let names: Vec<&str> = vocab.iter().map(|(n, _)| n.as_str()).collect();
        for w in [
            "anna", "hector", "eins", "fuenf", "acht", "koenig", "laeufer", "springer", "schlaegt",
            "schach", "matt",
        ] {
            assert!(names.contains(&w), "missing {w}");
        }
        for n in 0..=59 {
            assert!(
                names.contains(&n.to_string().as_str()),
                "missing number {n}"
            );
        }
        let fuenf = vocab.iter().find(|(n, _)| n == "fuenf").unwrap();
        assert_eq!(fuenf.1, "fünf", "clips are made from the spoken form");
        let mut sorted = names.clone();
        sorted.sort();
        sorted.dedup();
        assert_eq!(sorted.len(), names.len(), "no duplicate clip names");
    }

    #[test]
    fn every_german_vocabulary_word_has_a_bundled_clip() {
        let pack = Pack::bundled(Lang::De);
        let mut store = ClipStore::new(Lang::De, None);
        let missing: Vec<String> = vocabulary(&pack)
            .into_iter()
            .filter(|(n, _)| store.get(n).is_none())
            .map(|(n, _)| n)
            .collect();
        assert!(
            missing.is_empty(),
            "no clip for {missing:?}: run scripts/make-voice-clips"
        );
    }

    #[test]
    fn bundled_clips_are_small_mono_16_khz_and_not_silent() {
        let mut store = ClipStore::new(Lang::De, None);
        for (name, _) in vocabulary(&Pack::bundled(Lang::De)) {
            let clip = store
                .get(&name)
                .unwrap_or_else(|| panic!("no clip {name}"))
                .clone();
            assert_eq!(clip.rate, crate::audio::CLIP_RATE, "{name}");
            assert!(clip.peak() > 0.1, "{name} is silent");
            assert!(
                clip.duration_ms() < 2500,
                "{name} is {} ms long",
                clip.duration_ms()
            );
        }
    }

    #[test]
    fn rendering_joins_clips_and_reports_unknown_words() {
        let mut store = ClipStore::new(Lang::De, None);
        let (one, _) = store.render("Springer", 16_000);
        let (two, missing) = store.render("Springer Xylophon Springer", 16_000);
        assert_eq!(missing, ["Xylophon"]);
        let gap = 16_000 * WORD_GAP_MS as usize / 1000;
        assert_eq!(two.len(), 2 * one.len() + gap);
    }

    #[test]
    fn a_user_clip_overrides_the_bundled_one() {
        let dir = tempfile::tempdir().unwrap();
        let take = Clip::new(
            (0..8000).map(|i| (i as f32 / 3.0).sin() * 0.5).collect(),
            16_000,
        );
        let path = save_clip_in(dir.path(), "Springer", &take).unwrap();
        assert!(path.ends_with("springer.wav"));
        let mut store = ClipStore::new(Lang::De, Some(dir.path().to_path_buf()));
        let user = store.get("springer").unwrap().clone();
        assert_eq!(
            user.samples.len(),
            Clip::read_wav(&path).unwrap().samples.len()
        );
        let mut bundled = ClipStore::new(Lang::De, None);
        assert_ne!(
            bundled.get("springer").unwrap().samples.len(),
            user.samples.len()
        );
        assert!(save_clip_in(dir.path(), "Springer", &Clip::new(vec![0.0; 100], 16_000)).is_err());
    }
}
