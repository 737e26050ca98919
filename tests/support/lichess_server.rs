//! A local server speaking the Lichess Board API, for the online tests:
//! plain HTTP/1.1 on 127.0.0.1, bearer-token checked on every request,
//! NDJSON streams sent chunked as Lichess sends them (one JSON object a
//! line, a blank keep-alive line when nothing happens), errors as
//! `{"error": "..."}` with 400/401/429. The opponent is a script: after
//! each of the player's moves (checked against the script) it plays the
//! script's next move. The test can make it offer a draw, refuse a move
//! once, drop the game stream (and refuse reconnections) while the
//! opponent moves, and say a chat line.
//!
//! It also sends the orders a real server sends (issue 32), at fixed plies
//! or at random (seeded, [`Faults`]): several lines in one chunk and one
//! line split over chunks ([`Chunking`]); a chat line or a draw offer in
//! the same chunk as a move; a state sent twice; the game stream cut right
//! before or right after either side's move, reconnections refused for a
//! while, so that the `gameFull` of the next stream carries moves the
//! client has not seen; a state withheld (the open stream sends only
//! keep-alives); the server restarted (every stream cut, the port closed,
//! then open again), with or without the game (404); a move answered 429;
//! an opponent who replies after 0-300 ms. When each move was made is kept
//! ([`Server::made_at`]) to measure the time to its announcement.
//! Included with `#[path]` by the online tests.
#![allow(dead_code)]

use std::collections::HashMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{Shutdown, TcpListener, TcpStream};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

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

/// How the streams' lines are cut into HTTP chunks.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Chunking {
    /// One line a chunk, written together.
    #[default]
    LinePerChunk,
    /// Everything new in one chunk, a keep-alive among the lines.
    Merged,
    /// Each line cut over two or three chunks written apart.
    Split,
    /// One of the above at random for each write.
    Mixed,
}

/// Where the game stream is cut around a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cut {
    /// Before the move is made: its state reaches no open stream.
    Before,
    /// Right after its state was written.
    After,
}

/// Faults drawn at random for each move (percent), seeded by
/// [`Script::seed`].
#[derive(Clone, Copy, Debug, Default)]
pub struct Faults {
    /// A chat line of the opponent in the same chunk as his move (before
    /// or after its state).
    pub chat: u64,
    /// The opponent's move, then his draw offer, in one chunk.
    pub offer: u64,
    /// A state sent twice.
    pub repeat: u64,
    /// The game stream cut before or after a move (either side's), down
    /// for [`Script::outage_ms`].
    pub drop: u64,
    /// The opponent's state never sent on the open stream (keep-alives only).
    pub withhold: u64,
    /// The server restarted after a move: every stream cut, the port
    /// closed for [`Script::outage_ms`].
    pub restart: u64,
}

/// What the server did to the client, counted.
#[derive(Clone, Copy, Debug, Default)]
pub struct Injected {
    pub chats: usize,
    pub offers: usize,
    pub repeats: usize,
    pub drops: usize,
    pub withheld: usize,
    pub restarts: usize,
    pub rate_limited: usize,
    pub gone: usize,
}

impl Injected {
    pub fn add(&mut self, o: &Injected) {
        self.chats += o.chats;
        self.offers += o.offers;
        self.repeats += o.repeats;
        self.drops += o.drops;
        self.withheld += o.withheld;
        self.restarts += o.restarts;
        self.rate_limited += o.rate_limited;
        self.gone += o.gone;
    }
}

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
    /// The seed of every random choice below.
    pub seed: u64,
    /// The opponent replies after this many ms (drawn in the range);
    /// (0, 0): in the same instant as the player's move.
    pub reply_delay_ms: (u64, u64),
    pub chunking: Chunking,
    pub faults: Faults,
    /// The game stream cut around the move at these plies.
    pub cuts: Vec<(usize, Cut)>,
    /// After a cut or a restart, game streams are refused (503) or the
    /// port is closed this long.
    pub outage_ms: u64,
    /// The opponent's move at this ply is never sent on the open stream.
    pub withhold_at: Option<usize>,
    /// After the move at this ply the server restarts.
    pub restart_at: Option<usize>,
    /// After a restart the game stream answers 404 this many times (the
    /// server lost the game, then found it again).
    pub gone_after_restart: usize,
    /// The player's move at this ply is answered 429 the first time.
    pub rate_limit_move_at: Option<usize>,
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
    /// Log entries up to here are still written by a stream that is cut.
    pub cut_keeps: usize,
    /// Game streams are refused until then.
    pub down_until: Option<Instant>,
    /// Bumped to cut every open event stream (a restart).
    pub event_generation: u64,
    /// The port is to be closed for this long (a restart).
    pub restart_for: Option<Duration>,
    pub gone_left: usize,
    pub rate_limited_once: bool,
    pub rng: u64,
    /// When the server made each move.
    pub made_at: Vec<Instant>,
    pub injected: Injected,
    pub port: u16,
}

