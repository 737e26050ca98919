//! Voice input in the window: the microphone (or recordings, in tests)
//! through the same voice source as `rochade play --voice`
//! ([`crate::voice_input::microphone`]), open only while the setting is
//! on. What is heard is handled as the same text typed into the move
//! input would be; a spoken command is the action of its key; with
//! "confirm spoken moves" on, a heard move is asked first, in a dialog as
//! the session's questions are, and answered by saying yes or no or with
//! their keys (Enter or Y, Escape) and buttons. Push-to-talk listens while Ctrl+Space is held: no
//! screen reader takes it (Orca, NVDA and JAWS use Insert or Caps Lock
//! with it), and the window used no Ctrl+Space.

use std::path::PathBuf;
use std::sync::mpsc::{self, Receiver};

use egui::Key;
use rochade_core::voice_input::Command as Said;
use rochade_core::voice_input::utterance::Mode;

use super::RochadeApp;
use super::dialogs::Asked;
use super::keys::Action;
use crate::cli::play_voice::{Understood, understand};
use crate::config::VoiceInputMode;
use crate::session::{Event, Priority};
use crate::voice_input::microphone::{Feed, VoiceEvent, VoiceSource};
use crate::words::{Lang, Utterance};

/// The voice source while voice input is on.
pub(super) struct Listening {
    source: VoiceSource,
    events: Receiver<VoiceEvent>,
    /// What it was started with (a change in Settings starts it anew).
    mode: VoiceInputMode,
    lang: Lang,
    /// It said why it cannot work (once); typing goes on.
    stopped: bool,
    /// Ctrl+Space is held (push-to-talk).
    talking: bool,
    /// A heard move waiting for yes or no (UCI), with confirm on, and the
    /// question's words.
    asked: Option<(String, Utterance)>,
    /// Recordings played to their end (tests holding the push-to-talk
    /// key let go after one).
    played: usize,
}

/// Recordings played instead of the microphone (tests; a user checking
/// voice input with a recording): WAV files, 16 kHz mono, separated by
/// the system's path separator.
pub const RECORDINGS_VARIABLE: &str = "ROCHADE_VOICE_WAV";

/// The recordings [`RECORDINGS_VARIABLE`] names, if any.
pub fn recordings_from_env() -> Vec<PathBuf> {
    std::env::var_os(RECORDINGS_VARIABLE)
        .map(|v| std::env::split_paths(&v).collect())
        .unwrap_or_default()
}

impl RochadeApp {
    /// Opens or closes the microphone as the settings say (at start, and
    /// after Save in Settings).
    pub(super) fn sync_voice_input(&mut self) {
        let mode = self.settings.speech.voice_input;
        let lang = self.settings.speech.language;
        let unchanged = self
            .voice
            .input
            .as_ref()
            .is_some_and(|l| l.mode == mode && l.lang == lang);
        if unchanged {
            return;
        }
        // Dropping the source stops its thread and closes the microphone.
        self.voice.input = None;
        let cutting = match mode {
            VoiceInputMode::Off => return,
            VoiceInputMode::PushToTalk => Mode::PushToTalk,
            VoiceInputMode::Continuous => Mode::Continuous,
        };
        let feed = if self.voice.recordings.is_empty() {
            Feed::Microphone
        } else {
            Feed::Recordings(self.voice.recordings.clone())
        };
        let speech = self.voice.speech.clone();
        // Each event wakes the window, which may be asleep until the
        // next clock second.
        let (heard_tx, heard_rx) = mpsc::channel::<VoiceEvent>();
        let (events_tx, events) = mpsc::channel();
        let wake = self.wake.clone();
        let forwarded = std::thread::Builder::new()
            .name("rochade-voice-wake".into())
            .spawn(move || {
                for event in heard_rx {
                    if events_tx.send(event).is_err() {
                        return;
                    }
                    if let Some(ctx) = wake.get() {
                        ctx.request_repaint();
                    }
                }
            });
        if let Err(e) = forwarded {
            eprintln!("rochade: voice input: no thread: {e}");
        }
        let source = VoiceSource::start(
            lang,
            cutting,
            feed,
            Box::new(move || speech.busy()),
            heard_tx,
            |event| event,
        );
        self.voice.input = Some(Listening {
            source,
            events,
            mode,
            lang,
            stopped: false,
            talking: false,
            asked: None,
            played: 0,
        });
        let key = match mode {
            VoiceInputMode::PushToTalk => "voice_on_hold_key",
            _ => "voice_on",
        };
        self.say_key(key, Priority::Answer);
    }

    /// Called every frame: the push-to-talk key taken out of the input,
    /// the position given to the source, what it heard carried out.
    pub(super) fn poll_voice_input(&mut self, ctx: &egui::Context) {
        let Some(listening) = &mut self.voice.input else {
            return;
        };
        if listening.mode == VoiceInputMode::PushToTalk {
            for down in take_talk_key(ctx, &mut listening.talking) {
                listening.source.key(down);
            }
        }
        listening
            .source
            .set_position(self.session.record().position());
        listening.source.set_awaiting(!listening.stopped);
        let heard: Vec<VoiceEvent> = listening.events.try_iter().collect();
        for event in heard {
            self.on_voice_event(event);
        }
    }

    /// How many recordings ([`RECORDINGS_VARIABLE`]) voice input has
    /// played to their end since it was turned on.
    pub fn voice_recordings_played(&self) -> usize {
        self.voice.input.as_ref().map_or(0, |l| l.played)
    }

