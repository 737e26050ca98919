//! Watching a broadcast in the window (Online menu, "Watch a broadcast")
//! against a local server streaming a round as Lichess does
//! (tests/support/broadcast_round.rs): the dialog reached by its labels,
//! the round's address pasted whole, the boards as buttons, the followed
//! game's moves said as they come and kept in the spoken history, another
//! board followed by its button, its last move, the clocks and the
//! results asked, a cut connection made again (the move made meanwhile
//! said once), and Stop watching. Only the server is scripted; the HTTP
//! client and its thread are the app's own.

#[path = "support/broadcast_round.rs"]
mod broadcast_round;
mod gui_common;
#[path = "support/hermetic.rs"]
mod hermetic;

use broadcast_round::{RoundServer, game_pgn};
use egui::accesskit::{Role, Toggled};
use egui_kittest::kittest::{NodeT, Queryable};
use gui_common::{Gui, settings, start};
use rochade::words::Lang;

const ROUND: &str = "AbCd1234";

fn start_app(server: &RoundServer) -> Gui {
    static ENV: std::sync::Once = std::sync::Once::new();
    ENV.call_once(|| {
        let dir = hermetic::private_dir("gui-watch-config");
        // SAFETY: set once, before any app of this binary starts a thread;
        // every test here wants the same values.
        unsafe {
            std::env::set_var("ROCHADE_CONFIG_DIR", &dir);
            std::env::set_var("ROCHADE_DATA_DIR", dir.join("data"));
            // A dropped stream is connected again after 20 ms, not 1 s.
            std::env::set_var("ROCHADE_ONLINE_WAITS", "backoff-ms=20");
        }
    });
    let mut s = settings(Lang::En);
    s.online.server = server.url();
    start(s)
}

/// The Online menu, "Watch a broadcast…", the round and the game typed,
/// Watch.
fn watch(gui: &mut Gui, round: &str, pick: &str) {
    gui.harness
        .get_by_role_and_label(Role::Button, "Online")
        .click();
    gui.harness.run();
    gui.harness
        .get_by_role_and_label(Role::Button, "Watch a broadcast…")
        .click();
    gui.harness.run();
    assert!(gui.shows("Watch a broadcast"), "the dialog opened");
    let round_field = "Round (its id, or paste its address)";
    // The round's field has the keyboard: typed at once.
    assert!(
        gui.harness
            .get_by_role_and_label(Role::TextInput, round_field)
            .is_focused()
    );
    gui.harness
        .get_by_role_and_label(Role::TextInput, round_field)
        .type_text(round);
    gui.harness.run();
    let pick_field = "Board number or player's name (empty: board 1)";
    gui.harness
        .get_by_role_and_label(Role::TextInput, pick_field)
        .focus();
    gui.harness.run();
    gui.harness
        .get_by_role_and_label(Role::TextInput, pick_field)
        .type_text(pick);
    gui.harness.run();
    gui.harness
        .get_by_role_and_label(Role::Button, "Watch")
        .click();
    gui.harness.run();
}

/// Runs frames until the app has said `words` (its spoken history, which
/// the screen reader and Braille display get too).
fn until_said(gui: &mut Gui, words: &str) {
    gui.run_until(words, |g| g.app().spoken().iter().any(|s| s == words));
}

fn press(gui: &mut Gui, label: &str) {
    gui.harness
        .get_by_role_and_label(Role::Button, label)
        .click();
    gui.harness.run();
}

fn said_after(gui: &Gui, mark: usize) -> Vec<String> {
    gui.app().spoken()[mark..].to_vec()
}

