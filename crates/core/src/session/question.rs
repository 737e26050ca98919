//! The one confirmation mechanism: a question the session waits on.
//!
//! A command that needs confirmation (takeback, resignation, a new game
//! over an unfinished one, closing mid-game, resuming a saved game) speaks
//! its question and leaves it pending; [`Command::Confirm`] carries it out,
//! [`Command::Cancel`] drops it. The shell shows [`Session::pending`] as a
//! dialog and sends the answer; it keeps no question of its own.

use serde::Serialize;
use shakmaty::Color;

use super::{Command, Effect, Notice, Priority, Session};
use crate::chess::GameRecord;
use crate::words::Utterance;

/// What the session asks to be confirmed.
#[derive(Clone, Debug)]
pub enum Question {
    /// Take back the last move.
    Takeback,
    /// This side resigns.
    Resign(Color),
    /// Start a new game although one is in progress.
    NewGame,
    /// Continue this unfinished game from the save file.
    Resume(Box<GameRecord>),
    /// Close the app although a game is in progress; the shell closes on
    /// [`Notice::Answered`] with `confirmed`.
    Close,
    /// A screen reader runs: let it speak instead of the app's own voice?
    /// The shell switches the speech mode on [`Notice::Answered`].
    ScreenReaderMode,
    /// Go back to this many moves (the arbiter's retrace, E.7, E.8).
    Retrace(usize),
}

/// A [`Question`] without its data, for notices and logs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum QuestionKind {
    Takeback,
    Resign,
    NewGame,
    Resume,
    Close,
    ScreenReaderMode,
    Retrace,
}

impl Question {
    pub fn kind(&self) -> QuestionKind {
        match self {
            Question::Takeback => QuestionKind::Takeback,
            Question::Resign(_) => QuestionKind::Resign,
            Question::NewGame => QuestionKind::NewGame,
            Question::Resume(_) => QuestionKind::Resume,
            Question::Close => QuestionKind::Close,
            Question::ScreenReaderMode => QuestionKind::ScreenReaderMode,
            Question::Retrace(_) => QuestionKind::Retrace,
        }
    }
}

/// The question waiting for an answer and the words that asked it.
#[derive(Clone, Debug)]
pub struct Pending {
    pub question: Question,
    pub text: Utterance,
}

impl Session {
    /// The question waiting for [`Command::Confirm`] or [`Command::Cancel`].
    pub fn pending(&self) -> Option<&Pending> {
        self.pending.as_ref()
    }

    /// A game that has moves and no result: closing or a new game asks first.
    pub fn game_in_progress(&self) -> bool {
        !self.record.moves().is_empty() && !self.record.is_over()
    }

    /// Offers to continue a saved game (the shell found it at start-up);
    /// confirming resumes it, cancelling keeps the new game.
    pub fn offer_resume(&mut self, record: GameRecord) -> Vec<Effect> {
        let mut out = Vec::new();
        if !record.moves().is_empty() && !record.is_over() {
            let text = self.pack.say("resume_offer");
            self.ask(Question::Resume(Box::new(record)), text, &mut out);
        }
        out
    }

    /// Offers to hand speech to the screen reader the shell found running
    /// (asked only when no other question waits: the shell offers again
    /// later).
    pub fn offer_screen_reader_mode(&mut self) -> Vec<Effect> {
        let mut out = Vec::new();
        if self.pending.is_none() {
            let text = self.pack.say("screen_reader_offer");
            self.ask(Question::ScreenReaderMode, text, &mut out);
        }
        out
    }

    /// Speaks the question and makes it the pending one.
    pub(super) fn ask(&mut self, question: Question, text: Utterance, out: &mut Vec<Effect>) {
        self.speak(out, text.clone(), Priority::Question);
        self.outcome.note(super::Outcome::Asked {
            question: question.kind(),
        });
        out.push(Effect::Notice(Notice::Asked {
            question: question.kind(),
        }));
        self.pending = Some(Pending { question, text });
    }

    /// The side to move resigns, once confirmed.
    pub(super) fn ask_resign(&mut self, out: &mut Vec<Effect>) {
        let side = self.record.turn();
        let text = self
            .pack
            .phrase("resign_confirm", &[("side", self.side(side))]);
        self.ask(Question::Resign(side), text, out);
    }

    /// A new game: at once when none is in progress, otherwise asked first.
    pub(super) fn ask_new_game(&mut self, now: u64, out: &mut Vec<Effect>) {
        if self.game_in_progress() {
            let text = self.pack.say("new_game_confirm");
            self.ask(Question::NewGame, text, out);
        } else {
            self.command(now, Command::NewGame, out);
        }
    }

    /// The shell wants to close: asked while a game is in progress (once),
    /// otherwise answered yes at once.
    pub(super) fn ask_close(&mut self, out: &mut Vec<Effect>) {
        if self
            .pending
            .as_ref()
            .is_some_and(|p| matches!(p.question, Question::Close))
        {
            return;
        }
        if self.game_in_progress() {
            let text = self.pack.say("close_confirm");
            self.ask(Question::Close, text, out);
        } else {
            out.push(Effect::Notice(Notice::Answered {
                question: QuestionKind::Close,
                confirmed: true,
            }));
        }
    }

    /// Carries out or drops the pending question.
    pub(super) fn answer(&mut self, now: u64, confirmed: bool, out: &mut Vec<Effect>) {
        let Some(pending) = self.pending.take() else {
            return;
        };
        let question = pending.question.kind();
        if !confirmed {
            let words = match question {
                QuestionKind::ScreenReaderMode => "screen_reader_declined",
                _ => "cancelled",
            };
            self.speak(out, self.pack.say(words), Priority::Answer);
            out.push(Effect::Notice(Notice::Answered {
                question,
                confirmed,
            }));
            return;
        }
        out.push(Effect::Notice(Notice::Answered {
            question,
            confirmed,
        }));
        match pending.question {
            Question::Takeback => self.take_back(now, out),
            Question::Retrace(ply) => self.retrace(now, ply, out),
            Question::Resign(side) => self.command(now, Command::Resign(side), out),
            Question::NewGame => self.command(now, Command::NewGame, out),
            Question::Close => {}
            // Said after the notice, so the shell has switched the mode and
            // the screen reader says it.
            Question::ScreenReaderMode => {
                self.speak(
                    out,
                    self.pack.say("screen_reader_mode_on"),
                    Priority::Answer,
                );
            }
            Question::Resume(record) => {
                self.resume_game(now, *record);
                self.speak(out, self.pack.say("game_resumed"), Priority::Answer);
                if self.clock.is_paused() {
                    // The arbiter (or the player) restarts it: say so.
                    self.speak(out, self.pack.say("clock_paused"), Priority::Answer);
                }
                match self.last_announcement.clone() {
                    Some(text) => self.speak(
                        out,
                        self.pack.phrase("last_move", &[("move", text)]),
                        Priority::Answer,
                    ),
                    None => self.command(now, Command::LastMove, out),
                }
            }
        }
    }
}
