//! The property every decoder target checks, shared by the per-format
//! targets: any bytes, in any chunking, decode without a panic to the same
//! messages, and every snapshot re-encodes to a frame that decodes the same.

use rochade_core::board::{Decoder, Format, PegMessage};

pub fn check(format: Format, data: &[u8]) {
    let mut whole = Decoder::new(format);
    let all = whole.push_collect(data);
    // The first byte picks a chunk size: chunking must not change the result.
    let chunk = usize::from(data.first().copied().unwrap_or(1)).max(1);
    let mut pieces = Decoder::new(format);
    let mut again = Vec::new();
    for c in data.chunks(chunk) {
        again.extend(pieces.push_collect(c));
    }
    assert_eq!(all, again);
    for m in all {
        if let PegMessage::Snapshot(mask) = m {
            let mut d = Decoder::new(format);
            assert_eq!(d.push_collect(&format.encode_snapshot(mask)), vec![PegMessage::Snapshot(mask)]);
        }
    }
}
