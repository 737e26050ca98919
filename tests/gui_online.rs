//! Online play in the real app against a local server that speaks the
//! Lichess Board API (tests/support/lichess_server.rs): the real HTTP
//! client and streams, the window's own dialog and keys, the simulated
//! peg-board executing the blind player's moves and following the
//! opponent's. Only the server is scripted.
//!
//! The whole game (84 plies: captures, castling, a promotion) is played
//! from the peg-board; the opponent offers a draw (declined with
//! Ctrl+Alt+D), our own offer is declined, the game stream drops and is
//! refused twice before it is back; Ctrl+Shift+R twice resigns. The
//! record equals the server's, with its clocks; the token is only in the
//! token file.

mod gui_common;
#[path = "support/hermetic.rs"]
mod hermetic;
#[path = "support/lichess_server.rs"]
mod lichess_server;

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use egui::accesskit::Role;
use egui::{Key, Modifiers};
use egui_kittest::kittest::Queryable;
use gui_common::{Gui, settings, start_with};
use lichess_server::{Chunking, Faults, Script, Server, castling_rook, game_moves};
use rochade::config::OnlineFind;
use rochade::session::Mode;
use rochade::words::Lang;
use shakmaty::{CastlingMode, Color, Position, Square};

const TOKEN: &str = "lip_GuiTestToken0123456789abcdef";

/// The app's config folder for this test binary: the token file goes
/// there (never the developer's own secret store).
fn config_dir() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = hermetic::private_dir("gui-online-config");
        // SAFETY: set once, before any thread of the app reads them; every
        // test of this binary wants the same values.
        unsafe {
            std::env::set_var("ROCHADE_CONFIG_DIR", &dir);
            std::env::set_var("ROCHADE_DATA_DIR", dir.join("data"));
            std::env::set_var("ROCHADE_SECRET_STORE", "file");
            std::env::remove_var("ROCHADE_LICHESS_TOKEN");
            // The local server's pace: keep-alives every 100 ms, short
            // waits before reconnecting and after a 429.
            std::env::set_var(
                "ROCHADE_ONLINE_WAITS",
                "backoff-ms=20 rate-limit-wait-ms=200 stream-timeout-ms=3000 keep-alive-ms=100",
            );
        }
        dir
    })
}

fn start_app(server: &Server) -> Gui {
    config_dir();
    let mut s = settings(Lang::En);
    s.game.mode = Mode::Practice;
    s.online.server = server.url();
    s.online.find = OnlineFind::Ai;
    s.online.ai_level = 3;
    s.online.time_control = "10+5".into();
    start_with(s, |o| o.simulated_board = true)
}

/// Ctrl+Shift+O, the token pasted, Connect: until the game starts.
fn connect(gui: &mut Gui, token: &str) {
    paste_token_and_connect(gui, token);
    gui.run_until("the online game to start", |g| {
        g.app().online_colour().is_some()
    });
}

/// Ctrl+Shift+O, the token pasted into its field, Connect.
fn paste_token_and_connect(gui: &mut Gui, token: &str) {
    gui.press_with(Modifiers::COMMAND | Modifiers::SHIFT, Key::O);
    assert!(gui.shows_part("Play online"), "the dialog opened");
    let field = gui
        .harness
        .get_by_role_and_label(Role::PasswordInput, "Personal API token (scope board:play)");
    field.focus();
    gui.harness.run();
    gui.harness
        .get_by_role_and_label(Role::PasswordInput, "Personal API token (scope board:play)")
        .type_text(token);
    gui.harness.run();
    gui.harness.get_by_label("Connect").click();
    gui.harness.run();
}

