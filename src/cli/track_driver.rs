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
use crate::session::{Earcon, Event, Notice, Session, SessionConfig, Speech};

pub(super) struct Driver {
    pub(super) session: Session,
    pub(super) pgn: Option<super::output::PgnFile>,
    pub(super) link: Option<Link>,
    /// The player's own e-board when it is reached over Bluetooth LE.
    pub(super) ble: Option<crate::ble::BleLink>,
    /// The sighted player's e-board, if one is followed too.
    pub(super) sighted: Option<Link>,
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
        let effects = self.session.handle(now, event);
        let mut out = TrackOut {
            driver: self,
            now,
            stdout: std::io::stdout().lock(),
        };
        // Saving is done in place, so nothing is ever held back.
        carry_out(&mut out, effects)?;
        out.stdout.flush()?;
        Ok(())
    }
}

/// `rochade track`'s side of the runtime: one JSON line per notice, the PGN
/// file, the board links. It has no voice, no sound and no engine.
struct TrackOut<'a> {
    driver: &'a mut Driver,
    now: u64,
    stdout: std::io::StdoutLock<'static>,
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
        let link = self.driver.link.as_ref();
        if let Notice::Move { ply, .. } = notice {
            // The same `move` event as every command prints.
            let session = &self.driver.session;
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
        let Some(pgn) = &self.driver.pgn else {
            return Ok(SaveStep::Done);
        };
        // A full disk or a pulled stick stops the file, never the game.
        let record = self.driver.session.record();
        if let Some(event) = pgn.write(record, "the board is still followed") {
            writeln!(self.stdout, "{event}")?;
        }
        Ok(SaveStep::Done)
    }
    fn board_command(&mut self, command: HostCommand) -> CliResult {
        if let Some(link) = &self.driver.link {
            link.send(command);
        } else if let Some(link) = &self.driver.ble {
            link.send(command);
        }
        Ok(())
    }
    fn sighted_board_command(&mut self, command: HostCommand) -> CliResult {
        if let Some(link) = &self.driver.sighted {
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

    fn next_deadline(&self) -> Option<u64> {
        self.session.next_deadline()
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
}
