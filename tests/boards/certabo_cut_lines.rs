//! A Certabo line cut short on the wire, read by the decoder and the
//! recognizer together in virtual time: the squares the line did bring are
//! the only trace of a move at blitz pace (game 260 of the self-play games
//! at blitz pace: a double step taken en passant at once, whose one scan
//! lost its end), and what it did not bring must not make a piece look
//! paused twice (a slide read as a move to the square it paused on).

use rochade::board::{HostCommand, Protocol};
use rochade::eboard::certabo_sim::{CertaboSim, cut_line};
use rochade::eboard::{AnyDecoder, Kind, Message};
use rochade::eboard::{Recognizer, RecognizerConfig, RecognizerEvent};
use shakmaty::{Chess, Move, Piece, Position, Square};

use crate::recorded;

/// The board (no weak chips: the cut is the only fault) and the host.
struct Rig {
    sim: CertaboSim,
    decoder: AnyDecoder,
    rec: Recognizer,
    now: u64,
    moves: Vec<Move>,
    wrong: Vec<String>,
}

impl Rig {
    /// Calibrated from the start position, the spare queens put aside.
    fn new() -> Rig {
        let mut rig = Rig {
            sim: CertaboSim::new(260, false),
            decoder: AnyDecoder::new(Kind::Certabo),
            rec: Recognizer::new(RecognizerConfig::default(), Chess::default()),
            now: 0,
            moves: Vec::new(),
            wrong: Vec::new(),
        };
        rig.scans(12);
        assert!(rig.moves.is_empty() && rig.wrong.is_empty());
        rig
    }

    /// The hands' changes, then the next scan, cut after its first
    /// `cut_after` squares (a8 onwards) when asked: its line then ends at
    /// the next line's colon.
    fn scan(&mut self, changes: &[(&str, Option<char>)], cut_after: Option<usize>) {
        for &(square, piece) in changes {
            let square: Square = square.parse().unwrap();
            self.sim
                .set(square, piece.map(|c| Piece::from_char(c).unwrap()))
                .unwrap();
        }
        let at = self.sim.next_scan_at();
        let (_, mut line) = self.sim.scans_until(at).pop().unwrap();
        if let Some(squares) = cut_after {
            line = cut_line(&line, squares);
        }
        self.feed(at, &line);
    }

    /// `n` scans with no hands.
    fn scans(&mut self, n: usize) {
        for _ in 0..n {
            self.scan(&[], None);
        }
    }

    fn feed(&mut self, at: u64, bytes: &[u8]) {
        while let Some(d) = self.rec.next_deadline().filter(|&d| d <= at) {
            self.now = d.max(self.now);
            let mut out = Vec::new();
            self.rec.on_tick(self.now, &mut out);
            self.take(out);
        }
        self.now = self.now.max(at);
        for m in self.decoder.decode_all(bytes) {
            let mut out = Vec::new();
            match m {
                Message::Position(pieces) => self.rec.on_dump(self.now, &pieces, &mut out),
                Message::Square { square, piece } => {
                    self.rec.on_field_update(self.now, square, piece, &mut out)
                }
                Message::Scanned => self.rec.on_scan(self.now, &mut out),
                _ => {}
            }
            self.take(out);
        }
    }

    fn take(&mut self, out: Vec<RecognizerEvent>) {
        for e in out {
            match e {
                RecognizerEvent::RequestBoard => self.decoder.sent(HostCommand::Snapshot),
                other => recorded::record(other, &mut self.moves, &mut self.wrong),
            }
        }
    }

    /// A move made between two scans, shown settled.
    fn play(&mut self, from: &str, to: &str, piece: char) {
        self.scan(&[(from, None), (to, Some(piece))], None);
        self.scans(2);
    }

    fn record(&self) -> Vec<String> {
        let mut pos = Chess::default();
        self.moves
            .iter()
            .map(|&mv| {
                let san = shakmaty::san::San::from_move(&pos, mv).to_string();
                pos.play_unchecked(mv);
                san
            })
            .collect()
    }
}

#[test]
fn a_double_step_taken_en_passant_at_once_is_read_from_the_cut_line() {
    let mut rig = Rig::new();
    rig.play("h2", "h3", 'P');
    rig.play("b7", "b5", 'p');
    rig.play("h3", "h4", 'P');
    rig.play("b5", "b4", 'p');
    // c2-c4: the one scan showing the pawn on c4 (the 35th square) lost its
    // end after the 44th square; the capture en passant follows at once,
    // the captured pawn taken off first.
    rig.scan(&[("c2", None), ("c4", Some('P'))], Some(44));
    rig.scan(&[("c4", None), ("b4", None), ("c3", Some('p'))], None);
    rig.scans(4);
    assert_eq!(rig.wrong, Vec::<String>::new());
    assert_eq!(
        rig.record(),
        ["h3", "b5", "h4", "b4", "c4", "bxc3"],
        "the pawn went to c4"
    );
    assert!(rig.moves[5].is_en_passant(), "{:?}", rig.moves[5]);
}

#[test]
fn a_slide_whose_next_scan_was_cut_is_not_read_as_paused_twice() {
    let mut rig = Rig::new();
    rig.play("h2", "h3", 'P');
    rig.play("b7", "b6", 'p');
    // d2-d4 sliding: on d3 for one scan, then the scan with the pawn on
    // d4 cut after a8..h5 (d2, d3 and d4 lost): it must not make the pause
    // look like a second scan on d3.
    rig.scan(&[("d2", None), ("d3", Some('P'))], None);
    rig.scan(&[("d3", None), ("d4", Some('P'))], Some(32));
    rig.scans(4);
    assert_eq!(rig.wrong, Vec::<String>::new());
    assert_eq!(rig.record(), ["h3", "b6", "d4"]);
}
