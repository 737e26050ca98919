//! Any bytes, in any chunking, through the LiBoard decoder: no panic, and
//! every message it passes on re-encodes to a frame that decodes the same.
#![no_main]

use libfuzzer_sys::fuzz_target;
use rochade::board::{BoardMessage, Decoder, Format};

fuzz_target!(|data: &[u8]| {
    let mut whole = Decoder::new(Format::LiBoard);
    let all = whole.push_collect(data);
    // The first byte picks a chunk size: chunking must not change the result.
    let chunk = usize::from(data.first().copied().unwrap_or(1)).max(1);
    let mut pieces = Decoder::new(Format::LiBoard);
    let mut again = Vec::new();
    for c in data.chunks(chunk) {
        again.extend(pieces.push_collect(c));
    }
    assert_eq!(all, again);
    for m in all {
        if let BoardMessage::Snapshot(mask) = m {
            let mut d = Decoder::new(Format::LiBoard);
            assert_eq!(d.push_collect(&Format::LiBoard.encode_snapshot(mask)), vec![BoardMessage::Snapshot(mask)]);
        }
    }
});
