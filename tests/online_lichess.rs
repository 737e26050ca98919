//! `rochade online --json` against a local server that speaks the Lichess
//! Board API (tests/support/lichess_server.rs): the real HTTP client, the
//! real streams; only the server is scripted.
//!
//! The main test plays a 42-move game with captures, castling and a
//! promotion; the opponent offers a draw (declined), our draw offer is
//! declined, a move is refused once, the game stream drops while the
//! opponent moves (and reconnection is refused twice), a chat line
//! arrives; we resign at the end. The record (PGN and move events) equals
//! the server's; the token appears in no output and no file.

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::Duration;

#[path = "support/board_sim.rs"]
mod board_sim;
#[path = "support/hermetic.rs"]
mod hermetic;
#[path = "support/lichess_server.rs"]
mod lichess_server;
#[path = "support/millennium_hands.rs"]
mod millennium_hands;
#[path = "support/millennium_pty.rs"]
mod millennium_pty;
#[path = "support/move_event.rs"]
mod move_event;

use lichess_server::{Script, Server, game_moves};
use serde_json::Value;

const TOKEN: &str = "lip_TestToken0123456789abcdef";

/// No test waits longer than this for a line.
const LINE_TIMEOUT: Duration = Duration::from_secs(30);

struct Rochade {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    /// Every stdout line so far.
    seen: Vec<String>,
    config: std::path::PathBuf,
    stderr: std::thread::JoinHandle<String>,
}

impl Rochade {
    fn start(server: &Server, token: &str, extra: &[&str], pgn: &Path) -> Rochade {
        let config = hermetic::private_dir("online-config");
        Rochade::start_in(server, Some(token), config, extra, pgn)
    }

    /// With this config folder; the token from the environment, or (None)
    /// from the stored file.
    fn start_in(
        server: &Server,
        token: Option<&str>,
        config: std::path::PathBuf,
        extra: &[&str],
        pgn: &Path,
    ) -> Rochade {
        let url = server.url();
        let mut args = vec![
            "online",
            "--server",
            url.as_str(),
            "--json",
            "--quiet",
            "--lang",
            "en",
            "--backoff-ms",
            "50",
            "--rate-limit-wait-ms",
            "50",
            "--stream-timeout-ms",
            "3000",
            "--pgn",
        ];
        args.push(pgn.to_str().unwrap());
        args.extend(extra);
        let mut command = hermetic::rochade();
        command
            .env("ROCHADE_CONFIG_DIR", &config)
            // Never the developer's own secret store.
            .env("ROCHADE_SECRET_STORE", "file");
        match token {
            Some(token) => command.env("ROCHADE_LICHESS_TOKEN", token),
            None => command.env_remove("ROCHADE_LICHESS_TOKEN"),
        };
        let mut child = command
            .args(&args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("rochade runs");
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let stderr = child.stderr.take().unwrap();
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let stderr = std::thread::spawn(move || {
            let mut text = String::new();
            for line in BufReader::new(stderr).lines().map_while(Result::ok) {
                text.push_str(&line);
                text.push('\n');
            }
            text
        });
        Rochade {
            child,
            stdin,
            lines,
            seen: Vec::new(),
            config,
            stderr,
        }
    }

    /// The next JSON event; panics (with what was seen) after the timeout
    /// or at the end of the output.
    fn next(&mut self) -> Value {
        match self.lines.recv_timeout(LINE_TIMEOUT) {
            Ok(line) => {
                self.seen.push(line.clone());
                serde_json::from_str(&line).unwrap_or_else(|e| panic!("{e}: {line}"))
            }
            Err(e) => panic!("no event ({e}); seen:\n{}", self.seen.join("\n")),
        }
    }

    /// Reads events until one of `event` (returned).
    fn until(&mut self, event: &str) -> Value {
        loop {
            let v = self.next();
            if v["event"] == event {
                return v;
            }
        }
    }

    fn type_line(&mut self, text: &str) {
        writeln!(self.stdin, "{text}").expect("rochade reads stdin");
        self.stdin.flush().unwrap();
    }

    /// Waits for the process to end; its exit code and stderr.
    fn finish(mut self) -> (i32, Vec<String>, String) {
        drop(self.stdin);
        while let Ok(line) = self.lines.recv_timeout(LINE_TIMEOUT) {
            self.seen.push(line);
        }
        let status = self.child.wait().unwrap();
        let stderr = self.stderr.join().unwrap();
        (status.code().unwrap_or(-1), self.seen, stderr)
    }
}

/// No file under `dir` holds the token.
fn assert_no_token_in(dir: &Path) {
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let path = entry.path();
        if path.is_dir() {
            assert_no_token_in(&path);
        } else if let Ok(bytes) = std::fs::read(&path) {
            assert!(
                !String::from_utf8_lossy(&bytes).contains(TOKEN),
                "the token is in {}",
                path.display()
            );
        }
    }
}

