//! The Chessnut decoder and its notifications against the byte strings of
//! PicoChess's tests (tosca07/picochess `tests/test_chessnut_parser.py`,
//! each test named below; hex as written there), which are what that
//! driver reads from real boards: what PicoChess expects of each, the
//! decoder must do too. The emulators' notifications
//! ([`position_notification`], used by the Bluetooth tests' fake board)
//! are checked against the same strings.

use super::*;
use crate::board::BoardReport;
use crate::eboard::pieces::{pieces_of_board, start_pieces};

fn hex(text: &str) -> Vec<u8> {
    (0..text.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&text[i..i + 2], 16).expect("hex"))
        .collect()
}

/// test_initial_position (and every test using the start position).
const START: &str = "012458233185444444440000000000000000000000000000000077777777A6C99B6AFFFFFFFF";

fn board(fen: &str) -> Pieces {
    pieces_of_board(
        fen.parse::<shakmaty::fen::Fen>()
            .expect("a FEN")
            .as_setup()
            .board
            .clone(),
    )
}

fn positions(messages: &[Message]) -> Vec<Pieces> {
    messages
        .iter()
        .filter_map(|m| m.pieces().copied())
        .collect()
}

#[test]
fn the_captured_start_position_decodes_and_our_notification_is_its_bytes() {
    let mut d = ChessnutDecoder::new();
    let got = d.decode_all(&hex(START));
    assert_eq!(positions(&got), [start_pieces()]);
    // The emulator's notification: the same 34 bytes; the 4 after them
    // (PicoChess's test has FF FF FF FF) are not read by any driver.
    assert_eq!(
        position_notification(&start_pieces())[..34],
        hex(START)[..34]
    );
}

#[test]
fn the_captured_start_position_twice_changes_nothing() {
    // test_initial_position_twice_calls_update_only_once: PicoChess passes
    // a position on only when it changed; the decoder passes the second on
    // whole (it confirms) and reports no square changed.
    let got = ChessnutDecoder::new().decode_all(&hex(&[START, START].concat()));
    assert_eq!(positions(&got), [start_pieces(), start_pieces()]);
    assert!(!got.iter().any(|m| matches!(m, Message::Square { .. })));
}

#[test]
fn two_captured_positions_give_the_squares_that_changed() {
    // test_two_different_positions_calls_update_twice: the second is
    // rnbqkbnr/pp2pppp/8/8/8/8/PP1PP1PP/RNBQKBNR.
    let second = "012458233185444400440000000000000000000000000000000077700777A6C99B6AFFFFFFFF";
    let mut d = ChessnutDecoder::new();
    d.decode_all(&hex(START));
    let got = d.decode_all(&hex(second));
    let after = board("rnbqkbnr/pp2pppp/8/8/8/8/PP1PP1PP/RNBQKBNR");
    let changed: Vec<Square> = got
        .iter()
        .filter_map(|m| match m {
            Message::Square { square, piece } => {
                assert_eq!(*piece, after[usize::from(*square)]);
                Some(*square)
            }
            _ => None,
        })
        .collect();
    assert_eq!(changed, [Square::C2, Square::F2, Square::C7, Square::D7]);
}

#[test]
fn a_captured_damaged_position_is_dropped() {
    // test_invalid_data: nibbles F in the position; never passed on.
    let bad = "012458233185444444440000000000000FFFF00000000000000077777777A6C99B6AFFFFFFFF";
    let mut d = ChessnutDecoder::new();
    assert!(positions(&d.decode_all(&hex(bad))).is_empty());
    assert_eq!(d.stats().bad_checksum, 1);
}

#[test]
fn a_captured_turned_board_decodes_as_it_stands() {
    // test_initial_position_black_and_white_reversed: White's pieces on
    // ranks 8 and 7. The decoder reads the squares as they are; which way
    // round the board lies is the recognizer's to tell.
    let turned = "0124A6B99C6A77777777000000000000000000000000000000004444444458133285FFFFFFFF";
    let got = ChessnutDecoder::new().decode_all(&hex(turned));
    assert_eq!(
        positions(&got),
        [board("RNBKQBNR/PPPPPPPP/8/8/8/8/pppppppp/rnbkqbnr")]
    );
}

#[test]
fn junk_and_split_notifications_as_captured() {
    // test_junk_before_position_is_ignored and
    // test_initial_position_split_with_junk_in_front.
    let got = ChessnutDecoder::new().decode_all(&hex(&format!("9876543210{START}")));
    assert_eq!(positions(&got), [start_pieces()]);
    let mut d = ChessnutDecoder::new();
    let mut got = d.decode_all(&hex(
        "9871233210012458233185444444440000000000000000000000000000000077777777",
    ));
    got.extend(d.decode_all(&hex("A6C99B6AFFFFFFFF")));
    assert_eq!(positions(&got), [start_pieces()]);
    // test_junk_position_junk_battery: the position in three parts, junk,
    // the battery answer in two halves.
    let mut d = ChessnutDecoder::new();
    let mut got = Vec::new();
    for part in [
        "9871233210",
        "012458233185444444440000000000000000000000000000000077777777",
        "A6C99B6A",
        "FFFFFFFF",
        "9871233210",
        "2a02",
        "0400",
    ] {
        got.extend(d.decode_all(&hex(part)));
    }
    assert_eq!(positions(&got), [start_pieces()]);
    assert_eq!(got.last(), Some(&Message::Ack), "the battery answer");
}

#[test]
fn captured_battery_answers_are_read_whole() {
    // test_battery_charging, _discharging, _low, _exhausted.
    for answer in ["2a026401", "2a025800", "2a020900", "2a020400"] {
        let mut d = ChessnutDecoder::new();
        let got = d.decode_all(&hex(answer));
        assert_eq!(got.last(), Some(&Message::Ack), "{answer}");
        assert_eq!(d.stats().dropped(), 0, "{answer}");
    }
}
