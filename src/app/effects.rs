//! The window's side of the runtime ([`crate::runtime`]): what each of the
//! session's effects means in the app.

use std::convert::Infallible;

use super::RochadeApp;
use crate::board::HostCommand;
use crate::engine::EngineRequest;
use crate::runtime::{SaveStep, Shell};
use crate::session::board::BoardEvent;
use crate::session::{Earcon, Effect, Event, Notice, Speech};

impl Shell for RochadeApp {
    type Error = Infallible;

    fn speak(&mut self, speech: Speech) -> Result<(), Infallible> {
        self.say(speech.text, speech.priority);
        Ok(())
    }

    fn sound(&mut self, earcon: Earcon) -> Result<(), Infallible> {
        if let Some(audio) = &self.voice.audio
            && self.settings.earcons.enabled(earcon)
        {
            audio.play_earcon(earcon, &crate::audio::EarconSettings::default());
        }
        Ok(())
    }

    fn notice(&mut self, notice: Notice) -> Result<(), Infallible> {
        // Every event, the tracker's decisions included, goes into the
        // board log as well.
        if let Some(link) = self.links.boards.mine()
            && let Ok(line) = serde_json::to_string(&notice)
        {
            link.note(self.links.time.now_ms(), &line);
        }
        self.on_notice(notice);
        Ok(())
    }

    fn save_game(&mut self) -> Result<SaveStep, Infallible> {
        Ok(match self.queue_save() {
            Some(ticket) => SaveStep::Pending { ticket },
            // No saving thread (tests without storage): nothing to wait for.
            None => SaveStep::Done,
        })
    }

    fn board_command(&mut self, command: HostCommand) -> Result<(), Infallible> {
        // The player's own board, whichever its kind.
        if let Some(link) = self.links.boards.mine() {
            link.send(command);
        }
        if let Some(sim) = &mut self.panels.sim {
            let messages = sim.answer(command);
            for m in messages {
                let now = self.links.time.now_ms();
                let fx = self
                    .session
                    .handle(now, Event::Board(BoardEvent::Message(m)));
                // Answers to a snapshot request do not ask again.
                self.apply_effects(
                    fx.into_iter()
                        .filter(|e| !matches!(e, Effect::BoardCommand(_)))
                        .collect::<Vec<_>>(),
                );
            }
        }
        Ok(())
    }

    fn sighted_board_command(&mut self, command: HostCommand) -> Result<(), Infallible> {
        if let Some(link) = self.links.boards.opponent() {
            link.send(command);
        }
        Ok(())
    }

    fn ask_engine(&mut self, request: EngineRequest) -> Result<(), Infallible> {
        RochadeApp::ask_engine(self, request);
        Ok(())
    }

    fn restart_engine(&mut self) -> Result<(), Infallible> {
        RochadeApp::restart_engine(self);
        Ok(())
    }
    fn config_changed(&mut self, config: crate::session::SessionConfig) -> Result<(), Infallible> {
        self.keep_config(&config);
        Ok(())
    }
    fn online(&mut self, effect: rochade_core::online::OnlineEffect) -> Result<(), Infallible> {
        self.online_effect(effect);
        Ok(())
    }
}
