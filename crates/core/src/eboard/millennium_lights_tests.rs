//! The `L` frames we send, byte for byte against the frames the published
//! sources build for the same squares.
//!
//! The reference is python-mchess (`mchess/chess_link.py`,
//! `ChessLink.set_led(pos, freq, ontime1, ontime2)`, sent by
//! `chess_link_usb.py` `write_mt`, which appends the block parity of
//! `chess_link_protocol.py` `add_block_crc`). Its 9×9 array `leds[i][j]`
//! goes out row by row, `i` outer: LED `9 * i + j` (0-based). A square at
//! file `x` and rank `y` (0-based) lights:
//!
//! * with `orientation` False, `leds[x..=x+1][7-y..=8-y]`: the status is
//!   read in the document's order there (`rp[7 - x + y * 8]` put at
//!   `position[7 - y][7 - x]`, so a8 comes first), as our decoder reads it,
//!   and LED 1 is the a8 corner as the document says;
//! * with `orientation` True (its default: the board turned round, the
//!   status coming h1 first), `leds[7-x..=8-x][y..=y+1]`. Our recognizer
//!   notices a turned board and the session turns the squares to light
//!   (`session/lights.rs`) before they reach the encoder; the
//!   DGTCentaurMods project's Millennium emulator
//!   (`src/universalchess/emulators/millennium.py`,
//!   `square_led_indices`: `row = 7 - file`, `col = rank`, LED
//!   `row * 9 + col` and its neighbours, "derived from real captures" of an
//!   Android app driving a real board) numbers the corners the same way.
//!
//! The pattern byte is the caller's: we light steadily (`FF`, as the
//! Android app in those captures does for a to-square) and pass 0xFF as
//! `ontime1`; PicoChess (`eboard/chesslink/board.py`) calls the same
//! `set_led` with 0x0F, the same frame with `0F` for every `FF`. The slot
//! time is python-mchess's default (0x20). The frames below are what
//! python-mchess's `set_led` returned for these squares; each line is one
//! `i` (a line of nine corners, from the a-file's outer edge to the
//! h-file's, each from the 8th rank's edge down to the 1st's).

use super::*;

/// A whole `L` frame: its nine lines of corners, dark but for the lines
/// given (by number, 0 the a-file's outer line), and its check.
fn frame(lit_lines: &[(usize, &str)], check: &str) -> String {
    let mut lines = [DARK; 9];
    for &(i, line) in lit_lines {
        assert_eq!(line.len(), 18, "nine corners a line");
        lines[i] = line;
    }
    format!("L20{}{check}", lines.concat())
}

/// Our frame's characters; its bytes carry each one's odd-parity bit, as
/// python-mchess's `write_mt` sends them (`add_odd_par` on every
/// character).
fn ours(squares: Bitboard) -> String {
    let sent = Decoder::new().encode(HostCommand::Lights(squares));
    let chars: Vec<u8> = sent.iter().map(|b| b & 0x7F).collect();
    assert_eq!(sent, with_parity(&chars));
    String::from_utf8(chars).expect("ASCII")
}

/// The squares as a turned board has them (what the session sends then).
fn turned(squares: Bitboard) -> Bitboard {
    squares.flip_vertical().flip_horizontal()
}

const DARK: &str = "000000000000000000";

#[test]
fn e2_e4_is_python_mchess_s_frame() {
    let e2e4 = Bitboard::from(Square::E2) | Square::E4;
    let straight = frame(
        &[(4, "00000000FFFFFFFF00"), (5, "00000000FFFFFFFF00")],
        "4E",
    );
    assert_eq!(ours(e2e4), straight);
    // The same move on a turned board (python-mchess's orientation True;
    // DGTCentaurMods: e2 is LEDs 28, 29, 37, 38 and e4 30, 31, 39, 40).
    let turned_frame = frame(
        &[(3, "00FFFFFFFF00000000"), (4, "00FFFFFFFF00000000")],
        "4E",
    );
    assert_eq!(ours(turned(e2e4)), turned_frame);
    let lit: Vec<usize> = (0..LEDS)
        .filter(|i| &turned_frame[3 + 2 * i..5 + 2 * i] == "FF")
        .collect();
    assert_eq!(lit, [28, 29, 30, 31, 37, 38, 39, 40]);
}

#[test]
fn the_corner_squares_are_python_mchess_s_frames() {
    // a1: LEDs 8, 9, 17, 18 (1-based): LED 9 is "in the A1 corner".
    let a1 = frame(
        &[(0, "00000000000000FFFF"), (1, "00000000000000FFFF")],
        "4E",
    );
    // h8: LEDs 64, 65, 73, 74: LED 73 is "in the H8 corner".
    let h8 = frame(
        &[(7, "FFFF00000000000000"), (8, "FFFF00000000000000")],
        "4E",
    );
    assert_eq!(ours(Bitboard::from(Square::A1)), a1);
    assert_eq!(ours(Bitboard::from(Square::H8)), h8);
    // Turned round, python-mchess lights a1 where the document's h8 is.
    assert_eq!(ours(turned(Bitboard::from(Square::A1))), h8);
    assert_eq!(ours(turned(Bitboard::from(Square::H8))), a1);
}

#[test]
fn castling_lights_the_king_s_squares_as_python_mchess_does() {
    // O-O shown on e1 and g1 (PicoChess lights a castling's UCI squares,
    // e1g1, the same two).
    let e1g1 = Bitboard::from(Square::E1) | Square::G1;
    let straight = frame(
        &[
            (4, "00000000000000FFFF"),
            (5, "00000000000000FFFF"),
            (6, "00000000000000FFFF"),
            (7, "00000000000000FFFF"),
        ],
        "4E",
    );
    let turned_frame = frame(
        &[
            (1, "FFFF00000000000000"),
            (2, "FFFF00000000000000"),
            (3, "FFFF00000000000000"),
            (4, "FFFF00000000000000"),
        ],
        "4E",
    );
    assert_eq!(ours(e1g1), straight);
    assert_eq!(ours(turned(e1g1)), turned_frame);
    // Nothing to light: python-mchess's set_led_off, `X` and its check.
    assert_eq!(ours(Bitboard::EMPTY), "X58");
}
