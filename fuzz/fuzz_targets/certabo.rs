//! Any bytes, in any chunking, through the Certabo decoder, before and
//! after calibration: no panic, and the same messages and counters
//! whatever the chunking. The bytes may also carry scan lines of a
//! simulated board (a byte 0xFF in the input stands for the next one).
//! The same bytes, as a saved calibration, are read or refused without a
//! panic, and one read back from its own text is the same.
#![no_main]

use libfuzzer_sys::fuzz_target;
use rochade_core::board::Protocol;
use rochade_core::eboard::CertaboDecoder;
use rochade_core::eboard::certabo_sim::CertaboSim;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        let mut recalled = CertaboDecoder::new();
        if recalled.recall(text).is_ok()
            && let Some(memory) = recalled.memory()
        {
            let mut again = CertaboDecoder::new();
            assert_eq!(again.recall(&memory), Ok(()));
            assert_eq!(again.memory(), Some(memory));
        }
    }
    let calibrated = data.first().is_some_and(|b| b & 1 == 1);
    let mut sim = CertaboSim::new(u64::from(data.len() as u32), true);
    sim.weak_per_mille = 50;
    let mut decoder = CertaboDecoder::new();
    if calibrated {
        for (_, line) in sim.scans_until(2000) {
            decoder.decode_all(&line);
        }
    }
    // 0xFF: a whole scan line of the simulated board goes in here.
    let mut wire = Vec::new();
    for &b in data {
        if b == 0xFF {
            wire.extend(sim.line());
        } else {
            wire.push(b);
        }
    }
    let mut whole = decoder.clone();
    let all = whole.decode_all(&wire);
    let chunk = usize::from(data.get(1).copied().unwrap_or(1)).max(1);
    let mut pieces = decoder;
    let mut again = Vec::new();
    for c in wire.chunks(chunk) {
        again.extend(pieces.decode_all(c));
    }
    assert_eq!(all, again);
    assert_eq!(whole.stats(), pieces.stats());
});
