//! Bytes from the wire, in any chunking, to [`PegMessage`]s, with counters
//! of everything dropped. Never panics, never passes on a bad line.

use super::protocol::{self, DropReason};
use super::{PegMessage, liboard, sentio};

/// The wire format of a board.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "lowercase")]
#[derive(strum::Display, strum::EnumString, strum::IntoStaticStr)]
#[strum(ascii_case_insensitive, parse_err_ty = UnknownFormat, parse_err_fn = unknown_format)]
#[derive(strum::EnumCount, strum::VariantArray)]
pub enum Format {
    /// Peg-board protocol v1 (this app's open protocol), 115200 baud.
    #[default]
    #[strum(to_string = "peg", serialize = "pegboard")]
    Peg,
    /// LiBoard: 8 raw bytes, 9600 baud.
    #[strum(to_string = "liboard")]
    LiBoard,
    /// Tabutronic Sentio occupancy lines, 38400 baud.
    #[strum(to_string = "sentio", serialize = "tabutronic")]
    Sentio,
}

/// A board format name that names none (the name, in lower case).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown board format '{0}' (use peg, liboard or sentio)")]
pub struct UnknownFormat(pub String);

fn unknown_format(s: &str) -> UnknownFormat {
    UnknownFormat(s.to_ascii_lowercase())
}

impl Format {
    /// Every variant, in declaration order (derived, so none is left out).
    pub const ALL: [Format; <Format as strum::EnumCount>::COUNT] =
        *<Format as strum::VariantArray>::VARIANTS
            .first_chunk()
            .expect("every variant");

    pub fn code(self) -> &'static str {
        self.into()
    }

    /// The baud rate the format's boards use out of the box.
    pub fn default_baud(self) -> u32 {
        match self {
            Format::Peg => 115_200,
            Format::LiBoard => liboard::BAUD,
            Format::Sentio => sentio::BAUD,
        }
    }

    /// Whether the board repeats its snapshot at least once per second, so
    /// that silence means a lost link. LiBoard only sends on change.
    pub fn has_heartbeat(self) -> bool {
        !matches!(self, Format::LiBoard)
    }

    /// Whether frames are text lines ended by LF (so a log replay must add it).
    pub fn is_line_based(self) -> bool {
        !matches!(self, Format::LiBoard)
    }

    /// The bytes a board of this format sends for a snapshot.
    pub fn encode_snapshot(self, mask: u64) -> Vec<u8> {
        match self {
            Format::Peg => protocol::write_snapshot(mask).into_bytes(),
            Format::LiBoard => liboard::encode(mask).to_vec(),
            Format::Sentio => sentio::write_line(mask).into_bytes(),
        }
    }

    /// The bytes that reproduce a logged frame on the wire.
    pub fn frame_to_wire(self, frame: &[u8]) -> Vec<u8> {
        let mut out = frame.to_vec();
        if self.is_line_based() {
            out.push(b'\n');
        }
        out
    }
}

/// Counters for the diagnostics view.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct DecoderStats {
    /// Frames (lines, or 8-byte LiBoard frames) received.
    pub frames: u64,
    /// Frames that became a message.
    pub messages: u64,
    pub bad_checksum: u64,
    pub too_long: u64,
    pub garbage: u64,
}

impl DecoderStats {
    pub fn dropped(&self) -> u64 {
        self.bad_checksum + self.too_long + self.garbage
    }

    fn count(&mut self, reason: DropReason) {
        match reason {
            DropReason::BadChecksum => self.bad_checksum += 1,
            DropReason::TooLong => self.too_long += 1,
            DropReason::Garbage => self.garbage += 1,
        }
    }
}

/// One frame as received, and what became of it.
#[derive(Debug, PartialEq, Eq)]
pub struct Frame<'a> {
    /// The bytes of the frame without the LF (and without a trailing CR),
    /// cut after the first over-long byte: this is what the board log records.
    pub bytes: &'a [u8],
    pub result: Result<PegMessage, DropReason>,
}

