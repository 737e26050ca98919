//! `AudioOut`: the sound output thread. It owns the `cpal` stream (which is
//! not `Send` on every platform) and mixes two kinds of sound: a speech
//! lane, played one buffer after another and stoppable (the clip voice),
//! and effects (earcons), mixed over it as they come.
//!
//! The stream runs only while there is something to play: the thread
//! sleeps on a channel, opens the stream when a sound is queued, and closes
//! it once the mixer has been idle for [`LINGER`]. Idle, the app costs no
//! CPU and writes nothing, whatever the device (an ALSA `file` or `null`
//! device has no clock and would otherwise be fed as fast as the CPU can).

use std::collections::{HashSet, VecDeque};
use std::sync::mpsc;
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

use cpal::traits::{DeviceTrait, HostTrait, StreamTrait};
use cpal::{FromSample, SizedSample};

use super::{AudioError, Clip, earcon_samples};
use crate::session::Earcon;

/// Called once when a speech buffer has been played or was stopped.
pub type DoneCallback = Box<dyn FnOnce() + Send>;

struct Sound {
    samples: Arc<[f32]>,
    pos: usize,
    done: Option<DoneCallback>,
}

#[derive(Default)]
struct Mixer {
    speech: VecDeque<Sound>,
    effects: Vec<Sound>,
    gain: f32,
    stream_open: bool,
}

impl Mixer {
    fn next_sample(&mut self) -> f32 {
        let mut v = 0.0;
        while let Some(front) = self.speech.front_mut() {
            if front.pos < front.samples.len() {
                v += front.samples[front.pos];
                front.pos += 1;
                break;
            }
            let mut done = self.speech.pop_front().expect("front exists");
            if let Some(cb) = done.done.take() {
                cb();
            }
        }
        for e in &mut self.effects {
            if e.pos < e.samples.len() {
                v += e.samples[e.pos];
                e.pos += 1;
            }
        }
        self.effects.retain(|e| e.pos < e.samples.len());
        (v * self.gain).clamp(-1.0, 1.0)
    }

    fn is_idle(&self) -> bool {
        self.speech.iter().all(|s| s.pos >= s.samples.len()) && self.effects.is_empty()
    }

    /// Ends speech that has played through (before the stream closes, so
    /// no "done" is left waiting for a callback that will not come).
    fn finish_played(&mut self) {
        while self
            .speech
            .front()
            .is_some_and(|s| s.pos >= s.samples.len())
        {
            let mut done = self.speech.pop_front().expect("front exists");
            if let Some(cb) = done.done.take() {
                cb();
            }
        }
    }
}

/// The audio thread's life: asleep until a sound is queued, then the
/// stream is open until the mixer has been idle for [`LINGER`].
fn run_on_demand(shared: &Arc<Shared>, wake: &mpsc::Receiver<Wake>) {
    let lock = || shared.mixer.lock().unwrap_or_else(|e| e.into_inner());
    loop {
        match wake.recv() {
            Ok(Wake::Play) => {}
            Ok(Wake::Shutdown) | Err(_) => return,
        }
        if lock().is_idle() {
            lock().finish_played();
            continue;
        }
        // Open from before the first callback: a device without a clock
        // can play the whole sound before `open_stream` returns, and a
        // watcher must not see "idle and closed" while the stream is up.
        lock().stream_open = true;
        let stream = match open_stream(shared.clone(), true) {
            Ok((stream, ..)) => stream,
            Err(e) => {
                eprintln!("rochade: {e}");
                // Nothing can play: end what waits so nobody hangs.
                let mut m = lock();
                m.stream_open = false;
                m.effects.clear();
                for s in &mut m.speech {
                    s.pos = s.samples.len();
                }
                m.finish_played();
                drop(m);
                shared.idle.notify_all();
                continue;
            }
        };
        let mut idle_since: Option<Instant> = None;
        let shutdown = loop {
            match wake.recv_timeout(Duration::from_millis(100)) {
                Ok(Wake::Play) => idle_since = None,
                Ok(Wake::Shutdown) | Err(mpsc::RecvTimeoutError::Disconnected) => break true,
                Err(mpsc::RecvTimeoutError::Timeout) => {}
            }
            if lock().is_idle() {
                let since = *idle_since.get_or_insert_with(Instant::now);
                if since.elapsed() >= LINGER {
                    break false;
                }
            } else {
                idle_since = None;
            }
        };
        drop(stream);
        let mut m = lock();
        m.stream_open = false;
        m.finish_played();
        drop(m);
        shared.idle.notify_all();
        if shutdown {
            return;
        }
    }
}

struct Shared {
    mixer: Mutex<Mixer>,
    idle: Condvar,
}

/// How long the stream stays open after the last sound ended, so that a
/// burst of sounds (a move, its earcon, the next word) does not reopen it.
pub const LINGER: Duration = Duration::from_millis(1500);

enum Wake {
    /// Something was queued: open the stream if it is closed.
    Play,
    Shutdown,
}

