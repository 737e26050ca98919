//! Online play, the shell: the HTTP client of the Lichess Board API (or any
//! server that speaks it), its streams read line by line in their own
//! threads with reconnection and backoff, and the token's storage.
//!
//! The pure part (stream lines, requests, the server-is-truth rule) is
//! [`rochade_core::online`]. The token is sent only in the
//! `Authorization` header; no error text, log line or file written here
//! contains it ([`Token`]'s `Debug` hides it).

pub mod play;
pub mod token;

use std::io::{BufRead, BufReader, Read};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::Sender;
use std::time::Duration;

use rochade_core::online::TimeControlArg;

pub use token::Token;

/// The public Lichess.
pub const DEFAULT_SERVER: &str = "https://lichess.org";

/// A failed request, in words for the player (no token, no URL query).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ApiError {
    /// 401: the token is wrong, revoked or lacks the `board:play` scope.
    #[error("the server refused the token (401): check it has the board:play scope")]
    Unauthorized,
    /// 429: too many requests; Lichess asks to wait a full minute.
    #[error("too many requests (429): the server asks to wait a minute")]
    RateLimited,
    /// Another HTTP error with the server's reason (`{"error": "..."}`).
    #[error("{reason} ({status})")]
    Refused { status: u16, reason: String },
    /// No answer: connection refused, timed out, cut.
    #[error("no connection to the server: {0}")]
    Network(String),
}

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

    fn url(&self, path: &str) -> String {
        format!("{}{path}", self.base)
    }

    fn auth(&self, request: ureq::Request) -> ureq::Request {
        request.set("Authorization", &format!("Bearer {}", self.token.secret()))
    }

    /// GET a JSON document.
    pub fn get_json(&self, path: &str) -> Result<serde_json::Value, ApiError> {
        let response = self.auth(self.agent.get(&self.url(path))).call();
        read_json(response)
    }

    /// POST a form; the JSON answer.
    pub fn post(&self, path: &str, form: &[(&str, String)]) -> Result<serde_json::Value, ApiError> {
        let pairs: Vec<(&str, &str)> = form.iter().map(|(k, v)| (*k, v.as_str())).collect();
        let response = self
            .auth(self.agent.post(&self.url(path)))
            .send_form(&pairs);
        read_json(response)
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
                Ok(answer.get("id").and_then(|v| v.as_str()).map(play::path_id))
            }
            Find::Seek => self
                .post_streaming("/api/board/seek", &clock.seek_form(), stop)
                .map(|()| None),
            Find::Challenge { user } => {
                let path = format!("/api/challenge/{}", play::path_user(user));
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
            let body = response.into_string().unwrap_or_default();
            let reason = serde_json::from_str::<serde_json::Value>(&body)
                .ok()
                .and_then(|v| v.get("error").map(error_text))
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
    text
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
    let body = response
        .into_string()
        .map_err(|e| ApiError::Network(e.to_string()))?;
    if body.trim().is_empty() {
        return Ok(serde_json::Value::Null);
    }
    serde_json::from_str(&body).map_err(|e| ApiError::Network(format!("unreadable answer: {e}")))
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
/// and sent wrapped by `wrap`; blank keep-alive lines skipped; a drop
/// reported and the stream reopened with backoff until `stop` is set or
/// the receiver is gone. The stream ending cleanly (the game is over) also
/// reopens it, unless `stop` was set meanwhile.
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
            while !stop.load(Ordering::Relaxed) {
                let result = client.open_stream(&path);
                let reason = match result {
                    Ok(reader) => {
                        if dropped && tx.send(wrap(StreamMsg::Back)).is_err() {
                            return;
                        }
                        dropped = false;
                        backoff = client.timing.backoff;
                        match read_lines(reader, &stop, &tx, wrap) {
                            Some(reason) => reason,
                            None => return,
                        }
                    }
                    Err(ApiError::Unauthorized) => {
                        let _ = tx.send(wrap(StreamMsg::Fatal(ApiError::Unauthorized)));
                        return;
                    }
                    Err(e) => e,
                };
                if stop.load(Ordering::Relaxed) {
                    return;
                }
                let wait = if reason == ApiError::RateLimited {
                    client.timing.rate_limit_wait
                } else {
                    backoff
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

/// Reads lines until the stream ends or breaks (the reason), or the
/// receiver is gone / `stop` is set (None).
fn read_lines<T, M>(
    reader: Box<dyn Read + Send>,
    stop: &AtomicBool,
    tx: &Sender<M>,
    wrap: fn(StreamMsg<T>) -> M,
) -> Option<ApiError>
where
    T: serde::de::DeserializeOwned,
{
    let mut reader = BufReader::new(reader);
    let mut line = String::new();
    loop {
        line.clear();
        match reader.read_line(&mut line) {
            Ok(0) => return Some(ApiError::Network("the stream ended".into())),
            Ok(_) => {}
            Err(e) => return Some(ApiError::Network(e.to_string())),
        }
        if stop.load(Ordering::Relaxed) {
            return None;
        }
        let text = line.trim();
        if text.is_empty() {
            continue; // keep-alive
        }
        let msg = match serde_json::from_str::<T>(text) {
            Ok(v) => StreamMsg::Line(v),
            Err(e) => StreamMsg::Unreadable(e.to_string()),
        };
        if tx.send(wrap(msg)).is_err() {
            return None;
        }
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
