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

use std::collections::VecDeque;

use shakmaty::uci::UciMove;

use super::{Command, Effect, Priority, Session, SessionConfig, Source};
use crate::chess::GameRecord;
use crate::clock::TimeControl;
use crate::online::{EndKind, GameState, LeftGame, OnlineEffect, OnlineEvent, Report};
use crate::words::{Pack, Utterance};

/// What the controller sees of the session (the record and the words,
/// read only) and what it asks the session to do, in order: the session
/// applies [`Step`]s after the controller returns, so the controller never
/// calls back into the session.
pub(super) struct Steps<'a> {
    record: &'a GameRecord,
    pack: &'a Pack,
    steps: Vec<Step>,
}

/// One thing the online controller asks the session to do.
#[derive(Debug)]
pub(super) enum Step {
    /// Words for the player, with the report they belong to.
    Report {
        report: Option<Report>,
        words: Utterance,
        priority: Priority,
    },
    /// The game starts: the session takes `record` (players, site) with
    /// the blind player on `me`'s side, no computer opponent and no local
    /// clock (the server's clocks are the truth).
    Begin { record: GameRecord, me: Color },
    /// The server took moves back: the record keeps its first `keep`
    /// moves (`ours_lost`: the server never had our last one).
    Rewind { keep: usize, ours_lost: bool },
    /// The server's moves the record lacks, played in order (`missed`:
    /// made while the connection was lost, said so first).
    ServerMoves { moves: Vec<UciMove>, missed: bool },
    /// The server's clocks after the last move.
    ServerClocks { white_ms: u64, black_ms: u64 },
    /// The game ended on the server.
    End(EndKind),
    /// The server refused our last move: taken back and said, with
    /// `error` (its report) and `reason`.
    MoveRefused { error: Report, reason: String },
    /// The last announcement said again.
    Repeat,
    /// A move typed by the player: the session plays it, then the
    /// controller sends it with `text` as its input.
    EnterMove(String),
    /// A line typed before the game started, read now that it has.
    Input(String),
    /// The whole game of a stream (opened anew: `missed`), read once the
    /// steps before it are applied (the game it starts is the record).
    Reconcile { state: Box<GameState>, missed: bool },
}