/// The SAN moves of a PGN's movetext, as UCI, replayed from the start.
fn pgn_moves_as_uci(pgn: &str) -> Vec<String> {
    let record = rochade::pgn::read_pgn(pgn, 0).expect("the saved PGN reads back");
    record
        .moves()
        .iter()
        .map(|m| m.mv.to_uci(shakmaty::CastlingMode::Standard).to_string())
        .collect()
}

#[test]
fn a_whole_game_with_offers_a_refused_move_a_drop_and_a_resignation() {
    let moves: Vec<String> = game_moves();
    assert_eq!(moves.len(), 84);
    let script = Script {
        moves: moves.clone(),
        account_white: true,
        opponent_offers_draw_at: Some(21),
        refuse_once_at: Some(30), // e1g1, castling
        drop_after: Some(50),
        reconnect_refusals: 2,
        chat_at: Some((11, "Good luck, have fun".into())),
        ..Script::default()
    };
    let server = Server::start(TOKEN, script);
    let dir = hermetic::private_dir("online-game");
    let pgn = dir.join("game.pgn");
    let mut r = Rochade::start(&server, TOKEN, &["--ai", "3"], &pgn);

    let game = r.until("game");
    assert_eq!(game["color"], "white");
    assert_eq!(game["black"], "Sighted");
    assert_eq!(game["black_rating"], 1622);

    let mut announced: Vec<String> = Vec::new();
    let mut refused = false;
    let mut offer_declined_by_us = false;
    let mut lost = false;
    let mut back = false;
    let mut chat_read = false;
    let mut ply = 0;
    // Our move at each even ply; read events until the opponent's reply.
    while ply < moves.len() {
        if ply == 44 {
            // A takeback request, declined; a chat line written; a claim
            // the server refuses (the opponent is still there).
            r.type_line("takeback");
            let v = r.until("offer_declined");
            assert_eq!(v["what"], "takeback");
            r.type_line("chat Hello, good game");
            r.type_line("claim");
            let e = r.until("error");
            assert!(e["reason"].as_str().unwrap().contains("still here"), "{e}");
        }
        if ply == 40 {
            // Our own draw offer (asked first, then confirmed), declined
            // by the opponent.
            r.type_line("draw");
            loop {
                let v = r.until("say");
                if v["text"] == "Offer a draw? Yes or no" {
                    break;
                }
            }
            r.type_line("yes");
            let v = r.until("offer_declined");
            assert_eq!(v["what"], "draw");
            offer_declined_by_us = true;
        }
        r.type_line(&moves[ply]);
        // Our move comes back as a move event by the player.
        let v = r.until("move");
        assert_eq!(v["by"], "player", "{v}");
        assert_eq!(v["source"], "keyboard", "typed: {v}");
        assert_eq!(v["uci"], moves[ply]);
        if ply == 30 && !refused {
            let e = r.until("error");
            assert!(
                e["reason"].as_str().unwrap().contains("Not your turn"),
                "{e}"
            );
            refused = true;
            continue; // typed again: accepted the second time
        }
        announced.push(moves[ply].clone());
        ply += 1;
        if ply == moves.len() {
            break;
        }
        // The opponent's reply (after a drop: once reconnected).
        loop {
            let v = r.next();
            match v["event"].as_str().unwrap() {
                "move" => {
                    assert_eq!(v["by"], "opponent", "{v}");
                    assert_eq!(v["source"], "server", "brought by the server: {v}");
                    assert_eq!(v["uci"], moves[ply], "{v}");
                    assert!(!v["announcement"].as_str().unwrap().is_empty());
                    break;
                }
                "connection" if v["state"] == "lost" => lost = true,
                "connection" if v["state"] == "back" => back = true,
                "error" => panic!("unexpected error {v}; seen:\n{}", r.seen.join("\n")),
                _ => {}
            }
        }
        announced.push(moves[ply].clone());
        ply += 1;
        if ply == 22 {
            let v = r.until("offer");
            assert_eq!(v["what"], "draw");
            assert_eq!(v["by"], "opponent");
            r.type_line("no");
        }
        if ply == 12 {
            r.until("chat");
            r.type_line("chat");
            loop {
                let said = r.until("say");
                if said["text"] == "Sighted writes: Good luck, have fun" {
                    break;
                }
            }
            chat_read = true;
        }
    }
    assert!(refused && offer_declined_by_us && lost && back && chat_read);
    // The last move was the opponent's: we resign (asked first: no keeps
    // the game, yes resigns).
    r.type_line("resign");
    r.type_line("no");
    r.type_line("resign");
    r.type_line("yes");
    let end = r.until("end");
    assert_eq!(end["result"], "0-1");
    assert_eq!(end["reason"], "resignation");
    let config = r.config.clone();
    let (code, out, stderr) = r.finish();
    assert_eq!(code, 0, "stderr: {stderr}");

    // The record equals the server's.
    assert_eq!(server.moves(), moves);
    assert_eq!(announced, moves);
    let text = std::fs::read_to_string(&pgn).unwrap();
    assert_eq!(pgn_moves_as_uci(&text), moves);
    for tag in [
        "[White \"BlindPlayer\"]",
        "[Black \"Sighted\"]",
        "[WhiteElo \"1580\"]",
        "[BlackElo \"1622\"]",
        "[Result \"0-1\"]",
        "[TimeControl \"600+5\"]",
        "%clk",
    ] {
        assert!(text.contains(tag), "{tag} missing in\n{text}");
    }
    assert!(
        text.contains(&format!("[Site \"{}/Rch8Test\"]", server.url())),
        "{text}"
    );
    // The saved game exports to Braille like any other.
    let braille = hermetic::rochade()
        .args(["export", "--to", "unicode", pgn.to_str().unwrap()])
        .output()
        .expect("rochade export runs");
    assert!(braille.status.success(), "{braille:?}");
    let braille = String::from_utf8(braille.stdout).unwrap();
    assert!(
        braille
            .chars()
            .any(|c| ('\u{2800}'..='\u{28ff}').contains(&c)),
        "{braille}"
    );
    assert!(!braille.contains(TOKEN));

    // The endpoints used, each once at least.
    let requests = server.requests();
    for (method, path) in [
        ("GET", "/api/account"),
        ("GET", "/api/stream/event"),
        ("POST", "/api/challenge/ai"),
        ("GET", "/api/board/game/stream/Rch8Test"),
        ("POST", "/api/board/game/Rch8Test/move/e1g1"),
        ("POST", "/api/board/game/Rch8Test/draw/yes"),
        ("POST", "/api/board/game/Rch8Test/draw/no"),
        ("POST", "/api/board/game/Rch8Test/resign"),
        ("POST", "/api/board/game/Rch8Test/takeback/yes"),
        ("POST", "/api/board/game/Rch8Test/claim-victory"),
        ("POST", "/api/board/game/Rch8Test/chat"),
    ] {
        assert!(
            requests.iter().any(|(m, p, _)| m == method && p == path),
            "{method} {path} never requested"
        );
    }
    let chat = requests
        .iter()
        .find(|(_, p, _)| p.ends_with("/chat"))
        .unwrap();
    assert_eq!(chat.2, "room=player&text=Hello%2C+good+game");
    let ai = requests
        .iter()
        .find(|(_, p, _)| p == "/api/challenge/ai")
        .unwrap();
    assert!(
        ai.2.contains("level=3") && ai.2.contains("clock.limit=600"),
        "{ai:?}"
    );
    // Three openings of the game stream: first, two refused, one accepted.
    let opened = requests
        .iter()
        .filter(|(_, p, _)| p == "/api/board/game/stream/Rch8Test")
        .count();
    assert_eq!(opened, 4);

    // The token: nowhere but in the environment it came from.
    assert!(!out.join("\n").contains(TOKEN));
    assert!(!stderr.contains(TOKEN));
    assert_no_token_in(&dir);
    assert_no_token_in(&config);
}

