//! The move tracker driven with snapshot sequences, one test per case of
//! FIDE Appendix E.2 and of the issue (captures, castling, en passant,
//! promotion, glitches, lift-and-return, takeback, mismatch, turned board).

use rochade::board::tracker::{BoardMask, render_in_sync, render_mismatch};
use rochade::board::{Tracker, TrackerConfig, TrackerEvent};
use rochade::words::{Lang, Pack};
use shakmaty::fen::Fen;
use shakmaty::san::San;
use shakmaty::{CastlingMode, Chess, Color, Piece, Position, Role, Square};

/// A person at the board: lifts and places pegs with pauses in between,
/// feeding every change to the tracker and collecting its events.
struct Hand {
    tracker: Tracker,
    mask: u64,
    now: u64,
    events: Vec<TrackerEvent>,
    /// The game as the test expects it, to name executed moves in SAN.
    shadow: Chess,
    /// Non-move events of the last [`Hand::moves`] call.
    rest: Vec<TrackerEvent>,
}

const PAUSE: u64 = 300;

impl Hand {
    fn new(cfg: TrackerConfig, fen: Option<&str>) -> Hand {
        let pos: Chess = match fen {
            Some(f) => f
                .parse::<Fen>()
                .unwrap()
                .into_position(CastlingMode::Standard)
                .unwrap(),
            None => Chess::default(),
        };
        let mask = pos.board().occupied().0;
        let shadow = pos.clone();
        let tracker = Tracker::new(cfg, pos);
        let mut hand = Hand {
            tracker,
            mask,
            now: 0,
            events: Vec::new(),
            shadow,
            rest: Vec::new(),
        };
        hand.send();
        hand.wait(PAUSE);
        // A position that looks different turned round decides the
        // orientation at once; otherwise the first move does.
        let decided = pos_is_symmetric(&hand.shadow)
            .then_some(vec![])
            .unwrap_or(vec![TrackerEvent::OrientationDecided { flipped: false }]);
        assert_eq!(
            hand.take(),
            decided,
            "a board matching the game says nothing else"
        );
        hand
    }

    fn default() -> Hand {
        Hand::new(TrackerConfig::default(), None)
    }

    fn wait(&mut self, ms: u64) {
        let end = self.now + ms;
        while let Some(d) = self.tracker.next_deadline().filter(|&d| d <= end) {
            self.now = d.max(self.now);
            self.tracker.on_tick(self.now, &mut self.events);
        }
        self.now = end;
        self.tracker.on_tick(self.now, &mut self.events);
    }

    fn send(&mut self) {
        self.tracker
            .on_snapshot(self.now, BoardMask(self.mask), &mut self.events);
    }

    fn lift(&mut self, sq: Square) {
        assert!(self.mask & bit(sq) != 0, "lift from empty {sq}");
        self.mask &= !bit(sq);
        self.send();
        self.wait(PAUSE);
    }

    fn place(&mut self, sq: Square) {
        assert!(self.mask & bit(sq) == 0, "place on occupied {sq}");
        self.mask |= bit(sq);
        self.send();
        self.wait(PAUSE);
    }

    /// A state lasting `ms`, then back.
    fn glitch(&mut self, sq: Square, ms: u64) {
        self.mask ^= bit(sq);
        self.send();
        self.wait(ms);
        self.mask ^= bit(sq);
        self.send();
        self.wait(PAUSE);
    }

    fn mv(&mut self, from: Square, to: Square) {
        self.lift(from);
        self.place(to);
    }

    fn take(&mut self) -> Vec<TrackerEvent> {
        std::mem::take(&mut self.events)
    }

    /// The SAN of every move executed since the last call; other events are
    /// kept for [`Hand::others`].
    fn moves(&mut self) -> Vec<String> {
        let mut out = Vec::new();
        let mut rest = Vec::new();
        for e in self.take() {
            match e {
                TrackerEvent::Executed(m) => {
                    out.push(San::from_move(&self.shadow, m).to_string());
                    self.shadow.play_unchecked(m);
                }
                other => rest.push(other),
            }
        }
        self.rest = rest;
        out
    }

    /// A move entered elsewhere (by the assistant).
    fn external(&mut self, san: &str) {
        let m = san.parse::<San>().unwrap().to_move(&self.shadow).unwrap();
        self.shadow.play_unchecked(m);
        self.tracker.apply_external(self.now, m, &mut self.events);
    }
}

fn pos_is_symmetric(pos: &Chess) -> bool {
    let occ = pos.board().occupied();
    occ.rotate_180() == occ
}

