//! The Millennium ChessLink emulator (the core's `MillenniumSim`, its
//! parity checked as a 7O1 UART checks it) on a real pseudo-terminal, in this process: a thread reads what the host writes,
//! hands it to the emulator with the time since start, writes its answers
//! and its automatic scan reports back. The test's hands set pieces; the
//! LEDs the host last set are read back.
//!
//! Included with `#[path]`: `#[path = "support/millennium_pty.rs"] mod millennium_pty;`.
#![allow(dead_code)]

use std::io::{Read, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use rochade::eboard::millennium_sim::MillenniumSim;
use serialport::{SerialPort, TTYPort};
use shakmaty::{Bitboard, Piece, Square};

pub struct MillenniumPty {
    /// The pseudo-terminal the host opens.
    pub device: String,
    board: Arc<Mutex<MillenniumSim>>,
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
    /// Kept open so the emulator's side never reads an error while the
    /// host has the port closed (between probes, before the link opens).
    _slave: TTYPort,
}

impl MillenniumPty {
    /// A board with the start position set up, on a new pseudo-terminal.
    pub fn start() -> MillenniumPty {
        let (mut master, slave) = TTYPort::pair().expect("a pseudo-terminal");
        let device = slave.name().expect("its name");
        master
            .set_timeout(Duration::from_millis(5))
            .expect("a read timeout");
        // As a real board's 7O1 UART meets the host's 8N1 port through a
        // bridge that passes the bits: a host byte without its odd-parity
        // bit is lost, the board's bytes come with theirs.
        let board = Arc::new(Mutex::new(MillenniumSim::on_parity_line()));
        let stop = Arc::new(AtomicBool::new(false));
        let thread = {
            let board = board.clone();
            let stop = stop.clone();
            std::thread::Builder::new()
                .name("millennium-emulator".into())
                .spawn(move || serve(&mut master, &board, &stop))
                .expect("the emulator's thread")
        };
        MillenniumPty {
            device,
            board,
            stop,
            thread: Some(thread),
            _slave: slave,
        }
    }

    /// A hand sets `piece` on `square` (or lifts what stood there).
    pub fn set(&self, square: Square, piece: Option<Piece>) {
        self.board.lock().unwrap().set(square, piece);
    }

    /// The squares whose LEDs the host lit last (empty: dark).
    pub fn lit(&self) -> Bitboard {
        self.board.lock().unwrap().lights().squares()
    }

    /// The last LED frame the host set: each LED's flash pattern (LED 1
    /// first, 0: dark).
    pub fn leds(&self) -> [u8; rochade::eboard::millennium::LEDS] {
        self.board.lock().unwrap().lights().leds
    }

    /// The commands the board carried out, by letter.
    pub fn commands(&self) -> Vec<u8> {
        self.board.lock().unwrap().commands.clone()
    }

    /// The board reports its status h1 first (turned round) from now on.
    pub fn report_h1_first(&self) {
        self.board.lock().unwrap().h1_first = true;
    }

    /// Host bytes the board lost to a wrong parity bit.
    pub fn parity_errors(&self) -> u64 {
        self.board.lock().unwrap().parity_errors
    }

    pub fn pieces(&self) -> rochade::eboard::Pieces {
        *self.board.lock().unwrap().pieces()
    }
}

impl Drop for MillenniumPty {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

fn serve(master: &mut TTYPort, board: &Mutex<MillenniumSim>, stop: &AtomicBool) {
    let start = Instant::now();
    let mut buf = [0u8; 256];
    while !stop.load(Ordering::Relaxed) {
        // A timeout (no host byte) reads as nothing.
        let got: usize = master.read(&mut buf).unwrap_or_default();
        let now = start.elapsed().as_millis() as u64;
        let mut out = Vec::new();
        {
            let mut board = board.lock().unwrap();
            if got > 0 {
                out.extend(board.receive(now, &buf[..got]));
            }
            for (_, report) in board.scan_until(now) {
                out.extend(report);
            }
        }
        if !out.is_empty() {
            // The host may have closed its side: its next open reads on.
            let _ = master.write_all(&out);
        }
        if got == 0 {
            // No host byte: the read's timeout paced the loop already.
            std::thread::yield_now();
        }
    }
}