impl State {
    /// xorshift64*: seeded, repeatable.
    fn random(&mut self) -> u64 {
        self.rng ^= self.rng >> 12;
        self.rng ^= self.rng << 25;
        self.rng ^= self.rng >> 27;
        self.rng.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn chance(&mut self, percent: u64) -> bool {
        percent > 0 && self.random() % 100 < percent
    }

    /// Every open game stream is cut; the log up to `keep` is still
    /// written first. Reconnections are refused for the outage.
    fn cut(&mut self, keep: usize) {
        self.generation += 1;
        self.cut_keeps = keep;
        self.injected.drops += 1;
        if self.script.outage_ms > 0 {
            self.down_until = Some(Instant::now() + Duration::from_millis(self.script.outage_ms));
        }
    }

    /// The server restarts: every stream cut, the port closed.
    fn restart(&mut self) {
        self.generation += 1;
        self.cut_keeps = self.game_log.len();
        self.event_generation += 1;
        self.injected.restarts += 1;
        self.restart_for = Some(Duration::from_millis(self.script.outage_ms.max(50)));
        self.gone_left = self.script.gone_after_restart;
    }
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
            rng: script.seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1,
            port,
            script,
            ..State::default()
        };
        let shared = Arc::new((Mutex::new(state), Condvar::new()));
        let token = token.to_owned();
        {
            let shared = shared.clone();
            let token = token.clone();
            std::thread::spawn(move || accept_loop(listener, port, &shared, &token));
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

    /// When the server made each move (index: ply).
    pub fn made_at(&self) -> Vec<Instant> {
        self.shared.0.lock().unwrap().made_at.clone()
    }

    pub fn injected(&self) -> Injected {
        self.shared.0.lock().unwrap().injected
    }
}

/// Accepts connections; a restart closes the port for a while, then the
/// server listens on the same port again.
fn accept_loop(
    mut listener: TcpListener,
    port: u16,
    shared: &Arc<(Mutex<State>, Condvar)>,
    token: &str,
) {
    loop {
        let Ok((conn, _)) = listener.accept() else {
            continue;
        };
        let restart = shared.0.lock().unwrap().restart_for.take();
        if let Some(down) = restart {
            drop(conn);
            drop(listener);
            std::thread::sleep(down);
            listener = loop {
                match TcpListener::bind(("127.0.0.1", port)) {
                    Ok(l) => break l,
                    Err(_) => std::thread::sleep(Duration::from_millis(5)),
                }
            };
            continue;
        }
        let shared = shared.clone();
        let token = token.to_owned();
        std::thread::spawn(move || handle(conn, &shared, &token));
    }
}

/// Wakes the accept loop (for a restart: it closes the port).
fn wake_listener(port: u16) {
    std::thread::spawn(move || {
        let _ = TcpStream::connect(("127.0.0.1", port));
    });
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
                    let keep = s.game_log.len();
                    s.cut(keep);
                    s.refusals_left = s.script.reconnect_refusals;
                    cvar.notify_all();
                    drop(s);
                    let _ = conn.shutdown(Shutdown::Both);
                    return;
                }
                if action.starts_with("move/")
                    && s.script.rate_limit_move_at == Some(ply)
                    && !s.rate_limited_once
                {
                    s.rate_limited_once = true;
                    s.injected.rate_limited += 1;
                    drop(s);
                    respond(
                        &conn,
                        429,
                        r#"{"error":"Too many requests. Try again later."}"#,
                    );
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
    if white_moves == s.script.account_white || s.status != "started" {
        return;
    }
    let cut = cut_at(s, ply);
    if cut == Some(Cut::Before) {
        let keep = s.game_log.len();
        s.cut(keep);
    }
    s.moves.push(mv);
    s.made_at.push(Instant::now());
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
    let withhold = s.script.withhold_at == Some(ply) || s.chance(s.script.faults.withhold);
    if withhold {
        // Lost on its way: the open stream sends keep-alives only; a
        // stream opened anew has it in its gameFull.
        s.injected.withheld += 1;
    } else {
        let mut entry = vec![state_line(s)];
        if s.chance(s.script.faults.offer) {
            s.injected.offers += 1;
            if s.script.account_white {
                s.bdraw = true;
            } else {
                s.wdraw = true;
            }
            entry.push(state_line(s));
        }
        if s.chance(s.script.faults.repeat) {
            s.injected.repeats += 1;
            entry.push(entry[entry.len() - 1].clone());
        }
        let scripted = s
            .script
            .chat_at
            .as_ref()
            .filter(|(at, _)| *at == ply)
            .map(|(_, text)| text.clone());
        let random = s
            .chance(s.script.faults.chat)
            .then(|| format!("Nice move {ply}"));
        if let Some(text) = scripted.or(random) {
            s.injected.chats += 1;
            let line = format!(
                r#"{{"type":"chatLine","username":"Sighted","text":"{text}","room":"player"}}"#
            );
            // Before or after the move, in the same chunk.
            if s.random().is_multiple_of(2) {
                entry.insert(0, line);
            } else {
                entry.push(line);
            }
        }
        s.game_log.push(entry.join("\n"));
    }
    if s.script.opponent_gone_at == Some(ply) {
        s.opponent_gone = true;
        s.game_log
            .push(r#"{"type":"opponentGone","gone":true,"claimWinInSeconds":0}"#.into());
    }
    after_move(s, ply, cut);
}

/// Whether and where the game stream is cut around the move at `ply`.
fn cut_at(s: &mut State, ply: usize) -> Option<Cut> {
    let fixed = s.script.cuts.iter().find(|(p, _)| *p == ply).map(|c| c.1);
    fixed.or_else(|| {
        s.chance(s.script.faults.drop).then(|| {
            if s.random().is_multiple_of(2) {
                Cut::Before
            } else {
                Cut::After
            }
        })
    })
}

/// After the move at `ply` went to the log: the cut after it, a restart.
fn after_move(s: &mut State, ply: usize, cut: Option<Cut>) {
    if cut == Some(Cut::After) {
        let keep = s.game_log.len();
        s.cut(keep);
    }
    if s.script.restart_at == Some(ply) || s.chance(s.script.faults.restart) {
        s.restart();
        wake_listener(s.port);
    }
}

/// The opponent's reply to the player's move at `ply`: at once, or after
/// the script's delay (if the game is still there).
fn reply(shared: &Arc<(Mutex<State>, Condvar)>, s: &mut State, ply: usize) {
    let (min, max) = s.script.reply_delay_ms;
    let delay = if max > min {
        min + s.random() % (max - min + 1)
    } else {
        min
    };
    if delay == 0 {
        opponent_moves(s);
        return;
    }
    let shared = shared.clone();
    std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(delay));
        let (lock, cvar) = &*shared;
        let mut s = lock.lock().unwrap();
        if s.moves.len() == ply + 1 {
            opponent_moves(&mut s);
            cvar.notify_all();
        }
    });
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
                let cut = cut_at(&mut s, ply);
                if cut == Some(Cut::Before) {
                    let keep = s.game_log.len();
                    s.cut(keep);
                }
                s.moves.push(uci.to_string());
                s.made_at.push(Instant::now());
                if me_white {
                    s.wtime += 3000;
                } else {
                    s.btime += 3000;
                }
                // A move declines a standing offer.
                s.wdraw = false;
                s.bdraw = false;
                let mut entry = vec![state_line(&s)];
                let repeat = s.script.faults.repeat;
                if s.chance(repeat) {
                    s.injected.repeats += 1;
                    entry.push(entry[0].clone());
                }
                s.game_log.push(entry.join("\n"));
                if s.script.drop_after == Some(ply) {
                    // Cut before the state with our move was written.
                    let keep = s.game_log.len() - 1;
                    s.cut(keep);
                    s.refusals_left = s.script.reconnect_refusals;
                }
                after_move(&mut s, ply, cut);
                reply(shared, &mut s, ply);
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
                    s.made_at.pop();
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
    let generation = {
        let mut s = lock.lock().unwrap();
        if s.script.challenge_first && !s.game_started && s.event_log.is_empty() {
            s.event_log.push(challenge_line(
                "Chal1234", "sighted", "Sighted", 1622, 600, 5,
            ));
        }
        s.event_generation
    };
    let mut cursor = 0;
    loop {
        let (lines, cut) = {
            let s = lock.lock().unwrap();
            let (s, _) = cvar
                .wait_timeout_while(s, KEEP_ALIVE, |s| {
                    s.event_log.len() == cursor && s.event_generation == generation
                })
                .unwrap();
            let new = s.event_log[cursor..].to_vec();
            cursor = s.event_log.len();
            (new, s.event_generation != generation)
        };
        if cut {
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
    }
}

