//! The session's two e-board seats: the player's own e-board
//! ([`Event::EBoard`]) and the sighted player's ([`Event::Sighted`]). Both
//! are an [`EBoardSeat`]; what a seat reads goes into the game here, as a
//! peg-board's move does (puzzles included).

use super::board_event::BoardEvent;
use super::eboard_seat::{EBoardSeat, SeatAction};
use super::link::{BoardSide, LinkState};
use super::{Command, Effect, Session, Source};
use crate::eboard::Message;

impl Session {
    /// The player's own e-board said something ([`Event::EBoard`]).
    pub(super) fn eboard_event(
        &mut self,
        now: u64,
        ev: BoardEvent<Message>,
        out: &mut Vec<Effect>,
    ) {
        let mut fx = Vec::new();
        let asked = ev == BoardEvent::RepeatGuidance;
        let actions = self
            .eboard
            .on_event(now, ev, &self.record, &self.pack, &mut fx);
        self.own_board_words(fx, asked, out);
        self.seat_actions(now, BoardSide::Peg, actions, out);
    }

    /// The sighted player's e-board said something ([`Event::Sighted`]).
    pub(super) fn sighted_event(
        &mut self,
        now: u64,
        ev: BoardEvent<Message>,
        out: &mut Vec<Effect>,
    ) {
        let actions = self
            .sighted
            .on_event(now, ev, &self.record, &self.pack, out);
        self.seat_actions(now, BoardSide::Sighted, actions, out);
    }

    /// Both seats' timers, the sighted board's first, so that a move read
    /// there reaches the player's board in the same event.
    pub(super) fn seats_tick(&mut self, now: u64, out: &mut Vec<Effect>) {
        self.release_held(now);
        let actions = self.sighted.on_tick(now, &self.record, &self.pack, out);
        self.seat_actions(now, BoardSide::Sighted, actions, out);
        let mut fx = Vec::new();
        let actions = self.eboard.on_tick(now, &self.record, &self.pack, &mut fx);
        self.own_board_words(fx, false, out);
        self.seat_actions(now, BoardSide::Peg, actions, out);
    }

    /// Both seats start from the record (a new, resumed or set-up game).
    pub(super) fn seats_reset(&mut self) {
        self.sighted.reset(&self.record);
        self.eboard.reset(&self.record);
    }

    /// Both seats follow the record (a move or a takeback made elsewhere).
    pub(super) fn seats_reconcile(&mut self, now: u64) {
        self.sighted.reconcile(now, &self.record);
        self.eboard.reconcile(now, &self.record);
    }

    /// The player's own board's link: the own e-board's when one is in
    /// use, else the peg-board's.
    pub(super) fn own_link(&self) -> &LinkState {
        if self.eboard.in_use() {
            &self.eboard.link
        } else {
            &self.board.link
        }
    }

    /// The player's own e-board.
    pub fn own_eboard(&self) -> &EBoardSeat {
        &self.eboard
    }

    fn seat_actions(
        &mut self,
        now: u64,
        side: BoardSide,
        actions: Vec<SeatAction>,
        out: &mut Vec<Effect>,
    ) {
        for action in actions {
            // The board's next game, while its question waits: its moves
            // are kept for it.
            if self.hold_for_next_game(side, &action) {
                continue;
            }
            match action {
                SeatAction::Play(mv) => {
                    // Online, the player's own board plays his moves only
                    // (the e-board reads whole positions: a move it reads
                    // began from the position it last agreed with).
                    let refused =
                        side == BoardSide::Peg && self.online_refuses_own_board(true, out);
                    // A wrong puzzle move stays on the record until the
                    // board is put back, as on the peg-board; any other
                    // refusal (the game is over): follow the record.
                    if refused
                        || !self.play(now, mv, Source::EBoard, out) && !self.puzzle_wrong_on_board()
                    {
                        match side {
                            BoardSide::Peg => self.eboard.reset(&self.record),
                            BoardSide::Sighted => self.sighted.reset(&self.record),
                        }
                    }
                }
                SeatAction::TakebackRequested => self.command(now, Command::Takeback, out),
                SeatAction::Replace(mv) => {
                    self.replace_last(now, mv, Source::EBoard, "move_corrected", out)
                }
                SeatAction::NewGameRequested => self.board_new_game(now, side, out),
            }
        }
    }
}
