//! `rochade watch` against a local server that streams a broadcast round
//! as Lichess documents it (`GET /api/stream/broadcast/round/{id}.pgn`:
//! every game of the round whole, then a game's whole PGN again each time
//! it changes; lila's `RelayPgnStream`: the round's dump, then
//! `ofChapter` per changed chapter). The server is harsher than the real
//! one: lines split and merged at random points, connections cut at
//! random points (mid-line, cleanly or not), a relay's correction, and
//! each new connection carrying the round as it stands (what the client
//! missed). Five seeds; the worst must still be exact.

use std::io::Write;
use std::net::{TcpListener, TcpStream};
use std::process::Output;

use crate::broadcast_round;
use crate::hermetic;
use crate::rng;
use broadcast_round::read_request;
use rng::Rng;

const ROUND: &str = "AbCd1234";

/// The watched game (board 2), state by state: its moves and result. The
/// fourth state has another last move at the same length (a correction).
fn watched_states() -> Vec<(&'static str, &'static str)> {
    vec![
        ("1. d4", "*"),
        ("1. d4 Nf6", "*"),
        ("1. d4 Nf6 2. c4 e6", "*"),
        ("1. d4 Nf6 2. c4 g6", "*"),
        ("1. d4 Nf6 2. c4 g6 3. Nc3", "*"),
        ("1. d4 Nf6 2. c4 g6 3. Nc3 Bg7 4. e4 d6", "*"),
        ("1. d4 Nf6 2. c4 g6 3. Nc3 Bg7 4. e4 d6 5. Nf3 O-O", "1-0"),
    ]
}

fn pgn(white: &str, black: &str, moves: &str, result: &str) -> String {
    format!(
        "[Event \"Rochade Open\"]\n[Site \"https://lichess.org/study/x/{white}\"]\n[Round \"1\"]\n\
         [White \"{white}\"]\n[Black \"{black}\"]\n[Result \"{result}\"]\n\
         [TimeControl \"5400+30\"]\n\n{moves} {{ [%clk 1:29:57] }} {result}\n\n\n"
    )
}

/// The round at state `k`: three boards, board 2 the watched one.
fn round_at(k: usize) -> Vec<String> {
    let (moves, result) = watched_states()[k];
    let others = ["1. e4", "1. e4 c5", "1. e4 c5 2. Nf3"];
    let other = others[k.min(others.len() - 1)];
    vec![
        pgn("Alpha", "Beta", other, "*"),
        pgn("Carlsen", "Caruana", moves, result),
        pgn("Gamma", "Delta", "1. c4", "*"),
    ]
}

/// Writes `bytes` in pieces cut at random points (a line split over
/// chunks, several lines in one); stops early at `cut` bytes.
fn send_pieces(conn: &mut TcpStream, bytes: &[u8], rng: &mut Rng) -> std::io::Result<()> {
    let mut at = 0;
    while at < bytes.len() {
        let n = (1 + rng.below(200) as usize).min(bytes.len() - at);
        conn.write_all(&bytes[at..at + n])?;
        conn.flush()?;
        at += n;
    }
    Ok(())
}

/// Serves the round: each connection gets the round as it stands, then
/// the changes that follow, and is cut at a random point (or at once).
/// Returns when the last state has been sent whole on a connection.
fn serve(listener: TcpListener, seed: u64) {
    let mut rng = Rng(seed);
    let mut state = 0;
    let last = watched_states().len() - 1;
    for conn in listener.incoming() {
        let Ok(mut conn) = conn else { continue };
        let request = read_request(&mut conn);
        if !request.starts_with(&format!("GET /api/stream/broadcast/round/{ROUND}.pgn ")) {
            let _ = conn.write_all(b"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n");
            continue;
        }
        // HTTP/1.0-style: the body ends when the connection closes.
        let _ = conn.write_all(
            b"HTTP/1.1 200 OK\r\nContent-Type: application/x-chess-pgn\r\nConnection: close\r\n\r\n",
        );
        let mut stream = round_at(state).concat().into_bytes();
        // The changes after the dump: only the changed game, whole.
        let changes = 1 + rng.below(3) as usize;
        for _ in 0..changes {
            if state < last {
                state += 1;
                stream.extend(round_at(state)[1].as_bytes());
            }
        }
        let finished = state == last;
        // Cut somewhere (the state may be sent only in part: the next
        // connection's dump carries it); the last state is sent whole.
        let keep = if finished {
            stream.len()
        } else {
            rng.below(stream.len() as u64 + 1) as usize
        };
        let _ = send_pieces(&mut conn, &stream[..keep], &mut rng);
        // Closed there, often in the middle of a line or of a game.
        drop(conn);
        if finished {
            return;
        }
    }
}

