//! `rochade track --format millennium` over sessions of three whole games
//! (issue 46, items 3 and 8): a person's hands play three self-play games
//! in a row on the Millennium emulator, each ended by word (no result on
//! the board) and the pieces set back to the start between them, at a
//! human pace. The emulator's reports (on every change, and its answer to
//! the host's status request twice a second) are written as the board log
//! a live session records, and the real binary replays it in virtual time
//! (`track --log`), as it follows the port. Half the sessions come from a
//! board that reports h1 first (as the DGTCentaurMods emulator sends it),
//! half a8 first (as the published document says).
//!
//! A session is followed when each game's `move` events (a move completed
//! differently comes again with its ply) are that game's moves, a
//! `new_game` event parts them, and nothing is asked. Printed with
//! `--nocapture`: games followed per session, the worst is asserted.
//! `SESSIONS_KEEP_LOGS=DIR` keeps the sessions' board logs there.
//!
//! Then a board joined mid-game: `track --fen` with the position after
//! some moves already on the board, either reading, the rest of the game
//! followed.

use crate::eboard_hands;
use crate::rng;
use crate::track_replay;
use track_replay::{games_followed, replay, uci};

use std::fmt::Write as _;

use eboard_hands::{HUMAN, apply, play_game};
use rochade::eboard::millennium_sim::MillenniumSim;
use shakmaty::{Board, Chess, Move, Position, Square};

/// How often a live link asks for the status (the keep-alive).
const KEEP_ALIVE_MS: u64 = rochade::eboard::millennium::KEEP_ALIVE_MS;

/// The board log of a session: the emulator's bytes with their times.
struct Recorder {
    sim: MillenniumSim,
    log: String,
    now: u64,
    next_ask: u64,
    written: u64,
}

impl Recorder {
    fn new(h1_first: bool, start: &Board) -> Recorder {
        let mut sim = MillenniumSim::new();
        sim.h1_first = h1_first;
        sim.set_pieces(&rochade::eboard::pieces::pieces_of_board(start.clone()));
        // Reports on every change, as the greeting asks.
        sim.receive(0, b"W020356");
        let mut r = Recorder {
            sim,
            log: String::from("# rochade board log format=millennium baud=38400\n"),
            now: 0,
            next_ask: 0,
            written: 0,
        };
        r.run_to(0);
        r
    }

    fn write(&mut self, at: u64, bytes: &[u8]) {
        // A scan's time is rounded down, the next ask's up: the log's
        // times never go back.
        self.written = self.written.max(at);
        let _ = writeln!(
            self.log,
            "{} {}",
            self.written,
            String::from_utf8_lossy(bytes)
        );
    }

    /// The board's scans and the host's status requests up to `until`.
    fn run_to(&mut self, until: u64) {
        loop {
            let ask = self.next_ask;
            let scan = self.sim.next_scan_ms();
            let next = ask.min(scan);
            if next > until {
                break;
            }
            if ask <= scan {
                self.next_ask += KEEP_ALIVE_MS;
                let status = self.sim.status();
                self.write(ask, &status);
            } else {
                for (at, report) in self.sim.scan_until(scan) {
                    self.write(at, &report);
                }
            }
        }
        self.now = until;
    }

    /// One square changes at `at`.
    fn set(&mut self, at: u64, square: Square, piece: Option<shakmaty::Piece>) {
        self.run_to(at);
        self.sim.set(square, piece);
    }
}

/// The hands set the pieces back to the start: every piece off that is
/// not where the start has it, then the start's pieces set, square by
/// square at a human pace. When done, the time.
fn set_back(rec: &mut Recorder, from: &Board, mut at: u64, rng: &mut rng::Rng) -> u64 {
    let start = Board::default();
    let mut board = from.clone();
    for sq in Square::ALL {
        if board.piece_at(sq).is_some() && board.piece_at(sq) != start.piece_at(sq) {
            at += rng.between(150, 600);
            rec.set(at, sq, None);
            board.discard_piece_at(sq);
        }
    }
    for sq in Square::ALL {
        if board.piece_at(sq) != start.piece_at(sq) {
            at += rng.between(150, 600);
            rec.set(at, sq, start.piece_at(sq));
        }
    }
    at
}

/// One session of three games on a board reporting h1 first or not:
/// the games followed exactly, and the events.
fn session(seed: u64, h1_first: bool) -> (usize, Vec<serde_json::Value>) {
    let corpus = eboard_hands::selfplay();
    let mut rng = rng::Rng(seed);
    // Each game resigned a few moves before its end: no result on the
    // board, so the game is still in progress when the pieces go back.
    let games: Vec<Vec<Move>> = (0..3)
        .map(|_| {
            let game = &corpus[rng.below(corpus.len() as u64) as usize];
            let resigned = rng.between(1, 8).min(game.len() as u64 - 1) as usize;
            game[..game.len() - resigned].to_vec()
        })
        .collect();
    let mut rec = Recorder::new(h1_first, &Board::default());
    let mut at = 2000;
    for (i, game) in games.iter().enumerate() {
        let played = play_game(game, HUMAN, &mut rng, at);
        let mut board = Board::default();
        for change in &played.changes {
            rec.set(change.at_ms, change.square, change.piece);
            apply(&mut board, change);
        }
        at = played.end_ms + 3000;
        if i + 1 < games.len() {
            at = set_back(&mut rec, &board, at, &mut rng) + 3000;
        }
    }
    rec.run_to(at + 3000);
    if let Ok(dir) = std::env::var("SESSIONS_KEEP_LOGS") {
        // To replay them elsewhere (another build of rochade).
        let name = format!("session-{seed}.log");
        std::fs::write(std::path::Path::new(&dir).join(name), &rec.log).unwrap();
    }
    let events = replay(&rec.log, &[]);
    let followed = games_followed(&events);
    let want: Vec<Vec<String>> = games
        .iter()
        .map(|g| g.iter().map(|&m| uci(m)).collect())
        .collect();
    let exact = want
        .iter()
        .enumerate()
        .filter(|(i, g)| followed.get(*i) == Some(g))
        .count();
    assert!(
        !events.iter().any(|e| e["event"] == "asked"),
        "nothing asked where no one answers"
    );
    (exact, events)
}

