//! A Certabo board never calibrated, and a first move made at once: the
//! board streams from before `track` starts and the first move comes
//! 0.1 s after it starts, or the board is silent for a while and the first
//! move comes 0.3 s after it first answers. Calibration never finished
//! and no move was announced (0 of 12); now the start set-up is learnt
//! from the first scans that showed it (or from where the first move's
//! piece went, when it moved before the first scan) and the game is
//! followed. Two moves before the board was read: the player is asked
//! again, then calibrates and plays.
//!
//! In virtual time: the emulator (`eboard::certabo_sim`, weak chips read
//! wrong for a scan, 2 % of squares and scans), its lines split at random
//! points, `AnyDecoder::new(Kind::Certabo)` and the recognizer the
//! e-boards share, starting from the start position as `track` does.

use rochade::board::{HostCommand, Protocol};
use rochade::eboard::certabo_sim::CertaboSim;
use rochade::eboard::{AnyDecoder, CalibrationStep, Kind, Message};
use rochade::eboard::{Recognizer, RecognizerConfig, RecognizerEvent};
use shakmaty::{Chess, Color, Move, Square};

use crate::board_sim;
use crate::eboard_hands;
use crate::hermetic;
use crate::recorded;
use crate::rng;
use eboard_hands::{Change, HUMAN};
use rng::Rng;

/// Weak reads per occupied square and scan, per mille (as the Certabo
/// game tests).
const WEAK_PER_MILLE: u32 = 20;

/// The emulator, the bytes between, and the host following it.
struct Table {
    sim: CertaboSim,
    rng: Rng,
    decoder: AnyDecoder,
    rec: Recognizer,
    now: u64,
    moves: Vec<Move>,
    wrong: Vec<String>,
    steps: Vec<CalibrationStep>,
}

impl Table {
    /// A board with the start position set up (no spare queens), its
    /// first scan at `first_scan_ms`; the host (`track`) starts at 0.
    fn new(seed: u64, first_scan_ms: u64) -> Table {
        let mut sim = CertaboSim::new(seed, false);
        sim.weak_per_mille = WEAK_PER_MILLE;
        sim.first_scan_at(first_scan_ms);
        Table {
            sim,
            rng: Rng(seed.rotate_left(11) | 1),
            decoder: AnyDecoder::new(Kind::Certabo),
            rec: Recognizer::new(RecognizerConfig::default(), Chess::default()),
            now: 0,
            moves: Vec::new(),
            wrong: Vec::new(),
            steps: Vec::new(),
        }
    }

    fn advance(&mut self, to: u64) {
        while let Some(d) = self.rec.next_deadline().filter(|&d| d <= to) {
            self.now = d.max(self.now);
            let mut out = Vec::new();
            self.rec.on_tick(self.now, &mut out);
            self.events(out);
        }
        self.now = self.now.max(to);
    }

    fn feed(&mut self, at: u64, bytes: &[u8]) {
        self.advance(at);
        for m in self.decoder.decode_all(bytes) {
            let mut out = Vec::new();
            match m {
                Message::Position(pieces) => self.rec.on_dump(self.now, &pieces, &mut out),
                Message::Square { square, piece } => {
                    self.rec.on_field_update(self.now, square, piece, &mut out)
                }
                Message::Scanned => self.rec.on_scan(self.now, &mut out),
                Message::Calibration(step) => self.steps.push(step),
                _ => {}
            }
            self.events(out);
        }
    }

    fn events(&mut self, out: Vec<RecognizerEvent>) {
        for e in out {
            match e {
                RecognizerEvent::RequestBoard => self.decoder.sent(HostCommand::Snapshot),
                other => recorded::record(other, &mut self.moves, &mut self.wrong),
            }
        }
    }

    /// Runs scans until `until`, making the hands' changes as their time
    /// comes; each line reaches the host in one to three chunks.
    fn run(&mut self, changes: &[Change], until: u64) {
        let mut next = 0;
        loop {
            let scan_at = self.sim.next_scan_at();
            if scan_at > until {
                self.advance(until);
                return;
            }
            while let Some(c) = changes.get(next).filter(|c| c.at_ms <= scan_at) {
                self.sim
                    .set(c.square, c.piece)
                    .expect("a chip beside the board");
                next += 1;
            }
            for (at, line) in self.sim.scans_until(scan_at) {
                let cut = 1 + self.rng.below(line.len() as u64 - 1) as usize;
                for chunk in [&line[..cut], &line[cut..]] {
                    self.feed(at, chunk);
                }
            }
        }
    }

