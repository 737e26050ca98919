//! Time from a `Speak` handed to the speech service to the backend call,
//! with the queue idle (target: under 1 ms). Uses the recording backend,
//! so it measures the service (channel, thread wake-up, scheduler), not an
//! engine.

use std::time::{Duration, Instant};

use criterion::{Criterion, criterion_group, criterion_main};
use rochade::session::Priority;
use rochade::speech::{BackendChoice, RecordingLog, SpeechConfig, SpeechService};
use rochade::words::Lang;

fn speak_to_backend(c: &mut Criterion) {
    let log = RecordingLog::new();
    let handle = SpeechService::spawn(SpeechConfig {
        backend: BackendChoice::Recording(log.clone()),
        ..SpeechConfig::default()
    })
    .expect("start the speech service");
    let mut calls = 0usize;
    let mut worst = Duration::ZERO;
    let mut total = Duration::ZERO;
    let mut count = 0u32;
    c.bench_function("speak_to_backend_call_idle_queue", |b| {
        b.iter_custom(|iters| {
            let mut sum = Duration::ZERO;
            for _ in 0..iters {
                assert!(
                    handle.wait_idle(Duration::from_secs(5)),
                    "queue did not go idle"
                );
                let sent = Instant::now();
                handle.say("Springer schlägt Eva fünf", Lang::De, Priority::Move);
                assert!(
                    log.wait_for_calls(calls + 1, Duration::from_secs(5)),
                    "backend never called"
                );
                let at = log.call_time(calls).expect("recorded");
                calls += 1;
                let latency = at.duration_since(sent);
                worst = worst.max(latency);
                total += latency;
                count += 1;
                sum += latency;
            }
            sum
        })
    });
    if count > 0 {
        println!(
            "speech: Speak -> backend call with the queue idle: mean {:.3} ms, worst {:.3} ms over {count} calls (target < 1 ms)",
            total.as_secs_f64() * 1000.0 / count as f64,
            worst.as_secs_f64() * 1000.0
        );
    }
}

criterion_group!(benches, speak_to_backend);
criterion_main!(benches);
