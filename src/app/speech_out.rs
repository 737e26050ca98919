//! What the app says and how: its own voice, the spoken history, the
//! words waiting for the screen reader ([`super::a11y`]); sending events
//! to the session and carrying out what comes back.

use shakmaty::Square;

use super::{FocusTarget, RochadeApp, saving};
use crate::runtime::carry_out;
use crate::session::{Effect, Event, Notice, Outcome, Priority, Question, QuestionKind, Speech};
use crate::words::Utterance;

impl RochadeApp {
    pub(super) fn say(&mut self, text: Utterance, priority: Priority) {
        if text.is_empty() {
            return;
        }
        if let Some(start) = self.voice.trace_startup.take() {
            eprintln!(
                "rochade: first spoken word after {} ms",
                start.elapsed().as_millis()
            );
        }
        // The offer to let the screen reader speak is for its user: the
        // screen reader says it, the app's own voice does not (it was heard
        // twice, and Orca's own reading waited behind it).
        let offering = matches!(self.question(), Some(Question::ScreenReaderMode));
        let the_offer = offering && self.session.pending().is_some_and(|p| p.text == text);
        if !the_offer {
            let lang = self.session.config().lang;
            self.voice.speech.speak(Speech {
                text: text.clone(),
                lang,
                priority,
            });
        }
        // The screen reader gets the words when it is meant to speak them;
        // in self-voicing mode it would talk over the app's voice, except
        // while its user has not answered the offer yet (a Braille display
        // would show nothing of the moves typed before the answer).
        // Through the screen reader's own interface when there is one (NVDA:
        // a move cuts off its speech), else through the accessibility tree.
        let reach =
            self.settings.speech.mode.screen_reader() || offering || self.screen_reader.unanswered;
        if reach {
            // Words an interface given up never said come before these.
            self.screen_reader.rescue_unsaid();
        }
        let direct = reach
            && self.screen_reader.direct.as_ref().is_some_and(|d| {
                d.say(
                    &text.spoken,
                    priority == Priority::Move,
                    std::time::Instant::now(),
                )
            });
        if reach && !direct {
            if priority == Priority::Move {
                self.screen_reader.pending.push_move(&text.spoken);
            } else {
                self.screen_reader.pending.push(&text.spoken);
            }
        }
        self.panels.history.push(text);
    }

    pub(super) fn say_key(&mut self, key: &str, priority: Priority) {
        let text = self.session.pack().say(key);
        self.say(text, priority);
    }

    /// Sends one event to the session and carries out the effects.
    pub fn dispatch(&mut self, event: Event) {
        self.dispatch_outcome(event);
    }

    /// As [`RochadeApp::dispatch`]; what the event did to the game (a move
    /// played, refused, a question asked).
    pub fn dispatch_outcome(&mut self, event: Event) -> Outcome {
        let now = self.now_ms();
        let handled = self.session.handle(now, event);
        let outcome = handled.outcome.clone();
        self.apply_effects(handled);
        outcome
    }

    pub(super) fn apply_effects(&mut self, effects: impl Into<Vec<Effect>>) {
        let effects = effects.into();
        // Behind a move still being saved, everything waits its turn.
        if !self.links.saving.held.is_empty() {
            self.hold_behind(effects);
            return;
        }
        self.run_effects(effects, false);
    }

    /// Carries out effects in order (through the one runtime); at a save,
    /// the rest waits for it (in front of everything held when `front`).
    pub(super) fn run_effects(&mut self, effects: Vec<Effect>, front: bool) {
        let Ok(held) = carry_out(self, effects);
        if let Some(held) = held {
            let held = saving::Held::saving(held.ticket, self.now_ms(), held.effects);
            if front {
                self.links.saving.held.push_front(held);
            } else {
                self.links.saving.held.push_back(held);
            }
        }
    }

    pub(super) fn on_notice(&mut self, notice: Notice) {
        match &notice {
            Notice::Move { mv, .. } => {
                self.board.selected = None;
                self.board.cursor = mv.to();
            }
            Notice::Takeback { .. } => self.board.selected = None,
            Notice::PuzzleDone { .. } => self.puzzle_done(),
            // A new game: the cursor where it starts (it stayed on the
            // old game's last square).
            Notice::NewGame => {
                self.board.selected = None;
                self.board.cursor = Square::E2;
                self.nothing_of_the_last_game();
            }
            Notice::Answered {
                question,
                confirmed: true,
            } => match question {
                QuestionKind::Close => self.window.close_allowed = true,
                QuestionKind::Resume => self.board.cursor = Square::E2,
                _ => {}
            },
            _ => {}
        }
        if let Notice::Answered {
            question: QuestionKind::ScreenReaderMode,
            confirmed,
        } = &notice
        {
            self.screen_reader_answered(*confirmed);
        }
        // A question takes the keyboard; after either answer it goes back
        // where it was (the board, or the move input), so a move typed next
        // is never lost.
        match &notice {
            // The screen-reader offer takes no keyboard: its words go to
            // the focused control (the move input), like a move's.
            Notice::Asked {
                question: QuestionKind::ScreenReaderMode,
            } => {}
            Notice::Asked { .. } => {
                // The dialog takes the focus and the screen reader says its
                // question then (see `dialogs::dialogs`): not said twice.
                if let Some(p) = self.session.pending() {
                    self.screen_reader.pending.forget(&p.text.spoken);
                }
                self.panels.dialogs.question_takes_focus = true;
                self.panels.dialogs.focus_before_question = self.focus_now();
            }
            Notice::Answered {
                question: QuestionKind::ScreenReaderMode,
                ..
            } => {}
            Notice::Answered { .. } => {
                self.panels.focus_request = Some(self.panels.dialogs.focus_before_question);
                if let Some(kept) = self.panels.move_input.kept.take() {
                    self.panels.move_input.text = kept;
                }
            }
            _ => {}
        }
    }

    /// Where the keyboard is, to go back there after a question: the
    /// board, the scoresheet, or the move input.
    pub(super) fn focus_now(&self) -> FocusTarget {
        if self.board.focused {
            FocusTarget::Board
        } else if self.panels.scoresheet.focused {
            FocusTarget::Scoresheet
        } else {
            FocusTarget::MoveInput
        }
    }

    /// After words for a place were said: when the focus moved there the
    /// screen reader reads the place itself, so it does not get the same
    /// words again (those said since `mark`).
    pub(super) fn focus_moved(&mut self, mark: usize, moved: bool) {
        if moved {
            self.screen_reader.pending.truncate(mark);
        }
    }
}
