//! Random games through `rochade online --json` against the suite's
//! Board API server with the faults of a real one (issue 32), many at
//! once: seeded random games and fault points (the game stream cut before
//! and after either side's move, reconnections refused meanwhile, lines
//! merged into one chunk and split over several, chat lines and draw
//! offers in the same chunk as a move, states sent twice or never, the
//! server restarted with or without the game), the opponent replying after
//! 0-300 ms. Every game ends; the record is the server's; each move is
//! announced once, in order (tests/support/online_client.rs checks it).
//! The counts and the longest time from a move made by the server to its
//! `move` event are printed.
//!
//! `ROCHADE_ONLINE_GAMES=N` plays N random games instead of 300;
//! `ROCHADE_ONLINE_SEED=S` plays that one game alone.

#[path = "support/hermetic.rs"]
mod hermetic;
#[path = "support/lichess_server.rs"]
mod lichess_server;
#[path = "support/online_client.rs"]
mod online_client;

use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use lichess_server::{Chunking, Cut, Faults, Injected, Script, Server, game_moves};
use online_client::{Client, Played, play_to_end, random_game};

const TOKEN: &str = "lip_PropertyToken0123456789abcdef";

/// Games played at once.
const AT_ONCE: usize = 12;

/// Everything the games showed, summed.
#[derive(Default)]
struct Tally {
    games: usize,
    plies: usize,
    injected: Injected,
    caught_up: usize,
    delays: Vec<Duration>,
    longest: (Duration, u64, usize),
    /// The delays of every move but the game's first (made by the server
    /// as the game was created, before the client opened its stream).
    later: Vec<Duration>,
    failures: Vec<String>,
}

impl Tally {
    fn add(&mut self, seed: u64, plies: usize, server: &Server, result: Result<Played, String>) {
        let white = server.shared.0.lock().unwrap().script.account_white;
        self.games += 1;
        self.plies += plies;
        self.injected.add(&server.injected());
        match result {
            Ok(played) => {
                self.caught_up += played.caught_up;
                self.delays.extend(&played.delays);
                self.later
                    .extend(played.delays.iter().skip(usize::from(!white)));
                if played.longest.0 > self.longest.0 {
                    self.longest = (played.longest.0, seed, played.longest.1);
                }
            }
            Err(e) => self
                .failures
                .push(format!("game {seed} ({:?}): {e}", server.injected())),
        }
    }

    fn report(&self, what: &str, started: Instant) {
        let mut delays = self.delays.clone();
        delays.sort();
        let at = |q: f64| {
            delays
                .get(((delays.len() as f64 * q) as usize).min(delays.len().saturating_sub(1)))
                .copied()
                .unwrap_or_default()
        };
        let i = &self.injected;
        eprintln!(
            "{what}: {} games, {} plies in {:.1} s; injected: {} drops, {} restarts, {} games \
             missing (404), {} states withheld, {} chat lines and {} offers next to moves, {} \
             states repeated; 'while the connection was lost' said {} times; server move to its \
             announcement: median {:?}, 99% {:?}, longest {:?} (game {}, ply {}); longest after \
             the game's first move {:?}",
            self.games,
            self.plies,
            started.elapsed().as_secs_f64(),
            i.drops,
            i.restarts,
            i.gone,
            i.withheld,
            i.chats,
            i.offers,
            i.repeats,
            self.caught_up,
            at(0.5),
            at(0.99),
            self.longest.0,
            self.longest.1,
            self.longest.2,
            self.later.iter().max().copied().unwrap_or_default(),
        );
    }
}

/// One random game's script.
fn script(seed: u64) -> Script {
    let plies = 8 + (seed % 9) as usize;
    Script {
        moves: random_game(seed, plies),
        account_white: seed.is_multiple_of(2),
        seed,
        reply_delay_ms: (0, 300),
        chunking: Chunking::Mixed,
        faults: Faults {
            chat: 20,
            offer: 5,
            repeat: 10,
            drop: 8,
            withhold: 5,
            restart: 2,
        },
        outage_ms: 50 + seed * 37 % 250,
        gone_after_restart: (seed % 3) as usize,
        ..Script::default()
    }
}

