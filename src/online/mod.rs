//! Online play, the shell: the HTTP client of the Lichess Board API (or any
//! server that speaks it), its streams read line by line in their own
//! threads with reconnection and backoff, and the token's storage.
//!
//! The pure part (stream lines, requests, the server-is-truth rule) is
//! [`rochade_core::online`]. The token is sent only in the
//! `Authorization` header; no error text, log line or file written here
//! contains it ([`Token`]'s `Debug` hides it).

pub mod lines;
pub mod requests;
pub mod token;

use std::io::Read;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, Sender};
use std::time::Duration;

pub use rochade_core::online::ApiError;
use rochade_core::online::TimeControlArg;

pub use token::Token;

/// The public Lichess.
pub const DEFAULT_SERVER: &str = "https://lichess.org";

/// Timeouts and waits of the client.
#[derive(Clone, Copy, Debug)]
pub struct Timing {
    pub connect: Duration,
    /// A stream silent this long is taken as dropped (Lichess sends a
    /// keep-alive blank line every few seconds).
    pub stream_silence: Duration,
    /// A plain request's answer.
    pub request: Duration,
    /// First wait before reconnecting; doubled up to [`Timing::backoff_max`].
    pub backoff: Duration,
    pub backoff_max: Duration,
    /// Wait after a 429 (Lichess: one minute).
    pub rate_limit_wait: Duration,
}

impl Default for Timing {
    fn default() -> Timing {
        Timing {
            connect: Duration::from_secs(10),
            stream_silence: Duration::from_secs(20),
            request: Duration::from_secs(15),
            backoff: Duration::from_secs(1),
            backoff_max: Duration::from_secs(30),
            rate_limit_wait: Duration::from_secs(60),
        }
    }
}

/// The Board API client. Cheap to clone (one connection pool).
#[derive(Clone)]
pub struct Client {
    base: String,
    token: Token,
    agent: ureq::Agent,
    stream_agent: ureq::Agent,
    pub timing: Timing,
}

impl Client {
    pub fn new(base: &str, token: Token, timing: Timing) -> Client {
        let agent = ureq::AgentBuilder::new()
            .timeout_connect(timing.connect)
            .timeout_read(timing.request)
            .timeout_write(timing.request)
            .user_agent(concat!("rochade/", env!("CARGO_PKG_VERSION")))
            .build();
        let stream_agent = ureq::AgentBuilder::new()
            .timeout_connect(timing.connect)
            .timeout_read(timing.stream_silence)
            .timeout_write(timing.request)
            .user_agent(concat!("rochade/", env!("CARGO_PKG_VERSION")))
            .build();
        Client {
            base: base.trim_end_matches('/').to_owned(),
            token,
            agent,
            stream_agent,
            timing,
        }
    }

    pub fn base(&self) -> &str {
        &self.base
    }

    /// The deadline of a whole plain request, answer included: a server
    /// that drips its answer a byte at a time cannot hold it longer.
    fn whole_request(&self) -> Duration {
        self.timing.connect + self.timing.request
    }

    fn url(&self, path: &str) -> String {
        format!("{}{path}", self.base)
    }

    fn auth(&self, request: ureq::Request) -> ureq::Request {
        request.set("Authorization", &format!("Bearer {}", self.token.secret()))
    }

    /// GET a JSON document.
    pub fn get_json(&self, path: &str) -> Result<serde_json::Value, ApiError> {
        let request = self
            .agent
            .get(&self.url(path))
            .timeout(self.whole_request());
        read_json(self.auth(request).call())
    }

    /// POST a form; the JSON answer.
    pub fn post(&self, path: &str, form: &[(&str, String)]) -> Result<serde_json::Value, ApiError> {
        let pairs: Vec<(&str, &str)> = form.iter().map(|(k, v)| (*k, v.as_str())).collect();
        let request = self
            .agent
            .post(&self.url(path))
            .timeout(self.whole_request());
        read_json(self.auth(request).send_form(&pairs))
    }

    /// POST a form whose answer is a stream held open (`/api/board/seek`):
    /// reads it until it ends or `stop` is set.
    pub fn post_streaming(
        &self,
        path: &str,
        form: &[(&str, String)],
        stop: &AtomicBool,
    ) -> Result<(), ApiError> {
        let pairs: Vec<(&str, &str)> = form.iter().map(|(k, v)| (*k, v.as_str())).collect();
        let response = self
            .auth(self.stream_agent.post(&self.url(path)))
            .send_form(&pairs)
            .map_err(map_error)?;
        let mut reader = response.into_reader();
        let mut buf = [0u8; 256];
        while !stop.load(Ordering::Relaxed) {
            match reader.read(&mut buf) {
                Ok(0) => break,
                Ok(_) => {}
                // A seek's answer may stay silent until a game is found.
                Err(e)
                    if matches!(
                        e.kind(),
                        std::io::ErrorKind::TimedOut | std::io::ErrorKind::WouldBlock
                    ) => {}
                Err(e) => return Err(ApiError::Network(e.to_string())),
            }
        }
        Ok(())
    }

    /// `request`, tried again after "too many requests" (429) as Lichess
    /// asks: after [`Timing::rate_limit_wait`] (cut short by `stop`), twice
    /// at most; `waiting` hears each 429 first. Other errors come back.
    pub fn retrying<T>(
        &self,
        stop: &AtomicBool,
        mut waiting: impl FnMut(&ApiError),
        mut request: impl FnMut(&Client) -> Result<T, ApiError>,
    ) -> Result<T, ApiError> {
        let mut attempt = 0;
        loop {
            match request(self) {
                Err(ApiError::RateLimited) if attempt < 2 => {
                    attempt += 1;
                    waiting(&ApiError::RateLimited);
                    wait_or_stop(self.timing.rate_limit_wait, stop);
                }
                other => return other,
            }
        }
    }

