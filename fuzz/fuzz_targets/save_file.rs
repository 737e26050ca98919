//! Any bytes as a save file: no panic; an intact game writes back to the
//! same text, a damaged one keeps a prefix that is a legal game.
#![no_main]

use libfuzzer_sys::fuzz_target;
use rochade_core::pgn::save::{SaveRead, from_pgn, read_save, to_pgn};

fuzz_target!(|data: &[u8]| match read_save(data) {
    SaveRead::Intact(record) => {
        let text = to_pgn(&record);
        let back = from_pgn(&text).expect("our own save file reads back");
        assert_eq!(to_pgn(&back), text);
    }
    SaveRead::Damaged { prefix, .. } => {
        if let Some(prefix) = prefix {
            assert!(!prefix.moves().is_empty());
        }
    }
    SaveRead::Empty => unreachable!("bytes are never an absent file"),
});
