//! The DGT e-board on the command line: `rochade track --format dgt`
//! (follow a board on a port, or replay its board log in virtual time) and
//! `rochade board-sim --format dgt` (a simulated DGT board on a
//! pseudo-terminal). The output is the peg-board's JSON events: `move` with
//! `uci` and `san`, `takeback`, `new_game`, `orientation`, `mismatch`,
//! `in_sync`, `link`, `board_info`, and `clock` when a DGT clock reports.

#![cfg_attr(not(unix), allow(unused_imports))]

use std::io::{Read, Write};
use std::path::PathBuf;
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use shakmaty::{CastlingMode, Chess, Move};

use super::follow::{CommandError, DgtLog, Follow, follow_ports, print_json, replay_log};
use super::{CliError, CliResult};
use crate::board::sim::{self, SimCommand};
use crate::board::{HostCommand, log};
use crate::chess::GameRecord;
use crate::dgt::sim::DgtSim;
use crate::dgt::{Message, Recognizer, RecognizerConfig, RecognizerEvent};
use crate::serial::{Link, LinkConfig};
use crate::session::board::BoardEvent;
use crate::session::{BoardDetail, LinkChange, Notice, Source};
use crate::words::Pack;

/// What `rochade track --format dgt` needs from its arguments.
pub struct TrackArgs {
    pub lang: crate::words::Lang,
    pub settle_ms: Option<u64>,
    pub fen: Option<String>,
    pub pgn: Option<PathBuf>,
    /// The board log to replay, read.
    pub log: Option<String>,
    pub board_log: Option<PathBuf>,
    pub port: Option<String>,
    pub baud: Option<u32>,
    /// Which way round the board lies (`--orientation`).
    pub orientation: crate::board::OrientationChoice,
}

/// Follows one DGT board: recognizer events to the record and JSON lines.
struct Tracker {
    rec: Recognizer,
    record: GameRecord,
    pack: Pack,
    pgn: Option<super::output::PgnFile>,
    link: Option<Link>,
    /// Board information already printed (the keep-alive repeats it).
    said: Vec<String>,
    last_clock: Option<crate::dgt::ClockReading>,
}

fn uci(mv: Move) -> String {
    mv.to_uci(CastlingMode::Standard).to_string()
}

impl Tracker {
    fn print(&self, now: u64, value: &impl serde::Serialize) -> CliResult {
        let mut stdout = std::io::stdout().lock();
        print_json(&mut stdout, self.link.as_ref(), now, value)?;
        stdout.flush()?;
        Ok(())
    }

    fn notice(&self, now: u64, notice: Notice) -> CliResult {
        if let Notice::Move { ply, .. } = notice {
            // The same `move` event as every command prints; the blind
            // player has White unless a session says otherwise.
            let first = shakmaty::Position::turn(self.record.start_position());
            let mover = super::output::mover_of_ply(ply, first);
            let by = super::output::MoveBy::of(mover, shakmaty::Color::White);
            if let Some(event) = super::output::move_event(&notice, by) {
                return self.print(now, &event);
            }
        }
        self.print(now, &notice)
    }

    /// The PGN file after a move: a file that cannot be written stops the
    /// file, never the following of the board.
    fn save(&self, now: u64) -> CliResult {
        if let Some(pgn) = &self.pgn
            && let Some(event) = pgn.write(&self.record, "the board is still followed")
        {
            self.print(now, &event)?;
        }
        Ok(())
    }

    fn play(&mut self, now: u64, mv: Move) -> CliResult {
        let before = self.record.position().clone();
        let announcement = crate::announce::announce_move(
            &self.pack,
            &before,
            mv,
            crate::announce::AnnounceForm::default(),
        );
        match self.record.play(mv, Some(now)) {
            Ok(played) => {
                let san = played.san;
                let notice = Notice::Move {
                    ply: self.record.moves().len(),
                    san,
                    mv,
                    announcement: announcement.written,
                    spoken: announcement.spoken,
                    source: Source::EBoard,
                };
                // Saved before it is told, as the app does.
                self.save(now)?;
                self.notice(now, notice)
            }
            Err(e) => self.notice(
                now,
                Notice::Rejected {
                    input: uci(mv),
                    reason: e.to_string(),
                },
            ),
        }
    }

    fn takeback(&mut self, now: u64) -> CliResult {
        if let Some(taken) = self.record.takeback(1).first() {
            let san = taken.san;
            self.save(now)?;
            self.notice(now, Notice::Takeback { san })?;
        }
        Ok(())
    }

    fn events(&mut self, now: u64, events: Vec<RecognizerEvent>) -> CliResult {
        for event in events {
            match event {
                RecognizerEvent::RequestBoard => {
                    if let Some(link) = &self.link {
                        link.send(HostCommand::Snapshot);
                    }
                }
                RecognizerEvent::Move(mv) => self.play(now, mv)?,
                RecognizerEvent::Takeback(_) => self.takeback(now)?,
                RecognizerEvent::Corrected { new, .. } => {
                    self.takeback(now)?;
                    self.play(now, new)?;
                }
                RecognizerEvent::NewGame => {
                    if let Some(pgn) = &self.pgn {
                        pgn.game_finished(&self.record);
                    }
                    self.record = GameRecord::new();
                    self.save(now)?;
                    self.notice(now, Notice::NewGame)?;
                }
                RecognizerEvent::Orientation { turned } => {
                    self.notice(now, Notice::Orientation { turned })?
                }
                RecognizerEvent::Mismatch(m) => self.notice(now, Notice::mismatch(&m))?,
                RecognizerEvent::InSync => self.notice(now, Notice::InSync)?,
            }
        }
        Ok(())
    }

