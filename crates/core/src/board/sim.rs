//! A simulated board, pure: commands in, wire bytes (and pauses) out. The
//! `rochade board-sim` command puts it on a pseudo-terminal; the GUI can
//! embed it to let someone without hardware try the app.

use shakmaty::{Board, Piece, Role, Square};

use super::{Format, HostCommand, pieces_mask, protocol};

/// Pause between the steps of a `move` (lift, place), long enough for any
/// settle window: a person needs a good fraction of a second too.
pub const STEP_PAUSE_MS: u64 = 250;
/// How long a `glitch` flips a sensor: well under any settle window.
pub const GLITCH_MS: u64 = 15;
/// Heartbeat interval for formats that repeat their snapshot.
pub const HEARTBEAT_MS: u64 = 500;

/// A command typed to the simulator.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SimCommand {
    /// Take the peg out of a square.
    Lift(Square),
    /// Put the last lifted peg into a square.
    Place(Square),
    /// Lift and place, removing a captured peg first.
    Move {
        from: Square,
        to: Square,
    },
    /// Set up a position (`start`, `empty`, or a FEN board part).
    Setup(Board),
    /// Flip one sensor for a few milliseconds.
    Glitch(Square),
    /// Turn the board round (as if placed the wrong way).
    Turn,
    /// Replace the peg on a square by another piece (coded pegs, e.g. a
    /// promoted queen): `promote e8 q`.
    Promote(Square, Role),
    /// Switch `P` lines (piece identities) on or off.
    Pieces(bool),
    /// Report a fault: `fault sensor e4 stuck`.
    Fault(String),
    /// Send a snapshot now.
    Send,
    /// Wait a number of milliseconds before the next command.
    Wait(u64),
    Help,
    Quit,
}

/// What the simulator does: send bytes, or wait.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SimStep {
    Send(Vec<u8>),
    Pause(u64),
}

pub const HELP: &str = "commands: lift e2 | place e4 | move e2e4 | setup start|empty|<FEN> | glitch e5 | turn | \
promote e8 q | pieces on|off | fault <text> | send | wait <ms> | quit";

/// A command the simulator cannot read or carry out.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SimError {
    #[error("empty command")]
    Empty,
    #[error("unknown command '{0}' ({help})", help = HELP)]
    UnknownCommand(String),
    #[error("'{0}' needs an argument ({help})", help = HELP)]
    NeedsArgument(String),
    #[error("not a square: '{0}'")]
    NotASquare(String),
    #[error("bad FEN: {0}")]
    BadFen(String),
    #[error("promote needs q, r, b or n")]
    PromotionPiece,
    #[error("wait needs milliseconds")]
    WaitMilliseconds,
    #[error("{0} is empty")]
    EmptySquare(Square),
    #[error("{0} is occupied")]
    Occupied(Square),
    #[error("a move needs two different squares")]
    SameSquare,
    #[error("no peg in the hand: lift one first")]
    EmptyHand,
}

fn square(word: &str) -> Result<Square, SimError> {
    word.parse::<Square>()
        .map_err(|_| SimError::NotASquare(word.to_owned()))
}

/// Parses one command line.
pub fn parse_command<'a>(line: &'a str) -> Result<SimCommand, SimError> {
    let mut words = line.split_whitespace();
    let verb = words.next().unwrap_or("").to_ascii_lowercase();
    let arg = words.next();
    let need = |a: Option<&'a str>| -> Result<&'a str, SimError> {
        a.ok_or_else(|| SimError::NeedsArgument(verb.clone()))
    };
    let cmd = match verb.as_str() {
        "lift" => SimCommand::Lift(square(need(arg)?)?),
        "place" | "put" => SimCommand::Place(square(need(arg)?)?),
        "move" => {
            let a = need(arg)?;
            let (from, to) = match (a.get(..2), a.get(2..)) {
                (Some(f), Some(t)) if !t.is_empty() => (f, t.trim_start_matches(['-', 'x'])),
                _ => (a, need(words.next())?),
            };
            SimCommand::Move {
                from: square(from)?,
                to: square(to)?,
            }
        }
        "setup" => {
            let what = need(arg)?;
            let board = match what {
                "start" => Board::new(),
                "empty" => Board::empty(),
                fen => {
                    fen.parse::<shakmaty::fen::Fen>()
                        .map_err(|e| SimError::BadFen(e.to_string()))?
                        .into_setup()
                        .board
                }
            };
            SimCommand::Setup(board)
        }
        "glitch" => SimCommand::Glitch(square(need(arg)?)?),
        "turn" => SimCommand::Turn,
        "promote" => {
            let sq = square(need(arg)?)?;
            let role = need(words.next())?
                .chars()
                .next()
                .and_then(|c| Role::from_char(c.to_ascii_lowercase()))
                .ok_or(SimError::PromotionPiece)?;
            SimCommand::Promote(sq, role)
        }
        "pieces" => SimCommand::Pieces(need(arg)? == "on"),
        "fault" => {
            let text = line.trim_start().get(5..).unwrap_or("").trim().to_owned();
            SimCommand::Fault(text)
        }
        "send" => SimCommand::Send,
        "wait" => SimCommand::Wait(need(arg)?.parse().map_err(|_| SimError::WaitMilliseconds)?),
        "help" | "?" => SimCommand::Help,
        "quit" | "exit" => SimCommand::Quit,
        "" => return Err(SimError::Empty),
        other => return Err(SimError::UnknownCommand(other.to_owned())),
    };
    Ok(cmd)
}

