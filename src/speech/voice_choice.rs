//! Which voice speaks: the configured backend started on its worker, and
//! the one that takes over when a voice stops answering (the clip voice
//! after system speech, silence after the clip voice).

use std::sync::mpsc;

use super::backend::{Finished, Msg, RecordingBackend, Silence, SpeechBackend, SpeechError};
use super::clips::{ClipVoice, has_clips};
use super::system::SystemSpeech;
use super::watchdog::{Deadlines, Started, Worker};

pub use super::backend::{BackendChoice, SpeechConfig};

/// Starts the configured backend on a worker thread.
pub(super) fn start_voice(
    config: &SpeechConfig,
    tx: &mpsc::Sender<Msg>,
    deadlines: Deadlines,
) -> Result<(Worker, Started), SpeechError> {
    let finished = Finished(tx.clone());
    let config2 = config.clone();
    Worker::start(
        Box::new(move || make_backend(&config2, finished)),
        config.settings.clone(),
        deadlines.start,
    )
}

/// What speaks when `from` stopped answering: the clip voice after system
/// speech, silence after the clip voice (and after silence, nothing new).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NextVoice {
    Clips,
    Silence,
    /// Recording backends (tests) fall back to a recorder that never hangs.
    Recorder,
    None,
}

pub fn next_voice(from: &str, recording: bool, lang_has_clips: bool) -> NextVoice {
    if recording {
        return if from == "recording (fallback)" {
            NextVoice::None
        } else {
            NextVoice::Recorder
        };
    }
    match from {
        "silence" => NextVoice::None,
        "clip voice" => NextVoice::Silence,
        _ if lang_has_clips => NextVoice::Clips,
        _ => NextVoice::Silence,
    }
}

pub(super) fn make_backend(
    config: &SpeechConfig,
    finished: Finished,
) -> Result<(Box<dyn SpeechBackend>, Vec<String>), SpeechError> {
    let lang = config.lang;
    Ok(match &config.backend {
        BackendChoice::System => (Box::new(SystemSpeech::new(finished)?), Vec::new()),
        BackendChoice::Clips => (Box::new(ClipVoice::open(finished)?), Vec::new()),
        BackendChoice::Silent => (Box::new(Silence), Vec::new()),
        BackendChoice::Recording(log) => (
            Box::new(RecordingBackend::new(log.clone(), finished)),
            Vec::new(),
        ),
        BackendChoice::Auto => {
            let mut notes = Vec::new();
            let mut fallback_system = None;
            match SystemSpeech::new(finished.clone()) {
                Ok(mut system) => {
                    system.apply_settings(&config.settings)?;
                    match system.voice_for(lang) {
                        Some((v, _)) => {
                            notes.push(format!(
                                "system voice for {lang}: {} ({})",
                                v.name, v.language
                            ));
                            return Ok((Box::new(system), notes));
                        }
                        None => {
                            notes.push(format!("the system speech has no voice for {lang}"));
                            fallback_system = Some(system);
                        }
                    }
                }
                Err(e) => notes.push(e.to_string()),
            }
            if has_clips(lang) {
                match ClipVoice::open(finished.clone()) {
                    Ok(clips) => {
                        notes.push(format!("using the clip voice for {lang}"));
                        return Ok((Box::new(clips), notes));
                    }
                    Err(e) => notes.push(e.to_string()),
                }
            } else {
                notes.push(format!("no voice clips for {lang}"));
            }
            match fallback_system {
                Some(system) => {
                    notes.push(format!("speaking {lang} with the system's default voice"));
                    (Box::new(system), notes)
                }
                None => {
                    notes.push("no way to speak: staying silent".into());
                    (Box::new(Silence), notes)
                }
            }
        }
    })
}

/// Whether two configurations need different backends.
pub(super) fn same_backend(a: &SpeechConfig, b: &SpeechConfig) -> bool {
    use BackendChoice as B;
    let kind = |c: &BackendChoice| match c {
        B::Auto => 0,
        B::System => 1,
        B::Clips => 2,
        B::Silent => 3,
        B::Recording(_) => 4,
    };
    kind(&a.backend) == kind(&b.backend)
        // `Auto` chooses by language.
        && (!matches!(a.backend, B::Auto) || a.lang == b.lang)
}
