//! `rochade online --voice`: moves and the words of online play said
//! instead of typed. The voice source is the one of `rochade play --voice`
//! ([`super::play_voice`]: the microphone, or `--voice-wav` recordings
//! through the same path), deaf while Rochade speaks. What it heard
//! becomes the line the player would have typed: a move (refused on the
//! opponent's turn, as a typed one is), or `takeback`, `repeat`, `clock`,
//! `resign`, `draw`, `yes`, `no`. With `--voice-confirm` a heard move is
//! asked first ("Springer Felix drei? Ja oder nein") and answered by
//! voice or typed. Typing works beside it all the time.

use std::path::PathBuf;
use std::sync::mpsc::Sender;

use shakmaty::Chess;

use super::{CliResult, OnlineEvent, Run};
use crate::cli::play_voice::{Understood, start_voice, understand};
use crate::session::{Event, Priority};
use crate::voice_input::microphone::{VoiceEvent, VoiceSource};
use crate::words::{Lang, Pack, Utterance};
use rochade_core::voice_input::Command as Said;

/// What the online loop does with what was heard.
pub(super) enum Reply {
    /// Handled as this typed line: a move (UCI) or a word of online play.
    Typed(String),
    /// Said (and printed): not understood, the question, not played.
    Say(Utterance, Priority),
}

/// Voice input in `online`.
pub(super) struct OnlineVoice {
    source: VoiceSource,
    /// Ask before a heard move is sent.
    confirm: bool,
    /// The move asked ("Eva four? Yes or no"), UCI, until answered.
    asked: Option<String>,
}

impl OnlineVoice {
    /// Starts listening (the recordings, else the microphone); its events
    /// reach the loop on `events`, wrapped by `wrap`.
    pub(super) fn start<M: Send + 'static>(
        lang: Lang,
        recordings: &[PathBuf],
        confirm: bool,
        speaking: Box<dyn Fn() -> bool + Send>,
        events: Sender<M>,
        wrap: fn(VoiceEvent) -> M,
    ) -> OnlineVoice {
        OnlineVoice {
            source: start_voice(lang, recordings, speaking, events, wrap),
            confirm,
            asked: None,
        }
    }

    /// What is said is heard in `position`; recordings are said only while
    /// `playing` (a game runs), as a player speaks only then.
    pub(super) fn listen(&self, position: &Chess, playing: bool) {
        self.source.set_position(position);
        self.source.set_awaiting(playing);
    }

    /// What a voice event means online, and the `heard` JSON line of a
    /// recognition. `our_turn`: a move heard now would be sent (a move
    /// heard otherwise is not asked first: it is refused as typed).
    pub(super) fn heard(
        &mut self,
        event: VoiceEvent,
        pack: &Pack,
        our_turn: bool,
    ) -> (Option<serde_json::Value>, Option<Reply>) {
        let (line, understood) = understand(event, pack);
        let reply = match understood {
            // While a move is asked, only yes and no answer it (as in
            // `play`): anything else said is not understood.
            Understood::Move { .. } | Understood::Command(_) if self.asked.is_some() => Some(
                Reply::Say(pack.say("voice_not_understood"), Priority::Answer),
            ),
            Understood::Move { event, words } => {
                let Event::MoveEntered { text, .. } = event else {
                    return (line, None);
                };
                if self.confirm && our_turn {
                    self.asked = Some(text);
                    let question = pack.phrase("voice_confirm_move", &[("move", words)]);
                    Some(Reply::Say(question, Priority::Question))
                } else {
                    Some(Reply::Typed(text))
                }
            }
            Understood::Answer(yes) => Some(match self.asked.take() {
                Some(uci) if yes => Reply::Typed(uci),
                Some(_) => Reply::Say(pack.say("voice_move_dropped"), Priority::Answer),
                // An offer or "Resign? Yes or no": the typed word answers.
                None => Reply::Typed(if yes { "yes" } else { "no" }.into()),
            }),
            Understood::Command(said) => Some(match online_word(said) {
                Some(word) => Reply::Typed(word.into()),
                None => Reply::Say(pack.say("voice_not_online"), Priority::Answer),
            }),
            Understood::Nothing(words) => words.map(|w| Reply::Say(w, Priority::Answer)),
            // Said once; typing goes on.
            Understood::Stopped(words) => words.map(|w| Reply::Say(w, Priority::Alert)),
        };
        (line, reply)
    }

    /// A typed line while a heard move is asked answers it, as in `play`:
    /// yes sends the move, anything else drops it. None when nothing is
    /// asked (the line is handled as always).
    pub(super) fn typed_answer(&mut self, text: &str, pack: &Pack) -> Option<Reply> {
        let uci = self.asked.take()?;
        Some(if crate::cli::play::is_yes(text) {
            Reply::Typed(uci)
        } else {
            Reply::Say(pack.say("voice_move_dropped"), Priority::Answer)
        })
    }
}

/// The word of online play a spoken command stands for (typed.rs in the
/// core reads the English words in every language); none for a hint,
/// which no online game gives.
fn online_word(said: Said) -> Option<&'static str> {
    Some(match said {
        Said::Takeback => "takeback",
        Said::Repeat => "repeat",
        Said::Clock => "clock",
        Said::Resign => "resign",
        Said::Draw => "draw",
        Said::Yes => "yes",
        Said::No => "no",
        Said::Hint => return None,
    })
}

impl Run {
    /// A game runs and is not over.
    pub(super) fn playing(&self) -> bool {
        let game = self.session.online().and_then(|o| o.game());
        game.is_some_and(|g| !g.is_over())
    }

    /// The game has ended (what is typed or said now is answered so).
    pub(super) fn game_over(&self) -> bool {
        let game = self.session.online().and_then(|o| o.game());
        game.is_some_and(|g| g.is_over())
    }

    /// A move made now would be sent: our turn, none of ours on its way.
    fn our_turn(&self) -> bool {
        let game = self.session.online().and_then(|o| o.game());
        game.is_some_and(|g| {
            !g.is_over() && g.pending().is_none() && self.session.record().turn() == g.me
        })
    }

    /// What voice input heard: its `heard` line printed, then handled as
    /// the line the player would have typed, or answered.
    pub(super) fn voice_heard(&mut self, now: u64, event: VoiceEvent) -> CliResult {
        let our_turn = self.our_turn();
        let Some(voice) = &mut self.voice else {
            return Ok(());
        };
        let (line, reply) = voice.heard(event, self.session.pack(), our_turn);
        if let Some(line) = line {
            self.term.out.line(line)?;
        }
        match reply {
            Some(reply) => self.voice_reply(now, reply),
            None => Ok(()),
        }
    }

    /// A reply carried out: typed as the player would have, or said.
    pub(super) fn voice_reply(&mut self, now: u64, reply: Reply) -> CliResult {
        match reply {
            // The end is still being saved: answered as after it.
            Reply::Typed(text) if self.game_over() => self.typed_after_the_end(&text),
            Reply::Typed(text) => self.online(now, OnlineEvent::Typed(text)),
            Reply::Say(words, priority) => self.term.out.say(words, priority),
        }
    }
}