/// The squares pressed on the peg-board to execute `uci` here: lift and
/// place; a capture lifts the captured peg first; castling moves the king,
/// then the rook.
fn presses(position: &shakmaty::Chess, uci: &str) -> Vec<Square> {
    let sq = |s: &str| s.parse::<Square>().unwrap();
    let (from, to) = (sq(&uci[..2]), sq(&uci[2..4]));
    if let Some((rf, rt)) = castling_rook(uci) {
        return vec![from, to, sq(rf), sq(rt)];
    }
    if position.board().piece_at(to).is_some() {
        vec![from, to, to]
    } else {
        vec![from, to]
    }
}

/// Executes `uci` on the simulated peg-board (standing in `position`,
/// which then has the move), each step past the tracker's settle window.
fn on_peg_board(gui: &mut Gui, position: &mut shakmaty::Chess, uci: &str) {
    for sq in presses(position, uci) {
        gui.app_mut().sim_press(sq);
        gui.advance(300);
    }
    if uci.len() == 5 {
        // The pawn on the last rank: the player chooses the piece.
        assert_eq!(uci.as_bytes()[4], b'q');
        gui.press_with(Modifiers::ALT, Key::Q);
    }
    gui.advance(300);
    let mv = uci
        .parse::<shakmaty::uci::UciMove>()
        .unwrap()
        .to_move(position)
        .unwrap();
    position.play_unchecked(mv);
}

fn record_uci(gui: &Gui) -> Vec<String> {
    let record = gui.app().session().record();
    record
        .moves()
        .iter()
        .map(|m| m.mv.to_uci(CastlingMode::Standard).to_string())
        .collect()
}

/// Something said (by the speech backend, the whole game long) contains `part`.
fn said_any(gui: &Gui, part: &str) -> bool {
    gui.spoken().iter().any(|s| s.contains(part))
}

/// Files under `dir` (recursively) that contain `needle`.
fn files_containing(dir: &Path, needle: &str) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let Ok(entries) = std::fs::read_dir(dir) else {
        return found;
    };
    for e in entries.flatten() {
        let path = e.path();
        if path.is_dir() {
            found.extend(files_containing(&path, needle));
        } else if std::fs::read(&path).is_ok_and(|b| String::from_utf8_lossy(&b).contains(needle)) {
            found.push(path);
        }
    }
    found
}

