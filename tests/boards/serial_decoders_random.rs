//! A cheap stand-in for the fuzz targets under `fuzz/` that runs in every
//! `cargo test`: thousands of pseudo-random byte strings (raw noise, and
//! valid lines with bytes flipped) through every decoder, the board log
//! parser and the tracker. Nothing may panic, and nothing corrupted may be
//! passed on as a message.

use rochade::board::log::{format_entry, parse_entry, parse_log};
use rochade::board::{Decoder, Format, PegMessage, Tracker, TrackerConfig, protocol};
use shakmaty::Chess;

use crate::rng;
use rng::Rng;

#[test]
fn random_bytes_never_panic_any_decoder() {
    let mut rng = Rng(0x1234_5678_9ABC_DEF1);
    for format in Format::ALL {
        let mut decoder = Decoder::new(format);
        let mut tracker = Tracker::new(TrackerConfig::default(), Chess::default());
        let mut events = Vec::new();
        let mut now = 0;
        for i in 0..4000 {
            let len = (rng.next() % 200) as usize;
            let mut data = rng.bytes(len);
            if i % 3 == 0 {
                // A valid frame after the noise (on a line of its own).
                data.push(b'\n');
                data.extend(format.encode_snapshot(rng.next()));
            }
            if i % 7 == 0 {
                decoder.idle();
            }
            for m in decoder.push_collect(&data) {
                now += rng.next() % 300;
                if let Some(mask) = m.mask() {
                    tracker.on_snapshot(now, rochade::board::BoardMask(mask), &mut events);
                }
                if let PegMessage::Pieces(p) = &m {
                    tracker.on_pieces(now, p, &mut events);
                }
            }
            tracker.on_tick(now, &mut events);
            events.clear();
        }
        let s = decoder.stats();
        assert!(
            s.messages > 100,
            "{format}: valid frames among the noise get through: {s:?}"
        );
        assert!(
            s.dropped() > 100,
            "{format}: noise is dropped and counted: {s:?}"
        );
    }
}

#[test]
fn corrupted_peg_lines_are_never_passed_on() {
    let mut rng = Rng(0xDEAD_BEEF_CAFE_F00D);
    let mut passed_wrong = 0;
    for _ in 0..5000 {
        let mask = rng.next();
        let line = protocol::write_snapshot(mask).into_bytes();
        let mut bad = line.clone();
        // Flip one bit of one byte before the LF: the XOR checksum catches
        // every single-bit error.
        let at = (rng.next() as usize) % (bad.len() - 1);
        bad[at] ^= 1 << (rng.next() % 8);
        if bad[at] == b'\n' {
            continue;
        }
        let mut d = Decoder::new(Format::Peg);
        let got = d.push_collect(&bad);
        if got.iter().any(|m| *m != PegMessage::Snapshot(mask)) {
            passed_wrong += 1;
        }
        assert_eq!(d.push_collect(&line), vec![PegMessage::Snapshot(mask)]);
    }
    assert_eq!(passed_wrong, 0);
}

#[test]
fn random_text_through_the_board_log_parser() {
    let mut rng = Rng(42);
    for _ in 0..3000 {
        let len = (rng.next() % 120) as usize;
        let data = rng.bytes(len);
        let text = String::from_utf8_lossy(&data);
        let _ = parse_log(&text);
        let entry = format_entry(rng.next() % 1_000_000, &data, rng.next().is_multiple_of(2));
        let parsed = parse_entry(entry.trim_end_matches('\n')).unwrap().unwrap();
        assert_eq!(parsed.bytes, data);
    }
}