    /// This account's id (and so, that the token works).
    pub fn account_id(
        &self,
        stop: &AtomicBool,
        waiting: impl FnMut(&ApiError),
    ) -> Result<String, ApiError> {
        let answer = self.retrying(stop, waiting, |c| c.get_json("/api/account"))?;
        answer
            .get("id")
            .and_then(|v| v.as_str())
            .map(str::to_owned)
            .ok_or_else(|| ApiError::Network("the server's account answer has no id".into()))
    }

    /// Asks for a game as chosen, with the clock `clock`. The game's id
    /// when the server names it at once (the AI); otherwise the game is
    /// announced by the events stream (`gameStart`). A seek is held open
    /// until a game starts or `stop` is set.
    pub fn find_game(
        &self,
        find: &Find,
        clock: TimeControlArg,
        stop: &AtomicBool,
        waiting: impl FnMut(&ApiError),
    ) -> Result<Option<String>, ApiError> {
        match find {
            Find::Ai { level } => {
                let mut form = vec![
                    ("level", (*level).clamp(1, 8).to_string()),
                    ("color", "random".into()),
                ];
                form.extend(clock.clock_form());
                let answer =
                    self.retrying(stop, waiting, |c| c.post("/api/challenge/ai", &form))?;
                Ok(answer
                    .get("id")
                    .and_then(|v| v.as_str())
                    .map(rochade_core::online::path_id))
            }
            Find::Seek => self
                .post_streaming("/api/board/seek", &clock.seek_form(), stop)
                .map(|()| None),
            Find::Challenge { user } => {
                let path = format!("/api/challenge/{}", rochade_core::online::path_user(user));
                self.retrying(stop, waiting, |c| c.post(&path, &clock.clock_form()))?;
                Ok(None)
            }
            Find::Wait => Ok(None),
        }
    }

    /// Opens an NDJSON stream (GET).
    fn open_stream(&self, path: &str) -> Result<Box<dyn Read + Send>, ApiError> {
        let response = self
            .auth(self.stream_agent.get(&self.url(path)))
            .call()
            .map_err(map_error)?;
        Ok(response.into_reader())
    }
}

fn map_error(e: ureq::Error) -> ApiError {
    match e {
        ureq::Error::Status(401, _) => ApiError::Unauthorized,
        ureq::Error::Status(429, _) => ApiError::RateLimited,
        ureq::Error::Status(status, response) => {
            let body = read_body(response).unwrap_or_default();
            let reason = serde_json::from_str::<serde_json::Value>(&body)
                .ok()
                .and_then(|v| v.get("error").map(error_text))
                .map(|text| lines::clean_text(&text, lines::MAX_TEXT))
                .filter(|text| !text.is_empty())
                .unwrap_or_else(|| format!("the server answered {status}"));
            ApiError::Refused { status, reason }
        }
        // The transport error names the URL, which holds no token.
        ureq::Error::Transport(t) => ApiError::Network(transport_text(&t)),
    }
}

/// A transport error in a few words (its kind and cause, no URL).
fn transport_text(t: &ureq::Transport) -> String {
    let mut text = t.kind().to_string();
    if let Some(m) = t.message() {
        text = format!("{text}: {m}");
    }
    if let Some(source) = std::error::Error::source(t) {
        text = format!("{text} ({source})");
    }
    lines::clean_text(&text, lines::MAX_TEXT)
}

/// `{"error": "..."}` or `{"error": {"field": ["..."]}}` as one line.
fn error_text(v: &serde_json::Value) -> String {
    match v {
        serde_json::Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

fn read_json(response: Result<ureq::Response, ureq::Error>) -> Result<serde_json::Value, ApiError> {
    let response = response.map_err(map_error)?;
    let body = read_body(response)?;
    if body.trim().is_empty() {
        return Ok(serde_json::Value::Null);
    }
    let mut value: serde_json::Value = serde_json::from_str(&body)
        .map_err(|e| ApiError::Network(format!("unreadable answer: {e}")))?;
    lines::clean_value(&mut value);
    Ok(value)
}

/// An answer's body, at most [`lines::MAX_BODY`] bytes (a longer one is
/// refused as soon as the bound is passed, not read to its end).
fn read_body(response: ureq::Response) -> Result<String, ApiError> {
    let mut body = Vec::new();
    response
        .into_reader()
        .take(lines::MAX_BODY as u64 + 1)
        .read_to_end(&mut body)
        .map_err(|e| ApiError::Network(lines::clean_text(&e.to_string(), lines::MAX_TEXT)))?;
    if body.len() > lines::MAX_BODY {
        let reason = format!("an answer longer than {} KB", lines::MAX_BODY / 1024);
        return Err(ApiError::Network(reason));
    }
    Ok(String::from_utf8_lossy(&body).into_owned())
}

/// How a game is found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Find {
    /// Against Lichess's AI at this level (1-8).
    Ai { level: u8 },
    /// A casual game with anyone.
    Seek,
    /// A challenge to this player (a name with letters, digits, `_`, `-`).
    Challenge { user: String },
    /// A challenge from someone, or a game started elsewhere.
    Wait,
}

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

/// Spreads waits between a half and one and a half of their length, so
/// clients cut off together do not all come back at the same instant.
struct Jitter(u64);

impl Jitter {
    fn new() -> Jitter {
        use std::hash::{BuildHasher, Hasher};
        let mut h = std::collections::hash_map::RandomState::new().build_hasher();
        h.write_u128(
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_nanos()),
        );
        Jitter(h.finish() | 1)
    }

    fn spread(&mut self, d: Duration) -> Duration {
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
