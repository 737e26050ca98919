//! `rochade board-sim`: a simulated peg-board on a pseudo-terminal.
//!
//! Prints the device path on the first line of stdout, then reads commands
//! from stdin (`lift e2`, `place e4`, `move e2e4`, `setup start`, `glitch e5`,
//! `quit`, ...; `help` lists them) and sends snapshots on every change and
//! heartbeats, and answers `?` and `I?`, exactly as a board would. With
//! `--format dgt` it is a DGT e-board instead (see [`super::dgt`]): it
//! answers the DGT commands and sends field updates in update mode; with
//! `--format millennium` a Millennium ChessLink (see [`super::eboard_sim`]);
//! with `--format certabo` a Certabo board (see `super::certabo_sim`).

// The simulators stand on pseudo-terminals, which Windows does not have:
// there `board-sim` says so (tests that use it are Unix-only, see
// docs/windows.md).
#![cfg_attr(not(unix), allow(unused_imports, dead_code))]

use std::io::{Read, Write};
use std::path::PathBuf;
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::time::Duration;

#[cfg(unix)]
use serialport::{SerialPort, TTYPort};

use super::follow::{CommandError, FormatArg, typed_commands};
use super::{CliError, CliResult};
use crate::board::sim::{self, SimBoard, SimCommand};
use crate::eboard::Kind;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// Wire format: peg (this app's protocol), liboard, sentio, or an
    /// e-board: dgt, millennium or certabo.
    #[arg(long, default_value = "peg")]
    pub format: FormatArg,
    /// Also create a symbolic link with this name pointing at the device
    /// (replaced if it exists), like /dev/serial/by-id does for real boards.
    #[arg(long)]
    pub link: Option<PathBuf>,
    /// Send `P` lines (piece identities) as a board with coded pegs would.
    #[arg(long)]
    pub pieces: bool,
    /// Start with this position (`start`, `empty` or a FEN) instead of the
    /// start position, e.g. a board plugged back in mid-game.
    #[arg(long)]
    pub setup: Option<String>,
}

/// The formats `board-sim` emulates, as `--format` names them.
const EMULATED: &str = "peg, liboard, sentio, dgt, millennium or certabo";

/// Whether `board-sim` emulates boards of `format`.
fn emulates(format: FormatArg) -> bool {
    match format {
        FormatArg::Board(_) => true,
        FormatArg::EBoard(kind) => matches!(kind, Kind::Millennium | Kind::Certabo | Kind::Dgt),
    }
}

#[cfg(not(unix))]
pub fn run(args: Args) -> CliResult {
    let _ = args;
    Err(CliError::input(
        "board-sim needs a pseudo-terminal, which Windows does not have: run it on Linux or macOS",
    ))
}

