//! The DGT e-board end to end: `rochade board-sim --format dgt` on a real
//! pseudo-terminal, `rochade track --format dgt` following it through the
//! serial link thread, a whole real game (Morphy's Opera game: captures,
//! queen-side castling made king first, mate); the board log it records
//! replayed; a log of a board polled once a second replayed; and two
//! boards, one record: the simulated peg-board and DGT board followed
//! together in tournament mode.

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::time::{Duration, Instant};

use rochade::dgt::protocol::{Message, encode};
use rochade::eboard::pieces::pieces_of_board;
use shakmaty::san::San;
use shakmaty::{Chess, Move, Position};

#[path = "support/cli.rs"]
mod cli;
#[path = "support/hermetic.rs"]
mod hermetic;
#[path = "support/move_event.rs"]
mod move_event;

const OPERA: &[&str] = &[
    "e4", "e5", "Nf3", "d6", "d4", "Bg4", "dxe5", "Bxf3", "Qxf3", "dxe5", "Bc4", "Nf6", "Qb3",
    "Qe7", "Nc3", "c6", "Bg5", "b5", "Nxb5", "cxb5", "Bxb5+", "Nbd7", "O-O-O", "Rd8", "Rxd7",
    "Rxd7", "Rd1", "Qe6", "Bxd7+", "Nxd7", "Qb8+", "Nxb8", "Rd8#",
];

/// The game's moves, played out.
fn opera_moves() -> Vec<(Chess, Move)> {
    let mut pos = Chess::default();
    let mut out = Vec::new();
    for san in OPERA {
        let mv = san
            .trim_end_matches(['+', '#'])
            .parse::<San>()
            .expect("SAN")
            .to_move(&pos)
            .expect("legal");
        out.push((pos.clone(), mv));
        pos.play_unchecked(mv);
    }
    out
}

/// The simulator commands that make a move by hand: castling king first.
fn sim_commands(mv: Move) -> Vec<String> {
    match mv {
        Move::Castle { king, rook } => {
            let side = shakmaty::CastlingSide::from_king_side(king < rook);
            let rank = king.rank();
            let king_to = shakmaty::Square::from_coords(side.king_to_file(), rank);
            let rook_to = shakmaty::Square::from_coords(side.rook_to_file(), rank);
            vec![
                format!("move {king}{king_to}"),
                format!("move {rook}{rook_to}"),
            ]
        }
        m => vec![format!(
            "move {}{}",
            m.from().expect("a from square"),
            m.to()
        )],
    }
}

#[path = "support/board_sim.rs"]
mod board_sim;
use board_sim::Sim;

/// The DGT simulator on a link path.
fn dgt_sim(link: &Path) -> Sim {
    sim_with(link, &["--format", "dgt"])
}

/// The simulator on a link path, with more arguments.
fn sim_with(link: &Path, args: &[&str]) -> Sim {
    let link = link.to_str().expect("a UTF-8 path");
    Sim::start(&[args, &["--link", link]].concat())
}

/// A child process killed when the test ends, passed or not.
struct KillOnDrop(Child);

impl Drop for KillOnDrop {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// `rochade track` with these arguments, its JSON lines read on a thread.
fn start_track(args: &[&std::ffi::OsStr]) -> (KillOnDrop, Receiver<serde_json::Value>) {
    let mut track = KillOnDrop(
        hermetic::rochade()
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("track starts"),
    );
    let rx = json_lines(track.0.stdout.take().unwrap());
    (track, rx)
}

fn json_lines(stdout: std::process::ChildStdout) -> Receiver<serde_json::Value> {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            let Ok(line) = line else { return };
            let value = serde_json::from_str(&line).unwrap_or_else(|e| panic!("{line}: {e}"));
            if tx.send(value).is_err() {
                return;
            }
        }
    });
    rx
}

/// Events until one satisfies `done` (kept in `seen`), or panics.
fn wait_for(
    rx: &Receiver<serde_json::Value>,
    seen: &mut Vec<serde_json::Value>,
    timeout: Duration,
    done: impl Fn(&[serde_json::Value]) -> bool,
) {
    let end = Instant::now() + timeout;
    while !done(seen) {
        let left = end
            .checked_duration_since(Instant::now())
            .unwrap_or_else(|| panic!("timed out; events so far: {seen:?}"));
        if let Ok(v) = rx.recv_timeout(left) {
            seen.push(v);
        }
    }
}

fn sans(events: &[serde_json::Value]) -> Vec<String> {
    events
        .iter()
        .filter(|v| v["event"] == "move")
        .inspect(|v| move_event::assert_move_keys(v))
        .filter_map(|v| v["san"].as_str().map(str::to_owned))
        .collect()
}

