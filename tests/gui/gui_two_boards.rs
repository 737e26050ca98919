//! Two boards in the real app: the sighted player's DGT board (its link's
//! reports handed to the app as the link thread does) beside the
//! peg-board. A move made on the DGT board is announced and written on the
//! scoresheet; the connection panel shows the sighted board and its clock;
//! Ctrl+Shift+G says both boards' state.

use crate::gui_common;

use egui::{Key, Modifiers};
use gui_common::{Gui, settings, start};
use rochade::dgt::protocol::{ClockReading, ClockSide, Message};
use rochade::eboard::Pieces;
use rochade::eboard::pieces::pieces_of_board;
use rochade::session::board::BoardEvent;
use rochade::session::{Event, Mode};
use rochade::words::Lang;
use shakmaty::{Piece, Square};

fn sighted(gui: &mut Gui, m: Message) {
    gui.harness
        .state_mut()
        .dispatch(Event::Sighted(BoardEvent::Message(m.into())));
    gui.harness.run();
}

#[test]
fn a_move_on_the_sighted_dgt_board_is_announced_shown_and_both_boards_are_said() {
    let mut s = settings(Lang::En);
    s.game.mode = Mode::Tournament;
    s.board.sighted_port = Some("/dev/ttyUSB1".into());
    let mut gui = start(s);
    assert!(
        gui.shows_part("Opponent's board: DGT, not connected, Port: /dev/ttyUSB1"),
        "the configured sighted board is shown before it connects"
    );
    gui.harness
        .state_mut()
        .dispatch(Event::Sighted(BoardEvent::LinkUp {
            port: "/dev/ttyUSB1".into(),
        }));
    let mut board: Pieces = pieces_of_board(shakmaty::Board::default());
    sighted(&mut gui, Message::BoardDump(board));
    gui.advance(1000);
    // e2-e4 on the sighted board, reported square by square.
    board[usize::from(Square::E2)] = None;
    sighted(
        &mut gui,
        Message::FieldUpdate {
            square: Square::E2,
            piece: None,
        },
    );
    gui.advance(100);
    let pawn = Piece::from_char('P');
    board[usize::from(Square::E4)] = pawn;
    sighted(
        &mut gui,
        Message::FieldUpdate {
            square: Square::E4,
            piece: pawn,
        },
    );
    gui.advance(400);
    // The app asked for the whole board when the updates settled.
    sighted(&mut gui, Message::BoardDump(board));
    gui.settle_saves();
    assert!(
        gui.spoken().contains(&"Eva four".to_string()),
        "{:?}",
        gui.spoken()
    );
    assert_eq!(gui.app().session().record().moves().len(), 1);
    assert!(gui.shows_part("Opponent's board: DGT, connected, Port: /dev/ttyUSB1"));

    sighted(
        &mut gui,
        Message::Clock(ClockReading {
            left: ClockSide {
                hours: 1,
                minutes: 29,
                seconds: 58,
                flag: false,
            },
            right: ClockSide {
                minutes: 5,
                seconds: 7,
                ..ClockSide::default()
            },
            status: 0x01,
        }),
    );
    assert!(
        gui.shows_part("Sighted board clock (left | right): 1:29:58 | 5:07"),
        "the DGT clock is shown"
    );
    gui.press_with(Modifiers::COMMAND | Modifiers::SHIFT, Key::G);
    assert_eq!(
        gui.last_spoken(),
        "Your board: not connected. Sighted board: connected. Sighted board: Clock: left 1 \
         hour 29 minutes 58 seconds, right 5 minutes 7 seconds"
    );
}
