//! The audio output runs only on demand: through an ALSA `file` device over
//! `null` (no clock: fed as fast as the CPU can make samples), the stream
//! opens when a sound is queued, plays it at real-time pace, and closes once
//! idle, so nothing more is written. Before this, the app wrote some 12 GB
//! a minute into such a device with nothing to play.
//!
//! ALSA reads `~/.asoundrc`, so this test points HOME at a temporary folder
//! before the first sound is opened (the only test in this binary, so no
//! other thread reads the environment meanwhile). It fails loudly if ALSA
//! cannot be used.

use std::path::Path;
use std::time::Duration;

use rochade::audio::{AudioOut, EarconSettings, earcon_duration_ms, player::LINGER};
use rochade::session::Earcon;

const RATE: u64 = 16_000;
const BYTES_PER_S: u64 = RATE * 2;

fn asoundrc(out: &Path) -> String {
    format!(
        "pcm.!default {{\n  type plug\n  slave {{\n    pcm \"rochade_file\"\n    format S16_LE\n    rate {RATE}\n    channels 1\n  }}\n}}\n\
         pcm.rochade_file {{\n  type file\n  slave.pcm \"null\"\n  file \"{}\"\n  format \"raw\"\n}}\n",
        out.display()
    )
}

fn size(path: &Path) -> u64 {
    std::fs::metadata(path).map(|m| m.len()).unwrap_or(0)
}

#[test]
fn the_stream_opens_on_demand_and_closes_when_idle_on_a_clockless_device() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out.raw");
    std::fs::write(dir.path().join(".asoundrc"), asoundrc(&out)).unwrap();
    // SAFETY: the only test of this binary, before any thread reads the
    // environment (ALSA reads HOME when the device is first opened).
    unsafe {
        std::env::set_var("HOME", dir.path());
        std::env::remove_var("PULSE_SERVER");
    }
    let audio = AudioOut::open().expect("ALSA output (is libasound2 installed?)");
    assert!(!audio.stream_open(), "nothing to play: no stream");
    let settings = EarconSettings::default();
    let budget = Duration::from_secs(10);

    for round in 0..2 {
        // The stream is closed: start each round from an empty file (the
        // file device creates it again when the stream opens).
        let _ = std::fs::remove_file(&out);
        audio.play_earcon(Earcon::MoveAccepted, &settings);
        assert!(
            audio.wait_closed(budget),
            "round {round}: the stream stayed open"
        );
        let written = size(&out);
        // The earcon, then silence for the linger time, at real-time pace:
        // never the flood a clockless device asks for.
        let sound = earcon_duration_ms(Earcon::MoveAccepted) as u64 * BYTES_PER_S / 1000;
        let most = sound + (LINGER.as_millis() as u64 + 1000) * BYTES_PER_S / 1000;
        assert!(
            written >= sound && written <= most,
            "round {round}: {written} bytes written, expected {sound}..={most}"
        );
        assert!(!audio.stream_open());
    }
}
