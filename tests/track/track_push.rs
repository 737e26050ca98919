//! `rochade track --log LOG --push-round ID` against a local server that
//! takes pushes as Lichess documents them (`POST
//! /api/broadcast/round/{id}/push`, `text/plain` PGN, bearer token; games
//! matched by their tags Event, Round, White and Black, each push the whole
//! game; the answer `{"games": [{"tags": {..}, "moves": N}]}` or `{tags,
//! error}`; 401 for a bad token, 429 for too many requests: lichess-org's
//! API documentation and its `curl-pusher.sh` test script). The server is
//! harsher than the real one: at random points it cuts a connection before
//! or after taking the game (the client cannot tell which), fails with
//! 500, asks to wait (429), answers slowly or a few bytes at a time. Five
//! seeds; in each the round must end holding the whole game, read back
//! by python-chess (a reader we did not write).

use std::collections::BTreeMap;
use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::hermetic;
use crate::paced_game;
use crate::rng;
use rng::Rng;

const ROUND: &str = "PuSh1234";
const TOKEN: &str = "lip_studywrite";

/// The game the peg-board plays: a Ruy Lopez, castling and captures.
const GAME: &[&str] = &[
    "e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Ba4", "Nf6", "O-O", "Be7", "Re1", "b5", "Bb3", "d6",
    "c3", "O-O", "h3", "Nb8", "d4", "Nbd7", "c4", "c6", "cxb5", "axb5", "Nc3", "Bb7", "Bg5",
];

/// The peg-board's log of [`GAME`] at a human pace, as a live session
/// records it.
fn board_log() -> String {
    let moves = paced_game::sans(GAME);
    // The a1 rook never leaves a1 in this game: a sensor stuck there is no fault.
    let no_fault = paced_game::Fault::Stuck(shakmaty::Square::A1);
    let mut log = String::from("# rochade board log format=peg baud=115200\n");
    for (at, mask) in paced_game::paced_frames(&moves, 1200, no_fault, 0) {
        let line = rochade::board::protocol::write_snapshot(mask);
        log.push_str(&format!("{at} {}\n", line.trim_end()));
    }
    log
}

/// What the round holds: each game's PGN by its four matching tags.
type Round = Arc<Mutex<BTreeMap<[String; 4], String>>>;

/// How the server misbehaves for one seed.
struct Faults {
    rng: Rng,
    /// Percent of requests that meet some fault.
    rate: u64,
}

fn tag(pgn: &str, name: &str) -> String {
    let prefix = format!("[{name} \"");
    pgn.lines()
        .find_map(|l| l.strip_prefix(&prefix)?.strip_suffix("\"]"))
        .unwrap_or("")
        .to_owned()
}

/// Half-moves in a PGN's movetext (tokens that are neither numbers,
/// comments nor the result).
fn half_moves(pgn: &str) -> usize {
    let text: String = pgn
        .lines()
        .filter(|l| !l.starts_with('['))
        .collect::<Vec<_>>()
        .join(" ");
    let mut depth = 0;
    let mut plain = String::new();
    for c in text.chars() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            _ if depth == 0 => plain.push(c),
            _ => {}
        }
    }
    plain
        .split_whitespace()
        .filter(|t| !t.ends_with('.') && !["*", "1-0", "0-1", "1/2-1/2"].contains(t))
        .count()
}

fn read_request(conn: &mut TcpStream) -> Option<(String, String)> {
    let mut head = Vec::new();
    let mut byte = [0u8; 1];
    while !head.ends_with(b"\r\n\r\n") {
        match conn.read(&mut byte) {
            Ok(1) => head.push(byte[0]),
            _ => return None,
        }
    }
    let head = String::from_utf8_lossy(&head).into_owned();
    let length: usize = head
        .lines()
        .find_map(|l| {
            let (name, value) = l.split_once(':')?;
            name.eq_ignore_ascii_case("content-length")
                .then(|| value.trim().parse().ok())?
        })
        .unwrap_or(0);
    let mut body = vec![0u8; length];
    conn.read_exact(&mut body).ok()?;
    Some((head, String::from_utf8_lossy(&body).into_owned()))
}

fn answer(conn: &mut TcpStream, status: &str, body: &str, rng: &mut Rng, pieces: bool) {
    let text = format!(
        "HTTP/1.1 {status}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\
         Connection: close\r\n\r\n{body}",
        body.len()
    );
    let bytes = text.as_bytes();
    let mut at = 0;
    while at < bytes.len() {
        let n = if pieces {
            (1 + rng.below(12) as usize).min(bytes.len() - at)
        } else {
            bytes.len() - at
        };
        if conn.write_all(&bytes[at..at + n]).is_err() {
            return;
        }
        let _ = conn.flush();
        at += n;
    }
}

