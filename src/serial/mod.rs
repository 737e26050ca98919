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

pub mod probe;
mod written;

pub(crate) use written::DroppedLines;
use written::write_memory_file;

use crate::board::{BoardReport, DecoderStats, Format, HostCommand, Protocol, log};
use crate::session::board::BoardEvent;

/// How often a DGT board is asked for its serial number (keep-alive).
pub const DGT_KEEP_ALIVE_MS: u64 = crate::dgt::wire::KEEP_ALIVE_MS;

/// How to reach the board, and which kind of board it is: `P` decodes
/// what it sends and encodes the host's commands (a peg-board format's
/// [`crate::board::Decoder`] or the DGT board's [`crate::dgt::Decoder`]).
#[derive(Clone, Debug)]
pub struct LinkConfig<P = crate::board::Decoder> {
    /// Device path (`/dev/ttyACM0`, a pseudo-terminal, `COM3`).
    pub port: String,
    pub baud: u32,
    /// The kind of board on the line.
    pub protocol: P,
    /// Silence after which the link counts as lost (boards with a heartbeat).
    pub heartbeat_timeout_ms: u64,
    /// How often to try reopening a port that went away.
    pub reconnect_ms: u64,
    /// Where to append the board log, if anywhere.
    pub log: Option<PathBuf>,
    /// Where what the decoder learns of the board is kept across runs (a
    /// Certabo board's chips), if anywhere: read when the link starts,
    /// written when it changes.
    pub memory_file: Option<PathBuf>,
    /// Time zero for timestamps and the board log: share it with the session driver.
    pub epoch: Instant,
}

impl LinkConfig {
    /// A peg-board in `format` on `port`.
    pub fn new(port: impl Into<String>, format: Format) -> LinkConfig {
        LinkConfig::with(port, crate::board::Decoder::new(format))
    }
}

impl LinkConfig<crate::dgt::Decoder> {
    /// A DGT e-board on `port` (9600 baud).
    pub fn dgt(port: impl Into<String>) -> LinkConfig<crate::dgt::Decoder> {
        LinkConfig::with(port, crate::dgt::Decoder::new())
    }
}

impl LinkConfig<crate::eboard::AnyDecoder> {
    /// A full-position e-board of `kind` on `port`, at its usual speed.
    pub fn eboard(
        port: impl Into<String>,
        kind: crate::eboard::Kind,
    ) -> LinkConfig<crate::eboard::AnyDecoder> {
        LinkConfig::with(port, crate::eboard::AnyDecoder::new(kind))
    }
}

/// Where a board of `kind` on one seat (`"mine"`, `"opponent"`) keeps what
/// its decoder learnt, under the user's config folder: a Certabo board's
/// chips (two Certabo boards, one per seat, each keep their own). `None`
/// for boards that learn nothing.
pub fn memory_file(kind: crate::eboard::Kind, seat: &str) -> Option<PathBuf> {
    if kind != crate::eboard::Kind::Certabo {
        return None;
    }
    Some(crate::paths::config_dir()?.join(format!("certabo-chips-{seat}.txt")))
}

impl<P: Protocol> LinkConfig<P> {
    /// A board of the kind `protocol` decodes on `port`, at its usual speed.
    pub fn with(port: impl Into<String>, protocol: P) -> LinkConfig<P> {
        LinkConfig {
            port: port.into(),
            baud: protocol.default_baud(),
            protocol,
            heartbeat_timeout_ms: 3000,
            reconnect_ms: 500,
            log: None,
            memory_file: None,
            epoch: Instant::now(),
        }
    }

    /// The format name the board log's header gives.
    pub fn format_name(&self) -> &'static str {
        self.protocol.name()
    }
}

/// One report from the link, stamped with milliseconds since the epoch;
/// `M` is the board's own message type.
#[derive(Clone, Debug, PartialEq)]
pub struct BoardInput<M = crate::board::PegMessage> {
    pub at_ms: u64,
    pub event: BoardEvent<M>,
}

/// What the GUI's diagnostics view shows.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LinkStatus {
    pub port: String,
    /// The board's format, as a board log's header names it.
    pub format: Option<&'static str>,
    /// The port is open and the board is talking.
    pub connected: bool,
    /// Decoder counters over the life of the link (all connections).
    pub stats: DecoderStats,
    /// Times the link was lost.
    pub losses: u64,
    /// Why the link is down, while it is (cleared when it is up again).
    pub last_error: Option<String>,
    /// Why what the board's decoder learnt (a Certabo board's chips) was
    /// not read from its file or not written to it; cleared by a write.
    pub memory_problem: Option<String>,
    /// The board's `I` line, if it sent one.
    pub ident: Option<String>,
}

