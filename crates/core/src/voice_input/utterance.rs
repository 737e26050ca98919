//! The utterance cutter: from a stream of 16 kHz mono audio, the stretches
//! a player said to Rochade. Pure: the shell passes in audio frames, key
//! presses and the start and end of Rochade's own speech, each with the
//! time it happened; out comes, now and then, an utterance ready for the
//! recogniser.
//!
//! Two modes. Push-to-talk: what was heard between key down and key up.
//! Continuous: a silence detector, speech starting well above a noise
//! floor that follows the room, ending after [`END_SILENCE_MS`] of quiet.
//! In both, nothing is heard while Rochade speaks and for [`MUTE_TAIL_MS`]
//! after (the room's echo, a speaker's last buffer): its own voice must
//! never play a move.

use std::collections::VecDeque;

/// Samples per second of the audio passed in.
pub const SAMPLE_RATE: u32 = 16_000;
/// The detector's frame: 10 ms.
const FRAME: usize = 160;
const FRAME_MS: u64 = 10;
/// Quiet that ends an utterance in continuous mode.
pub const END_SILENCE_MS: u64 = 600;
/// The longest utterance: a move or a command is said in far less; what
/// goes on longer (talk in the room) is cut here and handed over as it is.
pub const MAX_UTTERANCE_MS: u64 = 5_000;
/// Still deaf this long after Rochade stops speaking.
pub const MUTE_TAIL_MS: u64 = 300;
/// Kept before the first loud frame: a soft first consonant ("f", "h")
/// comes before the level rises.
const PRE_ROLL_FRAMES: usize = 30;
/// Loud frames in a row that start speech (a click is not speech).
const START_FRAMES: usize = 3;
/// Fewer loud frames than this is a knock or a cough, not a word.
const MIN_SPEECH_FRAMES: usize = 10;
/// Speech is this many times louder (RMS) than the noise floor.
const SPEECH_OVER_FLOOR: f64 = 3.0;
/// Below this RMS (of 32768) nothing is speech, however quiet the room.
const MIN_SPEECH_LEVEL: f64 = 200.0;

/// How the player tells Rochade that he speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Holding a key while speaking.
    PushToTalk,
    /// Always listening; a pause ends what was said.
    Continuous,
}

/// Something the cutter hears of; `at_ms` is the shell's clock (any
/// origin, never going back). For audio it is the time of its last sample.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum CutterEvent<'a> {
    /// 16 kHz mono samples, any number.
    Audio { samples: &'a [i16], at_ms: u64 },
    /// The push-to-talk key went down.
    KeyDown { at_ms: u64 },
    /// The push-to-talk key came up: what was said is ready.
    KeyUp { at_ms: u64 },
    /// Rochade began to speak.
    SpeakingStarted { at_ms: u64 },
    /// Rochade has said everything.
    SpeakingStopped { at_ms: u64 },
}

/// What the player said, 16 kHz mono.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Utterance {
    pub samples: Vec<i16>,
    /// It went on to [`MAX_UTTERANCE_MS`] and was cut there.
    pub cut_at_cap: bool,
}

/// The cutter; see the module's description.
#[derive(Clone, Debug)]
pub struct Cutter {
    mode: Mode,
    /// Rochade is speaking.
    speaking: bool,
    /// Deaf until then (the tail after Rochade's speech).
    muted_until: Option<u64>,
    /// Push-to-talk: the key is down.
    key_down: bool,
    /// Samples not yet a whole frame.
    partial: Vec<i16>,
    /// Continuous: the quiet frames before speech, kept for the pre-roll.
    before: VecDeque<Vec<i16>>,
    /// Continuous: loud frames in a row before speech is declared.
    loud_run: usize,
    /// The utterance being collected, if any.
    current: Option<Collecting>,
    /// The room's level (RMS), following it while nobody speaks; `None`
    /// until the first frame.
    floor: Option<f64>,
}

#[derive(Clone, Debug, Default)]
struct Collecting {
    samples: Vec<i16>,
    loud_frames: usize,
    quiet_run: usize,
}

impl Cutter {
    pub fn new(mode: Mode) -> Cutter {
        Cutter {
            mode,
            speaking: false,
            muted_until: None,
            key_down: false,
            partial: Vec::new(),
            before: VecDeque::new(),
            loud_run: 0,
            current: None,
            floor: None,
        }
    }

    pub fn mode(&self) -> Mode {
        self.mode
    }

    /// Whether audio arriving at `at_ms` is thrown away.
    pub fn muted(&self, at_ms: u64) -> bool {
        self.speaking || self.muted_until.is_some_and(|until| at_ms < until)
    }

    /// The room's level as the detector knows it (RMS of 32768).
    pub fn noise_floor(&self) -> Option<f64> {
        self.floor
    }

