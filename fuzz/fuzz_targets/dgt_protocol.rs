//! Any bytes, in any chunking, through the DGT decoder: no panic, the same
//! messages whatever the chunking, and every message it passes on
//! re-encodes to bytes that decode to the same message.
#![no_main]

use libfuzzer_sys::fuzz_target;
use rochade_core::dgt::Decoder;
use rochade_core::dgt::protocol::encode;

fuzz_target!(|data: &[u8]| {
    let mut whole = Decoder::new();
    let all = whole.push_collect(data);
    let chunk = usize::from(data.first().copied().unwrap_or(1)).max(1);
    let mut pieces = Decoder::new();
    let mut again = Vec::new();
    for c in data.chunks(chunk) {
        again.extend(pieces.push_collect(c));
    }
    assert_eq!(all, again);
    assert_eq!(whole.stats(), pieces.stats());
    for m in all {
        assert_eq!(Decoder::new().push_collect(&encode(&m)), vec![m]);
    }
});
