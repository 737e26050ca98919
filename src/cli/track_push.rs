//! `rochade track --push-round ID`: the followed game pushed to a Lichess
//! broadcast round after every move (its whole PGN, with the tags given),
//! on the push thread ([`crate::online::broadcast_push`]), so a move's line
//! never waits for the network. What the server answers is printed as JSON
//! lines (`pushed`, `push_problem` once per kind with its words,
//! `push_recovered`, and at the end `push_done` or `push_behind`).

use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::Duration;

use serde_json::{Value, json};

use super::{CliError, CliResult};
use crate::broadcast::push::{push_behind_words, push_words};
use crate::broadcast::{PushEffect, PushProblem, PushTiming};
use crate::chess::{GameRecord, Tags};
use crate::online::broadcast_push::{PushLink, PushNote, push_path, spawn_push};
use crate::online::{Client, Timing, token};
use crate::words::Pack;

/// The push's waits (ms), from `track`'s (hidden) arguments.
pub(super) struct PushWaits {
    /// First wait after a failure (doubled for each further one).
    pub backoff_ms: u64,
    /// After "too many requests".
    pub rate_limit_ms: u64,
    /// How long the end of `track` waits for the last push (a request's
    /// own timeout fits in it; a failing server is tried again meanwhile).
    pub finish_ms: u64,
}

/// The tags that match the game to its board on the round (Lichess matches
/// pushed games by Event, Round, White and Black).
#[derive(clap::Args, Debug, Clone, Default)]
pub struct GameTags {
    /// The event's name (PGN tag Event): on the broadcast, as the round's
    /// other games have it.
    #[arg(long)]
    pub event: Option<String>,
    /// The round and board as the event numbers them (PGN tag Round, e.g.
    /// `3.1`).
    #[arg(long)]
    pub round_tag: Option<String>,
    /// White's name (PGN tag White).
    #[arg(long)]
    pub white: Option<String>,
    /// Black's name (PGN tag Black).
    #[arg(long)]
    pub black: Option<String>,
}

impl GameTags {
    /// The scoresheet's tags with these given (the rest as they are).
    pub fn apply(&self, tags: &mut Tags) {
        let given = [
            (&mut tags.event, &self.event),
            (&mut tags.round, &self.round_tag),
            (&mut tags.white, &self.white),
            (&mut tags.black, &self.black),
        ];
        for (tag, value) in given {
            if let Some(value) = value.as_deref().map(str::trim).filter(|v| !v.is_empty()) {
                *tag = value.to_owned();
            }
        }
    }
}

/// The push of `track`'s game: the thread's handle, its notes, what was
/// handed to it last.
pub(super) struct TrackPush {
    link: PushLink,
    notes: Receiver<PushNote>,
    /// The game last handed on (its PGN).
    handed: Option<String>,
    /// A cheap look at the game last handed on: its length, last move and
    /// result (a PGN is written only when this changes).
    seen: Option<crate::broadcast::push::GameMark>,
    /// The first game ended (the board set back to the start): the next
    /// game is not pushed, as it would take the finished one's place on
    /// the round.
    stopped: bool,
    /// How long the end waits for the last push.
    finish: Duration,
}

impl TrackPush {
    /// Starts the push to `round` on `server` with the stored token.
    pub(super) fn start(round: &str, server: &str, waits: PushWaits) -> Result<Self, CliError> {
        let path = push_path(round).ok_or_else(|| {
            CliError::input(format!(
                "--push-round {round}: a round's id is its 8 letters and digits \
                 (the end of the round's address)"
            ))
        })?;
        let token = token::load().ok_or_else(|| {
            CliError::input(format!(
                "--push-round needs a Lichess token with the study:write scope: set {} or \
                 store it with `rochade online --set-token`",
                token::TOKEN_ENV
            ))
        })?;
        let push_timing = PushTiming {
            backoff_ms: waits.backoff_ms,
            rate_limit_ms: waits.rate_limit_ms,
            ..PushTiming::default()
        };
        let client = Client::new(server, token, Timing::default());
        let (tx, notes) = channel();
        let link = spawn_push(move || Some(client), path, push_timing, tx, |note| note);
        Ok(TrackPush {
            link,
            notes,
            handed: None,
            seen: None,
            stopped: false,
            finish: Duration::from_millis(waits.finish_ms),
        })
    }

