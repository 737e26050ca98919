//! Microphone recording through `cpal`, for users who record their own
//! voice clips. The input stream lives on its own thread; the GUI holds a
//! [`MicRecorder`], shows [`MicRecorder::level`] as a meter, and calls
//! [`MicRecorder::stop`] to get the take.

use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, Mutex, mpsc};
use std::time::Duration;

use cpal::SizedSample;
use cpal::traits::{DeviceTrait, HostTrait, StreamTrait};

use super::{AudioError, Clip};

/// A recording in progress from the default input device.
pub struct MicRecorder {
    samples: Arc<Mutex<Vec<f32>>>,
    level: Arc<AtomicU32>,
    rate: u32,
    stop: mpsc::Sender<()>,
    thread: Option<std::thread::JoinHandle<()>>,
}

/// Starts recording from the default input device (mono mix-down).
pub fn start_recording() -> Result<MicRecorder, AudioError> {
    let samples = Arc::new(Mutex::new(Vec::new()));
    let level = Arc::new(AtomicU32::new(0));
    let (ready_tx, ready_rx) = mpsc::channel();
    let (stop_tx, stop_rx) = mpsc::channel::<()>();
    let (s, l) = (samples.clone(), level.clone());
    let thread = std::thread::Builder::new()
        .name("rochade-mic".into())
        .spawn(move || match open_input(s, l) {
            Ok((stream, rate)) => {
                let _ = ready_tx.send(Ok(rate));
                let _ = stop_rx.recv();
                drop(stream);
            }
            Err(e) => {
                let _ = ready_tx.send(Err(e));
            }
        })
        .map_err(|e| AudioError::new(format!("cannot start the recording thread: {e}")))?;
    let rate = ready_rx
        .recv_timeout(Duration::from_secs(10))
        .map_err(|_| AudioError::new("the microphone did not open within 10 s"))??;
    Ok(MicRecorder {
        samples,
        level,
        rate,
        stop: stop_tx,
        thread: Some(thread),
    })
}

impl MicRecorder {
    /// Peak level of the last input buffer, 0.0 ..= 1.0, for a level meter.
    pub fn level(&self) -> f32 {
        f32::from_bits(self.level.load(Ordering::Relaxed))
    }

    /// Seconds recorded so far.
    pub fn seconds(&self) -> f32 {
        self.samples.lock().map(|s| s.len()).unwrap_or(0) as f32 / self.rate as f32
    }

    /// The device's sample rate.
    pub fn rate(&self) -> u32 {
        self.rate
    }

    /// What was recorded since the last call (or the start), taken out of
    /// the take: voice input listens as the samples come, and the take
    /// does not grow for hours.
    pub fn take_new(&self) -> Vec<f32> {
        std::mem::take(&mut *self.samples.lock().unwrap_or_else(|e| e.into_inner()))
    }

    /// Stops and returns the raw take at the device rate. Use
    /// [`Clip::prepared_for_voice`] to trim and resample it for a clip.
    pub fn stop(mut self) -> Clip {
        let _ = self.stop.send(());
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
        let samples = std::mem::take(&mut *self.samples.lock().unwrap_or_else(|e| e.into_inner()));
        Clip::new(samples, self.rate)
    }
}

impl Drop for MicRecorder {
    fn drop(&mut self) {
        let _ = self.stop.send(());
    }
}

/// Records for a fixed time and returns the raw take (command line, tests).
pub fn record_for(duration: Duration) -> Result<Clip, AudioError> {
    let rec = start_recording()?;
    std::thread::sleep(duration);
    Ok(rec.stop())
}

fn open_input(
    samples: Arc<Mutex<Vec<f32>>>,
    level: Arc<AtomicU32>,
) -> Result<(cpal::Stream, u32), AudioError> {
    let host = cpal::default_host();
    let device = host
        .default_input_device()
        .ok_or_else(|| AudioError::new("no microphone (audio input device)"))?;
    let supported = device
        .default_input_config()
        .map_err(|e| AudioError::new(format!("microphone: {e}")))?;
    let format = supported.sample_format();
    let config: cpal::StreamConfig = supported.into();
    let stream = match format {
        cpal::SampleFormat::F32 => build::<f32>(&device, &config, samples, level),
        cpal::SampleFormat::I16 => build::<i16>(&device, &config, samples, level),
        cpal::SampleFormat::U16 => build::<u16>(&device, &config, samples, level),
        cpal::SampleFormat::I32 => build::<i32>(&device, &config, samples, level),
        cpal::SampleFormat::U8 => build::<u8>(&device, &config, samples, level),
        other => {
            return Err(AudioError::new(format!(
                "microphone: unsupported sample format {other}"
            )));
        }
    }
    .map_err(|e| AudioError::new(format!("microphone: {e}")))?;
    stream
        .play()
        .map_err(|e| AudioError::new(format!("microphone: {e}")))?;
    Ok((stream, config.sample_rate))
}

fn build<T>(
    device: &cpal::Device,
    config: &cpal::StreamConfig,
    samples: Arc<Mutex<Vec<f32>>>,
    level: Arc<AtomicU32>,
) -> Result<cpal::Stream, cpal::Error>
where
    T: SizedSample,
    f32: cpal::FromSample<T>,
{
    let channels = config.channels.max(1) as usize;
    device.build_input_stream(
        *config,
        move |data: &[T], _: &cpal::InputCallbackInfo| {
            let mut peak = 0.0f32;
            let mut out = samples.lock().unwrap_or_else(|e| e.into_inner());
            for frame in data.chunks(channels) {
                let v =
                    frame.iter().map(|s| s.to_sample::<f32>()).sum::<f32>() / frame.len() as f32;
                peak = peak.max(v.abs());
                out.push(v);
            }
            level.store(peak.to_bits(), Ordering::Relaxed);
        },
        |e| eprintln!("rochade: microphone: {e}"),
        None,
    )
}
