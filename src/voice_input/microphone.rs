//! The voice source: the microphone (or recordings played as if said into
//! it) cut into utterances by the core's [`Cutter`], each recognised in
//! the current position on a thread of its own, with a deadline. What it
//! hears comes out as [`VoiceEvent`]s on the front end's channel; a
//! missing model or a broken microphone is reported once, and the front
//! end goes on with typed moves.
//!
//! Recordings (`--voice-wav`, tests) go through the same cutter and
//! recogniser in 20 ms buffers at the pace of speech; each waits until the
//! front end waits for the player and Rochade is quiet, as a player would.
//! With push-to-talk a recording also waits for the key to be pressed (a
//! player presses, then speaks) and is then played to its end whatever the
//! key does: what plays while the key is up is dropped by the cutter, as
//! the microphone's sound is. The end of each is told ([`VoiceEvent::Played`]),
//! so that a test holding the key knows when to let go.

use std::path::PathBuf;
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::time::{Duration, Instant};

use rochade_core::voice_input::utterance::{END_SILENCE_MS, Mode};
use rochade_core::voice_input::{Cutter, CutterEvent};
use shakmaty::Chess;

use super::{Listener, Model, Recognition, VoiceError, wav};
use crate::audio::{Clip, MicRecorder};
use crate::words::Lang;

/// One buffer of audio: 20 ms, as a sound card gives them.
const BUFFER: Duration = Duration::from_millis(20);
const BUFFER_SAMPLES: usize = 320;
/// A recognition not done in this time is given up (a decoder stuck on a
/// huge grammar): the player is told and may say it again.
pub const RECOGNITION_DEADLINE: Duration = Duration::from_secs(8);

/// Where the sound comes from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Feed {
    /// The default input device.
    Microphone,
    /// Recordings (16 kHz WAV), one after the other, each once the front
    /// end waits for the player: how tests speak.
    Recordings(Vec<PathBuf>),
}

/// What the voice source tells the front end.
#[derive(Debug)]
pub enum VoiceEvent {
    /// Something was said and recognised (or not) in `position`.
    Heard {
        recognition: Recognition,
        position: Box<Chess>,
    },
    /// Voice input cannot work; typing still does. Sent once, then the
    /// source stops.
    Unavailable(Unavailable),
    /// The recognition took longer than [`RECOGNITION_DEADLINE`].
    TooSlow,
    /// One recording was played to its end (never with the microphone):
    /// the player has finished speaking, and may let go of the key.
    Played,
    /// Every recording was played (never with the microphone).
    Ended,
}

/// Why voice input cannot listen, as the front end says it.
#[derive(Debug)]
pub enum Unavailable {
    /// pocketsphinx or its model is not installed.
    NotInstalled(String),
    /// The language has no speech model.
    Language(Lang),
    /// The microphone, a recording, or the recogniser failed.
    Failed(String),
}

impl From<VoiceError> for Unavailable {
    fn from(e: VoiceError) -> Unavailable {
        match e {
            VoiceError::NoLibrary(_) | VoiceError::NoModel(_) => {
                Unavailable::NotInstalled(e.to_string())
            }
            VoiceError::NoLanguage(lang) => Unavailable::Language(lang),
            other => Unavailable::Failed(other.to_string()),
        }
    }
}

enum Control {
    Position(Box<Chess>),
    Awaiting(bool),
    Key { down: bool },
}

/// The running voice source; dropping it stops it.
pub struct VoiceSource {
    control: Sender<Control>,
}

impl VoiceSource {
    /// Starts listening in `lang` (`mode`: push-to-talk or continuous) to
    /// `feed`; `speaking` tells whether Rochade is speaking (nothing is
    /// heard then). Every event goes to `events`, wrapped by `wrap`.
    pub fn start<M: Send + 'static>(
        lang: Lang,
        mode: Mode,
        feed: Feed,
        speaking: Box<dyn Fn() -> bool + Send>,
        events: Sender<M>,
        wrap: fn(VoiceEvent) -> M,
    ) -> VoiceSource {
        let (control, control_rx) = mpsc::channel();
        let tell = move |event| events.send(wrap(event)).is_ok();
        let spawned = std::thread::Builder::new()
            .name("rochade-voice".into())
            .spawn(move || {
                let thread = Listening::new(lang, mode, speaking, control_rx);
                thread.run(feed, &tell);
            });
        if let Err(e) = spawned {
            eprintln!("rochade: voice input: no thread: {e}");
        }
        VoiceSource { control }
    }

    /// The position what is said is heard in.
    pub fn set_position(&self, position: &Chess) {
        let _ = self
            .control
            .send(Control::Position(Box::new(position.clone())));
    }

    /// Whether the front end waits for the player now (a recording is
    /// played only then).
    pub fn set_awaiting(&self, awaiting: bool) {
        let _ = self.control.send(Control::Awaiting(awaiting));
    }

    /// The push-to-talk key.
    pub fn key(&self, down: bool) {
        let _ = self.control.send(Control::Key { down });
    }
}