    /// One event in; an utterance out when one is complete.
    pub fn handle(&mut self, event: CutterEvent<'_>) -> Option<Utterance> {
        match event {
            CutterEvent::SpeakingStarted { .. } => {
                self.speaking = true;
                // What was being said is lost in Rochade's voice; the
                // player says it again once it is quiet.
                self.forget();
                None
            }
            CutterEvent::SpeakingStopped { at_ms } => {
                if self.speaking {
                    self.speaking = false;
                    self.muted_until = Some(at_ms + MUTE_TAIL_MS);
                }
                None
            }
            CutterEvent::KeyDown { .. } => {
                if self.mode == Mode::PushToTalk && !self.key_down {
                    self.key_down = true;
                    self.partial.clear();
                    self.current = Some(Collecting::default());
                }
                None
            }
            CutterEvent::KeyUp { .. } => {
                if self.mode != Mode::PushToTalk || !self.key_down {
                    return None;
                }
                self.key_down = false;
                let mut current = self.current.take()?;
                current.samples.append(&mut self.partial);
                (!current.samples.is_empty()).then_some(Utterance {
                    samples: current.samples,
                    cut_at_cap: false,
                })
            }
            CutterEvent::Audio { samples, at_ms } => {
                // Deaf for a buffer that began while muted: its first
                // samples may be Rochade's voice.
                let began =
                    at_ms.saturating_sub(samples.len() as u64 * 1000 / u64::from(SAMPLE_RATE));
                if self.muted(began) {
                    return None;
                }
                self.muted_until = None;
                match self.mode {
                    Mode::PushToTalk => self.push_to_talk(samples),
                    Mode::Continuous => self.continuous(samples),
                }
            }
        }
    }

    fn forget(&mut self) {
        self.partial.clear();
        self.before.clear();
        self.loud_run = 0;
        if self.mode == Mode::Continuous {
            self.current = None;
        } else if let Some(current) = &mut self.current {
            current.samples.clear();
        }
    }

    fn push_to_talk(&mut self, samples: &[i16]) -> Option<Utterance> {
        let current = self.current.as_mut()?;
        current.samples.extend_from_slice(samples);
        if current.samples.len() < cap_samples() {
            return None;
        }
        // Held too long: what was said so far is handed over; the rest
        // until the key comes up is not heard.
        let mut samples = std::mem::take(&mut current.samples);
        samples.truncate(cap_samples());
        self.current = None;
        Some(Utterance {
            samples,
            cut_at_cap: true,
        })
    }

    fn continuous(&mut self, samples: &[i16]) -> Option<Utterance> {
        self.partial.extend_from_slice(samples);
        let mut ready = None;
        let whole = self.partial.len() / FRAME * FRAME;
        let frames: Vec<i16> = self.partial.drain(..whole).collect();
        for frame in frames.chunks(FRAME) {
            if let Some(utterance) = self.frame(frame) {
                ready = Some(utterance);
            }
        }
        ready
    }

    /// One 10 ms frame in continuous mode.
    fn frame(&mut self, frame: &[i16]) -> Option<Utterance> {
        let level = rms(frame);
        let floor = *self.floor.get_or_insert(level);
        let threshold = (floor * SPEECH_OVER_FLOOR).max(MIN_SPEECH_LEVEL);
        let loud = level > threshold;
        let Some(current) = &mut self.current else {
            self.follow_floor(level);
            self.before.push_back(frame.to_vec());
            if self.before.len() > PRE_ROLL_FRAMES {
                self.before.pop_front();
            }
            self.loud_run = if loud { self.loud_run + 1 } else { 0 };
            if self.loud_run >= START_FRAMES {
                let samples: Vec<i16> = self.before.drain(..).flatten().collect();
                self.current = Some(Collecting {
                    samples,
                    loud_frames: self.loud_run,
                    quiet_run: 0,
                });
                self.loud_run = 0;
            }
            return None;
        };
        current.samples.extend_from_slice(frame);
        if loud {
            current.loud_frames += 1;
            current.quiet_run = 0;
        } else {
            current.quiet_run += 1;
        }
        let ended = current.quiet_run as u64 * FRAME_MS >= END_SILENCE_MS;
        let capped = current.samples.len() >= cap_samples();
        if !ended && !capped {
            return None;
        }
        let current = self.current.take()?;
        if capped && !ended {
            // Talk that goes on and on, or a noise that rose and stayed:
            // the floor starts again from the level now, so a new steady
            // noise is soon the room's level.
            self.floor = Some(level);
        }
        (current.loud_frames >= MIN_SPEECH_FRAMES).then_some(Utterance {
            samples: current.samples,
            cut_at_cap: capped && !ended,
        })
    }

    /// The floor falls at once to a quieter room and rises slowly, so a
    /// word does not raise it but a fan switched on does, in seconds.
    fn follow_floor(&mut self, level: f64) {
        let floor = self.floor.get_or_insert(level);
        if level < *floor {
            *floor = level.max(1.0);
        } else {
            *floor += (level - *floor) * 0.01;
        }
    }
}

fn cap_samples() -> usize {
    (MAX_UTTERANCE_MS * u64::from(SAMPLE_RATE) / 1000) as usize
}

fn rms(frame: &[i16]) -> f64 {
    if frame.is_empty() {
        return 0.0;
    }
    let sum: f64 = frame.iter().map(|&s| f64::from(s) * f64::from(s)).sum();
    (sum / frame.len() as f64).sqrt()
}

#[cfg(test)]
#[path = "utterance_tests.rs"]
mod tests;
