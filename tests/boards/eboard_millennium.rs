//! The Millennium ChessLink board, emulated byte for byte, followed by the
//! host as the app follows it: every self-play game played by hand on the
//! emulator (`support/eboard_hands.rs`) at a human pace and at blitz pace,
//! in virtual time. The board scans at a scan time chosen per game (30 to
//! 82 ms) and sends its status on every change; the bytes go through
//! `AnyDecoder::new(Kind::Millennium)` into the DGT recognizer, as the
//! sighted board's seat does. The line is harsher than a USB cable: chunks
//! split and merged at random, a byte corrupted now and then (1 % of the
//! messages: the frame is dropped and counted, the host asks for the
//! status), a message lost without a trace now and then (0.5 %: the host's
//! keep-alive asks for the status twice a second), the parity bit in the top bit of every byte for half the
//! games (as Bluetooth carries it), and now and then a command of the
//! host's damaged on its way (the board ignores it).
//!
//! Then the real thing: the serial link thread on a real pseudo-terminal
//! opens the port 8N1, its bytes carrying their odd-parity bit (the
//! emulator drops a byte without it, as a 7O1 UART does), greets the emulator on the other side, follows a few
//! games' worth of moves, and its LED command reaches the board byte-exact.

use std::collections::VecDeque;

use rochade::board::{HostCommand, Protocol};
use rochade::eboard::millennium::{self, with_check};
use rochade::eboard::millennium_sim::MillenniumSim;
use rochade::eboard::{AnyDecoder, Kind, Message};
use rochade::eboard::{Recognizer, RecognizerConfig, RecognizerEvent};
use shakmaty::{Chess, Move};

use crate::eboard_hands;
use crate::millennium_pty;
use crate::recorded;
use crate::rng;
use eboard_hands::{BLITZ, HUMAN, Pace};
use rng::Rng;

/// How often the host asks for the status (the link's keep-alive).
const KEEP_ALIVE_MS: u64 = millennium::KEEP_ALIVE_MS;

/// Of the board's messages, how many in a thousand vanish without a trace
/// (`MILLENNIUM_LOST` overrides), and how many get a byte corrupted
/// (`MILLENNIUM_CORRUPT`): far more than a USB cable loses; each one
/// leaves a hole in what the recognizer saw.
fn per_mille(var: &str, default: u64) -> u64 {
    std::env::var(var)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

static LOST: std::sync::OnceLock<u64> = std::sync::OnceLock::new();
static CORRUPT: std::sync::OnceLock<u64> = std::sync::OnceLock::new();

/// What went on the line over all games of a pace.
#[derive(Debug, Default)]
struct Tally {
    games: usize,
    exact: usize,
    moves: usize,
    wrong: usize,
    missed: usize,
    statuses_sent: u64,
    statuses_read: u64,
    lost: u64,
    corrupted: u64,
    dropped_by_decoder: u64,
    chunks: u64,
    requests: u64,
    status_commands: u64,
    status_commands_damaged: u64,
    status_commands_carried_out: u64,
    host_damaged: u64,
    failures: Vec<String>,
}

/// One game: the emulated board, the line and the host.
struct Table<'a> {
    sim: MillenniumSim,
    host: AnyDecoder,
    rec: Recognizer,
    noise: Rng,
    now: u64,
    /// Bytes on their way to the host, with the time each was sent.
    wire: VecDeque<(u64, u8)>,
    next_read: Option<u64>,
    next_keep_alive: u64,
    /// The parity bit rides in the top bit of each byte.
    top_bit_parity: bool,
    moves: Vec<Move>,
    wrong: Vec<String>,
    tally: &'a mut Tally,
    verbose: bool,
}

fn odd_parity(b: u8) -> u8 {
    if b.count_ones().is_multiple_of(2) {
        b | 0x80
    } else {
        b
    }
}