/// The simulated board.
#[derive(Clone, Debug)]
pub struct SimBoard {
    format: Format,
    /// What stands where, in the board's own (wired) coordinates.
    pieces: [Option<Piece>; 64],
    /// Pegs in the hand, last lifted on top.
    hand: Vec<Piece>,
    send_pieces: bool,
    pub ident: String,
}

impl SimBoard {
    /// A board of the given format with the start position set up.
    pub fn new(format: Format) -> SimBoard {
        SimBoard {
            format,
            pieces: protocol::start_pieces(),
            hand: Vec::new(),
            send_pieces: false,
            ident: "rochade-sim 1 fw=sim".into(),
        }
    }

    pub fn format(&self) -> Format {
        self.format
    }

    pub fn mask(&self) -> u64 {
        pieces_mask(&self.pieces)
    }

    pub fn pieces(&self) -> &[Option<Piece>; 64] {
        &self.pieces
    }

    /// Pegs in the hand, last lifted last.
    pub fn hand(&self) -> &[Piece] {
        &self.hand
    }

    /// The bytes the board sends for its current state (also the heartbeat).
    pub fn snapshot(&self) -> Vec<u8> {
        let mut out = self.format.encode_snapshot(self.mask());
        if self.send_pieces && self.format == Format::Peg {
            out.extend(protocol::write_pieces(&self.pieces).into_bytes());
        }
        out
    }

    /// The reply to a line the host sent, if the format answers it.
    pub fn answer(&self, line: &[u8]) -> Option<Vec<u8>> {
        match HostCommand::parse(line)? {
            HostCommand::Snapshot => Some(self.snapshot()),
            HostCommand::Ident if self.format == Format::Peg => {
                Some(protocol::write_ident(&self.ident).into_bytes())
            }
            HostCommand::Ident | HostCommand::Lights(_) => None,
        }
    }

    fn lift(&mut self, sq: Square) -> Result<Vec<SimStep>, SimError> {
        let piece = self.pieces[usize::from(sq)]
            .take()
            .ok_or(SimError::EmptySquare(sq))?;
        self.hand.push(piece);
        Ok(vec![SimStep::Send(self.snapshot())])
    }

    fn place(&mut self, sq: Square) -> Result<Vec<SimStep>, SimError> {
        if self.pieces[usize::from(sq)].is_some() {
            return Err(SimError::Occupied(sq));
        }
        let piece = self.hand.pop().ok_or(SimError::EmptyHand)?;
        self.pieces[usize::from(sq)] = Some(piece);
        Ok(vec![SimStep::Send(self.snapshot())])
    }

