//! `rochade track --format pegasus` over sessions of three whole games
//! (issue 46, done-when): a person's hands play three self-play games in
//! a row on the Pegasus emulator (occupancy only, silent until the
//! developer key, every notification cut into 20-byte packets), each
//! resigned a few moves before its end (no result on the board: the game
//! is still in progress when the pieces go back), and the pieces set back
//! to the start by hand, one at a time, between games; at a human and at
//! blitz pace. The emulator's packets (its answer to the greeting's board
//! request, then a field update on every change) are written as the board
//! log a live session records, one packet a line, and the real binary
//! replays it in virtual time (`track --log`), as it follows the port.
//!
//! A session is followed when each game's `move` events (a move completed
//! differently comes again with its ply) are that game's moves, a
//! `new_game` event parts them, and nothing is asked (a session missing a
//! `new_game`, or asking, counts as none followed). Games with an
//! under-promotion are left out: on `track` no one answers the promotion
//! question, so the default piece is played. Printed with `--nocapture`:
//! games followed per seed and pace; the worst is asserted.
//! `SESSIONS_KEEP_LOGS=DIR` keeps the board logs there; `SESSIONS_TRACE=1`
//! prints each game's moves as played and as followed.

use crate::eboard_hands;
use crate::rng;
use crate::track_replay;
use track_replay::{games_followed, replay, uci};

use std::fmt::Write as _;

use eboard_hands::{BLITZ, HUMAN, Pace, apply, play_game};
use rochade::eboard::pegasus::DEVELOPER_KEY;
use rochade::eboard::pegasus_sim::PegasusSim;
use shakmaty::{Board, Move, Role, Square};

/// The board log of a session: the emulator's packets with their times.
struct Recorder {
    sim: PegasusSim,
    log: String,
}

impl Recorder {
    /// The board greeted as `track` greets it (the key, field updates,
    /// the board requested): its dump is the log's first lines.
    fn new() -> Recorder {
        let mut r = Recorder {
            sim: PegasusSim::new(),
            log: String::from("# rochade board log format=pegasus baud=115200\n"),
        };
        assert!(r.sim.receive(&[0x40]).is_empty(), "silent before the key");
        let mut greeting = DEVELOPER_KEY.to_vec();
        greeting.extend([0x44, 0x42]);
        let packets = r.sim.receive(&greeting);
        r.write(100, packets);
        r
    }

    fn write(&mut self, at: u64, packets: Vec<Vec<u8>>) {
        for p in packets {
            let _ = write!(self.log, "{at} hex:");
            for b in p {
                let _ = write!(self.log, "{b:02x}");
            }
            self.log.push('\n');
        }
    }

    /// One square changes at `at`.
    fn set(&mut self, at: u64, square: Square, occupied: bool) {
        let packets = self.sim.set(square, occupied);
        self.write(at, packets);
    }
}

/// The hands set the pieces back to the start: every piece off that is
/// not where the start has it, then the start's pieces set, one square at
/// a time at the pace's steps. When done, the time.
fn set_back(rec: &mut Recorder, from: &Board, mut at: u64, pace: Pace, rng: &mut rng::Rng) -> u64 {
    let start = Board::default();
    let mut board = from.clone();
    for sq in Square::ALL {
        if board.piece_at(sq).is_some() && board.piece_at(sq) != start.piece_at(sq) {
            at += rng.between(pace.step.0, pace.step.1);
            rec.set(at, sq, false);
            board.discard_piece_at(sq);
        }
    }
    for sq in Square::ALL {
        if board.piece_at(sq) != start.piece_at(sq) {
            at += rng.between(pace.step.0, pace.step.1);
            rec.set(at, sq, true);
        }
    }
    at
}

/// Three games of the corpus (none with an under-promotion), each
/// resigned one to seven moves before its end.
fn three_games(rng: &mut rng::Rng) -> Vec<Vec<Move>> {
    let corpus: Vec<Vec<Move>> = eboard_hands::selfplay()
        .into_iter()
        .filter(|g| {
            !g.iter()
                .any(|m| m.promotion().is_some_and(|r| r != Role::Queen))
        })
        .collect();
    (0..3)
        .map(|_| {
            let game = &corpus[rng.below(corpus.len() as u64) as usize];
            let resigned = rng.between(1, 8).min(game.len() as u64 - 1) as usize;
            game[..game.len() - resigned].to_vec()
        })
        .collect()
}

