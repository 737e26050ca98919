//! System speech through the `tts` crate: speech-dispatcher on Linux,
//! WinRT/SAPI on Windows, AVFoundation on macOS. `tts::Tts` is not `Send`,
//! so a `SystemSpeech` is created and used on the speech thread only.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::sync::{Arc, Mutex};

use super::backend::{Finished, SpeechBackend, SpeechError, Spoken, VoiceSettings};
use super::queue::UtteranceKey;
use super::voice::{VoiceInfo, VoiceMatch, choose_voice};
use crate::session::Speech;
use crate::words::{Lang, Pack};

/// Engine utterance ids are only `Debug` on every platform, so they are
/// keyed by their debug text.
type EngineId = String;

#[derive(Default)]
struct Pending {
    /// Engine id -> our key, for utterances that have not ended yet.
    live: HashMap<EngineId, UtteranceKey>,
    /// Ends reported before `speak` returned the engine id.
    ended_early: HashSet<EngineId>,
}

pub struct SystemSpeech {
    tts: tts::Tts,
    finished: Finished,
    pending: Arc<Mutex<Pending>>,
    callbacks: bool,
    /// The utterance playing, for engines without end callbacks.
    /// Polling starts a moment after `speak`: engines report "speaking"
    /// only once the audio has begun.
    polled: Option<(UtteranceKey, std::time::Instant)>,
    settings: VoiceSettings,
    /// The voice set on the engine, and for which language.
    current: Option<(Lang, String)>,
    /// The chosen voice per language, with how it matched.
    chosen: BTreeMap<Lang, Option<(VoiceInfo, VoiceMatch)>>,
    voices: Vec<tts::Voice>,
}

impl SystemSpeech {
    /// Connects to the platform's speech engine (on Linux this starts
    /// speech-dispatcher if it is not running).
    pub fn new(finished: Finished) -> Result<SystemSpeech, SpeechError> {
        let tts =
            tts::Tts::default().map_err(|e| SpeechError::new(format!("system speech: {e}")))?;
        let voices = tts.voices().unwrap_or_default();
        let pending = Arc::new(Mutex::new(Pending::default()));
        let features = tts.supported_features();
        let mut callbacks = false;
        if features.utterance_callbacks {
            let on_end = |pending: Arc<Mutex<Pending>>, finished: Finished| {
                move |id: tts::UtteranceId| {
                    let id = format!("{id:?}");
                    let mut p = pending.lock().unwrap_or_else(|e| e.into_inner());
                    match p.live.remove(&id) {
                        Some(key) => finished.finished(key),
                        None => {
                            p.ended_early.insert(id);
                        }
                    }
                }
            };
            callbacks = tts
                .on_utterance_end(Some(Box::new(on_end(pending.clone(), finished.clone()))))
                .is_ok()
                && tts
                    .on_utterance_stop(Some(Box::new(on_end(pending.clone(), finished.clone()))))
                    .is_ok();
        }
        Ok(SystemSpeech {
            tts,
            finished,
            pending,
            callbacks,
            polled: None,
            settings: VoiceSettings::default(),
            current: None,
            chosen: BTreeMap::new(),
            voices,
        })
    }

    /// The voice this backend speaks `lang` with, and how it was matched;
    /// `None` when the engine has no voice for the language.
    pub fn voice_for(&mut self, lang: Lang) -> Option<(VoiceInfo, VoiceMatch)> {
        if let Some(c) = self.chosen.get(&lang) {
            return c.clone();
        }
        let infos = self.voices();
        let tag = Pack::load(lang)
            .map(|p| p.voice)
            .unwrap_or_else(|_| Pack::bundled(lang).voice);
        let choice = choose_voice(
            &infos,
            lang,
            &tag,
            self.settings.voices.get(&lang).map(String::as_str),
        )
        .map(|(v, m)| (v.clone(), m));
        self.chosen.insert(lang, choice.clone());
        choice
    }

