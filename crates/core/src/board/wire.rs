//! One trait for every kind of board on a serial line: the peg-board
//! formats ([`super::Decoder`]), the DGT e-board (`crate::dgt::Decoder`) and
//! every other full-position e-board (`crate::eboard::AnyDecoder`) implement it, each with its own message type, and the shell's serial
//! thread, `rochade track` and the window's links are generic over it.

use shakmaty::Piece;

use super::{DecoderStats, HostCommand};

/// What a board's message says of the board, whatever the board.
pub trait BoardReport {
    /// The occupancy it shows: bit i set when a piece stands on square i
    /// (a1 = 0, h8 = 63).
    fn occupancy(&self) -> Option<u64>;
    /// The pieces it shows, by square (boards that know their pieces).
    fn pieces(&self) -> Option<&[Option<Piece>; 64]>;
    /// How the board named itself (model, version), in a line for the
    /// diagnostics.
    fn ident(&self) -> Option<String>;
}

/// How characters are framed on a serial line (start and stop bits
/// aside): what the port must be opened with.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Framing {
    /// 8 data bits, no parity (8N1): every board. (The Millennium
    /// ChessLink's 7O1 characters are 8N1 bytes with the parity in bit 7,
    /// which its protocol sets and strips itself.)
    #[default]
    EightNone,
}

/// One kind of board on the wire: a streaming decoder from bytes in any
/// chunking to the board's own messages, and the bytes of the host's
/// commands.
pub trait Protocol: Send + 'static {
    /// What the board says, decoded.
    type Message: BoardReport + Clone + std::fmt::Debug + PartialEq + Send + 'static;

    /// A decoder for the same kind of board, starting afresh (a new
    /// connection: nothing half-read carried over, counters at zero).
    fn fresh(&self) -> Self
    where
        Self: Sized;

    /// The name a board log's header gives the format ("peg", "dgt").
    fn name(&self) -> &'static str;

    /// The baud rate its boards use out of the box.
    fn default_baud(&self) -> u32;

    /// The character framing its boards use.
    fn framing(&self) -> Framing {
        Framing::EightNone
    }

    /// Whether silence means a lost link: the board repeats itself or
    /// answers a keep-alive.
    fn has_heartbeat(&self) -> bool;

    /// How often the host asks for the board's ident to keep the board
    /// talking, if it must (a DGT board: every second).
    fn keep_alive_ms(&self) -> Option<u64> {
        None
    }

    /// What the keep-alive asks for (the board's ident, unless the board
    /// is better asked for its position: one that reports only on change).
    fn keep_alive(&self) -> HostCommand {
        HostCommand::Ident
    }

    /// Feeds bytes: each message decoded goes to `out`; what the board log
    /// records goes to `log` (the bytes, and whether they are written as
    /// hex): one entry per frame for line boards, one per chunk for boards
    /// that speak binary.
    fn decode(
        &mut self,
        bytes: &[u8],
        log: &mut dyn FnMut(&[u8], bool),
        out: &mut Vec<Self::Message>,
    );

    /// The line went quiet (a partial frame may be a lost one's).
    fn idle(&mut self) {}

    /// Counters of what was read and dropped since the decoder started.
    fn stats(&self) -> DecoderStats;

    /// The bytes that carry `command` to the board (none for a command
    /// the board does not know, such as lights on a board without LEDs).
    fn encode(&self, command: HostCommand) -> Vec<u8>;

    /// The host sent `command` on this connection (a board that is asked
    /// nothing, such as Certabo, answers a snapshot request by passing its
    /// next scan on even if unchanged).
    fn sent(&mut self, _command: HostCommand) {}

    /// What the decoder answers `command` with itself, from what the
    /// board already said, for a board that is asked nothing for it (a
    /// Chessnut's last whole position, for a request for the board): the
    /// link reports these as if the board had sent them. Default: none.
    fn answer(&mut self, _command: HostCommand) -> Vec<Self::Message> {
        Vec::new()
    }

    /// What the host sends when the port opens.
    fn greeting(&self) -> Vec<u8> {
        self.encode(HostCommand::Snapshot)
    }

    /// What the decoder learnt of this board that is worth keeping across
    /// runs of the app (a Certabo board's chips), as text; `None`: nothing.
    fn memory(&self) -> Option<String> {
        None
    }

    /// Takes back what [`Protocol::memory`] gave, or says why it cannot.
    fn recall(&mut self, _memory: &str) -> Result<(), String> {
        Ok(())
    }

    /// The bytes a board log's entry stands for on the wire (a line
    /// board's frame gets its LF back), for a replay.
    fn logged_to_wire(&self, logged: &[u8]) -> Vec<u8>;

    /// All messages of `bytes` (tests and replays).
    fn decode_all(&mut self, bytes: &[u8]) -> Vec<Self::Message> {
        let mut out = Vec::new();
        self.decode(bytes, &mut |_, _| {}, &mut out);
        out
    }
}
