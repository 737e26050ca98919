//! The 8 LED bytes we send, byte for byte against two published drivers
//! of the Certabo for the same squares.
//!
//! * haklein/certabo-lichess (`certabo/codes.py`: `squareset2ledbytes`
//!   packs a python-chess `SquareSet` (a1 = bit 0) as a big-endian 64-bit
//!   number; `move2ledbytes(move)` puts a square in byte `8 - rank` as
//!   `2 ** file`): byte 0 is rank 8, bit 0 the a-file.
//! * PicoChess (`eboard/certabo/command.py`, `set_leds(pos, is_reversed)`:
//!   square `(7 - y) * 8 + (7 - x)` set by `_set_bit` as `val << x` in byte
//!   `7 - y`): the same bytes. With `is_reversed` True (the board turned
//!   round) it lights square `63 - i`, as our session does by turning the
//!   squares (`session/lights.rs`) before they reach the encoder.
//!
//! The bytes below are what those functions returned for these squares,
//! sent so to a board that answered `L`.
//!
//! A board that answered `D` has colour lights at the squares' corners:
//! PicoChess (`eboard/certabo/rgb_led_command_translator.py`) sends it
//! `FF 55`, 81 × 3 colour bytes and CR LF. The commands below are those of
//! its test (`tests/test_certabo_rgb_led_command_translator.py`, tosca07/
//! picochess): 247 bytes, all zero but the start, the end and the blue
//! bytes (`0x40`) at the positions listed, read off its expected arrays.

use super::*;
use shakmaty::Bitboard;

/// A decoder that heard `answer` (`L` or `D`) after its greeting.
fn answered(answer: &[u8]) -> CertaboDecoder {
    let mut d = CertaboDecoder::new();
    d.decode_all(&[answer, b"\r\n"].concat());
    d
}

fn ours(squares: Bitboard) -> Vec<u8> {
    answered(b"L").encode(HostCommand::Lights(squares))
}

/// PicoChess's expected colour command: `FF 55`, zeros with `0x40` at
/// `blue`, `0D 0A`.
fn picochess_colour(blue: &[usize]) -> Vec<u8> {
    let mut out = vec![0u8; 247];
    out[0] = 0xFF;
    out[1] = 0x55;
    out[245] = 0x0D;
    out[246] = 0x0A;
    for &i in blue {
        out[i] = 0x40;
    }
    out
}

#[test]
fn a_colour_board_gets_picochess_s_commands() {
    let d = answered(b"D");
    let colour = |squares: Bitboard| d.encode(HostCommand::Lights(squares));
    // test_translate_leds_off: bytearray(8) translated.
    assert_eq!(colour(Bitboard::EMPTY), picochess_colour(&[]));
    // test_translate_e2_e4: [0, 0, 0, 0, 0x10, 0, 0x10, 0].
    assert_eq!(
        colour(Bitboard::from(Square::E2) | Square::E4),
        picochess_colour(&[40, 43, 67, 70, 94, 97, 121, 124])
    );
    // test_translate_center_leds: [0, 0, 0, 0x18, 0x18, 0, 0, 0], d4 e4
    // d5 e5.
    let centre = Bitboard::from(Square::D4) | Square::E4 | Square::D5 | Square::E5;
    assert_eq!(
        colour(centre),
        picochess_colour(&[94, 97, 100, 121, 124, 127, 148, 151, 154])
    );
}

#[test]
fn a_board_that_has_not_answered_gets_both_forms_as_picochess_sends_them() {
    // led_control.py: the 8 bytes, then (no `L` yet) the colour form.
    let e2e4 = Bitboard::from(Square::E2) | Square::E4;
    let d = CertaboDecoder::new();
    assert_eq!(
        d.encode(HostCommand::Lights(e2e4)),
        [
            vec![0x00, 0x00, 0x00, 0x00, 0x10, 0x00, 0x10, 0x00],
            picochess_colour(&[40, 43, 67, 70, 94, 97, 121, 124])
        ]
        .concat()
    );
    // The greeting (all off) is the 8-byte form alone.
    assert_eq!(d.greeting(), [0u8; 8]);
    // A reconnection keeps what the board told.
    assert_eq!(
        answered(b"D").fresh().encode(HostCommand::Lights(e2e4)),
        picochess_colour(&[40, 43, 67, 70, 94, 97, 121, 124])
    );
}

#[test]
fn e2_e4_is_certabo_lichess_s_and_picochess_s_bytes() {
    let e2e4 = Bitboard::from(Square::E2) | Square::E4;
    assert_eq!(ours(e2e4), [0x00, 0x00, 0x00, 0x00, 0x10, 0x00, 0x10, 0x00]);
    // set_leds(pos, is_reversed=True): d7 and d5 lit.
    assert_eq!(
        ours(e2e4.flip_vertical().flip_horizontal()),
        [0x00, 0x08, 0x00, 0x08, 0x00, 0x00, 0x00, 0x00]
    );
}

#[test]
fn the_corner_squares_are_the_drivers_bytes() {
    assert_eq!(
        ours(Bitboard::from(Square::A1)),
        [0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01]
    );
    assert_eq!(
        ours(Bitboard::from(Square::H8)),
        [0x80, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00]
    );
}

#[test]
fn castling_lights_the_king_s_squares_as_the_drivers_do() {
    // move2ledbytes("e1g1"), set_leds for e1 and g1.
    assert_eq!(
        ours(Bitboard::from(Square::E1) | Square::G1),
        [0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x50]
    );
    // Nothing to light: certabo-lichess's send_leds() default, 8 zeros.
    assert_eq!(ours(Bitboard::EMPTY), [0u8; 8]);
}
