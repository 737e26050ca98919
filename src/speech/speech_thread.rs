//! The speech thread: it runs the [`SpeechQueue`], carries out its
//! commands on the voice's worker, watches every call and utterance
//! against its deadline and, when a voice stops answering, abandons it
//! for the next ([`super::voice_choice`]) and says what was cut off again.
//! The state it shares with the handles is here too.

use std::sync::{Condvar, Mutex, mpsc};
use std::time::{Duration, Instant};

use super::backend::{Finished, Msg, RecordingBackend, Silence, SpeechBackend, VoiceSettings};
use super::clips::{ClipVoice, has_clips};
use super::mode::SpeechMode;
use super::queue::{Command, SpeechQueue, UtteranceKey};
use super::voice::VoiceInfo;
use super::watchdog::{Deadlines, Hung, MakeBackend, Watchdog, Worker};
use crate::session::{Priority, Speech};
use crate::words::{LoadPack, Pack};

pub use super::backend::{BackendChoice, SpeechConfig};

use super::voice_choice::{NextVoice, next_voice, same_backend, start_voice};

#[derive(Default)]
pub(super) struct Status {
    /// Requests sent by handles / handled by the thread; equal and an idle
    /// queue mean nothing is left to say.
    pub(super) submitted: u64,
    pub(super) handled: u64,
    pub(super) queue_idle: bool,
    pub(super) backend_name: String,
    pub(super) mode: SpeechMode,
    pub(super) notes: Vec<String>,
    pub(super) voices: Vec<VoiceInfo>,
    pub(super) skipped_words: Vec<String>,
    pub(super) errors: Vec<String>,
    pub(super) fallbacks: Vec<Fallback>,
    /// The speech thread has ended.
    pub(super) stopped: bool,
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

pub(super) type OnFallback = Box<dyn Fn(&Fallback) + Send>;

pub(super) struct Shared {
    pub(super) status: Mutex<Status>,
    pub(super) changed: Condvar,
    pub(super) on_fallback: Mutex<Option<OnFallback>>,
}

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

/// The backend speaking now, on its worker thread.
pub(super) struct Voice {
    pub(super) worker: Worker,
    /// Which backend of this service it is (0 the first): tags its keys.
    pub(super) generation: u64,
    pub(super) name: String,
}

/// How often the speech thread polls a backend while an utterance plays.
const POLL: Duration = Duration::from_millis(50);

/// "4 s", "11.2 s".
fn secs(d: Duration) -> String {
    format!("{} s", (d.as_secs_f32() * 10.0).round() / 10.0)
}

/// The speech thread's state: the queue, the voice and its watchdog.
pub(super) struct Thread<'a> {
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
    pub(super) fn new(
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

    pub(super) fn run(mut self, rx: &mpsc::Receiver<Msg>) {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_carry_their_backend_s_generation() {
        assert_eq!(untag(tag(3, 17)), (3, 17));
        assert_eq!(tag(0, 17), 17, "the first backend sees the queue's keys");
    }
}