#[test]
fn a_wrong_token_is_refused_and_never_printed() {
    let server = Server::start(TOKEN, Script::default());
    let dir = hermetic::private_dir("online-401");
    let wrong = "lip_WrongToken9876543210";
    let r = Rochade::start(&server, wrong, &["--ai", "1"], &dir.join("g.pgn"));
    let (code, out, stderr) = r.finish();
    assert_eq!(code, 1, "stderr: {stderr}");
    let error: Value = out
        .iter()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .find(|v| v["event"] == "error")
        .expect("an error line");
    assert_eq!(error["event"], "error");
    assert!(error["reason"].as_str().unwrap().contains("401"), "{error}");
    assert!(stderr.contains("401"), "{stderr}");
    for text in [out.join("\n"), stderr] {
        assert!(!text.contains(wrong) && !text.contains(TOKEN), "{text}");
    }
    assert!(!dir.join("g.pgn").exists());
}

#[test]
fn too_many_requests_waits_and_retries_then_a_challenge_is_accepted_and_aborted() {
    let script = Script {
        moves: game_moves(),
        account_white: true,
        rate_limit_account: 1,
        challenge_first: true,
        ..Script::default()
    };
    let server = Server::start(TOKEN, script);
    let dir = hermetic::private_dir("online-429");
    let mut r = Rochade::start(&server, TOKEN, &["--accept"], &dir.join("g.pgn"));
    let e = r.until("error");
    assert!(e["reason"].as_str().unwrap().contains("429"), "{e}");
    let c = r.until("challenge");
    assert_eq!(c["time"], "10+5");
    assert!(c["from"].as_str().unwrap().contains("Sighted"), "{c}");
    r.until("game");
    r.type_line("abort");
    let end = r.until("end");
    assert_eq!(end["result"], "*");
    assert_eq!(end["reason"], "aborted");
    let (code, out, stderr) = r.finish();
    assert_eq!(code, 0, "{stderr}");
    assert!(!out.join("\n").contains(TOKEN) && !stderr.contains(TOKEN));
    let requests = server.requests();
    let accounts = requests
        .iter()
        .filter(|(_, p, _)| p == "/api/account")
        .count();
    assert_eq!(accounts, 2, "one 429, then the retry");
    assert!(
        requests
            .iter()
            .any(|(_, p, _)| p == "/api/challenge/Chal1234/accept")
    );
    assert!(
        requests
            .iter()
            .any(|(_, p, _)| p == "/api/board/game/Rch8Test/abort")
    );
}

