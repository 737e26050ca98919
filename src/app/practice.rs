//! Practice against an engine in the app: the engine thread is started on
//! the session's first request, its answers go back to the session each
//! frame.

use std::path::PathBuf;
use std::time::Duration;

use super::RochadeApp;
use crate::engine::{DEFAULT_ENGINE_PATH, EngineRequest, EngineService};
use crate::session::Event;

impl RochadeApp {
    fn engine_service(&mut self) -> &EngineService {
        self.engine
            .get_or_insert_with(|| EngineService::spawn(PathBuf::from(DEFAULT_ENGINE_PATH)))
    }

    pub(super) fn ask_engine(&mut self, request: EngineRequest) {
        self.engine_service().ask(request);
    }

    pub(super) fn restart_engine(&mut self) {
        self.engine_service().restart();
    }

    /// Hands the engine's answers to the session.
    pub(super) fn poll_engine(&mut self) {
        let Some(engine) = &self.engine else { return };
        let events: Vec<_> = engine.events().try_iter().collect();
        for event in events {
            self.dispatch(Event::Engine(event));
        }
    }

    /// While the engine thinks, frames keep coming so its answer is heard.
    pub(super) fn engine_repaint(&self) -> Option<Duration> {
        self.session
            .engine_busy()
            .then_some(Duration::from_millis(50))
    }
}