fn bit(sq: Square) -> u64 {
    1 << u32::from(sq)
}

use Square::*;

/// 1. e4 d5 played on the board and recorded.
fn after_e4_d5() -> Hand {
    let mut h = Hand::default();
    h.mv(E2, E4);
    h.mv(D7, D5);
    assert_eq!(h.moves(), vec!["e4", "d5"]);
    h
}

fn touched(events: &[TrackerEvent]) -> Vec<Square> {
    events
        .iter()
        .filter_map(|e| match e {
            TrackerEvent::Touched { square, .. } => Some(*square),
            _ => None,
        })
        .collect()
}

#[test]
fn simple_move_touches_then_executes_after_settle() {
    let mut h = Hand::default();
    h.lift(E2);
    let ev = h.take();
    assert_eq!(
        ev,
        vec![TrackerEvent::Touched {
            square: E2,
            piece: Piece {
                color: Color::White,
                role: Role::Pawn
            }
        }]
    );
    h.mask |= bit(E4);
    h.send();
    let placed = h.now;
    h.wait(h.tracker.config().settle_ms - 1);
    assert!(
        h.take().is_empty(),
        "nothing before the settle window has passed"
    );
    h.wait(1);
    assert_eq!(h.now, placed + h.tracker.config().settle_ms);
    assert_eq!(h.moves(), vec!["e4"]);
}

#[test]
fn capture_removing_the_captured_piece_first() {
    let mut h = Hand::default();
    for (f, t) in [(E2, E4), (D7, D5)] {
        h.mv(f, t);
    }
    assert_eq!(h.moves(), vec!["e4", "d5"]);
    h.lift(D5); // opponent's piece off the board
    h.lift(E4);
    h.place(D5);
    assert_eq!(h.moves(), vec!["exd5"]);
}

#[test]
fn capture_lifting_the_capturing_piece_first() {
    let mut h = Hand::default();
    h.mv(E2, E4);
    h.mv(D7, D5);
    h.moves();
    h.lift(E4);
    h.lift(D5);
    h.place(D5);
    assert_eq!(h.moves(), vec!["exd5"]);
}

#[test]
fn capture_chooses_the_target_that_was_removed() {
    // The rook on e5 can take on c5 or f5: the same occupancy afterwards.
    let mut h = Hand::new(
        TrackerConfig::default(),
        Some("7k/8/8/2p1Rp2/8/8/8/4K3 w - - 0 1"),
    );
    h.lift(F5);
    h.lift(E5);
    h.place(F5);
    assert_eq!(h.moves(), vec!["Rxf5"]);
}

#[test]
fn opponent_piece_lifted_and_returned_then_own_piece_in_hand_is_not_a_capture() {
    let mut h = Hand::default();
    h.mv(E2, E4);
    h.mv(D7, D5);
    h.moves();
    h.lift(D5);
    h.place(D5); // back
    h.lift(E4); // own piece in the hand: looks like "exd5 done" by occupancy
    h.wait(5000);
    let moves = h.moves();
    assert!(moves.is_empty(), "no capture: {moves:?}");
    assert_eq!(touched(&h.rest), vec![E4]);
    assert!(
        !h.rest
            .iter()
            .any(|e| matches!(e, TrackerEvent::Mismatch(_))),
        "a piece in the hand is a move in progress"
    );
    h.place(E5);
    assert_eq!(h.moves(), vec!["e5"]);
}

#[test]
fn lift_and_return_records_nothing() {
    let mut h = Hand::default();
    h.lift(G1);
    h.place(G1);
    h.lift(B8); // opponent's piece
    h.place(B8);
    h.wait(5000);
    let ev = h.take();
    assert_eq!(
        ev,
        vec![TrackerEvent::Touched {
            square: G1,
            piece: Piece {
                color: Color::White,
                role: Role::Knight
            }
        }]
    );
    assert!(h.tracker.moves().next().is_none());
}

#[test]
fn glitches_shorter_than_settle_are_ignored() {
    let mut h = Hand::default();
    let settle = h.tracker.config().settle_ms;
    h.glitch(E4, settle - 1); // a peg "appears" on e4
    h.glitch(E2, settle / 2); // a pawn "disappears"
    h.glitch(A8, 1);
    assert!(h.take().is_empty());
    // A glitch in the middle of a move changes nothing either.
    h.lift(E2);
    h.glitch(E3, 10);
    h.place(E4);
    assert_eq!(h.moves(), vec!["e4"]);
}