#[test]
fn sessions_of_three_games_are_followed_game_after_game() {
    let mut worst = 3;
    let mut figures = Vec::new();
    for seed in 1..=6u64 {
        let h1_first = seed % 2 == 1;
        let (exact, events) = session(seed, h1_first);
        let new_games = events.iter().filter(|e| e["event"] == "new_game").count();
        let turned: Vec<&serde_json::Value> = events
            .iter()
            .filter(|e| e["event"] == "orientation")
            .collect();
        figures.push(format!(
            "seed {seed} ({}): {exact} of 3 games exact, {new_games} new_game events",
            if h1_first { "h1 first" } else { "a8 first" }
        ));
        assert_eq!(new_games, 2, "seed {seed}");
        // Which way round: said once, not at every game.
        assert_eq!(turned.len(), 1, "seed {seed}: {turned:?}");
        assert_eq!(turned[0]["turned"], h1_first, "seed {seed}");
        worst = worst.min(exact);
    }
    eprintln!("{}", figures.join("\n"));
    assert_eq!(worst, 3, "{figures:#?}");
}

#[test]
fn a_session_s_pgn_file_keeps_every_game() {
    let corpus = eboard_hands::selfplay();
    let mut rng = rng::Rng(7);
    let mut rec = Recorder::new(true, &Board::default());
    let mut at = 2000;
    let games = [&corpus[0][..20], &corpus[1][..12]];
    for (i, game) in games.iter().enumerate() {
        let played = play_game(game, HUMAN, &mut rng, at);
        let mut board = Board::default();
        for change in &played.changes {
            rec.set(change.at_ms, change.square, change.piece);
            apply(&mut board, change);
        }
        at = played.end_ms + 3000;
        if i == 0 {
            at = set_back(&mut rec, &board, at, &mut rng) + 3000;
        }
    }
    rec.run_to(at);
    let dir = tempfile::tempdir().unwrap();
    let pgn = dir.path().join("session.pgn");
    let events = replay(&rec.log, &["--pgn", pgn.to_str().unwrap()]);
    assert_eq!(
        games_followed(&events)
            .iter()
            .map(Vec::len)
            .collect::<Vec<_>>(),
        [20, 12]
    );
    let text = std::fs::read_to_string(&pgn).unwrap();
    let read: Vec<usize> = rochade::pgn::Games::new(text.as_bytes(), Default::default())
        .map(|g| g.record.expect("a game").moves().len())
        .collect();
    assert_eq!(read, [20, 12], "{text}");
}

#[test]
fn a_board_joined_mid_game_with_fen_is_followed_in_either_reading() {
    let corpus = eboard_hands::selfplay();
    let game = &corpus[3];
    let (before, rest) = game.split_at(16);
    let mut joined = Chess::default();
    for &mv in before {
        joined.play_unchecked(mv);
    }
    let fen = shakmaty::fen::Fen::from_position(&joined, shakmaty::EnPassantMode::Legal);
    for h1_first in [true, false] {
        let mut rng = rng::Rng(11);
        let mut rec = Recorder::new(h1_first, joined.board());
        // The rest of the game from the joined position, by the hands.
        let mut board = joined.board().clone();
        let mut pos = joined.clone();
        let mut at = 2000;
        for &mv in rest {
            let played = play_game_from(&pos, mv, &mut rng, at, &mut board, &mut rec);
            at = played;
            pos.play_unchecked(mv);
        }
        rec.run_to(at + 3000);
        let events = replay(&rec.log, &["--fen", &fen.to_string()]);
        let followed = games_followed(&events);
        let want: Vec<String> = rest.iter().map(|&m| uci(m)).collect();
        assert_eq!(followed, [want], "h1 first: {h1_first}");
        let turned: Vec<&serde_json::Value> = events
            .iter()
            .filter(|e| e["event"] == "orientation")
            .collect();
        assert_eq!(turned.len(), 1, "{turned:?}");
        assert_eq!(turned[0]["turned"], h1_first);
    }
}

/// One move made by hand from `pos` (lifted, set down; a capture's taken
/// piece off first; castling king then rook; en passant's pawn off), at a
/// human pace: the time after it.
fn play_game_from(
    pos: &Chess,
    mv: Move,
    rng: &mut rng::Rng,
    mut at: u64,
    board: &mut Board,
    rec: &mut Recorder,
) -> u64 {
    let mut after = pos.clone();
    after.play_unchecked(mv);
    let target = after.board().clone();
    // Squares emptied first, then squares set: every square that differs.
    let changed: Vec<Square> = Square::ALL
        .into_iter()
        .filter(|&sq| board.piece_at(sq) != target.piece_at(sq))
        .collect();
    for &sq in changed.iter().filter(|&&sq| board.piece_at(sq).is_some()) {
        at += rng.between(150, 600);
        rec.set(at, sq, None);
    }
    for &sq in changed.iter().filter(|&&sq| target.piece_at(sq).is_some()) {
        at += rng.between(150, 600);
        rec.set(at, sq, target.piece_at(sq));
    }
    *board = target;
    at + rng.between(800, 3000)
}
