//! Tracker cost per snapshot (criterion), and the end-to-end latency from a
//! snapshot written to a pseudo-terminal to the `move` event coming out of
//! the serial link and tracker (printed: the target is settle window + < 1 ms).

use std::hint::black_box;
use std::io::Write;
use std::sync::mpsc;
use std::time::{Duration, Instant};

use criterion::{Criterion, Throughput};
use rochade::board::tracker::BoardMask;
use rochade::board::{Format, PegMessage, Tracker, TrackerConfig, TrackerEvent, protocol};
use rochade::serial::{Link, LinkConfig};
use rochade::session::board::BoardEvent;
use serialport::{SerialPort, TTYPort};
use shakmaty::san::San;
use shakmaty::{CastlingSide, Chess, Move, Position};

const GAME: &str = "e4 e5 Nf3 d6 d4 Bg4 dxe5 Bxf3 Qxf3 dxe5 Bc4 Nf6 Qb3 Qe7 Nc3 c6 Bg5 b5 Nxb5 cxb5 \
Bxb5+ Nbd7 O-O-O Rd8 Rxd7 Rxd7 Rd1 Qe6 Bxd7+ Nxd7 Qb8+ Nxb8 Rd8#";

/// (time, mask) pairs for the game: every lift and placement 200 ms apart,
/// with a heartbeat between, and a glitch every few moves.
fn snapshot_stream() -> Vec<(u64, u64)> {
    let mut pos = Chess::default();
    let mut mask = pos.board().occupied().0;
    let mut t = 0;
    let mut out = vec![(t, mask)];
    let push = |mask: u64, t: &mut u64, out: &mut Vec<(u64, u64)>| {
        *t += 100;
        out.push((*t, mask)); // heartbeat of the previous state
        *t += 100;
        out.push((*t, mask));
    };
    for (i, san) in GAME.split_whitespace().enumerate() {
        let mv: Move = san
            .trim_end_matches(['+', '#'])
            .parse::<San>()
            .unwrap()
            .to_move(&pos)
            .unwrap();
        let after = {
            let mut p = pos.clone();
            p.play_unchecked(mv);
            p.board().occupied().0
        };
        if i % 3 == 0 {
            t += 100;
            out.push((t, mask ^ (1 << 35)));
            t += 10;
            out.push((t, mask));
        }
        let from = mv.from().unwrap();
        match mv {
            Move::Normal {
                capture: Some(_),
                to,
                ..
            } => {
                mask &= !(1 << u32::from(to));
                push(mask, &mut t, &mut out);
                mask &= !(1 << u32::from(from));
                push(mask, &mut t, &mut out);
            }
            _ => {
                mask &= !(1 << u32::from(from));
                push(mask, &mut t, &mut out);
            }
        }
        // Castling: king and rook placed via intermediate states.
        if let Move::Castle { king, rook } = mv {
            let side = CastlingSide::from_king_side(rook > king);
            mask |= 1 << u32::from(side.king_to(pos.turn()));
            push(mask, &mut t, &mut out);
            mask &= !(1 << u32::from(rook));
            push(mask, &mut t, &mut out);
        }
        mask = after;
        push(mask, &mut t, &mut out);
        t += 3000; // the opponent thinks
        out.push((t, mask));
        pos.play_unchecked(mv);
    }
    out
}

fn run_stream(stream: &[(u64, u64)], events: &mut Vec<TrackerEvent>) -> usize {
    let mut t = Tracker::new(TrackerConfig::default(), Chess::default());
    let mut moves = 0;
    for &(now, mask) in stream {
        events.clear();
        t.on_snapshot(now, BoardMask(black_box(mask)), events);
        moves += events
            .iter()
            .filter(|e| matches!(e, TrackerEvent::Executed(_)))
            .count();
    }
    events.clear();
    t.on_tick(u64::MAX / 2, events);
    moves
        + events
            .iter()
            .filter(|e| matches!(e, TrackerEvent::Executed(_)))
            .count()
}

