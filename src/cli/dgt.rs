//! `rochade board-sim --format dgt`: a simulated DGT board on a
//! pseudo-terminal. (`rochade track --format dgt` follows a DGT board as
//! every other e-board is followed: [`super::track_eboard`].)

#![cfg_attr(not(unix), allow(unused_imports))]

use std::io::{Read, Write};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use super::CliError;
use super::follow::CommandError;
use crate::board::sim::{self, SimCommand};
use crate::dgt::sim::DgtSim;

/// `rochade board-sim --format dgt`: the pseudo-terminal `pty` (already
/// announced on stdout) becomes a DGT board driven by typed commands.
#[cfg(unix)]
pub fn board_sim(
    mut master: serialport::TTYPort,
    setup: Option<&str>,
) -> Result<serialport::TTYPort, CliError> {
    let mut reader = master
        .try_clone_native()
        .map_err(|e| CliError::failure(e.to_string()))?;
    let mut board = DgtSim::new();
    if let Some(setup) = setup {
        let cmd = sim::parse_command(&format!("setup {setup}")).map_err(CliError::input)?;
        board.apply(&cmd).map_err(CliError::input)?;
    }
    let board = Arc::new(Mutex::new(board));
    let (wire, wire_rx) = mpsc::channel::<Vec<u8>>();
    let writer = master
        .try_clone_native()
        .map_err(|e| CliError::failure(e.to_string()))?;
    std::thread::spawn(move || {
        let mut writer = writer;
        for bytes in wire_rx {
            let _ = writer.write_all(&bytes);
        }
    });
    // Host commands: one byte each, answered at once.
    {
        let board = board.clone();
        let wire = wire.clone();
        std::thread::spawn(move || {
            let mut buf = [0u8; 64];
            loop {
                match reader.read(&mut buf) {
                    Ok(n) => {
                        for &b in &buf[..n] {
                            let reply = board.lock().ok().and_then(|mut bd| bd.answer(b));
                            if let Some(reply) = reply {
                                let _ = wire.send(reply);
                            }
                        }
                    }
                    Err(e) if e.kind() == std::io::ErrorKind::TimedOut => {}
                    Err(_) => std::thread::sleep(Duration::from_millis(50)),
                }
            }
        });
    }
    super::follow::typed_commands(
        &wire,
        |cmd| match cmd {
            SimCommand::Fault(_) => Err(CommandError::NoFaults),
            cmd => Ok(board
                .lock()
                .map_err(|_| CommandError::Poisoned)?
                .apply(cmd)?),
        },
        |_, _| {},
    )?;
    let _ = master.flush();
    Ok(master)
}