/// Plays `script` through the terminal; the server and the result.
fn play(script: Script) -> (Server, Result<Played, String>) {
    let moves = script.moves.clone();
    let white = script.account_white;
    let server = Server::start(TOKEN, script);
    let mut client = Client::start(&server, TOKEN, 200, &["--ai", "3"]);
    let result = play_to_end(&mut client, &server, &moves, white).and_then(|played| {
        let (code, transcript) = client.finish();
        if code == 0 {
            Ok(played)
        } else {
            Err(format!("exit code {code}; seen:\n{transcript}"))
        }
    });
    (server, result)
}

/// Plays `seeds` through `play_one`, [`AT_ONCE`] at a time.
fn play_all(
    seeds: &[u64],
    play_one: impl Fn(u64) -> (usize, Server, Result<Played, String>) + Sync,
) -> Tally {
    let next = AtomicUsize::new(0);
    let tally = Mutex::new(Tally::default());
    std::thread::scope(|scope| {
        for _ in 0..AT_ONCE.min(seeds.len()) {
            scope.spawn(|| {
                while let Some(&seed) = seeds.get(next.fetch_add(1, Ordering::SeqCst)) {
                    let (plies, server, result) = play_one(seed);
                    tally.lock().unwrap().add(seed, plies, &server, result);
                }
            });
        }
    });
    tally.into_inner().unwrap()
}

#[test]
fn random_games_with_the_faults_of_a_real_server_end_with_the_servers_record() {
    let started = Instant::now();
    let seeds: Vec<u64> = match std::env::var("ROCHADE_ONLINE_SEED") {
        Ok(seed) => vec![seed.parse().expect("a seed")],
        Err(_) => {
            let games = std::env::var("ROCHADE_ONLINE_GAMES")
                .ok()
                .and_then(|n| n.parse().ok())
                .unwrap_or(300);
            (0..games).collect()
        }
    };
    let tally = play_all(&seeds, |seed| {
        let script = script(seed);
        let plies = script.moves.len();
        let (server, result) = play(script);
        (plies, server, result)
    });
    tally.report("terminal", started);
    for failure in &tally.failures {
        eprintln!("{}", failure.lines().next().unwrap_or(""));
    }
    assert!(
        tally.failures.is_empty(),
        "{} of {} games failed; the first:\n{}",
        tally.failures.len(),
        tally.games,
        tally.failures[0]
    );
    if seeds.len() >= 100 {
        let i = &tally.injected;
        assert!(
            i.drops > 50 && i.restarts > 5 && i.withheld > 20 && i.chats > 100,
            "too few faults drawn: {i:?}"
        );
    }
}

/// The done-when of issue 32: an 80-ply game to the end with the game
/// stream dropped at 10 different plies (before and after either side's
/// move) and chat lines next to the opponent's moves, 10 games of 10.
#[test]
fn eighty_plies_with_ten_drops_and_chat_lines_ten_games_of_ten() {
    let started = Instant::now();
    let moves: Vec<String> = game_moves()[..80].to_vec();
    let seeds: Vec<u64> = (0..10).collect();
    let tally = play_all(&seeds, |seed| {
        // Ten plies spread over the game, different in each game.
        let cuts: Vec<(usize, Cut)> = (0..10)
            .map(|k| {
                let ply = 3 + k * 7 + (seed as usize + k) % 5;
                let cut = if (seed as usize + k).is_multiple_of(2) {
                    Cut::After
                } else {
                    Cut::Before
                };
                (ply, cut)
            })
            .collect();
        let script = Script {
            moves: moves.clone(),
            account_white: seed.is_multiple_of(2),
            seed: 1000 + seed,
            cuts,
            outage_ms: 150,
            reply_delay_ms: (0, 60),
            chunking: Chunking::Mixed,
            faults: Faults {
                chat: 35,
                ..Faults::default()
            },
            ..Script::default()
        };
        let (server, result) = play(script);
        (80, server, result)
    });
    tally.report("80 plies, 10 drops", started);
    assert!(
        tally.failures.is_empty(),
        "{} of 10 games failed; the first:\n{}",
        tally.failures.len(),
        tally.failures[0]
    );
    assert_eq!(tally.games, 10);
    assert_eq!(tally.injected.drops, 100, "ten drops in each game");
    assert!(tally.injected.chats > 50, "{:?}", tally.injected);
}
