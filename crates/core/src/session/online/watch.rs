//! The controller's own deadlines, so that no game waits for ever: a
//! game stream that brings nothing while the opponent is to move, a move
//! whose request gets no answer, a move waiting out "too many requests"
//! (429), a server gone for long. Time is passed in (the shell's clock,
//! virtual in the tests); its deadlines join the session's
//! ([`crate::session::Session::next_deadline`]), and every event, an
//! `Event::Tick` at that time among them, runs [`OnlinePlay::tick`].
//!
//! Reading the game again is always safe: the stream opened anew sends
//! the whole game first, and [`OnlinePlay::apply`] reconciles the record
//! with it (moves the record lacks played and announced, our move that
//! the server lacks sent again only if its request failed). So a stall
//! cannot outlive three keep-alive periods, whatever was lost on the way;
//! while the opponent thinks long (rereads that bring nothing new) the
//! wait doubles up to two minutes, so the rereads never draw a "too many
//! requests" from the server.

use super::Steps;
use super::play::{OnlinePlay, say_connection_lost};
use crate::chess::GameRecord;
use crate::online::{ApiError, OnlineEffect, Report, Request, path_id};
use crate::session::Priority;
use crate::words::Utterance;

impl OnlinePlay {
    /// A game that runs and waits for the server: the opponent is to move
    /// on the record (our move may still be on its way).
    fn waiting_for_server(&self, record: &GameRecord) -> bool {
        let Some(game) = &self.game else {
            return false;
        };
        !game.is_over() && !record.is_over() && record.turn() != game.me
    }

    /// When [`OnlinePlay::tick`] has something to do next, if ever.
    pub(super) fn next_deadline(&self, record: &GameRecord) -> Option<u64> {
        let w = &self.watch;
        // While the stream is down its own thread reconnects.
        let silence =
            (!self.down && self.waiting_for_server(record)).then(|| w.heard_at + w.silence());
        let request = w.move_sent_at.map(|t| t + w.waits.request_ms);
        let gone = w
            .down_since
            .filter(|_| !w.gone_said)
            .map(|t| t + w.waits.gone_ms);
        let down_start = (self.down && w.down_since.is_none()).then_some(w.now);
        [silence, request, w.resend_at, gone, down_start]
            .into_iter()
            .flatten()
            .min()
    }

    /// The deadlines due at `now`.
    pub(super) fn tick(&mut self, steps: &mut Steps<'_>, now: u64) {
        self.watch.now = now;
        if self.game.as_ref().is_none_or(|g| g.is_over()) {
            return;
        }
        if self.down && self.watch.down_since.is_none() {
            self.watch.down_since = Some(now);
        }
        if self.watch.resend_at.is_some_and(|t| t <= now) {
            self.watch.resend_at = None;
            let pending = self.game.as_ref().and_then(|g| g.pending().copied());
            if let Some(uci) = pending {
                self.send(Request::Move(uci), None);
            }
        }
        let unanswered = self
            .watch
            .move_sent_at
            .is_some_and(|t| t + self.watch.waits.request_ms <= now);
        let silent = !self.down
            && self.waiting_for_server(steps.record())
            && self.watch.heard_at + self.watch.silence() <= now;
        if unanswered || silent {
            if silent && self.watch.reread_for_silence {
                // The last reread brought no line at all (the stream
                // opened anew is slow to answer): nothing new either.
                self.watch.reread(false);
            }
            // Read the game again: its whole state settles whatever was
            // lost (the answer, a state, the stream itself).
            self.watch.move_sent_at = None;
            self.read_again(now);
            self.watch.reread_for_silence = silent && !unanswered;
        }
        let gone = self
            .watch
            .down_since
            .is_some_and(|t| t + self.watch.waits.gone_ms <= now);
        if gone && !self.watch.gone_said {
            self.watch.gone_said = true;
            let seconds = (now - self.watch.down_since.unwrap_or(now)) / 1000;
            let words = steps.pack().phrase(
                "online_server_gone",
                &[("seconds", Utterance::from(seconds.to_string()))],
            );
            let report = Report::ServerGone { seconds };
            steps.report(Some(report), words, Priority::Alert);
        }
    }

    /// The game's stream opened anew; what it brings is reconciled.
    pub(super) fn read_again(&mut self, now: u64) {
        if let Some(game) = &self.game {
            self.watch.heard_at = now;
            self.watch.catching_up = true;
            self.todo.push(OnlineEffect::Resync(path_id(&game.id)));
        }
    }

    /// A line of the game's stream arrived at `now`: the connection
    /// lives. Only the game itself (`gameFull`, `gameState`) also resets
    /// the silence watch ([`OnlinePlay::heard_game`]): a server that sends
    /// chat lines, or lines of a kind this version does not know, while
    /// it withholds the opponent's move must still be read again.
    pub(super) fn heard(&mut self, now: u64) {
        self.watch.now = now;
        self.watch.down_since = None;
        self.watch.gone_said = false;
        self.watch.missing_said = false;
    }

    /// A state of the game arrived at `now` (see [`OnlinePlay::heard`]).
    pub(super) fn heard_game(&mut self, now: u64) {
        self.heard(now);
        self.watch.heard_at = now;
    }

    /// "Too many requests" on our move: it stays on the record and is sent
    /// again after the wait, said so.
    pub(super) fn rate_limited_move(&mut self, steps: &mut Steps<'_>, now: u64, error: Report) {
        let wait = self.watch.waits.rate_limit_ms;
        self.watch.resend_at = Some(now + wait);
        let what = steps
            .record()
            .last_move()
            .map(|m| Utterance::from(m.san_string()))
            .unwrap_or_default();
        let words = steps.pack().phrase(
            "online_rate_limited_move",
            &[
                ("move", what),
                ("seconds", Utterance::from(wait.div_ceil(1000).to_string())),
            ],
        );
        steps.report(Some(error), words, Priority::Alert);
    }

    /// The game's stream answered 404: the server does not have the game
    /// (restarted without it). Said once an outage, with the way out;
    /// the stream keeps looking for it.
    pub(super) fn game_missing(&mut self, steps: &mut Steps<'_>) {
        self.down = true;
        if std::mem::replace(&mut self.watch.missing_said, true) {
            return;
        }
        let words = steps.pack().say("online_game_missing");
        steps.report(Some(Report::GameMissing), words, Priority::Alert);
    }

    /// The events stream (games starting, challenges) dropped: said while
    /// no game runs (the game's own stream speaks during a game).
    pub(super) fn events_dropped(&mut self, steps: &mut Steps<'_>, reason: &ApiError) {
        if self.game.is_some() || std::mem::replace(&mut self.watch.events_down, true) {
            return;
        }
        say_connection_lost(steps, reason);
    }

    /// The events stream is back (or brought a line).
    pub(super) fn events_back(&mut self, steps: &mut Steps<'_>) {
        if !std::mem::take(&mut self.watch.events_down) || self.game.is_some() {
            return;
        }
        let words = steps.pack().say("online_connection_back");
        steps.report(Some(Report::ConnectionBack), words, Priority::Alert);
    }
}
