//! One runtime for every front end: the window, `rochade track`, `rochade
//! play`, `rochade review` and the engine driver carry out the session's effects here, and
//! only here.
//!
//! A front end says what it can do by implementing [`Shell`]: one method per
//! [`Effect`], with no defaults, so a new effect does not compile until
//! every front end has decided what it means for it (the window speaks it,
//! the terminal prints it, a front end without a board drops a board
//! command *by saying so in its own method*). [`carry_out`] is the only
//! `match` over [`Effect`] in the shell.
//!
//! Saving comes before announcing: the session asks for the save before it
//! announces a move, and when a front end's save is still under way
//! ([`SaveStep::Pending`]) the effects after it are handed back, to be
//! carried out once the save is on disk.

use crate::board::HostCommand;
use crate::session::{Earcon, Effect, Notice, SessionConfig, Speech};
use rochade_core::engine::EngineRequest;
use rochade_core::online::OnlineEffect;

/// How a front end's save went.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SaveStep {
    /// Written (or there is nowhere to write): go on with what follows.
    Done,
    /// Under way on another thread (`ticket` names it): what follows waits
    /// for it.
    Pending { ticket: u64 },
}

/// What a front end does for the session, effect by effect.
pub trait Shell {
    /// A failure that stops the front end (the terminal's closed output).
    type Error;

    fn speak(&mut self, speech: Speech) -> Result<(), Self::Error>;
    fn sound(&mut self, earcon: Earcon) -> Result<(), Self::Error>;
    fn notice(&mut self, notice: Notice) -> Result<(), Self::Error>;
    /// Saves the game as the session holds it now.
    fn save_game(&mut self) -> Result<SaveStep, Self::Error>;
    fn board_command(&mut self, command: HostCommand) -> Result<(), Self::Error>;
    fn sighted_board_command(&mut self, command: HostCommand) -> Result<(), Self::Error>;
    fn ask_engine(&mut self, request: EngineRequest) -> Result<(), Self::Error>;
    fn restart_engine(&mut self) -> Result<(), Self::Error>;
    /// The session changed the settings itself (a practice key): keep
    /// them where the front end keeps its settings.
    fn config_changed(&mut self, config: SessionConfig) -> Result<(), Self::Error>;
    /// Online play asks for a request, a stream, or reports what it said
    /// (its words come as speech too).
    fn online(&mut self, effect: OnlineEffect) -> Result<(), Self::Error>;
}

/// Effects that wait for a save still under way.
#[derive(Debug, PartialEq)]
pub struct Held {
    pub ticket: u64,
    pub effects: Vec<Effect>,
}

/// Carries out `effects` in order. At a save still under way, the rest is
/// returned (a move is never announced before it is on disk).
pub fn carry_out<S: Shell + ?Sized>(
    shell: &mut S,
    effects: impl IntoIterator<Item = Effect>,
) -> Result<Option<Held>, S::Error> {
    let mut effects = effects.into_iter();
    while let Some(effect) = effects.next() {
        match effect {
            Effect::Speak(speech) => shell.speak(speech)?,
            Effect::Sound(earcon) => shell.sound(earcon)?,
            Effect::Notice(notice) => shell.notice(notice)?,
            Effect::SaveGame => match shell.save_game()? {
                SaveStep::Done => {}
                SaveStep::Pending { ticket } => {
                    return Ok(Some(Held {
                        ticket,
                        effects: effects.collect(),
                    }));
                }
            },
            Effect::BoardCommand(command) => shell.board_command(command)?,
            Effect::SightedBoardCommand(command) => shell.sighted_board_command(command)?,
            Effect::AskEngine(request) => shell.ask_engine(request)?,
            Effect::RestartEngine => shell.restart_engine()?,
            Effect::ConfigChanged(config) => shell.config_changed(config)?,
            Effect::Online(effect) => shell.online(effect)?,
        }
    }
    Ok(None)
}

/// A front end lent out is a front end: a wrapper (the engine's, the
/// saving's) takes it by reference or by value alike.
impl<S: Shell + ?Sized> Shell for &mut S {
    type Error = S::Error;

    fn speak(&mut self, speech: Speech) -> Result<(), S::Error> {
        (**self).speak(speech)
    }
    fn sound(&mut self, earcon: Earcon) -> Result<(), S::Error> {
        (**self).sound(earcon)
    }
    fn notice(&mut self, notice: Notice) -> Result<(), S::Error> {
        (**self).notice(notice)
    }
    fn save_game(&mut self) -> Result<SaveStep, S::Error> {
        (**self).save_game()
    }
    fn board_command(&mut self, command: HostCommand) -> Result<(), S::Error> {
        (**self).board_command(command)
    }
    fn sighted_board_command(&mut self, command: HostCommand) -> Result<(), S::Error> {
        (**self).sighted_board_command(command)
    }
    fn ask_engine(&mut self, request: EngineRequest) -> Result<(), S::Error> {
        (**self).ask_engine(request)
    }
    fn restart_engine(&mut self) -> Result<(), S::Error> {
        (**self).restart_engine()
    }
    fn config_changed(&mut self, config: SessionConfig) -> Result<(), S::Error> {
        (**self).config_changed(config)
    }
    fn online(&mut self, effect: OnlineEffect) -> Result<(), S::Error> {
        (**self).online(effect)
    }
}

