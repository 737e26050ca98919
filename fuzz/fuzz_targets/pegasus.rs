//! Any bytes, in any chunking, through the DGT Pegasus decoder: no panic,
//! the same messages and counters whatever the chunking; the LED command
//! of any set of squares lights exactly those squares, whatever was lit.
#![no_main]

use libfuzzer_sys::fuzz_target;
use rochade_core::board::Protocol;
use rochade_core::eboard::pegasus::{PegasusDecoder, lights_command, lit_by_command};
use shakmaty::Bitboard;

fuzz_target!(|data: &[u8]| {
    let mut whole = PegasusDecoder::new();
    let all = whole.decode_all(data);
    let chunk = usize::from(data.first().copied().unwrap_or(1)).max(1);
    let mut pieces = PegasusDecoder::new();
    let mut again = Vec::new();
    for c in data.chunks(chunk) {
        again.extend(pieces.decode_all(c));
    }
    assert_eq!(all, again);
    assert_eq!(Protocol::stats(&whole), Protocol::stats(&pieces));
    if data.len() >= 16 {
        let bb = Bitboard(u64::from_le_bytes(data[..8].try_into().unwrap()));
        let before = Bitboard(u64::from_le_bytes(data[8..16].try_into().unwrap()));
        assert_eq!(lit_by_command(&lights_command(bb), before), Some(bb));
    }
    // Whatever the bytes, reading them as an LED write never panics.
    let _ = lit_by_command(data, Bitboard::EMPTY);
});