#[test]
fn en_passant_pawn_first() {
    let mut h = Hand::default();
    for (f, t) in [(E2, E4), (A7, A6), (E4, E5), (D7, D5)] {
        h.mv(f, t);
    }
    assert_eq!(h.moves(), vec!["e4", "a6", "e5", "d5"]);
    h.lift(E5);
    h.place(D6);
    assert!(h.moves().is_empty(), "waits for the captured pawn");
    h.lift(D5);
    assert_eq!(h.moves(), vec!["exd6"]);
}

#[test]
fn en_passant_captured_pawn_first() {
    let mut h = Hand::default();
    for (f, t) in [(E2, E4), (A7, A6), (E4, E5), (D7, D5)] {
        h.mv(f, t);
    }
    h.moves();
    h.lift(D5);
    h.lift(E5);
    h.place(D6);
    assert_eq!(h.moves(), vec!["exd6"]);
}

const CASTLE_FEN: &str = "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1";

#[test]
fn castling_king_first() {
    let mut h = Hand::new(TrackerConfig::default(), Some(CASTLE_FEN));
    h.mv(E1, G1);
    h.mv(H1, F1);
    assert_eq!(h.moves(), vec!["O-O"]);
    h.mv(E8, C8);
    h.mv(A8, D8);
    assert_eq!(h.moves(), vec!["O-O-O"]);
}

#[test]
fn castling_rook_first_in_lenient_mode_waits_for_the_king() {
    let mut h = Hand::new(TrackerConfig::default(), Some(CASTLE_FEN));
    h.mv(H1, F1);
    assert!(
        h.moves().is_empty(),
        "a rook move that may be castling waits"
    );
    h.mv(E1, G1);
    assert_eq!(h.moves(), vec!["O-O"]);
    // Without the king, the rook move stands after the extension window.
    h.mv(A8, D8);
    assert!(h.moves().is_empty());
    h.wait(h.tracker.config().extension_ms);
    assert_eq!(h.moves(), vec!["Rd8"]);
}

#[test]
fn castling_rook_first_in_strict_mode_is_recorded_and_reported_as_touch_move() {
    let cfg = TrackerConfig {
        strict: true,
        ..TrackerConfig::default()
    };
    let mut h = Hand::new(cfg, Some(CASTLE_FEN));
    h.mv(H1, F1);
    assert!(h.moves().is_empty(), "the rook waits for the king");
    h.mv(E1, G1);
    assert_eq!(h.moves(), vec!["O-O"], "castling is recorded as played");
    assert!(
        h.rest.contains(&TrackerEvent::TouchMove {
            square: F1,
            piece: Piece {
                color: Color::White,
                role: Role::Rook
            }
        }),
        "{:?}",
        h.rest
    );
}

#[test]
fn castling_after_a_committed_rook_move_in_strict_mode_is_touch_move() {
    let cfg = TrackerConfig {
        strict: true,
        ..TrackerConfig::default()
    };
    let mut h = Hand::new(cfg, Some(CASTLE_FEN));
    h.mv(H1, F1);
    h.wait(h.tracker.config().extension_ms);
    assert_eq!(h.moves(), vec!["Rf1"], "no king within the window");
    h.mv(E1, G1);
    let moves = h.moves();
    assert!(moves.is_empty(), "{moves:?}");
    assert!(
        h.rest.contains(&TrackerEvent::TouchMove {
            square: F1,
            piece: Piece {
                color: Color::White,
                role: Role::Rook
            }
        }),
        "{:?}",
        h.rest
    );
    h.wait(3000);
    let ev = h.take();
    let mismatch = ev.iter().find_map(|e| match e {
        TrackerEvent::Mismatch(m) => Some(m.clone()),
        _ => None,
    });
    let mismatch = mismatch.expect("the king must go back");
    assert_eq!(
        mismatch.missing,
        vec![(
            E1,
            Piece {
                color: Color::White,
                role: Role::King
            }
        )]
    );
    assert_eq!(mismatch.extra, vec![G1]);
    h.mv(G1, E1);
    assert!(h.take().contains(&TrackerEvent::InSync));
}

#[test]
fn a_rook_move_that_cannot_be_castling_commits_at_once() {
    let mut h = Hand::new(
        TrackerConfig::default(),
        Some("r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w - - 0 1"),
    );
    h.mv(H1, F1);
    assert_eq!(h.moves(), vec!["Rf1"]);
}

const PROMO_FEN: &str = "8/4P2k/8/8/8/8/8/4K3 w - - 0 1";