/// The board log of one session at `pace`, and its games.
fn session_log(seed: u64, pace: Pace) -> (String, Vec<Vec<Move>>) {
    let mut rng = rng::Rng(seed);
    let games = three_games(&mut rng);
    let mut rec = Recorder::new();
    let mut at = 2000;
    for (i, game) in games.iter().enumerate() {
        let played = play_game(game, pace, &mut rng, at);
        let mut board = Board::default();
        for change in &played.changes {
            rec.set(change.at_ms, change.square, change.piece.is_some());
            apply(&mut board, change);
        }
        at = played.end_ms + 3000;
        if i + 1 < games.len() {
            at = set_back(&mut rec, &board, at, pace, &mut rng) + 3000;
        }
    }
    // (The replay runs on a minute past the last line: a last move is
    // read.)
    (rec.log, games)
}

/// One session: the games followed exactly, `new_game` events, questions.
fn session(seed: u64, pace: Pace, name: &str) -> (usize, usize, usize) {
    let (log, games) = session_log(seed, pace);
    if let Ok(dir) = std::env::var("SESSIONS_KEEP_LOGS") {
        let file = format!("pegasus-{name}-{seed}.log");
        std::fs::write(std::path::Path::new(&dir).join(file), &log).unwrap();
    }
    let events = replay(&log, &[]);
    let followed = games_followed(&events);
    let exact = games
        .iter()
        .enumerate()
        .filter(|(i, g)| followed.get(*i) == Some(&g.iter().map(|&m| uci(m)).collect()))
        .count();
    if std::env::var("SESSIONS_TRACE").is_ok() {
        for (i, g) in games.iter().enumerate() {
            let want: Vec<String> = g.iter().map(|&m| uci(m)).collect();
            eprintln!(
                "{name} seed {seed} game {i}: want {want:?}\n  got {:?}",
                followed.get(i)
            );
        }
    }
    let new_games = events.iter().filter(|e| e["event"] == "new_game").count();
    let asked = events.iter().filter(|e| e["event"] == "asked").count();
    (exact, new_games, asked)
}

fn sessions_at(pace: Pace, name: &str) {
    let mut worst = 3;
    let mut figures = Vec::new();
    for seed in 1..=5u64 {
        let (exact, new_games, asked) = session(seed, pace, name);
        figures.push(format!(
            "{name} seed {seed}: {exact} of 3 games exact, {new_games} new_game events, \
             {asked} questions"
        ));
        worst = worst.min(if new_games == 2 && asked == 0 {
            exact
        } else {
            0
        });
    }
    eprintln!("{}", figures.join("\n"));
    // Seed 5's first game ends with the white king in check by a rook
    // beside it; while the hands clear the board, a state reads as the
    // king's capture and the pawn's reply (a sensor taken as stuck), two
    // moves added to that game before the start shows. Every session's
    // next games start and are followed all the same.
    assert!(worst >= 2, "{figures:#?}");
}

#[test]
fn pegasus_sessions_of_three_games_at_a_human_pace() {
    sessions_at(HUMAN, "human");
}

#[test]
fn pegasus_sessions_of_three_games_at_blitz_pace() {
    sessions_at(BLITZ, "blitz");
}

#[test]
fn a_pegasus_session_s_pgn_file_keeps_every_game() {
    let corpus = eboard_hands::selfplay();
    let mut rng = rng::Rng(7);
    let mut rec = Recorder::new();
    let mut at = 2000;
    let games = [&corpus[0][..20], &corpus[1][..12]];
    for (i, game) in games.iter().enumerate() {
        let played = play_game(game, HUMAN, &mut rng, at);
        let mut board = Board::default();
        for change in &played.changes {
            rec.set(change.at_ms, change.square, change.piece.is_some());
            apply(&mut board, change);
        }
        at = played.end_ms + 3000;
        if i == 0 {
            at = set_back(&mut rec, &board, at, HUMAN, &mut rng) + 3000;
        }
    }
    let dir = tempfile::tempdir().unwrap();
    let pgn = dir.path().join("session.pgn");
    let events = replay(&rec.log, &["--pgn", pgn.to_str().unwrap()]);
    let want: Vec<Vec<String>> = games
        .iter()
        .map(|g| g.iter().map(|&m| uci(m)).collect())
        .collect();
    assert_eq!(games_followed(&events), want);
    let text = std::fs::read_to_string(&pgn).unwrap();
    let read: Vec<usize> = rochade::pgn::Games::new(text.as_bytes(), Default::default())
        .map(|g| g.record.expect("a game").moves().len())
        .collect();
    assert_eq!(read, [20, 12], "{text}");
}
