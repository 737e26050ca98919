//! The LED writes we send, byte for byte against two well-known drivers
//! of the Pegasus for the same squares.
//!
//! * mono424/dgtdriver (`lib/protocol/commands/SetLEDPattern.dart`,
//!   `SetLEDPatternCommand.data()`: `0x05`, `speed.index + 1`,
//!   `repeat.index`, `brightness.index`, the fields, `0x00`; framed by
//!   `DataCommand.messageBuilder()` as `0x60`, the data's length, the
//!   data; a field is `DGTProtocol.SQUARES.indexOf(name)`, a8 = 0 ... h1 =
//!   63; `LEDPattern()`'s defaults: speed2, forever, middle): for e2 and e4
//!   `60 07 05 02 00 02 34 24 00`.
//! * BearChess (`BearChess/EChessBoards/DGT/PegasusChessBoard/EChessBoard.cs`,
//!   `SetLedForFields`: `96`, count + 5, `5`, speed 2, times 0, intensity
//!   2, the fields from `_fieldName2FieldByte` (a8 = 0 ... h1 = 63), `0`;
//!   all off `_allLEDsOff` = `96 2 0 0`): the same bytes for a move's two
//!   squares in from-to order, which for these squares is ours (we send a
//!   set, in square order).
//!
//! Ours puts the all-off (`60 02 00 00`, as DGT's app sends it and
//! BearChess's `SetAllLedsOff`) in front of each list in the same write.
//! A board turned round: BearChess then numbers the fields 63 - i
//! (`_invertedFieldName2FieldByte`), as our session does by turning the
//! squares (`session/lights.rs`) before they reach the encoder.

use super::*;
use shakmaty::Square;

const ALL_OFF: [u8; 4] = [0x60, 0x02, 0x00, 0x00];

fn ours(squares: Bitboard) -> Vec<u8> {
    PegasusDecoder::new().encode(HostCommand::Lights(squares))
}

/// The all-off, then the drivers' list command.
fn after_all_off(list: &[u8]) -> Vec<u8> {
    [&ALL_OFF[..], list].concat()
}

#[test]
fn e2_e4_is_dgtdriver_s_and_bearchess_s_command() {
    let e2e4 = Bitboard::from(Square::E2) | Square::E4;
    assert_eq!(
        ours(e2e4),
        after_all_off(&[0x60, 0x07, 0x05, 0x02, 0x00, 0x02, 0x34, 0x24, 0x00])
    );
    // Turned round: BearChess's inverted fields for E2 and E4 are 11 and
    // 27 (d7 and d5 of the board's own numbering). It lists them in the
    // move's order (11, 27), we in square order (27, 11): the same set.
    assert_eq!(
        ours(e2e4.flip_vertical().flip_horizontal()),
        after_all_off(&[0x60, 0x07, 0x05, 0x02, 0x00, 0x02, 27, 11, 0x00])
    );
}

#[test]
fn the_corner_squares_are_the_drivers_commands() {
    assert_eq!(
        ours(Bitboard::from(Square::A1)),
        after_all_off(&[0x60, 0x06, 0x05, 0x02, 0x00, 0x02, 56, 0x00])
    );
    assert_eq!(
        ours(Bitboard::from(Square::H8)),
        after_all_off(&[0x60, 0x06, 0x05, 0x02, 0x00, 0x02, 7, 0x00])
    );
}

#[test]
fn castling_lights_the_king_s_squares_as_the_drivers_do() {
    // O-O: e1 (60) and g1 (62), the king's move as BearChess lights it.
    assert_eq!(
        ours(Bitboard::from(Square::E1) | Square::G1),
        after_all_off(&[0x60, 0x07, 0x05, 0x02, 0x00, 0x02, 60, 62, 0x00])
    );
    // Nothing to light: the all-off alone.
    assert_eq!(ours(Bitboard::EMPTY), ALL_OFF);
}
