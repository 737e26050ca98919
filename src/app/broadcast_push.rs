//! The window's push of the game to a Lichess broadcast round (Settings,
//! "Broadcast round (push my game)": a round's id or address): after every
//! move the game's whole PGN with its tags goes to the round on the push
//! thread ([`crate::online::broadcast_push`]), never delaying an
//! announcement; the server's trouble is said once and shown in the
//! connection panel. As in `rochade track --push-round`, only the game under
//! way when the round was given is pushed: a new game stops the push (it
//! would take the finished game's place on the round) until the round is
//! given again.

use std::sync::mpsc::Receiver;

use crate::broadcast::push::{push_behind_words, push_words};
use crate::broadcast::{PushEffect, PushTiming};
use crate::online::broadcast::round_id_from;
use crate::online::broadcast_push::{PushLink, PushNote, push_path, spawn_push};
use crate::online::{Client, Timing, token};
use crate::session::Priority;

use super::RochadeApp;

/// The push under way: the round, the thread's handle and notes, what was
/// handed on last, and the status line the connection panel shows.
pub(super) struct AppPush {
    /// The round's id (as given in the settings, read out of an address).
    round: String,
    link: PushLink,
    notes: Receiver<PushNote>,
    /// The game last handed on: its length, last move and result.
    seen: Option<crate::broadcast::push::GameMark>,
    /// The game had moves: a game with none after it is a new game.
    had_moves: bool,
    /// A new game began: nothing more is pushed.
    stopped: bool,
    /// The panel's line: how the push stands, in the interface's words.
    pub status: String,
}

impl AppPush {
    pub(super) fn round(&self) -> &str {
        &self.round
    }
}

impl RochadeApp {
    /// Every frame: the push started, restarted or ended as the setting
    /// asks, the game handed on when it changed, the thread's notes said.
    pub(super) fn poll_broadcast_push(&mut self) {
        let wanted = round_id_from(&self.settings.game.broadcast_round);
        let current = self.links.broadcast.as_ref().map(|p| p.round.clone());
        if wanted != current {
            self.links.broadcast = wanted.map(|round| self.start_push(round));
        }
        let record = self.session.record();
        let moves = record.moves().len();
        let seen = crate::broadcast::push::game_mark(record);
        let pgn = || crate::pgn::write_pgn(record);
        let mut said = Vec::new();
        if let Some(push) = self.links.broadcast.as_mut() {
            if push.had_moves && moves == 0 && !push.stopped {
                push.stopped = true;
                said.push(self.session.pack().say("broadcast_push_stopped"));
                push.status = self.window.ui.get("broadcast_push_stopped");
            }
            push.had_moves |= moves > 0;
            // A game without moves is never pushed: opened on another day
            // with the round still set, it would blank the finished game.
            if !push.stopped && moves > 0 && push.seen.as_ref() != Some(&seen) {
                push.seen = Some(seen);
                push.link.game(pgn());
            }
            while let Ok(note) = push.notes.try_recv() {
                let pack = self.session.pack();
                let (words, status) = match &note {
                    PushNote::Effect(PushEffect::Pushed { moves }) => (
                        None,
                        self.window
                            .ui
                            .get("broadcast_pushed")
                            .replace("{n}", &moves.to_string()),
                    ),
                    PushNote::Effect(effect) => {
                        let words = push_words(pack, effect);
                        let status = words
                            .as_ref()
                            .map(|w| w.written.clone())
                            .unwrap_or_default();
                        (words, status)
                    }
                    PushNote::NoToken => {
                        let words = pack.say("broadcast_push_no_token");
                        let status = words.written.clone();
                        (Some(words), status)
                    }
                    PushNote::Finished { .. } => {
                        let words = push_behind_words(pack);
                        (None, words.written)
                    }
                };
                said.extend(words);
                if !status.is_empty() {
                    push.status = status;
                }
            }
        }
        for words in said {
            self.say(words, Priority::Info);
        }
    }

    /// Starts pushing to `round` (the token is looked up on the thread).
    fn start_push(&mut self, round: String) -> AppPush {
        let path = push_path(&round).unwrap_or_default();
        let server = self.settings.online.server.trim().to_owned();
        let make_client = move || token::load().map(|t| Client::new(&server, t, Timing::default()));
        let (tx, notes) = std::sync::mpsc::channel();
        let notes = match self.wake.get().cloned() {
            Some(ctx) => super::waking::forward_waking("broadcast-push-notes", notes, move || {
                ctx.request_repaint()
            })
            .unwrap_or_else(|_| std::sync::mpsc::channel().1),
            None => notes,
        };
        let link = spawn_push(make_client, path, PushTiming::default(), tx, |note| note);
        let status = self
            .window
            .ui
            .get("broadcast_pushing")
            .replace("{round}", &round);
        AppPush {
            round,
            link,
            notes,
            seen: None,
            had_moves: false,
            stopped: false,
            status,
        }
    }
}

/// The connection panel's line about the push, if one is set.
pub(super) fn push_line(push: Option<&AppPush>) -> Option<String> {
    push.map(|p| format!("{}: {}", p.round(), p.status))
}
