//! System speech through the `tts` crate: speech-dispatcher on Linux,
//! WinRT/SAPI on Windows, AVFoundation on macOS. `tts::Tts` is not `Send`,
//! so a `SystemSpeech` is created and used on the speech thread only.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::sync::{Arc, Mutex};

use super::backend::{Finished, SpeechBackend, SpeechError, Spoken, VoiceSettings};
use super::queue::UtteranceKey;
use super::voice::{VoiceInfo, VoiceMatch, choose_voice};
use crate::session::Speech;
use crate::words::LoadPack;
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
    /// Our speech-dispatcher connection is playing something.
    #[cfg(target_os = "linux")]
    spd_speaking: bool,
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
    /// On Linux, a speech-dispatcher connection of our own that says each
    /// utterance at its class's priority ([`spd_priority`]); `tts` can
    /// only say everything as "important".
    #[cfg(target_os = "linux")]
    spd: Option<speech_dispatcher::Connection>,
}

/// The speech-dispatcher priority of each class: never higher than needed.
/// A screen reader (Orca) speaks at "message".
/// * alerts (flag fall, illegal move, link lost) are "important": they cut
///   through anything, also a screen reader's speech;
/// * everything else is "message", as a screen reader's own speech: never
///   dropped by speech-dispatcher, it waits for speech of the same level
///   already playing. (Answers and guidance were "text", which gives way
///   to any "message": next to Orca, "Partie fortgesetzt" and "Letzter
///   Zug" were thrown away whenever Orca spoke, silently. Which answer is
///   stale is decided by the app's own queue, which sends one utterance at
///   a time.)
#[cfg(target_os = "linux")]
pub fn spd_priority(priority: crate::session::Priority) -> speech_dispatcher::Priority {
    use crate::session::Priority as P;
    match priority {
        P::Alert => speech_dispatcher::Priority::Important,
        P::Question | P::Move | P::Answer | P::Info | P::Guidance => {
            speech_dispatcher::Priority::Message
        }
    }
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
        #[cfg(target_os = "linux")]
        let spd = open_spd(&pending, &finished);
        #[cfg(target_os = "linux")]
        let callbacks = callbacks || spd.is_some();
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
            #[cfg(target_os = "linux")]
            spd,
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
        #[cfg(target_os = "linux")]
        if let Some(spd) = &self.spd {
            let voice = speech_dispatcher::Voice {
                name: info.id.clone(),
                language: info.language.clone(),
                variant: None,
            };
            spd.set_synthesis_voice(&voice)
                .map_err(|e| SpeechError::new(format!("cannot select voice {}: {e}", info.name)))?;
            // Everything is said through this connection, so the voice is
            // set. Not through `tts` as well: its `set_voice` first lists
            // the engine's voices, a request speech-dispatcher answers only
            // when the module has finished speaking, which held a move
            // behind 2-3 s of guidance in another language.
            self.current = Some((lang, info.id));
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
        #[cfg(target_os = "linux")]
        if let Some(spd) = &self.spd {
            let id = spd
                .say(spd_priority(speech.priority), speech.text.spoken.as_str())
                .ok_or_else(|| SpeechError::new("speech-dispatcher refused the text"))?;
            let id = spd_id(id);
            let mut p = self.pending.lock().unwrap_or_else(|e| e.into_inner());
            if p.ended_early.remove(&id) {
                return Ok(Spoken::over(Vec::new()));
            }
            p.live.insert(id, key);
            return Ok(Spoken::playing(Vec::new()));
        }
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
        #[cfg(target_os = "linux")]
        if let Some(spd) = &self.spd {
            spd.cancel()
                .map_err(|e| SpeechError::new(format!("speech-dispatcher: {e}")))?;
        }
        self.tts
            .stop()
            .map_err(|e| SpeechError::new(format!("system speech: {e}")))?;
        if let Some((key, _)) = self.polled.take() {
            self.finished.finished(key);
        }
        Ok(())
    }

    fn is_speaking(&self) -> bool {
        #[cfg(target_os = "linux")]
        if self.spd.is_some() {
            return self
                .pending
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .spd_speaking;
        }
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
        #[cfg(target_os = "linux")]
        if let Some(spd) = &self.spd {
            // speech-dispatcher's own scale: -100 ..= 100, 0 normal.
            let scale = |v: f32| VoiceSettings::scale(v, -100.0, 0.0, 100.0).round() as i32;
            let spd_err = |e| SpeechError::new(format!("speech-dispatcher: {e}"));
            spd.set_voice_rate(scale(settings.rate)).map_err(spd_err)?;
            spd.set_voice_pitch(scale(settings.pitch))
                .map_err(spd_err)?;
            let volume = (-100.0 + 200.0 * settings.volume.clamp(0.0, 1.0)).round() as i32;
            spd.set_volume(volume).map_err(spd_err)?;
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

#[cfg(target_os = "linux")]
fn spd_id(msg_id: u64) -> EngineId {
    format!("spd:{msg_id}")
}

/// Opens our own speech-dispatcher connection with end and cancel
/// callbacks; `None` (and `tts` speaks) when it cannot be opened.
#[cfg(target_os = "linux")]
fn open_spd(
    pending: &Arc<Mutex<Pending>>,
    finished: &Finished,
) -> Option<speech_dispatcher::Connection> {
    let conn = speech_dispatcher::Connection::open(
        "rochade",
        "rochade",
        "rochade",
        speech_dispatcher::Mode::Threaded,
    )
    .ok()?;
    let on_end = |pending: Arc<Mutex<Pending>>, finished: Finished| {
        move |msg_id: usize, _client: usize| {
            let id = spd_id(msg_id as u64);
            let mut p = pending.lock().unwrap_or_else(|e| e.into_inner());
            p.spd_speaking = false;
            match p.live.remove(&id) {
                Some(key) => finished.finished(key),
                None => {
                    p.ended_early.insert(id);
                }
            }
        }
    };
    let begun = pending.clone();
    conn.on_begin(Some(Box::new(move |_msg_id: usize, _client: usize| {
        begun.lock().unwrap_or_else(|e| e.into_inner()).spd_speaking = true;
    })));
    conn.on_end(Some(Box::new(on_end(pending.clone(), finished.clone()))));
    conn.on_cancel(Some(Box::new(on_end(pending.clone(), finished.clone()))));
    Some(conn)
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::*;
    use crate::session::Priority;
    use speech_dispatcher::Priority as Spd;

    #[test]
    fn only_alerts_use_speech_dispatchers_top_priority() {
        let p = |x| spd_priority(x) as u32;
        assert_eq!(p(Priority::Alert), Spd::Important as u32);
        assert_eq!(p(Priority::Move), Spd::Message as u32);
        // No louder than the screen reader's own speech, and never dropped
        // when it speaks ("text" was).
        for other in [
            Priority::Question,
            Priority::Answer,
            Priority::Info,
            Priority::Guidance,
        ] {
            assert_eq!(p(other), Spd::Message as u32);
        }
    }
}