    /// The game after an event: handed on when it changed.
    pub(super) fn record_changed(&mut self, record: &GameRecord) {
        if self.stopped {
            return;
        }
        let seen = crate::broadcast::push::game_mark(record);
        if self.seen.as_ref() == Some(&seen) {
            return;
        }
        self.seen = Some(seen);
        let pgn = rochade_core::pgn::write_pgn(record);
        if self.handed.as_ref() != Some(&pgn) {
            self.handed = Some(pgn.clone());
            self.link.game(pgn);
        }
    }

    /// The first game ended and the next began: no more pushes.
    pub(super) fn new_game(&mut self) {
        self.stopped = true;
    }

    /// The notes come so far, as JSON lines.
    pub(super) fn drain(&mut self, pack: &Pack) -> Vec<Value> {
        std::iter::from_fn(|| self.notes.try_recv().ok())
            .filter_map(|note| note_json(pack, &note))
            .collect()
    }

    /// At the end: the last game pushed (or given up after the wait), the
    /// notes as JSON lines, the last one `push_done` or `push_behind`.
    pub(super) fn finish(self, pack: &Pack) -> Vec<Value> {
        self.link.finish(self.finish);
        // A request hung past the wait is left behind: the end is not held.
        let deadline = std::time::Instant::now() + self.finish + Duration::from_millis(500);
        let mut lines = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(std::time::Instant::now());
            match self.notes.recv_timeout(left) {
                Ok(note) => {
                    let done = matches!(note, PushNote::Finished { .. });
                    lines.extend(note_json(pack, &note));
                    if done {
                        return lines;
                    }
                }
                Err(RecvTimeoutError::Timeout | RecvTimeoutError::Disconnected) => {
                    lines.extend(note_json(pack, &PushNote::Finished { up_to_date: false }));
                    return lines;
                }
            }
        }
    }
}

/// A note as `track`'s JSON line (none for nothing to tell).
fn note_json(pack: &Pack, note: &PushNote) -> Option<Value> {
    Some(match note {
        PushNote::Effect(PushEffect::Pushed { moves }) => {
            json!({"event": "pushed", "moves": moves})
        }
        PushNote::Effect(effect @ PushEffect::Problem(problem)) => {
            let text = push_words(pack, effect)?.written;
            json!({"event": "push_problem", "problem": problem_name(problem), "text": text})
        }
        PushNote::Effect(effect @ PushEffect::Recovered) => {
            json!({"event": "push_recovered", "text": push_words(pack, effect)?.written})
        }
        PushNote::Effect(PushEffect::Send { .. }) => return None,
        PushNote::Finished { up_to_date: true } => json!({"event": "push_done"}),
        PushNote::Finished { up_to_date: false } => {
            json!({"event": "push_behind", "text": push_behind_words(pack).written})
        }
        // `track` loads the token before it starts the thread.
        PushNote::NoToken => return None,
    })
}

fn problem_name(problem: &PushProblem) -> &'static str {
    match problem {
        PushProblem::GameRefused { .. } => "game_refused",
        PushProblem::Unauthorized => "unauthorized",
        PushProblem::RateLimited => "rate_limited",
        PushProblem::NoRound => "no_round",
        PushProblem::Unreachable { .. } => "unreachable",
    }
}

/// Prints `lines` (one JSON object each).
pub(super) fn print_lines(lines: Vec<Value>) -> CliResult {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    for line in lines {
        writeln!(out, "{line}")?;
    }
    out.flush()?;
    Ok(())
}
