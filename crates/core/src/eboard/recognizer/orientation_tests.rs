//! Which way round: a Millennium board reporting h1 first (as the
//! DGTCentaurMods emulator sends it) or a8 first (as its document says),
//! followed from the start and joined mid-game; a reading fixed by hand;
//! "turned" reported once.

use shakmaty::fen::Fen;
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, Move, Position};

use super::super::{Recognizer, RecognizerConfig, RecognizerEvent};
use crate::board::{OrientationChoice, Protocol};
use crate::eboard::millennium::Decoder;
use crate::eboard::millennium_sim::MillenniumSim;
use crate::eboard::pieces::pieces_of_board;

/// A Millennium emulator's status reports through its decoder into a
/// recognizer, in virtual time.
struct Bench {
    rec: Recognizer,
    sim: MillenniumSim,
    decoder: Decoder,
    now: u64,
    events: Vec<RecognizerEvent>,
}

impl Bench {
    fn new(h1_first: bool, game: Chess) -> Bench {
        let mut sim = MillenniumSim::new();
        sim.h1_first = h1_first;
        Bench {
            rec: Recognizer::new(RecognizerConfig::default(), game),
            sim,
            decoder: Decoder::new(),
            now: 0,
            events: Vec::new(),
        }
    }

    /// The board shows `pos`'s pieces and reports them; time runs on past
    /// the settle time.
    fn show(&mut self, pos: &Chess) {
        self.sim.set_pieces(&pieces_of_board(pos.board().clone()));
        let report = self.sim.status();
        for m in self.decoder.decode_all(&report) {
            if let Some(pieces) = crate::board::BoardReport::pieces(&m) {
                self.rec.on_dump(self.now, pieces, &mut self.events);
            }
        }
        self.now += 1000;
        self.rec.on_tick(self.now, &mut self.events);
    }

    /// Each move made on the board in turn, each position reported.
    fn play(&mut self, moves: &[&str]) -> Chess {
        let mut pos = self.rec.position().clone();
        for uci in moves {
            let mv = uci_move(&pos, uci);
            pos.play_unchecked(mv);
            self.show(&pos);
        }
        pos
    }

    fn moves(&self) -> Vec<String> {
        self.events
            .iter()
            .filter_map(|e| match e {
                RecognizerEvent::Move(mv) => Some(mv.to_uci(CastlingMode::Standard).to_string()),
                _ => None,
            })
            .collect()
    }

    fn turns(&self) -> Vec<bool> {
        self.events
            .iter()
            .filter_map(|e| match e {
                RecognizerEvent::Orientation { turned } => Some(*turned),
                _ => None,
            })
            .collect()
    }

    fn mismatches(&self) -> usize {
        self.events
            .iter()
            .filter(|e| matches!(e, RecognizerEvent::Mismatch(_)))
            .count()
    }
}

fn uci_move(pos: &Chess, uci: &str) -> Move {
    uci.parse::<UciMove>()
        .expect("UCI")
        .to_move(pos)
        .expect("legal")
}

fn after(moves: &[&str]) -> Chess {
    let mut pos = Chess::default();
    for uci in moves {
        let mv = uci_move(&pos, uci);
        pos.play_unchecked(mv);
    }
    pos
}

const OPENING: [&str; 6] = ["e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6"];
const GOES_ON: [&str; 5] = ["b5a4", "g8f6", "e1g1", "f8e7", "f1e1"];

#[test]
fn h1_first_from_the_start_is_read_turned_and_every_move_followed() {
    let mut b = Bench::new(true, Chess::default());
    b.show(&Chess::default());
    assert_eq!(b.turns(), [true]);
    b.play(&OPENING);
    b.play(&GOES_ON);
    let all: Vec<&str> = OPENING.iter().chain(&GOES_ON).copied().collect();
    assert_eq!(b.moves(), all);
    assert_eq!(b.turns(), [true], "said once");
    assert_eq!(b.mismatches(), 0);
}

#[test]
fn joined_mid_game_either_way_the_reading_that_fits_wins() {
    let joined = after(&OPENING);
    for h1_first in [true, false] {
        // As `track --fen`: the game starts from a position the board
        // already shows.
        let mut b = Bench::new(h1_first, joined.clone());
        b.show(&joined);
        assert_eq!(b.turns(), [h1_first], "h1 first: {h1_first}");
        b.play(&GOES_ON);
        assert_eq!(b.moves(), GOES_ON, "h1 first: {h1_first}");
        assert_eq!(b.mismatches(), 0);
        // Joined one move on (the board a move ahead of the game): the
        // move is read, in the reading that fits.
        let mut b = Bench::new(h1_first, joined.clone());
        b.play(&GOES_ON[..1]);
        assert_eq!(b.turns(), [h1_first]);
        assert_eq!(b.moves(), GOES_ON[..1]);
    }
}

