//! Finding an e-board on a serial port, the pure half: what to send to a
//! port to ask whether a board of a kind is on it, and whether the bytes
//! that came back are that board's answer. The shell opens the ports, sends,
//! reads for a bounded time and hands the bytes here.
//!
//! A DGT board answers its serial-number request (`0x45`, 9600 baud); a
//! Millennium board its `V` (38400 baud, 8N1 with the odd-parity bit set
//! by Rochade in bit 7: `D6 B5 B6`). The
//! request is the board's own keep-alive ([`HostCommand::Ident`]), so each
//! decoder that lands answers the probe without a word here.

use super::{AnyDecoder, Kind};
use crate::board::{Framing, HostCommand, Protocol};

/// The kinds a probe asks for, in the order it asks (the names of the
/// serial boards that answer a request; a kind not in this build is
/// skipped). Certabo talks without being asked and Chessnut and Pegasus
/// are Bluetooth boards: none of them is probed.
pub const PROBED: [&str; 2] = ["dgt", "millennium"];

/// How to ask a port whether a board of `kind` is on it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProbeRequest {
    pub kind: Kind,
    pub baud: u32,
    pub framing: Framing,
    /// What to write once the port is open.
    pub bytes: Vec<u8>,
}

/// Every probe to try on a port, in order.
pub fn requests() -> Vec<ProbeRequest> {
    PROBED
        .iter()
        .filter_map(|code| code.parse::<Kind>().ok())
        .map(request)
        .collect()
}

/// The probe for one kind of board.
pub fn request(kind: Kind) -> ProbeRequest {
    let decoder = AnyDecoder::new(kind);
    ProbeRequest {
        kind,
        baud: decoder.default_baud(),
        framing: decoder.framing(),
        bytes: decoder.encode(HostCommand::Ident),
    }
}

/// Which board answered, from the bytes read after asking for `asked`: a
/// whole, valid message of that board's protocol. Silence, noise, a torn
/// message or another board's bytes: none.
pub fn answered(asked: Kind, bytes: &[u8]) -> Option<Kind> {
    let mut decoder = AnyDecoder::new(asked);
    (!decoder.decode_all(bytes).is_empty()).then_some(asked)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dgt::Message as Dgt;
    use crate::dgt::protocol::encode;
    use crate::dgt::sim::DgtSim;

    #[test]
    fn a_dgt_board_is_asked_its_serial_number_at_9600_baud() {
        let dgt = request(Kind::Dgt);
        assert_eq!(dgt.bytes, [0x45]);
        assert_eq!(dgt.baud, 9600);
        assert_eq!(dgt.framing, Framing::EightNone);
        assert_eq!(requests().first(), Some(&dgt), "DGT is asked first");
    }

    #[test]
    fn the_dgt_emulators_answer_is_a_dgt_board() {
        let mut sim = DgtSim::new();
        for byte in request(Kind::Dgt).bytes {
            let answer = sim.answer(byte).expect("the emulator answers");
            assert_eq!(answered(Kind::Dgt, &answer), Some(Kind::Dgt));
            // Split anywhere, the whole answer still counts; cut short it
            // does not.
            assert_eq!(answered(Kind::Dgt, &answer[..answer.len() - 1]), None);
        }
        let version = encode(&Dgt::Version { major: 1, minor: 8 });
        assert_eq!(answered(Kind::Dgt, &version), Some(Kind::Dgt));
    }

    #[test]
    fn a_millennium_board_is_asked_its_version_at_38400_baud_with_odd_parity() {
        use crate::eboard::millennium_sim::MillenniumSim;
        let millennium = request(Kind::Millennium);
        // "V56" with the odd-parity bit in bit 7, as python-mchess logged
        // it (`mchess/chess_link.py`: "Sending: <b'\xd6\xb5\xb6'>").
        assert_eq!(millennium.bytes, [0xD6, 0xB5, 0xB6]);
        assert_eq!(millennium.baud, 38400);
        assert_eq!(millennium.framing, Framing::EightNone);
        assert_eq!(
            requests().iter().map(|r| r.kind).collect::<Vec<_>>(),
            [Kind::Dgt, Kind::Millennium]
        );
        let answer = MillenniumSim::new().receive(0, &millennium.bytes);
        assert_eq!(answered(Kind::Millennium, &answer), Some(Kind::Millennium));
        assert_eq!(
            answered(Kind::Millennium, &answer[..answer.len() - 1]),
            None
        );
        // Each board's answer is no answer to the other's question.
        assert_eq!(answered(Kind::Dgt, &answer), None);
        let dgt = DgtSim::new().answer(0x45).expect("an answer");
        assert_eq!(answered(Kind::Millennium, &dgt), None);
        // A damaged check is no answer.
        let mut damaged = answer.clone();
        let last = damaged.len() - 1;
        damaged[last] ^= 0x01;
        assert_eq!(answered(Kind::Millennium, &damaged), None);
    }

    #[test]
    fn silence_noise_and_a_peg_board_are_no_dgt_board() {
        assert_eq!(answered(Kind::Dgt, &[]), None);
        assert_eq!(answered(Kind::Dgt, b"0000000000000000\r\n"), None);
        assert_eq!(answered(Kind::Dgt, &[0x45, 0x45, 0x00, 0x7f]), None);
        // A header with a length the board never sends.
        assert_eq!(answered(Kind::Dgt, &[0x91, 0x7f, 0x7f]), None);
        let mut rng = 0x2545_f491_4f6c_dd1du64;
        for _ in 0..2000 {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            // Bytes below 0x80 are never a DGT message's first byte.
            let noise: Vec<u8> = rng.to_le_bytes().iter().map(|b| b & 0x7f).collect();
            assert_eq!(answered(Kind::Dgt, &noise), None, "{noise:02x?}");
        }
    }
}
