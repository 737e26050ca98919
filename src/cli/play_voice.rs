//! `rochade play --voice`: moves and commands said instead of typed. The
//! voice source (microphone, or `--voice-wav` recordings through the same
//! path) listens continuously, deaf while Rochade speaks; what it heard
//! becomes the event a typed line would have been. Typing works beside it
//! all the time.

use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::time::Duration;

use shakmaty::uci::UciMove;

use super::CliError;
use crate::announce::{AnnounceForm, announce_move};
use crate::engine::driver::Driver;
use crate::session::{Command, Event, Source};
use crate::voice_input::microphone::{Unavailable, VoiceEvent, VoiceSource};
use crate::words::{Pack, Utterance};
use rochade_core::voice_input::{Command as Said, Heard};

/// What reaches the game loop: a typed line (`None`: the end of typed
/// input) or something the voice source heard.
pub(super) enum Input {
    Typed(Option<String>),
    Voice(VoiceEvent),
}

/// The next thing to act on.
pub(super) enum Next {
    Line(String),
    Voice(VoiceEvent),
    /// Typing has ended, and voice input too (or it is off).
    End,
}

/// What a voice event means to the game loop.
pub(super) enum Understood {
    /// A command, to be handled as typed.
    Event(Event),
    /// A move, and its words for the question "Springer f3? Yes or no".
    Move { event: Event, words: Utterance },
    /// Yes or no.
    Answer(bool),
    /// Nothing to do: what was needed is said (not understood, too slow,
    /// voice input unavailable).
    Nothing(Option<Utterance>),
}

/// Voice input in `play`.
pub(super) struct PlayVoice {
    pub source: VoiceSource,
    /// Ask before a heard move is played.
    pub confirm: bool,
    /// The recordings are all played, or voice input cannot work.
    pub ended: bool,
}

/// Typed lines and voice events, in the order they come.
pub(super) struct Inputs {
    pub rx: Receiver<Input>,
    pub typed_ended: bool,
    pub voice: Option<PlayVoice>,
}

impl Inputs {
    fn all_ended(&self) -> bool {
        self.typed_ended && self.voice.as_ref().is_none_or(|v| v.ended)
    }

    /// Waits for the next line or voice event, calling `meanwhile` every
    /// `wait` (to print what waited for saves). Voice input hears in
    /// `position` and knows it is the player's time to speak.
    pub(super) fn next(
        &mut self,
        position: &shakmaty::Chess,
        wait: Duration,
        mut meanwhile: impl FnMut() -> Result<(), CliError>,
    ) -> Result<Next, CliError> {
        if let Some(v) = &self.voice {
            v.source.set_position(position);
            v.source.set_awaiting(true);
        }
        let next = loop {
            if self.all_ended() {
                break Next::End;
            }
            meanwhile()?;
            match self.rx.recv_timeout(wait) {
                Ok(Input::Typed(Some(line))) => break Next::Line(line),
                Ok(Input::Typed(None)) => self.typed_ended = true,
                Ok(Input::Voice(VoiceEvent::Ended)) => {
                    if let Some(v) = &mut self.voice {
                        v.ended = true;
                    }
                }
                Ok(Input::Voice(event)) => break Next::Voice(event),
                Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => break Next::End,
            }
        };
        if let Some(v) = &self.voice {
            v.source.set_awaiting(false);
        }
        Ok(next)
    }

    /// What `event` means; prints the `heard` JSON line with `--json`.
    pub(super) fn understand(
        &mut self,
        event: VoiceEvent,
        driver: &Driver,
        json: bool,
    ) -> Understood {
        let pack = driver.session.pack();
        match event {
            VoiceEvent::Heard {
                recognition,
                position,
            } => {
                if json {
                    println!("{}", super::listen::as_json(&position, &recognition));
                }
                match recognition.heard {
                    None => Understood::Nothing(Some(pack.say("voice_not_understood"))),
                    Some(Heard::Move(mv)) => Understood::Move {
                        event: Event::MoveEntered {
                            text: UciMove::from_standard(mv).to_string(),
                            source: Source::Keyboard,
                        },
                        words: announce_move(pack, &position, mv, AnnounceForm::Short),
                    },
                    Some(Heard::Command(said)) => match said {
                        Said::Yes => Understood::Answer(true),
                        Said::No => Understood::Answer(false),
                        other => Understood::Event(Event::Command(command(other))),
                    },
                }
            }
            VoiceEvent::TooSlow => Understood::Nothing(Some(pack.say("voice_too_slow"))),
            VoiceEvent::Unavailable(why) => {
                if let Some(v) = &mut self.voice {
                    v.ended = true;
                }
                Understood::Nothing(Some(unavailable_words(pack, &why)))
            }
            VoiceEvent::Ended => {
                if let Some(v) = &mut self.voice {
                    v.ended = true;
                }
                Understood::Nothing(None)
            }
        }
    }

    /// Whether heard moves are asked first.
    pub(super) fn confirm(&self) -> bool {
        self.voice.as_ref().is_some_and(|v| v.confirm)
    }
}

/// The session command a spoken command stands for (as the typed words
/// do: resigning is asked first).
fn command(said: Said) -> Command {
    match said {
        Said::Takeback => Command::Takeback,
        Said::Repeat => Command::Repeat,
        Said::Hint => Command::Hint,
        Said::Clock => Command::ClockReading,
        Said::Resign => Command::AskResign,
        Said::Draw => Command::OfferDrawAfterMove,
        // Answers are handled before; outside a question they ask nothing.
        Said::Yes => Command::Confirm,
        Said::No => Command::Cancel,
    }
}

/// Why voice input stopped, in the pack's words.
pub(super) fn unavailable_words(pack: &Pack, why: &Unavailable) -> Utterance {
    match why {
        Unavailable::NotInstalled(_) => pack.say("voice_not_installed"),
        Unavailable::Language(_) => pack.say("voice_no_language"),
        Unavailable::Failed(reason) => {
            let reason = Utterance {
                written: reason.clone(),
                spoken: reason.clone(),
            };
            pack.phrase("voice_failed", &[("reason", reason)])
        }
    }
}
