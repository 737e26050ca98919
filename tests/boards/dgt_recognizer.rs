//! The DGT move recognizer in virtual time: a model board sends field
//! updates (in the order hands make them) and answers dump requests, as a
//! real board in update mode does; every case of the issue.

use rochade::board::guidance::guidance;
use rochade::chess::GameRecord;
use rochade::eboard::pieces::{Pieces, start_pieces};
use rochade::eboard::{Recognizer, RecognizerConfig, RecognizerEvent};
use rochade::words::{Lang, Pack};
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, Color, Move, Piece, Role, Square};

struct Rig {
    rec: Recognizer,
    /// What the physical board holds, in board coordinates.
    board: Pieces,
    now: u64,
    events: Vec<RecognizerEvent>,
    dumps_requested: usize,
}

fn sq(name: &str) -> Square {
    name.parse().expect("square")
}

fn piece(c: char) -> Piece {
    Piece::from_char(c).expect("piece letter")
}

fn uci(m: &Move) -> String {
    m.to_uci(CastlingMode::Standard).to_string()
}

impl Rig {
    fn new() -> Rig {
        Rig::with_board(start_pieces())
    }

    fn with_board(board: Pieces) -> Rig {
        let mut rig = Rig {
            rec: Recognizer::new(RecognizerConfig::default(), Chess::default()),
            board,
            now: 0,
            events: Vec::new(),
            dumps_requested: 0,
        };
        rig.dump();
        rig.wait(1000);
        rig
    }

    /// The board sends a full dump now.
    fn dump(&mut self) {
        let mut out = Vec::new();
        self.rec.on_dump(self.now, &self.board, &mut out);
        self.take(out);
    }

    fn take(&mut self, out: Vec<RecognizerEvent>) {
        for e in out {
            if e == RecognizerEvent::RequestBoard {
                self.dumps_requested += 1;
                // The board answers at once (within the same millisecond).
                let mut more = Vec::new();
                self.rec.on_dump(self.now, &self.board, &mut more);
                self.take(more);
            } else {
                self.events.push(e);
            }
        }
    }

    /// A square changes; the board reports it.
    fn set(&mut self, square: &str, p: Option<char>) {
        let s = sq(square);
        self.board[usize::from(s)] = p.map(piece);
        let mut out = Vec::new();
        self.rec
            .on_field_update(self.now, s, p.map(piece), &mut out);
        self.take(out);
    }

    /// Lifts a piece (returns it) and places it elsewhere after `ms`.
    fn slide(&mut self, from: &str, to: &str, ms: u64) {
        let p = self.board[usize::from(sq(from))].expect("a piece to move");
        self.set(from, None);
        self.wait(ms);
        self.set(to, Some(p.char()));
    }

    /// Virtual time passes; every deadline due runs.
    fn wait(&mut self, ms: u64) {
        let until = self.now + ms;
        while let Some(d) = self.rec.next_deadline().filter(|d| *d <= until) {
            self.now = self.now.max(d);
            let mut out = Vec::new();
            self.rec.on_tick(self.now, &mut out);
            self.take(out);
        }
        self.now = until;
    }

    fn moves(&self) -> Vec<String> {
        self.events
            .iter()
            .filter_map(|e| match e {
                RecognizerEvent::Move(m) => Some(uci(m)),
                _ => None,
            })
            .collect()
    }

    fn game(&self) -> Vec<String> {
        self.rec.moves().map(|m| uci(&m)).collect()
    }

    fn drain(&mut self) -> Vec<RecognizerEvent> {
        std::mem::take(&mut self.events)
    }

    /// Plays a move by hand: from-square lifted, a captured piece taken
    /// off after the piece is placed (the usual order), one update each,
    /// then the settle window passes.
    fn hand_move(&mut self, from: &str, to: &str) {
        self.slide(from, to, 150);
        self.wait(1000);
    }
}

#[test]
fn the_start_position_decides_the_orientation_and_a_move_is_recognized() {
    let mut r = Rig::new();
    assert_eq!(
        r.drain(),
        vec![RecognizerEvent::Orientation { turned: false }]
    );
    r.hand_move("e2", "e4");
    assert_eq!(r.moves(), ["e2e4"]);
    // Field updates settled: the board was asked for a dump to confirm.
    assert!(r.dumps_requested >= 1);
}

#[test]
fn nothing_happens_before_the_settle_window_ends() {
    let mut r = Rig::new();
    r.drain();
    r.slide("e2", "e4", 50);
    r.wait(RecognizerConfig::default().settle_ms - 1);
    assert!(r.moves().is_empty(), "not settled yet");
    r.wait(1);
    assert_eq!(r.moves(), ["e2e4"]);
}

