//! A simulated DGT board, pure: the peg-board simulator's typed commands
//! (`move e2e4`, `lift e2`, `setup start`, `turn`, `promote e8 q`, ...)
//! carried out on a board that knows its pieces, and the board's answers to
//! the host's one-byte commands. `rochade board-sim --format dgt` puts it on
//! a pseudo-terminal.
//!
//! The pieces and the typed commands are the peg-board simulator's
//! ([`crate::board::sim::SimBoard`]); every state it passes through becomes
//! the field updates a DGT board in update mode sends.

use super::protocol::{self, ClockReading, Command, Message};
use crate::board::sim::{SimBoard, SimCommand, SimError, SimStep};
use crate::board::{Decoder, Format, PegMessage};
use crate::eboard::Pieces;

/// A DGT board on the simulator's side of the wire.
#[derive(Clone, Debug)]
pub struct DgtSim {
    board: SimBoard,
    /// The pieces as last reported (board coordinates, a1 = 0).
    shown: Pieces,
    /// Field updates on (after SEND_UPDATE, SEND_UPDATE_BRD or
    /// SEND_UPDATE_NICE; off after SEND_RESET).
    updates: bool,
    pub serial: String,
    pub version: (u8, u8),
}

impl Default for DgtSim {
    fn default() -> DgtSim {
        DgtSim::new()
    }
}

impl DgtSim {
    /// A board with the start position set up, in idle mode.
    pub fn new() -> DgtSim {
        let mut board = SimBoard::new(Format::Peg);
        // Piece lines let every state be read back with its pieces.
        let _ = board.apply(&SimCommand::Pieces(true));
        DgtSim {
            shown: *board.pieces(),
            board,
            updates: false,
            serial: "00042".into(),
            version: (1, 7),
        }
    }

    pub fn pieces(&self) -> &Pieces {
        self.board.pieces()
    }

    /// Whether the board sends field updates.
    pub fn updating(&self) -> bool {
        self.updates
    }

    /// The board dump message's bytes.
    pub fn dump(&self) -> Vec<u8> {
        protocol::encode(&Message::BoardDump(*self.board.pieces()))
    }

    /// The board's answer to a command byte from the host.
    pub fn answer(&mut self, byte: u8) -> Option<Vec<u8>> {
        match Command::from_byte(byte)? {
            Command::Reset => {
                self.updates = false;
                None
            }
            Command::SendBoard => Some(self.dump()),
            Command::SendUpdate | Command::SendUpdateBoard | Command::SendUpdateNice => {
                self.updates = true;
                None
            }
            Command::SerialNumber => Some(protocol::encode(&Message::SerialNumber(
                self.serial.clone(),
            ))),
            Command::Version => Some(protocol::encode(&Message::Version {
                major: self.version.0,
                minor: self.version.1,
            })),
            // No clock attached.
            Command::SendClock => Some(protocol::encode(&Message::Clock(ClockReading {
                status: 0x20,
                ..ClockReading::default()
            }))),
        }
    }

    /// Carries out a typed command: the field updates each state change
    /// makes (when in update mode), with the pauses between them. Errors
    /// leave the board unchanged.
    pub fn apply(&mut self, cmd: &SimCommand) -> Result<Vec<SimStep>, SimError> {
        match cmd {
            SimCommand::Send => return Ok(vec![SimStep::Send(self.dump())]),
            // A DGT board always knows its pieces.
            SimCommand::Pieces(_) => return Ok(Vec::new()),
            _ => {}
        }
        let steps = self.board.apply(cmd)?;
        let mut decoder = Decoder::new(Format::Peg);
        let mut out = Vec::new();
        for step in steps {
            match step {
                SimStep::Pause(ms) => out.push(SimStep::Pause(ms)),
                SimStep::Send(bytes) => {
                    for m in decoder.push_collect(&bytes) {
                        if let PegMessage::Pieces(now) = m {
                            let updates = self.updates_to(&now);
                            if self.updates && !updates.is_empty() {
                                out.push(SimStep::Send(updates));
                            }
                        }
                    }
                }
            }
        }
        Ok(out)
    }

    /// The field updates from what was shown to `now` (which is shown from
    /// then on).
    fn updates_to(&mut self, now: &Pieces) -> Vec<u8> {
        let mut out = Vec::new();
        for (i, (was, is)) in self.shown.iter().zip(now).enumerate() {
            if was != is {
                out.extend(protocol::encode(&Message::FieldUpdate {
                    square: shakmaty::Square::new(i as u32),
                    piece: *is,
                }));
            }
        }
        self.shown = *now;
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dgt::Decoder as DgtDecoder;
    use shakmaty::{Piece, Square};

    fn sent(steps: &[SimStep]) -> Vec<Message> {
        let mut d = DgtDecoder::new();
        steps
            .iter()
            .filter_map(|s| match s {
                SimStep::Send(b) => Some(d.push_collect(b)),
                SimStep::Pause(_) => None,
            })
            .flatten()
            .collect()
    }

    #[test]
    fn answers_the_host_commands() {
        let mut sim = DgtSim::new();
        let mut d = DgtDecoder::new();
        assert_eq!(
            d.push_collect(&sim.answer(0x42).expect("dump")),
            vec![Message::BoardDump(crate::eboard::pieces::start_pieces())]
        );
        assert_eq!(
            d.push_collect(&sim.answer(0x4D).expect("version")),
            vec![Message::Version { major: 1, minor: 7 }]
        );
        assert_eq!(
            d.push_collect(&sim.answer(0x45).expect("serial")),
            vec![Message::SerialNumber("00042".into())]
        );
        assert!(!sim.updating());
        assert_eq!(sim.answer(0x4B), None);
        assert!(sim.updating());
        assert_eq!(sim.answer(0x40), None);
        assert!(!sim.updating());
        assert_eq!(sim.answer(0x7F), None);
    }

    #[test]
    fn a_move_sends_field_updates_only_in_update_mode() {
        let mut sim = DgtSim::new();
        let quiet = sim
            .apply(&SimCommand::Move {
                from: Square::E2,
                to: Square::E4,
            })
            .expect("move");
        assert!(sent(&quiet).is_empty(), "idle boards only answer");
        sim.answer(0x4B);
        let steps = sim
            .apply(&SimCommand::Move {
                from: Square::E7,
                to: Square::E5,
            })
            .expect("move");
        assert_eq!(
            sent(&steps),
            vec![
                Message::FieldUpdate {
                    square: Square::E7,
                    piece: None
                },
                Message::FieldUpdate {
                    square: Square::E5,
                    piece: Some(Piece::from_char('p').expect("pawn"))
                },
            ]
        );
        assert!(steps.iter().any(|s| matches!(s, SimStep::Pause(_))));
        // The dump shows both moves.
        let mut d = DgtDecoder::new();
        let Message::BoardDump(p) = d.push_collect(&sim.dump()).remove(0) else {
            panic!("a dump")
        };
        assert!(p[usize::from(Square::E4)].is_some() && p[usize::from(Square::E5)].is_some());
    }
}
