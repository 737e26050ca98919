//! What a recognizer's events mean for the record a game test keeps: the
//! moves played (a correction replacing the move it corrects), and the
//! events a game played straight through must never bring (a takeback, a
//! new game). Shared by every e-board game test.
//!
//! Included with `#[path = "support/recorded.rs"] mod recorded;`.
#![allow(dead_code)]

use rochade::eboard::RecognizerEvent;
use shakmaty::Move;

/// Keeps what `event` says about the record in `moves` and `wrong`;
/// events that change no record (a board request, orientation, guidance)
/// are passed over: the caller answers a board request itself.
pub fn record(event: RecognizerEvent, moves: &mut Vec<Move>, wrong: &mut Vec<String>) {
    match event {
        RecognizerEvent::Move(mv) => moves.push(mv),
        RecognizerEvent::Corrected { old, new } => {
            if moves.last() == Some(&old) {
                moves.pop();
            }
            moves.push(new);
        }
        RecognizerEvent::Takeback(mv) => wrong.push(format!("takeback {mv}")),
        RecognizerEvent::NewGame => wrong.push("new game".into()),
        RecognizerEvent::RequestBoard
        | RecognizerEvent::Orientation { .. }
        | RecognizerEvent::Mismatch(_)
        | RecognizerEvent::InSync => {}
    }
}