struct Inner {
    shared: Arc<Shared>,
    rate: u32,
    channels: u16,
    device: String,
    wake: Mutex<mpsc::Sender<Wake>>,
}

impl Drop for Inner {
    fn drop(&mut self) {
        if let Ok(tx) = self.wake.lock() {
            let _ = tx.send(Wake::Shutdown);
        }
    }
}

/// Which earcons sound, and how loud. Each can be switched off.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(default)]
pub struct EarconSettings {
    pub enabled: bool,
    pub disabled: HashSet<Earcon>,
    /// 0.0 ..= 1.0.
    pub volume: f32,
}

impl Default for EarconSettings {
    fn default() -> Self {
        EarconSettings {
            enabled: true,
            disabled: HashSet::new(),
            volume: 0.8,
        }
    }
}

impl EarconSettings {
    pub fn is_on(&self, earcon: Earcon) -> bool {
        self.enabled && !self.disabled.contains(&earcon)
    }
}

/// The sound output. Cheap to clone and `Send`; the stream closes when
/// the last clone is dropped.
#[derive(Clone)]
pub struct AudioOut {
    inner: Arc<Inner>,
}

impl std::fmt::Debug for AudioOut {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "AudioOut({}, {} Hz, {} ch)",
            self.inner.device, self.inner.rate, self.inner.channels
        )
    }
}

impl AudioOut {
    /// Opens the default output device of the default host.
    pub fn open() -> Result<AudioOut, AudioError> {
        let shared = Arc::new(Shared {
            mixer: Mutex::new(Mixer {
                gain: 1.0,
                ..Mixer::default()
            }),
            idle: Condvar::new(),
        });
        let (ready_tx, ready_rx) = mpsc::channel();
        let (wake_tx, wake_rx) = mpsc::channel::<Wake>();
        let thread_shared = shared.clone();
        std::thread::Builder::new()
            .name("rochade-audio-out".into())
            .spawn(move || match open_stream(thread_shared.clone(), false) {
                Ok((stream, rate, channels, device)) => {
                    // Opened once to learn the format; closed until needed.
                    drop(stream);
                    let _ = ready_tx.send(Ok((rate, channels, device)));
                    run_on_demand(&thread_shared, &wake_rx);
                }
                Err(e) => {
                    let _ = ready_tx.send(Err(e));
                }
            })
            .map_err(|e| AudioError::new(format!("cannot start the audio thread: {e}")))?;
        let (rate, channels, device) = ready_rx
            .recv_timeout(Duration::from_secs(10))
            .map_err(|_| AudioError::new("the audio device did not open within 10 s"))??;
        Ok(AudioOut {
            inner: Arc::new(Inner {
                shared,
                rate,
                channels,
                device,
                wake: Mutex::new(wake_tx),
            }),
        })
    }

    /// The device's sample rate: buffers handed to `play_*` must use it.
    pub fn sample_rate(&self) -> u32 {
        self.inner.rate
    }

    pub fn channels(&self) -> u16 {
        self.inner.channels
    }

    /// Name of the output device, for messages.
    pub fn device_name(&self) -> &str {
        &self.inner.device
    }

    /// Master volume, 0.0 ..= 1.0.
    pub fn set_volume(&self, volume: f32) {
        self.mixer().gain = volume.clamp(0.0, 1.0);
    }

    /// Queues mono samples (at [`Self::sample_rate`]) on the speech lane;
    /// `done` runs when they have played or were stopped.
    pub fn play_speech(&self, samples: Vec<f32>, done: Option<DoneCallback>) {
        self.mixer().speech.push_back(Sound {
            samples: samples.into(),
            pos: 0,
            done,
        });
        self.wake();
    }

    /// Plays a clip on the speech lane, resampled to the device rate.
    pub fn play_clip(&self, clip: &Clip, done: Option<DoneCallback>) {
        self.play_speech(clip.resampled(self.inner.rate).samples, done);
    }

    /// Cuts off the speech lane (effects keep playing).
    pub fn stop_speech(&self) {
        let stopped: Vec<Sound> = self.mixer().speech.drain(..).collect();
        for mut s in stopped {
            if let Some(cb) = s.done.take() {
                cb();
            }
        }
        self.inner.shared.idle.notify_all();
    }

    pub fn is_speaking(&self) -> bool {
        self.mixer().speech.iter().any(|s| s.pos < s.samples.len())
    }

    /// Mixes mono samples over whatever plays.
    pub fn play_effect(&self, samples: Vec<f32>) {
        self.mixer().effects.push(Sound {
            samples: samples.into(),
            pos: 0,
            done: None,
        });
        self.wake();
    }

    /// Whether the output stream is open now (it closes when idle).
    pub fn stream_open(&self) -> bool {
        self.mixer().stream_open
    }

