//! `AudioOut`: the sound output thread. It owns the `cpal` stream (which is
//! not `Send` on every platform) and mixes two kinds of sound: a speech
//! lane, played one buffer after another and stoppable (the clip voice),
//! and effects (earcons), mixed over it as they come.

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
}

struct Shared {
    mixer: Mutex<Mixer>,
    idle: Condvar,
}

struct Inner {
    shared: Arc<Shared>,
    rate: u32,
    channels: u16,
    device: String,
    shutdown: Mutex<Option<mpsc::Sender<()>>>,
}

impl Drop for Inner {
    fn drop(&mut self) {
        if let Some(tx) = self.shutdown.lock().map(|mut g| g.take()).ok().flatten() {
            let _ = tx.send(());
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
        let (shutdown_tx, shutdown_rx) = mpsc::channel::<()>();
        let thread_shared = shared.clone();
        std::thread::Builder::new()
            .name("rochade-audio-out".into())
            .spawn(move || match open_stream(thread_shared) {
                Ok((stream, rate, channels, device)) => {
                    let _ = ready_tx.send(Ok((rate, channels, device)));
                    // Keep the stream alive until the last AudioOut is dropped.
                    let _ = shutdown_rx.recv();
                    drop(stream);
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
                shutdown: Mutex::new(Some(shutdown_tx)),
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

fn open_stream(shared: Arc<Shared>) -> Result<Opened, AudioError> {
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
    stream
        .play()
        .map_err(|e| AudioError::new(format!("audio output {name}: {e}")))?;
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
        },
        |e| eprintln!("rochade: audio output: {e}"),
        None,
    )
}