#[test]
fn promotion_defaults_to_queen_after_the_timeout() {
    let mut h = Hand::new(TrackerConfig::default(), Some(PROMO_FEN));
    h.mv(E7, E8);
    let ev = h.take();
    assert_eq!(
        ev.last(),
        Some(&TrackerEvent::PromotionPending { from: E7, to: E8 })
    );
    h.wait(h.tracker.config().promotion_ms);
    assert_eq!(h.moves(), vec!["e8=Q"]);
}

#[test]
fn promotion_configured_default_and_explicit_choice() {
    let cfg = TrackerConfig {
        promote_to: Role::Knight,
        ..TrackerConfig::default()
    };
    let mut h = Hand::new(cfg, Some(PROMO_FEN));
    h.mv(E7, E8);
    h.wait(10_000);
    assert_eq!(h.moves(), vec!["e8=N"]);

    let mut h = Hand::new(TrackerConfig::default(), Some(PROMO_FEN));
    h.mv(E7, E8);
    assert!(h.tracker.promotion_pending().is_some());
    let mut ev = Vec::new();
    assert!(h.tracker.choose_promotion(Role::Rook, &mut ev));
    h.events.extend(ev);
    assert_eq!(h.moves(), vec!["e8=R"]);
}

#[test]
fn promotion_answered_by_a_p_line() {
    let mut h = Hand::new(TrackerConfig::default(), Some(PROMO_FEN));
    h.mv(E7, E8);
    assert!(h.tracker.promotion_pending().is_some());
    let mut pieces = [None; 64];
    pieces[usize::from(E8)] = Some(Piece {
        color: Color::White,
        role: Role::Bishop,
    });
    pieces[usize::from(H7)] = Some(Piece {
        color: Color::Black,
        role: Role::King,
    });
    pieces[usize::from(E1)] = Some(Piece {
        color: Color::White,
        role: Role::King,
    });
    let mut ev = Vec::new();
    h.tracker.on_pieces(h.now, &pieces, &mut ev);
    h.events.extend(ev);
    assert_eq!(h.moves(), vec!["e8=B"]);
}

#[test]
fn takeback_is_requested_when_the_board_returns() {
    let mut h = Hand::default();
    h.mv(E2, E4);
    h.mv(E7, E5);
    assert_eq!(h.moves(), vec!["e4", "e5"]);
    h.mv(E5, E7); // black puts his pawn back: takeback request
    let ev = h.take();
    let last = h.tracker.moves().last().unwrap();
    assert!(
        ev.contains(&TrackerEvent::TakebackRequested(last)),
        "{ev:?}"
    );
    assert_eq!(
        ev.iter()
            .filter(|e| matches!(e, TrackerEvent::TakebackRequested(_)))
            .count(),
        1
    );
    h.wait(5000);
    assert!(h.take().is_empty(), "no mismatch while the question stands");
    let mut ev = Vec::new();
    assert_eq!(h.tracker.take_back(h.now, &mut ev), Some(last));
    assert!(ev.is_empty(), "board and game agree: {ev:?}");
    assert_eq!(h.tracker.position().turn(), Color::Black);
    h.shadow = h.tracker.position().clone();
    h.mv(C7, C5);
    assert_eq!(h.moves(), vec!["c5"]);
}

#[test]
fn mismatch_guidance_and_recovery() {
    let mut h = Hand::default();
    h.mv(G1, F3);
    h.moves();
    // Black knocks the white knight off f3 and puts a peg on e4 by mistake.
    h.lift(F3);
    h.place(E4);
    h.lift(E4);
    let before = h.take();
    assert!(
        !before
            .iter()
            .any(|e| matches!(e, TrackerEvent::Mismatch(_)))
    );
    h.wait(1000);
    assert!(h.take().is_empty(), "not before the mismatch time");
    h.wait(1500);
    let ev = h.take();
    let TrackerEvent::Mismatch(m) = &ev[0] else {
        panic!("{ev:?}")
    };
    assert_eq!(
        m.missing,
        vec![(
            F3,
            Piece {
                color: Color::White,
                role: Role::Knight
            }
        )]
    );
    let de = Pack::bundled(Lang::De);
    assert_eq!(render_mismatch(&de, m).spoken, "Springer Felix drei fehlt");
    assert_eq!(
        h.tracker.mismatch().as_ref(),
        Some(m),
        "repeated on request"
    );
    h.place(F3);
    assert_eq!(h.take(), vec![TrackerEvent::InSync]);
    assert_eq!(render_in_sync(&de).spoken, "Brett stimmt");
    assert!(h.tracker.mismatch().is_none());
}