#[test]
fn a_seek_finds_a_game_and_black_waits_for_the_first_move() {
    let script = Script {
        moves: game_moves(),
        account_white: false,
        ..Script::default()
    };
    let server = Server::start(TOKEN, script);
    let dir = hermetic::private_dir("online-seek");
    let mut r = Rochade::start(&server, TOKEN, &["--seek", "10+5"], &dir.join("g.pgn"));
    let game = r.until("game");
    assert_eq!(game["color"], "black");
    let first = r.until("move");
    assert_eq!(first["by"], "opponent");
    assert_eq!(first["uci"], "a2a3");
    move_event::assert_move_keys(&first);
    r.type_line("d7d5");
    let mine = r.until("move");
    assert_eq!(mine["by"], "player");
    move_event::assert_move_keys(&mine);
    let reply = r.until("move");
    assert_eq!(reply["uci"], "b2b3");
    r.type_line("resign");
    r.type_line("yes");
    let end = r.until("end");
    assert_eq!(end["result"], "1-0");
    let (code, _, stderr) = r.finish();
    assert_eq!(code, 0, "{stderr}");
    let seek = server
        .requests()
        .into_iter()
        .find(|(_, p, _)| p == "/api/board/seek")
        .expect("a seek");
    assert!(
        seek.2.contains("time=10") && seek.2.contains("increment=5"),
        "{seek:?}"
    );
    assert_eq!(server.moves(), vec!["a2a3", "d7d5", "b2b3"]);
}

/// The peg-board commands that execute `uci` (castling: king, then rook;
/// promotion: the pawn, then the piece chosen).
fn on_board(uci: &str) -> Vec<String> {
    let (from, to) = (&uci[..2], &uci[2..4]);
    let mut steps = vec![format!("move {from} {to}")];
    if let Some((rook_from, rook_to)) = lichess_server::castling_rook(uci) {
        steps.push(format!("move {rook_from} {rook_to}"));
    }
    if uci.len() == 5 {
        steps.push(format!("promote {to} {}", &uci[4..]));
    }
    steps
}

#[test]
fn the_whole_game_on_the_peg_board_simulator() {
    let moves: Vec<String> = game_moves();
    let script = Script {
        moves: moves.clone(),
        account_white: true,
        opponent_offers_draw_at: Some(21),
        drop_after: Some(20),
        reconnect_refusals: 1,
        ..Script::default()
    };
    let server = Server::start(TOKEN, script);
    let dir = hermetic::private_dir("online-board");
    let pgn = dir.join("game.pgn");
    let mut sim = board_sim::Sim::start(&[]);
    let device = sim.device.clone();
    let mut r = Rochade::start(&server, TOKEN, &["--ai", "2", "--board", &device], &pgn);
    r.until("game");
    let mut ply = 0;
    while ply < moves.len() {
        // Our move, executed on the board.
        for step in on_board(&moves[ply]) {
            sim.say(&step);
        }
        let v = r.until("move");
        assert_eq!(v["by"], "player", "{v}; seen:\n{}", r.seen.join("\n"));
        assert_eq!(v["uci"], moves[ply]);
        ply += 1;
        if ply == moves.len() {
            break;
        }
        // The opponent's, from the server, then executed on the board.
        let v = r.until("move");
        assert_eq!(v["by"], "opponent", "{v}");
        assert_eq!(v["uci"], moves[ply]);
        for step in on_board(&moves[ply]) {
            sim.say(&step);
        }
        ply += 1;
        if ply == 22 {
            // The opponent's draw offer with his move: declined.
            let v = r.until("offer");
            assert_eq!(v["what"], "draw");
            r.type_line("no");
        }
    }
    r.type_line("resign");
    r.type_line("yes");
    let end = r.until("end");
    assert_eq!(end["result"], "0-1");
    let (code, out, stderr) = r.finish();
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(server.moves(), moves);
    assert_eq!(
        pgn_moves_as_uci(&std::fs::read_to_string(&pgn).unwrap()),
        moves
    );
    let text = out.join("\n");
    assert!(!text.contains(TOKEN) && !stderr.contains(TOKEN));
    assert!(text.contains("\"state\":\"back\""), "the reconnection");
    assert!(
        server
            .requests()
            .iter()
            .any(|(_, p, _)| p == "/api/board/game/Rch8Test/draw/no"),
        "the draw offer declined"
    );
    // The opponent's moves were guided on the board and found there.
    assert!(
        text.matches("Board matches").count() >= 10,
        "guidance: {text}"
    );
    sim.quit();
}