/// The recogniser's thread: the model loaded once, one request at a time.
struct Recogniser {
    requests: Sender<(u64, Box<Chess>, Vec<i16>)>,
    results: Receiver<(u64, Box<Chess>, Result<Recognition, VoiceError>)>,
}

impl Recogniser {
    fn start(lang: Lang) -> Recogniser {
        let (requests, request_rx) = mpsc::channel::<(u64, Box<Chess>, Vec<i16>)>();
        let (result_tx, results) = mpsc::channel();
        let spawned = std::thread::Builder::new()
            .name("rochade-recogniser".into())
            .spawn(move || {
                let listener = Model::find().and_then(|model| Listener::new(lang, &model));
                let mut listener = match listener {
                    Ok(l) => l,
                    Err(e) => {
                        let _ = result_tx.send((0, Box::new(Chess::default()), Err(e)));
                        return;
                    }
                };
                for (id, position, samples) in request_rx {
                    let result = listener.listen(&position, &samples);
                    if result_tx.send((id, position, result)).is_err() {
                        return;
                    }
                }
            });
        if let Err(e) = spawned {
            eprintln!("rochade: voice input: no recogniser thread: {e}");
        }
        Recogniser { requests, results }
    }
}

/// The listening thread's state.
struct Listening {
    started: Instant,
    cutter: Cutter,
    speaking: Box<dyn Fn() -> bool + Send>,
    was_speaking: bool,
    control: Receiver<Control>,
    position: Box<Chess>,
    awaiting: bool,
    /// The push-to-talk key is held.
    key_held: bool,
    /// The key was pressed since the last recording began (a press and
    /// release between two buffers counts).
    key_pressed: bool,
    recogniser: Recogniser,
    /// The recognition under way: its number and when it was asked.
    pending: Option<(u64, Instant)>,
    next_id: u64,
}

/// What one step of the loop asks of the thread.
enum Step {
    Go,
    Stop,
}

impl Listening {
    fn new(
        lang: Lang,
        mode: Mode,
        speaking: Box<dyn Fn() -> bool + Send>,
        control: Receiver<Control>,
    ) -> Listening {
        Listening {
            started: Instant::now(),
            cutter: Cutter::new(mode),
            speaking,
            was_speaking: false,
            control,
            position: Box::new(Chess::default()),
            awaiting: false,
            key_held: false,
            key_pressed: false,
            recogniser: Recogniser::start(lang),
            pending: None,
            next_id: 1,
        }
    }

    fn now_ms(&self) -> u64 {
        self.started.elapsed().as_millis() as u64
    }

    fn run(mut self, feed: Feed, tell: &dyn Fn(VoiceEvent) -> bool) {
        match feed {
            Feed::Microphone => self.microphone(tell),
            Feed::Recordings(files) => self.recordings(files, tell),
        }
    }

    fn microphone(&mut self, tell: &dyn Fn(VoiceEvent) -> bool) {
        let mic: MicRecorder = match crate::audio::start_recording() {
            Ok(m) => m,
            Err(e) => {
                tell(VoiceEvent::Unavailable(Unavailable::Failed(e.to_string())));
                return;
            }
        };
        loop {
            if let Step::Stop = self.wait_a_buffer(tell) {
                return;
            }
            let samples = at_speech_rate(mic.take_new(), mic.rate());
            if let Step::Stop = self.hear(&samples, tell) {
                return;
            }
        }
    }

    fn recordings(&mut self, files: Vec<PathBuf>, tell: &dyn Fn(VoiceEvent) -> bool) {
        for file in files {
            let mut samples = match wav::read_speech(&file) {
                Ok(s) => s,
                Err(e) => {
                    tell(VoiceEvent::Unavailable(Unavailable::Failed(e.to_string())));
                    return;
                }
            };
            // The pause after it that ends the utterance, and some more.
            samples.extend(vec![0; (END_SILENCE_MS as usize + 400) * 16]);
            // As a player waits for his turn and for Rochade to finish,
            // and presses the push-to-talk key before speaking.
            while !self.ready_for_the_player() || !self.talk_key_pressed() {
                if let Step::Stop = self.wait_a_buffer(tell) {
                    return;
                }
                if let Step::Stop = self.hear(&[], tell) {
                    return;
                }
            }
            self.key_pressed = false;
            for buffer in samples.chunks(BUFFER_SAMPLES) {
                if let Step::Stop = self.wait_a_buffer(tell) {
                    return;
                }
                if let Step::Stop = self.hear(buffer, tell) {
                    return;
                }
            }
            if !tell(VoiceEvent::Played) {
                return;
            }
        }
        // The key let go (what was said while it was held is the last
        // utterance) and the last recognition's answer, then the end.
        while self.pending.is_some() || self.key_held {
            if let Step::Stop = self.wait_a_buffer(tell) {
                return;
            }
            if let Step::Stop = self.hear(&[], tell) {
                return;
            }
        }
        tell(VoiceEvent::Ended);
    }

    fn ready_for_the_player(&self) -> bool {
        self.awaiting && self.pending.is_none() && !self.cutter.muted(self.now_ms())
    }

