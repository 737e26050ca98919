//! The DGT Pegasus as the occupancy board it is, over whole games: all
//! 330 self-play games played by a person's hands on the Pegasus emulator
//! (`rochade::eboard::pegasus_sim`: occupancy-only dumps and field
//! updates, silent until the developer key, every notification cut into
//! 20-byte packets), in virtual time. Its packets go one by one through
//! the Pegasus decoder into the session as the shell passes them on
//! (`Event::own_eboard`: the peg-board's tracker), the session's commands
//! (the greeting, board requests, lights) are encoded and answered by the
//! emulator, and the board is asked for its whole position every second,
//! as the Bluetooth link does.
//!
//! 1. Both sides' moves made on the board, at a human pace and at blitz
//!    pace: every move read once, in order; queen promotions left to the
//!    default, under-promotions chosen when asked; a piece set down on
//!    its way long enough to be read and carried on completes the move
//!    (`TrackerEvent::SlideCompleted`).
//! 2. The player has White on the board; Black's moves come from
//!    elsewhere (the engine) and the hands carry them out: each is lit
//!    (from and to, the king's squares for castling) before the hands
//!    start, and the board is dark once it stands.
//!
//! Not every game comes out exact yet (figures printed with
//! `--nocapture`, and in docs/boards-ble.md): a capture made while the
//! taken piece's square was read as a slide's stop, and a capture whose
//! taken piece was off for less than the settle time while the engine
//! waits for the move, are the games missed. Each test plays five seeds
//! of the hands and timing and asserts the worst (by default every fifth
//! game a seed; `ROCHADE_FULL_CORPUS=1` or `PEGASUS_FULL=1`: every game
//! with every seed, some 13 minutes on two cores; `tests/support/corpus.rs`,
//! docs/testing.md). `PEGASUS_ONLY=N` plays game N alone with each
//! seed, `PEGASUS_TRACE=1` prints the hands and the session's notices.
//!
//! Time: the CI sample takes some 46 s here with the core at opt-level 2
//! (271 s at opt-level 0; 2 loaded cores, docs/testing.md).

#[path = "support/corpus.rs"]
mod corpus;
#[path = "support/eboard_hands.rs"]
mod eboard_hands;
#[path = "support/rng.rs"]
mod rng;

use std::collections::VecDeque;

use eboard_hands::{BLITZ, HUMAN, Pace};
use rochade::board::{HostCommand, Protocol, TrackerConfig};
use rochade::eboard::pegasus_sim::{PACKET, PegasusSim};
use rochade::eboard::{AnyDecoder, Kind};
use rochade::session::board::BoardEvent;
use rochade::session::{Effect, Event, Notice, Session, SessionConfig, Source};
use rochade::words::{Lang, Pack};
use shakmaty::{Bitboard, CastlingMode, Chess, Color, Move, Position, Role};

/// How often the link asks for the whole board.
const REFRESH_MS: u64 = 1000;

struct Table {
    session: Session,
    sim: PegasusSim,
    decoder: AnyDecoder,
    now: u64,
    last_refresh: u64,
    /// Moves the session recorded: ply, UCI, source.
    moves: Vec<(usize, String, Source)>,
    /// The game being played (to choose an under-promotion when asked).
    game: Vec<Move>,
    lights: Vec<(u64, Bitboard)>,
    packets: usize,
    /// The largest packet seen.
    largest: usize,
    corrected: usize,
    chosen: usize,
}

fn pegasus(event: BoardEvent<rochade::eboard::Message>) -> Option<Event> {
    Event::own_eboard(Kind::Pegasus, event)
}