/// A front end that keeps the effects it is given, in order, for a caller
/// that looks at them itself (tests, the benchmark). Saves count as done.
#[derive(Debug, Default)]
pub struct Collect(pub Vec<Effect>);

impl Shell for Collect {
    type Error = std::convert::Infallible;

    fn speak(&mut self, speech: Speech) -> Result<(), Self::Error> {
        self.0.push(Effect::Speak(speech));
        Ok(())
    }
    fn sound(&mut self, earcon: Earcon) -> Result<(), Self::Error> {
        self.0.push(Effect::Sound(earcon));
        Ok(())
    }
    fn notice(&mut self, notice: Notice) -> Result<(), Self::Error> {
        self.0.push(Effect::Notice(notice));
        Ok(())
    }
    fn save_game(&mut self) -> Result<SaveStep, Self::Error> {
        self.0.push(Effect::SaveGame);
        Ok(SaveStep::Done)
    }
    fn board_command(&mut self, command: HostCommand) -> Result<(), Self::Error> {
        self.0.push(Effect::BoardCommand(command));
        Ok(())
    }
    fn sighted_board_command(&mut self, command: HostCommand) -> Result<(), Self::Error> {
        self.0.push(Effect::SightedBoardCommand(command));
        Ok(())
    }
    fn ask_engine(&mut self, request: EngineRequest) -> Result<(), Self::Error> {
        self.0.push(Effect::AskEngine(request));
        Ok(())
    }
    fn restart_engine(&mut self) -> Result<(), Self::Error> {
        self.0.push(Effect::RestartEngine);
        Ok(())
    }
    fn config_changed(&mut self, config: SessionConfig) -> Result<(), Self::Error> {
        self.0.push(Effect::ConfigChanged(config));
        Ok(())
    }
    fn online(&mut self, effect: OnlineEffect) -> Result<(), Self::Error> {
        // No online play of its own: kept for the caller like the rest.
        self.0.push(Effect::Online(effect));
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::session::Priority;
    use crate::words::{Lang, Utterance};

    fn speech(text: &str) -> Effect {
        Effect::Speak(Speech {
            text: Utterance {
                written: text.into(),
                spoken: text.into(),
            },
            lang: Lang::De,
            priority: Priority::Move,
        })
    }

    /// Saves on another thread: every save is pending.
    struct SlowDisk {
        done: Vec<Effect>,
        tickets: u64,
    }

    impl Shell for SlowDisk {
        type Error = std::convert::Infallible;
        fn speak(&mut self, speech: Speech) -> Result<(), Self::Error> {
            self.done.push(Effect::Speak(speech));
            Ok(())
        }
        fn sound(&mut self, earcon: Earcon) -> Result<(), Self::Error> {
            self.done.push(Effect::Sound(earcon));
            Ok(())
        }
        fn notice(&mut self, notice: Notice) -> Result<(), Self::Error> {
            self.done.push(Effect::Notice(notice));
            Ok(())
        }
        fn save_game(&mut self) -> Result<SaveStep, Self::Error> {
            self.tickets += 1;
            Ok(SaveStep::Pending {
                ticket: self.tickets,
            })
        }
        fn board_command(&mut self, c: HostCommand) -> Result<(), Self::Error> {
            self.done.push(Effect::BoardCommand(c));
            Ok(())
        }
        fn sighted_board_command(&mut self, c: HostCommand) -> Result<(), Self::Error> {
            self.done.push(Effect::SightedBoardCommand(c));
            Ok(())
        }
        fn ask_engine(&mut self, r: EngineRequest) -> Result<(), Self::Error> {
            self.done.push(Effect::AskEngine(r));
            Ok(())
        }
        fn restart_engine(&mut self) -> Result<(), Self::Error> {
            self.done.push(Effect::RestartEngine);
            Ok(())
        }
        fn config_changed(&mut self, config: SessionConfig) -> Result<(), Self::Error> {
            self.done.push(Effect::ConfigChanged(config));
            Ok(())
        }
        fn online(&mut self, effect: OnlineEffect) -> Result<(), Self::Error> {
            self.done.push(Effect::Online(effect));
            Ok(())
        }
    }

    #[test]
    fn what_follows_a_save_under_way_waits_for_it() {
        let mut shell = SlowDisk {
            done: Vec::new(),
            tickets: 0,
        };
        let held = carry_out(
            &mut shell,
            [
                Effect::Sound(Earcon::MoveAccepted),
                Effect::SaveGame,
                speech("Eva vier"),
                Effect::RestartEngine,
            ],
        )
        .unwrap();
        assert_eq!(shell.done, [Effect::Sound(Earcon::MoveAccepted)]);
        assert_eq!(
            held,
            Some(Held {
                ticket: 1,
                effects: vec![speech("Eva vier"), Effect::RestartEngine],
            })
        );
    }

    #[test]
    fn a_save_done_at_once_lets_everything_through_in_order() {
        let mut shell = Collect::default();
        let effects = vec![
            Effect::SaveGame,
            speech("Eva vier"),
            Effect::BoardCommand(HostCommand::Snapshot),
        ];
        let held = carry_out(&mut shell, effects.clone()).unwrap();
        assert_eq!(held, None);
        assert_eq!(shell.0, effects);
    }
}
