//! Any bytes through the PGN reader (every game of the input): no panic,
//! and every game read whole writes and reads back to the same moves.
#![no_main]

use libfuzzer_sys::fuzz_target;
use rochade_core::pgn::{Games, ReadOptions, WriteOptions, write};

fuzz_target!(|data: &[u8]| {
    for game in Games::new(data, ReadOptions::default()).take(64) {
        if let (None, Some(record)) = (&game.error, &game.record) {
            let text = write(record, &WriteOptions::SAVE);
            let mut again = Games::new(text.as_bytes(), ReadOptions::default());
            let back = again.next_game().expect("our own text holds a game");
            assert!(back.error.is_none(), "{:?}\n{text}", back.error);
            assert_eq!(back.record.expect("a game").moves(), record.moves());
        }
    }
});
