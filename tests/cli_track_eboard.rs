//! `rochade track --format millennium PORT` end to end: the real binary
//! follows a Millennium ChessLink emulator on a real pseudo-terminal as the
//! player's own board (through the session's e-board seat). A wrong move
//! lights the squares that differ on the board's LEDs once the guidance
//! time ran out, and they go dark when it is put right; then a self-play
//! game played by hand at blitz pace comes out as one `move` event per
//! ply, in order. Its board log replays to the same moves. The Certabo
//! emulator (`rochade board-sim --format certabo`) is calibrated and
//! followed the same way. A Bluetooth board that cannot be reached is said
//! as a lost link.

#[path = "support/board_sim.rs"]
mod board_sim;
#[path = "support/eboard_hands.rs"]
mod eboard_hands;
#[path = "support/hermetic.rs"]
mod hermetic;
#[path = "support/move_event.rs"]
mod move_event;
#[path = "support/rng.rs"]
mod rng;

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use rochade::eboard::millennium_sim::MillenniumSim;
use serialport::{SerialPort, TTYPort};
use shakmaty::{Bitboard, CastlingMode, Move, Piece, Square};

/// The emulated board on the master side of a pseudo-terminal, in real
/// time: its scans go out, the host's commands are answered, and every LED
/// command's squares are reported on `lights`.
struct Board {
    sim: Arc<Mutex<MillenniumSim>>,
    lights: Receiver<Bitboard>,
    stop: Arc<AtomicBool>,
    thread: Option<std::thread::JoinHandle<()>>,
    /// Kept open: the slave side the binary opens by name.
    _slave: TTYPort,
    path: String,
}

impl Board {
    fn start() -> Board {
        let (mut master, slave) = TTYPort::pair().expect("a pseudo-terminal");
        master.set_timeout(Duration::from_millis(10)).unwrap();
        let mut reader = master.try_clone_native().unwrap();
        let path = slave.name().expect("the pseudo-terminal's name");
        let sim = Arc::new(Mutex::new(MillenniumSim::on_parity_line()));
        let stop = Arc::new(AtomicBool::new(false));
        let (tx, lights) = mpsc::channel();
        let thread = {
            let (sim, stop) = (sim.clone(), stop.clone());
            std::thread::spawn(move || {
                let epoch = Instant::now();
                let mut buf = [0u8; 256];
                while !stop.load(Ordering::Relaxed) {
                    let now = epoch.elapsed().as_millis() as u64;
                    let reports = sim.lock().unwrap().scan_until(now);
                    for (_, bytes) in reports {
                        let _ = master.write_all(&bytes);
                    }
                    if let Ok(n) = reader.read(&mut buf) {
                        let mut s = sim.lock().unwrap();
                        let before = s.commands.len();
                        let answer = s.receive(now, &buf[..n]);
                        let _ = master.write_all(&answer);
                        for &letter in &s.commands[before..] {
                            if letter == b'L' || letter == b'X' {
                                let _ = tx.send(s.lights().squares());
                            }
                        }
                    }
                }
            })
        };
        Board {
            sim,
            lights,
            stop,
            thread: Some(thread),
            _slave: slave,
            path,
        }
    }

    fn set(&self, square: Square, piece: Option<Piece>) {
        self.sim.lock().unwrap().set(square, piece);
    }

    /// The next LED command's squares within `secs`.
    fn next_lights(&self, secs: u64) -> Bitboard {
        self.lights
            .recv_timeout(Duration::from_secs(secs))
            .expect("an LED command reaches the board")
    }
}

impl Drop for Board {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

/// `rochade track` running, its stdout's JSON lines on a channel.
struct Track {
    child: Child,
    lines: Receiver<serde_json::Value>,
}

impl Track {
    fn start(args: &[&str]) -> Track {
        let mut child = hermetic::rochade()
            .arg("track")
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("rochade runs");
        let stdout = child.stdout.take().unwrap();
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { return };
                let value =
                    serde_json::from_str(&line).unwrap_or_else(|e| panic!("not JSON: {line}: {e}"));
                if tx.send(value).is_err() {
                    return;
                }
            }
        });
        Track { child, lines }
    }

    /// Events until one matches `want` (within `secs`), all returned.
    fn until(
        &self,
        secs: u64,
        want: impl Fn(&serde_json::Value) -> bool,
    ) -> Vec<serde_json::Value> {
        let end = Instant::now() + Duration::from_secs(secs);
        let mut seen = Vec::new();
        loop {
            let left = end.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(v) => {
                    let done = want(&v);
                    seen.push(v);
                    if done {
                        return seen;
                    }
                }
                Err(_) => panic!("no matching event within {secs} s; saw {seen:?}"),
            }
        }
    }
}

