//! The speech thread runs the [`SpeechQueue`] and carries out its commands
//! on the backend, which lives on a worker thread of its own (system speech
//! is not `Send`; see [`super::watchdog`]). Every call into the backend has
//! a deadline, and so has every utterance: a backend that stops answering
//! in the middle of a session is abandoned, the clip voice says again what
//! was cut off and then what happened. Nothing waits on the backend for
//! ever: not the window, not the terminal. Everything else talks to the
//! speech thread through a [`SpeechHandle`], which only sends.

use std::sync::{Arc, Condvar, Mutex, mpsc};
use std::time::{Duration, Instant};

use super::backend::{
    Finished, Msg, RecordingBackend, Silence, SpeechBackend, SpeechError, VoiceSettings,
};
use super::clips::{ClipVoice, has_clips};
use super::mode::SpeechMode;
use super::queue::{Command, SpeechQueue, UtteranceKey};
use super::system::SystemSpeech;
use super::voice::VoiceInfo;
use super::watchdog::{Deadlines, Hung, MakeBackend, Started, Watchdog, Worker};
use crate::session::{Priority, Speech};
use crate::words::{Lang, LoadPack, Pack, Utterance};

pub use super::backend::{BackendChoice, SpeechConfig, UnknownBackend};

#[derive(Default)]
struct Status {
    /// Requests sent by handles / handled by the thread; equal and an idle
    /// queue mean nothing is left to say.
    submitted: u64,
    handled: u64,
    queue_idle: bool,
    backend_name: String,
    mode: SpeechMode,
    notes: Vec<String>,
    voices: Vec<VoiceInfo>,
    skipped_words: Vec<String>,
    errors: Vec<String>,
    fallbacks: Vec<Fallback>,
    /// The speech thread has ended.
    stopped: bool,
}

/// The speech service gave up on a backend that stopped answering in the
/// middle of a session and speaks on with another (see
/// [`SpeechHandle::take_fallbacks`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fallback {
    /// What happened, in English, for the terminal and logs:
    /// "speech: system speech (speech-dispatcher) did not answer a speak
    /// call within 4 s; the clip voice speaks instead".
    pub report: String,
    /// Nothing can speak now (no clip voice): silence.
    pub silent: bool,
}

type OnFallback = Box<dyn Fn(&Fallback) + Send>;

struct Shared {
    status: Mutex<Status>,
    changed: Condvar,
    on_fallback: Mutex<Option<OnFallback>>,
}

struct Guard {
    tx: mpsc::Sender<Msg>,
    shared: Arc<Shared>,
    thread: Mutex<Option<std::thread::JoinHandle<()>>>,
}

impl Drop for Guard {
    fn drop(&mut self) {
        let _ = self.tx.send(Msg::Shutdown);
        // The thread never waits on the backend past a deadline, so it
        // ends soon; should it not, it is left behind rather than keep
        // the app or the terminal from closing.
        let limit = Instant::now() + SHUTDOWN_TIMEOUT;
        let mut s = self.shared.status.lock().unwrap_or_else(|e| e.into_inner());
        while !s.stopped && Instant::now() < limit {
            let left = limit.saturating_duration_since(Instant::now());
            s = match self.shared.changed.wait_timeout(s, left) {
                Ok((s, _)) => s,
                Err(e) => e.into_inner().0,
            };
        }
        let stopped = s.stopped;
        drop(s);
        if stopped && let Some(t) = self.thread.lock().ok().and_then(|mut g| g.take()) {
            let _ = t.join();
        }
    }
}

/// How long dropping the last handle waits for the speech thread.
const SHUTDOWN_TIMEOUT: Duration = Duration::from_secs(10);

/// The way into the speech thread. Clone it freely (GUI, session driver);
/// the thread stops when the last clone is dropped.
#[derive(Clone)]
pub struct SpeechHandle {
    tx: mpsc::Sender<Msg>,
    shared: Arc<Shared>,
    _guard: Arc<Guard>,
}

impl std::fmt::Debug for SpeechHandle {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "SpeechHandle({})", self.backend_name())
    }
}

/// Starts speech threads.
pub struct SpeechService;

impl SpeechService {
    /// Starts the speech thread with the configured backend. Fails only
    /// when an explicitly chosen backend cannot start (`Auto` falls back),
    /// or the speech system does not answer within [`START_TIMEOUT`].
    pub fn spawn(config: SpeechConfig) -> Result<SpeechHandle, SpeechError> {
        SpeechService::spawn_with(config, Deadlines::default())
    }

