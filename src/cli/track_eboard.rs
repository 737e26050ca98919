//! `rochade track --format millennium|certabo|chessnut|pegasus PORT`: an
//! e-board followed as the player's own board through the session: every
//! move read on it printed as a `move` event, its guidance, and its lights
//! (the squares that differ once the guidance time ran out) sent to the
//! board. A board that knows its pieces goes to the recognizer
//! (`Event::EBoard`); the DGT Pegasus, which knows only which squares are
//! occupied, to the peg-board's tracker (`Event::Board`). `--log` replays
//! such a board's log in virtual time. A Bluetooth LE board's PORT is its
//! address or `auto`; a device path (a Bluetooth-to-serial bridge, a
//! test's pseudo-terminal) carries the same bytes as a stream. A DGT
//! board goes this way too (`--format dgt`); the times of a DGT clock
//! attached to it print as `clock` events.

use std::io::Write;

use super::follow::{Follow, LogDecoder, follow_ble, follow_ports, print_json, replay_log};
use super::track_driver::Driver;
use super::{CliError, CliResult};
use crate::board::{DecoderStats, Protocol, log};
use crate::dgt::ClockReading;
use crate::eboard::{AnyDecoder, Kind, Message};
use crate::serial::Link;
use crate::session::Event;
use crate::session::board::BoardEvent;

/// The track driver with the player's own e-board of a kind as its board.
pub(super) struct EBoardDriver {
    driver: Driver,
    kind: Kind,
    /// The clock's last times printed (a DGT clock reports every second).
    last_clock: Option<ClockReading>,
}

impl EBoardDriver {
    /// A clock's times as a `clock` event, when they changed: the session
    /// keeps the reading for the window; the terminal prints it.
    fn clock(&mut self, now: u64, reading: ClockReading) -> CliResult {
        if self.last_clock == Some(reading) || reading.no_clock() {
            return Ok(());
        }
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
        let mut stdout = std::io::stdout().lock();
        print_json(&mut stdout, self.driver.link.as_ref(), now, &value)?;
        Ok(stdout.flush()?)
    }
}

impl Follow for EBoardDriver {
    type Message = Message;

    fn session(&self) -> &crate::session::Session {
        &self.driver.session
    }

    fn tick(&mut self, now: u64) -> CliResult {
        self.driver.handle(now, Event::Tick)
    }

    fn input(&mut self, now: u64, event: BoardEvent<Message>) -> CliResult {
        if let BoardEvent::Message(Message::Clock(reading)) = &event {
            self.clock(now, *reading)?;
        }
        match Event::own_eboard(self.kind, event) {
            Some(event) => self.driver.handle(now, event),
            None => Ok(()),
        }
    }

    fn sighted_input(&mut self, now: u64, event: BoardEvent<Message>) -> CliResult {
        self.driver.handle(now, Event::Sighted(event))
    }

    fn attach(&mut self, link: Link, sighted: bool) {
        self.driver.attach_link(link, sighted);
    }

    fn saving(&self) -> bool {
        self.driver.saving()
    }

    fn release_saved(&mut self, now: u64) -> CliResult {
        self.driver.release_saved(now)
    }

    fn finish_saving(&mut self, now: u64) -> CliResult {
        self.driver.finish_saving(now)
    }
}

/// Any e-board's decoder, for a board log.
pub(super) struct EBoardLog(pub AnyDecoder);

impl LogDecoder for EBoardLog {
    type Protocol = AnyDecoder;

    fn protocol(&mut self) -> &mut AnyDecoder {
        &mut self.0
    }

    fn dropped(&self) -> Option<String> {
        let s: DecoderStats = self.0.stats();
        (s.dropped() > 0).then(|| {
            format!(
                "{} {} message(s) dropped: {} bad check, {} too long, {} garbage",
                s.dropped(),
                self.0.kind(),
                s.bad_checksum,
                s.too_long,
                s.garbage
            )
        })
    }
}

/// What `track` follows an e-board with, besides its driver.
pub(super) struct Run<'a> {
    pub kind: Kind,
    /// The board log to replay, read.
    pub log: Option<&'a str>,
    pub port: Option<String>,
    pub baud: Option<u32>,
    pub board_log: Option<std::path::PathBuf>,
    pub sighted: Option<(String, Kind)>,
}

/// Follows the player's own e-board of `run.kind`, live or from its log.
pub(super) fn run(driver: Driver, run: Run) -> CliResult {
    let mut driver = EBoardDriver {
        driver,
        kind: run.kind,
        last_clock: None,
    };
    if let Some(text) = run.log {
        let entries = log::parse_log(text).map_err(|e| CliError::input(e.to_string()))?;
        if entries.is_empty() {
            return Err(CliError::input(
                "the board log holds no board message".to_string(),
            ));
        }
        return replay_log(&mut driver, entries, EBoardLog(AnyDecoder::new(run.kind)));
    }
    let (kind, baud, board_log) = (run.kind, run.baud, run.board_log);
    if crate::ble::over_bluetooth(kind, run.port.as_deref()) {
        // The port is the board's Bluetooth address, or `auto`: the first
        // board of its kind found.
        let address = run
            .port
            .ok_or_else(|| CliError::input("give the board's Bluetooth address, or auto"))?;
        let cfg = crate::ble::BleConfig {
            log: board_log,
            ..crate::ble::BleConfig::new(address, kind)
        };
        return follow_ble(
            &mut driver,
            cfg,
            |d, link| d.driver.ble = Some(link),
            run.sighted,
        );
    }
    follow_ports(
        &mut driver,
        run.port,
        |port, epoch| super::board_arg::eboard_config(port, kind, baud, epoch, board_log),
        run.sighted,
    )
}
