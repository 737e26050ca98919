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
            // The token the push to a broadcast round sends.
            std::env::set_var("ROCHADE_LICHESS_TOKEN", "lip_studywrite");
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
    // The tournament's standings, fetched while the round goes on.
    let mark = gui.app().spoken().len();
    press(&mut gui, "Standings");
    until_said(
        &mut gui,
        "1. Praggnanandhaa R, 5.5 of 9; 10. Aravindh, Chithambaram VR., 2.5 of 9",
    );
    assert_eq!(said_after(&gui, mark).len(), 1);
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

/// A server taking pushes to a broadcast round as Lichess documents them
/// (`POST /api/broadcast/round/{id}/push`, text/plain PGN, the answer
/// `{"games": [{"tags": .., "moves": N}]}`; lichess-org/api's
/// broadcasts-pushPgnToBroadcastRound.json): the last game pushed, and
/// whether it refuses the token (401) instead.
struct PushServer {
    url: String,
    last: std::sync::Arc<std::sync::Mutex<Option<(String, String)>>>,
}

impl PushServer {
    fn start(refuse_token: bool) -> PushServer {
        use std::io::{Read, Write};
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let url = format!("http://{}", listener.local_addr().unwrap());
        let last = std::sync::Arc::new(std::sync::Mutex::new(None));
        let kept = last.clone();
        std::thread::spawn(move || {
            for mut conn in listener.incoming().flatten() {
                let head = broadcast_round::read_request(&mut conn);
                let length = head
                    .lines()
                    .find_map(|l| {
                        let (name, value) = l.split_once(':')?;
                        name.eq_ignore_ascii_case("content-length")
                            .then(|| value.trim().parse::<usize>().ok())?
                    })
                    .unwrap_or(0);
                let mut body = vec![0u8; length];
                let _ = conn.read_exact(&mut body);
                let body = String::from_utf8_lossy(&body).into_owned();
                let answer = if refuse_token {
                    "HTTP/1.1 401 Unauthorized\r\nContent-Length: 27\r\nConnection: close\r\n\r\n{\"error\":\"No such token\"}\n\n".to_owned()
                } else {
                    let moves = body
                        .lines()
                        .filter(|l| !l.starts_with('['))
                        .flat_map(str::split_whitespace)
                        .filter(|t| {
                            !t.ends_with('.') && !["*", "1-0", "0-1", "1/2-1/2"].contains(t)
                        })
                        .count();
                    let json = format!(r#"{{"games":[{{"tags":{{}},"moves":{moves}}}]}}"#);
                    format!(
                        "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{json}",
                        json.len()
                    )
                };
                *kept.lock().unwrap() = Some((head, body));
                let _ = conn.write_all(answer.as_bytes());
            }
        });
        PushServer { url, last }
    }

    fn last_body(&self) -> String {
        self.last
            .lock()
            .unwrap()
            .as_ref()
            .map(|(_, body)| body.clone())
            .unwrap_or_default()
    }
}

fn start_pushing(server: &PushServer) -> Gui {
    let round_server = RoundServer::start(ROUND, Vec::new());
    let mut gui = start_app(&round_server);
    let mut s = gui.app().settings().clone();
    s.online.server = server.url.clone();
    s.game.white = "Blind, Anna".into();
    s.game.black = "Sighted, Bob".into();
    s.game.event = "IBCA Open".into();
    s.game.round = "3.1".into();
    // The round's address pasted whole.
    s.game.broadcast_round = "https://lichess.org/broadcast/ibca-open/round-3/PuSh1234".into();
    gui.app_mut().apply_settings(s);
    gui.harness.run();
    gui
}

#[test]
fn the_game_played_in_the_window_reaches_the_broadcast_round() {
    let server = PushServer::start(false);
    let mut gui = start_pushing(&server);
    for mv in ["e4", "e5", "Nf3"] {
        gui.type_move(mv);
    }
    gui.run_until("the round holds three half-moves", |g| {
        g.shows_part("on the broadcast, 3 half-moves")
    });
    let (head, body) = server.last.lock().unwrap().clone().unwrap();
    assert!(
        head.starts_with("POST /api/broadcast/round/PuSh1234/push "),
        "{head}"
    );
    assert!(head.contains("Bearer lip_studywrite"));
    assert!(body.contains("[White \"Blind, Anna\"]"), "{body}");
    assert!(body.contains("[Round \"3.1\"]"), "{body}");
    assert!(body.contains("1. e4 e5 2. Nf3"), "{body}");
    // The moves were said at once, as ever; nothing about the push.
    assert!(!gui.spoken().iter().any(|s| s.contains("broadcast")));
    // A new game stops the push: the finished game stays on the round.
    let finished = server.last_body();
    // Ctrl+N, "Start a new game?", Y: as a user does.
    gui.press_with(egui::Modifiers::COMMAND, egui::Key::N);
    gui.press(egui::Key::Y);
    assert!(gui.app().session().record().moves().is_empty());
    gui.run_until("the stop is said", |g| {
        g.spoken()
            .iter()
            .any(|s| s.contains("not pushed to the broadcast round"))
    });
    gui.type_move("d4");
    for _ in 0..20 {
        gui.harness.run();
    }
    assert_eq!(server.last_body(), finished, "the finished game stays");
}

#[test]
fn a_refused_token_is_said_once_and_shown_in_the_connection_panel() {
    let server = PushServer::start(true);
    let mut gui = start_pushing(&server);
    gui.type_move("e4");
    gui.run_until("the refusal is said", |g| {
        g.spoken().iter().any(|s| s.contains("refused the token"))
    });
    gui.type_move("e5");
    gui.type_move("Nf3");
    for _ in 0..20 {
        gui.harness.run();
    }
    let told = gui
        .spoken()
        .iter()
        .filter(|s| s.contains("refused the token"))
        .count();
    assert_eq!(told, 1, "{:?}", gui.spoken());
    assert!(gui.shows_part("PuSh1234: The broadcast refused the token"));
}
