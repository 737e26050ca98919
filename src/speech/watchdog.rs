//! Deadlines for the speech backend. A speech daemon can hang at any time,
//! not only at the start: a `speak` or `stop` that never returns, or speech
//! that never reports its end. The backend therefore lives on a thread of
//! its own (a [`Worker`]) and every call into it has a deadline; the
//! [`Watchdog`] keeps the deadline of the utterance that plays. When one
//! passes, the speech service abandons the backend and speaks on with the
//! clip voice (see `service.rs`).

use std::sync::mpsc;
use std::time::{Duration, Instant};

use super::backend::{SpeechBackend, SpeechError};
use super::queue::UtteranceKey;
use super::voice::VoiceInfo;

/// How long the backend may take.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Deadlines {
    /// Starting a backend (connecting to speech-dispatcher, listing its
    /// voices).
    pub start: Duration,
    /// One call: speak, stop, settings, poll.
    pub call: Duration,
    /// An utterance may play this long, plus [`Self::per_char`] for each
    /// character, before its end is given up on.
    pub utterance: Duration,
    pub per_char: Duration,
}

/// How long starting a backend (connecting to speech-dispatcher, listing
/// its voices) may take.
pub const START_TIMEOUT: Duration = Duration::from_secs(5);

impl Default for Deadlines {
    fn default() -> Self {
        Deadlines {
            start: START_TIMEOUT,
            call: CALL_TIMEOUT,
            // The figure `rochade say` uses: 10 s plus a generous 150 ms a
            // character (a slow voice says about 12 characters a second).
            utterance: Duration::from_secs(10),
            per_char: Duration::from_millis(150),
        }
    }
}

/// How long one call into a running backend may take.
pub const CALL_TIMEOUT: Duration = Duration::from_secs(4);

impl Deadlines {
    /// How long an utterance of `chars` characters may play.
    pub fn for_utterance(&self, chars: usize) -> Duration {
        self.utterance + self.per_char * chars as u32
    }
}

/// The deadline of the utterance playing now: pure, the time passed in.
#[derive(Clone, Debug)]
pub struct Watchdog {
    deadlines: Deadlines,
    playing: Option<(UtteranceKey, Instant)>,
}

impl Watchdog {
    pub fn new(deadlines: Deadlines) -> Watchdog {
        Watchdog {
            deadlines,
            playing: None,
        }
    }

    /// Utterance `key` of `chars` characters began playing at `now`.
    pub fn started(&mut self, key: UtteranceKey, chars: usize, now: Instant) {
        self.playing = Some((key, now + self.deadlines.for_utterance(chars)));
    }

    /// Nothing plays (it was cut off, or the backend was replaced).
    pub fn clear(&mut self) {
        self.playing = None;
    }

    /// Utterance `key` ended (a late end of an older one changes nothing).
    pub fn ended(&mut self, key: UtteranceKey) {
        if self.playing() == Some(key) {
            self.playing = None;
        }
    }

    /// The utterance being watched.
    pub fn playing(&self) -> Option<UtteranceKey> {
        self.playing.map(|(key, _)| key)
    }

    /// The utterance whose end is overdue at `now`, if any.
    pub fn overdue(&self, now: Instant) -> Option<UtteranceKey> {
        self.playing
            .filter(|(_, deadline)| now >= *deadline)
            .map(|(key, _)| key)
    }

    /// How long the speech thread may wait for a message at `now`: at
    /// most `poll`, and never past the playing utterance's deadline.
    pub fn wait(&self, now: Instant, poll: Duration) -> Duration {
        match self.playing {
            Some((_, deadline)) => poll.min(deadline.saturating_duration_since(now)),
            None => poll,
        }
    }
}

/// A call that did not come back in time.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hung {
    /// "speak", "stop", ...
    pub what: &'static str,
    pub after: Duration,
}

/// What a backend said about itself when it started.
#[derive(Clone, Debug, Default)]
pub struct Started {
    pub name: String,
    pub notes: Vec<String>,
    pub voices: Vec<VoiceInfo>,
    /// Applying the voice settings failed (the backend runs anyway).
    pub settings_error: Option<String>,
}