    fn calibrated(&self) -> usize {
        let done = |s: &&CalibrationStep| matches!(s, CalibrationStep::Done { .. });
        self.steps.iter().filter(done).count()
    }
}

/// Games of the self-play corpus with no promotion (the board here has no
/// spare queen), from `from` on: their indices.
fn plain_games(from: usize, count: usize) -> Vec<usize> {
    let games = eboard_hands::selfplay();
    let plain = |i: &usize| games[*i].iter().all(|m| m.promotion().is_none());
    (from..games.len()).filter(plain).take(count).collect()
}

/// Plays game `game` (of the self-play corpus) by hand at a human pace,
/// the first step at `first_step_ms`, on a board whose first scan comes at
/// `first_scan_ms`; whether every move was recorded and none wrong, and
/// what was wrong.
fn quick_game(
    game: usize,
    seed: u64,
    first_scan_ms: u64,
    first_step_ms: u64,
) -> Result<(), String> {
    let games = eboard_hands::selfplay();
    let moves = &games[game];
    let mut table = Table::new(seed, first_scan_ms);
    let mut rng = Rng(seed.rotate_left(29) | 1);
    let played = eboard_hands::play_game(moves, HUMAN, &mut rng, first_step_ms);
    table.run(&played.changes, played.end_ms + 5000);
    let agree = table
        .moves
        .iter()
        .zip(moves)
        .take_while(|(a, b)| a == b)
        .count();
    if agree == moves.len() && table.moves.len() == moves.len() && table.wrong.is_empty() {
        assert_eq!(table.calibrated(), 1, "{:?}", table.steps);
        return Ok(());
    }
    Err(format!(
        "game {game} (first scan at {first_scan_ms} ms): {} of {} moves, first {agree} right; \
         steps {:?}; wrong {:?}",
        table.moves.len(),
        moves.len(),
        table.steps,
        table.wrong
    ))
}

/// `track` starts at 0, the board has been streaming (its next scan at
/// 0 to 240 ms: before the move's first step, or after it), and the first
/// move's piece is lifted at 100 ms. Six games, each from its first scan
/// phase: every move of every game recorded (reported: 6/6).
/// (`CERTABO_QUICK_GAMES=n` plays n games, the phases in turn: a
/// measuring aid.)
#[test]
fn a_first_move_0_1_s_after_track_starts_is_followed() {
    let phases = [0, 40, 90, 130, 180, 240];
    let count = std::env::var("CERTABO_QUICK_GAMES").map_or(6, |n| n.parse().expect("a number"));
    let games = plain_games(0, count);
    let results: Vec<Result<(), String>> = games
        .iter()
        .enumerate()
        .map(|(i, &game)| quick_game(game, 101 + i as u64, phases[i % phases.len()], 100))
        .collect();
    let followed = results.iter().filter(|r| r.is_ok()).count();
    println!(
        "certabo, first move 0.1 s after track starts: games followed {followed}/{}",
        results.len()
    );
    let failures: Vec<&String> = results.iter().filter_map(|r| r.as_ref().err()).collect();
    assert!(failures.is_empty(), "{failures:#?}");
}

/// The board is silent for 2 s (plugged in late), then streams; the first
/// move's piece is lifted 0.3 s after its first scan. Six games
/// (`CERTABO_QUICK_GAMES=n`: n).
#[test]
fn a_board_silent_then_moved_0_3_s_after_it_first_answers_is_followed() {
    let count = std::env::var("CERTABO_QUICK_GAMES").map_or(6, |n| n.parse().expect("a number"));
    let results: Vec<Result<(), String>> = plain_games(10, count)
        .into_iter()
        .enumerate()
        .map(|(i, game)| {
            let first_scan = 2000 + 37 * i as u64;
            quick_game(game, 201 + i as u64, first_scan, first_scan + 300)
        })
        .collect();
    let followed = results.iter().filter(|r| r.is_ok()).count();
    println!(
        "certabo, silent then moved 0.3 s after its first scan: games followed {followed}/{}",
        results.len()
    );
    let failures: Vec<&String> = results.iter().filter_map(|r| r.as_ref().err()).collect();
    assert!(failures.is_empty(), "{failures:#?}");
}

