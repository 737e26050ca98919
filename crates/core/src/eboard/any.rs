//! One [`Protocol`] over every full-position e-board: the serial thread,
//! `rochade track` and the window's links hold an `AnyDecoder` and need not
//! know which board is on the line. Each arm is the board's own decoder;
//! the DGT decoder's messages are translated to the shared [`Message`].

use super::{Kind, Message};
use crate::board::{DecoderStats, Framing, HostCommand, Protocol};

/// The decoder of whichever e-board is on the line.
// One decoder per link: the size of the largest (Certabo's) costs nothing.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug)]
pub enum AnyDecoder {
    Dgt(crate::dgt::Decoder),
    Millennium(super::millennium::Decoder),
    Certabo(super::CertaboDecoder),
    Chessnut(super::ChessnutDecoder),
    Pegasus(super::PegasusDecoder),
}

/// `$body` with `$d` bound to the board's own decoder, whichever it is: a
/// new board is one line here, not one per method.
macro_rules! each {
    ($self:expr, $d:ident => $body:expr) => {
        match $self {
            AnyDecoder::Dgt($d) => $body,
            AnyDecoder::Millennium($d) => $body,
            AnyDecoder::Certabo($d) => $body,
            AnyDecoder::Chessnut($d) => $body,
            AnyDecoder::Pegasus($d) => $body,
        }
    };
}

impl AnyDecoder {
    /// A fresh decoder for a board of `kind`.
    pub fn new(kind: Kind) -> AnyDecoder {
        match kind {
            Kind::Dgt => AnyDecoder::Dgt(crate::dgt::Decoder::new()),
            Kind::Millennium => AnyDecoder::Millennium(super::millennium::Decoder::new()),
            Kind::Certabo => AnyDecoder::Certabo(super::CertaboDecoder::new()),
            Kind::Chessnut => AnyDecoder::Chessnut(super::ChessnutDecoder::new()),
            Kind::Pegasus => AnyDecoder::Pegasus(super::PegasusDecoder::new()),
        }
    }

    /// Which board it decodes.
    pub fn kind(&self) -> Kind {
        match self {
            AnyDecoder::Dgt(_) => Kind::Dgt,
            AnyDecoder::Millennium(_) => Kind::Millennium,
            AnyDecoder::Certabo(_) => Kind::Certabo,
            AnyDecoder::Chessnut(_) => Kind::Chessnut,
            AnyDecoder::Pegasus(_) => Kind::Pegasus,
        }
    }
}

impl Protocol for AnyDecoder {
    type Message = Message;

    fn fresh(&self) -> AnyDecoder {
        match self {
            AnyDecoder::Dgt(d) => AnyDecoder::Dgt(d.fresh()),
            AnyDecoder::Millennium(d) => AnyDecoder::Millennium(d.fresh()),
            AnyDecoder::Certabo(d) => AnyDecoder::Certabo(d.fresh()),
            AnyDecoder::Chessnut(d) => AnyDecoder::Chessnut(d.fresh()),
            AnyDecoder::Pegasus(d) => AnyDecoder::Pegasus(d.fresh()),
        }
    }