    fn board_info(&mut self, now: u64, text: String) -> CliResult {
        if self.said.contains(&text) {
            return Ok(());
        }
        self.said.push(text.clone());
        self.notice(now, Notice::BoardInfo { text })
    }
}

impl Follow for Tracker {
    type Message = Message;

    fn next_deadline(&self) -> Option<u64> {
        self.rec.next_deadline()
    }

    fn tick(&mut self, now: u64) -> CliResult {
        let mut out = Vec::new();
        self.rec.on_tick(now, &mut out);
        self.events(now, out)
    }

    fn input(&mut self, now: u64, event: BoardEvent<Message>) -> CliResult {
        let mut out = Vec::new();
        match event {
            BoardEvent::Message(m) => match m {
                Message::BoardDump(pieces) => self.rec.on_dump(now, &pieces, &mut out),
                Message::FieldUpdate { square, piece } => {
                    self.rec.on_field_update(now, square, piece, &mut out)
                }
                Message::Version { major, minor } => {
                    self.board_info(now, format!("DGT board, version {major}.{minor}"))?
                }
                Message::SerialNumber(serial) => {
                    self.board_info(now, format!("DGT board, serial number {serial}"))?
                }
                Message::Clock(reading) => {
                    if self.last_clock != Some(reading) && !reading.no_clock() {
                        self.last_clock = Some(reading);
                        let side = |s: crate::dgt::protocol::ClockSide| {
                            format!("{}:{:02}:{:02}", s.hours, s.minutes, s.seconds)
                        };
                        let value = serde_json::json!({
                            "event": "clock",
                            "left": side(reading.left),
                            "right": side(reading.right),
                            "running": reading.running(),
                        });
                        self.print(now, &value)?;
                    }
                }
                Message::ClockAck => {}
            },
            BoardEvent::LinkUp { port } => self.notice(
                now,
                Notice::Link {
                    state: LinkChange::Connected,
                    detail: BoardDetail::Text(port),
                },
            )?,
            BoardEvent::LinkLost { reason } => {
                self.rec.link_lost(&mut out);
                self.notice(
                    now,
                    Notice::Link {
                        state: LinkChange::Lost,
                        detail: BoardDetail::Text(reason),
                    },
                )?;
            }
            BoardEvent::LinesDropped { count } => {
                self.rec.link_lost(&mut out);
                self.notice(
                    now,
                    Notice::Link {
                        state: LinkChange::LinesDropped,
                        detail: BoardDetail::Count(count),
                    },
                )?;
            }
            BoardEvent::ModelUnsupported { name } => {
                let text = self
                    .pack
                    .phrase("board_model_unsupported", &[("name", name.as_str().into())]);
                self.notice(
                    now,
                    Notice::Link {
                        state: LinkChange::Lost,
                        detail: BoardDetail::Text(text.written),
                    },
                )?;
            }
            // The DGT board has no promotion to choose (it knows its
            // pieces), no tracker settings and no spoken guidance here.
            // Nor anything learnt to keep in a file.
            BoardEvent::LinkClosed
            | BoardEvent::MemoryNotKept { .. }
            | BoardEvent::PromotionChoice(_)
            | BoardEvent::Configure(_)
            | BoardEvent::RepeatGuidance => {}
        }
        self.events(now, out)
    }

    fn attach(&mut self, link: Link, _sighted: bool) {
        self.link = Some(link);
    }
}

/// `rochade track --format dgt`.
pub fn track(args: TrackArgs) -> CliResult {
    let pack = super::load_pack(args.lang);
    let record = match &args.fen {
        Some(fen) => GameRecord::from_fen(fen).map_err(|e| CliError::input(e.to_string()))?,
        None => GameRecord::new(),
    };
    let start: Chess = record.position().clone();
    let mut cfg = RecognizerConfig::default();
    if let Some(ms) = args.settle_ms {
        cfg.settle_ms = ms;
    }
    let mut t = Tracker {
        rec: Recognizer::new(cfg, start),
        record,
        pack,
        pgn: args.pgn.clone().map(super::output::PgnFile::new),
        link: None,
        said: Vec::new(),
        last_clock: None,
    };
    let mut fixed = Vec::new();
    t.rec
        .set_orientation_choice(0, args.orientation, &mut fixed);
    t.events(0, fixed)?;

    if let Some(text) = &args.log {
        let entries = log::parse_log(text).map_err(|e| CliError::input(e.to_string()))?;
        return replay_log(&mut t, entries, DgtLog(crate::dgt::Decoder::new()));
    }

    let baud = args.baud;
    let board_log = args.board_log.clone();
    follow_ports(
        &mut t,
        args.port.clone(),
        |port, epoch| {
            let mut cfg = LinkConfig {
                log: board_log,
                epoch,
                ..LinkConfig::dgt(port)
            };
            if let Some(baud) = baud {
                cfg.baud = baud;
            }
            cfg
        },
        None,
    )
}

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