#[test]
fn a_piece_slid_across_squares_is_one_move() {
    let mut r = Rig::new();
    r.hand_move("e2", "e4");
    r.hand_move("e7", "e5");
    r.drain();
    // Qd1-h5, slid over e2, f3 and g4, each for less than the settle window.
    r.set("d1", None);
    for (on, off) in [("e2", None), ("f3", Some("e2")), ("g4", Some("f3"))] {
        if let Some(off) = off {
            r.set(off, None);
        }
        r.set(on, Some('Q'));
        r.wait(120);
    }
    r.set("g4", None);
    r.set("h5", Some('Q'));
    r.wait(1000);
    assert_eq!(r.moves(), ["d1h5"]);
}

#[test]
fn a_pause_on_the_way_is_corrected_when_the_piece_goes_on() {
    let mut r = Rig::new();
    r.hand_move("e2", "e4");
    r.hand_move("e7", "e5");
    r.drain();
    r.hand_move("d1", "g4"); // paused on g4 past the settle window
    r.hand_move("g4", "h5");
    let events = r.drain();
    assert!(events.iter().any(|e| matches!(
        e,
        RecognizerEvent::Corrected { old, new } if uci(old) == "d1g4" && uci(new) == "d1h5"
    )));
    assert_eq!(r.game(), ["e2e4", "e7e5", "d1h5"]);
}

fn play_uci(r: &mut Rig, moves: &[&str]) {
    for m in moves {
        let (from, to) = (&m[..2], &m[2..4]);
        if r.board[usize::from(sq(to))].is_some() {
            r.set(to, None);
        }
        r.hand_move(from, to);
    }
}

#[test]
fn captures_are_recognized_in_either_order() {
    // Capturer placed straight onto the captured piece: the board never
    // reports the target square empty.
    let mut r = Rig::new();
    play_uci(&mut r, &["e2e4", "d7d5"]);
    r.set("e4", None);
    r.wait(100);
    r.set("d5", Some('P'));
    r.wait(1000);
    assert_eq!(r.game(), ["e2e4", "d7d5", "e4d5"]);

    // Captured piece taken off first, with a pause past the settle window.
    let mut r = Rig::new();
    play_uci(&mut r, &["e2e4", "d7d5"]);
    r.set("d5", None);
    r.wait(800);
    r.slide("e4", "d5", 100);
    r.wait(1000);
    assert_eq!(r.game(), ["e2e4", "d7d5", "e4d5"]);

    // Capturer placed beside, captured removed, then capturer on the square.
    let mut r = Rig::new();
    play_uci(&mut r, &["e2e4", "d7d5"]);
    r.set("e4", None);
    r.wait(100);
    r.set("d5", None);
    r.wait(500);
    r.set("d5", Some('P'));
    r.wait(1000);
    assert_eq!(r.game(), ["e2e4", "d7d5", "e4d5"]);
}

