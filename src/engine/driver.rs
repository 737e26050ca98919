//! Runs a session against the engine thread outside the GUI: the terminal
//! (`rochade play`), tests and the benchmark. Time is real or virtual; in
//! virtual time the pause before the engine's move passes at once.

use std::time::{Duration, Instant};

use super::EngineService;
use crate::runtime::{Collect, Held, Shell, WithEngine, carry_out};
use crate::session::{Effect, Event, Session};

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

    /// Hands one event to the session; engine requests go to the engine
    /// thread, every other effect to `shell` (through the one runtime).
    pub fn handle_with<S: Shell>(
        &mut self,
        event: Event,
        shell: &mut S,
    ) -> Result<Option<Held>, S::Error> {
        let now = self.now();
        let effects = self.session.handle(now, event);
        carry_out(
            &mut WithEngine {
                engine: &self.engine,
                inner: shell,
            },
            effects,
        )
    }

    /// As [`Driver::handle_with`], the effects other than engine requests
    /// returned in order (tests and the benchmark look at them).
    pub fn handle(&mut self, event: Event) -> Vec<Effect> {
        let mut kept = Collect::default();
        let Ok(_) = self.handle_with(event, &mut kept);
        kept.0
    }

    /// Waits until the engine has answered everything asked and a held
    /// move was played, calling `each` with the effects as they come.
    /// Returns false if the engine thread stayed silent too long.
    pub fn settle(&mut self, mut each: impl FnMut(&Session, Vec<Effect>)) -> bool {
        while self.session.engine_busy() {
            if let Some(at) = self.session.engine_move_due() {
                self.wait_until(at);
                let fx = self.handle(Event::Tick);
                each(&self.session, fx);
                continue;
            }
            match self.engine.events().recv_timeout(WAIT_LIMIT) {
                Ok(event) => {
                    let fx = self.handle(Event::Engine(event));
                    each(&self.session, fx);
                }
                Err(_) => return false,
            }
        }
        // Ready notices and the like that arrived meanwhile.
        while let Ok(event) = self.engine.events().try_recv() {
            let fx = self.handle(Event::Engine(event));
            each(&self.session, fx);
        }
        true
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