#[test]
fn mismatch_names_a_square_the_last_move_emptied() {
    let mut h = Hand::default();
    h.external("e4"); // the sighted player's move, not yet on the peg-board
    h.lift(E2);
    h.place(D4); // carried out wrongly
    h.wait(2500);
    let ev = h.take();
    let m = ev
        .iter()
        .find_map(|e| match e {
            TrackerEvent::Mismatch(m) => Some(m.clone()),
            _ => None,
        })
        .expect("mismatch");
    assert_eq!(
        m.missing,
        vec![(
            E4,
            Piece {
                color: Color::White,
                role: Role::Pawn
            }
        )]
    );
    assert_eq!(m.extra, vec![D4]);
    let en = Pack::bundled(Lang::En);
    let de = Pack::bundled(Lang::De);
    assert_eq!(
        render_mismatch(&de, &m).written,
        "Bauer Eva vier fehlt. David vier: Figur zu viel"
    );
    assert!(!render_mismatch(&en, &m).spoken.is_empty());
    // The wrong pawn moved: e2 still holds a peg that the move emptied.
    let mut h = Hand::default();
    h.external("e4");
    h.lift(D2);
    h.place(E4);
    h.wait(2500);
    let ev = h.take();
    let TrackerEvent::Mismatch(m) = ev.last().unwrap() else {
        panic!("{ev:?}")
    };
    assert_eq!(m.expected_empty, vec![E2]);
    assert_eq!(
        render_mismatch(&de, m).spoken,
        "Bauer David zwei fehlt. Eva zwei leer erwartet"
    );
}

#[test]
fn a_move_entered_elsewhere_is_expected_on_the_board() {
    let mut h = Hand::default();
    h.mv(E2, E4);
    assert_eq!(h.moves(), vec!["e4"]);
    h.external("c5"); // the assistant typed Black's move
    assert!(h.tracker.awaiting_board());
    h.wait(5000);
    assert!(
        h.take().is_empty(),
        "no takeback, no mismatch while waiting"
    );
    h.mv(C7, C5); // the blind player carries it out on his board
    assert_eq!(h.take(), vec![TrackerEvent::InSync]);
    assert!(!h.tracker.awaiting_board());
    h.mv(G1, F3);
    assert_eq!(h.moves(), vec!["Nf3"]);
}

#[test]
fn turned_board_is_detected_from_the_first_move_not_a_lift() {
    let mut h = Hand::default();
    // The board is turned: White's e2 pawn sits in the hole the wiring calls d7.
    h.lift(D7);
    let ev = h.take();
    assert!(ev.is_empty(), "a lift decides nothing: {ev:?}");
    h.place(D5); // = e4 on the turned board
    assert_eq!(h.moves(), vec!["e4"]);
    assert!(
        h.rest
            .contains(&TrackerEvent::BoardTurned { flipped: true })
    );
    assert!(h.tracker.flipped());
    h.mv(E2, E4); // raw e2 is d7 for the game, raw e4 is d5
    assert_eq!(h.moves(), vec!["d5"]);
}

#[test]
fn turned_board_detected_from_a_p_line() {
    let mut t = Tracker::new(TrackerConfig::default(), Chess::default());
    let mut pieces = rochade::board::protocol::start_pieces();
    pieces.reverse();
    let mut ev = Vec::new();
    t.on_pieces(0, &pieces, &mut ev);
    assert_eq!(
        ev,
        vec![
            TrackerEvent::OrientationDecided { flipped: true },
            TrackerEvent::BoardTurned { flipped: true }
        ]
    );
    // The blind player has Black and his board is turned: White moves first,
    // entered by the assistant; he carries it out rotated.
    let mut t = Tracker::new(TrackerConfig::default(), Chess::default());
    let start = Chess::default().board().occupied().0;
    let mut ev = Vec::new();
    t.on_snapshot(0, BoardMask(start), &mut ev);
    let e4 = "e4"
        .parse::<San>()
        .unwrap()
        .to_move(&Chess::default())
        .unwrap();
    t.apply_external(100, e4, &mut ev);
    let rot = |sq: Square| bit(sq.rotate_180());
    t.on_snapshot(500, BoardMask(start & !rot(E2)), &mut ev);
    t.on_snapshot(900, BoardMask((start & !rot(E2)) | rot(E4)), &mut ev);
    t.on_tick(2000, &mut ev);
    assert_eq!(
        ev,
        vec![
            TrackerEvent::OrientationDecided { flipped: true },
            TrackerEvent::BoardTurned { flipped: true },
            TrackerEvent::InSync
        ]
    );
}

