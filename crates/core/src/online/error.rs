//! A request to the server that failed, as the player is told it: the
//! pure part of the shell's transport errors (the shell maps its HTTP
//! errors to these; no token, no URL query in them).

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
