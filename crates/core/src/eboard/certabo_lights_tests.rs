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
//! The bytes below are what those functions returned for these squares.
//! Not compared: the newer boards PicoChess drives with RGB corner LEDs
//! (`rgb_led_command_translator.py`: `FF 55`, 81 × 3 colour bytes, CR LF,
//! chosen when the board's lines carry a `D`); we send only the 8-byte
//! form.

use super::*;
use shakmaty::Bitboard;

fn ours(squares: Bitboard) -> Vec<u8> {
    CertaboDecoder::new().encode(HostCommand::Lights(squares))
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
