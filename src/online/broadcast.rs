//! A broadcast round's PGN stream (`GET /api/stream/broadcast/round/{id}.pgn`,
//! public: no token), read on a thread of its own: lines handed on, a drop
//! or a silent connection reconnected with a growing, jittered wait. Each
//! connection starts with every game of the round (lila's
//! `RelayPgnStream`), so nothing missed while it was down is lost.

use std::io::Read;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::Sender;
use std::time::Duration;

use super::backoff::Jitter;
use super::lines::LineSplitter;
use super::wait_or_stop;

/// What the round's thread reports.
#[derive(Debug, PartialEq, Eq)]
pub enum RoundMsg {
    /// A connection is open (again).
    Opened,
    /// A line of PGN.
    Line(String),
    /// The connection ended (`clean`: the server closed it) or failed;
    /// the thread reconnects after a wait.
    Dropped { reason: String, clean: bool },
    /// No such round (404): the thread stopped.
    NotFound,
}

/// How the round's stream is read.
#[derive(Clone, Copy, Debug)]
pub struct RoundTiming {
    pub connect: Duration,
    /// No byte for this long: the connection is taken as dead. A quiet
    /// round (every player thinking) sends nothing for minutes, so this is
    /// long.
    pub silence: Duration,
    pub backoff: Duration,
    pub backoff_max: Duration,
}

impl Default for RoundTiming {
    fn default() -> RoundTiming {
        RoundTiming {
            connect: Duration::from_secs(10),
            silence: Duration::from_secs(300),
            backoff: Duration::from_secs(1),
            backoff_max: Duration::from_secs(30),
        }
    }
}

/// The stream's path for `round` (only the id's letters and digits).
pub fn round_path(round: &str) -> Option<String> {
    let ok =
        !round.is_empty() && round.len() <= 32 && round.chars().all(|c| c.is_ascii_alphanumeric());
    ok.then(|| format!("/api/stream/broadcast/round/{round}.pgn"))
}

/// Starts the thread reading `base` + `path` until `stop` is set or the
/// receiver is gone.
pub fn spawn_round_stream<M: Send + 'static>(
    base: &str,
    path: &str,
    timing: RoundTiming,
    stop: Arc<AtomicBool>,
    tx: Sender<M>,
    wrap: fn(RoundMsg) -> M,
) -> std::io::Result<std::thread::JoinHandle<()>> {
    let url = format!("{}{path}", base.trim_end_matches('/'));
    let agent = ureq::AgentBuilder::new()
        .timeout_connect(timing.connect)
        .timeout_read(timing.silence)
        .user_agent(concat!("rochade/", env!("CARGO_PKG_VERSION")))
        .build();
    std::thread::Builder::new()
        .name("broadcast-round".into())
        .spawn(move || {
            let mut backoff = timing.backoff;
            let mut jitter = Jitter::new();
            while !stop.load(Ordering::Relaxed) {
                let started = std::time::Instant::now();
                let (reason, clean) = match agent.get(&url).call() {
                    Err(ureq::Error::Status(404, _)) => {
                        let _ = tx.send(wrap(RoundMsg::NotFound));
                        return;
                    }
                    Err(ureq::Error::Status(code, _)) => {
                        (format!("the server answered {code}"), false)
                    }
                    Err(e) => (format!("no connection: {e}"), false),
                    Ok(answer) => {
                        if tx.send(wrap(RoundMsg::Opened)).is_err() {
                            return;
                        }
                        match read_lines(answer.into_reader(), &stop, &tx, wrap) {
                            Ok(()) => ("the server ended the stream".to_owned(), true),
                            Err(reason) => (reason, false),
                        }
                    }
                };
                if stop.load(Ordering::Relaxed)
                    || tx.send(wrap(RoundMsg::Dropped { reason, clean })).is_err()
                {
                    return;
                }
                // A connection that worked for a while starts the waits
                // again; one cut at once keeps them growing.
                if started.elapsed() >= Duration::from_secs(5) {
                    backoff = timing.backoff;
                }
                wait_or_stop(jitter.spread(backoff), &stop);
                backoff = (backoff * 2).min(timing.backoff_max);
            }
        })
}

/// Hands on the lines of one connection; Ok at its clean end.
fn read_lines<M>(
    mut body: impl Read,
    stop: &AtomicBool,
    tx: &Sender<M>,
    wrap: fn(RoundMsg) -> M,
) -> Result<(), String> {
    let mut splitter = LineSplitter::new();
    let mut buf = [0u8; 8192];
    loop {
        if stop.load(Ordering::Relaxed) {
            return Ok(());
        }
        let n = body
            .read(&mut buf)
            .map_err(|e| format!("the stream broke: {e}"))?;
        if n == 0 {
            return Ok(());
        }
        let lines = splitter
            .push(&buf[..n])
            .map_err(|_| "a line far too long for PGN".to_owned())?;
        for line in lines {
            if tx.send(wrap(RoundMsg::Line(line))).is_err() {
                return Ok(());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_plain_round_id_makes_a_path() {
        assert_eq!(
            round_path("AbCd1234").as_deref(),
            Some("/api/stream/broadcast/round/AbCd1234.pgn")
        );
        for bad in ["", "../x", "a b", "id?x=1", &"a".repeat(40)] {
            assert_eq!(round_path(bad), None, "{bad}");
        }
    }
}
