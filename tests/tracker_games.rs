//! Full games turned into snapshot streams as a person would produce them
//! (capture and castling orders, hesitations, pieces lifted and put back,
//! sensor glitches, varying speed), fed to the tracker: every game must be
//! reconstructed exactly, with no false move, mismatch or takeback.

use rochade::board::{Tracker, TrackerConfig, TrackerEvent};
use shakmaty::san::San;
use shakmaty::{CastlingSide, Chess, Move, Position, Role, Square};

#[path = "support/rng.rs"]
mod rng;
use rng::Rng;

fn bit(sq: Square) -> u64 {
    1 << u32::from(sq)
}

fn read_game(text: &str) -> Vec<Move> {
    let mut pos = Chess::default();
    let mut moves = Vec::new();
    let movetext: String = text
        .lines()
        .filter(|l| !l.starts_with('['))
        .collect::<Vec<_>>()
        .join(" ");
    for token in movetext.split_whitespace() {
        if ["1-0", "0-1", "1/2-1/2", "*"].contains(&token) {
            continue;
        }
        let token = token.trim_start_matches(|c: char| c.is_ascii_digit() || c == '.');
        if token.is_empty() {
            continue;
        }
        let san: San = token
            .trim_end_matches(['+', '#'])
            .parse()
            .unwrap_or_else(|e| panic!("{token}: {e}"));
        let mv = san
            .to_move(&pos)
            .unwrap_or_else(|e| panic!("{token} after {} moves: {e}", moves.len()));
        pos.play_unchecked(mv);
        moves.push(mv);
    }
    moves
}

/// A simulated person at the peg-board.
struct Player {
    tracker: Tracker,
    mask: u64,
    now: u64,
    rng: Rng,
    events: Vec<TrackerEvent>,
    snapshots: u64,
}

impl Player {
    fn send(&mut self) {
        self.snapshots += 1;
        self.tracker.on_snapshot(
            self.now,
            rochade::board::BoardMask(self.mask),
            &mut self.events,
        );
    }

    fn advance(&mut self, ms: u64) {
        let end = self.now + ms;
        while let Some(d) = self.tracker.next_deadline().filter(|&d| d <= end) {
            self.now = d.max(self.now);
            self.tracker.on_tick(self.now, &mut self.events);
        }
        self.now = end;
        // A heartbeat now and then, as a real board sends.
        if self.rng.chance(30) {
            self.send();
        }
    }

    /// A pause between hand movements: always longer than the settle window.
    fn pause(&mut self) {
        let settle = self.tracker.config().settle_ms;
        let ms = self.rng.between(settle + 30, 900);
        self.maybe_glitch();
        self.advance(ms);
    }

    fn maybe_glitch(&mut self) {
        if self.rng.chance(15) {
            let sq = Square::new(self.rng.below(64) as u32);
            let settle = self.tracker.config().settle_ms;
            self.mask ^= bit(sq);
            self.send();
            let ms = self.rng.between(1, settle - 5);
            self.advance(ms);
            self.mask ^= bit(sq);
            self.send();
            let ms = self.rng.between(1, 10);
            self.advance(ms);
        }
    }

    fn toggle(&mut self, sq: Square) {
        self.mask ^= bit(sq);
        self.send();
        self.pause();
    }