#[test]
fn a_whole_online_game_from_the_peg_board_with_offers_a_drop_and_a_resignation() {
    let moves: Vec<String> = game_moves();
    let script = Script {
        moves: moves.clone(),
        account_white: true,
        opponent_offers_draw_at: Some(21),
        drop_after: Some(50),
        reconnect_refusals: 2,
        ..Script::default()
    };
    let server = Server::start(TOKEN, script);
    let mut gui = start_app(&server);
    connect(&mut gui, TOKEN);
    assert_eq!(gui.app().online_colour(), Some(shakmaty::Color::White));
    assert!(
        said_any(&gui, "Online game against Sighted, rating 1622"),
        "{:?}",
        gui.app().spoken()
    );
    assert!(gui.shows_part("Online: connected"), "the connection panel");
    gui.run_until("the server's clocks shown", |g| {
        g.shows("Server clocks after the last move: White 10:00 | Black 10:00")
    });

    let mut position = shakmaty::Chess::default();
    let mut ply = 0;
    while ply < moves.len() {
        if ply == 40 {
            // Our own draw offer, typed; the opponent declines it.
            gui.type_move_unsaved("draw");
            assert_eq!(gui.last_spoken(), "Offer a draw? Yes or no");
            gui.type_move_unsaved("yes");
            gui.run_until("our draw offer declined", |g| {
                said_any(g, "Draw offer declined")
            });
        }
        // Our move, executed on the peg-board, is announced and sent.
        on_peg_board(&mut gui, &mut position, &moves[ply]);
        assert!(
            record_uci(&gui).len() > ply,
            "ply {ply} {} taken from the peg-board; said: {:?}",
            moves[ply],
            gui.app().spoken()
        );
        ply += 1;
        if ply == moves.len() {
            break;
        }
        // The opponent's reply arrives from the server (after the drop:
        // once reconnected) ...
        gui.run_until("the opponent's reply", |g| record_uci(g).len() > ply);
        assert_eq!(
            record_uci(&gui),
            moves[..=ply],
            "the record follows the server"
        );
        // ... and is executed on the peg-board as guided.
        on_peg_board(&mut gui, &mut position, &moves[ply]);
        ply += 1;
        if ply == 22 {
            gui.run_until("the opponent's draw offer", |g| {
                said_any(g, "Sighted offers a draw")
            });
            gui.press_with(Modifiers::COMMAND | Modifiers::ALT, Key::D);
            gui.run_until("the decline sent", |_| {
                server
                    .requests()
                    .iter()
                    .any(|(_, p, _)| p.ends_with("/draw/no"))
            });
        }
    }
    assert!(
        said_any(&gui, "Connection to the server lost"),
        "the drop said"
    );
    assert!(
        said_any(&gui, "Connected to the server again"),
        "the return said"
    );
    // Resigning takes two presses: the first only asks.
    gui.press_with(Modifiers::COMMAND | Modifiers::SHIFT, Key::R);
    assert_eq!(gui.last_spoken(), "Resign? Yes or no");
    assert!(
        !server
            .requests()
            .iter()
            .any(|(_, p, _)| p.ends_with("/resign"))
    );
    gui.press_with(Modifiers::COMMAND | Modifiers::SHIFT, Key::R);
    gui.run_until("the game's end", |g| g.app().session().record().is_over());
    // The connection ends with the game (its streams stop); the panel
    // keeps the result.
    gui.run_until("the connection closed", |g| !g.app().online_active());
    assert!(gui.shows_part("Online: not connected: "), "the panel");
    let record = gui.app().session().record();
    assert_eq!(record.result_str(), "0-1");
    assert_eq!(server.moves(), moves);
    assert_eq!(record_uci(&gui), moves, "the record equals the server's");
    assert_eq!(record.tags.white, "BlindPlayer");
    assert_eq!(record.tags.black, "Sighted");
    assert_eq!(
        record.tags.site,
        format!("{}/{}", server.url(), lichess_server::GAME_ID)
    );
    assert!(
        record.moves().iter().all(|m| m.clock_ms.is_some()),
        "every move has the server's clock"
    );
    let pgn = rochade::pgn::write_pgn(record);
    for part in [
        "[White \"BlindPlayer\"]",
        "[Black \"Sighted\"]",
        "[WhiteElo \"1580\"]",
        "[BlackElo \"1622\"]",
        "[TimeControl \"600+5\"]",
        "[Result \"0-1\"]",
        "[%clk ",
    ] {
        assert!(pgn.contains(part), "{part} in\n{pgn}");
    }
    // The opponent's moves were guided on the peg-board and found there.
    let matches = gui
        .spoken()
        .iter()
        .filter(|s| s.contains("Board matches"))
        .count();
    assert!(matches >= 40, "guidance: {:?}", gui.spoken());
    // The token: in the token file only, readable by the user alone.
    let holders = files_containing(config_dir(), TOKEN);
    let token_file = config_dir().join("lichess-token");
    assert_eq!(holders, vec![token_file.clone()]);
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&token_file).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o600);
    }
    assert!(!gui.spoken().iter().any(|s| s.contains(TOKEN)));
    assert!(!format!("{:?}", gui.app().settings()).contains(TOKEN));
}

