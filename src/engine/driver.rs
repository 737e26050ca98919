//! Runs a session against the engine thread outside the GUI: the terminal
//! (`rochade play`), tests and the benchmark. Time is real or virtual; in
//! virtual time the pause before the engine's move passes at once.

use std::time::{Duration, Instant};

use super::EngineService;
use crate::board::HostCommand;
use crate::runtime::{Collect, SaveStep, Shell, carry_out};
use crate::session::{Earcon, Effect, Event, Notice, Outcome, Session, SessionConfig, Speech};
use rochade_core::engine::EngineRequest;
use rochade_core::online::OnlineEffect;

/// How the driver tells time.
#[derive(Clone, Copy, Debug)]
pub enum Time {
    /// Milliseconds since this instant.
    Real(Instant),
    /// A value moved on by the driver only.
    Virtual(u64),
}

/// A session, the engine thread and a clock.
pub struct Driver {
    pub session: Session,
    pub engine: EngineService,
    time: Time,
}

/// The engine thread sent nothing for this long: give up waiting (the
/// thread itself reports a hung engine well before).
const WAIT_LIMIT: Duration = Duration::from_secs(120);

impl Driver {
    pub fn new(session: Session, engine: EngineService, time: Time) -> Driver {
        Driver {
            session,
            engine,
            time,
        }
    }

    pub fn now(&self) -> u64 {
        match self.time {
            Time::Real(start) => start.elapsed().as_millis() as u64,
            Time::Virtual(ms) => ms,
        }
    }

    /// Hands one event to the session and carries out its effects once,
    /// through the one runtime: engine requests go to the engine thread,
    /// every other effect to the front end that `shell` makes from the
    /// session as the event left it (to save it) and the event's outcome.
    /// The front end is returned, to finish what it gathered.
    pub fn handle_with<'s, S: Shell>(
        &'s mut self,
        event: Event,
        shell: impl FnOnce(&'s Session, &Outcome) -> S,
    ) -> Result<S, S::Error> {
        let now = self.now();
        let handled = self.session.handle(now, event);
        let mut shell = shell(&self.session, &handled.outcome);
        let held = carry_out(
            &mut WithEngine {
                engine: &self.engine,
                inner: &mut shell,
            },
            handled,
        )?;
        // The driver's front ends save in place: nothing waits for a save.
        debug_assert!(held.is_none(), "a driver's front end saved later");
        Ok(shell)
    }

    /// As [`Driver::handle_with`], the effects other than engine requests
    /// returned in order (tests and the benchmark look at them).
    pub fn handle(&mut self, event: Event) -> Vec<Effect> {
        let Ok(kept) = self.handle_with(event, |_, _| Collect::default());
        kept.0
    }

    /// Waits until the engine has answered everything asked and a held
    /// move was played, handing each event (the engine's answers, the
    /// tick that plays a held move) to `step`, which hands it to the
    /// session ([`Driver::handle_with`]). False if the engine thread stayed
    /// silent too long.
    pub fn settle_with<E>(
        &mut self,
        mut step: impl FnMut(&mut Driver, Event) -> Result<(), E>,
    ) -> Result<bool, E> {
        while self.session.engine_busy() {
            if let Some(at) = self.session.engine_move_due() {
                self.wait_until(at);
                step(self, Event::Tick)?;
                continue;
            }
            match self.engine.events().recv_timeout(WAIT_LIMIT) {
                Ok(event) => step(self, Event::Engine(event))?,
                Err(_) => return Ok(false),
            }
        }
        // Ready notices and the like that arrived meanwhile.
        while let Ok(event) = self.engine.events().try_recv() {
            step(self, Event::Engine(event))?;
        }
        Ok(true)
    }

    /// As [`Driver::settle_with`], calling `each` with the session and the
    /// effects other than engine requests as they come.
    pub fn settle(&mut self, mut each: impl FnMut(&Session, Vec<Effect>)) -> bool {
        let Ok(done) = self.settle_with(|driver, event| {
            let fx = driver.handle(event);
            each(&driver.session, fx);
            Ok::<(), std::convert::Infallible>(())
        });
        done
    }

    fn wait_until(&mut self, at: u64) {
        match &mut self.time {
            Time::Virtual(ms) => *ms = (*ms).max(at),
            Time::Real(start) => {
                let now = start.elapsed().as_millis() as u64;
                if at > now {
                    std::thread::sleep(Duration::from_millis(at - now));
                }
            }
        }
    }
}

/// A front end of its own wrapped with the engine thread: engine requests
/// go to the engine, everything else to `inner`.
pub struct WithEngine<'a, S: ?Sized> {
    pub engine: &'a EngineService,
    pub inner: &'a mut S,
}

impl<S: Shell + ?Sized> Shell for WithEngine<'_, S> {
    type Error = S::Error;

    fn speak(&mut self, speech: Speech) -> Result<(), S::Error> {
        self.inner.speak(speech)
    }
    fn sound(&mut self, earcon: Earcon) -> Result<(), S::Error> {
        self.inner.sound(earcon)
    }
    fn notice(&mut self, notice: Notice) -> Result<(), S::Error> {
        self.inner.notice(notice)
    }
    fn save_game(&mut self) -> Result<SaveStep, S::Error> {
        self.inner.save_game()
    }
    fn board_command(&mut self, command: HostCommand) -> Result<(), S::Error> {
        self.inner.board_command(command)
    }
    fn sighted_board_command(&mut self, command: HostCommand) -> Result<(), S::Error> {
        self.inner.sighted_board_command(command)
    }
    fn ask_engine(&mut self, request: EngineRequest) -> Result<(), S::Error> {
        self.engine.ask(request);
        Ok(())
    }
    fn restart_engine(&mut self) -> Result<(), S::Error> {
        self.engine.restart();
        Ok(())
    }
    fn config_changed(&mut self, config: SessionConfig) -> Result<(), S::Error> {
        self.inner.config_changed(config)
    }
    fn online(&mut self, _: OnlineEffect) -> Result<(), S::Error> {
        // Practice against the engine has no online play.
        Ok(())
    }
}
