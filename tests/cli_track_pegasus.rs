//! `rochade track --format pegasus PORT` end to end on a byte stream: the
//! real binary follows the Pegasus emulator (occupancy only, silent until
//! the developer key, notifications cut into 20-byte packets) on a real
//! pseudo-terminal, as it would a Bluetooth-to-serial bridge: the greeting
//! carries the developer key, a whole self-play game played by hand at
//! blitz pace comes out as one `move` event per ply, in order, the board
//! is dark at the end, and the board log replays to the same moves.

#[path = "support/eboard_hands.rs"]
mod eboard_hands;
#[path = "support/hermetic.rs"]
mod hermetic;
#[path = "support/rng.rs"]
mod rng;

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use rochade::eboard::pegasus::DEVELOPER_KEY;
use rochade::eboard::pegasus_sim::PegasusSim;
use serialport::{SerialPort, TTYPort};
use shakmaty::{Bitboard, CastlingMode, Square};

/// The emulated Pegasus on the master side of a pseudo-terminal: the
/// host's bytes answered, the hands' changes sent, packet by packet.
struct Board {
    sim: Arc<Mutex<PegasusSim>>,
    master: Arc<Mutex<TTYPort>>,
    /// Every byte the host wrote.
    host: Arc<Mutex<Vec<u8>>>,
    stop: Arc<AtomicBool>,
    thread: Option<std::thread::JoinHandle<()>>,
    _slave: TTYPort,
    path: String,
}

impl Board {
    fn start() -> Board {
        let (mut master, slave) = TTYPort::pair().expect("a pseudo-terminal");
        master.set_timeout(Duration::from_millis(10)).unwrap();
        let mut reader = master.try_clone_native().unwrap();
        let path = slave.name().expect("the pseudo-terminal's name");
        let sim = Arc::new(Mutex::new(PegasusSim::new()));
        let master = Arc::new(Mutex::new(master));
        let host = Arc::new(Mutex::new(Vec::new()));
        let stop = Arc::new(AtomicBool::new(false));
        let thread = {
            let (sim, master, host, stop) =
                (sim.clone(), master.clone(), host.clone(), stop.clone());
            std::thread::spawn(move || {
                let mut buf = [0u8; 256];
                while !stop.load(Ordering::Relaxed) {
                    if let Ok(n) = reader.read(&mut buf) {
                        host.lock().unwrap().extend_from_slice(&buf[..n]);
                        let packets = sim.lock().unwrap().receive(&buf[..n]);
                        let mut out = master.lock().unwrap();
                        for p in packets {
                            let _ = out.write_all(&p);
                        }
                    }
                }
            })
        };
        Board {
            sim,
            master,
            host,
            stop,
            thread: Some(thread),
            _slave: slave,
            path,
        }
    }

    fn set(&self, square: Square, occupied: bool) {
        let packets = self.sim.lock().unwrap().set(square, occupied);
        let mut out = self.master.lock().unwrap();
        for p in packets {
            let _ = out.write_all(&p);
        }
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

#[test]
fn track_follows_a_pegasus_byte_stream_through_a_whole_blitz_game() {
    let board = Board::start();
    let dir = hermetic::private_dir("track-pegasus");
    let log = dir.join("pegasus.log");
    let track = Track::start(&[
        "--format",
        "pegasus",
        "--lang",
        "en",
        "--board-log",
        log.to_str().unwrap(),
        &board.path,
    ]);
    track.until(20, |v| v["event"] == "link" && v["state"] == "connected");
    // The board answers only once the key came: the start position read.
    let end = Instant::now() + Duration::from_secs(10);
    while !board.sim.lock().unwrap().authorized() {
        assert!(Instant::now() < end, "the developer key never came");
        std::thread::sleep(Duration::from_millis(20));
    }
    let host = board.host.lock().unwrap().clone();
    assert_eq!(host[0], 0x40, "reset first: {host:02x?}");
    assert_eq!(host[1..10], DEVELOPER_KEY, "then the key: {host:02x?}");
    std::thread::sleep(Duration::from_millis(500));

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
        board.set(change.square, change.piece.is_some());
    }
    let want: Vec<String> = game
        .iter()
        .map(|m| m.to_uci(CastlingMode::Standard).to_string())
        .collect();
    let ply = want.len();
    let events = track.until(30, |v| v["event"] == "move" && v["ply"] == ply);
    // A move completed after a slide comes again with its ply: the last
    // word for each ply counts.
    let mut got: Vec<String> = Vec::new();
    for v in events.iter().filter(|v| v["event"] == "move") {
        let at = v["ply"].as_u64().unwrap() as usize;
        got.truncate(at - 1);
        got.push(v["uci"].as_str().unwrap().to_string());
    }
    assert_eq!(got, want, "every move, in order");
    std::thread::sleep(Duration::from_millis(500));
    assert_eq!(
        board.sim.lock().unwrap().lit(),
        Bitboard::EMPTY,
        "dark at the end"
    );
    drop(track);

    let text = std::fs::read_to_string(&log).expect("the board log");
    assert!(
        text.starts_with("# rochade board log format=pegasus"),
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
    let mut replayed: Vec<String> = Vec::new();
    for v in String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).expect("JSON"))
        .filter(|v| v["event"] == "move")
    {
        let at = v["ply"].as_u64().unwrap() as usize;
        replayed.truncate(at - 1);
        replayed.push(v["uci"].as_str().unwrap().to_string());
    }
    assert_eq!(replayed, want, "the log replays to the same game");
}
