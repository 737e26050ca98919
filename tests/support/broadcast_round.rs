//! A local server for a broadcast round's PGN stream, as Lichess serves it
//! (`GET /api/stream/broadcast/round/{id}.pgn`: every game of the round
//! whole on each connection, then a game's whole PGN again each time it
//! changes; lila's `RelayPgnStream`). The test says when a game changes
//! and when the connection is cut; any other round is not found (404).
//! The round's tournament and its players' standings are answered too.

#![allow(dead_code)]

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::mpsc::{Receiver, Sender, channel};

/// Reads a request's head (up to the blank line).
pub fn read_request(conn: &mut TcpStream) -> String {
    let mut head = Vec::new();
    let mut byte = [0u8; 1];
    while !head.ends_with(b"\r\n\r\n") {
        match conn.read(&mut byte) {
            Ok(1) => head.push(byte[0]),
            _ => break,
        }
    }
    String::from_utf8_lossy(&head).into_owned()
}

/// One game of the round as the relay sends it: its tags, its moves (with
/// their `[%clk]` comments, if any) and its result.
pub fn game_pgn(white: &str, black: &str, moves: &str, result: &str) -> String {
    format!(
        "[Event \"Rochade Open\"]\n[Site \"https://lichess.org/study/x/{white}\"]\n[Round \"1\"]\n\
         [White \"{white}\"]\n[Black \"{black}\"]\n[Result \"{result}\"]\n\n{moves} {result}\n\n\n"
    )
}

enum Step {
    /// Game `i` changed: sent whole on the open connection.
    Change(usize, String),
    /// The connection is closed (cleanly), game `i` changing meanwhile:
    /// the next connection's round carries it.
    CutWith(usize, String),
}

/// The round's server, on a thread of its own until it is dropped.
pub struct RoundServer {
    url: String,
    steps: Sender<Step>,
}

impl RoundServer {
    /// Serves round `round` with these games (in the round's order).
    pub fn start(round: &str, games: Vec<String>) -> RoundServer {
        let listener = TcpListener::bind("127.0.0.1:0").expect("a local port");
        let url = format!("http://{}", listener.local_addr().unwrap());
        let (steps, rx) = channel();
        let path = format!("GET /api/stream/broadcast/round/{round}.pgn ");
        std::thread::spawn(move || serve(listener, &path, games, rx));
        RoundServer { url, steps }
    }

    pub fn url(&self) -> String {
        self.url.clone()
    }

    /// Game `index` changes to `pgn` (sent on the open connection).
    pub fn change(&self, index: usize, pgn: String) {
        self.steps.send(Step::Change(index, pgn)).unwrap();
    }

    /// The connection is cut; game `index` changes to `pgn` while it is
    /// down.
    pub fn cut_with(&self, index: usize, pgn: String) {
        self.steps.send(Step::CutWith(index, pgn)).unwrap();
    }
}

/// The round's tournament and its players, as Lichess's API reference
/// shows them (lichess-org/api: broadcasts-getBroadcastRound.json and
/// broadcasts-getPlayersOfBroadcastTournament.json, shortened).
pub const TOUR_ID: &str = "ZEB4BtHU";
pub const PLAYERS_JSON: &str = r#"[{"name":"Aravindh, Chithambaram VR.","title":"GM","rating":2749,"fed":"IND","played":9,"score":2.5,"rank":10},{"name":"Praggnanandhaa R","title":"GM","rating":2758,"fed":"IND","played":9,"score":5.5,"rank":1}]"#;

/// Answers the round's and the tournament's JSON at once (on the accepting
/// thread); true if the request was one of them.
fn answer_json(conn: &mut TcpStream, request: &str, round: &str) -> bool {
    let round_json = format!(
        r#"{{"round":{{"id":"{round}","name":"Round 1"}},"tour":{{"id":"{TOUR_ID}","name":"Rochade Open"}},"study":{{"writeable":false}},"games":[]}}"#
    );
    let json = if request.starts_with(&format!("GET /api/broadcast/-/-/{round} ")) {
        round_json
    } else if request.starts_with(&format!("GET /broadcast/{TOUR_ID}/players ")) {
        PLAYERS_JSON.to_owned()
    } else {
        return false;
    };
    let _ = conn.write_all(
        format!(
            "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{json}",
            json.len()
        )
        .as_bytes(),
    );
    true
}

fn serve(listener: TcpListener, path: &str, games: Vec<String>, steps: Receiver<Step>) {
    let round = path
        .trim_start_matches("GET /api/stream/broadcast/round/")
        .trim_end_matches(".pgn ")
        .to_owned();
    // The stream's connections are served one after another on a thread of
    // their own; the JSON answers do not wait for them.
    let (streams, stream_rx) = channel::<TcpStream>();
    std::thread::spawn(move || serve_streams(stream_rx, games, steps));
    for conn in listener.incoming() {
        let Ok(mut conn) = conn else { continue };
        let request = read_request(&mut conn);
        if answer_json(&mut conn, &request, &round) {
            continue;
        }
        if !request.starts_with(path) {
            let _ = conn.write_all(b"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n");
            continue;
        }
        if streams.send(conn).is_err() {
            return;
        }
    }
}

fn serve_streams(conns: Receiver<TcpStream>, mut games: Vec<String>, steps: Receiver<Step>) {
    for mut conn in conns {
        // HTTP/1.0-style: the body ends when the connection closes.
        let _ = conn.write_all(
            b"HTTP/1.1 200 OK\r\nContent-Type: application/x-chess-pgn\r\nConnection: close\r\n\r\n",
        );
        let _ = conn.write_all(games.concat().as_bytes());
        let _ = conn.flush();
        loop {
            match steps.recv() {
                Ok(Step::Change(i, pgn)) => {
                    let _ = conn.write_all(pgn.as_bytes());
                    let _ = conn.flush();
                    games[i] = pgn;
                }
                Ok(Step::CutWith(i, pgn)) => {
                    games[i] = pgn;
                    break;
                }
                // The test is over.
                Err(_) => return,
            }
        }
    }
}
