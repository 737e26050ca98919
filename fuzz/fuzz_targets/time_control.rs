//! Any text as a time control: no panic, and the shown form of one that
//! parses is again a time control.
#![no_main]

use libfuzzer_sys::fuzz_target;
use rochade_core::clock::TimeControl;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data)
        && let Ok(control) = text.parse::<TimeControl>()
    {
        let shown = control.to_string();
        assert!(shown.parse::<TimeControl>().is_ok(), "{text:?} shows as {shown:?}");
    }
});
