//! The board link: a thread that owns the serial port, decodes what the
//! board sends, writes the board log, and reports to whoever drives the
//! session over a channel. It notices a lost link (read error, unplugged
//! device, no heartbeat for 3 s), keeps trying to reopen the port, and asks
//! for a snapshot as soon as the board is back, so the session re-checks
//! the board against the game. The game itself never depends on the link.

use std::fs::{File, OpenOptions};
use std::io::{BufWriter, ErrorKind, Read, Write};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, Sender, TryRecvError};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use crate::board::{BoardMessage, Decoder, DecoderStats, Format, HostCommand, log};
use crate::session::board::BoardEvent;

/// What kind of board is on the line.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Wire {
    /// A peg-board, in [`LinkConfig::format`].
    #[default]
    PegBoard,
    /// A DGT e-board (the sighted player's board): one-byte commands,
    /// binary messages logged per chunk as `hex:`, kept alive by asking
    /// for its serial number every second.
    Dgt,
}

/// How often a DGT board is asked for its serial number (keep-alive).
pub const DGT_KEEP_ALIVE_MS: u64 = 1000;

/// How to reach the board.
#[derive(Clone, Debug)]
pub struct LinkConfig {
    /// Device path (`/dev/ttyACM0`, a pseudo-terminal, `COM3`).
    pub port: String,
    pub baud: u32,
    pub format: Format,
    /// Peg-board or DGT board.
    pub wire: Wire,
    /// Silence after which the link counts as lost (formats with a heartbeat).
    pub heartbeat_timeout_ms: u64,
    /// How often to try reopening a port that went away.
    pub reconnect_ms: u64,
    /// Where to append the board log, if anywhere.
    pub log: Option<PathBuf>,
    /// Time zero for timestamps and the board log: share it with the session driver.
    pub epoch: Instant,
}

impl LinkConfig {
    pub fn new(port: impl Into<String>, format: Format) -> LinkConfig {
        LinkConfig {
            port: port.into(),
            baud: format.default_baud(),
            format,
            wire: Wire::PegBoard,
            heartbeat_timeout_ms: 3000,
            reconnect_ms: 500,
            log: None,
            epoch: Instant::now(),
        }
    }

    /// A DGT e-board on `port` (9600 baud).
    pub fn dgt(port: impl Into<String>) -> LinkConfig {
        LinkConfig {
            baud: crate::dgt::protocol::BAUD,
            wire: Wire::Dgt,
            ..LinkConfig::new(port, Format::Peg)
        }
    }

    /// The format name the board log's header gives.
    pub fn format_name(&self) -> &'static str {
        match self.wire {
            Wire::PegBoard => self.format.code(),
            Wire::Dgt => "dgt",
        }
    }

    /// Whether silence means a lost link (a DGT board answers its
    /// keep-alive; LiBoard only sends on change).
    fn has_heartbeat(&self) -> bool {
        self.wire == Wire::Dgt || self.format.has_heartbeat()
    }

    /// The bytes that carry a command to this board.
    fn command_bytes(&self, cmd: HostCommand) -> &'static [u8] {
        use crate::dgt::Command as Dgt;
        match (self.wire, cmd) {
            (Wire::PegBoard, cmd) => cmd.line(),
            (Wire::Dgt, HostCommand::Snapshot) => Dgt::SendBoard.as_slice(),
            (Wire::Dgt, HostCommand::Ident) => Dgt::SerialNumber.as_slice(),
        }
    }
}

/// The decoder for a link's wire.
enum WireDecoder {
    Board(Decoder),
    Dgt(crate::dgt::Decoder),
}

impl WireDecoder {
    fn new(cfg: &LinkConfig) -> WireDecoder {
        match cfg.wire {
            Wire::PegBoard => WireDecoder::Board(Decoder::new(cfg.format)),
            Wire::Dgt => WireDecoder::Dgt(crate::dgt::Decoder::new()),
        }
    }

    /// Decodes a chunk into `messages`, writing the board log: one line per
    /// frame for peg-boards, one `hex:` line per chunk for a DGT board.
    fn push(
        &mut self,
        at: u64,
        bytes: &[u8],
        mut log: Option<&mut BufWriter<File>>,
        messages: &mut Vec<BoardMessage>,
    ) {
        match self {
            WireDecoder::Board(decoder) => {
                let force_hex = !decoder.format().is_line_based();
                decoder.push(bytes, |frame| {
                    if let Some(w) = log.as_mut() {
                        let _ =
                            w.write_all(log::format_entry(at, frame.bytes, force_hex).as_bytes());
                    }
                    if let Ok(m) = frame.result {
                        messages.push(m);
                    }
                });
            }
            WireDecoder::Dgt(decoder) => {
                if let Some(w) = log.as_mut() {
                    let _ = w.write_all(log::format_entry(at, bytes, true).as_bytes());
                }
                decoder.push(bytes, |m| messages.push(BoardMessage::Dgt(m)));
            }
        }
        if let Some(w) = log {
            let _ = w.flush();
        }
    }