#[test]
fn a_challenge_is_said_declined_then_accepted_by_typing_and_the_game_aborted_from_the_menu() {
    let script = Script {
        moves: game_moves(),
        account_white: true,
        challenge_first: true,
        ..Script::default()
    };
    let server = Server::start(TOKEN, script);
    config_dir();
    let mut s = settings(Lang::En);
    s.online.server = server.url();
    s.online.find = OnlineFind::Wait;
    let mut gui = start_with(s, |_| {});
    paste_token_and_connect(&mut gui, TOKEN);
    gui.run_until("the challenge said", |g| {
        said_any(
            g,
            "Challenge from Sighted, rating 1622: 10+5. Type yes to accept, no to decline",
        )
    });
    gui.type_move_unsaved("no");
    gui.run_until("the second challenge", |g| {
        said_any(g, "Challenge from Second, rating 1712: 15+10")
    });
    assert!(said_any(&gui, "Challenge declined"));
    gui.type_move_unsaved("yes");
    gui.run_until("the game", |g| g.app().online_colour().is_some());
    // The clocks are the server's: never "paused" (nor the local
    // settings' "untimed") while the server's run.
    gui.run_until("the server's clocks", |g| {
        g.shows("White to move (server clock)")
    });
    assert!(!gui.shows_part("(paused)") && !gui.shows_part("(untimed)"));
    assert!(gui.shows_part("10:00"), "the server's time");
    // The Online menu's items do what the typed words do.
    gui.harness.get_by_label("Online").click();
    gui.harness.run();
    gui.harness.get_by_label("Abort the game").click();
    gui.harness.run();
    gui.run_until("the abort", |g| said_any(g, "Game aborted"));
    // The game over, the connection ends with it: nothing more is said of
    // the server (issue 51: "Connection to the server lost ...
    // Reconnecting" came after the end) ...
    gui.run_until("the connection closed", |g| !g.app().online_active());
    for _ in 0..20 {
        gui.advance(100);
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let after_end: Vec<String> = gui
        .spoken()
        .into_iter()
        .skip_while(|s| !s.contains("Game aborted"))
        .collect();
    assert!(
        !after_end.iter().any(|s| s.contains("Connection")),
        "{after_end:?}"
    );
    assert!(!gui.shows_part("Reconnecting"), "the panel");
    // ... and the next game, here, is a game of its own: none of the
    // online game's tags.
    gui.press_with(Modifiers::COMMAND, Key::N);
    gui.press(Key::Y);
    let pgn = rochade::pgn::write_pgn(gui.app().session().record());
    for online in [
        "Rch8Test",
        "Sighted",
        "TimeControl",
        "Elo",
        "Casual",
        "Rated",
    ] {
        assert!(!pgn.contains(online), "{online} in\n{pgn}");
    }
    let paths: Vec<String> = server.requests().into_iter().map(|(_, p, _)| p).collect();
    for path in [
        "/api/challenge/Chal1234/decline",
        "/api/challenge/Chal2345/accept",
        "/api/board/game/Rch8Test/abort",
    ] {
        assert!(paths.iter().any(|p| p == path), "{path} in {paths:?}");
    }
    assert!(!paths.iter().any(|p| p == "/api/challenge/Chal1234/accept"));
}

#[test]
fn nothing_of_the_server_is_said_after_the_end_while_the_game_is_being_saved() {
    // Issue 51: on a disk that takes its time, the end waited for its save
    // while the game's stream, ended by the server with the game, was
    // still followed: "Connection to the server lost ... Reconnecting"
    // came after the result.
    let script = Script {
        moves: game_moves(),
        account_white: true,
        ..Script::default()
    };
    let server = Server::start(TOKEN, script);
    config_dir();
    let mut s = settings(Lang::En);
    s.online.server = server.url();
    s.online.find = OnlineFind::Ai;
    let mut gui = start_with(s, |o| {
        o.saver = Some(Box::new(|_| {
            std::thread::sleep(std::time::Duration::from_millis(300));
            Ok(())
        }))
    });
    connect(&mut gui, TOKEN);
    gui.harness.get_by_label("Online").click();
    gui.harness.run();
    gui.harness.get_by_label("Abort the game").click();
    gui.harness.run();
    gui.run_until("the abort", |g| said_any(g, "Game aborted"));
    gui.run_until("the connection closed", |g| !g.app().online_active());
    for _ in 0..20 {
        gui.advance(100);
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    gui.settle_saves();
    let after_end: Vec<String> = gui
        .spoken()
        .into_iter()
        .skip_while(|s| !s.contains("Game aborted"))
        .collect();
    assert!(
        !after_end.iter().any(|s| s.contains("Connection")),
        "{after_end:?}"
    );
    assert!(!gui.shows_part("Reconnecting"), "the panel");
}

#[test]
fn a_wrong_token_is_said_as_refused_and_never_shown() {
    let server = Server::start(TOKEN, Script::default());
    let mut gui = start_app(&server);
    let wrong = "lip_WrongToken42";
    paste_token_and_connect(&mut gui, wrong);
    gui.run_until("the refusal", |g| {
        said_any(g, "Server error: the server refused the token (401)")
    });
    gui.run_until("the panel", |g| g.shows_part("Online: not connected"));
    assert!(!gui.app().online_active());
    assert!(!gui.spoken().iter().any(|s| s.contains(wrong)));
    assert!(
        gui.harness
            .query_all_by_label_contains("WrongToken")
            .next()
            .is_none(),
        "the token is on no label"
    );
}

#[test]
fn a_local_game_in_progress_is_exported_before_the_online_game_replaces_it() {
    let script = Script {
        moves: game_moves(),
        account_white: true,
        ..Script::default()
    };
    let server = Server::start(TOKEN, script);
    let mut gui = start_app(&server);
    gui.type_move("Nf3");
    gui.type_move("d5");
    connect(&mut gui, TOKEN);
    gui.run_until("the export said", |g| said_any(g, "Saved: "));
    assert!(
        gui.app().session().record().moves().is_empty(),
        "the online game"
    );
    let exports = config_dir().join("data").join("exports");
    let kept = std::fs::read_dir(&exports)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "pgn"))
        .any(|p| {
            let text = std::fs::read_to_string(&p).unwrap();
            text.contains("1. Nf3 d5")
        });
    assert!(kept, "the local game is in {}", exports.display());
}

