//! Any text through the board log parser: no panic, and every entry it
//! reads formats back to a line that parses to the same entry.
#![no_main]

use libfuzzer_sys::fuzz_target;
use rochade_core::board::log::{format_entry, parse_entry, parse_log};

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let _ = parse_log(&text);
    for line in text.lines() {
        if let Ok(Some(entry)) = parse_entry(line) {
            let again = format_entry(entry.ms, &entry.bytes, false);
            assert_eq!(parse_entry(again.trim_end_matches('\n')), Ok(Some(entry)));
        }
    }
});