/// A streaming decoder for one format.
#[derive(Clone, Debug)]
pub struct Decoder {
    format: Format,
    buf: Vec<u8>,
    /// The current line has grown past the limit; it is dropped at its LF.
    overlong: bool,
    stats: DecoderStats,
}

/// Bytes kept of an over-long line: one more than any format allows, so a
/// logged over-long line is still over-long when replayed.
const KEEP: usize = protocol::MAX_LINE + 2;

impl Decoder {
    pub fn new(format: Format) -> Decoder {
        Decoder {
            format,
            buf: Vec::with_capacity(KEEP),
            overlong: false,
            stats: DecoderStats::default(),
        }
    }

    pub fn format(&self) -> Format {
        self.format
    }

    pub fn stats(&self) -> DecoderStats {
        self.stats
    }

    /// Feeds bytes; calls `on_frame` for each complete frame.
    pub fn push(&mut self, bytes: &[u8], mut on_frame: impl FnMut(Frame<'_>)) {
        for &b in bytes {
            match self.format {
                Format::LiBoard => {
                    self.buf.push(b);
                    if self.buf.len() == liboard::FRAME {
                        let mut frame = [0u8; liboard::FRAME];
                        frame.copy_from_slice(&self.buf);
                        self.stats.frames += 1;
                        self.stats.messages += 1;
                        on_frame(Frame {
                            bytes: &self.buf,
                            result: Ok(PegMessage::Snapshot(liboard::decode(frame))),
                        });
                        self.buf.clear();
                    }
                }
                Format::Peg | Format::Sentio => {
                    if b == b'\n' {
                        self.finish_line(&mut on_frame);
                    } else if self.buf.len() < KEEP {
                        self.buf.push(b);
                    } else {
                        self.overlong = true;
                    }
                }
            }
        }
    }

    /// Convenience for tests and replays: all messages from `bytes`.
    pub fn push_collect(&mut self, bytes: &[u8]) -> Vec<PegMessage> {
        let mut out = Vec::new();
        self.push(bytes, |f| {
            if let Ok(m) = f.result {
                out.push(m)
            }
        });
        out
    }

    /// The line went quiet: a partial LiBoard frame is a fragment of a lost
    /// frame and is dropped (counted as garbage). Line formats keep waiting
    /// for their LF.
    pub fn idle(&mut self) {
        if self.format == Format::LiBoard && !self.buf.is_empty() {
            self.buf.clear();
            self.stats.garbage += 1;
        }
    }

    fn finish_line(&mut self, on_frame: &mut impl FnMut(Frame<'_>)) {
        if self.buf.last() == Some(&b'\r') && !self.overlong {
            self.buf.pop();
        }
        if self.buf.is_empty() && !self.overlong {
            return; // blank line (e.g. a lone CR LF): nothing was said
        }
        self.stats.frames += 1;
        let result = if self.overlong || self.buf.len() > protocol::MAX_LINE {
            Err(DropReason::TooLong)
        } else {
            match self.format {
                Format::Peg => protocol::parse_line(&self.buf),
                _ => sentio::parse_line(&self.buf).map(PegMessage::Snapshot),
            }
        };
        match &result {
            Ok(_) => self.stats.messages += 1,
            Err(reason) => self.stats.count(*reason),
        }
        on_frame(Frame {
            bytes: &self.buf,
            result,
        });
        self.buf.clear();
        self.overlong = false;
    }
}

/// The peg-board formats as a board on the wire.
impl super::Protocol for Decoder {
    type Message = PegMessage;

    fn fresh(&self) -> Decoder {
        Decoder::new(self.format)
    }

    fn name(&self) -> &'static str {
        self.format.code()
    }

    fn default_baud(&self) -> u32 {
        self.format.default_baud()
    }

    fn has_heartbeat(&self) -> bool {
        self.format.has_heartbeat()
    }

    fn decode(
        &mut self,
        bytes: &[u8],
        log: &mut dyn FnMut(&[u8], bool),
        out: &mut Vec<PegMessage>,
    ) {
        // A binary format's frames are logged as hex.
        let hex = !self.format.is_line_based();
        self.push(bytes, |frame| {
            log(frame.bytes, hex);
            if let Ok(m) = frame.result {
                out.push(m);
            }
        });
    }

    fn idle(&mut self) {
        Decoder::idle(self);
    }

    fn stats(&self) -> DecoderStats {
        self.stats
    }

    fn encode(&self, command: super::HostCommand) -> Vec<u8> {
        command.line().to_vec()
    }

    fn logged_to_wire(&self, logged: &[u8]) -> Vec<u8> {
        self.format.frame_to_wire(logged)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn any_chunking_gives_the_same_messages() {
        for format in Format::ALL {
            let mut wire = Vec::new();
            for mask in [
                0xFFFF_0000_0000_FFFFu64,
                0xFFFF_0000_0000_EFFF,
                0xFFFF_0000_1000_EFFF,
            ] {
                wire.extend(format.encode_snapshot(mask));
            }
            let whole = Decoder::new(format).push_collect(&wire);
            assert_eq!(whole.len(), 3, "{format}");
            for chunk in 1..7 {
                let mut d = Decoder::new(format);
                let mut got = Vec::new();
                for c in wire.chunks(chunk) {
                    got.extend(d.push_collect(c));
                }
                assert_eq!(got, whole, "{format} chunk {chunk}");
            }
        }
    }

    #[test]
    fn bad_lines_are_counted_and_skipped() {
        let mut d = Decoder::new(Format::Peg);
        let mut wire = b"B FFFF00000000FFFF*00\n".to_vec();
        wire.extend([b'x'; 300]);
        wire.extend(b"\n\r\n\xff\xfe garbage\n");
        wire.extend(protocol::write_snapshot(5).as_bytes());
        let got = d.push_collect(&wire);
        assert_eq!(got, vec![PegMessage::Snapshot(5)]);
        let s = d.stats();
        assert_eq!(
            (s.bad_checksum, s.too_long, s.garbage, s.messages, s.frames),
            (2, 1, 0, 1, 4)
        );
    }

    #[test]
    fn as_a_protocol_each_frame_is_logged_and_each_message_passed_on() {
        use crate::board::Protocol;
        for format in Format::ALL {
            let mut d = Decoder::new(format);
            let mut wire = format.encode_snapshot(5);
            wire.extend(format.encode_snapshot(7));
            let mut logged = Vec::new();
            let mut out = Vec::new();
            d.decode(
                &wire,
                &mut |b, hex| logged.push((b.to_vec(), hex)),
                &mut out,
            );
            assert_eq!(out, [PegMessage::Snapshot(5), PegMessage::Snapshot(7)]);
            assert_eq!(logged.len(), 2, "{format}");
            assert!(
                logged
                    .iter()
                    .all(|(_, hex)| *hex == (format == Format::LiBoard))
            );
            // A logged frame replayed is the same message.
            let mut fresh = d.fresh();
            let again = fresh.decode_all(&d.logged_to_wire(&logged[0].0));
            assert_eq!(again, [PegMessage::Snapshot(5)], "{format}");
            assert_eq!(fresh.stats().messages, 1);
            assert_eq!(d.name(), format.code());
        }
    }

    #[test]
    fn liboard_resyncs_after_idle() {
        let mut d = Decoder::new(Format::LiBoard);
        assert!(d.push_collect(&[1, 2, 3]).is_empty());
        d.idle();
        assert_eq!(
            d.push_collect(&liboard::encode(42)),
            vec![PegMessage::Snapshot(42)]
        );
        assert_eq!(d.stats().garbage, 1);
    }
}
