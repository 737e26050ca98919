//! The Certabo decoder and emulator against lines captured from real
//! boards by PicoChess (tosca07/picochess `tests/test_certabo_parser.py`;
//! the files and the test each comes from: `captured/README.md`). What
//! PicoChess's tests expect of each capture, the decoder must do too: the
//! same scans read (or not), the same last square, the same kind of
//! lights; and a start position calibrated, a pawn lifted and a noisy
//! scan settled as PicoChess's low-gain averaging settles them.

use super::*;
use crate::board::Protocol;
use shakmaty::{Piece, Square};

const POSITION: &[u8] = include_bytes!("captured/picochess_certabo_position.txt");
const TWO_POSITIONS: &[u8] = include_bytes!("captured/picochess_certabo_two_positions.txt");
const INVALID: &[u8] = include_bytes!("captured/picochess_certabo_invalid.txt");
const JUNK_IN_FRONT: &[u8] = include_bytes!("captured/picochess_certabo_junk_in_front.txt");
const TWO_PARTS_1: &[u8] = include_bytes!("captured/picochess_certabo_two_parts_1.txt");
const TWO_PARTS_2: &[u8] = include_bytes!("captured/picochess_certabo_two_parts_2.txt");
const RGB_2: &[u8] = include_bytes!("captured/picochess_certabo_rgb_2.txt");
const SENTIO_LED_ACK: &[u8] = include_bytes!("captured/picochess_certabo_sentio_led_ack.txt");
const START: &[u8] = include_bytes!("captured/picochess_certabo_start.txt");
const H7_LIFTED: &[u8] = include_bytes!("captured/picochess_certabo_h7_lifted.txt");
const NOISE: &[u8] = include_bytes!("captured/picochess_certabo_noise.txt");

/// What the decoder made of `wire` (fed in chunks of `chunk` bytes): the
/// scans read, as the log wrote them, and the decoder.
fn read(wire: &[u8], chunk: usize) -> (Vec<Scan>, CertaboDecoder) {
    let mut d = CertaboDecoder::new();
    let mut logged = Vec::new();
    let mut out = Vec::new();
    for part in wire.chunks(chunk) {
        d.decode(part, &mut |bytes, _| logged.push(bytes.to_vec()), &mut out);
    }
    let scans = logged
        .iter()
        .filter_map(|l| l.strip_prefix(b":").and_then(parse_scan))
        .collect();
    (scans, d)
}

/// Every chunking gives the same scans and counts.
fn read_any_chunking(wire: &[u8]) -> (Vec<Scan>, CertaboDecoder) {
    let whole = read(wire, wire.len());
    for chunk in [1, 2, 7, 64, 100] {
        let (scans, d) = read(wire, chunk);
        assert_eq!(scans, whole.0, "chunks of {chunk}");
        assert_eq!(d.stats(), whole.1.stats(), "chunks of {chunk}");
        assert_eq!(d.lights(), whole.1.lights(), "chunks of {chunk}");
    }
    whole
}

#[test]
fn a_captured_line_broken_every_64_bytes_is_one_scan() {
    // test_parse_position: translate called once.
    let (scans, d) = read_any_chunking(POSITION);
    assert_eq!(scans.len(), 1);
    assert_eq!(scans[0][usize::from(Square::H1)], [3, 0, 84, 252, 170]);
    assert_eq!(d.stats().dropped(), 0);
    // test_parse_invalid: "2XXXXXXXX23" in it, translate never called.
    let (scans, d) = read_any_chunking(INVALID);
    assert!(scans.is_empty());
    assert_eq!(d.stats().garbage, 1);
}

#[test]
fn two_captured_scans_with_a_light_answer_and_a_blank_line_between() {
    // test_parse_two_different_positions_calls_translate_twice: `L\r\n`
    // and `\r\n` between the lines, the second ending in a bare LF.
    let (scans, d) = read_any_chunking(TWO_POSITIONS);
    assert_eq!(scans.len(), 2);
    assert_eq!(
        d.stats().dropped(),
        0,
        "the answer and the blank line are no lines dropped"
    );
    assert_eq!(d.lights(), LightKind::Plain);
    assert_ne!(scans[0], scans[1]);
}

#[test]
fn a_light_answer_inside_a_captured_line_is_stripped_and_tells_the_kind() {
    // test_parse_position_in_two_parts: the line's end and `L` in the
    // second part; the last square `3 0 84 252 170`, no colour lights.
    let wire = [TWO_PARTS_1, TWO_PARTS_2].concat();
    let (scans, d) = read_any_chunking(&wire);
    assert_eq!(scans.len(), 1);
    assert_eq!(scans[0][usize::from(Square::H1)], [3, 0, 84, 252, 170]);
    assert_eq!(d.lights(), LightKind::Plain);
    // test_detect_rgb_leds: the same line ending in `D`: colour lights.
    let wire = [TWO_PARTS_1, RGB_2].concat();
    let (scans, d) = read_any_chunking(&wire);
    assert_eq!(scans.len(), 1);
    assert_eq!(scans[0][usize::from(Square::H1)], [3, 0, 84, 252, 170]);
    assert_eq!(d.lights(), LightKind::Colour);
}

