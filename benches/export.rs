//! Exports a 300-move game (600 plies) to every format. Target: well under
//! 10 ms for all five together.

use std::hint::black_box;
use std::time::Instant;

use criterion::{Criterion, criterion_group, criterion_main};
use rochade::braille::Layout;
use rochade::chess::{Color, GameRecord, Letters, Position};
use rochade::export::{ExportOptions, Exporter, Format};
use rochade::words::Lang;

/// A legal 300-move game: deterministic pseudo-random moves (retrying with
/// another seed if the game ends early), with clocks and a few draw offers.
fn long_game() -> GameRecord {
    for seed in 1u64.. {
        let mut state = seed;
        let mut g = GameRecord::new();
        g.tags.event = "Benchmark Open".into();
        g.tags.white = "Müller-Weiß, Jürgen".into();
        g.tags.black = "Araújo, João".into();
        g.tags.time_control = Some("5400+30".into());
        let mut ms = 5_400_000u64;
        while g.moves().len() < 600 && !g.is_over() {
            let legal = g.position().legal_moves();
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let mv = legal[(state >> 33) as usize % legal.len()];
            if g.moves().len() % 37 == 5 {
                let mover = g.turn();
                g.play(mv, None).unwrap();
                g.offer_draw(mover);
            } else {
                g.play(mv, None).unwrap();
            }
            ms = ms.saturating_sub(7_000);
            g.set_last_clock(ms);
        }
        if g.moves().len() == 600 {
            g.resign(Color::Black);
            return g;
        }
    }
    unreachable!()
}

fn bench(c: &mut Criterion) {
    let game = long_game();
    let exporter = rochade::louis::bundled_exporter(ExportOptions {
        letters: Letters::De,
        lang: Lang::De,
        layout: Layout::default(),
        ..ExportOptions::default()
    })
    .unwrap();
    let all = |e: &Exporter| {
        for f in Format::ALL {
            black_box(e.render(black_box(&game), f).unwrap());
        }
    };
    // A plain figure first, so it is printed even without criterion's report.
    let runs = 50;
    let start = Instant::now();
    for _ in 0..runs {
        all(&exporter);
    }
    let per = start.elapsed() / runs;
    println!(
        "export: 300-move game to all {} formats: {per:?} per export (target well under 10 ms)",
        Format::ALL.len()
    );

    for f in Format::ALL {
        c.bench_function(&format!("export 300 moves {f}"), |b| {
            b.iter(|| exporter.render(black_box(&game), f).unwrap())
        });
    }
    c.bench_function("export 300 moves all formats", |b| {
        b.iter(|| all(&exporter))
    });
    c.bench_function("export 300 moves all formats, loading tables", |b| {
        b.iter(|| all(&rochade::louis::bundled_exporter(exporter.options).unwrap()))
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