/// Two moves made before the board was first read: nothing tells the
/// start set-up, no position is given and no move recorded; the player is
/// asked once more to set up the starting position, and once it stands
/// the board is calibrated and the game followed.
#[test]
fn two_moves_before_the_board_was_read_ask_again_then_the_game_is_followed() {
    let mut table = Table::new(5, 0);
    let (pawn, black_pawn) = (Color::White.pawn(), Color::Black.pawn());
    for (square, piece) in [
        (Square::E2, None),
        (Square::E4, Some(pawn)),
        (Square::E7, None),
        (Square::E5, Some(black_pawn)),
    ] {
        table.sim.set(square, piece).unwrap();
    }
    table.run(&[], 5000);
    assert_eq!(
        table.steps,
        vec![CalibrationStep::SetUpStart, CalibrationStep::SetUpAgain]
    );
    assert!(table.rec.seen().is_none());
    assert!(table.moves.is_empty());
    // The player sets the start position up again.
    for (square, piece) in [
        (Square::E4, None),
        (Square::E2, Some(pawn)),
        (Square::E5, None),
        (Square::E7, Some(black_pawn)),
    ] {
        table.sim.set(square, piece).unwrap();
    }
    let games = eboard_hands::selfplay();
    let game = &games[plain_games(20, 1)[0]];
    let mut rng = Rng(77);
    let played = eboard_hands::play_game(game, HUMAN, &mut rng, 7000);
    table.run(&played.changes, played.end_ms + 5000);
    assert_eq!(table.calibrated(), 1, "{:?}", table.steps);
    assert_eq!(&table.moves, game);
    assert!(table.wrong.is_empty(), "{:?}", table.wrong);
}

/// The same through real processes: `rochade board-sim --format certabo`
/// streaming on a pseudo-terminal (its spare queens put aside by the first
/// move), `rochade track` started on it, and the first move typed 0.1 s
/// after `track` starts (before or about when it opens the port and reads
/// its first scan). Six moves: each one is a `move` event, in order.
#[test]
fn on_a_pseudo_terminal_a_first_move_0_1_s_after_track_starts_is_followed() {
    use std::io::{BufRead, BufReader};
    use std::process::Stdio;
    use std::time::{Duration, Instant};

    let mut sim = board_sim::Sim::start(&["--format", "certabo"]);
    let mut track = KillOnDrop(
        hermetic::rochade()
            .args(["track", "--format", "certabo", "--lang", "en", &sim.device])
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("rochade runs"),
    );
    let started = Instant::now();
    let stdout = track.0.stdout.take().unwrap();
    let (tx, rx) = std::sync::mpsc::channel::<serde_json::Value>();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            let Ok(line) = line else { return };
            let value = serde_json::from_str(&line).unwrap_or_else(|e| panic!("{line}: {e}"));
            if tx.send(value).is_err() {
                return;
            }
        }
    });
    std::thread::sleep(Duration::from_millis(100).saturating_sub(started.elapsed()));
    let moves = ["e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "g8f6"];
    sim.say(&format!("move {}", moves[0]));
    let mut seen = Vec::new();
    let mut next = 1;
    let end = Instant::now() + Duration::from_secs(30);
    let mut followed = Vec::new();
    while followed.len() < moves.len() {
        let left = end.saturating_duration_since(Instant::now());
        let Ok(v) = rx.recv_timeout(left) else {
            panic!("moves followed {followed:?} of {moves:?}; saw {seen:?}");
        };
        if v["event"] == "move" {
            followed.push(v["uci"].as_str().unwrap_or_default().to_owned());
            if let Some(mv) = moves.get(next) {
                sim.say(&format!("move {mv}"));
                next += 1;
            }
        }
        seen.push(v);
    }
    println!(
        "certabo on a pseudo-terminal, first move 0.1 s after track started: moves followed {}/6",
        followed.len()
    );
    assert_eq!(followed, moves);
    let steps: Vec<&serde_json::Value> = seen
        .iter()
        .filter(|v| v["event"] == "calibration")
        .collect();
    assert!(steps.iter().any(|v| v["step"] == "done"), "{steps:?}");
    drop(track);
    sim.quit();
}

/// A child process killed when the test ends, failed or not.
struct KillOnDrop(std::process::Child);

impl Drop for KillOnDrop {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}
