//! The waits of online play's watch (see the session's online controller):
//! silence, unanswered requests, "too many requests", a server gone.

/// The waits of online play, in milliseconds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Waits {
    /// The server's keep-alive period (Lichess sends a blank line every
    /// few seconds): a game stream that brings no line for three of them
    /// while the opponent is to move is read again.
    pub keep_alive_ms: u64,
    /// A move's request unanswered this long: the game is read again.
    pub request_ms: u64,
    /// After "too many requests" (429) on our move: it is sent again
    /// after this wait (Lichess asks for a minute).
    pub rate_limit_ms: u64,
    /// The game's server unreachable this long is said as gone (once;
    /// reconnecting goes on).
    pub gone_ms: u64,
}

impl Default for Waits {
    fn default() -> Waits {
        Waits {
            keep_alive_ms: 7_000,
            request_ms: 20_000,
            rate_limit_ms: 60_000,
            gone_ms: 60_000,
        }
    }
}