    fn stats(&self) -> DecoderStats {
        match self {
            WireDecoder::Board(decoder) => decoder.stats(),
            WireDecoder::Dgt(decoder) => {
                let s = decoder.stats();
                DecoderStats {
                    frames: s.messages + s.dropped(),
                    messages: s.messages,
                    garbage: s.dropped(),
                    ..DecoderStats::default()
                }
            }
        }
    }

    fn idle(&mut self) {
        if let WireDecoder::Board(decoder) = self {
            decoder.idle();
        }
    }
}

/// One report from the link, stamped with milliseconds since the epoch.
#[derive(Clone, Debug, PartialEq)]
pub struct BoardInput {
    pub at_ms: u64,
    pub event: BoardEvent,
}

/// What the GUI's diagnostics view shows.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LinkStatus {
    pub port: String,
    pub format: Option<Format>,
    /// The port is open and the board is talking.
    pub connected: bool,
    /// Decoder counters over the life of the link (all connections).
    pub stats: DecoderStats,
    /// Times the link was lost.
    pub losses: u64,
    pub last_error: Option<String>,
    /// The board's `I` line, if it sent one.
    pub ident: Option<String>,
}

/// The board log, shared by the link thread (frames) and the session's
/// driver (decisions, as comments).
type SharedLog = Arc<Mutex<Option<BufWriter<File>>>>;

/// A running link. Dropping it stops the thread.
pub struct Link {
    stop: Arc<AtomicBool>,
    commands: Sender<HostCommand>,
    status: Arc<Mutex<LinkStatus>>,
    log: SharedLog,
    thread: Option<JoinHandle<()>>,
}

/// A port the system lists (pseudo-terminals are not listed: type their path).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PortInfo {
    pub name: String,
    pub description: String,
}

/// Serial ports the system knows about.
pub fn list_ports() -> Vec<PortInfo> {
    let Ok(ports) = serialport::available_ports() else {
        return Vec::new();
    };
    ports
        .into_iter()
        .map(|p| {
            let description = match p.port_type {
                serialport::SerialPortType::UsbPort(u) => {
                    let name = [u.manufacturer, u.product]
                        .into_iter()
                        .flatten()
                        .collect::<Vec<_>>()
                        .join(" ");
                    format!("USB {:04x}:{:04x} {name}", u.vid, u.pid)
                        .trim()
                        .to_owned()
                }
                serialport::SerialPortType::PciPort => "PCI".into(),
                serialport::SerialPortType::BluetoothPort => "Bluetooth".into(),
                serialport::SerialPortType::Unknown => String::new(),
            };
            PortInfo {
                name: p.port_name,
                description,
            }
        })
        .collect()
}

impl Link {
    /// Starts the link thread. Reports go to `tx`; the thread ends when the
    /// link is dropped or stopped, or when `tx`'s receiver is gone.
    pub fn spawn(cfg: LinkConfig, tx: Sender<BoardInput>) -> std::io::Result<Link> {
        let stop = Arc::new(AtomicBool::new(false));
        let (commands, command_rx) = mpsc::channel();
        let status = Arc::new(Mutex::new(LinkStatus {
            port: cfg.port.clone(),
            format: Some(cfg.format),
            ..LinkStatus::default()
        }));
        let log = match &cfg.log {
            Some(path) => {
                let file = OpenOptions::new().create(true).append(true).open(path)?;
                let mut w = BufWriter::new(file);
                writeln!(
                    w,
                    "# rochade board log format={} baud={} port={}",
                    cfg.format_name(),
                    cfg.baud,
                    cfg.port
                )?;
                w.flush()?;
                Some(w)
            }
            None => None,
        };
        let log = Arc::new(Mutex::new(log));
        let worker = Worker {
            cfg,
            tx,
            commands: command_rx,
            stop: stop.clone(),
            status: status.clone(),
            log: log.clone(),
            decoder_totals: DecoderStats::default(),
        };
        let thread = std::thread::Builder::new()
            .name("board-link".into())
            .spawn(move || worker.run())?;
        Ok(Link {
            stop,
            commands,
            status,
            log,
            thread: Some(thread),
        })
    }

