//! A local server speaking the Lichess Board API, for the online tests:
//! plain HTTP/1.1 on 127.0.0.1, bearer-token checked on every request,
//! NDJSON streams sent chunked as Lichess sends them (one JSON object a
//! line, a blank keep-alive line when nothing happens), errors as
//! `{"error": "..."}` with 400/401/429. The opponent is a script: after
//! each of the player's moves (checked against the script) it plays the
//! script's next move. The test can make it offer a draw, refuse a move
//! once, drop the game stream (and refuse reconnections) while the
//! opponent moves, and say a chat line.
//! Included with `#[path]` by the online tests.
#![allow(dead_code)]

use std::collections::HashMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{Shutdown, TcpListener, TcpStream};
use std::sync::{Arc, Condvar, Mutex};
use std::time::Duration;

pub const GAME_ID: &str = "Rch8Test";

/// A real game (generated and checked with python-chess): 84 plies,
/// castling (e1g1), captures, a promotion (f7f8q), ends with Bxc1.
pub const GAME: &str = "a2a3 d7d5 b2b3 c8f5 b3b4 d5d4 c2c3 f5e4 h2h3 e4c6 g2g3 a7a5 e2e4 d8d7 e4e5 e7e6 f1c4 c6b5 g3g4 d7d8 f2f4 d4d3 h3h4 d8c8 f4f5 h7h6 f5f6 b7b6 g1f3 c8d7 e1g1 b5a4 g4g5 g8e7 g1g2 h8h7 c1b2 e8d8 g2h3 e7d5 g5g6 f7g6 h4h5 d7c6 h3h4 d5e3 c4e6 b8d7 c3c4 a8a6 b4b5 c6e4 e6g4 c7c6 b1c3 c6c5 c3e2 h7h8 e5e6 f8e7 b2d4 e4d5 e2c3 d5d4 c3e4 g6g5 f3g5 g7g6 f6f7 a4b5 f7f8q h8f8 e4g3 a5a4 f1f4 d8c7 d1b1 d4b2 f4e4 e3d5 g3h1 d5f4 b1c1 b2c1";

/// [`GAME`]'s moves.
pub fn game_moves() -> Vec<String> {
    GAME.split_whitespace().map(str::to_owned).collect()
}

/// The rook's squares of a castling move (UCI, king from and to), which a
/// peg-board player moves after the king.
pub fn castling_rook(uci: &str) -> Option<(&'static str, &'static str)> {
    match uci {
        "e1g1" => Some(("h1", "f1")),
        "e1c1" => Some(("a1", "d1")),
        "e8g8" => Some(("h8", "f8")),
        "e8c8" => Some(("a8", "d8")),
        _ => None,
    }
}
pub const ACCOUNT: &str = "blindplayer";

/// What the opponent does at a ply (0-based index of the script).
#[derive(Clone, Debug, Default)]
pub struct Script {
    /// Every move of the game, UCI, from the start.
    pub moves: Vec<String>,
    /// The colour the account plays.
    pub account_white: bool,
    /// The opponent's move at this ply comes with a draw offer.
    pub opponent_offers_draw_at: Option<usize>,
    /// The player's move at this ply is refused once (400).
    pub refuse_once_at: Option<usize>,
    /// After the player's move at this ply the game stream is cut, the
    /// next `reconnect_refusals` reconnections are refused (503) and the
    /// opponent's reply is made meanwhile.
    pub drop_after: Option<usize>,
    pub reconnect_refusals: usize,
    /// The opponent's move at this ply comes with a chat line.
    pub chat_at: Option<(usize, String)>,
    /// The opponent's move at this ply comes with a request to take it
    /// back; accepted, it is taken back and played again.
    pub opponent_takeback_at: Option<usize>,
    /// The player's move at this ply gets no answer the first time (the
    /// connection closes before the server reads it) and the game stream
    /// drops: the network went away.
    pub lose_move_at: Option<usize>,
    /// After the opponent's move at this ply he leaves (`opponentGone`,
    /// victory claimable at once).
    pub opponent_gone_at: Option<usize>,
    /// How many first `/api/account` requests are answered 429.
    pub rate_limit_account: usize,
    /// Send an incoming challenge first (for `--accept`) instead of
    /// waiting for `/api/challenge/ai`.
    pub challenge_first: bool,
}