#[test]
fn a_round_is_watched_board_by_board_through_a_cut_connection() {
    let alpha = |moves: &str| game_pgn("Alpha", "Beta", moves, "*");
    let carlsen = |moves: &str, result: &str| game_pgn("Carlsen", "Caruana", moves, result);
    let gamma = |moves: &str| game_pgn("Gamma", "Delta", moves, "*");
    let server = RoundServer::start(
        ROUND,
        vec![
            alpha("1. e4 c5"),
            carlsen("1. d4 { [%clk 1:29:50] } Nf6 { [%clk 1:29:40] }", "*"),
            gamma("1. c4"),
        ],
    );
    let mut gui = start_app(&server);
    let address = format!("https://lichess.org/broadcast/rochade-open/round-1/{ROUND}");
    watch(&mut gui, &address, "caruana");
    assert_eq!(gui.app().watched_round(), Some(ROUND));
    assert!(
        gui.harness
            .get_by_role_and_label(Role::Button, "Results of the round")
            .is_focused(),
        "the panel's first button has the keyboard"
    );
    // The player's game is found, and where it stands said: its last move.
    until_said(&mut gui, "Knight Felix six");
    let said = gui.app().spoken();
    let found = said
        .iter()
        .position(|s| s == "Board 2: Carlsen against Caruana")
        .expect("the game found is said");
    assert_eq!(said[found + 1], "Knight Felix six", "{said:?}");
    // The boards are buttons: number, players, state; the followed one is
    // selected.
    for board in [
        "Board 1: Alpha against Beta, playing",
        "Board 2: Carlsen against Caruana, playing",
        "Board 3: Gamma against Delta, playing",
    ] {
        let button = gui.harness.get_by_role_and_label(Role::Button, board);
        let pressed = button.accesskit_node().toggled() == Some(Toggled::True);
        assert_eq!(pressed, board.starts_with("Board 2"), "{board}");
    }
    // Another board moves, then the followed one (in this order on the
    // stream): only the followed game's move is said, at once, through the
    // app's speech too.
    let mark = gui.app().spoken().len();
    server.change(0, alpha("1. e4 c5 2. Nf3"));
    server.change(
        1,
        carlsen(
            "1. d4 { [%clk 1:29:50] } Nf6 { [%clk 1:29:40] } 2. c4 { [%clk 1:29:20] }",
            "*",
        ),
    );
    until_said(&mut gui, "Cesar four");
    assert_eq!(said_after(&gui, mark), ["Cesar four"]);
    assert!(gui.spoken().contains(&"Cesar four".to_string()));
    // The clocks of the followed game, on request.
    let mark = gui.app().spoken().len();
    press(&mut gui, "Clocks");
    let clocks = said_after(&gui, mark);
    assert!(
        clocks.len() == 1
            && clocks[0].starts_with("White has ")
            && clocks[0].contains("Black has "),
        "{clocks:?}"
    );
    // Board 1's last move (its change came before board 2's), on request.
    let mark = gui.app().spoken().len();
    press(&mut gui, "Last move of board 1");
    assert_eq!(said_after(&gui, mark), ["Board 1: Knight Felix three"]);
    // Board 3 followed instead: found, its last move.
    let mark = gui.app().spoken().len();
    press(&mut gui, "Board 3: Gamma against Delta, playing");
    assert_eq!(
        said_after(&gui, mark),
        ["Board 3: Gamma against Delta", "Cesar four"]
    );
    // Its next move is said; board 2's no more.
    let mark = gui.app().spoken().len();
    server.change(1, carlsen("1. d4 Nf6 2. c4 g6", "*"));
    server.change(2, gamma("1. c4 e5"));
    until_said(&mut gui, "Eva five");
    assert_eq!(said_after(&gui, mark), ["Eva five"]);
    // The connection is cut; board 3 moves meanwhile. The drop is said,
    // the stream connected again, and the missed move said once.
    let mark = gui.app().spoken().len();
    server.cut_with(2, gamma("1. c4 e5 2. Nc3"));
    until_said(&mut gui, "Knight Cesar three");
    assert_eq!(
        said_after(&gui, mark),
        [
            "Broadcast connection lost: the server ended the stream. Reconnecting",
            "Broadcast connected again",
            "Knight Cesar three",
        ]
    );
    // Board 2's result comes: its button says it; the results on request.
    server.change(1, carlsen("1. d4 Nf6 2. c4 g6", "1-0"));
    gui.run_until("board 2's result", |g| {
        g.shows("Board 2: Carlsen against Caruana, White wins")
    });
    let mark = gui.app().spoken().len();
    press(&mut gui, "Results of the round");
    assert_eq!(
        said_after(&gui, mark),
        ["Board 1: Alpha against Beta, playing. \
             Board 2: Carlsen against Caruana, White wins. \
             Board 3: Gamma against Delta, playing"]
    );
    // Stop watching: said, the panel gone.
    press(&mut gui, "Stop watching");
    assert_eq!(
        gui.app().spoken().last().unwrap(),
        "Stopped watching the broadcast"
    );
    assert_eq!(gui.app().watched_round(), None);
    assert!(!gui.shows("Results of the round"));
}

#[test]
fn a_round_the_server_does_not_have_is_said_and_a_bad_address_refused() {
    let server = RoundServer::start(ROUND, vec![game_pgn("A", "B", "1. e4", "*")]);
    let mut gui = start_app(&server);
    // Not a round's address: the dialog stays, with the reason.
    watch(&mut gui, "https://lichess.org/study/AbCd1234", "");
    assert!(gui.shows_part("No round in that"), "the reason is shown");
    assert_eq!(gui.app().watched_round(), None);
    press(&mut gui, "Cancel");
    assert!(!gui.shows("Watch a broadcast"), "the dialog closed");
    // Another round: the server has none.
    watch(&mut gui, "ZzZz9999", "");
    until_said(&mut gui, "The server has no broadcast round ZzZz9999");
}