const ITALIAN: [&str; 6] = ["e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "f8c5"];

#[test]
fn castling_king_first() {
    let mut r = Rig::new();
    play_uci(&mut r, &ITALIAN);
    r.hand_move("e1", "g1"); // the king alone, past the settle window
    assert_eq!(r.game().len(), 6, "the king alone is no move");
    r.hand_move("h1", "f1");
    assert_eq!(r.game().last().map(String::as_str), Some("e1g1"));
    assert!(matches!(r.rec.moves().last(), Some(Move::Castle { .. })));
}

#[test]
fn castling_rook_first_replaces_the_rook_move() {
    let mut r = Rig::new();
    play_uci(&mut r, &ITALIAN);
    r.hand_move("h1", "f1"); // Rf1 is a legal move on its own
    assert_eq!(r.game().last().map(String::as_str), Some("h1f1"));
    r.hand_move("e1", "g1");
    assert_eq!(r.game().last().map(String::as_str), Some("e1g1"));
    assert_eq!(r.game().len(), 7);
}

#[test]
fn en_passant_in_either_order() {
    let opening = ["e2e4", "a7a6", "e4e5", "d7d5"];
    let mut r = Rig::new();
    play_uci(&mut r, &opening);
    r.hand_move("e5", "d6");
    assert_eq!(r.game().len(), 4, "the captured pawn is still there");
    r.set("d5", None);
    r.wait(1000);
    assert_eq!(r.game().last().map(String::as_str), Some("e5d6"));

    let mut r = Rig::new();
    play_uci(&mut r, &opening);
    r.set("d5", None);
    r.wait(50);
    r.hand_move("e5", "d6");
    assert_eq!(r.game().last().map(String::as_str), Some("e5d6"));
}

/// A position where White promotes on e8 or captures on f8.
fn promotion_rig() -> Rig {
    let mut board = [None; 64];
    for (s, p) in [("e1", 'K'), ("a8", 'k'), ("e7", 'P'), ("f8", 'r')] {
        board[usize::from(sq(s))] = Some(piece(p));
    }
    let mut r = Rig::with_board(board);
    let pos: Chess = "k4r2/4P3/8/8/8/8/8/4K3 w - - 0 1"
        .parse::<shakmaty::fen::Fen>()
        .expect("fen")
        .into_position(CastlingMode::Standard)
        .expect("legal");
    r.rec.reset(pos);
    r.wait(1000);
    r.drain();
    r
}

#[test]
fn promotion_is_read_from_the_new_piece() {
    for (new, want) in [('Q', "e7e8q"), ('N', "e7e8n"), ('R', "e7e8r")] {
        let mut r = promotion_rig();
        r.set("e7", None);
        r.wait(120);
        r.set("e8", Some(new));
        r.wait(1000);
        assert_eq!(r.moves(), [want]);
    }
    // The pawn put on e8 first, then swapped for a queen: still one move.
    let mut r = promotion_rig();
    r.slide("e7", "e8", 100);
    r.wait(100);
    r.set("e8", None);
    r.wait(100);
    r.set("e8", Some('Q'));
    r.wait(1000);
    assert_eq!(r.moves(), ["e7e8q"]);
    // Capturing promotion.
    let mut r = promotion_rig();
    r.set("f8", None);
    r.slide("e7", "f8", 100);
    r.set("f8", Some('Q'));
    r.wait(1000);
    assert_eq!(r.moves(), ["e7f8q"]);
}

#[test]
fn a_takeback_goes_back_one_move() {
    let mut r = Rig::new();
    play_uci(&mut r, &["e2e4", "e7e5", "g1f3"]);
    r.wait(5000); // past the correction time
    r.drain();
    r.hand_move("f3", "g1");
    assert!(matches!(&r.drain()[..], [RecognizerEvent::Takeback(m)] if uci(m) == "g1f3"));
    assert_eq!(r.game(), ["e2e4", "e7e5"]);
}

#[test]
fn a_board_turned_round_is_read_from_the_start_position() {
    let mut turned = [None; 64];
    for (i, p) in start_pieces().iter().enumerate() {
        turned[63 - i] = *p;
    }
    let mut r = Rig::with_board(turned);
    assert_eq!(
        r.drain(),
        vec![RecognizerEvent::Orientation { turned: true }]
    );
    // White's e2-e4 is d7-d5 in the board's own labelling.
    r.hand_move("d7", "d5");
    assert_eq!(r.moves(), ["e2e4"]);
}

#[test]
fn the_start_position_after_a_game_is_a_new_game() {
    let mut r = Rig::new();
    play_uci(&mut r, &["e2e4", "e7e5", "g1f3", "b8c6"]);
    r.drain();
    r.board = start_pieces();
    r.dump();
    r.wait(1000);
    let events = r.drain();
    assert!(events.contains(&RecognizerEvent::NewGame), "{events:?}");
    assert!(r.game().is_empty());
    r.hand_move("d2", "d4");
    assert_eq!(r.game(), ["d2d4"]);
}

#[test]
fn a_reply_made_before_the_board_settled_is_two_plies() {
    // A board polled once a second: each dump shows two plies more.
    let mut r = Rig::new();
    r.drain();
    for (from, to) in [("e2", "e4"), ("e7", "e5")] {
        let p = r.board[usize::from(sq(from))].take();
        r.board[usize::from(sq(to))] = p;
    }
    r.wait(1000);
    r.dump();
    r.wait(1000);
    assert_eq!(r.moves(), ["e2e4", "e7e5"]);
}

#[test]
fn a_wrong_position_gets_guidance_after_the_guidance_time_then_in_sync() {
    let pack = Pack::bundled(Lang::De);
    let mut r = Rig::new();
    r.drain();
    // A move entered elsewhere (the peg-board): the board must follow it.
    let e4 = UciMove::from_ascii(b"e2e4")
        .expect("uci")
        .to_move(r.rec.position())
        .expect("legal");
    r.rec.apply_external(r.now, e4);
    r.wait(1000);
    let early = r.drain();
    assert!(
        early.is_empty(),
        "no guidance before the guidance time: {early:?}"
    );
    r.wait(1500);
    let events = r.drain();
    let [RecognizerEvent::Mismatch(m)] = &events[..] else {
        panic!("{events:?}");
    };
    let mut record = GameRecord::new();
    record.play(e4, None).expect("legal");
    assert_eq!(
        guidance(&pack, m, &record).spoken,
        "Bauer von Eva zwei nach Eva vier"
    );
    // Not a takeback: the board never showed e4.
    assert_eq!(r.game(), ["e2e4"]);
    r.hand_move("e2", "e4");
    assert_eq!(r.drain(), vec![RecognizerEvent::InSync]);
    assert_eq!(r.game(), ["e2e4"]);
}

#[test]
fn a_knocked_over_piece_is_named_and_a_wrong_piece_too() {
    let mut r = Rig::new();
    r.drain();
    r.set("c2", None);
    r.set("b1", Some('B'));
    r.wait(5000);
    let events = r.drain();
    let [RecognizerEvent::Mismatch(m)] = &events[..] else {
        panic!("{events:?}");
    };
    let white = |role| Piece {
        color: Color::White,
        role,
    };
    assert_eq!(
        m.missing,
        vec![
            (Square::B1, white(Role::Knight)),
            (Square::C2, white(Role::Pawn))
        ]
    );
    assert_eq!(m.extra, vec![Square::B1]);
    assert!(r.game().is_empty(), "nothing was played");
}