    /// [`Self::spawn`] with other deadlines (tests).
    pub fn spawn_with(
        config: SpeechConfig,
        deadlines: Deadlines,
    ) -> Result<SpeechHandle, SpeechError> {
        let (tx, rx) = mpsc::channel();
        let shared = Arc::new(Shared {
            status: Mutex::new(Status {
                queue_idle: true,
                ..Status::default()
            }),
            changed: Condvar::new(),
            on_fallback: Mutex::new(None),
        });
        // A speech daemon that hangs (a module without audio, one left by a
        // killed process) must not hang the app or the terminal: after
        // START_TIMEOUT the caller falls back and says so. The backend's
        // thread is left to end by itself if the daemon ever answers.
        let (worker, started) = start_voice(&config, &tx, deadlines)?;
        {
            let mut s = shared.status.lock().unwrap();
            s.backend_name = started.name.clone();
            s.mode = config.mode;
            s.notes = started.notes.clone();
            s.voices = started.voices.clone();
            s.errors.extend(started.settings_error.clone());
        }
        let thread_shared = shared.clone();
        let finished = tx.clone();
        let thread = std::thread::Builder::new()
            .name("rochade-speech".into())
            .spawn(move || {
                let voice = Voice {
                    worker,
                    generation: 0,
                    name: started.name,
                };
                Thread::new(voice, config, deadlines, finished, &thread_shared).run(&rx);
                let mut s = thread_shared.status.lock().unwrap();
                s.queue_idle = true;
                s.handled = s.submitted;
                s.stopped = true;
                drop(s);
                thread_shared.changed.notify_all();
            })
            .map_err(|e| SpeechError::new(format!("cannot start the speech thread: {e}")))?;
        let guard = Arc::new(Guard {
            tx: tx.clone(),
            shared: shared.clone(),
            thread: Mutex::new(Some(thread)),
        });
        Ok(SpeechHandle {
            tx,
            shared,
            _guard: guard,
        })
    }
}

pub use super::watchdog::START_TIMEOUT;

/// Backend utterance keys carry the backend's generation in their top
/// bits, so an end reported late by an abandoned backend cannot end the
/// utterance its successor says again.
const GENERATION_SHIFT: u32 = 40;

fn tag(generation: u64, key: UtteranceKey) -> UtteranceKey {
    (generation << GENERATION_SHIFT) | key
}

fn untag(key: UtteranceKey) -> (u64, UtteranceKey) {
    (key >> GENERATION_SHIFT, key & ((1 << GENERATION_SHIFT) - 1))
}