    /// Sends a command to the board (queued if the link is down).
    pub fn send(&self, cmd: HostCommand) {
        let _ = self.commands.send(cmd);
    }

    /// Writes a line of the session's own into the board log (if one is
    /// kept), as a comment a replay skips: what the tracker decided, so an
    /// arbiter reads the board's frames and the app's decisions together.
    pub fn note(&self, at_ms: u64, text: &str) {
        if let Ok(mut log) = self.log.lock()
            && let Some(w) = log.as_mut()
        {
            let _ = w.write_all(log::format_note(at_ms, text).as_bytes());
            let _ = w.flush();
        }
    }

    pub fn status(&self) -> LinkStatus {
        self.status.lock().map(|s| s.clone()).unwrap_or_default()
    }

    /// Stops the thread and waits for it.
    pub fn stop(mut self) {
        self.shutdown();
    }

    fn shutdown(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

impl Drop for Link {
    fn drop(&mut self) {
        self.shutdown();
    }
}

/// Read timeout: short, so a LiBoard frame fragment is dropped quickly and
/// commands and stop requests are handled promptly.
const READ_TIMEOUT: Duration = Duration::from_millis(20);

struct Worker {
    cfg: LinkConfig,
    tx: Sender<BoardInput>,
    commands: Receiver<HostCommand>,
    stop: Arc<AtomicBool>,
    status: Arc<Mutex<LinkStatus>>,
    log: SharedLog,
    decoder_totals: DecoderStats,
}

enum Outcome {
    Stop,
    Lost(String),
}

impl Worker {
    fn now(&self) -> u64 {
        self.cfg.epoch.elapsed().as_millis() as u64
    }

    fn report(&self, event: BoardEvent) -> bool {
        self.tx
            .send(BoardInput {
                at_ms: self.now(),
                event,
            })
            .is_ok()
    }

    fn set_status(&self, f: impl FnOnce(&mut LinkStatus)) {
        if let Ok(mut s) = self.status.lock() {
            f(&mut s);
        }
    }

    fn stopping(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    fn run(mut self) {
        // Whether the session has been told the link is down (so each loss
        // is reported once, and a first failed open is reported too).
        let mut reported_lost = false;
        while !self.stopping() {
            match serialport::new(&self.cfg.port, self.cfg.baud)
                .timeout(READ_TIMEOUT)
                .open()
            {
                Ok(port) => match self.serve(port, &mut reported_lost) {
                    Outcome::Stop => return,
                    Outcome::Lost(reason) => {
                        let was_up = !reported_lost;
                        self.set_status(|s| {
                            s.connected = false;
                            s.losses += u64::from(was_up);
                            s.last_error = Some(reason.clone());
                        });
                        if !reported_lost {
                            reported_lost = true;
                            if !self.report(BoardEvent::LinkLost { reason }) {
                                return;
                            }
                        }
                    }
                },
                Err(e) => {
                    let reason = format!("cannot open {}: {e}", self.cfg.port);
                    if !reported_lost {
                        reported_lost = true;
                        self.set_status(|s| s.last_error = Some(reason.clone()));
                        if !self.report(BoardEvent::LinkLost { reason }) {
                            return;
                        }
                    }
                }
            }
            let until = Instant::now() + Duration::from_millis(self.cfg.reconnect_ms);
            while Instant::now() < until && !self.stopping() {
                std::thread::sleep(Duration::from_millis(10));
            }
        }
    }

    /// Talks to an open port until it fails or the link is stopped.
    fn serve(
        &mut self,
        mut port: Box<dyn serialport::SerialPort>,
        reported_lost: &mut bool,
    ) -> Outcome {
        let mut decoder = WireDecoder::new(&self.cfg);
        let mut buf = [0u8; 512];
        let opened = self.now();
        // The board counts as up once it has said something valid (a port
        // can open while the board is silent); LiBoard only talks on change,
        // so for it an open port is enough.
        let mut up = false;
        let mut last_valid = opened;
        let mut last_poke = opened;
        let mut last_keep_alive = opened;
        if !self.cfg.has_heartbeat() {
            up = true;
            *reported_lost = false;
            self.set_status(|s| s.connected = true);
            if !self.report(BoardEvent::LinkUp {
                port: self.cfg.port.clone(),
            }) {
                return Outcome::Stop;
            }
        }
        let greeting = match self.cfg.wire {
            Wire::PegBoard => HostCommand::Snapshot.line(),
            Wire::Dgt => &crate::dgt::protocol::start_sequence(),
        };
        if let Err(e) = port.write_all(greeting) {
            return Outcome::Lost(format!("write failed: {e}"));
        }
        loop {
            if self.stopping() {
                return Outcome::Stop;
            }
            loop {
                match self.commands.try_recv() {
                    Ok(cmd) => {
                        if let Err(e) = port.write_all(self.cfg.command_bytes(cmd)) {
                            return Outcome::Lost(format!("write failed: {e}"));
                        }
                    }
                    Err(TryRecvError::Empty) => break,
                    Err(TryRecvError::Disconnected) => break,
                }
            }
            match port.read(&mut buf) {
                Ok(0) => return Outcome::Lost("the device closed".into()),
                Ok(n) => {
                    let at = self.now();
                    let mut messages = Vec::new();
                    let mut log = self.log.lock().ok();
                    let writer = log.as_mut().and_then(|l| l.as_mut());
                    let dropped_before = decoder.stats().dropped();
                    decoder.push(at, &buf[..n], writer, &mut messages);
                    drop(log);
                    let totals = add(self.decoder_totals, decoder.stats());
                    self.set_status(|s| s.stats = totals);
                    let dropped = decoder.stats().dropped() - dropped_before;
                    if up
                        && dropped > 0
                        && !self.report(BoardEvent::LinesDropped { count: dropped })
                    {
                        return Outcome::Stop;
                    }
                    if !messages.is_empty() {
                        last_valid = at;
                        if !up {
                            up = true;
                            *reported_lost = false;
                            self.set_status(|s| s.connected = true);
                            if !self.report(BoardEvent::LinkUp {
                                port: self.cfg.port.clone(),
                            }) {
                                return Outcome::Stop;
                            }
                        }
                    }
                    for m in messages {
                        let ident = match &m {
                            BoardMessage::Ident(text) => Some(text.clone()),
                            BoardMessage::Dgt(crate::dgt::Message::Version { major, minor }) => {
                                Some(format!("DGT board, version {major}.{minor}"))
                            }
                            _ => None,
                        };
                        if let Some(text) = ident {
                            self.set_status(|s| s.ident = Some(text));
                        }
                        if !self.report(BoardEvent::Message(m)) {
                            return Outcome::Stop;
                        }
                    }
                }
                Err(e) if e.kind() == ErrorKind::TimedOut || e.kind() == ErrorKind::WouldBlock => {
                    decoder.idle();
                }
                Err(e) if e.kind() == ErrorKind::Interrupted => {}
                Err(e) => {
                    self.decoder_totals = add(self.decoder_totals, decoder.stats());
                    return Outcome::Lost(format!("read failed: {e}"));
                }
            }
            let now = self.now();
            if self.cfg.wire == Wire::Dgt
                && now.saturating_sub(last_keep_alive) >= DGT_KEEP_ALIVE_MS
            {
                last_keep_alive = now;
                if let Err(e) = port.write_all(self.cfg.command_bytes(HostCommand::Ident)) {
                    self.decoder_totals = add(self.decoder_totals, decoder.stats());
                    return Outcome::Lost(format!("write failed: {e}"));
                }
            }
            if self.cfg.has_heartbeat()
                && now.saturating_sub(last_valid) >= self.cfg.heartbeat_timeout_ms
            {
                if up {
                    up = false;
                    *reported_lost = true;
                    let reason = format!("no heartbeat for {} ms", self.cfg.heartbeat_timeout_ms);
                    self.set_status(|s| {
                        s.connected = false;
                        s.losses += 1;
                        s.last_error = Some(reason.clone());
                    });
                    if !self.report(BoardEvent::LinkLost { reason }) {
                        return Outcome::Stop;
                    }
                }
                // Keep asking: a board that is back answers at once.
                if now.saturating_sub(last_poke) >= self.cfg.reconnect_ms {
                    last_poke = now;
                    if let Err(e) = port.write_all(self.cfg.command_bytes(HostCommand::Snapshot)) {
                        self.decoder_totals = add(self.decoder_totals, decoder.stats());
                        return Outcome::Lost(format!("write failed: {e}"));
                    }
                }
            }
        }
    }
}

fn add(a: DecoderStats, b: DecoderStats) -> DecoderStats {
    DecoderStats {
        frames: a.frames + b.frames,
        messages: a.messages + b.messages,
        bad_checksum: a.bad_checksum + b.bad_checksum,
        too_long: a.too_long + b.too_long,
        garbage: a.garbage + b.garbage,
    }
}