/// Serves pushes until the listener is dropped with the test.
fn serve(listener: TcpListener, round: Round, mut faults: Faults, requests: Arc<Mutex<usize>>) {
    for conn in listener.incoming() {
        let Ok(mut conn) = conn else { continue };
        let _ = conn.set_read_timeout(Some(Duration::from_secs(5)));
        *requests.lock().unwrap() += 1;
        let rng = &mut faults.rng;
        let fault = rng.chance(faults.rate).then(|| rng.below(6));
        if fault == Some(0) {
            // Cut before anything is read.
            drop(conn);
            continue;
        }
        let Some((head, body)) = read_request(&mut conn) else {
            continue;
        };
        if !head.starts_with(&format!("POST /api/broadcast/round/{ROUND}/push ")) {
            answer(
                &mut conn,
                "404 Not Found",
                r#"{"error":"Not found"}"#,
                rng,
                false,
            );
            continue;
        }
        if !head.contains(&format!("Bearer {TOKEN}")) {
            answer(
                &mut conn,
                "401 Unauthorized",
                r#"{"error":"No such token"}"#,
                rng,
                false,
            );
            continue;
        }
        match fault {
            Some(1) => {
                answer(&mut conn, "500 Internal Server Error", "", rng, false);
                continue;
            }
            Some(2) => {
                answer(&mut conn, "429 Too Many Requests", "", rng, false);
                continue;
            }
            _ => {}
        }
        let key = ["Event", "Round", "White", "Black"].map(|n| tag(&body, n));
        let moves = half_moves(&body);
        round.lock().unwrap().insert(key.clone(), body);
        match fault {
            // Taken, then cut before the answer: the client cannot know.
            Some(3) => drop(conn),
            Some(4) => {
                std::thread::sleep(Duration::from_millis(rng.between(50, 400)));
                let tags = format!(r#"{{"White":"{}","Black":"{}"}}"#, key[2], key[3]);
                let body = format!(r#"{{"games":[{{"tags":{tags},"moves":{moves}}}]}}"#);
                answer(&mut conn, "200 OK", &body, rng, true);
            }
            _ => {
                let tags = format!(r#"{{"White":"{}","Black":"{}"}}"#, key[2], key[3]);
                let body = format!(r#"{{"games":[{{"tags":{tags},"moves":{moves}}}]}}"#);
                answer(&mut conn, "200 OK", &body, rng, fault == Some(5));
            }
        }
    }
}

struct Run {
    events: Vec<serde_json::Value>,
    round: BTreeMap<[String; 4], String>,
    requests: usize,
    took: Duration,
}

fn push_run(seed: u64, rate: u64, token: &str, extra: &[&str]) -> Run {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let server = format!("http://{}", listener.local_addr().unwrap());
    let round: Round = Arc::default();
    let requests = Arc::new(Mutex::new(0));
    let faults = Faults {
        rng: Rng(seed),
        rate,
    };
    {
        let (round, requests) = (round.clone(), requests.clone());
        std::thread::spawn(move || serve(listener, round, faults, requests));
    }
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("board.log");
    std::fs::write(&log, board_log()).unwrap();
    let started = Instant::now();
    let out = hermetic::rochade()
        .env("ROCHADE_LICHESS_TOKEN", token)
        .args(["track", "--lang", "en", "--log", log.to_str().unwrap()])
        .args(["--push-round", ROUND, "--server", &server])
        .args(["--event", "IBCA Open", "--round-tag", "3.1"])
        .args(["--white", "Blind, Anna", "--black", "Sighted, Bob"])
        .args(["--push-backoff-ms", "50", "--push-rate-limit-ms", "300"])
        .args(extra)
        .output()
        .expect("rochade runs");
    let took = started.elapsed();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let events = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{l}: {e}")))
        .collect();
    let round = round.lock().unwrap().clone();
    let requests = *requests.lock().unwrap();
    Run {
        events,
        round,
        requests,
        took,
    }
}

fn of_kind<'a>(events: &'a [serde_json::Value], kind: &str) -> Vec<&'a serde_json::Value> {
    events.iter().filter(|e| e["event"] == kind).collect()
}

/// The game's SAN moves and tags as python-chess reads the PGN.
fn python_reads(pgn: &str) -> (Vec<String>, BTreeMap<String, String>) {
    let script = r#"
import sys, json, chess.pgn, io
game = chess.pgn.read_game(io.StringIO(sys.stdin.read()))
assert not game.errors, game.errors
board = game.board()
sans = []
for move in game.mainline_moves():
    sans.append(board.san(move))
    board.push(move)
print(json.dumps({"sans": sans, "tags": dict(game.headers)}))
"#;
    let mut child = std::process::Command::new("python3")
        .args(["-c", script])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("python3 with python-chess (scripts/deps.sh installs it)");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(pgn.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "python-chess refused:\n{pgn}");
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let sans = v["sans"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_str().unwrap().to_owned())
        .collect();
    let tags = v["tags"]
        .as_object()
        .unwrap()
        .iter()
        .map(|(k, v)| (k.clone(), v.as_str().unwrap().to_owned()))
        .collect();
    (sans, tags)
}

#[test]
fn the_round_holds_the_whole_game_through_a_harsh_server_over_five_seeds() {
    let mut worst = usize::MAX;
    for seed in 1..=5u64 {
        let run = push_run(seed * 7919, 35, TOKEN, &[]);
        let moves = of_kind(&run.events, "move");
        assert_eq!(moves.len(), GAME.len(), "seed {seed}: the board's game");
        assert_eq!(run.round.len(), 1, "seed {seed}: one game on the round");
        let (key, pgn) = run.round.iter().next().unwrap();
        assert_eq!(
            key,
            &["IBCA Open", "3.1", "Blind, Anna", "Sighted, Bob"].map(String::from),
            "seed {seed}"
        );
        let (sans, tags) = python_reads(pgn);
        let whole = sans == GAME;
        worst = worst.min(if whole { sans.len() } else { 0 });
        assert!(whole, "seed {seed}: the round holds {sans:?}");
        assert_eq!(tags["White"], "Blind, Anna");
        let done = of_kind(&run.events, "push_done");
        assert_eq!(done.len(), 1, "seed {seed}: {:?}", run.events.last());
        // Each kind of trouble is told once, with its words.
        let problems = of_kind(&run.events, "push_problem");
        let mut kinds: Vec<&str> = problems
            .iter()
            .map(|p| p["problem"].as_str().unwrap())
            .collect();
        assert!(
            problems
                .iter()
                .all(|p| p["text"].as_str().is_some_and(|t| !t.is_empty()))
        );
        let told = kinds.len();
        kinds.sort_unstable();
        kinds.dedup();
        let recovered = of_kind(&run.events, "push_recovered").len();
        assert!(
            told <= kinds.len() * (recovered + 1),
            "seed {seed}: {problems:?}"
        );
        println!(
            "seed {seed}: {} requests, {} problems told, {recovered} recoveries, {:?}",
            run.requests, told, run.took
        );
    }
    println!("worst: {worst} of {} half-moves on the round", GAME.len());
}

#[test]
fn a_refused_token_is_told_once_and_the_end_is_not_held() {
    let run = push_run(3, 0, "lip_wrong", &["--push-wait-ms", "2000"]);
    assert_eq!(of_kind(&run.events, "move").len(), GAME.len());
    assert!(run.round.is_empty());
    let problems = of_kind(&run.events, "push_problem");
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert_eq!(problems[0]["problem"], "unauthorized");
    assert!(
        problems[0]["text"]
            .as_str()
            .unwrap()
            .contains("study:write")
    );
    assert_eq!(of_kind(&run.events, "push_behind").len(), 1);
    // A refused token ends the wait at once (no 2 s held for nothing).
    assert!(run.took < Duration::from_millis(1800), "{:?}", run.took);
}

#[test]
fn a_server_that_never_answers_leaves_every_move_said_and_ends_on_time() {
    // Takes connections and never answers them.
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let server = format!("http://{}", listener.local_addr().unwrap());
    std::thread::spawn(move || {
        let mut held = Vec::new();
        for conn in listener.incoming().flatten() {
            held.push(conn);
        }
    });
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("board.log");
    std::fs::write(&log, board_log()).unwrap();
    let started = Instant::now();
    let out = hermetic::rochade()
        .env("ROCHADE_LICHESS_TOKEN", TOKEN)
        .args(["track", "--lang", "en", "--log", log.to_str().unwrap()])
        .args(["--push-round", ROUND, "--server", &server])
        .args(["--push-wait-ms", "1500"])
        .output()
        .unwrap();
    let took = started.elapsed();
    assert!(out.status.success());
    let events: Vec<serde_json::Value> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(of_kind(&events, "move").len(), GAME.len());
    assert_eq!(of_kind(&events, "push_behind").len(), 1);
    assert!(took < Duration::from_secs(6), "{took:?}");
}

#[test]
fn a_round_id_that_is_no_id_is_refused_before_anything_runs() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("board.log");
    std::fs::write(&log, board_log()).unwrap();
    let out = hermetic::rochade()
        .env("ROCHADE_LICHESS_TOKEN", TOKEN)
        .args([
            "track",
            "--log",
            log.to_str().unwrap(),
            "--push-round",
            "../x",
        ])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(out.stdout.is_empty(), "nothing followed");
    assert!(stderr.contains("--push-round ../x"), "{stderr}");
}

/// A live board (a pseudo-terminal) and a server that takes two seconds
/// over every push: each move is announced as soon as it is made (the push
/// waits on its own thread), and the round catches up with the game.
#[cfg(unix)]
#[test]
fn a_slow_broadcast_never_delays_a_live_move_and_the_round_catches_up() {
    use serialport::{SerialPort, TTYPort};
    use std::io::{BufRead, BufReader};
    use std::process::Stdio;

    const PLIES: usize = 12;
    const PLY_MS: u64 = 300;
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let server = format!("http://{}", listener.local_addr().unwrap());
    let round: Round = Arc::default();
    {
        let round = round.clone();
        std::thread::spawn(move || {
            for conn in listener.incoming().flatten() {
                let round = round.clone();
                std::thread::spawn(move || {
                    let mut conn = conn;
                    let Some((_, body)) = read_request(&mut conn) else {
                        return;
                    };
                    std::thread::sleep(Duration::from_secs(2));
                    let moves = half_moves(&body);
                    let key = ["Event", "Round", "White", "Black"].map(|n| tag(&body, n));
                    round.lock().unwrap().insert(key, body);
                    let answer_body = format!(r#"{{"games":[{{"tags":{{}},"moves":{moves}}}]}}"#);
                    answer(&mut conn, "200 OK", &answer_body, &mut Rng(1), false);
                });
            }
        });
    }
    let moves = paced_game::sans(&GAME[..PLIES]);
    let frames = paced_game::paced_frames(
        &moves,
        PLY_MS,
        paced_game::Fault::Stuck(shakmaty::Square::A1),
        0,
    );
    let dir = tempfile::tempdir().unwrap();
    let link = dir.path().join("board");
    let (mut master, slave) = TTYPort::pair().unwrap();
    std::os::unix::fs::symlink(slave.name().unwrap(), &link).unwrap();
    let mut send = |mask: u64| {
        master
            .write_all(rochade::board::protocol::write_snapshot(mask).as_bytes())
            .unwrap();
    };
    send(frames[0].1);
    let mut child = hermetic::rochade()
        .env("ROCHADE_LICHESS_TOKEN", TOKEN)
        .args([
            "track",
            "--lang",
            "en",
            "--push-round",
            ROUND,
            "--server",
            &server,
        ])
        .arg(&link)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    let stdout = child.stdout.take().unwrap();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            let value: serde_json::Value = serde_json::from_str(&line).unwrap();
            if tx.send((Instant::now(), value)).is_err() {
                return;
            }
        }
    });
    let start = Instant::now();
    // When each ply's move was complete on the board.
    let mut made = [None; PLIES];
    let mut pos = shakmaty::Chess::default();
    let mut boards = Vec::new();
    for &mv in &moves {
        shakmaty::Position::play_unchecked(&mut pos, mv);
        boards.push(shakmaty::Position::board(&pos).occupied().0);
    }
    let mut ply = 0;
    for &(at, mask) in &frames {
        let due = start + Duration::from_millis(at);
        if let Some(wait) = due.checked_duration_since(Instant::now()) {
            std::thread::sleep(wait);
        }
        send(mask);
        if ply < PLIES && mask == boards[ply] && at >= (ply as u64 + 1) * PLY_MS {
            made[ply] = Some(Instant::now());
            ply += 1;
        }
    }
    let mut announced = [None; PLIES];
    let end = Instant::now() + Duration::from_secs(10);
    while announced.iter().any(Option::is_none) && Instant::now() < end {
        if let Ok((at, v)) = rx.recv_timeout(Duration::from_millis(200))
            && v["event"] == "move"
        {
            let ply = v["ply"].as_u64().unwrap() as usize;
            announced[ply - 1] = Some(at);
        }
    }
    // The round catches up (the pushes take 2 s each).
    let caught_up = Instant::now() + Duration::from_secs(15);
    let holds = || {
        round
            .lock()
            .unwrap()
            .values()
            .next()
            .map_or(0, |pgn| half_moves(pgn))
    };
    while holds() < PLIES && Instant::now() < caught_up {
        std::thread::sleep(Duration::from_millis(100));
    }
    let _ = child.kill();
    let _ = child.wait();
    let mut worst = Duration::ZERO;
    for i in 0..PLIES {
        let (Some(made), Some(said)) = (made[i], announced[i]) else {
            panic!(
                "ply {}: made {:?}, announced {:?}",
                i + 1,
                made[i],
                announced[i]
            );
        };
        worst = worst.max(said.saturating_duration_since(made));
    }
    println!("slowest announcement with 2 s pushes: {worst:?}");
    assert!(worst < Duration::from_millis(1500), "{worst:?}");
    assert_eq!(holds(), PLIES, "the round holds the whole game");
}
