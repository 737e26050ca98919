//! `rochade online --json` as a player drives it in the online tests: the
//! process against a local server (tests/support/lichess_server.rs), every
//! line it prints kept with the instant it arrived, and a whole game played
//! from the script (our moves typed on our turn, the opponent's read),
//! checked as it goes: each move announced once, in the server's order.
//! Included with `#[path]` next to `lichess_server` and `hermetic`.
#![allow(dead_code)]

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::{Duration, Instant};

use super::hermetic;
use super::lichess_server::Server;
use serde_json::Value;

/// A game that says nothing this long is stalled.
pub const STALL: Duration = Duration::from_secs(20);

pub struct Client {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<(Instant, String)>,
    /// Every line so far, with the instant it was read.
    pub seen: Vec<(Instant, String)>,
}

impl Client {
    /// `rochade online --json --quiet --lang en` against `server` with short
    /// waits (backoff 20 ms, 429 waited `rate_limit_ms`, keep-alives every
    /// 100 ms as the test server sends them) and `extra` arguments.
    pub fn start(server: &Server, token: &str, rate_limit_ms: u64, extra: &[&str]) -> Client {
        Client::start_at(&server.url(), token, rate_limit_ms, extra)
    }

    /// The same against the server at `url`.
    pub fn start_at(url: &str, token: &str, rate_limit_ms: u64, extra: &[&str]) -> Client {
        Client::start_env(url, token, rate_limit_ms, extra, &[])
    }

    /// The same with these environment variables set.
    pub fn start_env(
        url: &str,
        token: &str,
        rate_limit_ms: u64,
        extra: &[&str],
        env: &[(&str, &str)],
    ) -> Client {
        let url = url.to_owned();
        let rate = rate_limit_ms.to_string();
        let mut args = vec![
            "online",
            "--server",
            url.as_str(),
            "--json",
            "--quiet",
            "--lang",
            "en",
            "--backoff-ms",
            "20",
            "--rate-limit-wait-ms",
            rate.as_str(),
            "--stream-timeout-ms",
            "3000",
            "--keep-alive-ms",
            "100",
        ];
        args.extend(extra);
        let mut child = hermetic::rochade()
            .envs(env.iter().copied())
            .env("ROCHADE_SECRET_STORE", "file")
            .env("ROCHADE_LICHESS_TOKEN", token)
            .args(&args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("rochade runs");
        let stdin = child.stdin.take();
        let stdout = child.stdout.take().unwrap();
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send((Instant::now(), line)).is_err() {
                    break;
                }
            }
        });
        Client {
            child,
            stdin,
            lines,
            seen: Vec::new(),
        }
    }

    /// The next event, or an error naming what was seen (a stall).
    pub fn next(&mut self) -> Result<(Instant, Value), String> {
        match self.lines.recv_timeout(STALL) {
            Ok((at, line)) => {
                self.seen.push((at, line.clone()));
                serde_json::from_str(&line)
                    .map(|v| (at, v))
                    .map_err(|e| format!("{e}: {line}"))
            }
            Err(e) => Err(format!(
                "no event for {STALL:?} ({e}); seen:\n{}",
                self.transcript()
            )),
        }
    }

    pub fn until(&mut self, event: &str) -> Result<Value, String> {
        loop {
            let (_, v) = self.next()?;
            if v["event"] == event {
                return Ok(v);
            }
        }
    }

    pub fn type_line(&mut self, text: &str) {
        if let Some(stdin) = &mut self.stdin {
            let _ = writeln!(stdin, "{text}");
            let _ = stdin.flush();
        }
    }

    pub fn transcript(&self) -> String {
        let lines: Vec<&str> = self.seen.iter().map(|(_, l)| l.as_str()).collect();
        lines.join("\n")
    }

    /// Stdin closed; the exit code once the process ended.
    pub fn finish(mut self) -> (i32, String) {
        self.stdin = None;
        while let Ok((at, line)) = self.lines.recv_timeout(STALL) {
            self.seen.push((at, line));
        }
        let code = self.child.wait().map(|s| s.code().unwrap_or(-1));
        (code.unwrap_or(-1), self.transcript())
    }
}

