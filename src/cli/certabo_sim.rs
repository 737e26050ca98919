//! `rochade board-sim --format certabo`: the Certabo emulator
//! ([`crate::eboard::certabo_sim`]) on a pseudo-terminal. It starts with
//! the starting position and the spare queens on d3 and d6, ready to be
//! calibrated; the first typed change puts the spare queens beside the
//! board (the hands' board has none). It streams a scan line every 250 ms
//! whatever happens, and takes the host's LED bytes.

use std::io::{Read, Write};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use super::CliError;
use super::follow::{CommandError, typed_commands};
use crate::board::sim::SimCommand;
use crate::board::{Decoder, Format, PegMessage};
use crate::eboard::certabo_sim::CertaboSim;

/// Runs the board on `master` (already announced on stdout) until `quit`
/// or the end of input.
pub fn board_sim(
    master: serialport::TTYPort,
    setup: Option<&str>,
) -> Result<serialport::TTYPort, CliError> {
    let (mut reader, mut writer, mut hands) = super::eboard_sim::open(&master, setup)?;
    let mut board = CertaboSim::new(0xCE27AB0, true);
    if setup.is_some() {
        board
            .set_pieces(hands.pieces())
            .map_err(|e| CliError::input(e.to_string()))?;
    }
    let board = Arc::new(Mutex::new(board));
    // The host's LED bytes.
    {
        let board = board.clone();
        std::thread::spawn(move || {
            let mut buf = [0u8; 64];
            loop {
                match reader.read(&mut buf) {
                    Ok(n) => match board.lock() {
                        Ok(mut b) => b.receive(&buf[..n]),
                        Err(_) => return,
                    },
                    Err(e) if e.kind() == std::io::ErrorKind::TimedOut => {}
                    Err(_) => std::thread::sleep(Duration::from_millis(50)),
                }
            }
        });
    }
    // The scans, in real time.
    {
        let board = board.clone();
        let epoch = Instant::now();
        std::thread::spawn(move || {
            loop {
                let lines = match board.lock() {
                    Ok(mut b) => b.scans_until(epoch.elapsed().as_millis() as u64),
                    Err(_) => return,
                };
                for (_, line) in lines {
                    // A line nobody reads is lost, as on the real board.
                    let _ = writer.write_all(&line);
                }
                std::thread::sleep(Duration::from_millis(10));
            }
        });
    }
    // Each state the hands pass through is what stands on the board.
    let (hand_states, _) = std::sync::mpsc::channel::<Vec<u8>>();
    let mut states = Decoder::new(Format::Peg);
    typed_commands(
        &hand_states,
        |cmd| match cmd {
            SimCommand::Fault(_) => Err(CommandError::NoFaults),
            SimCommand::Pieces(_) | SimCommand::Send => Ok(Vec::new()),
            cmd => Ok(hands.apply(cmd)?),
        },
        |_, bytes| {
            for m in states.push_collect(bytes) {
                if let PegMessage::Pieces(now) = m
                    && let Ok(mut b) = board.lock()
                    && let Err(e) = b.set_pieces(&now)
                {
                    eprintln!("rochade: {e}: the square stays empty");
                }
            }
        },
    )?;
    Ok(master)
}
