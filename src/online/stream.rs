//! The server's NDJSON streams, each followed on a thread of its own:
//! lines parsed and handed on, silence and drops noticed, reconnection
//! with backoff.

use std::io::Read;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, Sender};
use std::time::Duration;

use super::backoff::Jitter;
use super::{ApiError, Client, lines, wait_or_stop};

/// What a stream thread reports.
#[derive(Debug)]
pub enum StreamMsg<T> {
    /// A line of the stream, parsed.
    Line(T),
    /// A line that is not what the API documents (said, skipped).
    Unreadable(String),
    /// The stream broke (or could not be opened); reconnecting after the
    /// backoff. `first` is true for the first failure after a working stream.
    Dropped { reason: ApiError, first: bool },
    /// The stream is open again after a drop.
    Back,
    /// The server refused the token: the thread stopped.
    Fatal(ApiError),
}

/// Reads the NDJSON stream at `path` in a thread: each line parsed as `T`
/// (every text in it cleaned, [`lines::parse_line`]) and sent wrapped by
/// `wrap`; blank keep-alive lines skipped; a drop reported and the stream
/// reopened with a jittered, growing backoff until `stop` is set or the
/// receiver is gone. The stream ending cleanly (the game is over) also
/// reopens it, unless `stop` was set meanwhile.
///
/// A connection counts as dropped when no whole line (a keep-alive is one)
/// came for [`Timing::stream_silence`], however many bytes trickled in,
/// when its answer's head is not there within [`Timing::connect`] plus
/// that, or when a line grows past [`lines::MAX_LINE`]. Each connection is
/// read by a thread of its own, so a server that drips bytes or never
/// answers can hold that thread but never this one.
pub fn spawn_stream<T, M>(
    client: Client,
    path: String,
    stop: Arc<AtomicBool>,
    tx: Sender<M>,
    wrap: fn(StreamMsg<T>) -> M,
) -> std::thread::JoinHandle<()>
where
    T: serde::de::DeserializeOwned + Send + 'static,
    M: Send + 'static,
{
    std::thread::Builder::new()
        .name("online-stream".into())
        .spawn(move || {
            let mut backoff = client.timing.backoff;
            let mut dropped = false;
            let mut jitter = Jitter::new();
            while !stop.load(Ordering::Relaxed) {
                let (reason, lasted) =
                    match follow_connection(&client, &path, &stop, &tx, wrap, dropped) {
                        Followed::Stopped => return,
                        Followed::Fatal(e) => {
                            let _ = tx.send(wrap(StreamMsg::Fatal(e)));
                            return;
                        }
                        Followed::Ended {
                            reason,
                            opened,
                            lasted,
                        } => {
                            if opened {
                                dropped = false;
                            }
                            (reason, lasted)
                        }
                    };
                if stop.load(Ordering::Relaxed) {
                    return;
                }
                // A connection that worked for a second starts the backoff
                // again (a drop in a game comes back at once); one cut at
                // once (a server that accepts and closes) keeps it
                // growing, so reconnections never come at a fixed, quick
                // pace.
                if lasted >= client.timing.backoff_max.min(Duration::from_secs(1)) {
                    backoff = client.timing.backoff;
                }
                let wait = if reason == ApiError::RateLimited {
                    client.timing.rate_limit_wait
                } else {
                    jitter.spread(backoff)
                };
                let first = !dropped;
                dropped = true;
                if tx.send(wrap(StreamMsg::Dropped { reason, first })).is_err() {
                    return;
                }
                wait_or_stop(wait, &stop);
                backoff = (backoff * 2).min(client.timing.backoff_max);
            }
        })
        .expect("a thread for the stream")
}

/// How one connection of a stream ended.
enum Followed {
    /// `stop` was set or the receiver is gone.
    Stopped,
    /// The token was refused: no reconnection.
    Fatal(ApiError),
    /// The connection could not be opened, broke, went silent or ended.
    /// `opened`: it was open (after a drop, `Back` was sent);
    /// `lasted`: how long it was open.
    Ended {
        reason: ApiError,
        opened: bool,
        lasted: Duration,
    },
}

/// What a connection's reading thread hands over.
enum Reading {
    Opened,
    Bytes(Vec<u8>),
    Failed(ApiError),
}