impl Table<'_> {
    /// The board sends `bytes` now: lost, damaged or whole.
    fn board_says(&mut self, mut bytes: Vec<u8>) {
        if bytes.is_empty() {
            return;
        }
        let status = bytes[0] == b's';
        if status {
            self.tally.statuses_sent += 1;
        }
        if self.noise.below(1000) < *LOST.get_or_init(|| per_mille("MILLENNIUM_LOST", 5)) {
            if self.verbose {
                eprintln!("{} lost {}", self.now, String::from_utf8_lossy(&bytes));
            }
            self.tally.lost += 1;
            return;
        }
        if self.noise.below(1000) < *CORRUPT.get_or_init(|| per_mille("MILLENNIUM_CORRUPT", 10)) {
            let i = self.noise.below(bytes.len() as u64) as usize;
            bytes[i] ^= 1 << self.noise.below(7);
            self.tally.corrupted += 1;
        }
        for b in bytes {
            let b = if self.top_bit_parity {
                odd_parity(b)
            } else {
                b
            };
            self.wire.push_back((self.now, b));
        }
        if self.next_read.is_none() {
            self.next_read = Some(self.now + self.noise.between(1, 12));
        }
    }

    /// The host sends a command; a few are damaged on the way.
    fn host_says(&mut self, mut bytes: Vec<u8>) {
        let s53 = millennium::with_parity(b"S53");
        let asks = |bytes: &[u8]| bytes.windows(3).filter(|w| *w == &s53[..]).count() as u64;
        let status_commands = asks(&bytes);
        self.tally.status_commands += status_commands;
        if self.noise.chance(2) {
            let i = self.noise.below(bytes.len() as u64) as usize;
            bytes[i] ^= 1 << self.noise.below(7);
            self.tally.host_damaged += 1;
            self.tally.status_commands_damaged += status_commands - asks(&bytes);
        }
        let answer = self.sim.receive(self.now, &bytes);
        self.board_says(answer);
    }

    fn events(&mut self, out: Vec<RecognizerEvent>) {
        for e in out {
            if self.verbose {
                eprintln!("{} event {e:?}", self.now);
            }
            match e {
                RecognizerEvent::RequestBoard => {
                    self.tally.requests += 1;
                    let ask = self.host.encode(HostCommand::Snapshot);
                    assert_eq!(ask, millennium::with_parity(b"S53"));
                    self.host_says(ask);
                }
                other => recorded::record(other, &mut self.moves, &mut self.wrong),
            }
        }
    }

    /// The host reads what has come: at most a random chunk of it.
    fn read(&mut self) {
        let max = self.noise.between(1, 90) as usize;
        let mut chunk = Vec::new();
        while chunk.len() < max
            && let Some(&(at, b)) = self.wire.front()
            && at <= self.now
        {
            chunk.push(b);
            self.wire.pop_front();
        }
        self.next_read = match self.wire.front() {
            Some(&(at, _)) => Some(at.max(self.now) + self.noise.between(0, 6)),
            None => None,
        };
        if chunk.is_empty() {
            return;
        }
        self.tally.chunks += 1;
        let before = self.host.stats().dropped();
        let messages = self.host.decode_all(&chunk);
        let mut out = Vec::new();
        if self.host.stats().dropped() > before {
            self.tally.dropped_by_decoder += self.host.stats().dropped() - before;
            self.rec.link_lost(&mut out);
        }
        for m in messages {
            if let Message::Position(pieces) = m {
                if self.verbose {
                    eprintln!(
                        "{} status {}",
                        self.now,
                        rochade::eboard::pieces::board_of_pieces(&pieces)
                    );
                }
                self.tally.statuses_read += 1;
                self.rec.on_dump(self.now, &pieces, &mut out);
            }
        }
        self.events(out);
    }

    /// Runs the board's scans, the line, the host's keep-alive and the
    /// recognizer's deadlines, in time order, up to `until`.
    fn advance_to(&mut self, until: u64) {
        for _ in 0..1_000_000 {
            let scan = self.sim.next_scan_ms();
            let read = self.next_read.unwrap_or(u64::MAX);
            let deadline = self.rec.next_deadline().unwrap_or(u64::MAX);
            let keep = self.next_keep_alive;
            let next = scan.min(read).min(deadline).min(keep);
            if next > until {
                self.now = until;
                return;
            }
            self.now = next.max(self.now);
            if deadline == next {
                let mut out = Vec::new();
                self.rec.on_tick(self.now, &mut out);
                self.events(out);
            } else if read == next {
                self.read();
            } else if scan == next {
                for (_, status) in self.sim.scan_until(self.now) {
                    self.board_says(status);
                }
            } else {
                self.next_keep_alive += KEEP_ALIVE_MS;
                let ask = self.host.encode(self.host.keep_alive());
                self.host_says(ask);
            }
        }
        panic!("virtual time stuck at {}", self.now);
    }
}

