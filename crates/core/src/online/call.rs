//! A request to the server as online play asks for it: a game's request
//! or an answer to a challenge, with its path and form.

use super::Request;

/// A request to the server.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Call {
    Game { game_id: String, request: Request },
    AcceptChallenge(String),
    DeclineChallenge(String),
}

impl Call {
    pub fn path(&self) -> String {
        match self {
            Call::Game { game_id, request } => request.path(game_id),
            Call::AcceptChallenge(id) => format!("/api/challenge/{id}/accept"),
            Call::DeclineChallenge(id) => format!("/api/challenge/{id}/decline"),
        }
    }

    pub fn form(&self) -> Vec<(&'static str, String)> {
        match self {
            Call::Game { request, .. } => request.form(),
            Call::AcceptChallenge(_) => Vec::new(),
            Call::DeclineChallenge(_) => vec![("reason", "generic".into())],
        }
    }
}

/// An id as it may go into a path (Lichess ids are alphanumeric).
pub fn path_id(id: &str) -> String {
    id.chars().filter(|c| c.is_ascii_alphanumeric()).collect()
}

/// A user name as it may go into a path (letters, digits, `_` and `-`).
pub fn path_user(name: &str) -> String {
    name.chars()
        .filter(|c| c.is_ascii_alphanumeric() || *c == '_' || *c == '-')
        .collect()
}