impl<'a> Steps<'a> {
    fn new(record: &'a GameRecord, pack: &'a Pack) -> Steps<'a> {
        Steps {
            record,
            pack,
            steps: Vec::new(),
        }
    }

    /// The game as the session has it when the controller was called.
    pub(super) fn record(&self) -> &'a GameRecord {
        self.record
    }

    /// The session's words.
    pub(super) fn pack(&self) -> &'a Pack {
        self.pack
    }

    /// Asks the session for `step`, after the ones asked before.
    pub(super) fn then(&mut self, step: Step) {
        self.steps.push(step);
    }

    /// Words for the player, with the report they belong to.
    pub(super) fn report(&mut self, report: Option<Report>, words: Utterance, priority: Priority) {
        self.then(Step::Report {
            report,
            words,
            priority,
        });
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
        if self.online.is_none() {
            if let OnlineEvent::Typed(_) = event {
                let words = self.pack.say("online_not_connected_yet");
                self.speak(out, words, Priority::Answer);
            }
            return;
        }
        self.online_steps(now, out, |play, steps| match event {
            OnlineEvent::Connected(_) | OnlineEvent::Disconnected => {}
            OnlineEvent::Today(date) => play.today = date,
            OnlineEvent::Incoming(line) => {
                play.events_back(steps);
                play.incoming(steps, *line);
            }
            OnlineEvent::Game(line) => {
                if let Err(e) = play.game_line(steps, now, *line) {
                    play.todo.push(OnlineEffect::NotOurGame(e.0));
                }
            }
            OnlineEvent::Answered {
                call,
                input,
                result,
            } => play.answered(steps, now, &call, input.as_deref(), result),
            OnlineEvent::GameDropped { reason, first } => {
                play.stream_dropped(steps, &reason, first)
            }
            OnlineEvent::GameBack => play.stream_back(steps),
            OnlineEvent::EventsDropped(reason) => play.events_dropped(steps, &reason),
            OnlineEvent::EventsBack => play.events_back(steps),
            OnlineEvent::Typed(text) => {
                play.input(steps, now, &text);
            }
        });
    }

    /// After every event: our move the session took (typed, clicked,
    /// executed on the peg-board) is sent if the server lacks it, and the
    /// watch's deadlines due run.
    pub(super) fn online_after(&mut self, now: u64, out: &mut Vec<Effect>) {
        self.online_steps(now, out, |play, steps| {
            play.after_local(steps, None);
            play.tick(steps, now);
        });
    }

    /// Runs `call` on the online controller with the session's record and
    /// words, then applies the steps it asked for, in order; what it asks
    /// the shell to do follows them.
    fn online_steps(
        &mut self,
        now: u64,
        out: &mut Vec<Effect>,
        call: impl FnOnce(&mut OnlinePlay, &mut Steps<'_>),
    ) {
        let asked = self.controller_steps(call);
        let mut queue: VecDeque<Step> = asked.into();
        while let Some(step) = queue.pop_front() {
            // A step may call the controller again (a line typed, the
            // whole game read): what that asks comes before the rest.
            let more = self.apply_step(now, step, out);
            for step in more.into_iter().rev() {
                queue.push_front(step);
            }
        }
        if let Some(play) = self.online.as_deref_mut() {
            out.extend(play.take_todo().into_iter().map(Effect::Online));
        }
    }

    /// The steps `call` asks for, nothing applied yet.
    fn controller_steps(
        &mut self,
        call: impl FnOnce(&mut OnlinePlay, &mut Steps<'_>),
    ) -> Vec<Step> {
        let Some(play) = self.online.as_deref_mut() else {
            return Vec::new();
        };
        let mut steps = Steps::new(&self.record, &self.pack);
        call(play, &mut steps);
        steps.steps
    }

    /// Carries out one step of online play; returns the steps the
    /// controller asked for when the step called it again.
    fn apply_step(&mut self, now: u64, step: Step, out: &mut Vec<Effect>) -> Vec<Step> {
        match step {
            Step::Report {
                report,
                words,
                priority,
            } => self.online_report(report, words, priority, out),
            Step::Begin { record, me } => self.begin_online_game(now, record, me, out),
            Step::Rewind { keep, ours_lost } => {
                let mut record = self.record.clone();
                let n = record.moves().len().saturating_sub(keep);
                let taken = record.takeback(n);
                self.replace_online_game(now, record, out);
                let what = taken
                    .first()
                    .map(|m| Utterance::from(m.san_string()))
                    .unwrap_or_default();
                let words = if ours_lost {
                    self.pack.phrase("online_game_moved_on", &[("move", what)])
                } else {
                    self.pack.phrase("takeback", &[("move", what)])
                };
                let report = Report::Takeback {
                    count: n,
                    ours_lost,
                };
                self.online_report(Some(report), words, Priority::Alert, out);
            }
            Step::ServerMoves { moves, missed } => {
                if missed {
                    let words = self.pack.say("online_while_lost");
                    let report = Report::CaughtUp { count: moves.len() };
                    self.online_report(Some(report), words, Priority::Move, out);
                }
                for uci in moves {
                    let Ok(mv) = uci.to_move(self.record.position()) else {
                        // Unreachable after the controller checked the
                        // server's list whole; never a panic all the same.
                        let reason = format!("the server's move {uci} is not legal here");
                        let (report, words) = play::server_error_report(&self.pack, reason);
                        self.online_report(Some(report), words, Priority::Alert, out);
                        break;
                    };
                    self.play(now, mv, Source::Server, out);
                }
            }
            Step::ServerClocks { white_ms, black_ms } => {
                self.server_clocks(white_ms, black_ms, out)
            }
            Step::End(kind) => {
                // The own board is no longer the online game's.
                self.online_side = None;
                let mut record = self.record.clone();
                play::end_record(&mut record, kind);
                let result = record.result_str().to_owned();
                let words = match record.end() {
                    Some(end) => crate::announce::announce_result(&self.pack, &end),
                    None => self.pack.say("online_aborted"),
                };
                self.replace_online_game(now, record, out);
                let report = Report::End {
                    result,
                    reason: kind.reason(),
                };
                self.online_report(Some(report), words, Priority::Alert, out);
            }
            Step::MoveRefused { error, reason } => {
                let mut record = self.record.clone();
                let taken = record.takeback(1);
                self.replace_online_game(now, record, out);
                let what = taken
                    .first()
                    .map(|m| Utterance::from(m.san_string()))
                    .unwrap_or_default();
                let words = self.pack.phrase(
                    "online_move_refused",
                    &[("move", what), ("reason", Utterance::from(reason))],
                );
                self.online_report(Some(error), words, Priority::Alert, out);
            }
            Step::Repeat => self.command(now, Command::Repeat, out),
            Step::EnterMove(text) => {
                self.enter_move(now, &text, Source::Keyboard, out);
                return self.controller_steps(|play, steps| play.after_local(steps, Some(&text)));
            }
            Step::Input(text) => {
                return self.controller_steps(|play, steps| {
                    play.input(steps, now, &text);
                });
            }
            Step::Reconcile { state, missed } => {
                return self.controller_steps(|play, steps| {
                    play.reconcile_full(steps, now, &state, missed)
                });
            }
        }
        Vec::new()
    }

    /// Words for the player, with the report they belong to.
    fn online_report(
        &self,
        report: Option<Report>,
        words: Utterance,
        priority: Priority,
        out: &mut Vec<Effect>,
    ) {
        let line = words.written.clone();
        out.push(Effect::Online(OnlineEffect::Report { report, line }));
        self.speak(out, words, priority);
    }

    /// [`Step::Begin`].
    fn begin_online_game(
        &mut self,
        now: u64,
        record: GameRecord,
        me: Color,
        out: &mut Vec<Effect>,
    ) {
        let previous = self
            .game_in_progress()
            .then(|| LeftGame(Box::new(self.record.clone())));
        self.online_side = Some(me);
        let mut config = self.config.clone();
        config.blind_side = me;
        config.time_control = TimeControl::Untimed;
        config.practice.computer = false;
        self.set_config(config);
        self.sync_opponent(now);
        out.push(Effect::Online(OnlineEffect::Started { me, previous }));
        self.replace_online_game(now, record, out);
    }

    /// The record changed under the session (moves taken back, the end):
    /// it takes this one, and it is saved.
    fn replace_online_game(&mut self, now: u64, record: GameRecord, out: &mut Vec<Effect>) {
        self.resume_game(now, record);
        out.push(Effect::SaveGame);
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
