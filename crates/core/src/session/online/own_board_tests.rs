//! Online play with the player's own peg-board (issue 52's third stall):
//! the opponent's moves come from the server only; the board plays the
//! player's moves only, on his turn, from a board that showed the game's
//! position. A board still holding an earlier game's pieces is guided,
//! never read as moves of either side.

use shakmaty::{Chess, Position, Square};

use crate::online::{GameLine, OnlineEffect, OnlineEvent, OnlineSetup, Request, Waits};
use crate::session::board::BoardEvent;
use crate::session::board::tests::Table;
use crate::session::{Effect, Event, Notice, Session, SessionConfig, Source};
use crate::words::{Lang, Pack};

/// The occupancy after `uci` moves from the start.
fn occupancy_after(uci: &[&str]) -> u64 {
    let mut pos = Chess::default();
    for m in uci {
        let mv = m
            .parse::<shakmaty::uci::UciMove>()
            .unwrap()
            .to_move(&pos)
            .unwrap();
        pos.play_unchecked(mv);
    }
    u64::from(pos.board().occupied())
}

fn game_line(json: &str) -> Event {
    let line: GameLine = serde_json::from_str(json).unwrap();
    Event::Online(OnlineEvent::Game(Box::new(line)))
}

fn state(moves: &str) -> Event {
    game_line(&format!(
        r#"{{"type":"gameState","moves":"{moves}","wtime":600000,"btime":600000,"winc":0,"binc":0,"status":"started"}}"#
    ))
}

/// A session online as Black ("me"), its peg-board connected and showing
/// `board` (an occupancy) before the game starts.
fn black_with_board(board: u64) -> Table {
    black_with(board, false)
}

/// The same, the board's first report coming after the game's start (as
/// `rochade online` hands it on) when `game_first`.
fn black_with(board: u64, game_first: bool) -> Table {
    let config = SessionConfig {
        lang: Lang::En,
        ..SessionConfig::default()
    };
    let mut t = Table::with_session(Session::with_pack(config, Pack::bundled(Lang::En)));
    let setup = OnlineSetup {
        account: "me".into(),
        server: "http://x".into(),
        auto_accept: false,
        confirm: true,
        waits: Waits::default(),
        today: jiff::civil::date(2026, 11, 28),
    };
    t.send(Event::Online(OnlineEvent::Connected(Box::new(setup))));
    let full = game_line(
        r#"{"id":"G1","rated":false,"white":{"id":"them","name":"Them"},"black":{"id":"me","name":"Me"},"initialFen":"startpos","type":"gameFull","state":{"type":"gameState","moves":"","wtime":600000,"btime":600000,"winc":0,"binc":0,"status":"started"}}"#,
    );
    if !game_first {
        t.send(Event::Board(BoardEvent::LinkUp { port: "pty".into() }));
        t.board(board);
    }
    t.send(full);
    if game_first {
        // As the terminal does: board reports wait for the game.
        t.send(Event::Board(BoardEvent::LinkUp { port: "pty".into() }));
        t.board(board);
    }
    t.wait(300);
    t
}

/// Every move announced so far, with where it came from.
fn moves_by_source(effects: &[Effect]) -> Vec<(String, Source)> {
    effects
        .iter()
        .filter_map(|e| match e {
            Effect::Notice(Notice::Move { san, source, .. }) => Some((san.to_string(), *source)),
            _ => None,
        })
        .collect()
}

fn moves_sent(effects: &[Effect]) -> Vec<String> {
    // As the server reads them: UCI words.
    effects
        .iter()
        .filter_map(|e| match e {
            Effect::Online(OnlineEffect::Send {
                call:
                    crate::online::Call::Game {
                        request: Request::Move(uci),
                        ..
                    },
                ..
            }) => Some(uci.to_string()),
            _ => None,
        })
        .collect()
}

/// What the session did in the next `ms` (the effects taken).
fn after(t: &mut Table, ms: u64) -> Vec<Effect> {
    t.wait(ms);
    std::mem::take(&mut t.effects)
}

fn said(effects: &[Effect]) -> Vec<String> {
    crate::session::tests::spoken(effects)
}