fn bench_tracker(c: &mut Criterion) {
    let stream = snapshot_stream();
    let mut events = Vec::with_capacity(16);
    let plies = GAME.split_whitespace().count();
    assert_eq!(
        run_stream(&stream, &mut events),
        plies,
        "the bench stream must replay the game"
    );
    let mut group = c.benchmark_group("tracker");
    group.throughput(Throughput::Elements(stream.len() as u64));
    group.bench_function("snapshots_of_a_whole_game", |b| {
        b.iter(|| run_stream(black_box(&stream), &mut events))
    });
    group.finish();

    // A plain per-snapshot figure, printed for the report.
    let rounds = 200;
    let start = Instant::now();
    for _ in 0..rounds {
        black_box(run_stream(&stream, &mut events));
    }
    let per = start.elapsed().as_nanos() as f64 / (rounds * stream.len()) as f64;
    println!(
        "tracker: {} snapshots per game, {per:.0} ns per snapshot (including one tracker setup per game)",
        stream.len()
    );
}

/// Snapshot written to the pty master → link thread → tracker → Executed.
fn end_to_end() {
    let (mut master, slave) = TTYPort::pair().expect("pseudo-terminal");
    let path = slave.name().unwrap();
    let epoch = Instant::now();
    let (tx, rx) = mpsc::channel();
    let cfg = LinkConfig {
        epoch,
        ..LinkConfig::new(path, Format::Peg)
    };
    let _link = Link::spawn(cfg, tx).unwrap();
    let settle = TrackerConfig::default().settle_ms;
    let mut tracker = Tracker::new(TrackerConfig::default(), Chess::default());
    let mut pos = Chess::default();
    let mut latencies = Vec::new();
    let mut events = Vec::new();
    let wait_for = |rx: &mpsc::Receiver<_>,
                    tracker: &mut Tracker,
                    events: &mut Vec<TrackerEvent>|
     -> Option<Instant> {
        let deadline = Instant::now() + Duration::from_secs(3);
        while Instant::now() < deadline {
            let now = epoch.elapsed().as_millis() as u64;
            let wait = tracker
                .next_deadline()
                .map_or(20, |d: u64| d.saturating_sub(now).min(20));
            if let Ok(rochade::serial::BoardInput {
                at_ms,
                event: BoardEvent::Message(PegMessage::Snapshot(m)),
            }) = rx.recv_timeout(Duration::from_millis(wait))
            {
                tracker.on_snapshot(at_ms, BoardMask(m), events);
            }
            tracker.on_tick(epoch.elapsed().as_millis() as u64, events);
            if events
                .iter()
                .any(|e| matches!(e, TrackerEvent::Executed(_)))
            {
                return Some(Instant::now());
            }
        }
        None
    };
    master
        .write_all(protocol::write_snapshot(pos.board().occupied().0).as_bytes())
        .unwrap();
    std::thread::sleep(Duration::from_millis(300));
    // Knights back and forth: every move is a plain lift and placement.
    let shuffle = ["Nf3", "Nf6", "Ng1", "Ng8"];
    for i in 0..40 {
        let mv = shuffle[i % 4]
            .parse::<San>()
            .unwrap()
            .to_move(&pos)
            .unwrap();
        let mut after = pos.clone();
        after.play_unchecked(mv);
        let lifted = pos.board().occupied().0 & !(1 << u32::from(mv.from().unwrap()));
        master
            .write_all(protocol::write_snapshot(lifted).as_bytes())
            .unwrap();
        std::thread::sleep(Duration::from_millis(settle + 50));
        events.clear();
        let _ = wait_for(&rx, &mut tracker, &mut events);
        let written = Instant::now();
        master
            .write_all(protocol::write_snapshot(after.board().occupied().0).as_bytes())
            .unwrap();
        events.clear();
        let done = wait_for(&rx, &mut tracker, &mut events).expect("move event");
        latencies.push(done.duration_since(written));
        pos = after;
    }
    latencies.sort();
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    let median = latencies[latencies.len() / 2];
    let p95 = latencies[latencies.len() * 95 / 100];
    println!(
        "end to end (pty -> link -> tracker -> move): median {:.2} ms, p95 {:.2} ms, max {:.2} ms; settle window {settle} ms, so overhead median {:.2} ms",
        ms(median),
        ms(p95),
        ms(*latencies.last().unwrap()),
        ms(median) - settle as f64
    );
    drop(slave);
}

fn main() {
    let mut c = Criterion::default().configure_from_args();
    bench_tracker(&mut c);
    c.final_summary();
    end_to_end();
}
