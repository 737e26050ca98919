//! A Certabo board's lights: two kinds of board, two commands.
//!
//! * Boards with one light a square take 8 bytes, one a rank from rank 8,
//!   bit 0 the a-file (certabo-lichess, `certabo/codes.py`; PicoChess,
//!   `eboard/certabo/command.py`).
//! * Newer boards with colour lights at the squares' corners (a grid of
//!   9 × 9 lights, three colour bytes each) take `FF 55`, the 243 colour
//!   bytes and CR LF (PicoChess, `eboard/certabo/rgb_led_command_translator.py`
//!   and its test `tests/test_certabo_rgb_led_command_translator.py`). A
//!   square is lit by its four corners, in blue at a quarter of full
//!   brightness, as PicoChess lights them.
//!
//! Which kind a board is, the board says itself: it answers a light
//! command with a line `L` (one light a square) or `D` (colour lights),
//! which PicoChess reads anywhere in what the board sends
//! (`eboard/certabo/parser.py`, `Parser._parse`, and the lines its tests
//! captured). Until a board has answered, PicoChess sends each command in
//! both forms, the 8 bytes first (`eboard/certabo/led_control.py`); so
//! does Rochade. The greeting (all lights off) goes out in the 8-byte form
//! only: a board with one light a square answers it, and is then never sent
//! the colour form.
//!
//! Pure: squares in, bytes out; bytes in (the emulator's side), squares out.

use shakmaty::{Bitboard, Square};

/// Which lights a board has, as far as its answers tell.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum LightKind {
    /// No answer to a light command yet.
    #[default]
    Unknown,
    /// One light a square: the 8-byte command (the board answers `L`).
    Plain,
    /// Colour lights at the corners: the `FF 55` command (it answers `D`).
    Colour,
}

/// Bytes the board puts into its stream that are no part of a scan: its
/// answers to light commands (`L`, `D`), and `*`, which PicoChess strips
/// with them (`re.sub('[\r\nLD*]', '', part)`).
pub fn is_marker(b: u8) -> bool {
    matches!(b, b'L' | b'D' | b'*')
}

impl LightKind {
    /// What the markers in `bytes` say of the board (the last one wins,
    /// as in PicoChess); `self` if none.
    pub fn after(self, bytes: &[u8]) -> LightKind {
        bytes.iter().fold(self, |kind, &b| match b {
            b'L' => LightKind::Plain,
            b'D' => LightKind::Colour,
            _ => kind,
        })
    }

    /// The bytes that light exactly `squares` on a board of this kind.
    pub fn command(self, squares: Bitboard) -> Vec<u8> {
        match self {
            LightKind::Plain => encode_lights(squares).to_vec(),
            LightKind::Colour => colour_command(squares),
            LightKind::Unknown => {
                [encode_lights(squares).to_vec(), colour_command(squares)].concat()
            }
        }
    }
}

/// The 8-byte command for `squares`: rank 8 first, bit 0 of each byte
/// file a (the square set as a big-endian 64-bit number, a1 = bit 0).
pub fn encode_lights(squares: Bitboard) -> [u8; 8] {
    u64::from(squares).to_be_bytes()
}

/// The squares lit by an 8-byte command (what a board does with it).
pub fn decode_lights(bytes: [u8; 8]) -> Bitboard {
    Bitboard(u64::from_be_bytes(bytes))
}

/// Lights a row (and column) of the colour grid holds: one more than
/// squares, the lights sit at the corners.
const GRID: usize = 9;
/// Colour bytes a light takes (red, green, blue).
const COLOURS: usize = 3;
/// The colour bytes of the whole grid.
pub const COLOUR_BYTES: usize = GRID * GRID * COLOURS;
/// The colour command's start and end.
pub const COLOUR_START: [u8; 2] = [0xFF, 0x55];
pub const COLOUR_END: [u8; 2] = [b'\r', b'\n'];
/// The colour command's length.
pub const COLOUR_COMMAND_LEN: usize = COLOUR_START.len() + COLOUR_BYTES + COLOUR_END.len();
/// A lit corner: blue at a quarter of full brightness.
const LIT: [u8; 3] = [0x00, 0x00, 0x40];

