//! What `rochade track` and `rochade board-sim` share for every kind of
//! board: the format named on the command line, following a board's
//! reports (live or from a log) with their deadlines, and the simulators'
//! typed commands.

use std::io::BufRead;
use std::str::FromStr;
use std::sync::mpsc;
use std::time::{Duration, Instant};

use super::{CliError, CliResult};
use crate::board::sim::{self, SimCommand, SimStep};
use crate::board::{Format, Protocol, log};
use crate::driver::{self, Next};
use crate::serial::{BoardInput, Link, LinkConfig};
use crate::session::board::BoardEvent;

/// A board's wire format as the command line names it: a peg-board format,
/// or an e-board (`dgt`, `millennium`, `certabo`, ...).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FormatArg {
    Board(Format),
    /// An e-board, followed as the player's own board through the session.
    EBoard(crate::eboard::Kind),
}

/// A board format on the command line that names none (the name, in
/// lower case), or a board this build cannot reach.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum UnknownFormatArg {
    #[error(
        "unknown board format '{0}' (use peg, liboard, sentio, dgt, millennium, certabo, \
         chessnut or pegasus)"
    )]
    Unknown(String),
}

impl FromStr for FormatArg {
    type Err = UnknownFormatArg;

    fn from_str(s: &str) -> Result<FormatArg, UnknownFormatArg> {
        if let Ok(format) = Format::from_str(s) {
            return Ok(FormatArg::Board(format));
        }
        match crate::eboard::Kind::from_str(s) {
            Ok(kind) => Ok(FormatArg::EBoard(kind)),
            Err(_) => Err(UnknownFormatArg::Unknown(s.to_ascii_lowercase())),
        }
    }
}

impl FormatArg {
    /// The peg-board format, if it is one.
    pub fn board(self) -> Option<Format> {
        match self {
            FormatArg::Board(f) => Some(f),
            FormatArg::EBoard(_) => None,
        }
    }
}

/// Whatever follows one board for `rochade track`: the link's reports in,
/// its deadlines run in time (real or virtual).
pub(super) trait Follow {
    /// The followed board's messages.
    type Message;
    /// The session whose deadlines the driver runs.
    fn session(&self) -> &crate::session::Session;
    /// Runs the deadline due at `now`.
    fn tick(&mut self, now: u64) -> CliResult;
    fn input(&mut self, now: u64, event: BoardEvent<Self::Message>) -> CliResult;

    /// A report from the sighted player's e-board (when one is followed
    /// beside the board).
    fn sighted_input(&mut self, now: u64, event: BoardEvent<crate::eboard::Message>) -> CliResult {
        let _ = (now, event);
        Ok(())
    }

    /// Keeps a live link once it runs: the board's (`sighted` false) or
    /// the sighted player's e-board's, for commands and the board log.
    fn attach(&mut self, link: Link, sighted: bool);

    /// A save is under way, or printing waits for one: look again soon.
    fn saving(&self) -> bool {
        false
    }

    /// Prints what waited for saves now on disk.
    fn release_saved(&mut self, now: u64) -> CliResult {
        let _ = now;
        Ok(())
    }

    /// At the end: waits for the saves, prints what waited; an error when
    /// the file lacks moves.
    fn finish_saving(&mut self, now: u64) -> CliResult {
        let _ = now;
        Ok(())
    }

    /// Runs every deadline up to and including `until`.
    fn run_until(&mut self, until: u64) -> CliResult
    where
        Self: Sized,
    {
        driver::run_due_of(self, |f| f.session(), until, |f, at| f.tick(at))
    }
}

/// Replays a board log in virtual time: each entry's bytes through
/// `decode` (the messages, and how many frames it dropped), then every
/// pending timer (settle, promotion, guidance) runs out.
fn replay<F: Follow>(
    follower: &mut F,
    entries: Vec<log::LogEntry>,
    mut decode: impl FnMut(&[u8]) -> (Vec<F::Message>, u64),
) -> Result<usize, CliError> {
    let mut last = 0;
    let mut read = 0;
    // At most one `lines_dropped` a second, as live.
    let mut drops = crate::serial::DroppedLines::default();
    for entry in entries {
        follower.run_until(entry.ms)?;
        if let Some(count) = drops.due(entry.ms) {
            follower.input(entry.ms, BoardEvent::LinesDropped { count })?;
        }
        let (messages, dropped) = decode(&entry.bytes);
        read += messages.len();
        if dropped > 0
            && let Some(count) = drops.add(entry.ms, dropped)
        {
            follower.input(entry.ms, BoardEvent::LinesDropped { count })?;
        }
        for msg in messages {
            follower.input(entry.ms, BoardEvent::Message(msg))?;
        }
        follower.release_saved(entry.ms)?;
        last = entry.ms;
    }
    if let Some(count) = drops.rest() {
        follower.input(last, BoardEvent::LinesDropped { count })?;
    }
    follower.run_until(last + 60_000)?;
    follower.finish_saving(last + 60_000)?;
    Ok(read)
}