/// Plays every game at `pace`.
fn run(pace: Pace, seed: u64) -> Tally {
    let games = eboard_hands::selfplay();
    assert_eq!(games.len(), 330);
    let mut tally = Tally::default();
    let only: Option<usize> = std::env::var("MILLENNIUM_GAME")
        .ok()
        .and_then(|g| g.parse().ok());
    for (i, game) in games.iter().enumerate() {
        if only.is_some_and(|g| g != i + 1) {
            continue;
        }
        let mut hands = Rng((seed ^ (i as u64 + 1)).wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
        let mut noise = Rng((seed ^ (i as u64 + 1) << 20).wrapping_mul(0xD1B5_4A32_D192_ED03) | 1);
        let top_bit_parity = noise.chance(50);
        let scan_units = noise.between(15, 40) as u8;
        let mut t = Table {
            sim: MillenniumSim::new(),
            host: AnyDecoder::new(Kind::Millennium),
            rec: Recognizer::new(RecognizerConfig::default(), Chess::default()),
            noise,
            now: 0,
            wire: VecDeque::new(),
            next_read: None,
            next_keep_alive: KEEP_ALIVE_MS,
            top_bit_parity,
            moves: Vec::new(),
            wrong: Vec::new(),
            tally: &mut tally,
            verbose: only.is_some(),
        };
        // The port opens: the greeting, then the scan time of this game.
        let greeting = t.host.greeting();
        t.host_says(greeting);
        t.host_says(with_check(format!("W01{scan_units:02X}").as_bytes()));
        t.advance_to(1000);
        let played = eboard_hands::play_game(game, pace, &mut hands, 1000);
        for change in &played.changes {
            t.advance_to(change.at_ms);
            if t.verbose {
                eprintln!("{} hand {} {:?}", change.at_ms, change.square, change.piece);
            }
            t.sim.set(change.square, change.piece);
        }
        t.advance_to(played.end_ms + 6000);
        let (moves, wrong) = (std::mem::take(&mut t.moves), std::mem::take(&mut t.wrong));
        let carried_out = t.sim.commands.iter().filter(|c| **c == b'S').count() as u64;
        drop(t);
        tally.status_commands_carried_out += carried_out;
        let agree = moves.iter().zip(game).take_while(|(a, b)| a == b).count();
        tally.games += 1;
        tally.moves += agree;
        tally.wrong += moves.len() - agree + wrong.len();
        tally.missed += game.len() - agree;
        if agree == game.len() && moves.len() == game.len() && wrong.is_empty() {
            tally.exact += 1;
        } else if tally.failures.len() < 5 {
            tally.failures.push(format!(
                "game {}: {} of {} moves recorded, first {agree} right, then {:?}; {wrong:?}",
                i + 1,
                moves.len(),
                game.len(),
                moves.get(agree).map(|m| m.to_string()),
            ));
        }
    }
    tally
}

fn check(name: &str, pace: Pace) {
    let t = run(pace, 33);
    println!(
        "{name}: games exact {} / {}, moves {}, wrong {}, missed {}",
        t.exact, t.games, t.moves, t.wrong, t.missed
    );
    println!(
        "{name}: {} statuses sent, {} read; {} frames lost, {} corrupted ({} drops counted by the decoder), {} chunks; {} status requests by the recognizer, {} status commands in all, {} host commands damaged",
        t.statuses_sent,
        t.statuses_read,
        t.lost,
        t.corrupted,
        t.dropped_by_decoder,
        t.chunks,
        t.requests,
        t.status_commands,
        t.host_damaged
    );
    // The noise really happened.
    assert!(
        t.lost > 100 && t.corrupted > 100 && t.host_damaged > 100,
        "{t:?}"
    );
    assert!(t.dropped_by_decoder >= t.corrupted / 2, "{t:?}");
    assert!(t.requests > 100, "{t:?}");
    // Every status request the board got whole was answered.
    assert_eq!(
        t.status_commands_carried_out,
        t.status_commands - t.status_commands_damaged,
        "{t:?}"
    );
    assert_eq!(
        (t.wrong, t.missed),
        (0, 0),
        "{name}: {}",
        t.failures.join("\n")
    );
    assert_eq!(t.exact, t.games);
}

#[test]
fn every_game_is_followed_exactly_at_a_human_pace() {
    check("human pace", HUMAN);
}

#[test]
fn every_game_is_followed_exactly_at_blitz_pace() {
    check("blitz pace", BLITZ);
}

#[test]
fn the_serial_link_follows_the_emulator_on_a_real_pseudo_terminal_and_lights_its_leds() {
    use rochade::eboard::millennium::Command;
    use rochade::serial::{BoardInput, Link, LinkConfig};
    use rochade::session::board::BoardEvent;
    use shakmaty::{Bitboard, Position, Square};
    use std::time::{Duration, Instant};

    let board = millennium_pty::MillenniumPty::start();
    let (tx, rx) = std::sync::mpsc::channel::<BoardInput<Message>>();
    let link = Link::spawn(LinkConfig::eboard(&board.device, Kind::Millennium), tx).expect("link");
    let next = |timeout: Duration| rx.recv_timeout(timeout).ok().map(|input| input.event);

    // The greeting: reports on change, the version, the status.
    let mut ident = None;
    let mut first = None;
    let until = Instant::now() + Duration::from_secs(10);
    while (ident.is_none() || first.is_none()) && Instant::now() < until {
        match next(Duration::from_millis(200)) {
            Some(BoardEvent::Message(Message::Ident(text))) => ident = Some(text),
            Some(BoardEvent::Message(Message::Position(p))) => first = Some(*p),
            _ => {}
        }
    }
    assert_eq!(ident.as_deref(), Some("Millennium ChessLink 01.03"));
    assert_eq!(first, Some(rochade::eboard::pieces::start_pieces()));
    assert!(
        board.commands().starts_with(b"WVS"),
        "{:?}",
        board.commands()
    );
    // Every byte the link wrote had its odd-parity bit: none was lost.
    assert_eq!(board.parity_errors(), 0);

    // A few games' worth of moves, square by square: each position after
    // a move stands on the board long enough for a scan, and the host
    // reads every one.
    let games = eboard_hands::selfplay();
    let mut expected = vec![rochade::eboard::pieces::start_pieces()];
    for game in games.iter().take(2) {
        let mut pos = Chess::default();
        let mut shown = board.pieces();
        let mut show = |pieces: rochade::eboard::Pieces| {
            for sq in Square::ALL {
                if shown[usize::from(sq)] != pieces[usize::from(sq)] {
                    board.set(sq, pieces[usize::from(sq)]);
                }
            }
            shown = pieces;
            std::thread::sleep(Duration::from_millis(100));
        };
        let start = rochade::eboard::pieces::pieces_of_board(pos.board().clone());
        if expected.last() != Some(&start) {
            expected.push(start);
        }
        show(start);
        for &mv in game.iter().take(24) {
            pos.play_unchecked(mv);
            let pieces = rochade::eboard::pieces::pieces_of_board(pos.board().clone());
            expected.push(pieces);
            show(pieces);
        }
    }
    // Repeats (the keep-alive's answers) aside, the positions in order.
    let mut seen = expected[..1].to_vec();
    let until = Instant::now() + Duration::from_secs(10);
    while seen.len() < expected.len() && Instant::now() < until {
        if let Some(BoardEvent::Message(Message::Position(p))) = next(Duration::from_millis(200))
            && seen.last() != Some(&*p)
        {
            seen.push(*p);
        }
    }
    assert_eq!(seen.len(), expected.len(), "every position read");
    assert!(seen == expected, "the positions in order");
    assert_eq!(link.status().stats.dropped(), 0, "{:?}", link.status());

    // Lights on e2 and e4: the documented LED frame, steady on at the
    // corners LED 41-44 and 50-53, reaches the board.
    let e2_e4 = Bitboard::from(Square::E2) | Square::E4;
    let mut frame = String::from("L20");
    for led in 1..=81 {
        let lit = [41, 42, 43, 44, 50, 51, 52, 53].contains(&led);
        frame.push_str(if lit { "FF" } else { "00" });
    }
    frame.push_str("4E");
    assert_eq!(
        AnyDecoder::new(Kind::Millennium).encode(HostCommand::Lights(e2_e4)),
        millennium::with_parity(frame.as_bytes())
    );
    link.send(HostCommand::Lights(e2_e4));
    let until = Instant::now() + Duration::from_secs(5);
    while board.lit().is_empty() && Instant::now() < until {
        std::thread::sleep(Duration::from_millis(10));
    }
    // The board carried out a frame that is this one, byte for byte (it
    // takes upper-case hex with the right check only).
    let got = Command::Leds {
        slot: millennium::LED_SLOT_TIME,
        leds: Box::new(board.leds()),
    };
    assert_eq!(got.encode(), frame.as_bytes());
    assert!(board.lit().contains(Square::E2) && board.lit().contains(Square::E4));
    // Dark again.
    link.send(HostCommand::Lights(Bitboard::EMPTY));
    let until = Instant::now() + Duration::from_secs(5);
    while !board.lit().is_empty() && Instant::now() < until {
        std::thread::sleep(Duration::from_millis(10));
    }
    assert!(board.lit().is_empty());
    assert!(board.commands().ends_with(b"LX") || board.commands().contains(&b'X'));
    drop(link);
}