    fn select_voice(&mut self, lang: Lang) -> Result<(), SpeechError> {
        let Some((info, _)) = self.voice_for(lang) else {
            // No voice for the language: speak with the engine's default
            // rather than stay silent; the service warns about it.
            return Ok(());
        };
        if self
            .current
            .as_ref()
            .is_some_and(|(l, id)| *l == lang && *id == info.id)
        {
            return Ok(());
        }
        let voice = self.voices.iter().find(|v| v.id() == info.id).cloned();
        if let Some(voice) = voice {
            self.tts
                .set_voice(&voice)
                .map_err(|e| SpeechError::new(format!("cannot select voice {}: {e}", info.name)))?;
            self.current = Some((lang, info.id));
        }
        Ok(())
    }
}

impl SpeechBackend for SystemSpeech {
    fn name(&self) -> String {
        let engine = if cfg!(target_os = "linux") {
            "speech-dispatcher"
        } else if cfg!(windows) {
            "Windows speech"
        } else if cfg!(target_os = "macos") {
            "macOS speech"
        } else {
            "platform speech"
        };
        format!("system speech ({engine})")
    }

    fn speak(&mut self, key: UtteranceKey, speech: &Speech) -> Result<Spoken, SpeechError> {
        self.select_voice(speech.lang)?;
        let id = self
            .tts
            .speak(speech.text.spoken.as_str(), false)
            .map_err(|e| SpeechError::new(format!("system speech: {e}")))?;
        match (id, self.callbacks) {
            (Some(id), true) => {
                let id = format!("{id:?}");
                let mut p = self.pending.lock().unwrap_or_else(|e| e.into_inner());
                if p.ended_early.remove(&id) {
                    return Ok(Spoken::over(Vec::new()));
                }
                p.live.insert(id, key);
            }
            _ => self.polled = Some((key, std::time::Instant::now())),
        }
        Ok(Spoken::playing(Vec::new()))
    }

    fn stop(&mut self) -> Result<(), SpeechError> {
        self.tts
            .stop()
            .map_err(|e| SpeechError::new(format!("system speech: {e}")))?;
        if let Some((key, _)) = self.polled.take() {
            self.finished.finished(key);
        }
        Ok(())
    }

    fn is_speaking(&self) -> bool {
        self.tts.is_speaking().unwrap_or(false)
    }

    fn voices(&self) -> Vec<VoiceInfo> {
        self.voices
            .iter()
            .map(|v| VoiceInfo {
                id: v.id(),
                name: v.name(),
                language: v.language().to_string(),
            })
            .collect()
    }

    fn apply_settings(&mut self, settings: &VoiceSettings) -> Result<(), SpeechError> {
        let t = &mut self.tts;
        let f = t.supported_features();
        let err =
            |what: &str, e: tts::Error| SpeechError::new(format!("system speech {what}: {e}"));
        if f.rate {
            let v =
                VoiceSettings::scale(settings.rate, t.min_rate(), t.normal_rate(), t.max_rate());
            t.set_rate(v).map_err(|e| err("rate", e))?;
        }
        if f.pitch {
            let v = VoiceSettings::scale(
                settings.pitch,
                t.min_pitch(),
                t.normal_pitch(),
                t.max_pitch(),
            );
            t.set_pitch(v).map_err(|e| err("pitch", e))?;
        }
        if f.volume {
            let v = t.min_volume()
                + (t.max_volume() - t.min_volume()) * settings.volume.clamp(0.0, 1.0);
            t.set_volume(v).map_err(|e| err("volume", e))?;
        }
        if settings.voices != self.settings.voices {
            self.chosen.clear();
            self.current = None;
        }
        self.settings = settings.clone();
        Ok(())
    }

    fn poll(&mut self) {
        let grace = std::time::Duration::from_millis(500);
        if let Some((key, started)) = self.polled
            && started.elapsed() > grace
            && !self.is_speaking()
        {
            self.polled = None;
            self.finished.finished(key);
        }
    }
}