/// A board log's decoder as [`replay_log`] uses it: the board's
/// [`Protocol`], fed each entry as it was on the wire.
pub(super) trait LogDecoder {
    type Protocol: Protocol;
    fn protocol(&mut self) -> &mut Self::Protocol;
    /// What was dropped over the whole log, if anything (for stderr).
    fn dropped(&self) -> Option<String>;

    /// The messages of one entry's bytes, and how many frames were dropped.
    fn decode(&mut self, bytes: &[u8]) -> (Vec<<Self::Protocol as Protocol>::Message>, u64) {
        let protocol = self.protocol();
        let dropped_before = protocol.stats().dropped();
        let wire = protocol.logged_to_wire(bytes);
        let messages = protocol.decode_all(&wire);
        (messages, protocol.stats().dropped() - dropped_before)
    }
}

/// The peg-board formats' decoder.
pub(super) struct PegLog(pub crate::board::Decoder);

impl LogDecoder for PegLog {
    type Protocol = crate::board::Decoder;

    fn protocol(&mut self) -> &mut crate::board::Decoder {
        &mut self.0
    }

    fn dropped(&self) -> Option<String> {
        let s = self.0.stats();
        (s.dropped() > 0).then(|| {
            format!(
                "{} line(s) dropped: {} bad checksum, {} too long, {} garbage",
                s.dropped(),
                s.bad_checksum,
                s.too_long,
                s.garbage
            )
        })
    }
}

/// Replays a board log through `decoder` (see [`replay`]), then says on
/// stderr what the decoder dropped.
pub(super) fn replay_log<D: LogDecoder>(
    follower: &mut impl Follow<Message = <D::Protocol as Protocol>::Message>,
    entries: Vec<log::LogEntry>,
    mut decoder: D,
) -> CliResult {
    let read = replay(follower, entries, |bytes| decoder.decode(bytes))?;
    if let Some(text) = decoder.dropped() {
        if read == 0 {
            // Not one message in the whole log: another board's log.
            return Err(CliError::input(format!(
                "the format looks wrong: no line of the log reads as this board's ({text}); \
                 give the format it was recorded in with --format"
            )));
        }
        eprintln!("rochade: {text}");
    }
    Ok(())
}

/// Follows the board on `port` live (its link made by `config` from the
/// port and the epoch), and the sighted player's e-board (port and kind)
/// on `sighted` beside it, until the link stops.
pub(super) fn follow_ports<P: Protocol>(
    follower: &mut impl Follow<Message = P::Message>,
    port: Option<String>,
    config: impl FnOnce(String, Instant) -> LinkConfig<P>,
    sighted: Option<(String, crate::eboard::Kind)>,
) -> CliResult {
    let port = port.ok_or_else(|| CliError::input("give a serial port or --log FILE"))?;
    let epoch = Instant::now();
    let (tx, rx) = mpsc::channel();
    follower.attach(
        spawn_tagged(config(port, epoch), Tagged::Board, tx.clone())?,
        false,
    );
    attach_sighted(follower, sighted, epoch, tx)?;
    follow_link(follower, rx, epoch)
}

/// Follows the player's own e-board over Bluetooth LE (`cfg`; `keep`
/// holds its link for commands), and the sighted player's e-board on a
/// serial port beside it, until the link stops.
pub(super) fn follow_ble<F: Follow<Message = crate::eboard::Message>>(
    follower: &mut F,
    cfg: crate::ble::BleConfig,
    keep: impl FnOnce(&mut F, crate::ble::BleLink),
    sighted: Option<(String, crate::eboard::Kind)>,
) -> CliResult {
    let epoch = cfg.epoch;
    let (tx, rx) = mpsc::channel();
    let (link_tx, link_rx) = mpsc::channel();
    let link =
        crate::ble::BleLink::spawn(cfg, link_tx).map_err(|e| CliError::failure(e.to_string()))?;
    forward(link_rx, Tagged::Board, tx.clone());
    keep(follower, link);
    attach_sighted(follower, sighted, epoch, tx)?;
    follow_link(follower, rx, epoch)
}

/// Starts the sighted player's e-board's link (port and kind), if any.
fn attach_sighted<F: Follow<Message: Send + 'static>>(
    follower: &mut F,
    sighted: Option<(String, crate::eboard::Kind)>,
    epoch: Instant,
    tx: mpsc::Sender<Tagged<F::Message>>,
) -> CliResult {
    if let Some((port, kind)) = sighted {
        let cfg = LinkConfig {
            epoch,
            memory_file: crate::serial::memory_file(kind, "opponent"),
            ..LinkConfig::eboard(port, kind)
        };
        follower.attach(spawn_tagged(cfg, Tagged::Sighted, tx)?, true);
    }
    Ok(())
}

