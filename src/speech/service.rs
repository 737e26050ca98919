//! The speech thread: owns the backend (system speech is not `Send`), runs
//! the [`SpeechQueue`] and carries out its commands. Everything else talks
//! to it through a [`SpeechHandle`].

use std::sync::{Arc, Condvar, Mutex, mpsc};
use std::time::{Duration, Instant};

use super::backend::{
    Finished, Msg, RecordingBackend, Silence, SpeechBackend, SpeechError, VoiceSettings,
};
use super::clips::{ClipVoice, has_clips};
use super::mode::SpeechMode;
use super::queue::{Command, SpeechQueue};
use super::system::SystemSpeech;
use super::voice::VoiceInfo;
use crate::session::{Priority, Speech};
use crate::words::{Lang, Utterance};

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
}

struct Shared {
    status: Mutex<Status>,
    changed: Condvar,
}

struct Guard {
    tx: mpsc::Sender<Msg>,
    thread: Mutex<Option<std::thread::JoinHandle<()>>>,
}

impl Drop for Guard {
    fn drop(&mut self) {
        let _ = self.tx.send(Msg::Shutdown);
        if let Some(t) = self.thread.lock().ok().and_then(|mut g| g.take()) {
            let _ = t.join();
        }
    }
}

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
    /// when an explicitly chosen backend cannot start (`Auto` falls back).
    pub fn spawn(config: SpeechConfig) -> Result<SpeechHandle, SpeechError> {
        let (tx, rx) = mpsc::channel();
        let shared = Arc::new(Shared {
            status: Mutex::new(Status {
                queue_idle: true,
                ..Status::default()
            }),
            changed: Condvar::new(),
        });
        let (ready_tx, ready_rx) = mpsc::channel();
        let finished = Finished(tx.clone());
        let rebuild = finished.clone();
        let thread_shared = shared.clone();
        let thread = std::thread::Builder::new()
            .name("rochade-speech".into())
            .spawn(move || {
                let (mut backend, notes) = match make_backend(&config, finished) {
                    Ok(b) => b,
                    Err(e) => {
                        let _ = ready_tx.send(Err(e));
                        return;
                    }
                };
                if let Err(e) = backend.apply_settings(&config.settings) {
                    thread_shared
                        .status
                        .lock()
                        .unwrap()
                        .errors
                        .push(e.to_string());
                }
                {
                    let mut s = thread_shared.status.lock().unwrap();
                    s.backend_name = backend.name();
                    s.mode = config.mode;
                    s.notes = notes;
                    s.voices = backend.voices();
                }
                let _ = ready_tx.send(Ok(()));
                run(backend, config, rebuild, &rx, &thread_shared);
            })
            .map_err(|e| SpeechError::new(format!("cannot start the speech thread: {e}")))?;
        // A speech daemon that hangs (a module without audio, one left by a
        // killed process) must not hang the app or the terminal: after
        // START_TIMEOUT the caller falls back and says so. The thread is
        // left to end by itself if the daemon ever answers.
        match ready_rx.recv_timeout(START_TIMEOUT) {
            Ok(Ok(())) => {}
            Ok(Err(e)) => {
                let _ = thread.join();
                return Err(e);
            }
            Err(mpsc::RecvTimeoutError::Timeout) => {
                return Err(SpeechError::new(format!(
                    "the speech system did not answer within {} s",
                    START_TIMEOUT.as_secs()
                )));
            }
            Err(mpsc::RecvTimeoutError::Disconnected) => {
                return Err(SpeechError::new("the speech thread stopped while starting"));
            }
        }
        let guard = Arc::new(Guard {
            tx: tx.clone(),
            thread: Mutex::new(Some(thread)),
        });
        Ok(SpeechHandle {
            tx,
            shared,
            _guard: guard,
        })
    }
}

/// How long starting a backend (connecting to speech-dispatcher, listing
/// its voices) may take.
pub const START_TIMEOUT: Duration = Duration::from_secs(5);

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