/// Runs frames with the window's clock going on (the controller's
/// deadlines are in the window's time) until `done`; false after 20 s.
fn run_with_time(gui: &mut Gui, done: impl Fn(&Gui) -> bool) -> bool {
    let end = std::time::Instant::now() + std::time::Duration::from_secs(20);
    while !done(gui) {
        if std::time::Instant::now() > end {
            return false;
        }
        gui.advance(20);
    }
    true
}

/// Random games in the window against the server with the faults of a
/// real one (issue 32; the terminal plays many more in
/// tests/online_property.rs): every game ends, the record equals the
/// server's, no move is taken back or refused (so each was played, and
/// announced, once), missed moves are said as such.
#[test]
fn random_games_with_the_faults_of_a_real_server_in_the_window() {
    let started = std::time::Instant::now();
    let mut drops = 0;
    let mut restarts = 0;
    let mut withheld = 0;
    let mut chats = 0;
    const GAMES: u64 = 16;
    for seed in 0..GAMES {
        let white = seed.is_multiple_of(2);
        let moves: Vec<String> = game_moves()[..8 + (seed % 5) as usize].to_vec();
        let script = Script {
            moves: moves.clone(),
            account_white: white,
            seed: 500 + seed,
            reply_delay_ms: (0, 150),
            chunking: Chunking::Mixed,
            faults: Faults {
                chat: 25,
                offer: 5,
                repeat: 10,
                drop: 12,
                withhold: 10,
                restart: 4,
            },
            outage_ms: 120,
            gone_after_restart: (seed % 2) as usize,
            ..Script::default()
        };
        let server = Server::start(TOKEN, script);
        config_dir();
        let mut s = settings(Lang::En);
        s.game.mode = Mode::Practice;
        s.online.server = server.url();
        s.online.find = OnlineFind::Ai;
        let mut gui = start_with(s, |_| {});
        connect(&mut gui, TOKEN);
        for ply in 0..moves.len() {
            if ply.is_multiple_of(2) == white {
                gui.type_move_unsaved(&moves[ply]);
            }
            let arrived = run_with_time(&mut gui, |g| record_uci(g).len() > ply);
            assert!(
                arrived,
                "game {seed}, ply {ply} never came; the server has {:?}; said: {:?}",
                server.moves(),
                gui.app().spoken()
            );
            // The reply may have come in the same frames as our move.
            let record = record_uci(&gui);
            assert_eq!(record[..=ply], moves[..=ply], "game {seed}");
            assert!(record.len() <= ply + 2, "game {seed}: {record:?}");
        }
        // The player's side kept with the settings, the game's own tags
        // (its address, its clock) kept on the scoresheet.
        let me = if white { Color::White } else { Color::Black };
        assert_eq!(gui.app().session().config().blind_side, me, "game {seed}");
        assert_eq!(gui.app().settings().game.blind_side.color(), me);
        let tags = &gui.app().session().record().tags;
        assert!(
            tags.site.starts_with(&server.url()),
            "game {seed}: {tags:?}"
        );
        assert!(tags.time_control.is_some(), "game {seed}: {tags:?}");
        // The last move may still be on its way (its request lost with
        // the network, sent again once the game is read again).
        assert!(
            run_with_time(&mut gui, |_| server.moves() == moves),
            "game {seed}: the server never got the last move"
        );
        // Resigned (twice pressed); a resignation lost with the network
        // (said so) is resigned again, as a player would.
        let mut ended = false;
        for _ in 0..5 {
            gui.press_with(Modifiers::COMMAND | Modifiers::SHIFT, Key::R);
            gui.press_with(Modifiers::COMMAND | Modifiers::SHIFT, Key::R);
            let end = std::time::Instant::now() + std::time::Duration::from_secs(3);
            ended = run_with_time(&mut gui, |g| {
                g.app().session().record().is_over() || std::time::Instant::now() > end
            }) && gui.app().session().record().is_over();
            if ended {
                break;
            }
        }
        assert!(
            ended,
            "game {seed}: the end; said: {:?}",
            gui.app().spoken()
        );
        assert_eq!(server.moves(), moves, "game {seed}");
        assert_eq!(record_uci(&gui), moves, "game {seed}");
        let spoken = gui.spoken();
        for never in ["Move not accepted", "Taken back", "was not played"] {
            assert!(
                !spoken.iter().any(|s| s.contains(never)),
                "game {seed}: {never} in {spoken:?}"
            );
        }
        let injected = server.injected();
        drops += injected.drops;
        restarts += injected.restarts;
        withheld += injected.withheld;
        chats += injected.chats;
    }
    eprintln!(
        "window: {GAMES} games in {:.1} s; {drops} drops, {restarts} restarts, {withheld} states \
         withheld, {chats} chat lines next to moves",
        started.elapsed().as_secs_f64()
    );
    assert!(drops + restarts + withheld > 3, "faults were drawn");
}

#[test]
fn asking_before_resigning_is_a_checkbox_of_the_online_dialog_kept_with_the_settings() {
    let server = Server::start(TOKEN, Script::default());
    let mut gui = start_app(&server);
    assert!(gui.app().settings().online.confirm, "on by default");
    gui.press_with(Modifiers::COMMAND | Modifiers::SHIFT, Key::O);
    gui.harness
        .get_by_role_and_label(Role::CheckBox, "Ask before resigning or offering a draw")
        .click();
    gui.harness.run();
    let label = "Personal API token (scope board:play)";
    gui.harness
        .get_by_role_and_label(Role::PasswordInput, label)
        .focus();
    gui.harness.run();
    gui.harness
        .get_by_role_and_label(Role::PasswordInput, label)
        .type_text("lip_WrongToken42");
    gui.harness.run();
    gui.harness.get_by_label("Connect").click();
    gui.harness.run();
    gui.run_until("the refusal", |g| {
        said_any(g, "Server error: the server refused the token (401)")
    });
    assert!(!gui.app().settings().online.confirm, "kept off");
}