    /// Carries out a command. Errors leave the board unchanged.
    pub fn apply(&mut self, cmd: &SimCommand) -> Result<Vec<SimStep>, SimError> {
        match cmd {
            SimCommand::Lift(sq) => self.lift(*sq),
            SimCommand::Place(sq) => self.place(*sq),
            SimCommand::Move { from, to } => {
                if self.pieces[usize::from(*from)].is_none() {
                    return Err(SimError::EmptySquare(*from));
                }
                if from == to {
                    return Err(SimError::SameSquare);
                }
                let mut steps = Vec::new();
                if self.pieces[usize::from(*to)].is_some() {
                    // Remove the captured peg first, as most players do.
                    steps.extend(self.lift(*to)?);
                    self.hand.clear();
                    steps.push(SimStep::Pause(STEP_PAUSE_MS));
                }
                steps.extend(self.lift(*from)?);
                steps.push(SimStep::Pause(STEP_PAUSE_MS));
                steps.extend(self.place(*to)?);
                // A hand takes a moment to leave the board: the next command
                // must not come within the settle window.
                steps.push(SimStep::Pause(STEP_PAUSE_MS));
                Ok(steps)
            }
            SimCommand::Setup(board) => {
                for (i, slot) in self.pieces.iter_mut().enumerate() {
                    *slot = board.piece_at(Square::new(i as u32));
                }
                self.hand.clear();
                Ok(vec![SimStep::Send(self.snapshot())])
            }
            SimCommand::Glitch(sq) => {
                let flipped = self.mask() ^ (1u64 << u32::from(*sq));
                Ok(vec![
                    SimStep::Send(self.format.encode_snapshot(flipped)),
                    SimStep::Pause(GLITCH_MS),
                    SimStep::Send(self.snapshot()),
                ])
            }
            SimCommand::Turn => {
                self.pieces.reverse();
                Ok(vec![SimStep::Send(self.snapshot())])
            }
            SimCommand::Promote(sq, role) => {
                let slot = &mut self.pieces[usize::from(*sq)];
                let piece = slot.as_mut().ok_or(SimError::EmptySquare(*sq))?;
                piece.role = *role;
                Ok(vec![SimStep::Send(self.snapshot())])
            }
            SimCommand::Pieces(on) => {
                self.send_pieces = *on;
                Ok(vec![SimStep::Send(self.snapshot())])
            }
            SimCommand::Fault(text) => Ok(match self.format {
                Format::Peg => vec![SimStep::Send(protocol::write_fault(text).into_bytes())],
                _ => Vec::new(),
            }),
            SimCommand::Send => Ok(vec![SimStep::Send(self.snapshot())]),
            SimCommand::Wait(ms) => Ok(vec![SimStep::Pause(*ms)]),
            SimCommand::Help | SimCommand::Quit => Ok(Vec::new()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Decoder, PegMessage};

    fn masks(steps: &[SimStep], format: Format) -> Vec<u64> {
        let mut d = Decoder::new(format);
        steps
            .iter()
            .filter_map(|s| match s {
                SimStep::Send(b) => Some(d.push_collect(b)),
                SimStep::Pause(_) => None,
            })
            .flatten()
            .filter_map(|m| match m {
                PegMessage::Snapshot(m) => Some(m),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn move_and_capture_send_each_step() {
        for format in Format::ALL {
            let mut sim = SimBoard::new(format);
            let steps = sim.apply(&parse_command("move e2e4").unwrap()).unwrap();
            let start = 0xFFFF_0000_0000_FFFFu64;
            let e2 = 1 << 12;
            let e4 = 1 << 28;
            assert_eq!(masks(&steps, format), vec![start & !e2, (start & !e2) | e4]);
            sim.apply(&parse_command("move d7d5").unwrap()).unwrap();
            let steps = sim.apply(&parse_command("move e4 d5").unwrap()).unwrap();
            assert_eq!(
                masks(&steps, format).len(),
                3,
                "capture: remove, lift, place"
            );
            assert_eq!(
                sim.pieces()[usize::from(Square::D5)].map(|p| p.char()),
                Some('P')
            );
        }
    }

    #[test]
    fn glitch_returns_to_the_same_state_and_errors_change_nothing() {
        let mut sim = SimBoard::new(Format::Peg);
        let before = sim.mask();
        let steps = sim.apply(&SimCommand::Glitch(Square::E5)).unwrap();
        assert_eq!(masks(&steps, Format::Peg), vec![before | 1 << 36, before]);
        assert!(sim.apply(&parse_command("place e4").unwrap()).is_err());
        assert!(sim.apply(&parse_command("lift e4").unwrap()).is_err());
        assert_eq!(sim.mask(), before);
        assert!(parse_command("fly e2").is_err());
        assert!(parse_command("lift z9").is_err());
    }

    #[test]
    fn answers_host_commands() {
        let sim = SimBoard::new(Format::Peg);
        let mut d = Decoder::new(Format::Peg);
        assert_eq!(
            d.push_collect(&sim.answer(b"?").unwrap()),
            vec![PegMessage::Snapshot(sim.mask())]
        );
        assert!(matches!(
            d.push_collect(&sim.answer(b"I?\r").unwrap())[0],
            PegMessage::Ident(_)
        ));
        assert_eq!(sim.answer(b"nonsense"), None);
    }
}