#[test]
fn lift_and_return_of_an_opponent_piece_before_move_one_changes_nothing() {
    let mut h = Hand::default();
    h.lift(E7);
    h.place(E7);
    h.lift(G8);
    h.place(G8);
    assert!(h.take().is_empty());
    h.mv(E2, E4);
    assert_eq!(h.moves(), vec!["e4"]);
    assert!(!h.tracker.flipped(), "{:?}", h.rest);
    h.mv(E7, E5);
    assert_eq!(h.moves(), vec!["e5"]);
}

/// White promotes on b8; Black's rook on a8 can capture the new piece.
const PROMO_REPLY_FEN: &str = "r6k/1P6/8/8/8/8/6p1/4K3 w - - 0 1";

#[test]
fn promotion_answered_at_once_by_the_opponent_takes_the_default() {
    let mut h = Hand::new(TrackerConfig::default(), Some(PROMO_REPLY_FEN));
    h.mv(B7, B8);
    assert!(h.moves().is_empty());
    assert!(
        h.rest
            .contains(&TrackerEvent::PromotionPending { from: B7, to: B8 })
    );
    h.mv(H8, G7);
    assert_eq!(h.moves(), vec!["b8=Q", "Kg7"]);
}

#[test]
fn promotion_answered_by_capturing_the_new_piece() {
    for new_piece_first in [true, false] {
        let mut h = Hand::new(TrackerConfig::default(), Some(PROMO_REPLY_FEN));
        h.mv(B7, B8);
        if new_piece_first {
            h.lift(B8);
            h.lift(A8);
        } else {
            h.lift(A8);
            h.lift(B8);
        }
        h.place(B8);
        assert_eq!(
            h.moves(),
            vec!["b8=Q", "Rxb8"],
            "new piece first: {new_piece_first}"
        );
    }
}

#[test]
fn promotion_corrected_before_the_opponent_moves() {
    let mut h = Hand::new(TrackerConfig::default(), Some(PROMO_REPLY_FEN));
    h.mv(B7, B8);
    h.lift(H8); // the opponent starts: the default queen stands
    assert_eq!(h.moves(), vec!["b8=Q"]);
    let mut ev = Vec::new();
    assert!(h.tracker.choose_promotion(Role::Knight, &mut ev));
    let corrected = ev.iter().find_map(|e| match e {
        TrackerEvent::PromotionCorrected { old, new } => Some((*old, *new)),
        _ => None,
    });
    let (old, new) = corrected.expect("a correction event");
    assert_eq!(old.promotion(), Some(Role::Queen));
    assert_eq!(new.promotion(), Some(Role::Knight));
    assert_eq!(h.tracker.moves().last(), Some(new));
    h.place(H7);
    let last = h.take();
    assert!(
        last.iter().any(|e| matches!(e, TrackerEvent::Executed(_))),
        "{last:?}"
    );
    let mut ev = Vec::new();
    assert!(
        !h.tracker.choose_promotion(Role::Rook, &mut ev),
        "no correction after the opponent's move"
    );
}

fn strict() -> TrackerConfig {
    TrackerConfig {
        strict: true,
        ..TrackerConfig::default()
    }
}

#[test]
fn strict_touched_piece_put_back_then_another_moved_is_touch_move() {
    let mut h = Hand::new(strict(), None);
    h.lift(G1);
    h.place(G1);
    h.mv(E2, E4);
    assert_eq!(h.moves(), vec!["e4"], "the move is recorded as played");
    assert_eq!(
        h.rest
            .iter()
            .filter(|e| matches!(e, TrackerEvent::TouchMove { .. }))
            .collect::<Vec<_>>(),
        vec![&TrackerEvent::TouchMove {
            square: G1,
            piece: Piece {
                color: Color::White,
                role: Role::Knight
            }
        }]
    );
    // Lenient in practice mode.
    let mut h = Hand::default();
    h.lift(G1);
    h.place(G1);
    h.mv(E2, E4);
    assert_eq!(h.moves(), vec!["e4"]);
    assert!(
        !h.rest
            .iter()
            .any(|e| matches!(e, TrackerEvent::TouchMove { .. })),
        "{:?}",
        h.rest
    );
}

