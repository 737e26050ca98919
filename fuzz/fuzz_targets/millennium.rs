//! Any bytes, in any chunking, through the Millennium ChessLink decoder: no
//! panic, the same messages and counters whatever the chunking, the board
//! log gets each byte once and in order, and every position it passes on
//! re-encodes as a status that decodes to the same position. The same
//! bytes as host commands to the emulator: no panic, and every answer
//! decodes whole.
#![no_main]

use libfuzzer_sys::fuzz_target;
use rochade_core::board::Protocol;
use rochade_core::eboard::Message;
use rochade_core::eboard::millennium::{Decoder, status_body, with_check};
use rochade_core::eboard::millennium_sim::MillenniumSim;

fn decode(decoder: &mut Decoder, bytes: &[u8], logged: &mut Vec<u8>, out: &mut Vec<Message>) {
    decoder.decode(bytes, &mut |frame, _| logged.extend_from_slice(frame), out);
}

fuzz_target!(|data: &[u8]| {
    let mut whole = Decoder::new();
    let (mut all, mut logged) = (Vec::new(), Vec::new());
    decode(&mut whole, data, &mut logged, &mut all);
    // Chunk sizes from the data itself, varying along the way.
    let mut pieces = Decoder::new();
    let (mut again, mut logged_again) = (Vec::new(), Vec::new());
    let mut rest = data;
    let mut i = 0;
    while !rest.is_empty() {
        let n = (usize::from(data[i % data.len()]) % 97 + 1).min(rest.len());
        decode(&mut pieces, &rest[..n], &mut logged_again, &mut again);
        rest = &rest[n..];
        i += 1;
    }
    assert_eq!(all, again);
    assert_eq!(whole.stats(), pieces.stats());
    assert_eq!(logged, logged_again);
    let stripped: Vec<u8> = data.iter().map(|b| b & 0x7F).collect();
    assert!(stripped.starts_with(&logged));
    for m in &all {
        if let Message::Position(pieces) = m {
            let wire = with_check(&status_body(pieces));
            assert_eq!(Decoder::new().decode_all(&wire), vec![m.clone()]);
        }
    }
    let mut sim = MillenniumSim::new();
    let answers = sim.receive(0, data);
    let mut check = Decoder::new();
    let _ = check.decode_all(&answers);
    assert_eq!(check.stats().dropped(), 0);
});
