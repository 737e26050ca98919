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

use super::backend::{Msg, SpeechError, VoiceSettings};
use super::mode::SpeechMode;
use super::voice::VoiceInfo;
use super::watchdog::Deadlines;
use crate::session::{Priority, Speech};
use crate::words::{Lang, Utterance};

pub use super::backend::{BackendChoice, SpeechConfig, UnknownBackend};

pub use super::speech_thread::Fallback;
use super::speech_thread::{Shared, Status, Thread, Voice};
use super::voice_choice::start_voice;
pub use super::voice_choice::{NextVoice, next_voice};

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

    /// Something is being said or waits to be said: voice input does not
    /// listen meanwhile (Rochade's own voice must not play a move).
    pub fn busy(&self) -> bool {
        let s = self.status();
        !(s.queue_idle && s.handled >= s.submitted)
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
    use crate::words::Pack;

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
        let asked = Instant::now();
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
        // The stuck call was given its 0.3 s before the move was said
        // again. Counted from the move asked for: the call's own time is
        // stamped by the backend's thread, which a loaded machine can
        // start later than the limit's clock (it failed so at 4 binaries
        // at a time).
        let again = log.call_time(2).unwrap();
        assert!(log.call_time(1).unwrap() < again);
        assert!(again - asked >= Duration::from_millis(300));
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
    }

    #[test]
    fn backend_choice_parses() {
        assert!(matches!("system".parse(), Ok(BackendChoice::System)));
        assert!(matches!("clips".parse(), Ok(BackendChoice::Clips)));
        assert!(matches!("silent".parse(), Ok(BackendChoice::Silent)));
        assert!("loud".parse::<BackendChoice>().is_err());
    }
}
