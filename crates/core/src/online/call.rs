//! A request to the server as online play asks for it: a game's request
//! or an answer to a challenge, with its path and form.

use super::Request;

/// A request to the server.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Call {
    Game { game_id: PathId, request: Request },
    AcceptChallenge(PathId),
    DeclineChallenge(PathId),
}

impl Call {
    pub fn path(&self) -> String {
        match self {
            Call::Game { game_id, request } => request.path(game_id.as_str()),
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

/// A server's id of a game or a challenge, as it may go into a path: its
/// letters and digits only (Lichess ids are alphanumeric), so no id the
/// server sends can reach another path.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct PathId(String);

impl PathId {
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl From<&str> for PathId {
    fn from(id: &str) -> PathId {
        path_id(id)
    }
}

impl std::fmt::Display for PathId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// An id as it may go into a path (Lichess ids are alphanumeric).
pub fn path_id(id: &str) -> PathId {
    PathId(id.chars().filter(|c| c.is_ascii_alphanumeric()).collect())
}

/// A user name as it may go into a path (letters, digits, `_` and `-`).
pub fn path_user(name: &str) -> String {
    name.chars()
        .filter(|c| c.is_ascii_alphanumeric() || *c == '_' || *c == '-')
        .collect()
}
