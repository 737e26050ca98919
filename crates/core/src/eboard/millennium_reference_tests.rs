//! Byte strings of the independent Millennium drivers, run through our
//! decoder and encoder, and our emulator checked against them.
//!
//! * python-mchess, `mchess/chess_link.py`, the module's docstring: a
//!   Bluetooth log of 2018-08-31 of the version exchange, "Sending:
//!   <b'\xd6\xb5\xb6'>" and the board's "data: b'v\xb01\xb0\xb374'",
//!   read as "v010374". Its USB transport (`mchess/chess_link_usb.py`,
//!   `serial.Serial(port, 38400)`: 8N1) writes the same bytes
//!   (`write_mt`: `add_odd_par` of `chess_link_protocol.py` on every
//!   character) and strips bit 7 of every byte read (`& 127`). PicoChess
//!   (`eboard/chesslink/chess_link_usb.py`) does the same.
//! * DGTCentaurMods (adrian-dybwad), `emulators/millennium.py`: its
//!   `PacketParser` checks the odd parity in bit 7 of every byte the app
//!   sends (`_verify_parity`), and `fen_to_eone` sends the status h1 first
//!   ("h1, g1, f1, ..., a1, h2, g2, ..., a8").
//! * BearChess, `EChessBoards/MChessLink/MChessLinkChessBoard/
//!   SerialCommunication.cs` `ConvertToSend` (`CRCConversions.AddOddPar`
//!   on every character) and `ConvertFromRead` (`data & 127`).

use super::*;
use crate::board::BoardReport;
use crate::eboard::millennium_sim::MillenniumSim;
use crate::eboard::pieces::start_pieces;
use shakmaty::Board;

/// python-mchess's log: the host's `V` and the board's answer.
const HOST_V: [u8; 3] = [0xD6, 0xB5, 0xB6];
const BOARD_V: [u8; 7] = [b'v', 0xB0, b'1', 0xB0, 0xB3, b'7', b'4'];

#[test]
fn the_version_exchange_is_byte_for_byte_python_mchess_s_log() {
    let d = Decoder::new();
    assert_eq!(d.encode(HostCommand::Ident), HOST_V);
    assert_eq!(with_parity(b"V56"), HOST_V);
    let got = Decoder::new().decode_all(&BOARD_V);
    assert_eq!(
        got,
        vec![Message::Ident("Millennium ChessLink 01.03".into())]
    );
    // The emulator, as a board's 7O1 characters reach an 8N1 port, says
    // the same bytes to the same bytes.
    let mut board = MillenniumSim::on_parity_line();
    assert_eq!(board.receive(0, &HOST_V), BOARD_V);
    // Every byte we write passes DGTCentaurMods's `_verify_parity`.
    let commands = [
        d.greeting(),
        d.encode(HostCommand::Snapshot),
        d.encode(HostCommand::Lights(Bitboard::from(Square::E2))),
        d.encode(HostCommand::Lights(Bitboard::EMPTY)),
    ];
    for bytes in commands {
        assert!(bytes.iter().all(|&b| parity_ok(b)), "{bytes:02X?}");
    }
}

#[test]
fn without_the_parity_bit_a_board_behind_a_plain_bridge_hears_nothing() {
    // What Rochade wrote before (7-bit bytes, the port asked for 7O1):
    // through a bridge that ignores that setting, `V`, `5`, `6` arrive
    // with bit 7 clear, each with an even number of ones: parity errors.
    let mut board = MillenniumSim::on_parity_line();
    assert!(board.receive(0, b"V56").is_empty());
    assert!(board.receive(0, b"S53").is_empty());
    assert!(board.receive(0, b"W020356").is_empty());
    assert!(board.commands.is_empty());
    assert!(board.parity_errors >= 7, "{}", board.parity_errors);
    // Our greeting is answered in full, and read.
    let answer = board.receive(0, &Decoder::new().greeting());
    assert_eq!(board.commands, b"WVS");
    assert_eq!(board.e2rom(E2_AUTO_REPORTS), REPORTS_ON_CHANGE);
    let got = Decoder::new().decode_all(&answer);
    assert_eq!(got.len(), 3, "{got:?}");
    assert_eq!(got[0], Message::Ack);
    // A board (or a bridge) that strips the parity takes both.
    let mut lenient = MillenniumSim::new();
    assert_eq!(lenient.receive(0, b"V56"), b"v010374");
    assert_eq!(lenient.receive(0, &HOST_V), b"v010374");
}

/// The rows of a board, 8th rank first, as a FEN's placement.
fn placement(board: &Board) -> String {
    board.to_string()
}

#[test]
fn dgt_centaur_mods_s_status_of_the_start_comes_h1_first_and_reads_turned() {
    // `fen_to_eone` of the start position: each rank from h to a, rank 1
    // first; sent as "s" and the block check (`encode_millennium_command`,
    // plain ASCII).
    let eone = "RNBKQBNRPPPPPPPP................................pppppppprnbkqbnr";
    let frame = with_check(format!("s{eone}").as_bytes());
    let got = Decoder::new().decode_all(&frame);
    let pieces = got[0].pieces().expect("a status");
    let read = crate::eboard::pieces::board_of_pieces(pieces);
    // Read in the document's order (a8 first), it is python-mchess's
    // "cable-left" start ("RNBKQBNR/PPPPPPPP/8/8/8/8/pppppppp/rnbkqbnr",
    // `chess_link.py`), which it turns round.
    assert_eq!(
        placement(&read),
        "RNBKQBNR/PPPPPPPP/8/8/8/8/pppppppp/rnbkqbnr"
    );
    let mut turned = read.clone();
    turned.rotate_180();
    assert_eq!(turned, Board::default());
    // Our emulator, reporting h1 first, sends these very bytes.
    let mut sim = MillenniumSim::new();
    sim.h1_first = true;
    assert_eq!(sim.status(), frame);
    assert_eq!(
        MillenniumSim::new().status(),
        with_check(&status_body(&start_pieces()))
    );
}
