//! The front ends' request thread (the terminal's and the window's):
//! requests sent in order, one at a time, each answer reported through
//! `wrap` as soon as it comes, so the front end's loop never waits on the
//! network and online play's deadlines keep running while a request
//! hangs. Every request has the client's timeouts
//! ([`crate::online::Timing`]); after a failure the next request waits a
//! growing, jittered time, and no more than [`PER_MINUTE`] go in a minute
//! ([`Pacer`]), so a server (or a proxy) that fails every request at once
//! is never flooded.

use std::collections::VecDeque;
use std::sync::mpsc::{Sender, channel};
use std::time::{Duration, Instant};

use rochade_core::online::Call;

use super::backoff::Jitter;
use crate::online::{ApiError, Client};

/// Where the host hands its requests: a call and the typed text it came from.
pub type Requests = Sender<(Call, Option<String>)>;

/// At most this many requests in any minute.
pub const PER_MINUTE: usize = 60;

/// When the next request may go (pure: time passed in, in ms): after `n`
/// failures in a row, `base` doubled `n - 1` times (up to `max`) after the
/// last one; never more than [`PER_MINUTE`] in the last minute. A success
/// starts again with no wait.
#[derive(Debug)]
pub struct Pacer {
    base_ms: u64,
    max_ms: u64,
    failures: u32,
    last_ms: Option<u64>,
    sent: VecDeque<u64>,
}

impl Pacer {
    pub fn new(base: Duration, max: Duration) -> Pacer {
        Pacer {
            base_ms: base.as_millis() as u64,
            max_ms: max.as_millis() as u64,
            failures: 0,
            last_ms: None,
            sent: VecDeque::new(),
        }
    }

    /// How long to wait at `now` before the next request (0: at once),
    /// before any jitter.
    pub fn wait_ms(&self, now: u64) -> u64 {
        let backoff = match (self.failures, self.last_ms) {
            (0, _) | (_, None) => 0,
            (n, Some(last)) => {
                let wait = self
                    .base_ms
                    .saturating_mul(1 << (n - 1).min(20))
                    .min(self.max_ms);
                (last + wait).saturating_sub(now)
            }
        };
        let cap = match self.sent.front() {
            Some(&oldest) if self.sent.len() >= PER_MINUTE => (oldest + 60_000).saturating_sub(now),
            _ => 0,
        };
        backoff.max(cap)
    }

    /// A request went at `at` and was answered (`failed`: a network
    /// failure, a redirect, the server's own error or "too many requests").
    pub fn answered(&mut self, at: u64, failed: bool) {
        self.sent.push_back(at);
        while self.sent.front().is_some_and(|&t| t + 60_000 <= at) {
            self.sent.pop_front();
        }
        self.last_ms = Some(at);
        self.failures = if failed { self.failures + 1 } else { 0 };
    }
}

/// Whether an answer counts as a failure for the pacing (a refusal of the
/// request itself, 4xx, does not: the next one may well go through).
fn failed(result: &Result<serde_json::Value, ApiError>) -> bool {
    match result {
        Ok(_) => false,
        Err(ApiError::Refused { status, .. }) => *status >= 500,
        Err(ApiError::Unauthorized) => false,
        Err(_) => true,
    }
}

/// Spawns the thread; its answers go to `tx` wrapped by `wrap`.
pub fn spawn_requests<M: Send + 'static>(
    client: Client,
    tx: Sender<M>,
    wrap: fn(Call, Option<String>, Result<(), ApiError>) -> M,
) -> Requests {
    let (requests, rx) = channel::<(Call, Option<String>)>();
    let _ = std::thread::Builder::new()
        .name("online-requests".into())
        .spawn(move || {
            let start = Instant::now();
            let now = || start.elapsed().as_millis() as u64;
            let mut pacer = Pacer::new(client.timing.backoff, client.timing.backoff_max);
            let mut jitter = Jitter::new();
            for (call, input) in rx {
                let wait = pacer.wait_ms(now());
                if wait > 0 {
                    std::thread::sleep(jitter.spread(Duration::from_millis(wait)));
                }
                let result = client.post(&call.path(), &call.form());
                pacer.answered(now(), failed(&result));
                if tx.send(wrap(call, input, result.map(|_| ()))).is_err() {
                    return;
                }
            }
        });
    requests
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn failures_in_a_row_wait_ever_longer_up_to_the_most_and_a_success_ends_it() {
        let mut p = Pacer::new(Duration::from_secs(1), Duration::from_secs(30));
        assert_eq!(p.wait_ms(0), 0);
        let mut now = 0;
        let mut waits = Vec::new();
        for _ in 0..7 {
            p.answered(now, true);
            let wait = p.wait_ms(now);
            waits.push(wait);
            now += wait;
        }
        assert_eq!(waits, [1000, 2000, 4000, 8000, 16_000, 30_000, 30_000]);
        p.answered(now, false);
        assert_eq!(p.wait_ms(now), 0);
    }

    #[test]
    fn a_server_failing_every_request_at_once_gets_a_handful_in_thirty_seconds() {
        let mut p = Pacer::new(Duration::from_secs(1), Duration::from_secs(30));
        let (mut now, mut sent) = (0, 0);
        while now < 30_000 {
            now += p.wait_ms(now);
            p.answered(now, true);
            sent += 1;
        }
        assert!(sent <= 6, "{sent}");
    }

    #[test]
    fn no_more_than_sixty_requests_go_in_a_minute() {
        let mut p = Pacer::new(Duration::from_millis(20), Duration::from_secs(30));
        let mut times = Vec::new();
        let mut now = 0;
        for _ in 0..130 {
            now += p.wait_ms(now);
            p.answered(now, false);
            times.push(now);
        }
        for (i, &t) in times.iter().enumerate() {
            let in_minute = times[i..].iter().take_while(|&&u| u < t + 60_000).count();
            assert!(in_minute <= PER_MINUTE, "{in_minute} from {t}");
        }
        assert_eq!(times[60], 60_000);
    }
}
