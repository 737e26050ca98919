//! `rochade board-sim --format millennium`: a simulated full-position
//! e-board on a pseudo-terminal, driven by the simulator's typed commands
//! (`move e2e4`, `lift e2`, `place e4`, `setup start`, ...). Each board's
//! emulator lives in the core; this file only gives it a clock and the
//! pseudo-terminal: a thread that answers the host's commands, a thread
//! that runs the board's scans in real time, and one writer. [`open`] gives
//! every e-board emulator its ends of the pseudo-terminal and the hands
//! (the Certabo's is in `certabo_sim`).
//!
//! The Millennium ChessLink ([`crate::eboard::millennium_sim`]) starts as
//! the real board powers up: a status on every scan until the host asks
//! for reports on change.

use std::io::{Read, Write};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use super::CliError;
use super::follow::{CommandError, typed_commands};
use crate::board::sim::{self, SimBoard, SimCommand};
use crate::board::{Decoder, Format, PegMessage};
use crate::eboard::millennium_sim::MillenniumSim;

/// How often the scanning thread catches the emulator's scans up with
/// the clock (the board scans every 30 to 520 ms).
const SCAN_TICK: Duration = Duration::from_millis(5);

/// An emulator's two ends of the pseudo-terminal (one read, one written)
/// and the hands: the simulator's board, which knows its pieces, set up
/// as `setup` says.
pub(super) fn open(
    master: &serialport::TTYPort,
    setup: Option<&str>,
) -> Result<(serialport::TTYPort, serialport::TTYPort, SimBoard), CliError> {
    let clone = || {
        master
            .try_clone_native()
            .map_err(|e| CliError::failure(e.to_string()))
    };
    let (reader, writer) = (clone()?, clone()?);
    let mut hands = SimBoard::new(Format::Peg);
    let _ = hands.apply(&SimCommand::Pieces(true));
    if let Some(setup) = setup {
        let cmd = sim::parse_command(&format!("setup {setup}")).map_err(CliError::input)?;
        hands.apply(&cmd).map_err(CliError::input)?;
    }
    Ok((reader, writer, hands))
}

/// Runs the Millennium ChessLink on the pseudo-terminal `master` (already
/// announced on stdout) until `quit` or the end of input.
pub(super) fn millennium(
    mut master: serialport::TTYPort,
    setup: Option<&str>,
) -> Result<serialport::TTYPort, CliError> {
    let (mut reader, mut writer, mut hands) = open(&master, setup)?;
    let mut board = MillenniumSim::new();
    board.set_pieces(hands.pieces());
    let board = Arc::new(Mutex::new(board));
    let epoch = Instant::now();
    let now_ms = move || epoch.elapsed().as_millis() as u64;
    let (wire, wire_rx) = mpsc::channel::<Vec<u8>>();
    std::thread::spawn(move || {
        for bytes in wire_rx {
            let _ = writer.write_all(&bytes);
        }
    });
    // The host's commands, answered at once.
    {
        let board = board.clone();
        let wire = wire.clone();
        std::thread::spawn(move || {
            let mut buf = [0u8; 256];
            loop {
                match reader.read(&mut buf) {
                    Ok(n) => {
                        let answer = match board.lock() {
                            Ok(mut b) => b.receive(now_ms(), &buf[..n]),
                            Err(_) => return,
                        };
                        if !answer.is_empty() && wire.send(answer).is_err() {
                            return;
                        }
                    }
                    Err(e) if e.kind() == std::io::ErrorKind::TimedOut => {}
                    Err(_) => std::thread::sleep(Duration::from_millis(50)),
                }
            }
        });
    }
    // The board's scans, in real time: its automatic status reports.
    {
        let board = board.clone();
        let wire = wire.clone();
        std::thread::spawn(move || {
            loop {
                let sent = match board.lock() {
                    Ok(mut b) => b.scan_until(now_ms()),
                    Err(_) => return,
                };
                for (_, status) in sent {
                    if wire.send(status).is_err() {
                        return;
                    }
                }
                std::thread::sleep(SCAN_TICK);
            }
        });
    }
    // Each state the hands pass through (a peg-format line with pieces)
    // is what stands on the board from then on; the board's own scans
    // report it. The peg lines themselves go nowhere.
    let (hand_states, _) = mpsc::channel::<Vec<u8>>();
    let mut states = Decoder::new(Format::Peg);
    typed_commands(
        &hand_states,
        |cmd| match cmd {
            SimCommand::Fault(_) => Err(CommandError::NoFaults),
            // The board always knows its pieces.
            SimCommand::Pieces(_) => Ok(Vec::new()),
            SimCommand::Send => {
                let status = board.lock().map_err(|_| CommandError::Poisoned)?.status();
                let _ = wire.send(status);
                Ok(Vec::new())
            }
            cmd => Ok(hands.apply(cmd)?),
        },
        |_, bytes| {
            for m in states.push_collect(bytes) {
                if let PegMessage::Pieces(now) = m
                    && let Ok(mut b) = board.lock()
                {
                    b.set_pieces(&now);
                }
            }
        },
    )?;
    let _ = master.flush();
    Ok(master)
}