    fn on_voice_event(&mut self, event: VoiceEvent) {
        if let VoiceEvent::Played = event {
            if let Some(l) = &mut self.voice.input {
                l.played += 1;
            }
            return;
        }
        let (_, understood) = understand(event, self.session.pack());
        match understood {
            Understood::Move { event, words } => {
                let Event::MoveEntered { text, .. } = event else {
                    return;
                };
                if self.settings.speech.confirm_spoken_moves {
                    let question = self
                        .session
                        .pack()
                        .phrase("voice_confirm_move", &[("move", words)]);
                    self.ask_spoken_move(text, question);
                } else {
                    self.play_heard(text);
                }
            }
            Understood::Answer(yes) => {
                if self.dialog_question() || self.session.pending().is_some() {
                    // The question shown (the session's, take back, resign,
                    // new game; else the spoken move) answered as its
                    // dialog's Y or Escape would.
                    self.act(if yes { Action::Confirm } else { Action::Cancel })
                } else {
                    self.say_key("voice_nothing_to_answer", Priority::Answer)
                }
            }
            Understood::Command(said) => self.act(said_action(said)),
            Understood::Nothing(words) => {
                if let Some(words) = words {
                    self.say(words, Priority::Answer);
                }
            }
            Understood::Stopped(words) => {
                if let Some(l) = &mut self.voice.input {
                    l.stopped = true;
                }
                // Said once, and shown in the banner; typing goes on.
                if let Some(words) = words {
                    self.window.note = Some(words.written.clone());
                    self.say(words, Priority::Alert);
                }
            }
        }
    }

    /// Asks whether to play the heard move (`text`, UCI) in a dialog that
    /// takes the keyboard, as the session's questions do (a question
    /// asked before it is replaced).
    fn ask_spoken_move(&mut self, text: String, question: Utterance) {
        if self.voice.input.is_none() {
            return;
        }
        if self.spoken_move_question().is_none() {
            self.panels.dialogs.focus_before_question = self.focus_now();
        }
        if let Some(listening) = &mut self.voice.input {
            listening.asked = Some((text, question.clone()));
        }
        self.say(question.clone(), Priority::Question);
        // The dialog takes the keyboard and the screen reader says its
        // question then: not said twice.
        self.screen_reader.pending.forget(&question.spoken);
        self.panels.dialogs.question_takes_focus = true;
    }

    /// The spoken move asked, while it waits for its answer.
    pub(super) fn spoken_move_question(&self) -> Option<&Utterance> {
        let listening = self.voice.input.as_ref()?;
        listening.asked.as_ref().map(|(_, question)| question)
    }

    /// The question a dialog shows: the session's (the screen-reader
    /// offer is none), else the spoken move asked.
    pub(super) fn shown_question(&self) -> Option<Asked> {
        match self.session.pending().filter(|_| !self.offer_open()) {
            Some(pending) => Some(Asked::from(pending)),
            None => self.spoken_move_question().map(|question| Asked {
                text: question.spoken.clone(),
                resume: false,
            }),
        }
    }

    /// Yes (play it) or no ("Not played") to the spoken move asked, from
    /// its dialog's keys or buttons or said; the keyboard goes back where
    /// it was. False when it is not the question shown (the session's
    /// comes first).
    pub(super) fn answer_spoken_move(&mut self, yes: bool) -> bool {
        if self.session.pending().is_some() && !self.offer_open() {
            return false;
        }
        let asked = self.voice.input.as_mut().and_then(|l| l.asked.take());
        let Some((text, _)) = asked else {
            return false;
        };
        self.panels.focus_request = Some(self.panels.dialogs.focus_before_question);
        self.panels.move_input.typed_under_question = false;
        if yes {
            self.play_heard(text);
        } else {
            self.say_key("voice_move_dropped", Priority::Answer);
        }
        true
    }

    /// A heard move played as the same text typed and played with Enter
    /// (online, under a question): what is typed in the move input stays.
    fn play_heard(&mut self, text: String) {
        // Anything else heard before is moot now.
        if let Some(l) = &mut self.voice.input {
            l.asked = None;
        }
        let typed = std::mem::take(&mut self.panels.move_input.text);
        self.play_typed_text(text);
        self.panels.move_input.text = typed;
    }
}

/// The key's action a spoken command stands for (resigning and taking
/// back are asked first, as with the keys).
fn said_action(said: Said) -> Action {
    match said {
        Said::Takeback => Action::Takeback,
        Said::Repeat => Action::Repeat,
        Said::Hint => Action::Hint,
        Said::Clock => Action::Clock,
        Said::Resign => Action::Resign,
        Said::Draw => Action::OfferDraw,
        Said::Yes => Action::Confirm,
        Said::No => Action::Cancel,
    }
}

/// Ctrl+Space pressed (true) and Space let go after it (false), taken out
/// of this frame's input; `talking` says whether it is held.
fn take_talk_key(ctx: &egui::Context, talking: &mut bool) -> Vec<bool> {
    let mut changes = Vec::new();
    ctx.input_mut(|i| {
        i.events.retain(|e| {
            let egui::Event::Key {
                key: Key::Space,
                pressed,
                repeat,
                modifiers,
                ..
            } = e
            else {
                return true;
            };
            let ctrl = modifiers.command || modifiers.ctrl;
            match (*pressed, *talking) {
                (true, false) if ctrl && !modifiers.alt && !modifiers.shift => {
                    *talking = true;
                    changes.push(true);
                    false
                }
                // Held: the key repeats.
                (true, true) => !*repeat && !ctrl,
                // Let go, with Ctrl still down or already up.
                (false, true) => {
                    *talking = false;
                    changes.push(false);
                    false
                }
                _ => true,
            }
        });
    });
    changes
}
