//! The threads of online play in the window: connecting (the token, the
//! account, the search for a game) and the requests, sent in order. What
//! they report reaches [`super::online`] through one channel that wakes
//! the window; none of them is waited for in a frame.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::sync::mpsc::Sender;

use rochade_core::online::{Call, GameLine, IncomingEvent, TimeControlArg, Waits, path_user};

use crate::config::{OnlineFind, OnlineSettings};
use crate::online::{ApiError, Client, Find, StreamMsg, Timing, token};

/// What the threads of online play report to the window.
pub(super) enum OnlineMsg {
    /// The token typed was stored (where), or could not be (why: it is
    /// used this time all the same).
    TokenStored(Result<token::Stored, String>),
    /// The stored token's file could be read by other users: what was done.
    TokenFile(token::TokenFileNote),
    /// The server knows the token: this account.
    Connected {
        account: String,
        client: Client,
        waits: Waits,
    },
    /// Connecting failed: the reason (no token in it).
    Failed(String),
    /// Follow this game (Lichess's AI accepted at once).
    Open(rochade_core::online::PathId),
    Events(StreamMsg<IncomingEvent>),
    Game(StreamMsg<GameLine>),
    Answered(Call, Option<String>, Result<(), ApiError>),
}

pub(super) fn wrap_events(m: StreamMsg<IncomingEvent>) -> OnlineMsg {
    OnlineMsg::Events(m)
}
pub(super) fn wrap_game(m: StreamMsg<GameLine>) -> OnlineMsg {
    OnlineMsg::Game(m)
}

/// A time control typed in the dialog (`10+5`), checked before connecting.
pub(super) fn time_control(text: &str) -> Result<TimeControlArg, String> {
    text.trim()
        .parse::<TimeControlArg>()
        .map_err(|e| e.to_string())
}

pub(super) fn wrap_answer(
    call: Call,
    input: Option<String>,
    result: Result<(), ApiError>,
) -> OnlineMsg {
    OnlineMsg::Answered(call, input, result)
}

/// Connecting, on its own thread: the token, the account (a token typed
/// is kept once the server took it: a mistyped one is not), then the game
/// searched for as chosen.
pub(super) fn connect(
    settings: OnlineSettings,
    typed_text: String,
    tx: Sender<OnlineMsg>,
    stop: Arc<AtomicBool>,
) {
    let fail = |reason: String| {
        let _ = tx.send(OnlineMsg::Failed(reason));
    };
    let typed = !typed_text.trim().is_empty();
    let token = if !typed {
        let note_tx = tx.clone();
        let mut note = move |note| {
            let _ = note_tx.send(OnlineMsg::TokenFile(note));
        };
        match token::load_noting(&mut note) {
            Some(t) => t,
            None => {
                return fail(
                    "no token: paste a personal API token with the board:play scope".into(),
                );
            }
        }
    } else {
        match token::Token::new(&typed_text) {
            Some(t) => t,
            None => return fail("that is not a token (one line of letters, digits and _)".into()),
        }
    };
    let (timing, waits) = waits_from_env();
    let client = Client::new(settings.server.trim(), token.clone(), timing);
    let account = match client.account_id(&stop, |_| {}) {
        Ok(account) => account,
        Err(e) => return fail(e.to_string()),
    };
    if typed {
        let stored = token::store(&token).map_err(|e| e.to_string());
        let _ = tx.send(OnlineMsg::TokenStored(stored));
    }
    let _ = tx.send(OnlineMsg::Connected {
        account,
        client: client.clone(),
        waits,
    });
    let clock = match time_control(&settings.time_control) {
        Ok(tc) => tc,
        Err(e) => return fail(e),
    };
    let find = match settings.find {
        OnlineFind::Ai => Find::Ai {
            level: settings.ai_level,
        },
        OnlineFind::Seek => Find::Seek,
        OnlineFind::Challenge => Find::Challenge {
            user: path_user(&settings.opponent),
        },
        OnlineFind::Wait => Find::Wait,
    };
    if matches!(&find, Find::Challenge { user } if user.is_empty()) {
        return fail("no player named to challenge".into());
    }
    match client.find_game(&find, clock, &stop, |_| {}) {
        Ok(Some(id)) => {
            let _ = tx.send(OnlineMsg::Open(id));
        }
        Ok(None) => {}
        Err(e) => fail(e.to_string()),
    }
}

/// The client's timeouts and the controller's waits: Lichess's, or those
/// in `ROCHADE_ONLINE_WAITS` (the hidden options of `rochade online`, for
/// tests against a local server and for slow lines), e.g.
/// `backoff-ms=20 rate-limit-wait-ms=200 stream-timeout-ms=3000 keep-alive-ms=100`.
pub(super) fn waits_from_env() -> (Timing, Waits) {
    let mut timing = Timing::default();
    let mut waits = Waits::default();
    let text = std::env::var("ROCHADE_ONLINE_WAITS").unwrap_or_default();
    for (name, ms) in text
        .split_whitespace()
        .filter_map(|pair| pair.split_once('='))
        .filter_map(|(name, value)| Some((name, value.parse::<u64>().ok()?.max(1))))
    {
        let d = std::time::Duration::from_millis(ms);
        match name {
            "backoff-ms" => timing.backoff = d,
            "rate-limit-wait-ms" => timing.rate_limit_wait = d,
            "stream-timeout-ms" => timing.stream_silence = d,
            "keep-alive-ms" => waits.keep_alive_ms = ms,
            "gone-after-ms" => waits.gone_ms = ms,
            _ => {}
        }
    }
    waits.rate_limit_ms = timing.rate_limit_wait.as_millis() as u64;
    (timing, waits)
}