/// Issue 52's third stall: a peg-board still holding an earlier game's
/// pieces (1. e4 e5 2. Nf3 Nc6) when an online game starts, the player
/// Black. The server's moves are the opponent's, announced from the
/// server only; the board plays no move of either side until it shows
/// the game (set up as guided), then every move the player makes on it
/// is his, announced and posted. The whole game ends with the server's
/// record equal to it.
#[test]
fn a_board_left_from_an_earlier_game_plays_for_neither_side_then_every_move_is_posted() {
    let moves: Vec<String> = game_moves()[..24].to_vec();
    let script = Script {
        moves: moves.clone(),
        account_white: false,
        ..Script::default()
    };
    let server = Server::start(TOKEN, script);
    let dir = hermetic::private_dir("online-stale-board");
    let pgn = dir.join("game.pgn");
    let mut sim = board_sim::Sim::start(&[]);
    for step in ["move e2 e4", "move e7 e5", "move g1 f3", "move b8 c6"] {
        sim.say(step);
    }
    let device = sim.device.clone();
    let mut r = Rochade::start(&server, TOKEN, &["--ai", "2", "--board", &device], &pgn);
    r.until("game");
    // White's first move comes from the server, whatever the board shows.
    let v = r.until("move");
    assert_eq!(
        (v["by"].as_str(), v["source"].as_str(), v["uci"].as_str()),
        (Some("opponent"), Some("server"), Some(moves[0].as_str())),
        "seen:\n{}",
        r.seen.join("\n")
    );
    // The earlier game's pieces put back, then White's move carried out.
    for step in ["move c6 b8", "move f3 g1", "move e5 e7", "move e4 e2"] {
        sim.say(step);
    }
    for step in on_board(&moves[0]) {
        sim.say(&step);
    }
    let mut ply = 1;
    while ply < moves.len() {
        // Ours, on the board: read, announced and posted.
        for step in on_board(&moves[ply]) {
            sim.say(&step);
        }
        let v = r.until("move");
        assert_eq!(
            (v["by"].as_str(), v["source"].as_str(), v["uci"].as_str()),
            (Some("player"), Some("peg_board"), Some(moves[ply].as_str())),
            "ply {ply}; seen:\n{}",
            r.seen.join("\n")
        );
        ply += 1;
        if ply == moves.len() {
            break;
        }
        // The opponent's, from the server only, then carried out.
        let v = r.until("move");
        assert_eq!(
            (v["by"].as_str(), v["source"].as_str(), v["uci"].as_str()),
            (Some("opponent"), Some("server"), Some(moves[ply].as_str())),
            "ply {ply}; seen:\n{}",
            r.seen.join("\n")
        );
        for step in on_board(&moves[ply]) {
            sim.say(&step);
        }
        ply += 1;
    }
    r.type_line("resign");
    r.type_line("yes");
    r.until("end");
    let (code, out, stderr) = r.finish();
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(server.moves(), moves, "the server's record");
    let text = out.join("\n");
    assert!(!text.contains("\"takeback\""), "nothing taken back: {text}");
    sim.quit();
}