    fn name(&self) -> &'static str {
        self.kind().code()
    }

    fn default_baud(&self) -> u32 {
        each!(self, d => d.default_baud())
    }

    fn framing(&self) -> Framing {
        each!(self, d => d.framing())
    }

    fn has_heartbeat(&self) -> bool {
        each!(self, d => d.has_heartbeat())
    }

    fn keep_alive_ms(&self) -> Option<u64> {
        each!(self, d => d.keep_alive_ms())
    }

    fn keep_alive(&self) -> HostCommand {
        each!(self, d => d.keep_alive())
    }

    fn decode(&mut self, bytes: &[u8], log: &mut dyn FnMut(&[u8], bool), out: &mut Vec<Message>) {
        match self {
            AnyDecoder::Dgt(d) => {
                let mut own = Vec::new();
                d.decode(bytes, log, &mut own);
                out.extend(own.into_iter().map(Message::from));
            }
            AnyDecoder::Millennium(d) => d.decode(bytes, log, out),
            AnyDecoder::Certabo(d) => d.decode(bytes, log, out),
            AnyDecoder::Chessnut(d) => d.decode(bytes, log, out),
            AnyDecoder::Pegasus(d) => d.decode(bytes, log, out),
        }
    }

    fn idle(&mut self) {
        each!(self, d => Protocol::idle(d))
    }

    fn stats(&self) -> DecoderStats {
        each!(self, d => Protocol::stats(d))
    }

    fn encode(&self, command: HostCommand) -> Vec<u8> {
        each!(self, d => d.encode(command))
    }

    fn sent(&mut self, command: HostCommand) {
        each!(self, d => d.sent(command))
    }

    fn answer(&mut self, command: HostCommand) -> Vec<Message> {
        match self {
            // The DGT decoder speaks its own messages, and the board is
            // asked: nothing to answer from memory.
            AnyDecoder::Dgt(_) => Vec::new(),
            AnyDecoder::Millennium(d) => d.answer(command),
            AnyDecoder::Certabo(d) => d.answer(command),
            AnyDecoder::Chessnut(d) => d.answer(command),
            AnyDecoder::Pegasus(d) => d.answer(command),
        }
    }

    fn greeting(&self) -> Vec<u8> {
        each!(self, d => d.greeting())
    }

    fn memory(&self) -> Option<String> {
        each!(self, d => d.memory())
    }

    fn recall(&mut self, memory: &str) -> Result<(), String> {
        each!(self, d => d.recall(memory))
    }

    fn logged_to_wire(&self, logged: &[u8]) -> Vec<u8> {
        each!(self, d => d.logged_to_wire(logged))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::BoardReport;
    use crate::dgt::Message as Dgt;
    use crate::dgt::protocol::encode;
    use crate::eboard::pieces::start_pieces;

    #[test]
    fn a_dgt_dump_comes_out_as_a_position_and_its_version_as_an_ident() {
        let mut d = AnyDecoder::new(Kind::Dgt);
        assert_eq!(d.name(), "dgt");
        // 0x86 dump: 3 header bytes and 64 squares; 0x93 version.
        let mut wire = encode(&Dgt::BoardDump(start_pieces()));
        wire.extend(encode(&Dgt::Version { major: 1, minor: 8 }));
        let got = d.decode_all(&wire);
        assert_eq!(got.len(), 2, "{got:?}");
        assert_eq!(got[0].pieces(), Some(&start_pieces()));
        assert_eq!(got[1], Message::Ident("DGT 1.8".into()));
    }

    #[test]
    fn a_millennium_status_comes_out_as_a_position_and_the_kind_is_named() {
        use crate::board::Framing;
        use crate::eboard::millennium::{status_body, with_check};
        let kind: Kind = "millennium".parse().expect("a kind");
        assert_eq!(kind, Kind::Millennium);
        let mut d = AnyDecoder::new(kind);
        assert_eq!((d.name(), d.default_baud()), ("millennium", 38400));
        assert_eq!(d.framing(), Framing::EightNone);
        assert_eq!(d.keep_alive(), HostCommand::Snapshot);
        assert_eq!(d.keep_alive_ms(), Some(500));
        assert_eq!(
            d.encode(HostCommand::Snapshot),
            crate::eboard::millennium::with_parity(b"S53")
        );
        let mut wire = with_check(&status_body(&start_pieces()));
        wire.extend(with_check(b"v0103"));
        let got = d.decode_all(&wire);
        assert_eq!(got[0].pieces(), Some(&start_pieces()));
        assert_eq!(got[1], Message::Ident("Millennium ChessLink 01.03".into()));
        assert_eq!(AnyDecoder::new(Kind::Dgt).framing(), Framing::EightNone);
        assert_eq!(AnyDecoder::new(Kind::Dgt).keep_alive(), HostCommand::Ident);
    }
}
