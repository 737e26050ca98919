//! The Board API server of `board_api_server.py` (written apart from the
//! Rust test server and from the client, framing its streams as Lichess
//! does: a chunk a line, keep-alive chunks, streams cut without the final
//! chunk) started for one game, and a game played through it by
//! `rochade online --json` ([`super::online_client`]).
//! Included with `#[path]` next to `online_client`, `lichess_server` and
//! `hermetic`.
#![allow(dead_code)]

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use super::online_client::Client;

pub struct PyServer {
    child: Child,
    pub port: u16,
}

impl PyServer {
    /// Starts the server with `config` (JSON; see the script's head).
    pub fn start(config: &serde_json::Value) -> PyServer {
        let script = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/support/board_api_server.py"
        );
        let mut child = Command::new("python3")
            .arg(script)
            .arg(config.to_string())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("python3 runs the Board API server (python3-chess installed)");
        let mut first = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut first)
            .unwrap();
        let port = first
            .trim()
            .strip_prefix("PORT ")
            .and_then(|p| p.parse().ok())
            .unwrap_or_else(|| panic!("the server's port first: {first:?}"));
        PyServer { child, port }
    }

    pub fn url(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }

    /// The server's record: every move (UCI), the status and what it was
    /// asked.
    pub fn record(&self) -> Record {
        let mut conn = TcpStream::connect(("127.0.0.1", self.port)).unwrap();
        conn.set_read_timeout(Some(Duration::from_secs(10)))
            .unwrap();
        write!(conn, "GET /test/record HTTP/1.1\r\nHost: x\r\n\r\n").unwrap();
        let mut answer = Vec::new();
        let mut buf = [0u8; 4096];
        // One answer with a Content-Length; the connection stays open.
        loop {
            let n = conn.read(&mut buf).unwrap();
            answer.extend_from_slice(&buf[..n]);
            let text = String::from_utf8_lossy(&answer);
            if let Some((head, body)) = text.split_once("\r\n\r\n") {
                let len: usize = head
                    .lines()
                    .find_map(|l| l.strip_prefix("Content-Length: "))
                    .and_then(|v| v.trim().parse().ok())
                    .unwrap_or(0);
                if body.len() >= len {
                    let v: serde_json::Value = serde_json::from_str(&body[..len]).unwrap();
                    let moves = v["moves"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .map(|m| m.as_str().unwrap().to_owned())
                        .collect();
                    let count = |k: &str| v[k].as_u64().unwrap_or(0) as usize;
                    let posted_at = v["posted_at"]
                        .as_array()
                        .map(|a| a.iter().filter_map(|t| t.as_f64()).collect())
                        .unwrap_or_default();
                    return Record {
                        moves,
                        status: v["status"].as_str().unwrap_or("").to_owned(),
                        requests: count("requests"),
                        redirects: count("redirects"),
                        posted_at,
                    };
                }
            }
            assert!(n > 0, "the record's answer ended early");
        }
    }
}

/// The server's record of the game, and the requests it was sent.
#[derive(Debug)]
pub struct Record {
    pub moves: Vec<String>,
    pub status: String,
    /// Every request (the record's own asks left out).
    pub requests: usize,
    /// Moves answered with a redirect.
    pub redirects: usize,
    /// When each of the player's moves reached the server (seconds since
    /// the epoch).
    pub posted_at: Vec<f64>,
}

impl Drop for PyServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// What one game showed.
#[derive(Debug, Default)]
pub struct Followed {
    /// "While the connection was lost" said (times).
    pub caught_up: usize,
    /// `connection` `lost` events.
    pub drops: usize,
    /// `chat` events.
    pub chats: usize,
    /// When each of the player's moves was typed (seconds since the epoch).
    pub typed_at: Vec<f64>,
}

fn epoch_now() -> f64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs_f64()
}

/// Plays `moves` to the server's end through `client`: our moves typed
/// on our turn, the opponent's read; every move announced once, in order,
/// by the side that made it; then the `end`. Err (with the transcript) on
/// a stall, a move out of order, a takeback or an early end.
pub fn play_through(
    client: &mut Client,
    moves: &[String],
    white: bool,
) -> Result<Followed, String> {
    let mut followed = Followed::default();
    let ours = |ply: usize| ply.is_multiple_of(2) == white;
    let mut typed = usize::MAX;
    let mut ply = 0;
    let deadline = Instant::now() + Duration::from_secs(240);
    loop {
        if Instant::now() > deadline {
            return Err(format!("too slow; seen:\n{}", client.transcript()));
        }
        if ply < moves.len() && ours(ply) && typed != ply {
            client.type_line(&moves[ply]);
            followed.typed_at.push(epoch_now());
            typed = ply;
        }
        let (_, v) = client.next()?;
        match v["event"].as_str().unwrap_or("") {
            "move" => {
                let by = if ours(ply) { "player" } else { "opponent" };
                if ply >= moves.len() || v["uci"] != moves[ply].as_str() || v["by"] != by {
                    return Err(format!(
                        "ply {ply}: expected {:?} by {by}, got {v}; seen:\n{}",
                        moves.get(ply),
                        client.transcript()
                    ));
                }
                ply += 1;
            }
            "takeback" => {
                return Err(format!(
                    "a move taken back: {v}; seen:\n{}",
                    client.transcript()
                ));
            }
            "caught_up" => followed.caught_up += 1,
            "chat" => followed.chats += 1,
            "connection" if v["state"] == "lost" => followed.drops += 1,
            "end" if ply == moves.len() => return Ok(followed),
            "end" => {
                return Err(format!(
                    "ended at ply {ply}: {v}; seen:\n{}",
                    client.transcript()
                ));
            }
            _ => {}
        }
    }
}