/// Starts the configured backend on a worker thread.
fn start_voice(
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

fn make_backend(
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
fn same_backend(a: &SpeechConfig, b: &SpeechConfig) -> bool {
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

/// The backend speaking now, on its worker thread.
struct Voice {
    worker: Worker,
    /// Which backend of this service it is (0 the first): tags its keys.
    generation: u64,
    name: String,
}

/// How often the speech thread polls a backend while an utterance plays.
const POLL: Duration = Duration::from_millis(50);

/// "4 s", "11.2 s".
fn secs(d: Duration) -> String {
    format!("{} s", (d.as_secs_f32() * 10.0).round() / 10.0)
}

/// The speech thread's state: the queue, the voice and its watchdog.
struct Thread<'a> {
    voice: Voice,
    config: SpeechConfig,
    deadlines: Deadlines,
    /// For the `Finished` notifiers of backends started later.
    tx: mpsc::Sender<Msg>,
    shared: &'a Shared,
    queue: SpeechQueue,
    watchdog: Watchdog,
    /// A backend was abandoned: say so once nothing else is to be said.
    notice_due: bool,
    generations: u64,
    skipped: Vec<String>,
    errors: Vec<String>,
}

impl<'a> Thread<'a> {
    fn new(
        voice: Voice,
        config: SpeechConfig,
        deadlines: Deadlines,
        tx: mpsc::Sender<Msg>,
        shared: &'a Shared,
    ) -> Thread<'a> {
        Thread {
            voice,
            config,
            deadlines,
            tx,
            shared,
            queue: SpeechQueue::new(),
            watchdog: Watchdog::new(deadlines),
            notice_due: false,
            generations: 0,
            skipped: Vec::new(),
            errors: Vec::new(),
        }
    }

    fn run(mut self, rx: &mpsc::Receiver<Msg>) {
        loop {
            if let Some(key) = self.watchdog.overdue(Instant::now()) {
                let chars = self
                    .queue
                    .current()
                    .map_or(0, |s| s.text.spoken.chars().count());
                let what = format!(
                    "did not finish an utterance within {}",
                    secs(self.deadlines.for_utterance(chars))
                );
                self.resay_after_hang(key, what);
                self.publish(false);
            }
            let msg = if self.queue.current().is_some() {
                match rx.recv_timeout(self.watchdog.wait(Instant::now(), POLL)) {
                    Ok(m) => m,
                    Err(mpsc::RecvTimeoutError::Timeout) => {
                        self.poll();
                        self.publish(false);
                        continue;
                    }
                    Err(mpsc::RecvTimeoutError::Disconnected) => break,
                }
            } else {
                match rx.recv() {
                    Ok(m) => m,
                    Err(_) => break,
                }
            };
            let mut counted = true;
            let commands = match msg {
                Msg::Speak(speech, _sent) => self.queue.push(speech),
                Msg::Stop => self.queue.stop(),
                Msg::Finished(tagged) => {
                    counted = false;
                    let (generation, key) = untag(tagged);
                    if generation == self.voice.generation {
                        self.watchdog.ended(key);
                        self.queue.finished(key)
                    } else {
                        // From an abandoned backend: its words were said
                        // again by the one speaking now.
                        Vec::new()
                    }
                }
                Msg::Settings(settings) => {
                    self.apply_settings(settings);
                    Vec::new()
                }
                Msg::Reconfigure(new) => {
                    self.reconfigure(new);
                    Vec::new()
                }
                Msg::Shutdown => {
                    let _ = self
                        .voice
                        .worker
                        .call("stop", self.deadlines.call, |b| b.stop());
                    break;
                }
            };
            self.execute(commands);
            self.publish(counted);
        }
    }

    /// Hands the news to the handles.
    fn publish(&mut self, counted: bool) {
        let mut s = self.shared.status.lock().unwrap();
        if counted {
            s.handled += 1;
        }
        s.queue_idle = self.queue.is_idle();
        s.skipped_words.append(&mut self.skipped);
        s.errors.append(&mut self.errors);
        drop(s);
        self.shared.changed.notify_all();
    }

    fn execute(&mut self, commands: Vec<Command>) {
        let mut work = std::collections::VecDeque::from(commands);
        loop {
            let Some(c) = work.pop_front() else {
                work.extend(self.notice_when_idle());
                if work.is_empty() {
                    return;
                }
                continue;
            };
            match c {
                Command::Interrupt => {
                    self.watchdog.clear();
                    match self
                        .voice
                        .worker
                        .call("stop", self.deadlines.call, |b| b.stop())
                    {
                        Ok(Ok(())) => {}
                        Ok(Err(e)) => self.errors.push(e.to_string()),
                        // What was cut off is cut off; the next command
                        // goes to the new voice.
                        Err(hung) => {
                            self.fall_back(hung_words(&hung));
                        }
                    }
                }
                // The screen reader speaks instead: the utterance is over at once.
                Command::Speak { key, .. } if !self.config.mode.app_voice() => {
                    work.extend(self.queue.finished(key))
                }
                Command::Speak { key, speech } => {
                    let tagged = tag(self.voice.generation, key);
                    let chars = speech.text.spoken.chars().count();
                    let said = speech.clone();
                    let result = self
                        .voice
                        .worker
                        .call("speak", self.deadlines.call, move |b| {
                            b.speak(tagged, &said)
                        });
                    match result {
                        Ok(Ok(spoken)) => {
                            self.skipped.extend(spoken.skipped);
                            if spoken.over {
                                work.extend(self.queue.finished(key));
                            } else {
                                self.watchdog.started(key, chars, Instant::now());
                            }
                        }
                        Ok(Err(e)) => {
                            // The backend will never report this one finished:
                            // count it as done so the queue moves on.
                            self.errors.push(e.to_string());
                            work.extend(self.queue.finished(key));
                        }
                        // Never lost: said again, whole, by the next voice.
                        Err(hung) => {
                            if self.fall_back(hung_words(&hung)) {
                                work.push_front(Command::Speak { key, speech });
                            } else {
                                work.extend(self.queue.finished(key));
                            }
                        }
                    }
                }
            }
        }
    }

    /// After a fallback, once nothing plays: the news, in the voice that
    /// speaks now (an alert, so no answer replaces it).
    fn notice_when_idle(&mut self) -> Vec<Command> {
        if !self.notice_due || self.queue.current().is_some() {
            return Vec::new();
        }
        self.notice_due = false;
        let lang = self.config.lang;
        let (pack, _) = Pack::load_or_bundled(lang, crate::words::user_pack_dir().as_deref());
        self.queue.push(Speech {
            text: pack.say("speech_stopped"),
            lang,
            priority: Priority::Alert,
        })
    }

    /// Polls the backend (engines that cannot report an end).
    fn poll(&mut self) {
        if let Err(hung) = self
            .voice
            .worker
            .call("poll", self.deadlines.call, |b| b.poll())
        {
            match self.watchdog.playing() {
                Some(key) => self.resay_after_hang(key, hung_words(&hung)),
                None => {
                    self.fall_back(hung_words(&hung));
                }
            }
        }
    }

    /// The backend hung while utterance `key` played: the next voice says
    /// it again, whole.
    fn resay_after_hang(&mut self, key: UtteranceKey, what: String) {
        let Some(speech) = self.queue.current().cloned() else {
            self.watchdog.clear();
            return;
        };
        let commands = if self.fall_back(what) {
            vec![Command::Speak { key, speech }]
        } else {
            self.watchdog.clear();
            self.queue.finished(key)
        };
        self.execute(commands);
    }

    fn apply_settings(&mut self, settings: VoiceSettings) {
        self.config.settings = settings.clone();
        match self
            .voice
            .worker
            .call("settings", self.deadlines.call, move |b| {
                b.apply_settings(&settings)
            }) {
            Ok(Ok(())) => {}
            Ok(Err(e)) => self.errors.push(e.to_string()),
            Err(hung) => {
                // The new voice starts with the new settings.
                if let Some(key) = self.watchdog.playing() {
                    self.resay_after_hang(key, hung_words(&hung));
                } else {
                    self.fall_back(hung_words(&hung));
                }
            }
        }
    }

    fn reconfigure(&mut self, mut new: SpeechConfig) {
        // The recorder (tests, benchmarks) is never swapped for a real
        // voice by the stored settings, which cannot name it.
        if let BackendChoice::Recording(log) = &self.config.backend {
            new.backend = BackendChoice::Recording(log.clone());
        }
        // Whatever plays now was meant for the old voice or mode.
        let commands = self.queue.stop();
        self.execute(commands);
        if same_backend(&self.config, &new) {
            self.apply_settings(new.settings.clone());
        } else {
            let _ = self
                .voice
                .worker
                .call("stop", self.deadlines.call, |b| b.stop());
            match start_voice(&new, &self.tx, self.deadlines) {
                Ok((worker, started)) => {
                    self.generations += 1;
                    self.voice = Voice {
                        worker,
                        generation: self.generations,
                        name: started.name.clone(),
                    };
                    self.errors.extend(started.settings_error);
                    let mut s = self.shared.status.lock().unwrap();
                    s.backend_name = started.name;
                    s.notes = started.notes;
                    s.voices = started.voices;
                }
                Err(e) => self.errors.push(e.to_string()),
            }
        }
        self.shared.status.lock().unwrap().mode = new.mode;
        self.config = new;
    }

    /// Abandons the backend that stopped answering and starts the next
    /// voice ([`next_voice`]); says and shows what happened (once the
    /// queue is idle, see [`Self::notice_when_idle`]). False when there is
    /// no other voice to go to.
    fn fall_back(&mut self, what: String) -> bool {
        let lang = self.config.lang;
        let recording = match &self.config.backend {
            BackendChoice::Recording(log) => Some(log.clone()),
            _ => None,
        };
        let next = next_voice(&self.voice.name, recording.is_some(), has_clips(lang));
        self.watchdog.clear();
        let mut candidates: Vec<MakeBackend> = Vec::new();
        let finished = Finished(self.tx.clone());
        match (next, recording) {
            (NextVoice::None, _) => {
                self.errors
                    .push(format!("speech: {} {what}", self.voice.name));
                return false;
            }
            (NextVoice::Recorder, Some(log)) => candidates.push(Box::new(move || {
                Ok((
                    Box::new(RecordingBackend::fallback(log, finished)) as Box<dyn SpeechBackend>,
                    Vec::new(),
                ))
            })),
            (NextVoice::Clips, _) => candidates.push(Box::new(move || {
                Ok((
                    Box::new(ClipVoice::open(finished)?) as Box<dyn SpeechBackend>,
                    Vec::new(),
                ))
            })),
            _ => {}
        }
        candidates.push(Box::new(|| {
            Ok((Box::new(Silence) as Box<dyn SpeechBackend>, Vec::new()))
        }));
        let mut started = None;
        let mut problems = Vec::new();
        for make in candidates {
            match Worker::start(make, self.config.settings.clone(), self.deadlines.start) {
                Ok(s) => {
                    started = Some(s);
                    break;
                }
                Err(e) => problems.push(e.to_string()),
            }
        }
        let Some((worker, started)) = started else {
            self.errors.push(format!(
                "speech: {} {what}; {}",
                self.voice.name,
                problems.join("; ")
            ));
            return false;
        };
        self.generations += 1;
        let old = std::mem::replace(
            &mut self.voice,
            Voice {
                worker,
                generation: self.generations,
                name: started.name.clone(),
            },
        );
        // Should the old backend ever answer again, it is silenced, and
        // its thread ends.
        old.worker.post(|b| {
            let _ = b.stop();
        });
        let silent = started.name == "silence";
        let instead = if silent {
            "staying silent".to_owned()
        } else {
            format!("the {} speaks instead", started.name)
        };
        let mut report = format!("speech: {} {what}; {instead}", old.name);
        if !problems.is_empty() {
            report = format!("{report} ({})", problems.join("; "));
        }
        let fallback = Fallback { report, silent };
        self.errors.push(fallback.report.clone());
        self.notice_due = true;
        {
            let mut s = self.shared.status.lock().unwrap();
            s.backend_name = started.name;
            s.notes = started.notes;
            s.voices = started.voices;
            s.fallbacks.push(fallback.clone());
        }
        if let Some(tell) = self
            .shared
            .on_fallback
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .as_ref()
        {
            tell(&fallback);
        }
        true
    }
}

/// "did not answer a speak call within 4 s".
fn hung_words(hung: &Hung) -> String {
    if hung.after.is_zero() {
        return format!("stopped (its thread ended) in a {} call", hung.what);
    }
    format!(
        "did not answer a {} call within {}",
        hung.what,
        secs(hung.after)
    )
}
impl SpeechHandle {
    /// Queues speech; returns at once.
    pub fn speak(&self, speech: Speech) {
        self.send(Msg::Speak(speech, Instant::now()));
    }

    /// Convenience for the command line and tests.
    pub fn say(&self, text: &str, lang: Lang, priority: Priority) {
        let text = Utterance {
            written: text.to_owned(),
            spoken: text.to_owned(),
        };
        self.speak(Speech {
            text,
            lang,
            priority,
        });
    }

    /// Silence now; forgets what was waiting.
    pub fn stop(&self) {
        self.send(Msg::Stop);
    }

    pub fn set_settings(&self, settings: VoiceSettings) {
        let _ = self.tx.send(Msg::Settings(settings));
    }

    /// Applies a new configuration at once: backend, language, voice,
    /// rate and speech mode. What is playing stops; a different backend
    /// is started only when the choice changed.
    pub fn reconfigure(&self, config: SpeechConfig) {
        self.send(Msg::Reconfigure(config));
    }

    /// The speech mode in force (see [`SpeechMode`]).
    pub fn mode(&self) -> SpeechMode {
        self.status().mode
    }

    /// "system speech (speech-dispatcher)", "clip voice", "silence", ...
    pub fn backend_name(&self) -> String {
        self.status().backend_name.clone()
    }

    /// How the backend was chosen ("system voice for de: German (de)").
    pub fn backend_notes(&self) -> Vec<String> {
        self.status().notes.clone()
    }

    /// The system voices the backend offers.
    pub fn voices(&self) -> Vec<VoiceInfo> {
        self.status().voices.clone()
    }

    /// Words the clip voice had no clip for, since the last call.
    pub fn take_skipped_words(&self) -> Vec<String> {
        std::mem::take(&mut self.status().skipped_words)
    }

    /// Backend errors since the last call (fallbacks included).
    pub fn take_errors(&self) -> Vec<String> {
        std::mem::take(&mut self.status().errors)
    }

    /// Backends given up on since the last call because they stopped
    /// answering (the clip voice or silence took over).
    pub fn take_fallbacks(&self) -> Vec<Fallback> {
        std::mem::take(&mut self.status().fallbacks)
    }

    /// Calls `tell` on the speech thread whenever a backend is given up
    /// on (to wake the window, to print a line); it must return quickly.
    pub fn on_fallback(&self, tell: impl Fn(&Fallback) + Send + 'static) {
        *self
            .shared
            .on_fallback
            .lock()
            .unwrap_or_else(|e| e.into_inner()) = Some(Box::new(tell));
    }

    /// Waits until everything queued has been said; false on timeout.
    pub fn wait_idle(&self, timeout: Duration) -> bool {
        let deadline = Instant::now() + timeout;
        let mut s = self.status();
        while !(s.queue_idle && s.handled >= s.submitted) {
            let now = Instant::now();
            if now >= deadline {
                return false;
            }
            s = self
                .shared
                .changed
                .wait_timeout(s, deadline - now)
                .unwrap()
                .0;
        }
        true
    }

    fn send(&self, msg: Msg) {
        self.status().submitted += 1;
        if self.tx.send(msg).is_err() {
            // The thread is gone; do not leave waiters hanging.
            self.status().handled += 1;
        }
    }

    fn status(&self) -> std::sync::MutexGuard<'_, Status> {
        self.shared.status.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// How long a command waits for `chars` characters to be said: a voice
/// that never reports the end (a speech module without audio output) is
/// given up on after 10 s plus 150 ms a character and the clip voice says
/// it all again, with a note; this leaves room for both.
pub fn say_budget(chars: usize) -> Duration {
    let d = Deadlines::default();
    d.for_utterance(chars) + d.call + d.start + d.for_utterance(chars + 100)
}

/// Speaks `texts` in order and returns when all were said: for
/// `rochade announce --speak` and `rochade say`. Prints on stderr which
/// backend speaks and any words the clip voice could not say.
pub fn speak_all_blocking(
    lang: Lang,
    texts: &[Utterance],
    backend: BackendChoice,
) -> Result<(), SpeechError> {
    let handle = SpeechService::spawn(SpeechConfig {
        backend,
        lang,
        settings: VoiceSettings::default(),
        mode: SpeechMode::SelfVoicing,
    })?;
    eprintln!("rochade: speaking with {}", handle.backend_name());
    for note in handle.backend_notes() {
        eprintln!("rochade: {note}");
    }
    for text in texts {
        handle.speak(Speech {
            text: text.clone(),
            lang,
            priority: Priority::Move,
        });
    }
    let chars: usize = texts.iter().map(|t| t.spoken.chars().count()).sum();
    let budget = say_budget(chars);
    let done = handle.wait_idle(budget);
    let skipped = handle.take_skipped_words();
    if !skipped.is_empty() {
        eprintln!("rochade: no voice clip for: {}", skipped.join(", "));
    }
    let errors = handle.take_errors();
    if !errors.is_empty() {
        return Err(SpeechError::new(errors.join("; ")));
    }
    if !done {
        return Err(SpeechError::new(format!(
            "the voice did not finish speaking within {} s (a speech module without audio output?); try --backend clip",
            budget.as_secs()
        )));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::speech::backend::Recorded;
    use crate::speech::backend::RecordingLog;

    fn start(log: &RecordingLog) -> SpeechHandle {
        SpeechService::spawn(SpeechConfig {
            backend: BackendChoice::Recording(log.clone()),
            ..SpeechConfig::default()
        })
        .unwrap()
    }

    #[test]
    fn the_service_speaks_in_order_with_priorities() {
        let log = RecordingLog::new();
        let h = start(&log);
        assert_eq!(h.backend_name(), "recording (test)");
        h.say("Eva vier", Lang::De, Priority::Move);
        h.say("Eva vier", Lang::De, Priority::Move);
        h.say("Weiss: 5 Minuten", Lang::De, Priority::Answer);
        assert!(h.wait_idle(Duration::from_secs(5)));
        assert_eq!(
            log.calls(),
            [
                Recorded::Speak {
                    text: "Eva vier".into(),
                    lang: Lang::De,
                    priority: Priority::Move
                },
                Recorded::Speak {
                    text: "Eva vier".into(),
                    lang: Lang::De,
                    priority: Priority::Move
                },
                Recorded::Speak {
                    text: "Weiss: 5 Minuten".into(),
                    lang: Lang::De,
                    priority: Priority::Answer
                },
            ]
        );
    }

    #[test]
    fn speech_that_ends_at_once_is_never_taken_for_interrupted() {
        // A move and an alert sent back to back: with a backend that has
        // nothing to play, the move is over before the alert is looked at,
        // so the alert must not cut it off and have it said again.
        let log = RecordingLog::new();
        let h = start(&log);
        let mut expected = Vec::new();
        for i in 0..200 {
            let (mv, alert) = (format!("Eva vier {i}"), format!("Bitte bestaetigen {i}"));
            h.say(&mv, Lang::De, Priority::Move);
            h.say(&alert, Lang::De, Priority::Alert);
            expected.extend([mv, alert]);
        }
        assert!(h.wait_idle(Duration::from_secs(5)));
        assert_eq!(log.spoken(), expected);
        assert!(!log.calls().contains(&Recorded::Stop));
    }

    #[test]
    fn an_alert_interrupts_held_speech_through_the_service() {
        let log = RecordingLog::holding();
        let h = start(&log);
        h.say("Weiss: 1 Stunde 29 Minuten", Lang::De, Priority::Answer);
        assert!(log.wait_for_calls(1, Duration::from_secs(5)));
        h.say("Verbindung zum Brett verloren", Lang::De, Priority::Alert);
        assert!(log.wait_for_calls(3, Duration::from_secs(5)));
        assert_eq!(log.calls()[1], Recorded::Stop);
        assert_eq!(log.spoken()[1], "Verbindung zum Brett verloren");
        assert!(
            !h.wait_idle(Duration::from_millis(50)),
            "the alert is still playing"
        );
        log.finish_current();
        assert!(h.wait_idle(Duration::from_secs(5)));
        h.stop();
        assert!(h.wait_idle(Duration::from_secs(5)));
    }

    #[test]
    fn hundreds_of_moves_through_the_thread_arrive_in_order() {
        let log = RecordingLog::new();
        let h = start(&log);
        for i in 0..400 {
            h.say(&format!("Zug {i}"), Lang::De, Priority::Move);
        }
        assert!(h.wait_idle(Duration::from_secs(20)));
        let expected: Vec<String> = (0..400).map(|i| format!("Zug {i}")).collect();
        assert_eq!(log.spoken(), expected);
    }

    #[test]
    fn screen_reader_mode_silences_the_app_voice_at_once_and_back() {
        let log = RecordingLog::holding();
        let h = start(&log);
        h.say("Weiss: 5 Minuten", Lang::De, Priority::Answer);
        assert!(log.wait_for_calls(1, Duration::from_secs(5)));
        let config = |mode| SpeechConfig {
            backend: BackendChoice::Silent,
            mode,
            ..SpeechConfig::default()
        };
        h.reconfigure(config(SpeechMode::ScreenReader));
        h.say("Eva vier", Lang::De, Priority::Move);
        assert!(h.wait_idle(Duration::from_secs(5)));
        assert_eq!(h.mode(), SpeechMode::ScreenReader);
        // The playing answer was cut off; the move went through the queue
        // (the service is idle) but never reached the voice.
        assert_eq!(log.spoken(), ["Weiss: 5 Minuten"]);
        assert_eq!(log.calls()[1], Recorded::Stop);
        assert_eq!(h.backend_name(), "recording (test)", "the recorder stays");
        h.reconfigure(config(SpeechMode::SelfVoicing));
        h.say("Dame David acht", Lang::De, Priority::Move);
        assert!(log.wait_for_calls(3, Duration::from_secs(5)));
        assert_eq!(log.spoken().last().unwrap(), "Dame David acht");
        log.finish_current();
        assert!(h.wait_idle(Duration::from_secs(5)));
    }

    /// Deadlines short enough for tests: a call may take 300 ms, an
    /// utterance 400 ms.
    fn quick() -> Deadlines {
        Deadlines {
            start: Duration::from_secs(5),
            call: Duration::from_millis(300),
            utterance: Duration::from_millis(400),
            per_char: Duration::ZERO,
        }
    }

    fn start_quick(log: &RecordingLog) -> SpeechHandle {
        SpeechService::spawn_with(
            SpeechConfig {
                backend: BackendChoice::Recording(log.clone()),
                ..SpeechConfig::default()
            },
            quick(),
        )
        .unwrap()
    }

    fn notice() -> String {
        Pack::bundled(Lang::De).say("speech_stopped").spoken
    }

    #[test]
    fn a_speak_call_that_never_returns_mid_session_loses_no_move() {
        // The first move is said; the second speak call never returns.
        let log = RecordingLog::new().hanging_after(1);
        let h = start_quick(&log);
        let (tx, told) = mpsc::channel();
        h.on_fallback(move |f| {
            let _ = tx.send(f.clone());
        });
        h.say("Eva vier", Lang::De, Priority::Move);
        h.say("Springer Felix drei", Lang::De, Priority::Move);
        assert!(h.wait_idle(Duration::from_secs(10)));
        let fallback = told.recv_timeout(Duration::from_secs(5)).unwrap();
        assert!(
            fallback
                .report
                .contains("did not answer a speak call within 0.3 s"),
            "{fallback:?}"
        );
        assert!(!fallback.silent);
        // The cut move is said again, whole, by the next voice, then what
        // happened; later moves go to the new voice at once.
        assert_eq!(
            log.spoken_by_fallback(),
            ["Springer Felix drei".to_owned(), notice()]
        );
        assert_eq!(h.backend_name(), "recording (fallback)");
        assert_eq!(h.take_fallbacks(), std::slice::from_ref(&fallback));
        assert!(h.take_fallbacks().is_empty(), "reported once");
        assert_eq!(h.take_errors(), [fallback.report]);
        h.say("Dame David acht", Lang::De, Priority::Move);
        assert!(h.wait_idle(Duration::from_secs(5)));
        assert_eq!(log.spoken_by_fallback().last().unwrap(), "Dame David acht");
        assert_eq!(
            log.spoken(),
            [
                "Eva vier",
                "Springer Felix drei", // the call that hung
                "Springer Felix drei",
                &notice(),
                "Dame David acht"
            ]
        );
        // The stuck call was 0.3 s at most before the move was said again.
        let hung = log.call_time(1).unwrap();
        let again = log.call_time(2).unwrap();
        assert!(again - hung >= Duration::from_millis(300));
        log.release();
    }

    #[test]
    fn speech_that_never_reports_its_end_is_said_again_by_the_next_voice() {
        let log = RecordingLog::holding();
        let h = start_quick(&log);
        h.say("Eva vier", Lang::De, Priority::Move);
        h.say("Dame David acht", Lang::De, Priority::Move);
        // Nobody ends the held utterance: after 400 ms it is given up on.
        assert!(h.wait_idle(Duration::from_secs(10)));
        assert_eq!(
            log.spoken(),
            ["Eva vier", "Eva vier", "Dame David acht", notice().as_str()]
        );
        assert_eq!(log.spoken_by_fallback().len(), 3);
        assert!(
            log.call_time(1).unwrap() - log.call_time(0).unwrap() >= Duration::from_millis(400)
        );
        let fallbacks = h.take_fallbacks();
        assert_eq!(fallbacks.len(), 1);
        assert!(
            fallbacks[0]
                .report
                .contains("did not finish an utterance within 0.4 s"),
            "{fallbacks:?}"
        );
        // A late end from the abandoned voice ends nothing of the new one.
        log.finish_current();
        assert!(h.wait_idle(Duration::from_secs(5)));
    }

    #[test]
    fn a_stop_call_that_never_returns_lets_the_alert_through() {
        // The answer is said (and held); the stop before the alert hangs.
        let log = RecordingLog::holding().hanging_after(1);
        let h = start_quick(&log);
        h.say("Weiss: 5 Minuten", Lang::De, Priority::Answer);
        assert!(log.wait_for_calls(1, Duration::from_secs(5)));
        h.say("Verbindung zum Brett verloren", Lang::De, Priority::Alert);
        assert!(h.wait_idle(Duration::from_secs(10)));
        assert_eq!(log.calls()[1], Recorded::Stop);
        // The answer was cut off by the alert, as it would have been.
        assert_eq!(
            log.spoken_by_fallback(),
            ["Verbindung zum Brett verloren".to_owned(), notice()]
        );
        assert!(h.take_fallbacks()[0].report.contains("stop call"));
        log.release();
    }

    #[test]
    fn dropping_the_handle_never_waits_on_a_stuck_backend() {
        let log = RecordingLog::new().hanging_after(0);
        let h = start_quick(&log);
        h.say("Eva vier", Lang::De, Priority::Move);
        assert!(log.wait_for_calls(1, Duration::from_secs(5)));
        let began = Instant::now();
        drop(h);
        assert!(began.elapsed() < Duration::from_secs(5));
        log.release();
    }

    #[test]
    fn the_clip_voice_follows_system_speech_and_silence_follows_the_clip_voice() {
        let system = "system speech (speech-dispatcher)";
        assert_eq!(next_voice(system, false, true), NextVoice::Clips);
        assert_eq!(next_voice(system, false, false), NextVoice::Silence);
        assert_eq!(next_voice("clip voice", false, true), NextVoice::Silence);
        assert_eq!(next_voice("silence", false, true), NextVoice::None);
        assert_eq!(
            next_voice("recording (test)", true, true),
            NextVoice::Recorder
        );
        assert_eq!(
            next_voice("recording (fallback)", true, true),
            NextVoice::None
        );
        assert_eq!(untag(tag(3, 17)), (3, 17));
        assert_eq!(tag(0, 17), 17, "the first backend sees the queue's keys");
    }

    #[test]
    fn backend_choice_parses() {
        assert!(matches!("system".parse(), Ok(BackendChoice::System)));
        assert!(matches!("clips".parse(), Ok(BackendChoice::Clips)));
        assert!(matches!("silent".parse(), Ok(BackendChoice::Silent)));
        assert!("loud".parse::<BackendChoice>().is_err());
    }
}