impl Drop for Track {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn uci(mv: Move) -> String {
    mv.to_uci(CastlingMode::Standard).to_string()
}

fn squares(list: &[Square]) -> Bitboard {
    list.iter().copied().collect()
}

#[test]
fn track_follows_a_millennium_board_lights_a_wrong_move_and_prints_every_move() {
    let board = Board::start();
    let dir = hermetic::private_dir("track-eboard");
    let log = dir.join("millennium.log");
    let track = Track::start(&[
        "--format",
        "millennium",
        "--lang",
        "en",
        "--board-log",
        log.to_str().unwrap(),
        &board.path,
    ]);
    track.until(20, |v| v["event"] == "link" && v["state"] == "connected");
    // The board is put dark as the link comes up.
    assert_eq!(board.next_lights(10), Bitboard::EMPTY);

    // A knight set on a square it cannot reach: after the guidance time
    // (2 s) its two squares light; put back, the board goes dark.
    let knight = Some(Piece::from_char('N').unwrap());
    let put_down = Instant::now();
    board.set(Square::G1, None);
    board.set(Square::E3, knight);
    assert_eq!(
        board.next_lights(10),
        squares(&[Square::G1, Square::E3]),
        "the differing squares are lit"
    );
    assert!(
        put_down.elapsed() >= Duration::from_millis(1900),
        "not before the guidance time: {:?}",
        put_down.elapsed()
    );
    board.set(Square::E3, None);
    board.set(Square::G1, knight);
    assert_eq!(board.next_lights(10), Bitboard::EMPTY);

    // A whole self-play game by hand at blitz pace.
    let game = eboard_hands::selfplay()
        .into_iter()
        .find(|g| (24..=40).contains(&g.len()))
        .expect("a short self-play game");
    let played = eboard_hands::play_game(&game, eboard_hands::BLITZ, &mut rng::Rng(7), 0);
    let began = Instant::now();
    for change in &played.changes {
        let due = began + Duration::from_millis(change.at_ms);
        if let Some(wait) = due.checked_duration_since(Instant::now()) {
            std::thread::sleep(wait);
        }
        board.set(change.square, change.piece);
    }
    let want: Vec<String> = game.iter().map(|&m| uci(m)).collect();
    let last = want.last().unwrap().clone();
    let ply = want.len();
    let events = track.until(20, |v| v["event"] == "move" && v["ply"] == ply);
    let moves: Vec<&serde_json::Value> = events.iter().filter(|v| v["event"] == "move").collect();
    for m in &moves {
        move_event::assert_move_keys(m);
    }
    let got: Vec<String> = moves
        .iter()
        .map(|v| v["uci"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(got, want, "every move, once, in order (last {last})");
    drop(track);

    // The board log names its format and replays to the same moves.
    let text = std::fs::read_to_string(&log).expect("the board log");
    assert!(
        text.starts_with("# rochade board log format=millennium"),
        "{}",
        text.lines().next().unwrap_or_default()
    );
    let out = hermetic::rochade()
        .args(["track", "--lang", "en", "--log", log.to_str().unwrap()])
        .output()
        .expect("rochade runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let replayed: Vec<String> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).expect("JSON"))
        .filter(|v| v["event"] == "move")
        .map(|v| v["uci"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(replayed, want, "the log replays to the same game");
}

#[test]
fn track_calibrates_the_simulated_certabo_board_and_follows_its_moves() {
    let mut sim = board_sim::Sim::start(&["--format", "certabo"]);
    let track = Track::start(&["--format", "certabo", "--lang", "en", &sim.device]);
    // The start position with the spare queens stands: the board learns
    // its chips, and the link stays up meanwhile (every scan is heard).
    let seen = track.until(20, |v| v["event"] == "calibration" && v["step"] == "done");
    assert!(
        seen.iter()
            .any(|v| v["event"] == "link" && v["state"] == "connected"),
        "{seen:?}"
    );
    assert!(
        !seen
            .iter()
            .any(|v| v["event"] == "link" && v["state"] == "lost"),
        "{seen:?}"
    );
    // The first typed change puts the spare queens aside.
    let moves = ["e2e4", "e7e5", "g1f3", "b8c6"];
    for mv in moves {
        sim.say(&format!("move {mv}"));
        let want = mv.to_string();
        track.until(30, move |v| {
            v["event"] == "move" && v["uci"] == want.as_str()
        });
    }
    sim.quit();
}

#[test]
fn an_unknown_format_is_said_plainly() {
    let out = hermetic::rochade()
        .args(["track", "--format", "nosuchboard", "/dev/null"])
        .stdin(Stdio::null())
        .output()
        .expect("rochade runs");
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("unknown board format 'nosuchboard'") && stderr.contains("millennium"),
        "{stderr}"
    );
}

/// A Bluetooth board that cannot be reached (this machine has no
/// Bluetooth stack, or no such board is near) is a lost link, said with
/// its reason, and tried again: never a silent wait.
#[test]
fn a_bluetooth_board_that_cannot_be_reached_is_a_lost_link_with_its_reason() {
    for format in ["chessnut", "pegasus"] {
        let track = Track::start(&["--format", format, "auto"]);
        let seen = track.until(30, |v| v["event"] == "link" && v["state"] == "lost");
        let lost = seen.last().unwrap();
        assert!(
            !lost["detail"].as_str().unwrap_or_default().is_empty(),
            "{format}: {lost}"
        );
    }
}