/// `--format dgt`: the player's own board is a DGT e-board (`rochade
/// board-sim --format dgt` on a pseudo-terminal), read through the
/// session's e-board seat as the window's "My board". Each of our moves
/// is made on it and reaches the server; each of the opponent's, from
/// the server, is made on it at once, our next move following at typing
/// pace; castling king first, the promotion's pawn replaced by the queen.
#[test]
fn the_whole_game_on_a_dgt_board_as_the_players_own() {
    let moves: Vec<String> = game_moves();
    let script = Script {
        moves: moves.clone(),
        account_white: true,
        drop_after: Some(30),
        ..Script::default()
    };
    let server = Server::start(TOKEN, script);
    let dir = hermetic::private_dir("online-dgt");
    let pgn = dir.join("game.pgn");
    let mut sim = board_sim::Sim::start(&["--format", "dgt"]);
    let device = sim.device.clone();
    let mut r = Rochade::start(
        &server,
        TOKEN,
        &["--ai", "2", "--board", &device, "--format", "dgt"],
        &pgn,
    );
    r.until("game");
    for (ply, mv) in moves.iter().enumerate() {
        let ours = ply % 2 == 0;
        if ours {
            for step in on_board(mv) {
                sim.say(&step);
            }
        }
        let v = r.until("move");
        let want = if ours {
            ("player", "e_board")
        } else {
            ("opponent", "server")
        };
        assert_eq!(
            (v["by"].as_str(), v["source"].as_str(), v["uci"].as_str()),
            (Some(want.0), Some(want.1), Some(mv.as_str())),
            "ply {ply}; seen:\n{}",
            r.seen.join("\n")
        );
        if !ours {
            for step in on_board(mv) {
                sim.say(&step);
            }
        }
    }
    r.type_line("resign");
    r.type_line("yes");
    let end = r.until("end");
    assert_eq!(end["result"], "0-1", "{end}");
    let (code, out, stderr) = r.finish();
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(
        server.moves(),
        moves,
        "every move made on the board was sent"
    );
    assert_eq!(
        pgn_moves_as_uci(&std::fs::read_to_string(&pgn).unwrap()),
        moves
    );
    let text = out.join("\n");
    assert!(text.contains("\"state\":\"back\""), "the reconnection");
    assert!(
        !text.contains("Board fault"),
        "no move misread on the board: {text}"
    );
    sim.quit();
}

/// `--format millennium`: the player's own board is a Millennium
/// ChessLink (its emulator on a real pseudo-terminal). Each of our moves
/// made on it reaches the server; each of the opponent's, from the
/// server, is lit on its from- and to-square until it is made there, and
/// the board goes dark. Then we resign.
#[test]
fn on_a_millennium_board_our_moves_reach_the_server_and_the_opponents_are_lit() {
    use millennium_hands::{make, squares, until_lit};
    const PLIES: usize = 16;
    let moves: Vec<String> = game_moves();
    let script = Script {
        moves: moves.clone(),
        account_white: true,
        ..Script::default()
    };
    let server = Server::start(TOKEN, script);
    let dir = hermetic::private_dir("online-millennium");
    let board = millennium_pty::MillenniumPty::start();
    let args = [
        "--ai",
        "2",
        "--board",
        &board.device,
        "--format",
        "millennium",
    ];
    let mut r = Rochade::start(&server, TOKEN, &args, &dir.join("g.pgn"));
    r.until("game");
    let mut pos = shakmaty::Chess::default();
    for (ply, uci) in moves.iter().enumerate().take(PLIES) {
        let mv = uci
            .parse::<shakmaty::uci::UciMove>()
            .unwrap()
            .to_move(&pos)
            .unwrap();
        let ours = ply % 2 == 0;
        if ours {
            make(&board, &pos, &mv);
        }
        let v = r.until("move");
        assert_eq!(
            (v["by"].as_str(), v["uci"].as_str()),
            (
                Some(if ours { "player" } else { "opponent" }),
                Some(uci.as_str())
            ),
            "ply {ply}; seen:\n{}",
            r.seen.join("\n")
        );
        if !ours {
            until_lit(&board, squares(&mv), "the opponent's move to make");
            make(&board, &pos, &mv);
            until_lit(
                &board,
                shakmaty::Bitboard::EMPTY,
                "the opponent's move made",
            );
        }
        shakmaty::Position::play_unchecked(&mut pos, mv);
    }
    assert_eq!(server.moves(), moves[..PLIES], "every move made was sent");
    r.type_line("resign");
    r.type_line("yes");
    assert_eq!(r.until("end")["result"], "0-1");
    let (code, _, stderr) = r.finish();
    assert_eq!(code, 0, "{stderr}");
}

