//! The speech backends: what actually makes (or records) the sound. All of
//! them live on the speech thread; only [`Finished`] crosses threads.

use std::collections::BTreeMap;
use std::fmt;
use std::sync::{Arc, Condvar, Mutex, mpsc};
use std::time::{Duration, Instant};

use super::queue::UtteranceKey;
use super::voice::VoiceInfo;
use crate::session::{Priority, Speech};
use crate::words::Lang;

/// A speech problem, in words for the user.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct SpeechError(pub String);

impl SpeechError {
    pub fn new(message: impl Into<String>) -> SpeechError {
        SpeechError(message.into())
    }
}

/// Voice settings. Rate and pitch are 0.0 ..= 1.0 with 0.5 the engine's
/// normal; volume is 0.0 ..= 1.0.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(default)]
pub struct VoiceSettings {
    pub rate: f32,
    pub pitch: f32,
    pub volume: f32,
    /// A system voice name per language, overriding the automatic choice.
    pub voices: BTreeMap<Lang, String>,
}

impl Default for VoiceSettings {
    fn default() -> Self {
        VoiceSettings {
            rate: 0.5,
            pitch: 0.5,
            volume: 1.0,
            voices: BTreeMap::new(),
        }
    }
}

impl VoiceSettings {
    /// Maps a 0..1 setting with 0.5 = normal onto an engine's range.
    pub fn scale(setting: f32, min: f32, normal: f32, max: f32) -> f32 {
        let s = setting.clamp(0.0, 1.0);
        if s <= 0.5 {
            min + (normal - min) * (s / 0.5)
        } else {
            normal + (max - normal) * ((s - 0.5) / 0.5)
        }
    }
}

/// Messages to the speech thread. Backends only ever send `Finished`;
/// the variants are internal to the service.
#[derive(Debug)]
pub enum Msg {
    Speak(crate::session::Speech, Instant),
    Stop,
    Finished(UtteranceKey),
    Settings(VoiceSettings),
    /// New backend choice, language, voice settings or mode, at once.
    Reconfigure(SpeechConfig),
    Shutdown,
}

/// Lets a backend report, from any thread, that an utterance has ended
/// (played through, or cut off).
#[derive(Clone, Debug)]
pub struct Finished(pub(crate) mpsc::Sender<Msg>);

impl Finished {
    /// A notifier that sends into a channel of the caller's (for using a
    /// backend outside the speech service, e.g. listing voices).
    pub fn from_sender(tx: mpsc::Sender<Msg>) -> Finished {
        Finished(tx)
    }

    pub fn finished(&self, key: UtteranceKey) {
        // The speech thread may be gone at shutdown; nothing to tell then.
        let _ = self.0.send(Msg::Finished(key));
    }
}

/// A speech engine as the speech thread sees it.
pub trait SpeechBackend {
    /// What this backend is, for "speaking with ..." messages.
    fn name(&self) -> String;

    /// Starts saying `speech.text.spoken` in `speech.lang`, cutting nothing off (the scheduler sends `stop`
    /// first when it wants to interrupt). Unless the result says the
    /// utterance is over already, the backend must call
    /// `finished.finished(key)` when it ends or is stopped.
    fn speak(&mut self, key: UtteranceKey, speech: &Speech) -> Result<Spoken, SpeechError>;

    /// Cuts off whatever plays.
    fn stop(&mut self) -> Result<(), SpeechError>;

    fn is_speaking(&self) -> bool;

    /// System voices (empty for backends without any).
    fn voices(&self) -> Vec<VoiceInfo>;

    fn apply_settings(&mut self, settings: &VoiceSettings) -> Result<(), SpeechError>;

    /// Called by the speech thread about every 50 ms while an utterance
    /// plays, for engines that cannot report the end by themselves.
    fn poll(&mut self) {}
}

/// What [`SpeechBackend::speak`] did.
#[derive(Debug, Default)]
pub struct Spoken {
    /// Words it could not say (the clip voice skips words it has no clip
    /// for), for reporting.
    pub skipped: Vec<String>,
    /// The utterance was over by the time `speak` returned (nothing to
    /// play): the speech thread counts it finished at once and no
    /// `Finished` follows. Sent as a message instead, it could reach the
    /// thread after newer speech and make a finished move look
    /// interrupted, and so be said again.
    pub over: bool,
}

impl Spoken {
    /// Playing; `Finished` follows.
    pub fn playing(skipped: Vec<String>) -> Spoken {
        Spoken {
            skipped,
            over: false,
        }
    }

