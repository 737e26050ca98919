//! `rochade track`'s driver: the session, the PGN file and the board
//! links, and its side of the runtime (one JSON line per notice). Shared by
//! the peg-board path ([`super::track`]) and the e-board path
//! ([`super::track_eboard`]).

use std::io::Write;

use super::follow::{Follow, print_json};
use super::{CliError, CliResult};
use crate::board::HostCommand;
use crate::engine::EngineRequest;
use crate::runtime::{SaveStep, Shell, carry_out};
use crate::serial::Link;
use crate::session::board::BoardEvent;
use crate::session::{Earcon, Effect, Event, Notice, Session, SessionConfig, Speech};

pub(super) struct Driver {
    pub(super) session: Session,
    /// The `--pgn` file, saved on its own thread: a move's line is
    /// printed once the move is on disk.
    pub(super) pgn: Option<super::pgn_saving::PgnSaving>,
    pub(super) link: Option<Link>,
    /// The player's own e-board when it is reached over Bluetooth LE.
    pub(super) ble: Option<crate::ble::BleLink>,
    /// The sighted player's e-board, if one is followed too.
    pub(super) sighted: Option<Link>,
    /// The game pushed to a broadcast round (`--push-round`).
    pub(super) push: Option<super::track_push::TrackPush>,
}

impl Driver {
    /// Keeps a live link: the board's, or the sighted player's e-board's.
    pub(super) fn attach_link(&mut self, link: Link, sighted: bool) {
        if sighted {
            self.sighted = Some(link);
        } else {
            self.link = Some(link);
        }
    }

    pub(super) fn handle(&mut self, now: u64, event: Event) -> CliResult {
        // The game as it stood: when the event starts the next game, the
        // finished one stays in the --pgn file.
        let before = self
            .pgn
            .as_ref()
            .filter(|_| !self.session.record().moves().is_empty())
            .map(|_| self.session.record().clone());
        let had_moves = !self.session.record().moves().is_empty();
        let effects = self.session.handle(now, event);
        let new_game = effects.effects.contains(&Effect::Notice(Notice::NewGame));
        if let (Some(pgn), Some(before)) = (&self.pgn, before)
            && new_game
        {
            pgn.game_finished(&before);
        }
        let mut pgn = self.pgn.take();
        let mut out = self.out(now);
        let carried = match &mut pgn {
            Some(pgn) => carry_out(&mut pgn.shell(self.session.record(), &mut out), effects),
            None => carry_out(&mut out, effects),
        };
        let flushed = out.stdout.flush();
        drop(out);
        self.pgn = pgn;
        carried?;
        flushed?;
        if let Some(push) = &mut self.push {
            if new_game && had_moves {
                push.new_game();
            }
            push.record_changed(self.session.record());
        }
        self.print_push_notes()
    }

    /// Prints what the broadcast push has told since last looked.
    fn print_push_notes(&mut self) -> CliResult {
        match &mut self.push {
            Some(push) => super::track_push::print_lines(push.drain(self.session.pack())),
            None => Ok(()),
        }
    }

    /// The front end for effects carried out at `now`.
    fn out(&self, now: u64) -> TrackOut<'_> {
        TrackOut {
            session: &self.session,
            link: self.link.as_ref(),
            ble: self.ble.as_ref(),
            sighted: self.sighted.as_ref(),
            now,
            stdout: std::io::stdout().lock(),
        }
    }

    /// Prints what waited for saves now on disk (and what the saves tell).
    pub(super) fn release_saved(&mut self, now: u64) -> CliResult {
        self.print_push_notes()?;
        let Some(mut pgn) = self.pgn.take() else {
            return Ok(());
        };
        let mut out = self.out(now);
        let released = pgn.release(&mut out, TrackOut::event);
        let flushed = out.stdout.flush();
        drop(out);
        self.pgn = Some(pgn);
        released?;
        Ok(flushed?)
    }

    /// At the end: every save waited for, everything printed; an error
    /// when the file lacks moves (said, with where the game is kept).
    pub(super) fn finish_saving(&mut self, now: u64) -> CliResult {
        if let Some(push) = self.push.take() {
            let lines = push.finish(self.session.pack());
            super::track_push::print_lines(lines)?;
        }
        let Some(mut pgn) = self.pgn.take() else {
            return Ok(());
        };
        let mut out = self.out(now);
        let finished = pgn.finish(self.session.record(), &mut out, TrackOut::event);
        out.stdout.flush()?;
        finished
    }
}

