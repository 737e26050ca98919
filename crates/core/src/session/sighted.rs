//! The sighted player's e-board in the session: two boards, one record.
//! It is an [`EBoardSeat`] on the sighted side; the player's own
//! e-board is the same seat on the other side.

use super::eboard_seat::EBoardSeat;
use super::link::{LinkState, sighted_words};
use crate::words::{Pack, Utterance};

/// The sighted player's e-board (an [`EBoardSeat`] on the sighted side).
pub type SightedBoard = EBoardSeat;
/// What the sighted board asks the session to do with the game.
pub type SightedAction = super::eboard_seat::SeatAction;

/// "Your board: connected. Sighted board: connected. Sighted board:
/// Clock: left 1 hour 29 minutes, right 5 minutes 7 seconds": each board's
/// link, and a DGT clock's times when one reports.
pub fn board_status(pack: &Pack, own: &LinkState, sighted: &SightedBoard) -> Utterance {
    let link = |state: &LinkState| match state {
        LinkState::NotConnected => pack.say("link_not_connected"),
        LinkState::Connected { .. } => pack.say("link_connected"),
        LinkState::Lost { .. } => pack.say("link_down"),
    };
    let mut parts = vec![pack.phrase("your_board", &[("text", link(own))])];
    if sighted.in_use() {
        parts.push(sighted_words(pack, link(&sighted.link)));
        if let Some(c) = sighted.clock.filter(|c| !c.no_clock()) {
            let time = |s: crate::dgt::protocol::ClockSide| {
                crate::clock::duration_words(pack, u64::from(s.seconds_total()) * 1000)
            };
            let text = pack.phrase(
                "dgt_clock",
                &[("left", time(c.left)), ("right", time(c.right))],
            );
            parts.push(sighted_words(pack, text));
        }
    }
    Utterance::join_with(&parts, ". ")
}

#[cfg(test)]
#[path = "sighted_tests.rs"]
mod tests;