    /// Carries out one move the way a person might.
    fn play(&mut self, pos: &Chess, mv: Move) {
        let own = pos.board().by_color(pos.turn());
        // Hesitation: lift another own piece and put it back.
        if self.rng.chance(15) {
            let pieces: Vec<Square> = own.into_iter().collect();
            let sq = pieces[self.rng.below(pieces.len() as u64) as usize];
            self.toggle(sq);
            self.toggle(sq);
        }
        match mv {
            Move::Normal {
                from, to, capture, ..
            } => {
                if capture.is_some() {
                    if self.rng.chance(50) {
                        self.toggle(to); // captured piece off first
                        self.toggle(from);
                    } else {
                        self.toggle(from);
                        self.toggle(to);
                    }
                    self.toggle(to); // capturing piece placed
                } else {
                    self.toggle(from);
                    self.toggle(to);
                }
            }
            Move::EnPassant { from, to } => {
                let taken = Square::from_coords(to.file(), from.rank());
                if self.rng.chance(50) {
                    self.toggle(taken);
                    self.toggle(from);
                    self.toggle(to);
                } else {
                    self.toggle(from);
                    self.toggle(to);
                    self.toggle(taken);
                }
            }
            Move::Castle { king, rook } => {
                let side = CastlingSide::from_king_side(rook > king);
                let (k2, r2) = (side.king_to(pos.turn()), side.rook_to(pos.turn()));
                if self.rng.chance(50) {
                    self.toggle(king);
                    self.toggle(k2);
                    self.toggle(rook);
                    self.toggle(r2);
                } else {
                    self.toggle(rook);
                    self.toggle(r2);
                    self.toggle(king);
                    self.toggle(k2);
                }
            }
            Move::Put { .. } => unreachable!(),
        }
        if let Some(role) = mv.promotion() {
            // The player names the piece, or waits for the default queen.
            if role == Role::Queen && self.rng.chance(50) {
                self.advance(self.tracker.config().promotion_ms);
            } else {
                assert!(
                    self.tracker.choose_promotion(role, &mut self.events),
                    "promotion not pending for {mv}"
                );
            }
        }
        // Castling with the rook first waits for the extension window only
        // if the king never came; settle everything before the next move.
        self.advance(self.tracker.config().settle_ms + 1);
    }
}

fn replay(name: &str, moves: &[Move], seed: u64) -> u64 {
    let start = Chess::default();
    let mut player = Player {
        tracker: Tracker::new(TrackerConfig::default(), start.clone()),
        mask: start.board().occupied().0,
        now: 0,
        rng: Rng(seed | 1),
        events: Vec::new(),
        snapshots: 0,
    };
    player.send();
    player.advance(500);
    let mut pos = start;
    let mut executed: Vec<Move> = Vec::new();
    for (i, &mv) in moves.iter().enumerate() {
        player.play(&pos, mv);
        pos.play_unchecked(mv);
        for e in player.events.drain(..) {
            match e {
                // A rook move that may be castling is executed once the
                // extension window passes or the opponent starts his move.
                TrackerEvent::Executed(m) => executed.push(m),
                TrackerEvent::Touched { .. } | TrackerEvent::PromotionPending { .. } => {}
                other => panic!("{name} seed {seed}: unexpected {other:?} at move {}", i + 1),
            }
        }
        assert!(
            moves.starts_with(&executed) && executed.len() + 1 > i,
            "{name} seed {seed}: after move {} ({mv}) executed {executed:?}",
            i + 1
        );
    }
    player.advance(10_000);
    executed.extend(player.events.drain(..).map(|e| match e {
        TrackerEvent::Executed(m) => m,
        other => panic!("{name} seed {seed}: after the game {other:?}"),
    }));
    assert_eq!(
        executed, moves,
        "{name} seed {seed}: the whole game, nothing more"
    );
    assert_eq!(player.tracker.position(), &pos);
    player.snapshots
}

#[test]
fn real_games_are_reconstructed_exactly() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/games");
    let mut games = 0;
    let mut total_snapshots = 0;
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for path in entries {
        if path.extension().is_none_or(|e| e != "pgn") {
            continue;
        }
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let moves = read_game(&std::fs::read_to_string(&path).unwrap());
        assert!(moves.len() > 10, "{name}");
        for seed in 1..=40u64 {
            total_snapshots += replay(&name, &moves, seed.wrapping_mul(0x9E37_79B9_7F4A_7C15));
        }
        games += 1;
    }
    assert!(games >= 4, "expected the games under tests/data/games");
    assert!(total_snapshots > 10_000);
}