#[test]
fn strict_moving_the_touched_piece_is_no_touch_move() {
    let mut h = Hand::new(strict(), None);
    h.lift(G1);
    h.place(G1);
    h.mv(G1, F3);
    assert_eq!(h.moves(), vec!["Nf3"]);
    assert!(
        !h.rest
            .iter()
            .any(|e| matches!(e, TrackerEvent::TouchMove { .. })),
        "{:?}",
        h.rest
    );
}

#[test]
fn lost_line_during_a_capture_is_executed_when_the_reply_begins() {
    // 1. e4 d5, then exd5 with the snapshot showing both pieces off lost
    // without a word (no bad line): the next line shows two holes changed
    // at once, so a line was lost.
    let mut h = after_e4_d5();
    h.lift(D5); // the captured pawn off first
    // Lifting e4 and placing it on d5 within one lost frame: the tracker
    // only sees the final state.
    h.mask &= !bit(E4);
    h.place(D5);
    assert!(
        h.moves().is_empty(),
        "no evidence yet: the hand may hold e4"
    );
    // Black's reply begins: the capture is done.
    h.lift(G8);
    assert_eq!(h.moves(), vec!["exd5"], "{:?}", h.rest);
    h.place(F6);
    assert_eq!(h.moves(), vec!["Nf6"]);
}

#[test]
fn lost_line_during_a_capture_is_executed_when_the_board_stands_still() {
    // The same unheard loss; Black thinks: the capture is executed within
    // a second of being done, with nothing else said.
    let mut h = after_e4_d5();
    h.lift(D5);
    h.mask &= !bit(E4);
    h.mask |= bit(D5);
    h.send();
    let done = h.now;
    h.wait(500);
    assert!(
        h.moves().is_empty(),
        "not before the hand was still a moment"
    );
    h.wait(400);
    assert_eq!(h.moves(), vec!["exd5"], "{:?}", h.rest);
    assert!(h.now - done <= 1000);
    assert!(
        h.rest
            .iter()
            .all(|e| matches!(e, TrackerEvent::Touched { .. })),
        "{:?}",
        h.rest
    );
    h.mv(G8, F6);
    assert_eq!(h.moves(), vec!["Nf6"]);
}

#[test]
fn opponent_piece_put_back_unheard_then_own_piece_moved_elsewhere_is_that_move() {
    // The other reading of the same lines: d5 lifted and put back (that
    // line lost without a word), e4 lifted (the next line shows both
    // changes) and put down on e5 while the board still waited: e5, no
    // capture.
    let mut h = after_e4_d5();
    h.lift(D5);
    h.mask |= bit(D5);
    h.mask &= !bit(E4);
    h.send();
    h.wait(400);
    h.place(E5);
    assert_eq!(h.moves(), vec!["e5"], "{:?}", h.rest);
    // And put back where it came from: nothing.
    let mut h = after_e4_d5();
    h.lift(D5);
    h.mask |= bit(D5);
    h.mask &= !bit(E4);
    h.send();
    h.wait(400);
    h.place(E4);
    h.wait(5000);
    assert!(h.moves().is_empty(), "{:?}", h.rest);
}

#[test]
fn stuck_sensor_makes_no_false_move() {
    // e4's sensor always reads occupied, from the first snapshot on.
    let mut t = Tracker::new(TrackerConfig::default(), Chess::default());
    let start = Chess::default().board().occupied().0;
    let mut ev = Vec::new();
    t.on_snapshot(0, BoardMask(start | bit(E4)), &mut ev);
    t.on_tick(500, &mut ev);
    t.on_snapshot(1000, BoardMask((start | bit(E4)) & !bit(E2)), &mut ev);
    t.on_tick(1500, &mut ev);
    assert!(
        !ev.iter().any(|e| matches!(e, TrackerEvent::Executed(_))),
        "the pawn is still in the hand: {ev:?}"
    );
    assert!(
        ev.contains(&TrackerEvent::SensorSuspect {
            mv: "e4"
                .parse::<San>()
                .unwrap()
                .to_move(&Chess::default())
                .unwrap(),
            square: E4
        }),
        "{ev:?}"
    );
    assert_eq!(t.moves().count(), 0);
}

#[test]
fn a_board_turned_round_mid_game_is_recovered() {
    let mut h = Hand::default();
    h.mv(E2, E4);
    h.mv(E7, E5);
    assert_eq!(h.moves(), vec!["e4", "e5"]);
    // The board is turned round on the table.
    h.mask = h.mask.reverse_bits();
    h.send();
    h.wait(PAUSE);
    assert!(
        h.take()
            .contains(&TrackerEvent::BoardTurned { flipped: true })
    );
    h.mv(G1.rotate_180(), F3.rotate_180());
    assert_eq!(h.moves(), vec!["Nf3"]);
}

