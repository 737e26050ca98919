//! The player's own board on the command line of `rochade online` and
//! `rochade puzzle`: `--board PORT` with `--format` (the names `rochade
//! track` reads: peg, liboard, sentio, dgt, millennium, certabo, chessnut,
//! pegasus) and `--baud`. As in the window's "My board": an occupancy
//! board's reports reach the session as `Event::Board`, an e-board's (DGT
//! included) as `Event::EBoard`; a Bluetooth LE board's PORT is its
//! address, its advertised name (on macOS, where every address reads
//! zeros) or `auto`.

use std::sync::mpsc::Sender;
use std::time::Instant;

use super::CliError;
use super::follow::{FormatArg, forward, spawn_tagged};
use crate::board::Format;
use crate::eboard::{AnyDecoder, Kind};
use crate::serial::{BoardInput, Link, LinkConfig};
use crate::session::Event;

#[derive(clap::Args, Debug, Clone, Default)]
pub struct OwnBoardArgs {
    /// The player's own board on this serial port (a Bluetooth LE board:
    /// its address, its advertised name, or auto): his moves are read from
    /// it, the opponent's guided on it until made.
    #[arg(long, value_name = "PORT")]
    pub board: Option<String>,
    /// The board's kind, as `rochade track` names it: peg (the default),
    /// liboard, sentio, dgt, millennium, certabo, chessnut or pegasus.
    #[arg(
        long,
        visible_alias = "board-format",
        value_name = "FORMAT",
        requires = "board"
    )]
    pub format: Option<FormatArg>,
    /// The board's baud rate (default: the format's usual rate).
    #[arg(long, requires = "board")]
    pub baud: Option<u32>,
}

/// How a board of a given format is reached.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Reach {
    /// An occupancy board (peg-board, LiBoard, Sentio) on a serial port.
    Peg(Format),
    /// A full-position e-board on a serial port.
    Serial(Kind),
    /// A full-position e-board over Bluetooth LE.
    Bluetooth(Kind),
}

impl Reach {
    /// The reach of a board in `format` (none given: the peg-board).
    pub(super) fn of(format: Option<FormatArg>) -> Reach {
        match format {
            None => Reach::Peg(Format::default()),
            Some(FormatArg::Board(format)) => Reach::Peg(format),
            Some(FormatArg::EBoard(kind)) if crate::ble::is_ble(kind) => Reach::Bluetooth(kind),
            Some(FormatArg::EBoard(kind)) => Reach::Serial(kind),
        }
    }
}

/// The serial link of an e-board of `kind` on `port` (at `baud`, else
/// its usual rate), stamped from `epoch`, its board log (if any) kept in
/// `log`, what it learns of the board (a Certabo's chips) kept in the
/// config folder as the player's own board's.
pub(super) fn eboard_config(
    port: String,
    kind: Kind,
    baud: Option<u32>,
    epoch: Instant,
    log: Option<std::path::PathBuf>,
) -> LinkConfig<AnyDecoder> {
    let mut cfg = LinkConfig {
        log,
        epoch,
        memory_file: crate::serial::memory_file(kind, "mine"),
        ..LinkConfig::eboard(port, kind)
    };
    if let Some(baud) = baud {
        cfg.baud = baud;
    }
    cfg
}

/// A report from the player's own board, as the session's event.
pub struct OwnBoardInput {
    /// When it was read (from the epoch the board was opened with).
    pub at_ms: u64,
    pub event: Event,
}

impl OwnBoardArgs {
    /// A serial port `--board` names that does not exist is refused at
    /// once, as `rochade track` refuses it (a Bluetooth LE board's port is
    /// its address, no device file).
    pub(super) fn check_port(&self) -> Result<(), CliError> {
        let Some(port) = &self.board else {
            return Ok(());
        };
        if matches!(Reach::of(self.format), Reach::Bluetooth(_))
            || !cfg!(unix)
            || std::path::Path::new(port).exists()
        {
            return Ok(());
        }
        Err(CliError::input(format!(
            "{port}: no such port. Is the board plugged in? Give its port \
             (ls /dev/ttyUSB* /dev/ttyACM*)"
        )))
    }