impl Table {
    fn new(game: &[Move]) -> Table {
        let config = SessionConfig {
            lang: Lang::En,
            ..SessionConfig::default()
        };
        let mut t = Table {
            session: Session::with_pack(config, Pack::bundled(Lang::En)),
            sim: PegasusSim::new(),
            decoder: AnyDecoder::new(Kind::Pegasus),
            now: 0,
            last_refresh: 0,
            moves: Vec::new(),
            game: game.to_vec(),
            lights: Vec::new(),
            packets: 0,
            largest: 0,
            corrected: 0,
            chosen: 0,
        };
        // What `track --format pegasus` configures: its lights guide.
        let lights = TrackerConfig {
            guide_lights: true,
            complete_slides: true,
            settle_ms: rochade::eboard::pegasus::SETTLE_MS,
            ..TrackerConfig::default()
        };
        t.handle(0, pegasus(BoardEvent::Configure(lights)).unwrap());
        let up = BoardEvent::LinkUp {
            port: "emulator".into(),
        };
        t.handle(0, pegasus(up).unwrap());
        // Before the greeting the board says nothing.
        assert!(t.sim.receive(&[0x42, 0x4D]).is_empty());
        let greeting = t.decoder.greeting();
        let answer = t.sim.receive(&greeting);
        t.deliver(0, answer);
        t
    }

    /// The board's packets reach the decoder one by one.
    fn deliver(&mut self, at: u64, packets: Vec<Vec<u8>>) {
        for packet in packets {
            self.packets += 1;
            self.largest = self.largest.max(packet.len());
            for m in self.decoder.decode_all(&packet) {
                if let Some(event) = pegasus(BoardEvent::Message(m)) {
                    self.handle(at, event);
                }
            }
        }
    }

    fn handle(&mut self, at: u64, event: Event) {
        let mut queue = VecDeque::from([event]);
        while let Some(event) = queue.pop_front() {
            for effect in self.session.handle(at, event).into_effects() {
                match effect {
                    Effect::BoardCommand(command) => {
                        if let HostCommand::Lights(squares) = command {
                            self.lights.push((at, squares));
                        }
                        let bytes = self.decoder.encode(command);
                        for packet in self.sim.receive(&bytes) {
                            for m in self.decoder.decode_all(&packet) {
                                queue.extend(pegasus(BoardEvent::Message(m)));
                            }
                        }
                    }
                    Effect::Notice(Notice::Promotion { .. }) => {
                        let ply = self.session.record().moves().len();
                        if let Some(role) = self.game.get(ply).and_then(|m| m.promotion())
                            && role != Role::Queen
                        {
                            self.chosen += 1;
                            queue.push_back(Event::Board(BoardEvent::PromotionChoice(role)));
                        }
                    }
                    Effect::Notice(Notice::Move {
                        ply, mv, source, ..
                    }) => {
                        if self.moves.len() >= ply {
                            self.corrected += 1;
                            self.moves.truncate(ply - 1);
                        }
                        self.moves.push((
                            ply,
                            mv.to_uci(CastlingMode::Standard).to_string(),
                            source,
                        ));
                    }
                    other => {
                        if std::env::var("PEGASUS_TRACE").is_ok() {
                            eprintln!("{at}: {other:?}");
                        }
                    }
                }
            }
        }
    }

    /// Time runs to `until`: the session's deadlines and the link's
    /// refreshes, in order.
    fn run_to(&mut self, until: u64) {
        for _ in 0..100_000 {
            let refresh = self.last_refresh + REFRESH_MS;
            let deadline = self.session.next_deadline();
            let next = deadline.map_or(refresh, |d| d.min(refresh));
            if next > until {
                self.now = self.now.max(until);
                return;
            }
            self.now = self.now.max(next);
            if deadline == Some(next) {
                self.handle(self.now, Event::Tick);
            } else {
                self.last_refresh = self.now;
                let bytes = self.decoder.encode(HostCommand::Snapshot);
                let answer = self.sim.receive(&bytes);
                self.deliver(self.now, answer);
            }
        }
        panic!("a deadline that never passes");
    }

    fn lit_now(&self) -> Bitboard {
        self.lights.last().map_or(Bitboard::EMPTY, |l| l.1)
    }
}

fn uci(mv: Move) -> String {
    mv.to_uci(CastlingMode::Standard).to_string()
}

/// The squares a move is shown on.
fn shown_on(mv: Move, mover: Color) -> Bitboard {
    match mv {
        Move::Castle { king, .. } => {
            let side = mv.castling_side().expect("a side");
            Bitboard::from(king) | Bitboard::from(side.king_to(mover))
        }
        _ => Bitboard::from(mv.from().expect("a from-square")) | Bitboard::from(mv.to()),
    }
}

