//! The Board API client: requests with their timeouts, the account, the
//! search for a game, and the streams' connections.

use std::io::Read;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use rochade_core::online::TimeControlArg;

use super::http_errors::{map_error, read_answer, read_json, refuse_redirect};
use super::{ApiError, Timing, Token, wait_or_stop};

/// The Board API client. Cheap to clone (one connection pool).
#[derive(Clone)]
pub struct Client {
    base: String,
    token: Token,
    agent: ureq::Agent,
    /// For POST requests: never follows a redirect (a proxy or a captive
    /// portal answering a move with one would turn it into a GET that
    /// sends nothing; the answer is a failure, said, and the move is sent
    /// again later).
    post_agent: ureq::Agent,
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
        let post_agent = ureq::AgentBuilder::new()
            .timeout_connect(timing.connect)
            .timeout_read(timing.request)
            .timeout_write(timing.request)
            .redirects(0)
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
            post_agent,
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
            .post_agent
            .post(&self.url(path))
            .timeout(self.whole_request());
        let response = self.auth(request).send_form(&pairs).map_err(map_error)?;
        refuse_redirect(&response)?;
        read_answer(response)
    }

    /// POST a text body (`text/plain`: a broadcast round's PGN); the JSON
    /// answer.
    pub fn post_text(&self, path: &str, body: &str) -> Result<serde_json::Value, ApiError> {
        let request = self
            .post_agent
            .post(&self.url(path))
            .timeout(self.whole_request())
            .set("Content-Type", "text/plain; charset=utf-8");
        let response = self.auth(request).send_string(body).map_err(map_error)?;
        refuse_redirect(&response)?;
        read_answer(response)
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
    ) -> Result<Option<rochade_core::online::PathId>, ApiError> {
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
    pub(super) fn open_stream(&self, path: &str) -> Result<Box<dyn Read + Send>, ApiError> {
        let response = self
            .auth(self.stream_agent.get(&self.url(path)))
            .call()
            .map_err(map_error)?;
        Ok(response.into_reader())
    }
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