    /// Over already.
    pub fn over(skipped: Vec<String>) -> Spoken {
        Spoken {
            skipped,
            over: true,
        }
    }
}

/// One call a [`RecordingBackend`] received.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Recorded {
    Speak {
        text: String,
        lang: Lang,
        priority: Priority,
    },
    Stop,
}

#[derive(Default)]
struct LogInner {
    /// Each call, when it came, and whether the fallback backend got it.
    calls: Vec<(Recorded, Instant, bool)>,
    held: Option<UtteranceKey>,
    /// Calls (speak or stop) the first backend answers before the next
    /// one never returns, like a speech daemon that hangs mid-session.
    answers: Option<usize>,
    /// Ends a hang (so the stuck thread can finish at the end of a test).
    released: bool,
}

/// What a [`RecordingBackend`] captured, shared with the test that reads
/// it. Cheap to clone.
#[derive(Clone, Default)]
pub struct RecordingLog {
    inner: Arc<(Mutex<LogInner>, Condvar)>,
    /// When true the backend "speaks" until [`RecordingLog::finish_current`]
    /// is called, so tests can interrupt speech that is still playing.
    hold: bool,
    finished: Arc<Mutex<Option<Finished>>>,
}

impl fmt::Debug for RecordingLog {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "RecordingLog({} calls)", self.calls().len())
    }
}

impl RecordingLog {
    /// Utterances end as soon as they start.
    pub fn new() -> RecordingLog {
        RecordingLog::default()
    }

    /// Utterances play until [`Self::finish_current`].
    pub fn holding() -> RecordingLog {
        RecordingLog {
            hold: true,
            ..RecordingLog::default()
        }
    }

    /// The backend answers `calls` speak or stop calls, then the next one
    /// never returns (until [`Self::release`]): a speech daemon that
    /// hangs mid-session. The backend the service falls back to
    /// ("recording (fallback)") records into the same log and never hangs.
    pub fn hanging_after(self, calls: usize) -> RecordingLog {
        self.inner.0.lock().unwrap().answers = Some(calls);
        self
    }

    /// Lets a hung call return.
    pub fn release(&self) {
        let (lock, cv) = &*self.inner;
        lock.lock().unwrap().released = true;
        cv.notify_all();
    }

    /// The texts the fallback backend spoke, in order.
    pub fn spoken_by_fallback(&self) -> Vec<String> {
        self.inner
            .0
            .lock()
            .unwrap()
            .calls
            .iter()
            .filter_map(|(c, _, fallback)| match c {
                Recorded::Speak { text, .. } if *fallback => Some(text.clone()),
                _ => None,
            })
            .collect()
    }

    /// Every call, in order.
    pub fn calls(&self) -> Vec<Recorded> {
        self.inner
            .0
            .lock()
            .unwrap()
            .calls
            .iter()
            .map(|(c, _, _)| c.clone())
            .collect()
    }

    /// The texts spoken, in order.
    pub fn spoken(&self) -> Vec<String> {
        self.calls()
            .into_iter()
            .filter_map(|c| match c {
                Recorded::Speak { text, .. } => Some(text),
                Recorded::Stop => None,
            })
            .collect()
    }

    /// When call number `index` (0-based) arrived, once it has.
    pub fn call_time(&self, index: usize) -> Option<Instant> {
        self.inner
            .0
            .lock()
            .unwrap()
            .calls
            .get(index)
            .map(|(_, t, _)| *t)
    }

    /// Waits until at least `count` calls were recorded; false on timeout.
    pub fn wait_for_calls(&self, count: usize, timeout: Duration) -> bool {
        let (lock, cv) = &*self.inner;
        let deadline = Instant::now() + timeout;
        let mut g = lock.lock().unwrap();
        while g.calls.len() < count {
            let now = Instant::now();
            if now >= deadline {
                return false;
            }
            g = cv.wait_timeout(g, deadline - now).unwrap().0;
        }
        true
    }

    /// Ends the held utterance (in `holding` mode).
    pub fn finish_current(&self) {
        let key = self.inner.0.lock().unwrap().held.take();
        if let (Some(key), Some(f)) = (key, self.finished.lock().unwrap().as_ref()) {
            f.finished(key);
        }
    }

    fn push(&self, call: Recorded, fallback: bool) {
        let (lock, cv) = &*self.inner;
        let mut g = lock.lock().unwrap();
        g.calls.push((call, Instant::now(), fallback));
        cv.notify_all();
        if fallback {
            return;
        }
        let answered = g.calls.iter().filter(|(_, _, f)| !f).count();
        if g.answers.is_some_and(|n| answered > n) {
            // Hung: this call never returns (until released).
            while !g.released {
                g = cv.wait(g).unwrap();
            }
        }
    }
}