#[derive(Default)]
struct Outcome {
    failures: Vec<String>,
    lit: usize,
    corrected: usize,
    chosen: usize,
    packets: usize,
    largest: usize,
}

/// Plays one game; with `engine`, Black's moves come from elsewhere.
fn play(game: &[Move], pace: Pace, seed: u64, engine: bool) -> Outcome {
    let mut failures = Vec::new();
    let played = eboard_hands::play_game(game, pace, &mut rng::Rng(seed), 1000);
    let mut t = Table::new(game);
    t.run_to(900);
    let mut changes = played.changes.iter().peekable();
    let mut delay = 0;
    let mut pos = Chess::default();
    let mut lit = 0;
    for (ply, &mv) in game.iter().enumerate() {
        let mover = pos.turn();
        let elsewhere = engine && mover == Color::Black;
        if elsewhere {
            if t.session.record().moves().len() != ply {
                failures.push(format!(
                    "ply {ply}: White's move not recorded before the reply"
                ));
                break;
            }
            t.handle(
                t.now,
                Event::MovePlayed {
                    mv,
                    source: Source::Engine,
                },
            );
        }
        let done = played.move_done_ms[ply];
        let mut first = true;
        while let Some(c) = changes.next_if(|c| c.at_ms <= done) {
            let at = (c.at_ms + delay).max(t.now);
            delay = at - c.at_ms;
            t.run_to(at);
            if first && elsewhere {
                if t.lit_now() == shown_on(mv, mover) {
                    lit += 1;
                } else {
                    failures.push(format!(
                        "ply {}: {} not lit before the hands start (lit {:?})",
                        ply + 1,
                        uci(mv),
                        t.lit_now().into_iter().collect::<Vec<_>>()
                    ));
                }
            }
            first = false;
            if std::env::var("PEGASUS_TRACE").is_ok() {
                eprintln!("{}: hand {} {:?}", t.now, c.square, c.piece.is_some());
            }
            let packets = t.sim.set(c.square, c.piece.is_some());
            t.deliver(t.now, packets);
        }
        if engine && mover == Color::White {
            // The engine answers once the board has stood still with the
            // move on it (a slide may first be read as a shorter move and
            // completed) and the move is on the record.
            let until = t.now + 3000;
            while t.now < until
                && (t.session.record().last_move().map(|m| m.mv) != Some(mv)
                    || t.session.record().moves().len() != ply + 1)
            {
                let step = t.now + 10;
                t.run_to(step);
            }
        }
        if elsewhere {
            t.run_to(t.now + 1000);
            if t.lit_now() != Bitboard::EMPTY {
                failures.push(format!("ply {}: lights stay on after {}", ply + 1, uci(mv)));
            }
        }
        pos.play_unchecked(mv);
    }
    t.run_to(t.now + 6000);
    let want: Vec<(usize, String)> = game
        .iter()
        .enumerate()
        .map(|(i, &m)| (i + 1, uci(m)))
        .collect();
    let got: Vec<(usize, String)> = t.moves.iter().map(|(p, u, _)| (*p, u.clone())).collect();
    if got != want {
        let first = want
            .iter()
            .zip(&got)
            .position(|(a, b)| a != b)
            .unwrap_or(want.len().min(got.len()));
        failures.push(format!(
            "moves differ from ply {}: want {:?}, got {:?} ({} of {} recorded)",
            first + 1,
            want.get(first),
            got.get(first),
            got.len(),
            want.len()
        ));
    }
    let from_board = t
        .moves
        .iter()
        .filter(|(p, _, s)| *s == Source::Engine || !(engine && p % 2 == 0))
        .count();
    if from_board != t.moves.len() {
        failures.push("a move from elsewhere read from the board again".into());
    }
    if t.lit_now() != Bitboard::EMPTY {
        failures.push(format!("lit at the end: {:?}", t.lit_now()));
    }
    Outcome {
        failures,
        lit,
        corrected: t.corrected,
        chosen: t.chosen,
        packets: t.packets,
        largest: t.largest,
    }
}

