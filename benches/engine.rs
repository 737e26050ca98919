//! Time from the player's move to the engine's move being spoken, per
//! level: the player's move handed to the session, the real Stockfish
//! (Debian `stockfish`) asked through the engine thread, its move chosen
//! and the `Speak` effect of its announcement out of the session. The pause
//! before the engine's move is set to 0 here; in the app it comes on top
//! (default 800 ms, counted from the player's move, so a reply that took
//! longer to think is not delayed further).

use std::time::{Duration, Instant};

use criterion::{Criterion, criterion_group, criterion_main};
use rochade::engine::driver::{Driver, Time};
use rochade::engine::{DEFAULT_ENGINE_PATH, EngineService, Level};
use rochade::session::{Command, Effect, Event, Notice, Opponent, Session, SessionConfig, Source};
use rochade::words::{Lang, Pack};
use shakmaty::Color;

fn driver(level: Level) -> Driver {
    assert!(
        std::path::Path::new(DEFAULT_ENGINE_PATH).exists(),
        "{DEFAULT_ENGINE_PATH} is missing: install Debian's stockfish (scripts/deps.sh)"
    );
    let mut session = Session::with_pack(SessionConfig::default(), Pack::bundled(Lang::De));
    session.set_opponent(Some(Opponent {
        color: Color::Black,
        level,
        pause_ms: 0,
        seed: 7,
    }));
    Driver::new(
        session,
        EngineService::spawn(DEFAULT_ENGINE_PATH.into()),
        Time::Real(Instant::now()),
    )
}

/// Plays 1.e4, waits for the engine's move to be spoken, takes both back.
fn one_reply(d: &mut Driver) -> Duration {
    let start = Instant::now();
    d.handle(Event::MoveEntered {
        text: "e4".into(),
        source: Source::Keyboard,
    });
    let mut spoken_at = None;
    assert!(d.settle(|_, fx| {
        let engine_moved = fx.iter().any(|e| {
            matches!(
                e,
                Effect::Notice(Notice::Move {
                    source: Source::Engine,
                    ..
                })
            )
        });
        if engine_moved && fx.iter().any(|e| matches!(e, Effect::Speak(_))) {
            spoken_at.get_or_insert_with(Instant::now);
        }
    }));
    let at = spoken_at.expect("the engine's move was spoken");
    d.handle(Event::Command(Command::Takeback));
    d.handle(Event::Command(Command::Confirm));
    assert_eq!(d.session.record().moves().len(), 0);
    at.duration_since(start)
}

fn reply_per_level(c: &mut Criterion) {
    let mut group = c.benchmark_group("engine_reply_spoken");
    group.sample_size(10);
    group.warm_up_time(Duration::from_millis(1));
    group.measurement_time(Duration::from_secs(1));
    let mut summary = Vec::new();
    for n in Level::MIN..=Level::MAX {
        let level = Level::new(n).expect("level");
        let mut d = driver(level);
        one_reply(&mut d); // start the engine outside the measurement
        let mut times = Vec::new();
        group.bench_function(format!("level_{n}"), |b| {
            b.iter_custom(|iters| {
                let mut sum = Duration::ZERO;
                for _ in 0..iters {
                    let t = one_reply(&mut d);
                    times.push(t);
                    sum += t;
                }
                sum
            })
        });
        times.sort();
        let median = times[times.len() / 2];
        summary.push((n, level.think_ms(), median, times[times.len() - 1]));
    }
    group.finish();
    println!("engine: player's move -> engine's move spoken (Stockfish, pause 0):");
    for (n, think, median, worst) in summary {
        println!(
            "  level {n:2}: median {:7.1} ms, worst {:7.1} ms (think time {think} ms)",
            median.as_secs_f64() * 1000.0,
            worst.as_secs_f64() * 1000.0
        );
    }
}

criterion_group!(benches, reply_per_level);
criterion_main!(benches);