#[test]
fn a_stored_token_is_readable_by_the_user_only_and_used() {
    use std::os::unix::fs::PermissionsExt;
    let config = hermetic::private_dir("online-token");
    let out = hermetic::rochade()
        .env("ROCHADE_CONFIG_DIR", &config)
        .env("ROCHADE_SECRET_STORE", "file")
        .env_remove("ROCHADE_LICHESS_TOKEN")
        .args(["online", "--set-token"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .and_then(|mut child| {
            writeln!(child.stdin.take().unwrap(), "  {TOKEN}  ")?;
            child.wait_with_output()
        })
        .expect("rochade runs");
    assert!(out.status.success(), "{out:?}");
    let printed = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(!printed.contains(TOKEN), "{printed}");
    let file = config.join("lichess-token");
    assert_eq!(std::fs::read_to_string(&file).unwrap(), TOKEN);
    let mode = std::fs::metadata(&file).unwrap().permissions().mode();
    assert_eq!(mode & 0o777, 0o600, "{mode:o}");
    // Used without the environment variable.
    let script = Script {
        moves: game_moves(),
        account_white: true,
        ..Script::default()
    };
    let server = Server::start(TOKEN, script);
    let dir = hermetic::private_dir("online-token-game");
    let mut r = Rochade::start_in(&server, None, config, &["--ai", "1"], &dir.join("g.pgn"));
    r.until("game");
    r.type_line("abort");
    assert_eq!(r.until("end")["reason"], "aborted");
    let (code, out, stderr) = r.finish();
    assert_eq!(code, 0, "{stderr}");
    assert!(!out.join("\n").contains(TOKEN) && !stderr.contains(TOKEN));
}

#[test]
fn a_move_lost_with_the_network_is_sent_when_back_and_an_accepted_takeback_follows_the_server() {
    let moves: Vec<String> = game_moves();
    let script = Script {
        moves: moves.clone(),
        account_white: true,
        opponent_takeback_at: Some(5),
        lose_move_at: Some(10),
        reconnect_refusals: 1,
        ..Script::default()
    };
    let server = Server::start(TOKEN, script);
    let dir = hermetic::private_dir("online-offline");
    let pgn = dir.join("g.pgn");
    // Resigning without being asked first.
    let mut r = Rochade::start(&server, TOKEN, &["--ai", "4", "--no-confirm"], &pgn);
    r.until("game");
    let mut ply = 0;
    while ply < 14 {
        r.type_line(&moves[ply]);
        assert_eq!(r.until("move")["uci"], moves[ply]);
        if ply == 10 {
            // No answer: said, kept, sent again once the stream is back.
            // The request's error and the stream's drop come in either
            // order (the request is answered on a thread of its own).
            let (mut error, mut lost) = (false, false);
            loop {
                let v = r.next();
                match (v["event"].as_str().unwrap(), v["state"].as_str()) {
                    ("error", _) => {
                        assert!(
                            v["reason"].as_str().unwrap().contains("no connection"),
                            "{v}"
                        );
                        error = true;
                    }
                    ("connection", Some("lost")) => lost = true,
                    ("connection", Some("back")) => break,
                    _ => {}
                }
            }
            assert!(
                error && lost,
                "the error and the drop said before the return"
            );
        }
        ply += 1;
        let v = r.until("move");
        assert_eq!(
            (&v["by"], &v["uci"]),
            (&"opponent".into(), &moves[ply].clone().into()),
            "{v}"
        );
        if ply == 5 {
            // The opponent asks to take his move back; we agree: the record
            // follows the server (taken back, then played again).
            let offer = r.until("offer");
            assert_eq!(offer["what"], "takeback");
            r.type_line("yes");
            let t = r.until("takeback");
            assert_eq!(t["count"], 1);
            let again = r.until("move");
            assert_eq!(again["uci"], moves[5]);
        }
        ply += 1;
    }
    r.type_line("resign");
    r.until("end");
    let (code, _, stderr) = r.finish();
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(server.moves(), moves[..14].to_vec());
    assert_eq!(
        pgn_moves_as_uci(&std::fs::read_to_string(&pgn).unwrap()),
        moves[..14].to_vec()
    );
    let sent = server
        .requests()
        .iter()
        .filter(|(_, p, _)| p.ends_with(&format!("/move/{}", moves[10])))
        .count();
    assert_eq!(sent, 2, "lost once, sent again");
}

/// Plays `plies` of the game (we are White), reading the opponent's replies.
fn play_plies(r: &mut Rochade, moves: &[String], plies: usize) {
    for (ply, mv) in moves.iter().enumerate().take(plies) {
        if ply % 2 == 0 {
            r.type_line(mv);
        }
        let v = r.until("move");
        assert_eq!(v["uci"], *mv, "{v}");
    }
}

#[test]
fn the_opponents_draw_offer_accepted_ends_the_game_drawn() {
    let moves: Vec<String> = game_moves();
    let script = Script {
        moves: moves.clone(),
        account_white: true,
        opponent_offers_draw_at: Some(3),
        ..Script::default()
    };
    let server = Server::start(TOKEN, script);
    let dir = hermetic::private_dir("online-draw");
    let mut r = Rochade::start(&server, TOKEN, &["--ai", "5"], &dir.join("g.pgn"));
    r.until("game");
    play_plies(&mut r, &moves, 4);
    assert_eq!(r.until("offer")["what"], "draw");
    r.type_line("yes");
    let end = r.until("end");
    assert_eq!(
        (&end["result"], &end["reason"]),
        (&"1/2-1/2".into(), &"draw".into())
    );
    // The game is over, the command is not: a late `yes` stays here,
    // answered, and `quit` leaves (issue 51: it went to the shell).
    r.type_line("yes");
    while r.until("say")["text"] != "The game is over. Type quit to leave" {}
    r.type_line("quit");
    let (code, out, stderr) = r.finish();
    assert_eq!(code, 0, "{stderr}");
    assert!(
        !out.iter().any(|l| l.contains(r#""state":"lost""#)),
        "nothing of the server after the end: {out:?}"
    );
    assert_eq!(server.status(), ("draw".to_owned(), None));
    let text = std::fs::read_to_string(dir.join("g.pgn")).unwrap();
    assert!(text.contains("[Result \"1/2-1/2\"]"), "{text}");
}

/// Issue 51: a board port that does not exist is refused at once, as
/// `rochade track` refuses it, before anything is asked of the server.
#[test]
fn a_board_port_that_does_not_exist_is_refused_at_once() {
    let out = hermetic::rochade()
        .env("ROCHADE_SECRET_STORE", "file")
        .env("ROCHADE_LICHESS_TOKEN", TOKEN)
        .args([
            "online",
            "--server",
            "http://127.0.0.1:9",
            "--quiet",
            "--board",
            "/dev/ttyUSB-rochade-missing",
        ])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("no such port"), "{stderr}");
}

#[test]
fn the_opponent_gone_is_said_and_victory_claimed() {
    let moves: Vec<String> = game_moves();
    let script = Script {
        moves: moves.clone(),
        account_white: true,
        opponent_gone_at: Some(5),
        ..Script::default()
    };
    let server = Server::start(TOKEN, script);
    let dir = hermetic::private_dir("online-gone");
    let mut r = Rochade::start(&server, TOKEN, &["--ai", "6"], &dir.join("g.pgn"));
    r.until("game");
    play_plies(&mut r, &moves, 6);
    let gone = r.until("opponent_gone");
    assert_eq!(gone["gone"], true);
    let said = r.until("say");
    assert!(
        said["text"].as_str().unwrap().contains("claim victory now"),
        "{said}"
    );
    r.type_line("claim");
    let end = r.until("end");
    assert_eq!(
        (&end["result"], &end["reason"]),
        (&"1-0".into(), &"opponent left".into())
    );
    let (code, _, stderr) = r.finish();
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(
        server.status(),
        ("timeout".to_owned(), Some("white".to_owned()))
    );
}

#[test]
fn a_challenged_player_accepts_and_the_game_is_aborted() {
    let script = Script {
        moves: game_moves(),
        account_white: true,
        ..Script::default()
    };
    let server = Server::start(TOKEN, script);
    let dir = hermetic::private_dir("online-challenge");
    let mut r = Rochade::start(
        &server,
        TOKEN,
        &["--challenge", "Sighted", "--clock", "15+10"],
        &dir.join("g.pgn"),
    );
    r.until("game");
    r.type_line("abort");
    assert_eq!(r.until("end")["reason"], "aborted");
    let (code, _, stderr) = r.finish();
    assert_eq!(code, 0, "{stderr}");
    let challenge = server
        .requests()
        .into_iter()
        .find(|(_, p, _)| p == "/api/challenge/Sighted")
        .expect("the challenge");
    assert_eq!(challenge.2, "clock.limit=900&clock.increment=10");
}

#[test]
fn a_challenge_is_said_declined_with_no_and_the_next_accepted_with_yes() {
    let script = Script {
        moves: game_moves(),
        account_white: true,
        challenge_first: true,
        ..Script::default()
    };
    let server = Server::start(TOKEN, script);
    let dir = hermetic::private_dir("online-decline");
    let mut r = Rochade::start(&server, TOKEN, &[], &dir.join("g.pgn"));
    let c = r.until("challenge");
    assert_eq!((&c["id"], &c["time"]), (&"Chal1234".into(), &"10+5".into()));
    let said = r.until("say");
    let text = said["text"].as_str().unwrap();
    assert!(
        text.contains("Sighted, rating 1622") && text.contains("yes to accept, no to decline"),
        "{said}"
    );
    r.type_line("no");
    assert_eq!(r.until("say")["text"], "Challenge declined");
    let c = r.until("challenge");
    assert_eq!(
        (&c["id"], &c["time"]),
        (&"Chal2345".into(), &"15+10".into())
    );
    r.type_line("yes");
    r.until("game");
    r.type_line("abort");
    assert_eq!(r.until("end")["reason"], "aborted");
    let (code, _, stderr) = r.finish();
    assert_eq!(code, 0, "{stderr}");
    let paths: Vec<String> = server.requests().into_iter().map(|(_, p, _)| p).collect();
    let decline = paths
        .iter()
        .position(|p| p == "/api/challenge/Chal1234/decline")
        .expect("the first challenge declined");
    let accept = paths
        .iter()
        .position(|p| p == "/api/challenge/Chal2345/accept")
        .expect("the second accepted");
    assert!(decline < accept);
    assert!(!paths.iter().any(|p| p == "/api/challenge/Chal1234/accept"));
}
