//! The DGT board's cost (criterion): a whole game's bytes through the
//! decoder and the recognizer (field updates, the dump the recognizer asks
//! for, every legal move and every two plies searched at each settle), and
//! the worst case of one settle: a position that matches nothing, so every
//! move, every correction and every pair of plies is tried.

use std::hint::black_box;

use criterion::Criterion;
use rochade::dgt::Decoder;
use rochade::dgt::protocol::{Message, encode};
use rochade::eboard::pieces::pieces_of_board;
use rochade::eboard::{Pieces, Recognizer, RecognizerConfig, RecognizerEvent};
use shakmaty::san::San;
use shakmaty::{Chess, Position, Square};

const GAME: &str = "e4 e5 Nf3 d6 d4 Bg4 dxe5 Bxf3 Qxf3 dxe5 Bc4 Nf6 Qb3 Qe7 Nc3 c6 Bg5 b5 Nxb5 cxb5 \
Bxb5+ Nbd7 O-O-O Rd8 Rxd7 Rxd7 Rd1 Qe6 Bxd7+ Nxd7 Qb8+ Nxb8 Rd8#";

/// (time, bytes) chunks a board in update mode sends for the game: one
/// field update per changed square, 100 ms apart, then a full dump.
fn game_stream() -> Vec<(u64, Vec<u8>)> {
    let mut pos = Chess::default();
    let mut shown: Pieces = pieces_of_board(pos.board().clone());
    let mut t = 0;
    let mut out = vec![(t, encode(&Message::BoardDump(shown)))];
    for san in GAME.split_whitespace() {
        let mv = san
            .trim_end_matches(['+', '#'])
            .parse::<San>()
            .unwrap()
            .to_move(&pos)
            .unwrap();
        pos.play_unchecked(mv);
        let after = pieces_of_board(pos.board().clone());
        for sq in Square::ALL {
            let i = usize::from(sq);
            if shown[i] != after[i] {
                t += 100;
                let update = Message::FieldUpdate {
                    square: sq,
                    piece: after[i],
                };
                out.push((t, encode(&update)));
            }
        }
        shown = after;
        t += 500;
        out.push((t, encode(&Message::BoardDump(shown))));
        t += 2000;
    }
    out
}

fn follow(stream: &[(u64, Vec<u8>)]) -> usize {
    let mut decoder = Decoder::new();
    let mut rec = Recognizer::new(RecognizerConfig::default(), Chess::default());
    let mut events = Vec::new();
    let mut moves = 0;
    for (t, bytes) in stream {
        while let Some(d) = rec.next_deadline().filter(|d| d <= t) {
            rec.on_tick(d, &mut events);
        }
        for m in decoder.push_collect(bytes) {
            match m {
                Message::BoardDump(p) => rec.on_dump(*t, &p, &mut events),
                Message::FieldUpdate { square, piece } => {
                    rec.on_field_update(*t, square, piece, &mut events)
                }
                _ => {}
            }
        }
        moves += events
            .drain(..)
            .filter(|e| matches!(e, RecognizerEvent::Move(_)))
            .count();
    }
    rec.on_tick(u64::MAX / 2, &mut events);
    moves
}

fn main() {
    let mut c = Criterion::default().configure_from_args();
    let stream = game_stream();
    assert_eq!(follow(&stream), GAME.split_whitespace().count());
    let mut group = c.benchmark_group("dgt");
    group.bench_function("a_whole_game_through_decoder_and_recognizer", |b| {
        b.iter(|| black_box(follow(black_box(&stream))))
    });
    // A middlegame position with many moves, and a board that matches none.
    let pos: Chess = "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP2BPPP/R1BQK2R w KQ - 0 8"
        .parse::<shakmaty::fen::Fen>()
        .unwrap()
        .into_position(shakmaty::CastlingMode::Standard)
        .unwrap();
    let mut wrong = pieces_of_board(pos.board().clone());
    wrong[usize::from(Square::A2)] = None;
    wrong[usize::from(Square::H7)] = None;
    group.bench_function("one_settle_matching_nothing", |b| {
        b.iter(|| {
            let mut rec = Recognizer::new(RecognizerConfig::default(), pos.clone());
            let mut events = Vec::new();
            rec.on_dump(0, black_box(&wrong), &mut events);
            rec.on_tick(1000, &mut events);
            black_box(events)
        })
    });
    group.finish();
    c.final_summary();
}
