//! Any typed text as a move, in a few positions and with every letter set:
//! no panic, and a move it returns is legal there.
#![no_main]

use std::sync::LazyLock;

use libfuzzer_sys::fuzz_target;
use rochade_core::chess::{Chess, Letters, Position, parse_move};
use rochade_core::words::{Lang, Pack};

/// The packs are parsed once, not per input (that took seconds a run).
static PACKS: LazyLock<Vec<Pack>> = LazyLock::new(|| Lang::ALL.map(Pack::bundled).into());

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let packs: Vec<&Pack> = PACKS.iter().collect();
    let pos = Chess::default();
    for letters in Letters::ALL {
        if let Ok(mv) = parse_move(&pos, text, letters, &packs) {
            assert!(pos.is_legal(mv));
        }
    }
});