/// One JSON line on `out`, also written into the board log of a live
/// session (every event, the tracker's decisions included).
pub(super) fn print_json(
    out: &mut impl std::io::Write,
    link: Option<&Link>,
    now: u64,
    value: &impl serde::Serialize,
) -> CliResult {
    let line = serde_json::to_string(value).map_err(|e| CliError::failure(e.to_string()))?;
    writeln!(out, "{line}")?;
    if let Some(link) = link {
        link.note(now, &line);
    }
    Ok(())
}

/// A report from one of the links `rochade track` follows: the followed
/// board's, or the sighted player's e-board's beside it.
pub(super) enum Tagged<M> {
    Board(BoardInput<M>),
    Sighted(BoardInput<crate::eboard::Message>),
}

/// Starts a link whose reports go to `tx`, tagged by `tag`.
pub(super) fn spawn_tagged<P: Protocol, T: Send + 'static>(
    cfg: LinkConfig<P>,
    tag: impl Fn(BoardInput<P::Message>) -> T + Send + 'static,
    tx: mpsc::Sender<T>,
) -> Result<Link, CliError> {
    let (link_tx, link_rx) = mpsc::channel();
    let link = Link::spawn(cfg, link_tx).map_err(|e| CliError::failure(e.to_string()))?;
    forward(link_rx, tag, tx);
    Ok(link)
}

/// Passes a link's reports on to `tx`, tagged by `tag`.
pub(super) fn forward<M: Send + 'static, T: Send + 'static>(
    link_rx: mpsc::Receiver<BoardInput<M>>,
    tag: impl Fn(BoardInput<M>) -> T + Send + 'static,
    tx: mpsc::Sender<T>,
) {
    std::thread::spawn(move || {
        for input in link_rx {
            if tx.send(tag(input)).is_err() {
                return;
            }
        }
    });
}

/// Follows live links in real time until they stop.
fn follow_link<F: Follow>(
    follower: &mut F,
    rx: mpsc::Receiver<Tagged<F::Message>>,
    epoch: Instant,
) -> CliResult {
    loop {
        let now = epoch.elapsed().as_millis() as u64;
        let cap = if follower.saving() {
            // A move's line waits for its save: looked for often.
            crate::save_worker::SaveLine::POLL.min(driver::LOOK_AGAIN)
        } else {
            driver::LOOK_AGAIN
        };
        let wait = driver::wait(follower.session(), None, now, cap);
        match driver::next(&rx, Some(wait)) {
            Next::Input(Tagged::Board(input)) => follower.input(input.at_ms, input.event)?,
            Next::Input(Tagged::Sighted(input)) => {
                follower.sighted_input(input.at_ms, input.event)?
            }
            Next::Due => {}
            Next::Closed => {
                let now = epoch.elapsed().as_millis() as u64;
                follower.finish_saving(now)?;
                return Err(CliError::failure("the board link stopped"));
            }
        }
        let now = epoch.elapsed().as_millis() as u64;
        follower.run_until(now)?;
        follower.release_saved(now)?;
    }
}

/// Why a simulator's typed command was not carried out (said on stderr).
#[derive(Debug, thiserror::Error)]
// The simulators that use every variant are Unix-only (pseudo-terminals).
#[cfg_attr(not(unix), allow(dead_code))]
pub(super) enum CommandError {
    #[error(transparent)]
    Sim(#[from] crate::board::sim::SimError),
    /// A thread died holding the simulator.
    #[error("simulator state poisoned")]
    Poisoned,
    #[error("an e-board reports no faults")]
    NoFaults,
}

/// Reads typed commands from stdin until `quit` or the end of input; each
/// other command is carried out by `apply`, its bytes go to `wire` (and to
/// `on_send`) with the pauses between them, and errors are printed.
pub(super) fn typed_commands(
    wire: &mpsc::Sender<Vec<u8>>,
    mut apply: impl FnMut(&SimCommand) -> Result<Vec<SimStep>, CommandError>,
    mut on_send: impl FnMut(&SimCommand, &[u8]),
) -> CliResult {
    for line in std::io::stdin().lock().lines() {
        let line = line?;
        if line.trim().is_empty() || line.trim_start().starts_with('#') {
            continue;
        }
        let cmd = match sim::parse_command(&line) {
            Ok(c) => c,
            Err(e) => {
                eprintln!("{e}");
                continue;
            }
        };
        match cmd {
            SimCommand::Quit => break,
            SimCommand::Help => {
                eprintln!("{}", sim::HELP);
                continue;
            }
            _ => {}
        }
        match apply(&cmd) {
            Ok(steps) => {
                for step in steps {
                    match step {
                        SimStep::Send(bytes) => {
                            on_send(&cmd, &bytes);
                            let _ = wire.send(bytes);
                        }
                        SimStep::Pause(ms) => std::thread::sleep(Duration::from_millis(ms)),
                    }
                }
            }
            Err(e) => eprintln!("{e}"),
        }
    }
    Ok(())
}