fn watch(server: &str, args: &[&str]) -> Output {
    hermetic::rochade()
        .args(["watch", ROUND, "--server", server, "--quiet", "--json"])
        .args(["--backoff-ms", "1", "--lang", "en"])
        .args(args)
        .output()
        .expect("run rochade watch")
}

fn events(out: &Output) -> Vec<serde_json::Value> {
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{l}: {e}")))
        .collect()
}

/// Every move of the watched game said once, in order; a correction takes
/// back exactly the moves that no longer stand; the result last.
#[test]
fn a_board_is_followed_to_its_result_across_cut_connections_over_five_seeds() {
    let final_sans = [
        "d4", "Nf6", "c4", "g6", "Nc3", "Bg7", "e4", "d6", "Nf3", "O-O",
    ];
    for seed in 1..=5 {
        for pick in [["--board", "2"], ["--player", "caruana"]] {
            let listener = TcpListener::bind("127.0.0.1:0").unwrap();
            let server = format!("http://{}", listener.local_addr().unwrap());
            let serving = std::thread::spawn(move || serve(listener, seed));
            let out = watch(&server, &pick);
            assert!(
                out.status.success(),
                "seed {seed}: {}",
                String::from_utf8_lossy(&out.stderr)
            );
            let all = events(&out);
            let found: Vec<_> = all.iter().filter(|e| e["event"] == "found").collect();
            assert_eq!(found.len(), 1, "seed {seed}: {all:?}");
            assert_eq!(found[0]["board"], 2);
            // Joined with `plies` half-moves played: the last of them is
            // said first; those before it are not said.
            let plies = found[0]["plies"].as_u64().unwrap() as usize;
            let mut stand: Vec<String> = vec!["(before)".to_owned(); plies.saturating_sub(1)];
            for e in all.iter().filter(|e| e["event"] != "found") {
                match e["event"].as_str().unwrap() {
                    "move" => {
                        assert_eq!(e["ply"], stand.len() + 1, "seed {seed}: {all:?}");
                        stand.push(e["san"].as_str().unwrap().to_owned());
                    }
                    "correction" => {
                        let ply = e["ply"].as_u64().unwrap() as usize;
                        assert!(ply < stand.len(), "seed {seed}: {e}");
                        stand.truncate(ply);
                    }
                    "result" => assert_eq!(e["result"], "1-0"),
                    _ => {}
                }
            }
            // What stands is the final game, but for moves never said.
            assert_eq!(stand.len(), final_sans.len(), "seed {seed}: {all:?}");
            for (said, played) in stand.iter().zip(final_sans) {
                assert!(
                    said == played || said == "(before)",
                    "seed {seed}: {stand:?}"
                );
            }
            assert!(
                stand.iter().any(|s| s != "(before)"),
                "seed {seed}: a move was said"
            );
            assert_eq!(all.last().unwrap()["event"], "result", "seed {seed}");
            serving.join().unwrap();
        }
    }
}