#[derive(Default)]
pub struct State {
    pub script: Script,
    pub moves: Vec<String>,
    pub status: String,
    pub winner: Option<String>,
    pub wdraw: bool,
    pub bdraw: bool,
    pub wtakeback: bool,
    pub btakeback: bool,
    pub wtime: u64,
    pub btime: u64,
    /// Lines of the game stream after `gameFull` (each stream has a cursor).
    pub game_log: Vec<String>,
    pub event_log: Vec<String>,
    /// Bumped to cut every open game stream.
    pub generation: u64,
    pub refusals_left: usize,
    pub refused_once: bool,
    pub lost_once: bool,
    pub takeback_done: bool,
    pub opponent_gone: bool,
    pub rate_limits_left: usize,
    /// Every request: method, path, body (for the test's checks).
    pub requests: Vec<(String, String, String)>,
    pub game_streams_opened: usize,
    pub game_started: bool,
}

pub struct Server {
    pub port: u16,
    pub token: String,
    pub shared: Arc<(Mutex<State>, Condvar)>,
}

impl Server {
    pub fn start(token: &str, script: Script) -> Server {
        let listener = TcpListener::bind("127.0.0.1:0").expect("a local port");
        let port = listener.local_addr().unwrap().port();
        let state = State {
            status: "started".into(),
            wtime: 600_000,
            btime: 600_000,
            rate_limits_left: script.rate_limit_account,
            script,
            ..State::default()
        };
        let shared = Arc::new((Mutex::new(state), Condvar::new()));
        let token = token.to_owned();
        {
            let shared = shared.clone();
            let token = token.clone();
            std::thread::spawn(move || {
                for conn in listener.incoming() {
                    let Ok(conn) = conn else { continue };
                    let shared = shared.clone();
                    let token = token.clone();
                    std::thread::spawn(move || handle(conn, &shared, &token));
                }
            });
        }
        Server {
            port,
            token,
            shared,
        }
    }

    pub fn url(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }

    pub fn moves(&self) -> Vec<String> {
        self.shared.0.lock().unwrap().moves.clone()
    }

    pub fn requests(&self) -> Vec<(String, String, String)> {
        self.shared.0.lock().unwrap().requests.clone()
    }

    pub fn status(&self) -> (String, Option<String>) {
        let s = self.shared.0.lock().unwrap();
        (s.status.clone(), s.winner.clone())
    }
}

struct Request {
    method: String,
    path: String,
    headers: HashMap<String, String>,
    body: String,
}

fn read_request(conn: &TcpStream) -> Option<Request> {
    let mut reader = BufReader::new(conn.try_clone().ok()?);
    let mut first = String::new();
    reader.read_line(&mut first).ok()?;
    let mut parts = first.split_whitespace();
    let method = parts.next()?.to_owned();
    let path = parts.next()?.to_owned();
    let mut headers = HashMap::new();
    loop {
        let mut line = String::new();
        reader.read_line(&mut line).ok()?;
        let line = line.trim_end();
        if line.is_empty() {
            break;
        }
        if let Some((k, v)) = line.split_once(':') {
            headers.insert(k.trim().to_ascii_lowercase(), v.trim().to_owned());
        }
    }
    let len: usize = headers
        .get("content-length")
        .and_then(|l| l.parse().ok())
        .unwrap_or(0);
    let mut body = vec![0; len];
    reader.read_exact(&mut body).ok()?;
    Some(Request {
        method,
        path,
        headers,
        body: String::from_utf8_lossy(&body).into_owned(),
    })
}