#[test]
fn an_ambiguous_missed_capture_is_not_guessed() {
    // The knight on d4 can take on c6 or e6; the snapshots of the capture
    // are lost, then Black replies: two explanations, so nothing is played
    // and the board is reported as differing.
    let mut h = Hand::new(
        TrackerConfig::default(),
        Some("4k3/8/2p1p3/8/3N4/8/8/4K3 w - - 0 1"),
    );
    h.mask &= !bit(D4);
    h.send();
    h.wait(PAUSE);
    h.mv(E8, D7);
    assert!(h.moves().is_empty(), "{:?}", h.rest);
    h.wait(3000);
    assert!(
        h.take()
            .iter()
            .any(|e| matches!(e, TrackerEvent::Mismatch(_))),
        "guidance instead of a guess"
    );
}

#[test]
fn a_lost_link_then_the_opponent_hesitating_is_not_taken_for_the_other_capture() {
    // 1. e4 d5 2. Nc3 f5: the e-pawn can take on d5 or f5. While the link
    // is down White plays exd5; when it is back Black's f-pawn is in his
    // hand, then put back. In occupancy that is exf5 with all its
    // evidence, so nothing may be recorded until one explanation is left.
    let mut h = Hand::default();
    for (f, t) in [(E2, E4), (D7, D5), (B1, C3), (F7, F5)] {
        h.mv(f, t);
    }
    assert_eq!(h.moves(), vec!["e4", "d5", "Nc3", "f5"]);
    h.tracker.link_lost();
    h.mask &= !bit(E4); // exd5, unseen: the board is back with it done
    h.lift(F5);
    h.place(F5);
    h.wait(3000);
    assert!(h.moves().is_empty(), "no guess: {:?}", h.rest);
    // Black replies: exd5 Nf6 and exf5 Nf6 both explain the board.
    h.mv(G8, F6);
    h.wait(3000);
    assert!(h.moves().is_empty(), "no guess: {:?}", h.rest);
    assert!(
        h.rest
            .iter()
            .any(|e| matches!(e, TrackerEvent::Mismatch(_))),
        "guidance instead: {:?}",
        h.rest
    );
}

#[test]
fn a_capture_made_while_the_link_was_lost_is_resynchronised_from_the_reply() {
    // 1. e4 d5; exd5 played while the link is down, then Black's reply:
    // only exd5 Nf6 explains the board, though no state showed d5 empty.
    let mut h = after_e4_d5();
    h.tracker.link_lost();
    h.mask &= !bit(E4);
    h.mv(G8, F6);
    h.wait(3000);
    assert_eq!(h.moves(), vec!["exd5", "Nf6"], "{:?}", h.rest);
    assert!(
        h.rest
            .iter()
            .any(|e| matches!(e, TrackerEvent::Resynchronised { moves } if moves.len() == 1)),
        "{:?}",
        h.rest
    );
}

#[test]
fn the_last_move_a_capture_after_lost_lines_is_recorded_when_no_reply_follows() {
    // 1. e4 d5 2. exd5, the game's last move: the captured pawn is taken
    // off (seen), the line of the e-pawn lifted is lost (a bad checksum:
    // the tracker is told), the pawn is put down on d5 (seen). No reply
    // follows; the board stands still.
    let mut h = after_e4_d5();
    h.lift(D5);
    h.mask &= !bit(E4);
    h.tracker.lines_lost(h.now, 1);
    h.wait(200);
    h.place(D5);
    assert!(h.moves().is_empty(), "the pawn may still be in the hand");
    h.wait(TrackerConfig::default().mismatch_ms);
    assert_eq!(h.moves(), vec!["exd5"], "{:?}", h.rest);
    assert!(
        !h.rest
            .iter()
            .any(|e| matches!(e, TrackerEvent::Mismatch(_))),
        "{:?}",
        h.rest
    );
}

#[test]
fn a_piece_lifted_and_put_back_after_lost_lines_is_no_capture() {
    // The same board reached the other way: the opponent's pawn lifted and
    // put back (that line lost), then the e-pawn lifted and held, then put
    // back: no capture is recorded while it is held moving, nor after.
    let mut h = after_e4_d5();
    h.lift(D5);
    h.tracker.lines_lost(h.now, 1);
    h.mask |= bit(D5);
    h.wait(200);
    h.lift(E4);
    h.place(E4);
    h.wait(3000);
    assert!(h.moves().is_empty(), "{:?}", h.rest);
}
