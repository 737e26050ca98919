//! Any typed text as a move, in a few positions and with every letter set:
//! no panic, and a move it returns is legal there.
#![no_main]

use libfuzzer_sys::fuzz_target;
use rochade::chess::{Chess, Letters, Position, parse_move};
use rochade::words::{Lang, Pack};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let packs: Vec<Pack> = [Lang::De, Lang::En, Lang::Pt].map(Pack::bundled).into();
    let packs: Vec<&Pack> = packs.iter().collect();
    let pos = Chess::default();
    for letters in [Letters::En, Letters::De, Letters::Pt] {
        if let Ok(mv) = parse_move(&pos, text, letters, &packs) {
            assert!(pos.is_legal(mv));
        }
    }
});
