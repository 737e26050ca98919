//! The next game on an e-board: the start position set up on a board
//! after a game played on it starts the next game, as every e-board
//! program does (the finished game stays on the record until then; the
//! shell saves it).
//!
//! Where no one can answer a question (`rochade track`,
//! [`SessionConfig::questions_answered`](super::SessionConfig) false), or
//! no game is in progress, the next game starts at once. Where someone
//! can (the window), the game in progress is not dropped unasked: "Start
//! a new game?" is asked, and meanwhile the board goes on with the next
//! game on its own (its seat detached from the record); the moves made on
//! it are kept. A yes starts the new game with those moves; a no, or
//! another question put instead, keeps the game, and the board is guided
//! back to it.

use shakmaty::Move;

use super::eboard_seat::SeatAction;
use super::link::BoardSide;
use super::{Command, Effect, Question, Session, Source};

/// The board's next game, waiting for the answer to "Start a new game?".
#[derive(Clone, Debug)]
pub(super) struct HeldGame {
    /// The board it is played on.
    side: BoardSide,
    /// The moves made on it meanwhile, in order.
    moves: Vec<Move>,
}

impl Session {
    /// The start position was set up on the board on `side` after a game
    /// played on it.
    pub(super) fn board_new_game(&mut self, now: u64, side: BoardSide, out: &mut Vec<Effect>) {
        if !self.config.questions_answered || !self.game_in_progress() {
            self.command(now, Command::NewGame, out);
            return;
        }
        match side {
            BoardSide::Peg => self.eboard.detach(),
            BoardSide::Sighted => self.sighted.detach(),
        }
        self.held_game = Some(HeldGame {
            side,
            moves: Vec::new(),
        });
        self.command(now, Command::AskNewGame, out);
    }

    /// Keeps what the board on `side` did for its next game while the
    /// question waits; whether it was kept.
    pub(super) fn hold_for_next_game(&mut self, side: BoardSide, action: &SeatAction) -> bool {
        let Some(held) = self.held_game.as_mut().filter(|h| h.side == side) else {
            return false;
        };
        match action {
            SeatAction::Play(mv) => held.moves.push(*mv),
            SeatAction::TakebackRequested => {
                held.moves.pop();
            }
            SeatAction::Replace(mv) => {
                held.moves.pop();
                held.moves.push(*mv);
            }
            // Set back to the start again: the next game begins afresh.
            SeatAction::NewGameRequested => held.moves.clear(),
        }
        true
    }

    /// The new game began (the question answered yes, or a new game
    /// started otherwise): the moves made on the board meanwhile are its
    /// first moves.
    pub(super) fn replay_held(&mut self, now: u64, held: Option<HeldGame>, out: &mut Vec<Effect>) {
        for mv in held.map(|h| h.moves).unwrap_or_default() {
            if !self.play(now, mv, Source::EBoard, out) {
                break;
            }
        }
    }

    /// The question is gone without a new game (answered no, or another
    /// question put instead): the board's seat follows the game on the
    /// record again, and is guided back to it.
    pub(super) fn release_held(&mut self, now: u64) {
        let waiting = self
            .pending
            .as_ref()
            .is_some_and(|p| matches!(p.question, Question::NewGame));
        if waiting {
            return;
        }
        let Some(held) = self.held_game.take() else {
            return;
        };
        let seat = match held.side {
            BoardSide::Peg => &mut self.eboard,
            BoardSide::Sighted => &mut self.sighted,
        };
        seat.reset(&self.record);
        seat.compare_again(now);
    }
}
