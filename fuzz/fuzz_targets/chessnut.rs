//! Any bytes, in any chunking, through the Chessnut decoder: no panic, the
//! same messages and counters whatever the chunking, every position it
//! passes on re-encodes to a notification that decodes to the same
//! position, and the LED command of any set of squares reads back as it.
#![no_main]

use libfuzzer_sys::fuzz_target;
use rochade_core::board::Protocol;
use rochade_core::eboard::chessnut::{
    ChessnutDecoder, lights_command, lit_by_command, position_notification,
};
use rochade_core::eboard::Message;
use shakmaty::Bitboard;

fuzz_target!(|data: &[u8]| {
    let mut whole = ChessnutDecoder::new();
    let all = whole.decode_all(data);
    let chunk = usize::from(data.first().copied().unwrap_or(1)).max(1);
    let mut pieces = ChessnutDecoder::new();
    let mut again = Vec::new();
    for c in data.chunks(chunk) {
        again.extend(pieces.decode_all(c));
    }
    assert_eq!(all, again);
    assert_eq!(Protocol::stats(&whole), Protocol::stats(&pieces));
    for m in &all {
        if let Message::Position(p) = m {
            let back = ChessnutDecoder::new().decode_all(&position_notification(p));
            assert_eq!(back.last(), Some(m));
        }
    }
    if data.len() >= 8 {
        let bb = Bitboard(u64::from_le_bytes(data[..8].try_into().unwrap()));
        assert_eq!(lit_by_command(&lights_command(bb)), Some(bb));
    }
});