fn json_values(stdout: &[u8]) -> Vec<serde_json::Value> {
    String::from_utf8_lossy(stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{l}: {e}")))
        .collect()
}

#[test]
fn track_follows_a_real_game_on_the_simulated_dgt_board_and_replays_its_log() {
    let dir = tempfile::tempdir().unwrap();
    let link = dir.path().join("dgt");
    let log_path = dir.path().join("board.log");
    let pgn = dir.path().join("game.pgn");
    let mut sim = dgt_sim(&link);
    let (track, rx) = start_track(&[
        "track".as_ref(),
        "--format".as_ref(),
        "dgt".as_ref(),
        "--lang".as_ref(),
        "de".as_ref(),
        "--settle-ms".as_ref(),
        "150".as_ref(),
        "--board-log".as_ref(),
        log_path.as_os_str(),
        "--pgn".as_ref(),
        pgn.as_os_str(),
        link.as_os_str(),
    ]);
    let mut seen = Vec::new();
    // The link greets the board (update mode, version, dump); the start
    // position settles and decides the orientation.
    wait_for(&rx, &mut seen, Duration::from_secs(10), |s| {
        s.iter().any(|v| v["event"] == "orientation")
    });
    assert!(
        seen.iter()
            .any(|v| v["event"] == "link" && v["state"] == "connected")
    );
    assert!(
        seen.iter()
            // The DGT board follows the e-board path: its version said as
            // every e-board's ident is (and as the window shows it).
            .any(|v| v["event"] == "board_info" && v["text"] == "DGT 1.7"),
        "{seen:?}"
    );
    for (i, (_, mv)) in opera_moves().into_iter().enumerate() {
        for cmd in sim_commands(mv) {
            sim.say(&cmd);
        }
        wait_for(&rx, &mut seen, Duration::from_secs(10), |s| {
            sans(s).len() > i
        });
    }
    assert_eq!(sans(&seen), OPERA);
    let first = seen.iter().find(|v| v["event"] == "move").unwrap();
    assert_eq!(first["uci"], "e2e4");
    assert_eq!(first["announcement"], "Eva vier");
    assert_eq!(first["source"], "e_board");
    assert!(
        !seen.iter().any(|v| v["event"] == "takeback"),
        "castling made king first is one move: {seen:?}"
    );
    let pgn = std::fs::read_to_string(&pgn).unwrap();
    assert!(pgn.contains("13. Rxd7 Rxd7"), "{pgn}");
    assert!(pgn.contains("17. Rd8#"), "{pgn}");
    drop(track);
    drop(sim);

    // The board log: the board's bytes as hex chunks, the decisions as
    // comments; replayed, it gives the same game.
    let log = std::fs::read_to_string(&log_path).unwrap();
    assert!(
        log.starts_with("# rochade board log format=dgt baud=9600"),
        "{log}"
    );
    assert!(
        log.lines().any(|l| l.contains(" hex:86")),
        "a dump is logged"
    );
    let replay = cli::run_rochade(
        &[
            "track",
            "--settle-ms",
            "150",
            "--log",
            log_path.to_str().unwrap(),
        ],
        b"",
    );
    assert!(
        replay.status.success(),
        "{}",
        String::from_utf8_lossy(&replay.stderr)
    );
    assert_eq!(sans(&json_values(&replay.stdout)), OPERA);
}

/// A board polled once a second: a dump every second, each showing one or
/// two plies more (or a hand still over the board), bytes split across
/// chunks, keep-alive answers and line noise in between.
#[test]
fn a_log_of_a_board_polled_once_a_second_reproduces_the_game() {
    let moves = opera_moves();
    let mut log = String::from("# rochade board log format=dgt baud=9600 port=/dev/ttyUSB0\n");
    let mut ms = 0u64;
    let mut chunk = |ms: u64, bytes: &[u8], log: &mut String| {
        log.push_str(&rochade::board::log::format_entry(ms, bytes, true));
    };
    let poll = |pos: &Chess,
                ms: &mut u64,
                log: &mut String,
                chunk: &mut dyn FnMut(u64, &[u8], &mut String)| {
        let dump = encode(&Message::BoardDump(pieces_of_board(pos.board().clone())));
        // The dump arrives in two pieces, a few milliseconds apart.
        chunk(*ms + 20, &dump[..29], log);
        chunk(*ms + 31, &dump[29..], log);
        *ms += 1000;
    };
    let mut pos = Chess::default();
    poll(&pos, &mut ms, &mut log, &mut chunk);
    let mut i = 0;
    while i < moves.len() {
        let (before, mv) = &moves[i];
        if i % 5 == 2 {
            // A hand over the board: the moving piece lifted at the poll.
            let mut lifted = before.board().clone();
            lifted.discard_piece_at(mv.from().expect("from"));
            let dump = encode(&Message::BoardDump(pieces_of_board(lifted)));
            chunk(ms + 20, &dump, &mut log);
            chunk(
                ms + 500,
                &encode(&Message::SerialNumber("10513".into())),
                &mut log,
            );
            chunk(ms + 600, &[0x05, 0x11, 0xFF], &mut log); // line noise
            ms += 1000;
        }
        pos.play_unchecked(*mv);
        i += 1;
        // Every fourth poll the reply was made before the next poll.
        if i % 4 == 0 && i < moves.len() {
            pos.play_unchecked(moves[i].1);
            i += 1;
        }
        poll(&pos, &mut ms, &mut log, &mut chunk);
    }
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("polled.log");
    std::fs::write(&path, &log).unwrap();
    let out = cli::run_rochade(
        &["track", "--lang", "en", "--log", path.to_str().unwrap()],
        b"",
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let events = json_values(&out.stdout);
    assert_eq!(sans(&events), OPERA, "{events:?}");
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("dgt message(s) dropped"),
        "the noise is counted"
    );
    assert!(
        !events
            .iter()
            .any(|v| v["event"] == "takeback" || v["event"] == "rejected"),
        "{events:?}"
    );
}

/// A DGT clock on the board reports every second: `track` prints its times
/// as a `clock` event when they change, once per change, and nothing when
/// the board says no clock is attached.
#[test]
fn a_dgt_clocks_times_print_once_per_change() {
    use rochade::dgt::protocol::{ClockReading, ClockSide};
    let side = |minutes, seconds| ClockSide {
        hours: 0,
        minutes,
        seconds,
        flag: false,
    };
    let reading = |left: u8, right: u8, status| ClockReading {
        left: side(5, left),
        right: side(5, right),
        status,
    };
    let mut log = String::from("# rochade board log format=dgt baud=9600 port=/dev/ttyUSB0\n");
    let dump = encode(&Message::BoardDump(pieces_of_board(
        Chess::default().board().clone(),
    )));
    log.push_str(&rochade::board::log::format_entry(10, &dump, true));
    let running = 0x01;
    let no_clock = 0x20;
    for (ms, clock) in [
        (1000, reading(30, 40, running)),
        (2000, reading(30, 40, running)),
        (3000, reading(29, 40, running)),
        (4000, reading(0, 0, no_clock)),
    ] {
        let bytes = encode(&Message::Clock(clock));
        log.push_str(&rochade::board::log::format_entry(ms, &bytes, true));
    }
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("clock.log");
    std::fs::write(&path, &log).unwrap();
    let out = cli::run_rochade(&["track", "--log", path.to_str().unwrap()], b"");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let clocks: Vec<_> = json_values(&out.stdout)
        .into_iter()
        .filter(|v| v["event"] == "clock")
        .collect();
    assert_eq!(
        clocks,
        [
            serde_json::json!({"event": "clock", "left": "0:05:30", "right": "0:05:40", "running": true}),
            serde_json::json!({"event": "clock", "left": "0:05:29", "right": "0:05:40", "running": true}),
        ]
    );
}

/// `--settle-ms` is how long a DGT board's position must stand before it
/// counts: e4 shown for 200 ms and taken back is a move with 100 ms, and
/// nothing with the recognizer's own 300 ms.
#[test]
fn settle_ms_is_how_long_a_dgt_position_must_stand() {
    let mut log = String::from("# rochade board log format=dgt baud=9600 port=/dev/ttyUSB0\n");
    let start = Chess::default();
    let e4 = start
        .clone()
        .play(San::from_ascii(b"e4").unwrap().to_move(&start).unwrap())
        .unwrap();
    for (ms, pos) in [(10, &start), (1000, &e4), (1200, &start)] {
        let dump = encode(&Message::BoardDump(pieces_of_board(pos.board().clone())));
        log.push_str(&rochade::board::log::format_entry(ms, &dump, true));
    }
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("brief.log");
    std::fs::write(&path, &log).unwrap();
    let moves = |extra: &[&str]| {
        let mut args = vec!["track", "--log", path.to_str().unwrap()];
        args.extend(extra);
        let out = cli::run_rochade(&args, b"");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        sans(&json_values(&out.stdout))
    };
    assert_eq!(moves(&["--settle-ms", "100"]), ["e4"]);
    assert!(moves(&[]).is_empty());
}

/// The sighted player (White) on the DGT board, the blind player (Black) on
/// the peg-board; each move is copied onto the other board (by the
/// assistant, or by the blind player), and the record holds each move once,
/// from the board it was made on.
#[test]
fn two_boards_one_record_in_tournament_mode() {
    let dir = tempfile::tempdir().unwrap();
    let (peg_link, dgt_link) = (dir.path().join("peg"), dir.path().join("dgt"));
    let pgn = dir.path().join("game.pgn");
    let mut peg = sim_with(&peg_link, &["--format", "peg"]);
    let mut dgt = dgt_sim(&dgt_link);
    let (_track, rx) = start_track(&[
        "track".as_ref(),
        "--tournament".as_ref(),
        "--lang".as_ref(),
        "en".as_ref(),
        "--pgn".as_ref(),
        pgn.as_os_str(),
        "--sighted".as_ref(),
        dgt_link.as_os_str(),
        peg_link.as_os_str(),
    ]);
    let mut seen = Vec::new();
    wait_for(&rx, &mut seen, Duration::from_secs(10), |s| {
        s.iter()
            .any(|v| v["event"] == "sighted_board" && v["state"] == "orientation")
            && s.iter()
                .any(|v| v["event"] == "link" && v["state"] == "connected")
    });
    let game: &[(&[&str], &str)] = &[
        (&["move e2e4"], "e4"),
        (&["move e7e5"], "e5"),
        (&["move g1f3"], "Nf3"),
        (&["move b8c6"], "Nc6"),
        (&["move f1b5"], "Bb5"),
        (&["move a7a6"], "a6"),
        (&["move b5c6"], "Bxc6"),
        (&["move d7c6"], "dxc6"),
        (&["move e1g1", "move h1f1"], "O-O"),
    ];
    for (i, (commands, san)) in game.iter().enumerate() {
        let sighted_moves = i % 2 == 0;
        let (made_on, copied_on) = if sighted_moves {
            (&mut dgt, &mut peg)
        } else {
            (&mut peg, &mut dgt)
        };
        for c in *commands {
            made_on.say(c);
        }
        wait_for(&rx, &mut seen, Duration::from_secs(10), |s| {
            sans(s).len() > i
        });
        let last = seen.iter().rev().find(|v| v["event"] == "move").unwrap();
        assert_eq!(last["san"], *san, "{seen:?}");
        let source = if sighted_moves {
            "e_board"
        } else {
            "peg_board"
        };
        assert_eq!(last["source"], source, "{last}");
        // The other board follows (the simulator carries out its commands
        // in order, so the copy is made before that board's next move); the
        // move is not taken a second time.
        for c in *commands {
            copied_on.say(c);
        }
    }
    // Both boards have settled on the final position: nothing more happens.
    let end = Instant::now() + Duration::from_millis(1500);
    while let Some(left) = end.checked_duration_since(Instant::now()) {
        if let Ok(v) = rx.recv_timeout(left) {
            seen.push(v);
        }
    }
    let sans = sans(&seen);
    let want: Vec<&str> = game.iter().map(|(_, san)| *san).collect();
    assert_eq!(sans, want, "{seen:?}");
    for bad in ["takeback", "rejected", "asked"] {
        assert!(!seen.iter().any(|v| v["event"] == bad), "{bad}: {seen:?}");
    }
    let pgn = std::fs::read_to_string(&pgn).unwrap();
    assert!(pgn.contains("4. Bxc6 dxc6 5. O-O"), "{pgn}");
}

/// The DGT board unplugged mid-game (the simulator quits) and plugged back
/// in: the link notices the silence (the keep-alive goes unanswered or the
/// device goes away), reconnects, reads the whole board again and the game
/// goes on without a new game or a lost move.
#[test]
fn a_dgt_board_unplugged_and_plugged_back_in_keeps_the_game() {
    let dir = tempfile::tempdir().unwrap();
    let link = dir.path().join("dgt");
    let sim = dgt_sim(&link);
    let (_track, rx) = start_track(&[
        "track".as_ref(),
        "--format".as_ref(),
        "dgt".as_ref(),
        "--lang".as_ref(),
        "en".as_ref(),
        link.as_os_str(),
    ]);
    let mut seen = Vec::new();
    wait_for(&rx, &mut seen, Duration::from_secs(10), |s| {
        s.iter().any(|v| v["event"] == "orientation")
    });
    let mut sim = sim;
    sim.say("move e2e4");
    sim.say("move e7e5");
    wait_for(&rx, &mut seen, Duration::from_secs(10), |s| {
        sans(s).len() == 2
    });
    drop(sim);
    wait_for(&rx, &mut seen, Duration::from_secs(10), |s| {
        s.iter()
            .any(|v| v["event"] == "link" && v["state"] == "lost")
    });
    // Plugged back in with the game's position on it.
    let fen = "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR";
    let mut sim = sim_with(&link, &["--format", "dgt", "--setup", fen]);
    // The link back is said as restored (the session's word, as for every
    // e-board), not as a first connection.
    wait_for(&rx, &mut seen, Duration::from_secs(10), |s| {
        s.iter()
            .any(|v| v["event"] == "link" && v["state"] == "restored")
    });
    sim.say("move g1f3");
    wait_for(&rx, &mut seen, Duration::from_secs(10), |s| {
        sans(s).len() == 3
    });
    assert_eq!(sans(&seen), ["e4", "e5", "Nf3"]);
    for bad in ["new_game", "takeback", "rejected"] {
        assert!(!seen.iter().any(|v| v["event"] == bad), "{bad}: {seen:?}");
    }
}

/// The link thread on a DGT board that stops answering (the port stays
/// open): the link greets the board (update mode, version, board), asks for
/// the serial number every second as its keep-alive, reports the silence
/// as a lost link, and the board's next answer as a link up again; bytes
/// that are no message are counted, never passed on.
#[test]
fn the_link_keeps_a_dgt_board_alive_and_notices_its_silence() {
    use rochade::serial::{Link, LinkConfig};
    use rochade::session::board::BoardEvent;
    use serialport::{SerialPort, TTYPort};
    use std::io::Read;

    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("dgt");
    let (mut master, slave) = TTYPort::pair().unwrap();
    std::os::unix::fs::symlink(slave.name().unwrap(), &path).unwrap();
    master.set_timeout(Duration::from_millis(50)).unwrap();
    let (tx, rx) = mpsc::channel();
    let cfg = LinkConfig {
        heartbeat_timeout_ms: 2500,
        reconnect_ms: 100,
        ..LinkConfig::dgt(path.to_string_lossy())
    };
    let link = Link::spawn(cfg, tx).unwrap();
    // What the host sends, collected until `want` has been seen.
    fn read_until(master: &mut TTYPort, want: &dyn Fn(&[u8]) -> bool, sent: &mut Vec<u8>) {
        let end = Instant::now() + Duration::from_secs(5);
        let mut buf = [0u8; 64];
        while !want(sent) {
            assert!(Instant::now() < end, "the host sent only {sent:02x?}");
            if let Ok(n) = master.read(&mut buf) {
                sent.extend(&buf[..n]);
            }
        }
    }
    let mut sent = Vec::new();
    read_until(
        &mut master,
        &|s: &[u8]| s.starts_with(&[0x4B, 0x4D, 0x42]),
        &mut sent,
    );
    let dump = encode(&Message::BoardDump(pieces_of_board(
        shakmaty::Board::default(),
    )));
    let mut reply = vec![0x01, 0x02]; // noise first
    reply.extend(&dump);
    master.write_all(&reply).unwrap();
    let next = |timeout: u64| {
        rx.recv_timeout(Duration::from_millis(timeout))
            .map(|input| input.event)
    };
    assert_eq!(
        next(3000),
        Ok(BoardEvent::LinkUp {
            port: path.to_string_lossy().into()
        })
    );
    assert!(matches!(
        next(3000),
        Ok(BoardEvent::Message(Message::BoardDump(_)))
    ));
    // Keep-alive: the serial number is asked for about every second.
    read_until(
        &mut master,
        &|s: &[u8]| s.iter().filter(|b| **b == 0x45).count() >= 2,
        &mut sent,
    );
    // Silence: the link counts as lost.
    match next(5000) {
        Ok(BoardEvent::LinkLost { reason }) => assert!(reason.contains("heartbeat"), "{reason}"),
        other => panic!("{other:?}"),
    }
    // The board answers again (its serial number): the link is up.
    master
        .write_all(&encode(&Message::SerialNumber("10513".into())))
        .unwrap();
    assert_eq!(
        next(3000),
        Ok(BoardEvent::LinkUp {
            port: path.to_string_lossy().into()
        })
    );
    assert!(
        link.status().stats.garbage >= 1,
        "{:?}",
        link.status().stats
    );
    drop(link);
    drop(slave);
}