#[test]
fn a_player_by_name_and_bad_input_are_answered() {
    // An id that is no id: refused before any connection.
    let out = watch("http://127.0.0.1:9", &["--board", "1", "../x"]);
    assert!(!out.status.success());
    // No such round: the server answers 404.
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let server = format!("http://{}", listener.local_addr().unwrap());
    std::thread::spawn(move || {
        for mut conn in listener.incoming().flatten() {
            read_request(&mut conn);
            let _ = conn.write_all(b"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n");
        }
    });
    let out = hermetic::rochade()
        .args([
            "watch", "Nope1234", "--server", &server, "--quiet", "--board", "1",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no broadcast round"));
    // The round's address pasted whole: its id is asked for (and the
    // server has none).
    let out = hermetic::rochade()
        .args([
            "watch",
            "https://lichess.org/broadcast/rochade-open/round-1/Nope1234",
            "--server",
            &server,
            "--quiet",
            "--board",
            "1",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("the server has no broadcast round"),
        "{stderr}"
    );
}

/// A round's PGN piped in (`curl ... | rochade watch - --board N`), and a
/// player who is not there: the boards are named.
#[test]
fn a_stream_from_stdin_and_a_player_not_in_the_round() {
    let stream: String = (0..watched_states().len())
        .map(|k| round_at(k).concat())
        .collect();
    let run = |args: &[&str]| {
        let mut child = hermetic::rochade()
            .args(["watch", "-", "--quiet", "--lang", "de"])
            .args(args)
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        child
            .stdin
            .take()
            .unwrap()
            .write_all(stream.as_bytes())
            .unwrap();
        child.wait_with_output().unwrap()
    };
    let out = run(&["--board", "2"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8_lossy(&out.stdout);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "Brett 2: Carlsen gegen Caruana");
    assert!(
        lines.contains(&"Brett 2: berichtigt, zurück zu Halbzug 3"),
        "{lines:?}"
    );
    assert_eq!(
        lines.last().unwrap(),
        &"Partie beendet: Weiß gewinnt, Ergebnis laut Partieformular"
    );
    let out = run(&["--player", "Nakamura"]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("1: Alpha - Beta; 2: Carlsen - Caruana; 3: Gamma - Delta"),
        "{stderr}"
    );
}

/// A connection that goes silent for ever and one that sends an endless
/// line are both given up and made again; the round's end still comes.
#[test]
fn a_silent_stream_and_an_endless_line_are_left_for_a_new_connection() {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let server = format!("http://{}", listener.local_addr().unwrap());
    let serving = std::thread::spawn(move || {
        let mut held = Vec::new();
        for (n, conn) in listener.incoming().enumerate() {
            let Ok(mut conn) = conn else { continue };
            read_request(&mut conn);
            let _ = conn.write_all(b"HTTP/1.1 200 OK\r\nConnection: close\r\n\r\n");
            match n {
                // The round as it was, then nothing, the socket left open.
                0 => {
                    let _ = conn.write_all(round_at(1).concat().as_bytes());
                    held.push(conn);
                }
                // A line without an end, longer than any PGN line.
                1 => {
                    let _ = conn.write_all(&vec![b'x'; 2 << 20]);
                    held.push(conn);
                }
                _ => {
                    let last = watched_states().len() - 1;
                    let _ = conn.write_all(round_at(last).concat().as_bytes());
                    return;
                }
            }
        }
    });
    let started = std::time::Instant::now();
    let out = watch(&server, &["--board", "2", "--silence-ms", "300"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let all = events(&out);
    let dropped: Vec<&str> = all
        .iter()
        .filter(|e| e["event"] == "dropped")
        .map(|e| e["reason"].as_str().unwrap())
        .collect();
    assert_eq!(dropped.len(), 2, "{all:?}");
    assert!(dropped[1].contains("too long"), "{dropped:?}");
    assert_eq!(all.last().unwrap()["event"], "result");
    assert!(started.elapsed() < std::time::Duration::from_secs(20));
    serving.join().unwrap();
}

/// Typed while watching: the boards, another board's last move, the clock,
/// following another board, the standings, something not understood, quit.
#[test]
fn typed_lines_ask_while_the_round_goes_on() {
    use std::io::BufRead;
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let server = format!("http://{}", listener.local_addr().unwrap());
    std::thread::spawn(move || {
        let mut held = Vec::new();
        for mut conn in listener.incoming().flatten() {
            let request = read_request(&mut conn);
            // The round's tournament and its players, as Lichess's API
            // reference shows them (broadcasts-getBroadcastRound.json,
            // broadcasts-getPlayersOfBroadcastTournament.json, shortened).
            let json = if request.starts_with(&format!("GET /api/broadcast/-/-/{ROUND} ")) {
                Some(
                    r#"{"round":{"id":"AbCd1234","name":"Round 3"},"tour":{"id":"ZEB4BtHU","name":"Rochade Open"},"study":{"writeable":false},"games":[]}"#,
                )
            } else if request.starts_with("GET /broadcast/ZEB4BtHU/players ") {
                Some(
                    r#"[{"name":"Aravindh, Chithambaram VR.","title":"GM","rating":2749,"fed":"IND","played":9,"score":2.5,"rank":10},{"name":"Praggnanandhaa R","title":"GM","rating":2758,"fed":"IND","played":9,"score":5.5,"rank":1}]"#,
                )
            } else {
                None
            };
            if let Some(json) = json {
                let _ = conn.write_all(
                    format!(
                        "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{json}",
                        json.len()
                    )
                    .as_bytes(),
                );
                continue;
            }
            let _ = conn.write_all(b"HTTP/1.1 200 OK\r\nConnection: close\r\n\r\n");
            let _ = conn.write_all(round_at(2).concat().as_bytes());
            held.push(conn);
        }
    });
    let mut child = hermetic::rochade()
        .args([
            "watch", ROUND, "--server", &server, "--quiet", "--json", "--lang", "en",
        ])
        .args(["--board", "2"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    let stdout = child.stdout.take().unwrap();
    std::thread::spawn(move || {
        for line in std::io::BufReader::new(stdout)
            .lines()
            .map_while(Result::ok)
        {
            let _ = tx.send(serde_json::from_str::<serde_json::Value>(&line).unwrap());
        }
    });
    let next = |what: &str| {
        rx.recv_timeout(std::time::Duration::from_secs(30))
            .unwrap_or_else(|_| panic!("no {what}"))
    };
    assert_eq!(next("found")["event"], "found");
    assert_eq!(next("the last move")["san"], "e6");
    let mut stdin = child.stdin.take().unwrap();
    let mut ask = |line: &str| {
        writeln!(stdin, "{line}").unwrap();
        stdin.flush().unwrap();
    };
    ask("boards");
    let boards = next("boards");
    assert_eq!(
        boards["text"],
        "Board 1: Alpha against Beta, playing. Board 2: Carlsen against Caruana, playing. \
         Board 3: Gamma against Delta, playing"
    );
    ask("last 1");
    assert_eq!(
        next("board 1's last move")["text"],
        "Board 1: Knight Felix three"
    );
    ask("clock");
    let clock = next("clock")["text"].as_str().unwrap().to_owned();
    // (The relay gave a clock for the last move only: Black's.)
    assert_eq!(clock, "Black has 1 hour 29 minutes 57 seconds left");
    ask("board 3");
    assert_eq!(next("found board 3")["board"], 3);
    assert_eq!(next("board 3's last move")["san"], "c4");
    ask("standings");
    let standings = next("standings");
    assert_eq!(standings["event"], "standings");
    assert_eq!(
        standings["text"],
        "1. Praggnanandhaa R, 5.5 of 9; 10. Aravindh, Chithambaram VR., 2.5 of 9"
    );
    assert_eq!(standings["players"][0]["score"], 5.5);
    ask("castle");
    assert_eq!(
        next("not understood")["text"],
        "Move not understood: castle"
    );
    ask("quit");
    let status = child.wait().unwrap();
    assert!(status.success());
}