impl Drop for Client {
    fn drop(&mut self) {
        // A failed test leaves no process behind.
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// What a game played to its end showed.
#[derive(Debug, Default)]
pub struct Played {
    /// The longest time from the server making an opponent's move to its
    /// `move` event, and the ply.
    pub longest: (Duration, usize),
    /// Every such time.
    pub delays: Vec<Duration>,
    /// "While the connection was lost" said (times).
    pub caught_up: usize,
}

/// Plays `moves` (the server's script) to the end through `client`: our
/// moves typed on our turn, the opponent's read; then `resign` and the
/// `end`. Fails (Err, with the transcript) on a stall, a move announced
/// twice or out of the server's order, a move taken back, or a record
/// that is not the server's at the end.
pub fn play_to_end(
    client: &mut Client,
    server: &Server,
    moves: &[String],
    account_white: bool,
) -> Result<Played, String> {
    let game = client.until("game")?;
    let colour = if account_white { "white" } else { "black" };
    if game["color"] != colour {
        return Err(format!("plays {} not {colour}", game["color"]));
    }
    let mut played = Played::default();
    let mut ply = 0;
    let ours = |ply: usize| ply.is_multiple_of(2) == account_white;
    let mut typed = usize::MAX;
    while ply < moves.len() {
        if ours(ply) && typed != ply {
            client.type_line(&moves[ply]);
            typed = ply;
        }
        let (at, v) = client.next()?;
        match v["event"].as_str().unwrap_or("") {
            "move" => {
                let by = if ours(ply) { "player" } else { "opponent" };
                if v["uci"] != moves[ply].as_str() || v["by"] != by {
                    return Err(format!(
                        "ply {ply}: expected {} by {by}, got {v}; seen:\n{}",
                        moves[ply],
                        client.transcript()
                    ));
                }
                if !ours(ply) {
                    let made = server.made_at().get(ply).copied().unwrap_or(at);
                    let delay = at.saturating_duration_since(made);
                    played.delays.push(delay);
                    if delay > played.longest.0 {
                        played.longest = (delay, ply);
                    }
                }
                ply += 1;
            }
            "takeback" => {
                return Err(format!(
                    "a move taken back: {v}; seen:\n{}",
                    client.transcript()
                ));
            }
            "caught_up" => played.caught_up += 1,
            "end" => {
                return Err(format!("ended early: {v}; seen:\n{}", client.transcript()));
            }
            _ => {}
        }
    }
    // The last move announced may still be on its way to the server (its
    // request lost, sent again once the game is read again): the player
    // resigns once the server has it.
    let until = Instant::now() + STALL;
    while server.moves() != moves {
        if Instant::now() > until {
            return Err(format!(
                "the server has {:?}, never the last move; seen:\n{}",
                server.moves(),
                client.transcript()
            ));
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    // Resigning is asked first: the same word again resigns.
    client.type_line("resign");
    client.type_line("resign");
    let mut tries = 1;
    loop {
        let (_, v) = client.next()?;
        match v["event"].as_str().unwrap_or("") {
            "end" => break,
            // Lost with the network (said so): typed again, as a player would.
            "error" if v["input"] == "resign" && tries < 10 => {
                std::thread::sleep(Duration::from_millis(100));
                client.type_line("resign");
                client.type_line("resign");
                tries += 1;
            }
            "move" | "takeback" => {
                return Err(format!(
                    "after the last move: {v}; seen:\n{}",
                    client.transcript()
                ));
            }
            _ => {}
        }
    }
    if server.moves() != moves {
        return Err(format!(
            "the server has {:?}; seen:\n{}",
            server.moves(),
            client.transcript()
        ));
    }
    Ok(played)
}

/// A random legal game of `plies` plies from the start (seeded), none of
/// whose moves ends the game.
pub fn random_game(seed: u64, plies: usize) -> Vec<String> {
    use shakmaty::{CastlingMode, Chess, Position};
    let mut rng = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let mut random = move || {
        rng ^= rng >> 12;
        rng ^= rng << 25;
        rng ^= rng >> 27;
        rng.wrapping_mul(0x2545_F491_4F6C_DD1D)
    };
    let mut position = Chess::default();
    let mut moves = Vec::new();
    while moves.len() < plies {
        let legal = position.legal_moves();
        let start = random() as usize % legal.len().max(1);
        let next = (0..legal.len())
            .map(|i| &legal[(start + i) % legal.len()])
            .find(|m| !position.clone().play(**m).unwrap().is_game_over());
        let Some(mv) = next else { break };
        moves.push(mv.to_uci(CastlingMode::Standard).to_string());
        position.play_unchecked(*mv);
    }
    moves
}
