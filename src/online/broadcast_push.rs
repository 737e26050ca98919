//! The blind player's game pushed to a broadcast round
//! (`POST /api/broadcast/round/{id}/push`, `text/plain` PGN, token scope
//! `study:write`; the answer `{games: [{tags, moves} | {tags, error}]}`, as
//! Lichess's API documents it) on a thread of its own, so an announcement
//! never waits for the network. What to send and when is
//! [`rochade_core::broadcast::Pusher`]'s; this thread only posts and reads
//! the answer into a [`PushAnswer`].

use std::sync::mpsc::{Receiver, Sender, TryRecvError, channel};
use std::time::{Duration, Instant};

use rochade_core::broadcast::{PushAnswer, PushEffect, PushTiming, Pusher};

use super::{ApiError, Client};
use crate::driver::{self, Next};

/// The push's path for `round` (only the id's letters and digits).
pub fn push_path(round: &str) -> Option<String> {
    let ok =
        !round.is_empty() && round.len() <= 32 && round.chars().all(|c| c.is_ascii_alphanumeric());
    ok.then(|| format!("/api/broadcast/round/{round}/push"))
}

/// What the push thread tells its front end.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PushNote {
    /// Pushed, trouble, recovered (never [`PushEffect::Send`]).
    Effect(PushEffect),
    /// After [`PushLink::finish`]: the thread has ended; `up_to_date`: the
    /// round holds the newest game.
    Finished { up_to_date: bool },
    /// No token is stored: nothing is pushed (the thread has ended).
    NoToken,
}

enum Command {
    Game(String),
    /// Push what waits, then end (at the latest after the wait given).
    Finish(Duration),
}

/// The front end's handle on the push thread.
pub struct PushLink {
    commands: Sender<Command>,
}

impl PushLink {
    /// The game as it now stands (its whole PGN): pushed as soon as the
    /// push before it is answered.
    pub fn game(&self, pgn: String) {
        let _ = self.commands.send(Command::Game(pgn));
    }

    /// Push what waits and end; [`PushNote::Finished`] comes within
    /// `within` plus one request's timeout.
    pub fn finish(&self, within: Duration) {
        let _ = self.commands.send(Command::Finish(within));
    }
}

/// Starts the thread pushing to `path` (see [`push_path`]) with the client
/// `make_client` makes there (loading the token may take the secret
/// store's time: never on the caller's thread); its notes go to `tx`
/// wrapped by `wrap`.
pub fn spawn_push<M: Send + 'static>(
    make_client: impl FnOnce() -> Option<Client> + Send + 'static,
    path: String,
    timing: PushTiming,
    tx: Sender<M>,
    wrap: fn(PushNote) -> M,
) -> PushLink {
    let (commands, rx) = channel();
    let _ = std::thread::Builder::new()
        .name("broadcast-push".into())
        .spawn(move || {
            let Some(client) = make_client() else {
                let _ = tx.send(wrap(PushNote::NoToken));
                return;
            };
            let mut run = PushRun {
                client,
                path,
                pusher: Pusher::new(timing),
                start: Instant::now(),
                finish_by: None,
                refused_token: false,
            };
            run.serve(&rx, &mut |note| tx.send(wrap(note)).is_ok());
        });
    PushLink { commands }
}

struct PushRun {
    client: Client,
    path: String,
    pusher: Pusher,
    start: Instant,
    /// Set by [`Command::Finish`]: end when settled or at this time.
    finish_by: Option<u64>,
    /// The last answer refused the token: waiting longer would not help
    /// a finishing run.
    refused_token: bool,
}

impl PushRun {
    fn now(&self) -> u64 {
        self.start.elapsed().as_millis() as u64
    }

    fn serve(&mut self, rx: &Receiver<Command>, tell: &mut dyn FnMut(PushNote) -> bool) {
        loop {
            let now = self.now();
            if let Some(by) = self.finish_by
                && (self.pusher.settled() || self.refused_token || now >= by)
            {
                let up_to_date = self.pusher.up_to_date();
                tell(PushNote::Finished { up_to_date });
                return;
            }
            // Nothing scheduled: wait for the next command, however long.
            let wait = driver::to_soonest(&self.pusher, self.finish_by, now);
            let command = match driver::next(rx, wait) {
                Next::Input(c) => Some(c),
                Next::Due => None,
                // The front end is gone: nothing more to push for.
                Next::Closed => return,
            };
            let effects = match command {
                Some(command) => self.take(command),
                None => self.pusher.tick(self.now()),
            };
            if !self.carry_out(effects, rx, tell) {
                return;
            }
        }
    }