/// Writes `entries` (each one or more lines) as the chunking asks;
/// `random` draws the cuts.
fn write_entries(
    mut conn: &TcpStream,
    entries: &[String],
    chunking: Chunking,
    mut random: impl FnMut() -> u64,
) -> std::io::Result<()> {
    let chunking = match chunking {
        Chunking::Mixed => match random() % 3 {
            0 => Chunking::LinePerChunk,
            1 => Chunking::Merged,
            _ => Chunking::Split,
        },
        other => other,
    };
    match chunking {
        Chunking::LinePerChunk | Chunking::Mixed => entries.iter().try_for_each(|e| chunk(conn, e)),
        Chunking::Merged => {
            // A keep-alive among the lines, as a busy server sends them.
            let mut all = entries.join("\n");
            if random().is_multiple_of(2) {
                all.push('\n');
            }
            chunk(conn, &all)
        }
        Chunking::Split => {
            for entry in entries {
                let data = format!("{entry}\n").into_bytes();
                let mut at = 0;
                while at < data.len() {
                    let left = data.len() - at;
                    let piece = if left > 2 {
                        1 + (random() as usize) % (left - 1)
                    } else {
                        left
                    };
                    write!(conn, "{piece:x}\r\n")?;
                    conn.write_all(&data[at..at + piece])?;
                    write!(conn, "\r\n")?;
                    conn.flush()?;
                    at += piece;
                    // Apart: the client reads each piece on its own.
                    std::thread::sleep(Duration::from_millis(1));
                }
            }
            Ok(())
        }
    }
}

