//! The transport's failures in the player's words: HTTP errors and
//! answers mapped to [`ApiError`] (no token, no URL query in them), and
//! answers read within their bounds.

use std::io::Read;

use super::{ApiError, lines};

pub(super) fn map_error(e: ureq::Error) -> ApiError {
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

pub(super) fn read_json(
    response: Result<ureq::Response, ureq::Error>,
) -> Result<serde_json::Value, ApiError> {
    read_answer(response.map_err(map_error)?)
}

/// An answer's JSON (empty: null), read within its bounds.
pub(super) fn read_answer(response: ureq::Response) -> Result<serde_json::Value, ApiError> {
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

/// A redirect answered to a request that must not follow one (a POST: a
/// move, an offer): a network failure naming where it pointed, so the
/// request is kept and tried again, never taken as done.
pub(super) fn refuse_redirect(response: &ureq::Response) -> Result<(), ApiError> {
    let status = response.status();
    if !(300..400).contains(&status) {
        return Ok(());
    }
    let to = response
        .header("location")
        .map(|l| lines::clean_text(l, 80))
        .filter(|l| !l.is_empty())
        .map_or(String::new(), |l| format!(" to {l}"));
    Err(ApiError::Network(format!(
        "the server answered with a redirect ({status}{to}): the request was not sent"
    )))
}