/// The grid's first light is at rank 1's h-file corner: a row of the grid
/// runs from the h-file side to the a-file side, and the rows go up from
/// rank 1 (PicoChess's translator counts them so). The four lights of a
/// square, by their index in the grid.
fn corners(square: Square) -> [usize; 4] {
    let row = usize::from(square.rank());
    let col = 7 - usize::from(square.file());
    let first = row * GRID + col;
    [first, first + 1, first + GRID, first + GRID + 1]
}

/// The colour command lighting exactly `squares`.
pub fn colour_command(squares: Bitboard) -> Vec<u8> {
    let mut grid = [0u8; COLOUR_BYTES];
    for square in squares {
        for light in corners(square) {
            grid[light * COLOURS..][..COLOURS].copy_from_slice(&LIT);
        }
    }
    [&COLOUR_START[..], &grid, &COLOUR_END].concat()
}

/// The squares a colour command lights, read as a player sees them: a
/// square whose four corners all shine (the emulator's side). Two squares
/// lit one square apart on a line light every corner of the square
/// between them too: e1 and g1 read as e1, f1 and g1. `None` if the
/// bytes are no colour command.
pub fn lit_by_colour_command(command: &[u8]) -> Option<Bitboard> {
    let grid = command
        .strip_prefix(&COLOUR_START)?
        .strip_suffix(&COLOUR_END)?;
    if grid.len() != COLOUR_BYTES {
        return None;
    }
    let shines = |light: usize| grid[light * COLOURS..][..COLOURS].iter().any(|&b| b != 0);
    Some(
        Square::ALL
            .into_iter()
            .filter(|&sq| corners(sq).into_iter().all(shines))
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_kind_has_its_command_and_an_unknown_board_gets_both() {
        let e2e4 = Bitboard::from(Square::E2) | Square::E4;
        assert_eq!(LightKind::Plain.command(e2e4), encode_lights(e2e4));
        assert_eq!(LightKind::Colour.command(e2e4), colour_command(e2e4));
        assert_eq!(
            LightKind::Unknown.command(e2e4),
            [encode_lights(e2e4).to_vec(), colour_command(e2e4)].concat()
        );
        assert_eq!(colour_command(e2e4).len(), COLOUR_COMMAND_LEN);
        assert_eq!(COLOUR_COMMAND_LEN, 247);
    }

    #[test]
    fn the_answers_tell_the_kind_the_last_one_wins() {
        assert_eq!(LightKind::Unknown.after(b"12 0 "), LightKind::Unknown);
        assert_eq!(LightKind::Unknown.after(b"L\r"), LightKind::Plain);
        assert_eq!(LightKind::Unknown.after(b"D\r"), LightKind::Colour);
        assert_eq!(LightKind::Plain.after(b"D"), LightKind::Colour);
        assert_eq!(LightKind::Colour.after(b"L"), LightKind::Plain);
        assert_eq!(LightKind::Colour.after(b" 3 4 "), LightKind::Colour);
    }

    #[test]
    fn a_colour_command_reads_back_as_its_squares() {
        for squares in [
            Bitboard::EMPTY,
            Bitboard::from(Square::A1),
            Bitboard::from(Square::H8),
            Bitboard::from(Square::E2) | Square::E3,
            Bitboard::from(Square::G1) | Square::F3,
            Bitboard::from(Square::D4) | Square::E5,
        ] {
            assert_eq!(
                lit_by_colour_command(&colour_command(squares)),
                Some(squares)
            );
        }
        // The corners between e1 and g1 are f1's, between e2 and e4 e3's.
        assert_eq!(
            lit_by_colour_command(&colour_command(Bitboard::from(Square::E1) | Square::G1)),
            Some(Bitboard::from(Square::E1) | Square::F1 | Square::G1)
        );
        assert_eq!(
            lit_by_colour_command(&colour_command(Bitboard::from(Square::E2) | Square::E4)),
            Some(Bitboard::from(Square::E2) | Square::E3 | Square::E4)
        );
        assert_eq!(lit_by_colour_command(&[0u8; 8]), None);
    }
}