#[test]
fn a_board_left_from_an_earlier_game_plays_no_move_of_either_side() {
    let stale = occupancy_after(&["e2e4", "e7e5", "g1f3", "b8c6"]);
    let mut t = black_with_board(stale);
    t.wait(5000);
    t.send(state("e2e4"));
    let fx = after(&mut t, 5000);
    // Only the server's move is played: the board's e4, e5, Nf3 and Nc6
    // are none of them.
    assert_eq!(
        moves_by_source(&fx),
        [("e4".to_owned(), Source::Server)],
        "said: {:?}",
        said(&fx)
    );
    assert!(moves_sent(&fx).is_empty());
    // The player hears that the board is not the game's, and how it
    // differs, not a stream of moves.
    let words = said(&fx);
    assert!(
        words
            .iter()
            .any(|w| w.contains("missing") || w.contains("extra")),
        "guidance: {words:?}"
    );
    let refusals = words
        .iter()
        .filter(|w| w.contains("was not played"))
        .count();
    assert!(refusals <= 3, "said once while the game stands: {words:?}");

    // Set up as guided (the pieces of the earlier game put back), then
    // the player's own reply: read, played and sent.
    t.peg_move(Square::C6, Square::B8);
    t.peg_move(Square::F3, Square::G1);
    t.peg_move(Square::E5, Square::E7);
    let fx = after(&mut t, 500);
    assert!(moves_by_source(&fx).is_empty(), "{:?}", said(&fx));
    t.peg_move(Square::D7, Square::D6);
    let fx = after(&mut t, 500);
    assert_eq!(
        moves_by_source(&fx),
        [("d6".to_owned(), Source::PegBoard)],
        "{:?}",
        said(&fx)
    );
    assert_eq!(moves_sent(&fx), ["d7d6"]);
}

#[test]
fn the_opponents_move_made_on_the_board_first_waits_for_the_server() {
    let start = occupancy_after(&[]);
    let mut t = black_with_board(start);
    // The player makes the opponent's expected move on his board before
    // the server has it: not played, not sent.
    t.peg_move(Square::E2, Square::E4);
    let fx = after(&mut t, 500);
    assert!(moves_by_source(&fx).is_empty(), "{:?}", said(&fx));
    assert!(said(&fx).iter().any(|w| w.contains("Not your turn")));
    // The server's move arrives: played from the server; the board
    // already shows it, and the player's reply is read from it.
    t.send(state("e2e4"));
    let fx = after(&mut t, 500);
    assert_eq!(
        moves_by_source(&fx),
        [("e4".to_owned(), Source::Server)],
        "{:?}",
        said(&fx)
    );
    t.peg_move(Square::E7, Square::E5);
    let fx = after(&mut t, 500);
    assert_eq!(
        moves_by_source(&fx),
        [("e5".to_owned(), Source::PegBoard)],
        "{:?}",
        said(&fx)
    );
    assert_eq!(moves_sent(&fx), ["e7e5"]);
}

/// A board left at 1. e4 e5: the server's 1. e4 makes the board one legal
/// move ahead, and that move (e5) is read while the server's move is being
/// played. It began from no position of this game: not played, not sent.
#[test]
fn a_stale_board_one_move_ahead_of_the_servers_move_plays_nothing() {
    let stale = occupancy_after(&["e2e4", "e7e5"]);
    let mut t = black_with(stale, true);
    t.wait(3000);
    t.send(state("e2e4"));
    let fx = after(&mut t, 3000);
    assert_eq!(
        moves_by_source(&fx),
        [("e4".to_owned(), Source::Server)],
        "{:?}",
        said(&fx)
    );
    assert!(moves_sent(&fx).is_empty(), "{:?}", said(&fx));
    // Put back, then played for real: read and sent.
    t.peg_move(Square::E5, Square::E7);
    t.peg_move(Square::D7, Square::D6);
    let fx = after(&mut t, 500);
    assert_eq!(moves_by_source(&fx), [("d6".to_owned(), Source::PegBoard)]);
    assert_eq!(moves_sent(&fx), ["d7d6"]);
}