type Job = Box<dyn FnOnce(&mut dyn SpeechBackend) + Send>;

/// A backend on a thread of its own. Backends are made on that thread
/// (system speech is not `Send`) and are reached only through calls with
/// a deadline. Dropping the worker lets its thread end once the call it is
/// in (if any) returns; a thread stuck in a call for ever stays stuck,
/// harming nobody.
pub struct Worker {
    jobs: mpsc::Sender<Job>,
}

/// What makes a backend, on the worker's thread.
pub type MakeBackend = Box<
    dyn FnOnce() -> Result<(Box<dyn SpeechBackend>, Vec<String>), SpeechError> + Send + 'static,
>;

impl Worker {
    /// Starts a thread, makes the backend there and applies `settings`;
    /// fails when that fails or takes longer than `timeout`.
    pub fn start(
        make: MakeBackend,
        settings: super::backend::VoiceSettings,
        timeout: Duration,
    ) -> Result<(Worker, Started), SpeechError> {
        let (jobs, jobs_rx) = mpsc::channel::<Job>();
        let (ready_tx, ready_rx) = mpsc::channel();
        std::thread::Builder::new()
            .name("rochade-voice".into())
            .spawn(move || {
                let (mut backend, notes) = match make() {
                    Ok(b) => b,
                    Err(e) => {
                        let _ = ready_tx.send(Err(e));
                        return;
                    }
                };
                let settings_error = backend.apply_settings(&settings).err();
                let started = Started {
                    name: backend.name(),
                    notes,
                    voices: backend.voices(),
                    settings_error: settings_error.map(|e| e.to_string()),
                };
                if ready_tx.send(Ok(started)).is_err() {
                    return; // given up on: too slow
                }
                for job in jobs_rx {
                    job(backend.as_mut());
                }
            })
            .map_err(|e| SpeechError::new(format!("cannot start the speech thread: {e}")))?;
        match ready_rx.recv_timeout(timeout) {
            Ok(Ok(started)) => Ok((Worker { jobs }, started)),
            Ok(Err(e)) => Err(e),
            Err(mpsc::RecvTimeoutError::Timeout) => Err(SpeechError::new(format!(
                "the speech system did not answer within {} s",
                timeout.as_secs_f32()
            ))),
            Err(mpsc::RecvTimeoutError::Disconnected) => {
                Err(SpeechError::new("the speech thread stopped while starting"))
            }
        }
    }