/// Seeds each pace is measured over (hands and timing): issue 47 keeps a
/// rule added for one failing game only if it helps the other seeds too.
const SEEDS: u64 = 5;

/// Plays the games with each of five seeds (`base`, `base + 0x1000`, ...):
/// by default a sample, every fifth game (another fifth for each seed, so
/// the five seeds together play every game once), and with
/// `ROCHADE_FULL_CORPUS=1` or `PEGASUS_FULL=1` every game with every
/// seed. No seed may miss more than `worst_missed` of the 330 games (the worst seed of the full run;
/// a game comes out the same in the sample and in the full run, so a
/// sample misses no more). Figures printed with `--nocapture`.
fn all_games(pace: Pace, name: &str, base: u64, engine: bool, worst_missed: usize) {
    let games = eboard_hands::selfplay();
    assert_eq!(games.len(), 330, "the self-play corpus");
    let full = corpus::full() || std::env::var("PEGASUS_FULL").is_ok_and(|v| v == "1");
    let only: Option<usize> = std::env::var("PEGASUS_ONLY")
        .ok()
        .and_then(|v| v.parse().ok());
    let mut worst = 0;
    for k in 0..SEEDS {
        let seed = base + 0x1000 * k;
        let mut failures = Vec::new();
        let mut exact = 0;
        let mut counted = 0;
        let mut total = Outcome::default();
        for (i, game) in games.iter().enumerate() {
            let sampled = full || i as u64 % SEEDS == k;
            if only.is_some_and(|o| o != i + 1) || (only.is_none() && !sampled) {
                continue;
            }
            counted += 1;
            let found = play(game, pace, seed + i as u64, engine);
            total.lit += found.lit;
            total.corrected += found.corrected;
            total.chosen += found.chosen;
            total.packets += found.packets;
            total.largest = total.largest.max(found.largest);
            if found.failures.is_empty() {
                exact += 1;
            } else if failures.len() < 10 {
                failures.push(format!("game {}: {}", i + 1, found.failures.join("; ")));
            }
        }
        println!(
            "Pegasus, {name} (seed {seed:#x}{}): games followed exactly {exact} / {counted}; \
             moves from elsewhere lit before the hands {}; slides corrected {}; \
             under-promotions chosen {}; packets {} (largest {} bytes)",
            if full { "" } else { ", sample" },
            total.lit,
            total.corrected,
            total.chosen,
            total.packets,
            total.largest
        );
        for failure in &failures {
            println!("  {failure}");
        }
        worst = worst.max(counted - exact);
        if counted > 0 {
            assert!(total.largest == PACKET, "dumps went out in 20-byte packets");
        }
    }
    assert!(
        worst <= worst_missed || only.is_some(),
        "{name}: a seed missed {worst} games, more than {worst_missed}"
    );
}

#[test]
fn the_games_are_followed_at_a_human_pace() {
    all_games(
        HUMAN,
        "human pace, both sides on the board",
        0x9E6A,
        false,
        WORST_HUMAN,
    );
}

#[test]
fn the_games_are_followed_at_blitz_pace() {
    all_games(
        BLITZ,
        "blitz pace, both sides on the board",
        0xB117,
        false,
        WORST_BLITZ,
    );
}

#[test]
fn moves_from_elsewhere_are_lit_and_the_board_dark_once_they_stand() {
    all_games(
        BLITZ,
        "blitz pace, Black from elsewhere",
        0x1E75,
        true,
        WORST_ELSEWHERE,
    );
}

/// Games missed by the worst of the five seeds in the full run (of 330;
/// `ROCHADE_FULL_CORPUS=1` or `PEGASUS_FULL=1`): human pace 329, 329, 327,
/// 324, 328 exact; blitz pace 326, 330, 327, 330, 327; Black from
/// elsewhere 247 with each seed.
const WORST_HUMAN: usize = 6;
const WORST_BLITZ: usize = 4;
const WORST_ELSEWHERE: usize = 83;