    /// Waits until the output stream has closed after playing; false on
    /// timeout.
    pub fn wait_closed(&self, timeout: Duration) -> bool {
        let deadline = Instant::now() + timeout;
        let mut m = self.mixer();
        while m.stream_open || !m.is_idle() {
            let now = Instant::now();
            if now >= deadline {
                return false;
            }
            m = self
                .inner
                .shared
                .idle
                .wait_timeout(m, deadline - now)
                .unwrap()
                .0;
        }
        true
    }

    fn wake(&self) {
        if let Ok(tx) = self.inner.wake.lock() {
            let _ = tx.send(Wake::Play);
        }
    }

    /// Plays an earcon unless the settings switch it off.
    pub fn play_earcon(&self, earcon: Earcon, settings: &EarconSettings) {
        if settings.is_on(earcon) {
            let v = settings.volume.clamp(0.0, 1.0);
            self.play_effect(
                earcon_samples(earcon, self.inner.rate)
                    .into_iter()
                    .map(|s| s * v)
                    .collect(),
            );
        }
    }

    /// Waits until nothing is left to play; false on timeout.
    pub fn wait_idle(&self, timeout: Duration) -> bool {
        let deadline = Instant::now() + timeout;
        let mut m = self.mixer();
        while !m.is_idle() {
            let now = Instant::now();
            if now >= deadline {
                return false;
            }
            m = self
                .inner
                .shared
                .idle
                .wait_timeout(m, (deadline - now).min(Duration::from_millis(20)))
                .unwrap()
                .0;
        }
        true
    }

    fn mixer(&self) -> std::sync::MutexGuard<'_, Mixer> {
        self.inner
            .shared
            .mixer
            .lock()
            .unwrap_or_else(|e| e.into_inner())
    }
}

type Opened = (cpal::Stream, u32, u16, String);

/// Keeps a device without a clock (ALSA `file` over `null`) at real time:
/// such a device asks for samples as fast as the CPU can make them. A real
/// device never runs more than its buffer (well under [`Pace::AHEAD`])
/// ahead of the wall clock, so this never waits there.
#[derive(Default)]
struct Pace {
    start: Option<Instant>,
    frames: u64,
}

impl Pace {
    const AHEAD: Duration = Duration::from_millis(400);

    fn delivered(&mut self, frames: u64, rate: f64) {
        let start = *self.start.get_or_insert_with(Instant::now);
        self.frames += frames;
        let played = Duration::from_secs_f64(self.frames as f64 / rate);
        let ahead = played.saturating_sub(start.elapsed());
        if ahead > Pace::AHEAD {
            std::thread::sleep(ahead - Pace::AHEAD / 2);
        }
    }
}

fn open_stream(shared: Arc<Shared>, play: bool) -> Result<Opened, AudioError> {
    let host = cpal::default_host();
    let device = host
        .default_output_device()
        .ok_or_else(|| AudioError::new("no audio output device"))?;
    let name = device
        .id()
        .map(|id| id.to_string())
        .unwrap_or_else(|_| "default".into());
    let supported = device
        .default_output_config()
        .map_err(|e| AudioError::new(format!("audio output {name}: {e}")))?;
    let format = supported.sample_format();
    let config: cpal::StreamConfig = supported.into();
    let stream = match format {
        cpal::SampleFormat::F32 => build::<f32>(&device, &config, shared),
        cpal::SampleFormat::I16 => build::<i16>(&device, &config, shared),
        cpal::SampleFormat::U16 => build::<u16>(&device, &config, shared),
        cpal::SampleFormat::I32 => build::<i32>(&device, &config, shared),
        cpal::SampleFormat::U8 => build::<u8>(&device, &config, shared),
        cpal::SampleFormat::F64 => build::<f64>(&device, &config, shared),
        other => {
            return Err(AudioError::new(format!(
                "audio output {name}: unsupported sample format {other}"
            )));
        }
    }
    .map_err(|e| AudioError::new(format!("audio output {name}: {e}")))?;
    if play {
        stream
            .play()
            .map_err(|e| AudioError::new(format!("audio output {name}: {e}")))?;
    }
    Ok((stream, config.sample_rate, config.channels, name))
}

fn build<T>(
    device: &cpal::Device,
    config: &cpal::StreamConfig,
    shared: Arc<Shared>,
) -> Result<cpal::Stream, cpal::Error>
where
    T: SizedSample + FromSample<f32>,
{
    let channels = config.channels.max(1) as usize;
    let rate = config.sample_rate.max(1) as f64;
    let mut pace = Pace::default();
    device.build_output_stream(
        *config,
        move |data: &mut [T], _: &cpal::OutputCallbackInfo| {
            let mut m = shared.mixer.lock().unwrap_or_else(|e| e.into_inner());
            for frame in data.chunks_mut(channels) {
                let v = T::from_sample(m.next_sample());
                frame.fill(v);
            }
            if m.is_idle() {
                shared.idle.notify_all();
            }
            drop(m);
            pace.delivered((data.len() / channels) as u64, rate);
        },
        |e| eprintln!("rochade: audio output: {e}"),
        None,
    )
}