/// The board log, shared by the link thread (frames) and the session's
/// driver (decisions, as comments).
pub(crate) type SharedLog = Arc<Mutex<Option<BufWriter<File>>>>;

/// What a board log's header names, and where the log goes (if anywhere).
pub(crate) struct LogHeader {
    pub port: String,
    pub format: &'static str,
    /// 0 for a link without a baud rate (Bluetooth LE).
    pub baud: u32,
    pub path: Option<PathBuf>,
}

/// What a link thread shares with its [`Link`]: the stop flag, the status
/// the window shows, the board log.
pub(crate) struct LinkShared {
    pub stop: Arc<AtomicBool>,
    pub status: Arc<Mutex<LinkStatus>>,
    pub log: SharedLog,
}

impl LinkShared {
    /// Changes the status the window shows.
    pub fn set_status(&self, f: impl FnOnce(&mut LinkStatus)) {
        if let Ok(mut s) = self.status.lock() {
            f(&mut s);
        }
    }

    /// Whether the handle asked the thread to stop.
    pub fn stopping(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }
}

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
    pub fn spawn<P: Protocol>(
        cfg: LinkConfig<P>,
        tx: Sender<BoardInput<P::Message>>,
    ) -> std::io::Result<Link> {
        let header = LogHeader {
            port: cfg.port.clone(),
            format: cfg.format_name(),
            baud: cfg.baud,
            path: cfg.log.clone(),
        };
        Link::start("board-link", header, move |shared, commands| {
            Worker {
                cfg,
                tx,
                commands,
                shared,
                decoder_totals: DecoderStats::default(),
                memory_kept: None,
            }
            .run()
        })
    }

    /// Starts a link thread named `name` (the serial one, or another
    /// transport's): its status and board log (header written) are set up
    /// here, and `run` gets what it shares with this handle and the host's
    /// commands.
    pub(crate) fn start(
        name: &str,
        header: LogHeader,
        run: impl FnOnce(LinkShared, Receiver<HostCommand>) + Send + 'static,
    ) -> std::io::Result<Link> {
        let stop = Arc::new(AtomicBool::new(false));
        let (commands, command_rx) = mpsc::channel();
        let status = Arc::new(Mutex::new(LinkStatus {
            port: header.port.clone(),
            format: Some(header.format),
            ..LinkStatus::default()
        }));
        let log = match &header.path {
            Some(path) => {
                // A board log holds the player's games: readable by the
                // user alone (0600), as the board-logs folder is.
                let mut options = OpenOptions::new();
                options.create(true).append(true);
                #[cfg(unix)]
                std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
                let file = options.open(path)?;
                let mut w = BufWriter::new(file);
                writeln!(
                    w,
                    "# rochade board log format={} baud={} port={}",
                    header.format, header.baud, header.port
                )?;
                w.flush()?;
                Some(w)
            }
            None => None,
        };
        let log = Arc::new(Mutex::new(log));
        let shared = LinkShared {
            stop: stop.clone(),
            status: status.clone(),
            log: log.clone(),
        };
        let thread = std::thread::Builder::new()
            .name(name.into())
            .spawn(move || run(shared, command_rx))?;
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

/// The largest memory file read (a Certabo calibration is about 1 KB).
const MEMORY_CAP: u64 = 64 * 1024;

/// Read timeout: short, so a LiBoard frame fragment is dropped quickly and
/// commands and stop requests are handled promptly.
const READ_TIMEOUT: Duration = Duration::from_millis(20);

struct Worker<P: Protocol> {
    cfg: LinkConfig<P>,
    tx: Sender<BoardInput<P::Message>>,
    commands: Receiver<HostCommand>,
    shared: LinkShared,
    decoder_totals: DecoderStats,
    /// The decoder's memory as last read from or written to the file.
    memory_kept: Option<String>,
}

enum Outcome {
    Stop,
    Lost(String),
}

impl<P: Protocol> Worker<P> {
    fn now(&self) -> u64 {
        self.cfg.epoch.elapsed().as_millis() as u64
    }

    fn report(&self, event: BoardEvent<P::Message>) -> bool {
        self.tx
            .send(BoardInput {
                at_ms: self.now(),
                event,
            })
            .is_ok()
    }

    fn run(mut self) {
        self.recall_memory();
        // Whether the session has been told the link is down (so each loss
        // is reported once, and a first failed open is reported too).
        let mut reported_lost = false;
        while !self.shared.stopping() {
            match open_port(&self.cfg.port, self.cfg.baud, self.cfg.protocol.framing()) {
                Ok(port) => match self.serve(port, &mut reported_lost) {
                    Outcome::Stop => return,
                    Outcome::Lost(reason) => {
                        let was_up = !reported_lost;
                        self.shared.set_status(|s| {
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
                        self.shared
                            .set_status(|s| s.last_error = Some(reason.clone()));
                        if !self.report(BoardEvent::LinkLost { reason }) {
                            return;
                        }
                    }
                }
            }
            let until = Instant::now() + Duration::from_millis(self.cfg.reconnect_ms);
            while Instant::now() < until && !self.shared.stopping() {
                std::thread::sleep(Duration::from_millis(10));
            }
        }
    }

    /// Reads what an earlier run learnt of the board. A file that cannot
    /// be read is said in the status, and the board is learnt again (a
    /// Certabo board asks for the starting position).
    fn recall_memory(&mut self) {
        let Some(path) = self.cfg.memory_file.clone() else {
            return;
        };
        let problem = match crate::read_capped::read_text_capped(&path, MEMORY_CAP) {
            Ok(text) => match self.cfg.protocol.recall(&text) {
                Ok(()) => {
                    self.memory_kept = self.cfg.protocol.memory();
                    return;
                }
                Err(e) => e,
            },
            Err(crate::read_capped::ReadError::Io(e))
                if e.kind() == std::io::ErrorKind::NotFound =>
            {
                return;
            }
            Err(e) => e.to_string(),
        };
        let reason = format!(
            "{} not read ({problem}): the board is learnt again",
            path.display()
        );
        self.shared
            .set_status(|s| s.memory_problem = Some(reason.clone()));
    }

    /// Writes the decoder's memory when it changed (a calibration done). A
    /// failed write (a full disk) is said in the status and tried again at
    /// the next change; the board goes on being read.
    fn keep_memory(&mut self, decoder: &P) {
        let Some(path) = &self.cfg.memory_file else {
            return;
        };
        let memory = decoder.memory();
        if memory.is_none() || memory == self.memory_kept {
            return;
        }
        let text = memory.unwrap_or_default();
        let problem = write_memory_file(path, &text)
            .err()
            .map(|e| format!("{} not written: {e}", path.display()));
        self.shared
            .set_status(|s| s.memory_problem = problem.clone());
        self.memory_kept = Some(text);
        // Said too (`track` has no panel); a listener gone is noticed at
        // the next report.
        if let Some(reason) = problem {
            self.report(BoardEvent::MemoryNotKept { reason });
        }
    }

    /// Talks to an open port until it fails or the link is stopped. What
    /// the decoder learnt of the board (a Certabo board's chips) is kept
    /// for the next connection: a cable pulled mid-game must not ask for
    /// the starting position again.
    fn serve(
        &mut self,
        port: Box<dyn serialport::SerialPort>,
        reported_lost: &mut bool,
    ) -> Outcome {
        let mut decoder = self.cfg.protocol.fresh();
        let outcome = self.serve_with(&mut decoder, port, reported_lost);
        self.cfg.protocol = decoder.fresh();
        outcome
    }

    fn serve_with(
        &mut self,
        decoder: &mut P,
        mut port: Box<dyn serialport::SerialPort>,
        reported_lost: &mut bool,
    ) -> Outcome {
        let mut buf = [0u8; 512];
        let opened = self.now();
        // The board counts as up once it has said something valid (a port
        // can open while the board is silent); LiBoard only talks on change,
        // so for it an open port is enough.
        let mut up = false;
        let mut last_valid = opened;
        let mut last_poke = opened;
        let mut last_keep_alive = opened;
        let mut drops = DroppedLines::default();
        if !self.cfg.protocol.has_heartbeat() {
            up = true;
            *reported_lost = false;
            self.shared.set_status(|s| {
                s.connected = true;
                s.last_error = None;
            });
            if !self.report(BoardEvent::LinkUp {
                port: self.cfg.port.clone(),
            }) {
                return Outcome::Stop;
            }
        }
        if let Err(e) = port.write_all(&self.cfg.protocol.greeting()) {
            return Outcome::Lost(format!("write failed: {e}"));
        }
        loop {
            if self.shared.stopping() {
                return Outcome::Stop;
            }
            loop {
                match self.commands.try_recv() {
                    Ok(cmd) => {
                        // Encoded by this connection's decoder: what the
                        // board said may choose the form (a Certabo board's
                        // kind of lights).
                        if let Err(e) = port.write_all(&decoder.encode(cmd)) {
                            return Outcome::Lost(format!("write failed: {e}"));
                        }
                        decoder.sent(cmd);
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
                    let dropped_before = decoder.stats().dropped();
                    self.decode(decoder, at, &buf[..n], &mut messages);
                    if !messages.is_empty() {
                        self.keep_memory(decoder);
                    }
                    let totals = add(self.decoder_totals, decoder.stats());
                    self.shared.set_status(|s| s.stats = totals);
                    let dropped = decoder.stats().dropped() - dropped_before;
                    if up
                        && dropped > 0
                        && let Some(count) = drops.add(at, dropped)
                        && !self.report(BoardEvent::LinesDropped { count })
                    {
                        return Outcome::Stop;
                    }
                    if !messages.is_empty() {
                        last_valid = at;
                        if !up {
                            up = true;
                            *reported_lost = false;
                            self.shared.set_status(|s| {
                                s.connected = true;
                                s.last_error = None;
                            });
                            if !self.report(BoardEvent::LinkUp {
                                port: self.cfg.port.clone(),
                            }) {
                                return Outcome::Stop;
                            }
                        }
                    }
                    for m in messages {
                        if let Some(text) = m.ident() {
                            self.shared.set_status(|s| s.ident = Some(text));
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
            if up
                && let Some(count) = drops.due(now)
                && !self.report(BoardEvent::LinesDropped { count })
            {
                return Outcome::Stop;
            }
            if let Some(every) = self.cfg.protocol.keep_alive_ms()
                && now.saturating_sub(last_keep_alive) >= every
            {
                last_keep_alive = now;
                if let Err(e) =
                    port.write_all(&self.cfg.protocol.encode(self.cfg.protocol.keep_alive()))
                {
                    self.decoder_totals = add(self.decoder_totals, decoder.stats());
                    return Outcome::Lost(format!("write failed: {e}"));
                }
            }
            if self.cfg.protocol.has_heartbeat()
                && now.saturating_sub(last_valid) >= self.cfg.heartbeat_timeout_ms
            {
                if up {
                    up = false;
                    *reported_lost = true;
                    let reason = format!("no heartbeat for {} ms", self.cfg.heartbeat_timeout_ms);
                    self.shared.set_status(|s| {
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
                    if let Err(e) = port.write_all(&self.cfg.protocol.encode(HostCommand::Snapshot))
                    {
                        self.decoder_totals = add(self.decoder_totals, decoder.stats());
                        return Outcome::Lost(format!("write failed: {e}"));
                    }
                    decoder.sent(HostCommand::Snapshot);
                }
            }
        }
    }
}

impl<P: Protocol> Worker<P> {
    /// Decodes a chunk into `messages`, writing the board log as the
    /// protocol says (a line per frame, or a `hex:` line per chunk).
    fn decode(&self, decoder: &mut P, at: u64, bytes: &[u8], messages: &mut Vec<P::Message>) {
        let mut log = self.shared.log.lock().ok();
        let mut writer = log.as_mut().and_then(|l| l.as_mut());
        decoder.decode(
            bytes,
            &mut |frame, hex| {
                if let Some(w) = writer.as_mut() {
                    let _ = w.write_all(log::format_entry(at, frame, hex).as_bytes());
                }
            },
            messages,
        );
        if let Some(w) = writer {
            let _ = w.flush();
        }
    }
}

/// The data bits and parity a port is opened with for a framing.
fn port_framing(framing: crate::board::Framing) -> (serialport::DataBits, serialport::Parity) {
    match framing {
        crate::board::Framing::EightNone => (serialport::DataBits::Eight, serialport::Parity::None),
    }
}

/// Opens a port with the board's character framing.
pub(crate) fn open_port(
    port: &str,
    baud: u32,
    framing: crate::board::Framing,
) -> serialport::Result<Box<dyn serialport::SerialPort>> {
    let (bits, parity) = port_framing(framing);
    serialport::new(port, baud)
        .data_bits(bits)
        .parity(parity)
        .timeout(READ_TIMEOUT)
        .open()
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_millennium_board_is_opened_8n1_its_parity_bit_set_by_the_protocol() {
        // A pseudo-terminal is always 8N1 (the kernel ignores the
        // framing asked for), so the settings are checked here. As
        // python-mchess, PicoChess and DGTCentaurMods do, the port is 8N1
        // and the odd-parity bit is bit 7 of each byte (a USB bridge that
        // ignores a 7O1 setting cannot lose it).
        let framing = |kind| LinkConfig::eboard("x", kind).protocol.framing();
        assert_eq!(
            port_framing(framing(crate::eboard::Kind::Millennium)),
            (serialport::DataBits::Eight, serialport::Parity::None)
        );
        assert_eq!(
            port_framing(framing(crate::eboard::Kind::Dgt)),
            (serialport::DataBits::Eight, serialport::Parity::None)
        );
        assert_eq!(
            LinkConfig::eboard("x", crate::eboard::Kind::Millennium).baud,
            38400
        );
    }
}