#[test]
fn junk_before_a_captured_line_is_dropped_and_the_line_read() {
    // test_parse_position_with_junk_in_front: the last piece 3 0 84 252 15.
    let (scans, d) = read_any_chunking(JUNK_IN_FRONT);
    assert_eq!(scans.len(), 1);
    assert_eq!(scans[0][usize::from(Square::H1)], [3, 0, 84, 252, 15]);
    assert_eq!(d.stats().garbage, 1, "the junk");
}

#[test]
fn a_sentio_s_occupancy_line_is_no_certabo_scan() {
    // The Tabutronic Sentio sends 8 numbers of occupancy bits (PicoChess
    // reads them as such): not a board this decoder reads; its `L` still
    // tells the kind of lights.
    let (scans, d) = read_any_chunking(SENTIO_LED_ACK);
    assert!(scans.is_empty());
    assert_eq!(d.stats().garbage, 1);
    assert_eq!(d.lights(), LightKind::Plain);
}

#[test]
fn a_captured_start_position_calibrates_and_a_lifted_pawn_settles_through_noise() {
    // _board_data: the start position (no spare queens), the h7 pawn
    // lifted, then the same with noise; PicoChess's low-gain reading
    // (the most common of the last three) ends with h7 empty, nothing else.
    let mut d = CertaboDecoder::new();
    let mut out = Vec::new();
    for _ in 0..6 {
        out.extend(d.decode_all(START));
    }
    assert!(
        out.contains(&Message::Calibration(CalibrationStep::Done {
            spare_queens: 0
        })),
        "{out:?}"
    );
    assert_eq!(d.chips().len(), 32);
    let start = crate::eboard::pieces::start_pieces();
    let mut later = Vec::new();
    for line in [START, H7_LIFTED, H7_LIFTED, NOISE, H7_LIFTED, H7_LIFTED] {
        later.extend(d.decode_all(line));
    }
    let changes: Vec<&Message> = later
        .iter()
        .filter(|m| matches!(m, Message::Square { .. }))
        .collect();
    assert_eq!(
        changes,
        [&Message::Square {
            square: Square::H7,
            piece: None
        }]
    );
    assert_eq!(start[usize::from(Square::H7)], Piece::from_char('p'));
}

#[test]
fn the_emulator_s_lines_and_answers_have_the_captured_form() {
    // A captured line without its 64-byte breaks is what the emulator
    // sends for the same scan: `:`, the numbers a blank apart, ` \r\n`.
    let unbroken: Vec<u8> = POSITION
        .iter()
        .copied()
        .filter(|&b| b != b'\n')
        .chain(*b"\n")
        .collect();
    let scan = parse_scan(&unbroken[1..unbroken.len() - 1]).expect("a scan");
    assert_eq!(encode_scan(&scan), unbroken);
    // Its answer to a light command is a line of its own after the scan
    // line, as in test_parse_two_different_positions: `... 15 \r\nL\r\n`;
    // a colour board's is `D`.
    for (kind, answer) in [(LightKind::Plain, b"L\r\n"), (LightKind::Colour, b"D\r\n")] {
        let mut sim = super::super::certabo_sim::CertaboSim::new(3, false);
        sim.light_kind = kind;
        let lit = shakmaty::Bitboard::from(Square::E4);
        sim.receive(&CertaboDecoder::new().encode(HostCommand::Lights(lit)));
        assert_eq!(sim.lights(), lit);
        let line = sim.line();
        assert!(
            line.ends_with(&[&b" \r\n"[..], answer].concat()),
            "{kind:?}"
        );
        let mut d = CertaboDecoder::new();
        d.decode_all(&line);
        assert_eq!(d.lights(), kind);
        assert_eq!(d.stats().dropped(), 0);
    }
    // Inside the next scan line: still one scan read, the kind told.
    let mut sim = super::super::certabo_sim::CertaboSim::new(4, false);
    sim.answer_inside_line = true;
    sim.receive(&encode_lights(shakmaty::Bitboard::from(Square::A1)));
    let line = sim.line();
    assert!(line.contains(&b'L'));
    let (scans, d) = read_any_chunking(&line);
    assert_eq!(scans.len(), 1);
    assert_eq!(d.lights(), LightKind::Plain);
}