fn game_stream(conn: &TcpStream, shared: &Arc<(Mutex<State>, Condvar)>) {
    let (lock, cvar) = &**shared;
    let (mut cursor, generation, mut rng, chunking) = {
        let mut s = lock.lock().unwrap();
        if s.gone_left > 0 {
            // Restarted without the game.
            s.gone_left -= 1;
            s.injected.gone += 1;
            drop(s);
            respond(conn, 404, r#"{"error":"No such game"}"#);
            return;
        }
        let down = s.down_until.is_some_and(|t| Instant::now() < t);
        if s.refusals_left > 0 || down {
            s.refusals_left = s.refusals_left.saturating_sub(1);
            drop(s);
            respond(conn, 503, r#"{"error":"Service unavailable"}"#);
            return;
        }
        s.game_streams_opened += 1;
        if stream_head(conn).is_err() || chunk(conn, &full_line(&s)).is_err() {
            return;
        }
        let seed = s.random() | 1;
        (s.game_log.len(), s.generation, seed, s.script.chunking)
    };
    let mut random = move || {
        rng ^= rng >> 12;
        rng ^= rng << 25;
        rng ^= rng >> 27;
        rng.wrapping_mul(0x2545_F491_4F6C_DD1D)
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
                // Cut: what was written before the cut still goes out.
                let keep = s.cut_keeps.min(s.game_log.len()).max(cursor);
                (s.game_log[cursor..keep].to_vec(), false, true)
            } else {
                let new = s.game_log[cursor..].to_vec();
                cursor = s.game_log.len();
                (new, s.status != "started", false)
            }
        };
        let result = if lines.is_empty() {
            if cut { Ok(()) } else { chunk(conn, "") }
        } else {
            write_entries(conn, &lines, chunking, &mut random)
        };
        if cut {
            // Cut without the chunked end: the connection just breaks.
            let _ = conn.shutdown(Shutdown::Both);
            return;
        }
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
