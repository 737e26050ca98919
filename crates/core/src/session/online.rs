//! Online play inside the session (Lichess's Board API or any server that
//! speaks it): the shell hands in what the server and the network said
//! (`Event::Online`), the session's controller follows the server's game
//! (the server is the truth) and asks for requests, streams and reports
//! (`Effect::Online`). Its words are the session's own speech; the moves
//! the server brings are played with [`Source::Server`]. The watch's
//! deadlines (a silent stream, an unanswered request, a 429 waited out)
//! join [`Session::next_deadline`] and run on every event.

mod play;
mod typed;
mod watch;
mod watch_state;

#[cfg(test)]
mod faults;
#[cfg(test)]
mod own_board_tests;
#[cfg(test)]
mod tests;

pub use play::{OnlinePlay, server_error};
pub use typed::is_online_word;

use shakmaty::Color;

use super::{Effect, Event, Priority, Session, SessionConfig};
use crate::chess::GameRecord;
use crate::clock::TimeControl;
use crate::online::{LeftGame, OnlineEffect, OnlineEvent, Report};
use crate::words::Utterance;

/// What the controller sees of the session while it handles an event:
/// the session itself and the effects gathered so far.
pub(super) struct Bridge<'a> {
    session: &'a mut Session,
    out: &'a mut Vec<Effect>,
}

impl Bridge<'_> {
    pub(super) fn session(&self) -> &Session {
        self.session
    }

    /// The session handles `event` (a move, a command); its effects join
    /// the others.
    pub(super) fn handle(&mut self, now: u64, event: Event) {
        // A nested `handle` starts its own outcome: what it did joins the
        // outer event's (a server move played is the online event's too).
        let outer = std::mem::take(&mut self.session.outcome);
        let handled = self.session.handle(now, event);
        self.session.outcome = outer;
        if handled.outcome != super::Outcome::Nothing {
            self.session.outcome.note(handled.outcome);
        }
        self.out.extend(handled.effects);
    }

    /// The game starts: the session takes `record` (players, site) with
    /// the blind player on `me`'s side, no computer opponent and no local
    /// clock (the server's clocks are the truth).
    pub(super) fn begin(&mut self, now: u64, record: GameRecord, me: Color) {
        let previous = self
            .session
            .game_in_progress()
            .then(|| LeftGame(Box::new(self.session.record().clone())));
        self.session.online_side = Some(me);
        let mut config = self.session.config().clone();
        config.blind_side = me;
        config.time_control = TimeControl::Untimed;
        config.practice.computer = false;
        self.handle(now, Event::ConfigChanged(config));
        self.out
            .push(Effect::Online(OnlineEffect::Started { me, previous }));
        self.replace_game(now, record);
    }

    /// The record changed under the session (moves taken back, the end):
    /// it takes this one, and it is saved.
    pub(super) fn replace_game(&mut self, now: u64, record: GameRecord) {
        self.session.resume_game(now, record);
        self.out.push(Effect::SaveGame);
    }

    /// Words for the player, with the report they belong to.
    pub(super) fn report(&mut self, report: Option<Report>, words: Utterance, priority: Priority) {
        let line = words.written.clone();
        self.out
            .push(Effect::Online(OnlineEffect::Report { report, line }));
        self.session.speak(self.out, words, priority);
    }
}

impl Session {
    /// Online play, while connected.
    pub fn online(&self) -> Option<&OnlinePlay> {
        self.online.as_deref()
    }

    /// [`Event::Online`].
    pub(super) fn online_event(&mut self, now: u64, event: OnlineEvent, out: &mut Vec<Effect>) {
        match event {
            OnlineEvent::Connected(setup) => {
                self.online = Some(Box::new(OnlinePlay::new(*setup)));
                self.online_side = None;
                return;
            }
            OnlineEvent::Disconnected => {
                self.online = None;
                self.online_side = None;
                return;
            }
            _ => {}
        }
        let Some(mut play) = self.online.take() else {
            if let OnlineEvent::Typed(_) = event {
                let words = self.pack.say("online_not_connected_yet");
                self.speak(out, words, Priority::Answer);
            }
            return;
        };
        let mut host = Bridge { session: self, out };
        match event {
            OnlineEvent::Connected(_) | OnlineEvent::Disconnected => {}
            OnlineEvent::Today(date) => play.today = date,
            OnlineEvent::Incoming(line) => {
                play.events_back(&mut host);
                play.incoming(&mut host, *line);
            }
            OnlineEvent::Game(line) => {
                if let Err(e) = play.game_line(&mut host, now, *line) {
                    host.out.push(Effect::Online(OnlineEffect::NotOurGame(e.0)));
                }
            }
            OnlineEvent::Answered {
                call,
                input,
                result,
            } => play.answered(&mut host, now, &call, input.as_deref(), result),
            OnlineEvent::GameDropped { reason, first } => {
                play.stream_dropped(&mut host, &reason, first)
            }
            OnlineEvent::GameBack => play.stream_back(&mut host),
            OnlineEvent::EventsDropped(reason) => play.events_dropped(&mut host, &reason),
            OnlineEvent::EventsBack => play.events_back(&mut host),
            OnlineEvent::Typed(text) => {
                play.input(&mut host, now, &text);
            }
        }
        out.extend(play.take_todo().into_iter().map(Effect::Online));
        self.online = Some(play);
    }

    /// After every event: our move the session took (typed, clicked,
    /// executed on the peg-board) is sent if the server lacks it, and the
    /// watch's deadlines due run.
    pub(super) fn online_after(&mut self, now: u64, out: &mut Vec<Effect>) {
        let Some(mut play) = self.online.take() else {
            return;
        };
        let mut host = Bridge { session: self, out };
        play.after_local(&mut host, None);
        play.tick(&mut host, now);
        out.extend(play.take_todo().into_iter().map(Effect::Online));
        self.online = Some(play);
    }

    /// New settings while an online game runs: the server's game decides
    /// the player's side, that no computer plays, and that no local clock
    /// runs (the server's clocks are the truth).
    pub(super) fn online_config(&self, mut config: SessionConfig) -> SessionConfig {
        if let Some(game) = self.online.as_ref().and_then(|o| o.game()) {
            config.blind_side = game.me;
            config.time_control = TimeControl::Untimed;
            config.practice.computer = false;
        }
        config
    }

    /// Online, the player's own board plays the player's moves only: on
    /// his turn, with no move of his still on its way to the server, and
    /// from a board that showed the game's position (`from_game`) before
    /// the move. The opponent's moves come from the server alone. A move
    /// refused here is said and not played; the board is then guided back
    /// to the game (the mirror starts again from the record).
    pub(super) fn online_refuses_own_board(
        &mut self,
        from_game: bool,
        out: &mut Vec<Effect>,
    ) -> bool {
        let Some(me) = self.online_side else {
            return false;
        };
        if self.record.is_over() {
            return false;
        }
        // Our move still on its way is the record's last: the opponent
        // is to move then too.
        let key = if self.record.turn() != me {
            "online_board_not_your_turn"
        } else if !from_game {
            "online_board_not_game"
        } else {
            return false;
        };
        // Said once while the game stands where it is: a board being set
        // up shows many such moves, one after the other.
        let said = (self.record.moves().len(), key);
        if self.board_refusal_said != Some(said) {
            let words = self.pack.say(key);
            self.speak(out, words, Priority::Alert);
        }
        self.board_refusal_said = Some(said);
        true
    }

    /// When online play's watch has something to do next.
    pub(super) fn online_deadline(&self) -> Option<u64> {
        self.online.as_ref()?.next_deadline(&self.record)
    }
}