    /// Runs `f` on the backend and returns its result, or [`Hung`] when
    /// it takes longer than `timeout` (or the backend's thread died).
    pub fn call<R: Send + 'static>(
        &self,
        what: &'static str,
        timeout: Duration,
        f: impl FnOnce(&mut dyn SpeechBackend) -> R + Send + 'static,
    ) -> Result<R, Hung> {
        let (tx, rx) = mpsc::sync_channel(1);
        let job: Job = Box::new(move |backend| {
            let _ = tx.send(f(backend));
        });
        if self.jobs.send(job).is_err() {
            return Err(Hung {
                what,
                after: Duration::ZERO,
            });
        }
        rx.recv_timeout(timeout).map_err(|_| Hung {
            what,
            after: timeout,
        })
    }

    /// Runs `f` on the backend without waiting for it (cutting off what an
    /// abandoned backend may still play).
    pub fn post(&self, f: impl FnOnce(&mut dyn SpeechBackend) + Send + 'static) {
        let _ = self.jobs.send(Box::new(f));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn deadlines() -> Deadlines {
        Deadlines {
            start: Duration::from_secs(5),
            call: Duration::from_secs(4),
            utterance: Duration::from_secs(10),
            per_char: Duration::from_millis(150),
        }
    }

    #[test]
    fn an_utterance_may_play_ten_seconds_plus_150_ms_a_character() {
        assert_eq!(Deadlines::default(), deadlines());
        let d = deadlines();
        assert_eq!(d.for_utterance(0), Duration::from_secs(10));
        // "Springer Felix drei": 19 characters.
        assert_eq!(d.for_utterance(19), Duration::from_millis(12_850));
    }

    #[test]
    fn the_watchdog_finds_an_utterance_that_never_ends_at_its_deadline() {
        let t0 = Instant::now();
        let ms = |n: u64| t0 + Duration::from_millis(n);
        let mut w = Watchdog::new(deadlines());
        assert_eq!(w.overdue(ms(1_000_000)), None, "nothing plays");
        assert_eq!(
            w.wait(t0, Duration::from_millis(50)),
            Duration::from_millis(50)
        );
        w.started(7, 8, t0); // "Eva vier": 10 s + 1.2 s
        assert_eq!(w.overdue(ms(11_199)), None);
        assert_eq!(w.overdue(ms(11_200)), Some(7));
        // The thread never sleeps past the deadline, nor longer than a poll.
        assert_eq!(
            w.wait(ms(0), Duration::from_millis(50)),
            Duration::from_millis(50)
        );
        assert_eq!(
            w.wait(ms(11_180), Duration::from_millis(50)),
            Duration::from_millis(20)
        );
        assert_eq!(
            w.wait(ms(12_000), Duration::from_millis(50)),
            Duration::ZERO
        );
        // A late end of an older utterance changes nothing; its own does.
        w.ended(6);
        assert_eq!(w.playing(), Some(7));
        w.ended(7);
        assert_eq!(w.playing(), None);
        assert_eq!(w.overdue(ms(20_000)), None);
        // The next one gets its own deadline, counted from its start.
        w.started(8, 0, ms(20_000));
        assert_eq!(w.overdue(ms(29_999)), None);
        assert_eq!(w.overdue(ms(30_000)), Some(8));
    }

    struct Stuck(std::sync::Arc<std::sync::Barrier>);

    impl SpeechBackend for Stuck {
        fn name(&self) -> String {
            "stuck".into()
        }
        fn speak(
            &mut self,
            _: UtteranceKey,
            _: &crate::session::Speech,
        ) -> Result<super::super::backend::Spoken, SpeechError> {
            // Returns only when the test lets it.
            self.0.wait();
            Ok(super::super::backend::Spoken::over(Vec::new()))
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
        fn apply_settings(
            &mut self,
            _: &super::super::backend::VoiceSettings,
        ) -> Result<(), SpeechError> {
            Ok(())
        }
    }

    #[test]
    fn a_call_that_does_not_return_in_time_is_reported_hung() {
        let gate = std::sync::Arc::new(std::sync::Barrier::new(2));
        let backend = Stuck(gate.clone());
        let (worker, started) = Worker::start(
            Box::new(move || Ok((Box::new(backend) as Box<dyn SpeechBackend>, Vec::new()))),
            Default::default(),
            Duration::from_secs(5),
        )
        .unwrap();
        assert_eq!(started.name, "stuck");
        assert_eq!(
            worker.call("stop", Duration::from_secs(5), |b| b.stop()),
            Ok(Ok(()))
        );
        let speech = crate::session::Speech {
            text: crate::words::Utterance {
                written: "Eva vier".into(),
                spoken: "Eva vier".into(),
            },
            lang: crate::words::Lang::De,
            priority: crate::session::Priority::Move,
        };
        let hung = worker
            .call("speak", Duration::from_millis(100), move |b| {
                b.speak(1, &speech).map(|s| s.over)
            })
            .unwrap_err();
        assert_eq!(
            hung,
            Hung {
                what: "speak",
                after: Duration::from_millis(100)
            }
        );
        gate.wait(); // the stuck thread may end now
    }

    #[test]
    fn a_backend_that_does_not_start_in_time_is_an_error() {
        let gate = std::sync::Arc::new(std::sync::Barrier::new(2));
        let held = gate.clone();
        let err = Worker::start(
            Box::new(move || {
                held.wait();
                Err(SpeechError::new("never seen"))
            }),
            Default::default(),
            Duration::from_millis(100),
        )
        .err()
        .unwrap();
        assert!(err.to_string().contains("did not answer"), "{err}");
        gate.wait();
    }
}