/// Opens one connection of the stream and follows it until it ends.
fn follow_connection<T, M>(
    client: &Client,
    path: &str,
    stop: &AtomicBool,
    tx: &Sender<M>,
    wrap: fn(StreamMsg<T>) -> M,
    after_drop: bool,
) -> Followed
where
    T: serde::de::DeserializeOwned,
{
    let quit = Arc::new(AtomicBool::new(false));
    let bytes = spawn_reader(client.clone(), path.to_owned(), quit.clone());
    // Whatever ends this connection, its reader stops at its next read.
    struct QuitOnDrop(Arc<AtomicBool>);
    impl Drop for QuitOnDrop {
        fn drop(&mut self) {
            self.0.store(true, Ordering::Relaxed);
        }
    }
    let _quit = QuitOnDrop(quit);
    let silence = client.timing.stream_silence;
    let mut deadline = std::time::Instant::now() + client.timing.connect + silence;
    let mut opened_at = None;
    let ended = |reason: ApiError, opened_at: Option<std::time::Instant>| Followed::Ended {
        reason,
        opened: opened_at.is_some(),
        lasted: opened_at.map_or(Duration::ZERO, |t: std::time::Instant| t.elapsed()),
    };
    let mut splitter = lines::LineSplitter::new();
    loop {
        if stop.load(Ordering::Relaxed) {
            return Followed::Stopped;
        }
        let now = std::time::Instant::now();
        if now >= deadline {
            let what = if opened_at.is_some() {
                format!(
                    "no line from the server for {} s",
                    silence.as_secs_f32().round()
                )
            } else {
                "the server did not answer in time".to_owned()
            };
            return ended(ApiError::Network(what), opened_at);
        }
        // Short waits, so `stop` is seen at once.
        let wait = (deadline - now).min(Duration::from_millis(100));
        let got = match bytes.recv_timeout(wait) {
            Ok(got) => got,
            Err(std::sync::mpsc::RecvTimeoutError::Timeout) => continue,
            Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => {
                return ended(ApiError::Network("the stream ended".into()), opened_at);
            }
        };
        match got {
            Reading::Opened => {
                opened_at = Some(std::time::Instant::now());
                deadline = std::time::Instant::now() + silence;
                if after_drop && tx.send(wrap(StreamMsg::Back)).is_err() {
                    return Followed::Stopped;
                }
            }
            Reading::Failed(ApiError::Unauthorized) => {
                return Followed::Fatal(ApiError::Unauthorized);
            }
            Reading::Failed(reason) => return ended(reason, opened_at),
            Reading::Bytes(chunk) => {
                let Ok(lines) = splitter.push(&chunk) else {
                    let reason = format!("a line longer than {} KB", lines::MAX_LINE / 1024);
                    return ended(ApiError::Network(reason), opened_at);
                };
                for line in lines {
                    // Any whole line, a keep-alive too, shows the
                    // connection lives.
                    deadline = std::time::Instant::now() + silence;
                    let text = line.trim();
                    if text.is_empty() {
                        continue;
                    }
                    let msg = match lines::parse_line::<T>(text) {
                        Ok(v) => StreamMsg::Line(v),
                        Err(e) => StreamMsg::Unreadable(e),
                    };
                    if tx.send(wrap(msg)).is_err() || stop.load(Ordering::Relaxed) {
                        return Followed::Stopped;
                    }
                }
            }
        }
    }
}

/// Opens the stream and reads it in a thread of its own, handing over
/// what it read until `quit` is set, the stream ends or breaks (then the
/// channel closes or says why).
fn spawn_reader(client: Client, path: String, quit: Arc<AtomicBool>) -> Receiver<Reading> {
    let (tx, rx) = std::sync::mpsc::channel();
    let spawned = std::thread::Builder::new()
        .name("online-read".into())
        .spawn(move || {
            let mut reader = match client.open_stream(&path) {
                Ok(reader) => reader,
                Err(e) => {
                    let _ = tx.send(Reading::Failed(e));
                    return;
                }
            };
            if quit.load(Ordering::Relaxed) || tx.send(Reading::Opened).is_err() {
                return;
            }
            let mut buf = vec![0u8; 16 * 1024];
            loop {
                match reader.read(&mut buf) {
                    Ok(0) => return,
                    Ok(n) => {
                        if quit.load(Ordering::Relaxed)
                            || tx.send(Reading::Bytes(buf[..n].to_vec())).is_err()
                        {
                            return;
                        }
                    }
                    Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                    Err(e) => {
                        let _ = tx.send(Reading::Failed(ApiError::Network(lines::clean_text(
                            &e.to_string(),
                            lines::MAX_TEXT,
                        ))));
                        return;
                    }
                }
            }
        });
    if let Err(e) = spawned {
        // No thread: the channel's sender is gone with the closure, so the
        // connection ends at once and is tried again after the backoff.
        eprintln!("rochade: no thread for the stream: {e}");
    }
    rx
}