/// `rochade track`'s side of the runtime: one JSON line per notice, the
/// board links. It has no voice, no sound and no engine; the PGN file is
/// saved in front of it ([`super::pgn_saving`]).
struct TrackOut<'a> {
    session: &'a Session,
    link: Option<&'a Link>,
    ble: Option<&'a crate::ble::BleLink>,
    sighted: Option<&'a Link>,
    now: u64,
    stdout: std::io::StdoutLock<'static>,
}

impl TrackOut<'_> {
    /// A JSON line of the saving (`pgn_failed`, `save_slow`, ...).
    fn event(&mut self, value: serde_json::Value) -> CliResult {
        print_json(&mut self.stdout, self.link, self.now, &value)
    }
}

impl Shell for TrackOut<'_> {
    type Error = CliError;

    fn speak(&mut self, _: Speech) -> CliResult {
        // The notices carry the words; `track` prints, it does not speak.
        Ok(())
    }
    fn sound(&mut self, _: Earcon) -> CliResult {
        Ok(())
    }
    fn notice(&mut self, notice: Notice) -> CliResult {
        let link = self.link;
        if let Notice::Move { ply, .. } = notice {
            // The same `move` event as every command prints.
            let session = self.session;
            let first = shakmaty::Position::turn(session.record().start_position());
            let mover = super::output::mover_of_ply(ply, first);
            let by = super::output::MoveBy::of(mover, session.config().blind_side);
            if let Some(event) = super::output::move_event(&notice, by) {
                return print_json(&mut self.stdout, link, self.now, &event);
            }
        }
        print_json(&mut self.stdout, link, self.now, &notice)
    }
    fn save_game(&mut self) -> Result<SaveStep, CliError> {
        // Without `--pgn` there is nothing to save (with it, the saving
        // in front of this front end takes the save).
        Ok(SaveStep::Done)
    }
    fn board_command(&mut self, command: HostCommand) -> CliResult {
        if let Some(link) = self.link {
            link.send(command);
        } else if let Some(link) = self.ble {
            link.send(command);
        }
        Ok(())
    }
    fn sighted_board_command(&mut self, command: HostCommand) -> CliResult {
        if let Some(link) = self.sighted {
            link.send(command);
        }
        Ok(())
    }
    fn ask_engine(&mut self, _: EngineRequest) -> CliResult {
        // No opponent is set in `track`, so the session asks for none.
        Ok(())
    }
    fn restart_engine(&mut self) -> CliResult {
        Ok(())
    }
    fn config_changed(&mut self, _: SessionConfig) -> CliResult {
        // `track` sends no practice keys; its settings are its arguments.
        Ok(())
    }
    fn online(&mut self, _: rochade_core::online::OnlineEffect) -> CliResult {
        // `track` has no online play.
        Ok(())
    }
}

impl Follow for Driver {
    type Message = crate::board::PegMessage;

    fn session(&self) -> &Session {
        &self.session
    }

    fn tick(&mut self, now: u64) -> CliResult {
        self.handle(now, Event::Tick)
    }

    fn input(&mut self, now: u64, event: BoardEvent) -> CliResult {
        self.handle(now, Event::Board(event))
    }

    fn sighted_input(&mut self, now: u64, event: BoardEvent<crate::eboard::Message>) -> CliResult {
        self.handle(now, Event::Sighted(event))
    }

    fn attach(&mut self, link: Link, sighted: bool) {
        self.attach_link(link, sighted);
    }

    fn saving(&self) -> bool {
        self.pgn.as_ref().is_some_and(|p| p.busy())
    }

    fn release_saved(&mut self, now: u64) -> CliResult {
        Driver::release_saved(self, now)
    }

    fn finish_saving(&mut self, now: u64) -> CliResult {
        Driver::finish_saving(self, now)
    }
}