    /// Continuous listening needs no key; push-to-talk a press.
    fn talk_key_pressed(&self) -> bool {
        self.cutter.mode() == Mode::Continuous || self.key_pressed
    }

    /// Takes the front end's news for one buffer's time.
    fn wait_a_buffer(&mut self, tell: &dyn Fn(VoiceEvent) -> bool) -> Step {
        let until = Instant::now() + BUFFER;
        loop {
            let left = until.saturating_duration_since(Instant::now());
            match self.control.recv_timeout(left) {
                Ok(Control::Position(p)) => self.position = p,
                Ok(Control::Awaiting(a)) => self.awaiting = a,
                Ok(Control::Key { down }) => {
                    self.key_held = down;
                    self.key_pressed |= down;
                    let at_ms = self.now_ms();
                    let event = if down {
                        CutterEvent::KeyDown { at_ms }
                    } else {
                        CutterEvent::KeyUp { at_ms }
                    };
                    if let Some(utterance) = self.cutter.handle(event) {
                        return self.recognise(utterance.samples, tell);
                    }
                }
                Err(RecvTimeoutError::Timeout) => return Step::Go,
                // The front end is gone.
                Err(RecvTimeoutError::Disconnected) => return Step::Stop,
            }
        }
    }

    /// One buffer through the cutter; Rochade's speech and the recogniser's
    /// answers looked at.
    fn hear(&mut self, samples: &[i16], tell: &dyn Fn(VoiceEvent) -> bool) -> Step {
        let at_ms = self.now_ms();
        let speaking = (self.speaking)();
        if speaking != self.was_speaking {
            self.was_speaking = speaking;
            let event = if speaking {
                CutterEvent::SpeakingStarted { at_ms }
            } else {
                CutterEvent::SpeakingStopped { at_ms }
            };
            self.cutter.handle(event);
        }
        if let Step::Stop = self.answers(tell) {
            return Step::Stop;
        }
        if samples.is_empty() {
            return Step::Go;
        }
        match self.cutter.handle(CutterEvent::Audio { samples, at_ms }) {
            Some(utterance) => self.recognise(utterance.samples, tell),
            None => Step::Go,
        }
    }

    fn recognise(&mut self, samples: Vec<i16>, tell: &dyn Fn(VoiceEvent) -> bool) -> Step {
        if self.pending.is_some() {
            // One at a time: said while the last is still being decoded.
            return Step::Go;
        }
        let id = self.next_id;
        self.next_id += 1;
        let request = (id, self.position.clone(), samples);
        if self.recogniser.requests.send(request).is_err() {
            // The recogniser stopped; its reason is among the answers.
            return self.answers(tell);
        }
        self.pending = Some((id, Instant::now()));
        Step::Go
    }

    fn answers(&mut self, tell: &dyn Fn(VoiceEvent) -> bool) -> Step {
        loop {
            match self.recogniser.results.try_recv() {
                Ok((id, position, result)) => {
                    let event = match result {
                        Err(e) => {
                            tell(VoiceEvent::Unavailable(e.into()));
                            return Step::Stop;
                        }
                        Ok(_) if self.pending.map(|(p, _)| p) != Some(id) => continue,
                        Ok(recognition) => VoiceEvent::Heard {
                            recognition,
                            position,
                        },
                    };
                    self.pending = None;
                    if !tell(event) {
                        return Step::Stop;
                    }
                }
                Err(mpsc::TryRecvError::Empty) => break,
                Err(mpsc::TryRecvError::Disconnected) => {
                    tell(VoiceEvent::Unavailable(Unavailable::Failed(
                        "the recogniser stopped".into(),
                    )));
                    return Step::Stop;
                }
            }
        }
        if let Some((_, asked)) = self.pending
            && asked.elapsed() > RECOGNITION_DEADLINE
        {
            // Its late answer is dropped (another number is awaited).
            self.pending = None;
            if !tell(VoiceEvent::TooSlow) {
                return Step::Stop;
            }
        }
        Step::Go
    }
}

/// The microphone's samples (-1..1 at the device's rate, mono) as the
/// recogniser takes them: 16 kHz, 16-bit.
fn at_speech_rate(samples: Vec<f32>, rate: u32) -> Vec<i16> {
    Clip::new(samples, rate)
        .resampled(wav::SAMPLE_RATE)
        .samples
        .iter()
        .map(|s| (s.clamp(-1.0, 1.0) * f32::from(i16::MAX)) as i16)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_48_khz_buffer_becomes_16_khz_16_bit() {
        // 20 ms of a 300 Hz tone at half scale, as a sound card gives it.
        let tone: Vec<f32> = (0..960)
            .map(|i| 0.5 * (i as f32 * 300.0 * std::f32::consts::TAU / 48_000.0).sin())
            .collect();
        let out = at_speech_rate(tone, 48_000);
        assert_eq!(out.len(), 320);
        let peak = out.iter().map(|s| s.abs()).max().unwrap_or(0);
        assert!((16_000..=16_384).contains(&peak), "{peak}");
        // Out of range clipped, not wrapped.
        assert_eq!(at_speech_rate(vec![2.0, -2.0], 16_000), [32_767, -32_767]);
    }
}
