//! Online play's transport: the HTTP client of the Lichess Board API (or
//! any server that speaks it: [`client`]), its failures in words
//! ([`http_errors`]), its streams read line by line in their own threads
//! ([`stream`], [`lines`]) with reconnection and backoff ([`backoff`]),
//! the request thread ([`requests`]), what online play asks of them
//! carried out once for every front end ([`GameLink`]) and the token's
//! storage ([`token`]).
//!
//! The game itself is the session's (`rochade_core::session::online`);
//! the protocol's types are [`rochade_core::online`]. The token is sent only in the
//! `Authorization` header; no error text, log line or file written here
//! contains it ([`Token`]'s `Debug` hides it).

mod backoff;
pub mod broadcast;
pub mod broadcast_push;
pub mod broadcast_standings;
mod client;
mod game_link;
mod http_errors;
pub mod lines;
pub mod requests;
mod stream;
pub mod token;

use std::time::Duration;

pub use backoff::wait_or_stop;
pub use client::{Client, Find};
pub use game_link::GameLink;
pub use rochade_core::online::ApiError;
pub use stream::{StreamMsg, spawn_stream};
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