#[test]
fn a_board_set_up_by_hand_is_turned_at_the_mismatch_it_ends() {
    // The board is joined while the pieces are still being set up (it
    // fits nothing), then stands as the game, h1 first.
    let joined = after(&OPENING);
    let mut b = Bench::new(true, joined.clone());
    let mut half = joined.board().clone();
    half.discard_piece_at(shakmaty::Square::B5);
    half.discard_piece_at(shakmaty::Square::C6);
    let pieces = pieces_of_board(half);
    b.sim.set_pieces(&pieces);
    let report = b.sim.status();
    let mut d = Decoder::new();
    let m = d.decode_all(&report);
    b.rec.on_dump(
        0,
        crate::board::BoardReport::pieces(&m[0]).unwrap(),
        &mut b.events,
    );
    b.now = 5000;
    b.rec.on_tick(1000, &mut b.events);
    b.rec.on_tick(b.now, &mut b.events);
    assert_eq!(b.mismatches(), 1, "{:?}", b.events);
    assert!(b.turns().is_empty());
    b.show(&joined);
    assert_eq!(b.turns(), [true]);
    assert!(b.events.contains(&RecognizerEvent::InSync));
    b.play(&GOES_ON);
    assert_eq!(b.moves(), GOES_ON);
}

#[test]
fn a_reading_fixed_by_hand_is_kept() {
    let joined = after(&OPENING);
    // Fixed turned on a board that reports h1 first: read so at once, no
    // start position needed.
    let mut b = Bench::new(true, joined.clone());
    let mut ev = Vec::new();
    b.rec
        .set_orientation_choice(0, OrientationChoice::Turned, &mut ev);
    assert_eq!(ev, [RecognizerEvent::Orientation { turned: true }]);
    b.show(&joined);
    b.play(&GOES_ON);
    assert_eq!(b.moves(), GOES_ON);
    // Fixed straight on the same board: never turned, the board differs
    // from the game (guidance), no move read.
    let mut b = Bench::new(true, joined.clone());
    b.rec
        .set_orientation_choice(0, OrientationChoice::Straight, &mut b.events);
    b.show(&joined);
    let one_on = after(&[&OPENING[..], &GOES_ON[..1]].concat());
    b.show(&one_on);
    b.now += 3000;
    b.rec.on_tick(b.now, &mut b.events);
    assert!(b.moves().is_empty(), "{:?}", b.moves());
    assert_eq!(b.turns(), [false]);
    assert!(b.mismatches() >= 1);
    // Back to automatic: the next change finds the reading, and the two
    // moves made meanwhile.
    b.rec
        .set_orientation_choice(b.now, OrientationChoice::Auto, &mut b.events);
    b.show(&after(&[&OPENING[..], &GOES_ON[..2]].concat()));
    assert_eq!(b.turns(), [false, true]);
    assert_eq!(b.moves(), GOES_ON[..2]);
}

#[test]
fn a_new_game_on_a_turned_board_says_turned_no_more() {
    let mut b = Bench::new(true, Chess::default());
    b.show(&Chess::default());
    b.play(&OPENING);
    b.show(&Chess::default());
    assert!(b.events.contains(&RecognizerEvent::NewGame));
    b.play(&OPENING[..2]);
    assert_eq!(b.turns(), [true], "once, not at every game");
    assert_eq!(b.moves().len(), OPENING.len() + 2);
}

#[test]
fn the_fen_of_a_joined_game_needs_no_start_position() {
    // A puzzle set up by hand: a position no game from the start shows
    // on the way, h1 first.
    let fen: Fen = "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1".parse().unwrap();
    let pos: Chess = fen
        .into_position(CastlingMode::Standard)
        .expect("a position");
    let mut b = Bench::new(true, pos.clone());
    b.show(&pos);
    let mut next = pos.clone();
    next.play_unchecked(uci_move(&pos, "d1d8"));
    b.show(&next);
    assert_eq!(b.turns(), [true]);
    assert_eq!(b.moves(), ["d1d8"]);
}
