//! Any bytes, in any chunking, through the Sentio decoder: no panic, and
//! every message it passes on re-encodes to a frame that decodes the same.
#![no_main]

mod decoder_property;

use libfuzzer_sys::fuzz_target;
use rochade_core::board::Format;

fuzz_target!(|data: &[u8]| decoder_property::check(Format::Sentio, data));