    /// Opens the board `--board` names (none: no board), its reports sent
    /// on as `wrap(input)` by a thread that ends with the link or the
    /// receiver. A Bluetooth LE board's link is the same handle.
    pub(super) fn open<M: Send + 'static>(
        &self,
        epoch: Instant,
        tx: &Sender<M>,
        wrap: fn(OwnBoardInput) -> M,
    ) -> Result<Option<Link>, CliError> {
        let Some(port) = self.board.clone() else {
            return Ok(None);
        };
        let failed =
            |e: &dyn std::fmt::Display| CliError::failure(format!("the board on {port}: {e}"));
        let reach = Reach::of(self.format);
        if let Reach::Serial(kind) | Reach::Bluetooth(kind) = reach
            && kind.occupancy_only()
        {
            // Its lights guide the tracker's moves (a board without
            // lights is sent none).
            let lights = crate::board::TrackerConfig {
                guide_lights: true,
                complete_slides: true,
                settle_ms: crate::eboard::pegasus::SETTLE_MS,
                ..crate::board::TrackerConfig::default()
            };
            let configure = Event::Board(crate::session::board::BoardEvent::Configure(lights));
            let _ = tx.send(wrap(own(0, configure)));
        }
        let link = match reach {
            Reach::Peg(format) => {
                let cfg = LinkConfig {
                    epoch,
                    baud: self.baud.unwrap_or(format.default_baud()),
                    ..LinkConfig::new(port.clone(), format)
                };
                let peg = move |i: BoardInput| wrap(own(i.at_ms, Event::Board(i.event)));
                spawn_tagged(cfg, peg, tx.clone()).map_err(|e| failed(&e))?
            }
            Reach::Serial(kind) => {
                let cfg = eboard_config(port.clone(), kind, self.baud, epoch, None);
                spawn_tagged(cfg, eboard_input(kind, wrap), tx.clone()).map_err(|e| failed(&e))?
            }
            Reach::Bluetooth(kind) => {
                let cfg = crate::ble::BleConfig {
                    epoch,
                    ..crate::ble::BleConfig::new(port.clone(), kind)
                };
                let (link_tx, link_rx) = std::sync::mpsc::channel();
                let link = crate::ble::BleLink::spawn(cfg, link_tx).map_err(|e| failed(&e))?;
                forward(link_rx, eboard_input(kind, wrap), tx.clone());
                link.into()
            }
        };
        Ok(Some(link))
    }
}

fn own(at_ms: u64, event: Event) -> OwnBoardInput {
    OwnBoardInput { at_ms, event }
}

/// An e-board's report in the player's own seat, sent on as `wrap` makes
/// it: a board that knows its pieces to the recognizer, an occupancy-only
/// one (the Pegasus) to the peg-board's tracker; what is nothing to the
/// session (an acknowledgement) as a tick.
fn eboard_input<M: 'static>(
    kind: Kind,
    wrap: fn(OwnBoardInput) -> M,
) -> impl Fn(BoardInput<crate::eboard::Message>) -> M + Send + 'static {
    move |i| {
        let event = Event::own_eboard(kind, i.event).unwrap_or(Event::Tick);
        wrap(own(i.at_ms, event))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Parser)]
    struct Cli {
        #[command(flatten)]
        board: OwnBoardArgs,
    }

    fn reach(args: &[&str]) -> Result<Reach, clap::Error> {
        let cli = Cli::try_parse_from([&["rochade"], args].concat())?;
        Ok(Reach::of(cli.board.format))
    }

    #[test]
    fn every_board_track_reads_is_reached_as_the_window_reaches_it() {
        let port = ["--board", "AA:BB:CC:DD:EE:FF"];
        assert_eq!(reach(&port).unwrap(), Reach::Peg(Format::Peg), "default");
        let older = [&port[..], &["--board-format", "sentio"]].concat();
        assert_eq!(reach(&older).unwrap(), Reach::Peg(Format::Sentio));
        for (name, want) in [
            ("LiBoard", Reach::Peg(Format::LiBoard)),
            ("dgt", Reach::Serial(Kind::Dgt)),
            ("millennium", Reach::Serial(Kind::Millennium)),
            ("certabo", Reach::Serial(Kind::Certabo)),
            ("chessnut", Reach::Bluetooth(Kind::Chessnut)),
            ("Pegasus", Reach::Bluetooth(Kind::Pegasus)),
        ] {
            let args = [&port[..], &["--format", name]].concat();
            assert_eq!(reach(&args).expect("parses"), want, "{name}");
        }
        let unknown = reach(&[&port[..], &["--format", "novag"]].concat()).unwrap_err();
        assert!(
            unknown.to_string().contains("millennium"),
            "the known names are said: {unknown}"
        );
        assert!(
            reach(&["--format", "millennium"]).is_err(),
            "a format without a board"
        );
    }
}
