//! `rochade play --voice`: moves and commands said instead of typed. The
//! voice source (microphone, or `--voice-wav` recordings through the same
//! path) listens continuously, deaf while Rochade speaks; what it heard
//! becomes the event a typed line would have been. Typing works beside it
//! all the time.

use std::path::PathBuf;
use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender};
use std::time::Duration;

use shakmaty::uci::UciMove;

use super::CliError;
use crate::announce::{AnnounceForm, announce_move};
use crate::engine::driver::Driver;
use crate::session::{Command, Event, Source};
use crate::voice_input::microphone::{Feed, Unavailable, VoiceEvent, VoiceSource};
use crate::words::{Lang, Pack, Utterance};
use rochade_core::voice_input::utterance::Mode;
use rochade_core::voice_input::{Command as Said, Heard};

/// Voice input on the command line (`play`, `online`).
#[derive(clap::Args, Debug, Default)]
pub struct VoiceArgs {
    /// Say your moves and commands into the microphone (German or
    /// English; typing works as well). Needs pocketsphinx.
    #[arg(long)]
    pub voice: bool,
    /// With --voice: a heard move is asked first ("Springer Felix drei?
    /// Yes or no"), answered by voice or typed.
    #[arg(long)]
    pub voice_confirm: bool,
    /// With --voice: these recordings (16 kHz WAV) instead of the
    /// microphone, said one after the other when it is your turn (tests).
    #[arg(long, value_name = "FILE", hide = true)]
    pub voice_wav: Vec<PathBuf>,
}

impl VoiceArgs {
    /// Voice input is asked for (either option, or recordings).
    pub fn wanted(&self) -> bool {
        self.voice || self.voice_confirm || !self.voice_wav.is_empty()
    }
}

/// The voice source of a terminal command (`play`, `puzzle`, `online`):
/// the `--voice-wav` recordings if any, else the microphone, listening
/// continuously (a terminal sees no key held down); deaf while
/// `speaking`. Its events go to `events`, wrapped by `wrap`.
pub(super) fn start_voice<M: Send + 'static>(
    lang: Lang,
    recordings: &[PathBuf],
    speaking: Box<dyn Fn() -> bool + Send>,
    events: Sender<M>,
    wrap: fn(VoiceEvent) -> M,
) -> VoiceSource {
    let feed = if recordings.is_empty() {
        Feed::Microphone
    } else {
        Feed::Recordings(recordings.to_vec())
    };
    VoiceSource::start(lang, Mode::Continuous, feed, speaking, events, wrap)
}

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
pub(crate) enum Understood {
    /// A move, and its words for the question "Springer f3? Yes or no".
    Move { event: Event, words: Utterance },
    /// Yes or no.
    Answer(bool),
    /// A spoken command other than yes and no (each front end knows
    /// what it does there).
    Command(Said),
    /// Nothing to do but say these words (not understood, too slow).
    Nothing(Option<Utterance>),
    /// Voice input has stopped (unavailable, said in these words; or the
    /// recordings have all been played).
    Stopped(Option<Utterance>),
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
        let (line, understood) = understand(event, driver.session.pack());
        if let (true, Some(line)) = (json, line) {
            println!("{line}");
        }
        match understood {
            Understood::Stopped(words) => {
                if let Some(v) = &mut self.voice {
                    v.ended = true;
                }
                Understood::Nothing(words)
            }
            other => other,
        }
    }

    /// Whether heard moves are asked first.
    pub(super) fn confirm(&self) -> bool {
        self.voice.as_ref().is_some_and(|v| v.confirm)
    }
}

/// What a voice event means, in `pack`'s words, and the JSON line of a
/// recognition (as `rochade listen` prints it).
pub(crate) fn understand(
    event: VoiceEvent,
    pack: &Pack,
) -> (Option<serde_json::Value>, Understood) {
    match event {
        VoiceEvent::Heard {
            recognition,
            position,
        } => {
            let line = super::listen::as_json(&position, &recognition);
            let understood = match recognition.heard {
                None => Understood::Nothing(Some(pack.say("voice_not_understood"))),
                Some(Heard::Move(mv)) => Understood::Move {
                    event: Event::MoveEntered {
                        text: UciMove::from_standard(mv).to_string(),
                        source: Source::Keyboard,
                    },
                    words: announce_move(pack, &position, mv, AnnounceForm::Short),
                },
                Some(Heard::Command(Said::Yes)) => Understood::Answer(true),
                Some(Heard::Command(Said::No)) => Understood::Answer(false),
                Some(Heard::Command(said)) => Understood::Command(said),
            };
            (Some(line), understood)
        }
        VoiceEvent::TooSlow => (None, Understood::Nothing(Some(pack.say("voice_too_slow")))),
        VoiceEvent::Unavailable(why) => (
            None,
            Understood::Stopped(Some(unavailable_words(pack, &why))),
        ),
        VoiceEvent::Ended => (None, Understood::Stopped(None)),
        // Only a test holding the push-to-talk key waits for this.
        VoiceEvent::Played => (None, Understood::Nothing(None)),
    }
}

/// The session command a spoken command stands for (as the typed words
/// do: resigning is asked first).
pub(super) fn play_command(said: Said) -> Command {
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
pub(crate) fn unavailable_words(pack: &Pack, why: &Unavailable) -> Utterance {
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
