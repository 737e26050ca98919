//! Waiting between reconnections: spread (jitter) and cut short when the
//! stream is stopped.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// Spreads waits between a half and one and a half of their length, so
/// clients cut off together do not all come back at the same instant.
pub(super) struct Jitter(u64);

impl Jitter {
    pub(super) fn new() -> Jitter {
        use std::hash::{BuildHasher, Hasher};
        let mut h = std::collections::hash_map::RandomState::new().build_hasher();
        h.write_u128(
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_nanos()),
        );
        Jitter(h.finish() | 1)
    }

    pub(super) fn spread(&mut self, d: Duration) -> Duration {
        // xorshift64
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        let per_mille = 500 + self.0 % 1001;
        d * per_mille as u32 / 1000
    }
}

/// Waits `d`, waking early when `stop` is set.
pub fn wait_or_stop(d: Duration, stop: &AtomicBool) {
    let step = Duration::from_millis(20);
    let mut left = d;
    while !left.is_zero() && !stop.load(Ordering::Relaxed) {
        let nap = left.min(step);
        std::thread::sleep(nap);
        left -= nap;
    }
}
