//! The LED command we send, byte for byte against the maker's code and
//! PicoChess for the same squares.
//!
//! * chessnutech/EasyLinkSDK (the maker's SDK, `sdk/EasyLink.cpp`
//!   `ChessLink::setLedInternal`: `0x0a 0x08` and the eight bytes of
//!   `ledStatus`; `sdk/easy_link_c.h` `cl_led`: eight strings, "the first
//!   string represents row 8 ... the first character in a string is
//!   column a", each made a `bitset<8>`, whose first character is its top
//!   bit): rank 8 first, the a-file in bit 7.
//! * chessnutech/Chessnut_eBoards (`README.md`, "Setting LEDs": `[0x0a,
//!   0x08, 0, 0, 0, 0, 0, 0, 0, 0]`, "each byte controls 8 squares, index
//!   from 8 to 1, h to a"). It calls the command "34-byte", but shows and
//!   describes ten bytes; the SDK and PicoChess send ten.
//! * PicoChess (`eboard/chessnut/command.py`,
//!   `set_led_regular_chessnut(pos, is_reversed)`: square `(7 - y) * 8 +
//!   x` set by `_set_bit` as `val << (7 - x)` in byte `7 - y`). The bytes
//!   below are what that function returned for these squares with
//!   `is_reversed` False; with True (the board turned round) it lights
//!   square `63 - i`, as our session does by turning the squares
//!   (`session/lights.rs`) before they reach the encoder.

use super::*;

fn ours(squares: Bitboard) -> Vec<u8> {
    ChessnutDecoder::new().encode(HostCommand::Lights(squares))
}

fn turned(squares: Bitboard) -> Bitboard {
    squares.flip_vertical().flip_horizontal()
}

#[test]
fn e2_e4_is_picochess_s_command() {
    let e2e4 = Bitboard::from(Square::E2) | Square::E4;
    assert_eq!(
        ours(e2e4),
        [0x0A, 0x08, 0x00, 0x00, 0x00, 0x00, 0x08, 0x00, 0x08, 0x00]
    );
    // The SDK: cl_led with "00001000" for rows 4 and 2.
    // set_led_regular_chessnut(pos, is_reversed=True): d7 and d5 lit.
    assert_eq!(
        ours(turned(e2e4)),
        [0x0A, 0x08, 0x00, 0x10, 0x00, 0x10, 0x00, 0x00, 0x00, 0x00]
    );
}

#[test]
fn the_corner_squares_are_picochess_s_commands() {
    assert_eq!(
        ours(Bitboard::from(Square::A1)),
        [0x0A, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x80]
    );
    assert_eq!(
        ours(Bitboard::from(Square::H8)),
        [0x0A, 0x08, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00]
    );
    assert_eq!(
        ours(turned(Bitboard::from(Square::A1))),
        [0x0A, 0x08, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00]
    );
}

#[test]
fn castling_lights_the_king_s_squares_as_picochess_does() {
    // PicoChess lights a move's two UCI squares: O-O is e1g1, O-O-O for
    // Black e8c8.
    assert_eq!(
        ours(Bitboard::from(Square::E1) | Square::G1),
        [0x0A, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x0A]
    );
    assert_eq!(
        ours(Bitboard::from(Square::E8) | Square::C8),
        [0x0A, 0x08, 0x28, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00]
    );
    // Nothing to light: set_led_off_regular_chessnut.
    assert_eq!(
        ours(Bitboard::EMPTY),
        [0x0A, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00]
    );
}