fn run(
    mut backend: Box<dyn SpeechBackend>,
    mut config: SpeechConfig,
    finished: Finished,
    rx: &mpsc::Receiver<Msg>,
    shared: &Shared,
) {
    let mut queue = SpeechQueue::new();
    loop {
        let msg = if queue.current().is_some() {
            match rx.recv_timeout(Duration::from_millis(50)) {
                Ok(m) => m,
                Err(mpsc::RecvTimeoutError::Timeout) => {
                    backend.poll();
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
        let mut errors = Vec::new();
        let commands = match msg {
            Msg::Speak(speech, _sent) => queue.push(speech),
            Msg::Stop => queue.stop(),
            Msg::Finished(key) => {
                counted = false;
                queue.finished(key)
            }
            Msg::Settings(settings) => {
                if let Err(e) = backend.apply_settings(&settings) {
                    errors.push(e.to_string());
                }
                config.settings = settings;
                Vec::new()
            }
            Msg::Reconfigure(mut new) => {
                // The recorder (tests, benchmarks) is never swapped for a
                // real voice by the stored settings, which cannot name it.
                if let BackendChoice::Recording(log) = &config.backend {
                    new.backend = BackendChoice::Recording(log.clone());
                }
                // Whatever plays now was meant for the old voice or mode.
                let commands = queue.stop();
                let mut skipped = Vec::new();
                execute(
                    backend.as_mut(),
                    config.mode,
                    &mut queue,
                    commands,
                    &mut skipped,
                    &mut errors,
                );
                if !same_backend(&config, &new) {
                    let _ = backend.stop();
                    match make_backend(&new, finished.clone()) {
                        Ok((b, notes)) => {
                            backend = b;
                            let mut s = shared.status.lock().unwrap();
                            s.backend_name = backend.name();
                            s.notes = notes;
                            s.voices = backend.voices();
                        }
                        Err(e) => errors.push(e.to_string()),
                    }
                }
                if let Err(e) = backend.apply_settings(&new.settings) {
                    errors.push(e.to_string());
                }
                shared.status.lock().unwrap().mode = new.mode;
                config = new;
                Vec::new()
            }
            Msg::Shutdown => {
                let _ = backend.stop();
                break;
            }
        };
        let mut skipped = Vec::new();
        execute(
            backend.as_mut(),
            config.mode,
            &mut queue,
            commands,
            &mut skipped,
            &mut errors,
        );
        let mut s = shared.status.lock().unwrap();
        if counted {
            s.handled += 1;
        }
        s.queue_idle = queue.is_idle();
        s.skipped_words.extend(skipped);
        s.errors.extend(errors);
        drop(s);
        shared.changed.notify_all();
    }
    let mut s = shared.status.lock().unwrap();
    s.queue_idle = true;
    s.handled = s.submitted;
    drop(s);
    shared.changed.notify_all();
}

fn execute(
    backend: &mut dyn SpeechBackend,
    mode: SpeechMode,
    queue: &mut SpeechQueue,
    commands: Vec<Command>,
    skipped: &mut Vec<String>,
    errors: &mut Vec<String>,
) {
    let mut work = std::collections::VecDeque::from(commands);
    while let Some(c) = work.pop_front() {
        match c {
            Command::Interrupt => {
                if let Err(e) = backend.stop() {
                    errors.push(e.to_string());
                }
            }
            // The screen reader speaks instead: the utterance is over at once.
            Command::Speak { key, .. } if !mode.app_voice() => work.extend(queue.finished(key)),
            Command::Speak { key, speech } => match backend.speak(key, &speech) {
                Ok(spoken) => {
                    skipped.extend(spoken.skipped);
                    if spoken.over {
                        work.extend(queue.finished(key));
                    }
                }
                Err(e) => {
                    // The backend will never report this one finished:
                    // count it as done so the queue moves on.
                    errors.push(e.to_string());
                    work.extend(queue.finished(key));
                }
            },
        }
    }
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

    /// Backend errors since the last call.
    pub fn take_errors(&self) -> Vec<String> {
        std::mem::take(&mut self.status().errors)
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
    // A voice that never reports the end (a speech module without audio
    // output) may not keep the command waiting long: 10 s plus a generous
    // 150 ms a character.
    let chars: usize = texts.iter().map(|t| t.spoken.chars().count()).sum();
    let budget = Duration::from_secs(10) + Duration::from_millis(150 * chars as u64);
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

    #[test]
    fn backend_choice_parses() {
        assert!(matches!("system".parse(), Ok(BackendChoice::System)));
        assert!(matches!("clips".parse(), Ok(BackendChoice::Clips)));
        assert!(matches!("silent".parse(), Ok(BackendChoice::Silent)));
        assert!("loud".parse::<BackendChoice>().is_err());
    }
}