    fn take(&mut self, command: Command) -> Vec<PushEffect> {
        match command {
            Command::Game(pgn) => self.pusher.game(self.now(), pgn),
            Command::Finish(within) => {
                self.finish_by = Some(self.now() + within.as_millis() as u64);
                Vec::new()
            }
        }
    }

    /// Sends what the pusher asks (one request at a time) and tells the
    /// rest; false when the front end is gone.
    fn carry_out(
        &mut self,
        mut effects: Vec<PushEffect>,
        rx: &Receiver<Command>,
        tell: &mut dyn FnMut(PushNote) -> bool,
    ) -> bool {
        while !effects.is_empty() {
            let mut next = Vec::new();
            for effect in effects {
                match effect {
                    PushEffect::Send { pgn } => {
                        let answer = answer_of(self.client.post_text(&self.path, &pgn));
                        self.refused_token = answer == PushAnswer::Unauthorized;
                        // Moves made while the request ran come first, so
                        // the next push is the newest game, not a stale one.
                        loop {
                            match rx.try_recv() {
                                Ok(command) => next.extend(self.take(command)),
                                Err(TryRecvError::Empty) => break,
                                Err(TryRecvError::Disconnected) => return false,
                            }
                        }
                        next.extend(self.pusher.answered(self.now(), answer));
                    }
                    other => {
                        if !tell(PushNote::Effect(other)) {
                            return false;
                        }
                    }
                }
            }
            effects = next;
        }
        true
    }
}

/// The server's answer as the pusher reads it. One game is pushed, so the
/// answer's first game is ours.
pub fn answer_of(result: Result<serde_json::Value, ApiError>) -> PushAnswer {
    match result {
        Ok(value) => {
            let game = value.get("games").and_then(|g| g.get(0));
            match game {
                Some(game) => match (game.get("error"), game.get("moves")) {
                    (Some(error), _) => PushAnswer::GameRefused {
                        error: match error {
                            serde_json::Value::String(s) => s.clone(),
                            other => other.to_string(),
                        },
                    },
                    (None, Some(moves)) => PushAnswer::Accepted {
                        moves: moves.as_u64().unwrap_or(0).min(u32::MAX as u64) as u32,
                    },
                    (None, None) => PushAnswer::Failed {
                        reason: "the server's answer names neither moves nor an error".into(),
                    },
                },
                None => PushAnswer::Failed {
                    reason: "the server's answer names no game".into(),
                },
            }
        }
        Err(ApiError::Unauthorized) => PushAnswer::Unauthorized,
        Err(ApiError::Refused { status: 403, .. }) => PushAnswer::Unauthorized,
        Err(ApiError::Refused { status: 404, .. }) => PushAnswer::NoRound,
        Err(ApiError::RateLimited) => PushAnswer::RateLimited,
        // The server read the push and refused it as a whole (a 400 with
        // its reason): like a refused game, sending it again would not help.
        Err(ApiError::Refused { status, reason }) if (400..500).contains(&status) => {
            PushAnswer::GameRefused { error: reason }
        }
        Err(e) => PushAnswer::Failed {
            reason: e.to_string(),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_documented_answers_are_read() {
        // The shapes of Lichess's API documentation for the push.
        let ok = json!({"games": [{"tags": {"White": "A", "Black": "B"}, "moves": 4}]});
        assert_eq!(answer_of(Ok(ok)), PushAnswer::Accepted { moves: 4 });
        let refused = json!({"games": [{"tags": {"White": "A"}, "error": "Invalid move: Nxe5"}]});
        assert_eq!(
            answer_of(Ok(refused)),
            PushAnswer::GameRefused {
                error: "Invalid move: Nxe5".into()
            }
        );
        assert!(matches!(
            answer_of(Ok(json!({"games": []}))),
            PushAnswer::Failed { .. }
        ));
        assert!(matches!(
            answer_of(Ok(json!(null))),
            PushAnswer::Failed { .. }
        ));
        assert_eq!(
            answer_of(Err(ApiError::Unauthorized)),
            PushAnswer::Unauthorized
        );
        let not_found = ApiError::Refused {
            status: 404,
            reason: "not found".into(),
        };
        assert_eq!(answer_of(Err(not_found)), PushAnswer::NoRound);
        assert!(matches!(
            answer_of(Err(ApiError::Network("cut".into()))),
            PushAnswer::Failed { .. }
        ));
    }

    #[test]
    fn only_a_plain_round_id_makes_a_path() {
        assert_eq!(
            push_path("AbC123xy").as_deref(),
            Some("/api/broadcast/round/AbC123xy/push")
        );
        assert_eq!(push_path("../x"), None);
        assert_eq!(push_path(""), None);
    }
}