#[cfg(unix)]
pub fn run(args: Args) -> CliResult {
    // Refused before a port is made and printed: a program reading the
    // first line as the port would otherwise open one that is gone.
    if !emulates(args.format) {
        return Err(CliError::input(format!(
            "no simulated {} board: board-sim emulates {EMULATED}",
            super::track::format_name(args.format)
        )));
    }
    let (mut master, slave) = TTYPort::pair()
        .map_err(|e| CliError::failure(format!("cannot create a pseudo-terminal: {e}")))?;
    let path = slave
        .name()
        .ok_or_else(|| CliError::failure("the pseudo-terminal has no name"))?;
    if let Some(link) = &args.link {
        let _ = std::fs::remove_file(link);
        std::os::unix::fs::symlink(&path, link)
            .map_err(|e| CliError::failure(format!("cannot link {}: {e}", link.display())))?;
    }
    {
        let mut stdout = std::io::stdout().lock();
        writeln!(stdout, "{path}")?;
        stdout.flush()?;
    }
    // Writes time out rather than block when nobody reads the other side:
    // a real board's bytes are lost then too.
    master
        .set_timeout(Duration::from_millis(50))
        .map_err(|e| CliError::failure(e.to_string()))?;
    let format = match args.format {
        FormatArg::Board(format) => format,
        FormatArg::EBoard(kind) => {
            let setup = args.setup.as_deref();
            let master = match kind {
                Kind::Millennium => super::eboard_sim::millennium(master, setup)?,
                Kind::Certabo => super::certabo_sim::board_sim(master, setup)?,
                Kind::Dgt => super::dgt::board_sim(master, setup)?,
                other => {
                    return Err(CliError::input(format!(
                        "no simulated {other} board: board-sim emulates {EMULATED}"
                    )));
                }
            };
            return finish(&args, master, slave);
        }
    };
    let mut reader = master
        .try_clone_native()
        .map_err(|e| CliError::failure(e.to_string()))?;

    let mut board = SimBoard::new(format);
    if let Some(setup) = &args.setup {
        let cmd = sim::parse_command(&format!("setup {setup}")).map_err(CliError::input)?;
        board.apply(&cmd).map_err(CliError::input)?;
    }
    if args.pieces {
        board
            .apply(&SimCommand::Pieces(true))
            .map_err(CliError::failure)?;
    }
    // What the board last sent as its state: heartbeats and `?` repeat it
    // (the model is already at the end of a `move` while its steps play out).
    let last_sent = Arc::new(Mutex::new(board.snapshot()));
    let board = Arc::new(Mutex::new(board));
    let (wire, wire_rx) = mpsc::channel::<Vec<u8>>();

    // Writer: the only thread writing to the master side.
    std::thread::spawn(move || {
        for bytes in wire_rx {
            let _ = master.write_all(&bytes);
        }
    });

    // Heartbeat.
    if format.has_heartbeat() {
        let last_sent = last_sent.clone();
        let wire = wire.clone();
        std::thread::spawn(move || {
            loop {
                std::thread::sleep(Duration::from_millis(sim::HEARTBEAT_MS));
                let bytes = last_sent.lock().map(|b| b.clone()).unwrap_or_default();
                if wire.send(bytes).is_err() {
                    return;
                }
            }
        });
    }

    // Host commands (`?`, `I?`).
    {
        let board = board.clone();
        let last_sent = last_sent.clone();
        let wire = wire.clone();
        std::thread::spawn(move || {
            let mut line = Vec::new();
            let mut buf = [0u8; 64];
            loop {
                match reader.read(&mut buf) {
                    Ok(n) => {
                        for &b in &buf[..n] {
                            if b == b'\n' {
                                let reply = match crate::board::HostCommand::parse(&line) {
                                    Some(crate::board::HostCommand::Snapshot) => {
                                        last_sent.lock().ok().map(|b| b.clone())
                                    }
                                    _ => board.lock().ok().and_then(|bd| bd.answer(&line)),
                                };
                                if let Some(reply) = reply {
                                    let _ = wire.send(reply);
                                }
                                line.clear();
                            } else if line.len() < 64 {
                                line.push(b);
                            }
                        }
                    }
                    Err(e) if e.kind() == std::io::ErrorKind::TimedOut => {}
                    Err(_) => std::thread::sleep(Duration::from_millis(50)),
                }
            }
        });
    }

    // Send the start position at once, as a board does when powered up.
    let _ = wire.send(last_sent.lock().map(|b| b.clone()).unwrap_or_default());

    typed_commands(
        &wire,
        |cmd| {
            Ok(board
                .lock()
                .map_err(|_| CommandError::Poisoned)?
                .apply(cmd)?)
        },
        |cmd, bytes| {
            if !matches!(cmd, SimCommand::Fault(_))
                && let Ok(mut last) = last_sent.lock()
            {
                *last = bytes.to_vec();
            }
        },
    )?;
    finish(&args, (), slave)
}

/// Removes the link, lets the writer drain, then closes the terminal.
#[cfg(unix)]
fn finish<T>(args: &Args, master: T, slave: TTYPort) -> CliResult {
    if let Some(link) = &args.link {
        let _ = std::fs::remove_file(link);
    }
    // Let the writer drain before the process (and the master side) goes.
    std::thread::sleep(Duration::from_millis(100));
    drop(master);
    drop(slave);
    Ok(())
}
