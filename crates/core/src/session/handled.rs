//! What one event did: the effects to carry out, and what happened to the
//! game ([`Outcome`]), so a caller learns whether a move was played from
//! the session instead of counting the record's moves before and after.

use std::ops::Deref;

use shakmaty::Move;
use shakmaty::uci::UciMove;

use super::{Effect, QuestionKind, Source};
use crate::chess::MoveInputError;

/// What an event did to the game.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum Outcome {
    /// No move was played or refused and nothing was asked.
    #[default]
    Nothing,
    /// A move went on the scoresheet as ply `ply` (1-based). When one event
    /// plays several (a board that caught up), the last.
    Played { ply: usize, source: Source },
    /// A move was not played.
    Refused { reason: Refusal },
    /// A question was asked and waits for its answer.
    Asked { question: QuestionKind },
}

/// Why a move was not played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// The typed text is no move, names more than one, or names one that
    /// is not legal in the position (the reader's error, with the text).
    Input(MoveInputError),
    /// This move (from a board, a click, the engine) is not legal in the
    /// position.
    IllegalMove(Move),
    /// The game is over.
    GameOver,
    /// Puzzle mode: legal, but not the solution.
    NotTheSolution(UciMove),
}

impl Outcome {
    /// Keeps the more telling of what happened so far and `next`: a move
    /// played stays the outcome (a later refusal or question in the same
    /// event does not hide it); otherwise the latest counts.
    pub(super) fn note(&mut self, next: Outcome) {
        let keep =
            matches!(self, Outcome::Played { .. }) && !matches!(next, Outcome::Played { .. });
        if !keep {
            *self = next;
        }
    }

    /// Whether a move was played.
    pub fn played(&self) -> bool {
        matches!(self, Outcome::Played { .. })
    }
}

/// The answer of [`super::Session::handle`]: the effects, in the order
/// they are carried out, and the outcome. It is used where a list of
/// effects was: it iterates (by value and by reference) and derefs to a
/// slice.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Handled {
    pub effects: Vec<Effect>,
    pub outcome: Outcome,
}

impl Handled {
    /// The effects alone.
    pub fn into_effects(self) -> Vec<Effect> {
        self.effects
    }
}

impl Deref for Handled {
    type Target = [Effect];
    fn deref(&self) -> &[Effect] {
        &self.effects
    }
}

impl IntoIterator for Handled {
    type Item = Effect;
    type IntoIter = std::vec::IntoIter<Effect>;
    fn into_iter(self) -> Self::IntoIter {
        self.effects.into_iter()
    }
}

impl<'a> IntoIterator for &'a Handled {
    type Item = &'a Effect;
    type IntoIter = std::slice::Iter<'a, Effect>;
    fn into_iter(self) -> Self::IntoIter {
        self.effects.iter()
    }
}

impl From<Handled> for Vec<Effect> {
    fn from(handled: Handled) -> Vec<Effect> {
        handled.effects
    }
}

impl PartialEq<Vec<Effect>> for Handled {
    fn eq(&self, other: &Vec<Effect>) -> bool {
        &self.effects == other
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::session::{Command, Event, Session, SessionConfig};
    use crate::words::{Lang, Pack};

    fn typed(s: &mut Session, text: &str) -> Outcome {
        let event = Event::MoveEntered {
            text: text.into(),
            source: Source::Keyboard,
        };
        s.handle(0, event).outcome
    }

    #[test]
    fn handle_says_what_the_event_did_to_the_game() {
        let mut s = Session::with_pack(SessionConfig::default(), Pack::bundled(Lang::En));
        assert_eq!(
            typed(&mut s, "e4"),
            Outcome::Played {
                ply: 1,
                source: Source::Keyboard
            }
        );
        assert_eq!(
            typed(&mut s, "Ke9"),
            Outcome::Refused {
                reason: Refusal::Input(MoveInputError::Unreadable("Ke9".into()))
            }
        );
        assert!(matches!(
            typed(&mut s, "e4"),
            Outcome::Refused {
                reason: Refusal::Input(MoveInputError::Illegal(_))
            }
        ));
        assert_eq!(s.handle(0, Event::Tick).outcome, Outcome::Nothing);
        let asked = s.handle(0, Event::Command(Command::Takeback));
        assert_eq!(
            asked.outcome,
            Outcome::Asked {
                question: QuestionKind::Takeback
            }
        );
        // The effects are there as a list was before.
        assert!(asked.iter().any(|e| e.speech().is_some()));
        s.handle(0, Event::Command(Command::Cancel)).into_effects();
        s.handle(0, Event::Command(Command::Resign(shakmaty::Color::Black)));
        assert_eq!(
            typed(&mut s, "e5"),
            Outcome::Refused {
                reason: Refusal::GameOver
            }
        );
    }

    #[test]
    fn a_move_played_is_not_hidden_by_what_follows_in_the_same_event() {
        let mut outcome = Outcome::Nothing;
        outcome.note(Outcome::Refused {
            reason: Refusal::GameOver,
        });
        outcome.note(Outcome::Played {
            ply: 3,
            source: Source::PegBoard,
        });
        outcome.note(Outcome::Asked {
            question: QuestionKind::Takeback,
        });
        assert_eq!(
            outcome,
            Outcome::Played {
                ply: 3,
                source: Source::PegBoard
            }
        );
        outcome.note(Outcome::Played {
            ply: 4,
            source: Source::Engine,
        });
        assert!(matches!(outcome, Outcome::Played { ply: 4, .. }));
    }
}
