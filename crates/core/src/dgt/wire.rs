//! The DGT e-board as a board on the wire ([`crate::board::Protocol`]):
//! one-byte commands, binary messages logged per chunk as hex, kept
//! talking by asking for its serial number every second.

use shakmaty::Piece;

use super::protocol::{self, Command, Decoder, Message};
use crate::board::{BoardReport, DecoderStats, HostCommand, Protocol, pieces_mask};

/// How often a DGT board is asked for its serial number (keep-alive).
pub const KEEP_ALIVE_MS: u64 = 1000;

impl BoardReport for Message {
    fn occupancy(&self) -> Option<u64> {
        self.pieces().map(pieces_mask)
    }

    fn pieces(&self) -> Option<&[Option<Piece>; 64]> {
        match self {
            Message::BoardDump(pieces) => Some(pieces),
            _ => None,
        }
    }

    fn ident(&self) -> Option<String> {
        match self {
            Message::Version { major, minor } => {
                Some(format!("DGT board, version {major}.{minor}"))
            }
            _ => None,
        }
    }
}

impl Protocol for Decoder {
    type Message = Message;

    fn fresh(&self) -> Decoder {
        Decoder::new()
    }

    fn name(&self) -> &'static str {
        "dgt"
    }

    fn default_baud(&self) -> u32 {
        protocol::BAUD
    }

    fn has_heartbeat(&self) -> bool {
        // It answers the keep-alive.
        true
    }

    fn keep_alive_ms(&self) -> Option<u64> {
        Some(KEEP_ALIVE_MS)
    }

    fn decode(&mut self, bytes: &[u8], log: &mut dyn FnMut(&[u8], bool), out: &mut Vec<Message>) {
        log(bytes, true);
        self.push(bytes, |m| out.push(m));
    }

    fn stats(&self) -> DecoderStats {
        let s = Decoder::stats(self);
        DecoderStats {
            frames: s.messages + s.dropped(),
            messages: s.messages,
            garbage: s.dropped(),
            ..DecoderStats::default()
        }
    }

    fn encode(&self, command: HostCommand) -> Vec<u8> {
        match command {
            HostCommand::Snapshot => Command::SendBoard.as_slice().to_vec(),
            HostCommand::Ident => Command::SerialNumber.as_slice().to_vec(),
            // A classic DGT board has no lights.
            HostCommand::Lights(_) => Vec::new(),
        }
    }

    fn greeting(&self) -> Vec<u8> {
        protocol::start_sequence().to_vec()
    }

    fn logged_to_wire(&self, logged: &[u8]) -> Vec<u8> {
        logged.to_vec()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eboard::pieces::start_pieces;

    #[test]
    fn a_dump_reports_its_pieces_and_a_version_names_the_board() {
        let dump = Message::BoardDump(start_pieces());
        assert_eq!(dump.occupancy(), Some(0xFFFF_0000_0000_FFFF));
        assert!(dump.pieces().is_some());
        assert_eq!(dump.ident(), None);
        let version = Message::Version { major: 1, minor: 8 };
        assert_eq!(version.ident().as_deref(), Some("DGT board, version 1.8"));
        assert_eq!(version.occupancy(), None);
        let d = Decoder::new();
        assert_eq!(d.encode(HostCommand::Snapshot), [0x42]);
        assert_eq!(d.greeting(), protocol::start_sequence());
    }
}