/// Captures what would be said, in order, with priorities: for tests and
/// benchmarks.
pub struct RecordingBackend {
    log: RecordingLog,
    finished: Finished,
    /// The backend the service fell back to: never hangs.
    fallback: bool,
}

impl RecordingBackend {
    pub fn new(log: RecordingLog, finished: Finished) -> RecordingBackend {
        *log.finished.lock().unwrap() = Some(finished.clone());
        RecordingBackend {
            log,
            finished,
            fallback: false,
        }
    }

    /// What the service falls back to when a recording backend hangs.
    pub fn fallback(log: RecordingLog, finished: Finished) -> RecordingBackend {
        RecordingBackend {
            fallback: true,
            ..RecordingBackend::new(log, finished)
        }
    }
}

impl SpeechBackend for RecordingBackend {
    fn name(&self) -> String {
        if self.fallback {
            "recording (fallback)".into()
        } else {
            "recording (test)".into()
        }
    }

    fn speak(&mut self, key: UtteranceKey, speech: &Speech) -> Result<Spoken, SpeechError> {
        // The fallback is a voice that works: it ends what it says.
        let hold = self.log.hold && !self.fallback;
        if hold {
            self.log.inner.0.lock().unwrap().held = Some(key);
        }
        self.log.push(
            Recorded::Speak {
                text: speech.text.spoken.clone(),
                lang: speech.lang,
                priority: speech.priority,
            },
            self.fallback,
        );
        Ok(if hold {
            Spoken::playing(Vec::new())
        } else {
            Spoken::over(Vec::new())
        })
    }

    fn stop(&mut self) -> Result<(), SpeechError> {
        let held = self.log.inner.0.lock().unwrap().held.take();
        self.log.push(Recorded::Stop, self.fallback);
        if let Some(key) = held {
            self.finished.finished(key);
        }
        Ok(())
    }

    fn is_speaking(&self) -> bool {
        self.log.inner.0.lock().unwrap().held.is_some()
    }

    fn voices(&self) -> Vec<VoiceInfo> {
        Vec::new()
    }

    fn apply_settings(&mut self, _settings: &VoiceSettings) -> Result<(), SpeechError> {
        Ok(())
    }
}

/// Says nothing: for players who only want earcons, or a Braille display.
pub struct Silence;

impl SpeechBackend for Silence {
    fn name(&self) -> String {
        "silence".into()
    }

    fn speak(&mut self, _key: UtteranceKey, _speech: &Speech) -> Result<Spoken, SpeechError> {
        Ok(Spoken::over(Vec::new()))
    }

    fn stop(&mut self) -> Result<(), SpeechError> {
        Ok(())
    }

    fn is_speaking(&self) -> bool {
        false
    }

    fn voices(&self) -> Vec<VoiceInfo> {
        Vec::new()
    }

    fn apply_settings(&mut self, _settings: &VoiceSettings) -> Result<(), SpeechError> {
        Ok(())
    }
}

/// Which backend to speak with.
#[derive(Clone, Debug, Default)]
pub enum BackendChoice {
    /// System speech when it has a voice for the language, otherwise the
    /// clip voice, otherwise silence (with a message saying so).
    #[default]
    Auto,
    System,
    Clips,
    Silent,
    /// Records calls instead of speaking (tests, benchmarks).
    Recording(RecordingLog),
}

/// A speech backend's name that is none.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown speech backend '{0}' (use auto, system, clips or silent)")]
pub struct UnknownBackend(pub String);

impl std::str::FromStr for BackendChoice {
    type Err = UnknownBackend;
    fn from_str(s: &str) -> Result<BackendChoice, UnknownBackend> {
        match s.to_ascii_lowercase().as_str() {
            "auto" => Ok(BackendChoice::Auto),
            "system" => Ok(BackendChoice::System),
            "clips" | "clip" => Ok(BackendChoice::Clips),
            "silent" | "silence" | "none" => Ok(BackendChoice::Silent),
            other => Err(UnknownBackend(other.to_owned())),
        }
    }
}

/// How to start the speech service.
#[derive(Clone, Debug, Default)]
pub struct SpeechConfig {
    pub backend: BackendChoice,
    /// The language spoken most (decides `Auto`).
    pub lang: Lang,
    pub settings: VoiceSettings,
    /// Who speaks: in [`super::mode::SpeechMode::ScreenReader`] the backend stays
    /// silent (the queue still works).
    pub mode: super::mode::SpeechMode,
}