fn respond(mut conn: &TcpStream, status: u16, body: &str) {
    let reason = match status {
        200 => "OK",
        400 => "Bad Request",
        401 => "Unauthorized",
        404 => "Not Found",
        429 => "Too Many Requests",
        _ => "Service Unavailable",
    };
    let _ = write!(
        conn,
        "HTTP/1.1 {status} {reason}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    let _ = conn.flush();
}

fn chunk(mut conn: &TcpStream, line: &str) -> std::io::Result<()> {
    let data = format!("{line}\n");
    write!(conn, "{:x}\r\n{data}\r\n", data.len())?;
    conn.flush()
}

fn handle(conn: TcpStream, shared: &Arc<(Mutex<State>, Condvar)>, token: &str) {
    let Some(req) = read_request(&conn) else {
        return;
    };
    let (lock, cvar) = &**shared;
    lock.lock()
        .unwrap()
        .requests
        .push((req.method.clone(), req.path.clone(), req.body.clone()));
    if req.headers.get("authorization").map(String::as_str) != Some(&format!("Bearer {token}")) {
        respond(&conn, 401, r#"{"error":"No such token"}"#);
        return;
    }
    let path = req.path.split('?').next().unwrap_or("").to_owned();
    let game_prefix = format!("/api/board/game/{GAME_ID}/");
    match (req.method.as_str(), path.as_str()) {
        ("GET", "/api/account") => {
            let mut s = lock.lock().unwrap();
            if s.rate_limits_left > 0 {
                s.rate_limits_left -= 1;
                drop(s);
                respond(
                    &conn,
                    429,
                    r#"{"error":"Too many requests. Try again later."}"#,
                );
                return;
            }
            drop(s);
            respond(
                &conn,
                200,
                &format!(
                    r#"{{"id":"{ACCOUNT}","username":"BlindPlayer","perfs":{{"rapid":{{"games":12,"rating":1580,"rd":60,"prog":10}}}},"createdAt":1290415680000,"seenAt":1522636452014,"playTime":{{"total":2000,"tv":0}}}}"#
                ),
            );
        }
        ("GET", "/api/stream/event") => event_stream(&conn, shared),
        ("POST", "/api/challenge/ai") => {
            let mut s = lock.lock().unwrap();
            start_game(&mut s);
            cvar.notify_all();
            drop(s);
            respond(
                &conn,
                200,
                &format!(
                    r#"{{"id":"{GAME_ID}","rated":false,"variant":{{"key":"standard","name":"Standard","short":"Std"}},"speed":"rapid","perf":"rapid","createdAt":1700000000000,"lastMoveAt":1700000000000,"status":"started","player":"white"}}"#
                ),
            );
        }
        ("POST", "/api/board/seek") => {
            // Held open (blank lines) until the game starts.
            let _ = conn.try_clone().map(|mut c| {
                write!(
                    c,
                    "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
                )
            });
            let mut s = lock.lock().unwrap();
            start_game(&mut s);
            cvar.notify_all();
            drop(s);
            let mut c = &conn;
            let _ = write!(c, "0\r\n\r\n");
        }
        ("POST", p) if p.starts_with("/api/challenge/") && p.ends_with("/accept") => {
            let mut s = lock.lock().unwrap();
            start_game(&mut s);
            cvar.notify_all();
            drop(s);
            respond(&conn, 200, r#"{"ok":true}"#);
        }
        ("POST", p) if p.starts_with("/api/challenge/") && p.ends_with("/decline") => {
            // Declined: a second player challenges next (once).
            let mut s = lock.lock().unwrap();
            if p == "/api/challenge/Chal1234/decline" {
                s.event_log.push(challenge_line(
                    "Chal2345", "second", "Second", 1712, 900, 10,
                ));
            }
            cvar.notify_all();
            drop(s);
            respond(&conn, 200, r#"{"ok":true}"#);
        }
        ("POST", p) if p.starts_with("/api/challenge/") && p.matches('/').count() == 3 => {
            // A challenge to a player, accepted by him at once.
            let mut s = lock.lock().unwrap();
            start_game(&mut s);
            cvar.notify_all();
            drop(s);
            respond(
                &conn,
                200,
                r#"{"challenge":{"id":"Chal5678","url":"http://localhost/Chal5678","status":"created","challenger":{"id":"blindplayer","name":"BlindPlayer","rating":1580},"destUser":{"id":"sighted","name":"Sighted","rating":1622},"variant":{"key":"standard","name":"Standard","short":"Std"},"rated":false,"speed":"rapid","timeControl":{"type":"clock","limit":900,"increment":10,"show":"15+10"},"color":"random","perf":{"name":"Rapid"}}}"#,
            );
        }
        ("GET", p) if p == format!("/api/board/game/stream/{GAME_ID}") => {
            game_stream(&conn, shared)
        }
        ("POST", p) if p.starts_with(&game_prefix) => {
            let action = &p[game_prefix.len()..];
            {
                let mut s = lock.lock().unwrap();
                let ply = s.moves.len();
                if action.starts_with("move/") && s.script.lose_move_at == Some(ply) && !s.lost_once
                {
                    // The network is gone: no answer, the stream cut.
                    s.lost_once = true;
                    s.generation += 1;
                    s.refusals_left = s.script.reconnect_refusals;
                    cvar.notify_all();
                    drop(s);
                    let _ = conn.shutdown(Shutdown::Both);
                    return;
                }
            }
            let (status, body) = game_action(shared, action, &req.body);
            respond(&conn, status, &body);
        }
        _ => respond(&conn, 404, r#"{"error":"Not found"}"#),
    }
}

fn start_game(s: &mut State) {
    if s.game_started {
        return;
    }
    s.game_started = true;
    let color = if s.script.account_white {
        "white"
    } else {
        "black"
    };
    s.event_log.push(format!(r#"{{"type":"gameStart","game":{{"gameId":"{GAME_ID}","fullId":"{GAME_ID}abcd","color":"{color}","fen":"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1","hasMoved":false,"isMyTurn":{},"lastMove":"","opponent":{{"id":"sighted","rating":1622,"username":"Sighted"}},"perf":"rapid","rated":false,"secondsLeft":600,"source":"ai","status":{{"id":20,"name":"started"}},"speed":"rapid","variant":{{"key":"standard","name":"Standard"}},"compat":{{"bot":false,"board":true}},"id":"{GAME_ID}"}}}}"#, s.script.account_white));
    if !s.script.account_white {
        opponent_moves(s);
    }
}

fn state_line(s: &State) -> String {
    let winner = s
        .winner
        .as_ref()
        .map(|w| format!(r#","winner":"{w}""#))
        .unwrap_or_default();
    format!(
        r#"{{"type":"gameState","moves":"{}","wtime":{},"btime":{},"winc":5000,"binc":5000,"status":"{}"{winner},"wdraw":{},"bdraw":{},"wtakeback":{},"btakeback":{}}}"#,
        s.moves.join(" "),
        s.wtime,
        s.btime,
        s.status,
        s.wdraw,
        s.bdraw,
        s.wtakeback,
        s.btakeback
    )
}

fn players(s: &State) -> (String, String) {
    let me = format!(
        r#"{{"id":"{ACCOUNT}","name":"BlindPlayer","provisional":false,"rating":1580,"title":null}}"#
    );
    let them = r#"{"id":"sighted","name":"Sighted","rating":1622,"title":null}"#.to_owned();
    if s.script.account_white {
        (me, them)
    } else {
        (them, me)
    }
}

fn full_line(s: &State) -> String {
    let (white, black) = players(s);
    format!(
        r#"{{"type":"gameFull","id":"{GAME_ID}","rated":false,"variant":{{"key":"standard","name":"Standard","short":"Std"}},"clock":{{"initial":600000,"increment":5000}},"speed":"rapid","perf":{{"name":"Rapid"}},"createdAt":1700000000000,"white":{white},"black":{black},"initialFen":"startpos","state":{}}}"#,
        state_line(s)
    )
}

/// The opponent's scripted move, if it is his turn and the script has one.
fn opponent_moves(s: &mut State) {
    let ply = s.moves.len();
    let Some(mv) = s.script.moves.get(ply).cloned() else {
        return;
    };
    let white_moves = ply.is_multiple_of(2);
    if white_moves == s.script.account_white {
        return;
    }
    s.moves.push(mv);
    // A few seconds pass on the opponent's clock.
    if white_moves {
        s.wtime -= 1000;
        s.wtime += 5000;
    } else {
        s.btime -= 1000;
        s.btime += 5000;
    }
    if s.script.opponent_offers_draw_at == Some(ply) {
        if s.script.account_white {
            s.bdraw = true;
        } else {
            s.wdraw = true;
        }
    }
    if s.script.opponent_takeback_at == Some(ply) && !s.takeback_done {
        if s.script.account_white {
            s.btakeback = true;
        } else {
            s.wtakeback = true;
        }
    }
    let line = state_line(s);
    s.game_log.push(line);
    if s.script.opponent_gone_at == Some(ply) {
        s.opponent_gone = true;
        s.game_log
            .push(r#"{"type":"opponentGone","gone":true,"claimWinInSeconds":0}"#.into());
    }
    if let Some((at, text)) = &s.script.chat_at
        && *at == ply
    {
        let line = format!(
            r#"{{"type":"chatLine","username":"Sighted","text":"{text}","room":"player"}}"#
        );
        s.game_log.push(line);
    }
}

fn end_game(s: &mut State, status: &str, winner: Option<&str>) {
    s.status = status.into();
    s.winner = winner.map(str::to_owned);
    let line = state_line(s);
    s.game_log.push(line);
    let color = if s.script.account_white {
        "white"
    } else {
        "black"
    };
    s.event_log.push(format!(r#"{{"type":"gameFinish","game":{{"gameId":"{GAME_ID}","fullId":"{GAME_ID}abcd","color":"{color}","fen":"","hasMoved":true,"isMyTurn":false,"lastMove":"","opponent":{{"id":"sighted","rating":1622,"username":"Sighted"}},"perf":"rapid","rated":false,"secondsLeft":600,"source":"ai","status":{{"id":31,"name":"{status}"}},"speed":"rapid","variant":{{"key":"standard","name":"Standard"}},"compat":{{"bot":false,"board":true}},"id":"{GAME_ID}"}}}}"#));
}

fn game_action(shared: &Arc<(Mutex<State>, Condvar)>, action: &str, body: &str) -> (u16, String) {
    let (lock, cvar) = &**shared;
    let mut s = lock.lock().unwrap();
    let me_white = s.script.account_white;
    let me = if me_white { "white" } else { "black" };
    let them = if me_white { "black" } else { "white" };
    let running = s.status == "started";
    let result = match action.split('/').collect::<Vec<_>>().as_slice() {
        ["move", uci] => {
            let ply = s.moves.len();
            let my_turn = ply.is_multiple_of(2) == me_white;
            if !running || !my_turn {
                Err("Not your turn, or game already over")
            } else if s.script.moves.get(ply).map(String::as_str) != Some(uci) {
                Err("Illegal move")
            } else if s.script.refuse_once_at == Some(ply) && !s.refused_once {
                s.refused_once = true;
                Err("Not your turn, or game already over")
            } else {
                s.moves.push(uci.to_string());
                if me_white {
                    s.wtime += 3000;
                } else {
                    s.btime += 3000;
                }
                // A move declines a standing offer.
                s.wdraw = false;
                s.bdraw = false;
                let line = state_line(&s);
                s.game_log.push(line);
                if s.script.drop_after == Some(ply) {
                    s.generation += 1;
                    s.refusals_left = s.script.reconnect_refusals;
                }
                opponent_moves(&mut s);
                Ok(())
            }
        }
        ["draw", answer] => {
            let yes = matches!(*answer, "yes" | "true");
            let theirs = if me_white { s.bdraw } else { s.wdraw };
            if yes && theirs {
                end_game(&mut s, "draw", None);
            } else if yes {
                let ours: Flag = if me_white {
                    |s| &mut s.wdraw
                } else {
                    |s| &mut s.bdraw
                };
                shown_then_declined(&mut s, ours);
            } else {
                if me_white {
                    s.bdraw = false
                } else {
                    s.wdraw = false
                }
                let line = state_line(&s);
                s.game_log.push(line);
            }
            Ok(())
        }
        ["resign"] if running => {
            end_game(&mut s, "resign", Some(them));
            Ok(())
        }
        ["abort"] if running && s.moves.len() < 2 => {
            end_game(&mut s, "aborted", None);
            Ok(())
        }
        ["claim-victory"] if running && s.opponent_gone => {
            end_game(&mut s, "timeout", Some(me));
            Ok(())
        }
        ["claim-victory"] => Err("The opponent is still here"),
        ["chat"] => {
            let ok = body.contains("room=player") && body.contains("text=");
            if ok { Ok(()) } else { Err("Bad chat") }
        }
        ["takeback", answer] => {
            let theirs = if me_white { s.btakeback } else { s.wtakeback };
            if theirs {
                s.btakeback = false;
                s.wtakeback = false;
                if matches!(*answer, "yes" | "true") {
                    // The opponent's move taken back, then played again.
                    s.moves.pop();
                    s.takeback_done = true;
                    let line = state_line(&s);
                    s.game_log.push(line);
                    opponent_moves(&mut s);
                } else {
                    let line = state_line(&s);
                    s.game_log.push(line);
                }
            } else if matches!(*answer, "yes" | "true") {
                let ours: Flag = if me_white {
                    |s| &mut s.wtakeback
                } else {
                    |s| &mut s.btakeback
                };
                shown_then_declined(&mut s, ours);
            }
            Ok(())
        }
        _ => Err("This action is not possible now"),
    };
    cvar.notify_all();
    match result {
        Ok(()) => (200, r#"{"ok":true}"#.into()),
        Err(e) => (400, format!(r#"{{"error":"{e}"}}"#)),
    }
}

/// One of a state's offer flags (`wdraw`, `btakeback` ...).
type Flag = fn(&mut State) -> &mut bool;

/// Our offer or request as the game stream shows it: standing in one
/// state, then declined by the opponent in the next.
fn shown_then_declined(s: &mut State, ours: Flag) {
    for standing in [true, false] {
        *ours(s) = standing;
        let line = state_line(s);
        s.game_log.push(line);
    }
}

fn stream_head(mut conn: &TcpStream) -> std::io::Result<()> {
    write!(
        conn,
        "HTTP/1.1 200 OK\r\nContent-Type: application/x-ndjson\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
    )?;
    conn.flush()
}

/// A `challenge` event of the incoming-events stream, to this account.
fn challenge_line(
    id: &str,
    from_id: &str,
    from: &str,
    rating: u32,
    limit: u32,
    inc: u32,
) -> String {
    format!(
        r#"{{"type":"challenge","challenge":{{"id":"{id}","url":"http://localhost/{id}","status":"created","compat":{{"bot":false,"board":true}},"challenger":{{"id":"{from_id}","name":"{from}","title":null,"rating":{rating},"online":true,"lag":24}},"destUser":{{"id":"{ACCOUNT}","name":"BlindPlayer","title":null,"rating":1580,"provisional":false,"online":true,"lag":45}},"variant":{{"key":"standard","name":"Standard","short":"Std"}},"rated":false,"timeControl":{{"type":"clock","limit":{limit},"increment":{inc},"show":"{}+{inc}"}},"color":"random","speed":"rapid","perf":{{"name":"Rapid"}}}}}}"#,
        limit / 60
    )
}

/// Keep-alive every 100 ms when nothing happens.
const KEEP_ALIVE: Duration = Duration::from_millis(100);

fn event_stream(conn: &TcpStream, shared: &Arc<(Mutex<State>, Condvar)>) {
    let (lock, cvar) = &**shared;
    if stream_head(conn).is_err() {
        return;
    }
    {
        let mut s = lock.lock().unwrap();
        if s.script.challenge_first && !s.game_started && s.event_log.is_empty() {
            s.event_log.push(challenge_line(
                "Chal1234", "sighted", "Sighted", 1622, 600, 5,
            ));
        }
    }
    let mut cursor = 0;
    loop {
        let lines: Vec<String> = {
            let s = lock.lock().unwrap();
            let (s, _) = cvar
                .wait_timeout_while(s, KEEP_ALIVE, |s| s.event_log.len() == cursor)
                .unwrap();
            let new = s.event_log[cursor..].to_vec();
            cursor = s.event_log.len();
            new
        };
        let result = if lines.is_empty() {
            chunk(conn, "")
        } else {
            lines.iter().try_for_each(|l| chunk(conn, l))
        };
        if result.is_err() {
            return;
        }
    }
}

fn game_stream(conn: &TcpStream, shared: &Arc<(Mutex<State>, Condvar)>) {
    let (lock, cvar) = &**shared;
    let (mut cursor, generation) = {
        let mut s = lock.lock().unwrap();
        if s.refusals_left > 0 {
            s.refusals_left -= 1;
            drop(s);
            respond(conn, 503, r#"{"error":"Service unavailable"}"#);
            return;
        }
        s.game_streams_opened += 1;
        if stream_head(conn).is_err() || chunk(conn, &full_line(&s)).is_err() {
            return;
        }
        (s.game_log.len(), s.generation)
    };
    loop {
        let (lines, over, cut) = {
            let s = lock.lock().unwrap();
            let (s, _) = cvar
                .wait_timeout_while(s, KEEP_ALIVE, |s| {
                    s.game_log.len() == cursor && s.generation == generation
                })
                .unwrap();
            if s.generation != generation {
                (Vec::new(), false, true)
            } else {
                let new = s.game_log[cursor..].to_vec();
                cursor = s.game_log.len();
                (new, s.status != "started", false)
            }
        };
        if cut {
            // Cut without the chunked end: the connection just breaks.
            let _ = conn.shutdown(Shutdown::Both);
            return;
        }
        let result = if lines.is_empty() {
            chunk(conn, "")
        } else {
            lines.iter().try_for_each(|l| chunk(conn, l))
        };
        if result.is_err() {
            return;
        }
        if over {
            // Lichess ends a game's stream when the game is over.
            let mut c = conn;
            let _ = write!(c, "0\r\n\r\n");
            let _ = c.flush();
            return;
        }
    }
}
