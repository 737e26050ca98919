//! The BLE link thread: owns the transport, decodes what the board
//! notifies, writes the host's commands and reports to whoever drives the
//! session, as the serial link does. A board that goes away is looked for
//! again after a pause that doubles (up to a ceiling) while it stays away;
//! once it is back it is greeted (which asks for its whole position) and
//! the last lights are set again.

use std::io::Write;
use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender};
use std::time::{Duration, Instant};

use super::BleConfig;
use super::transport::{BleError, BleEvent, BleTransport, Profile};
use crate::board::{BoardReport, DecoderStats, HostCommand, Protocol, log};
use crate::eboard::{AnyDecoder, Message};
use crate::serial::{BoardInput, Link, LinkShared, LinkStatus, LogHeader};
use crate::session::board::BoardEvent;

/// How long the thread waits for a notification before it looks at its
/// commands again; a partial frame older than this is a lost one's.
const POLL: Duration = Duration::from_millis(20);

/// A running BLE link: the same handle as a serial link's (send, note,
/// status, stop; dropping it stops the thread), over the BLE thread.
pub struct BleLink(Link);

impl BleLink {
    /// Starts the link thread. Reports go to `tx`; the thread ends when the
    /// link is dropped or stopped, or when `tx`'s receiver is gone.
    pub fn spawn(cfg: BleConfig, tx: Sender<BoardInput<Message>>) -> std::io::Result<BleLink> {
        let profile = Profile::of(cfg.kind).ok_or_else(|| {
            std::io::Error::new(
                std::io::ErrorKind::InvalidInput,
                format!("{} is no Bluetooth LE board", cfg.kind),
            )
        })?;
        let header = LogHeader {
            port: cfg.address.clone(),
            format: cfg.kind.code(),
            baud: 0,
            path: cfg.log.clone(),
        };
        let link = Link::start("ble-link", header, move |shared, commands| {
            Worker {
                protocol: AnyDecoder::new(cfg.kind),
                profile,
                cfg,
                tx,
                commands,
                shared,
                totals: DecoderStats::default(),
                last_lights: None,
                unsupported_said: None,
            }
            .run()
        })?;
        Ok(BleLink(link))
    }

    /// Sends a command to the board (queued while the link is down).
    pub fn send(&self, cmd: HostCommand) {
        self.0.send(cmd);
    }

    /// Writes a line of the session's own into the board log, if one is
    /// kept.
    pub fn note(&self, at_ms: u64, text: &str) {
        self.0.note(at_ms, text);
    }

    pub fn status(&self) -> LinkStatus {
        self.0.status()
    }

    /// Stops the thread and waits for it.
    pub fn stop(self) {
        self.0.stop();
    }
}

/// A BLE link is held where a serial one is (`rochade online` and
/// `rochade puzzle` keep the player's board as one [`Link`]).
impl From<BleLink> for Link {
    fn from(link: BleLink) -> Link {
        link.0
    }
}

struct Worker {
    protocol: AnyDecoder,
    profile: Profile,
    cfg: BleConfig,
    tx: Sender<BoardInput<Message>>,
    commands: Receiver<HostCommand>,
    shared: LinkShared,
    totals: DecoderStats,
    /// The lights last asked for: set again after a reconnection.
    last_lights: Option<HostCommand>,
    /// The model `auto` found and cannot drive, once said.
    unsupported_said: Option<String>,
}

enum Outcome {
    Stop,
    /// The link failed; whether it had been up (the pause starts short
    /// again).
    Lost {
        reason: String,
        was_up: bool,
    },
}

impl Worker {
    fn now(&self) -> u64 {
        self.cfg.epoch.elapsed().as_millis() as u64
    }

    fn report(&self, event: BoardEvent<Message>) -> bool {
        self.tx
            .send(BoardInput {
                at_ms: self.now(),
                event,
            })
            .is_ok()
    }

    fn call_timeout(&self) -> Duration {
        Duration::from_millis(self.cfg.call_timeout_ms)
    }

    fn run(mut self) {
        let mut reported_lost = false;
        let mut pause = self.cfg.reconnect_ms;
        let mut transport: Option<Box<dyn BleTransport>> = None;
        while !self.shared.stopping() {
            let outcome = match transport.as_mut() {
                Some(t) => self.serve(t.as_mut(), &mut reported_lost),
                None => match (self.cfg.transport)() {
                    Ok(t) => {
                        transport = Some(t);
                        continue;
                    }
                    Err(e) => Outcome::Lost {
                        reason: e.to_string(),
                        was_up: false,
                    },
                },
            };
            if let Some(t) = transport.as_mut() {
                t.disconnect();
            }
            match outcome {
                Outcome::Stop => return,
                Outcome::Lost { reason, was_up } => {
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
                    if was_up {
                        pause = self.cfg.reconnect_ms;
                    }
                }
            }
            let until = Instant::now() + Duration::from_millis(pause);
            while Instant::now() < until && !self.shared.stopping() {
                std::thread::sleep(Duration::from_millis(10));
            }
            pause = (pause * 2).min(self.cfg.reconnect_max_ms.max(self.cfg.reconnect_ms));
        }
    }

    fn write(&self, t: &mut dyn BleTransport, bytes: &[u8]) -> Result<(), String> {
        if bytes.is_empty() {
            return Ok(());
        }
        t.write(self.profile.write, bytes, self.call_timeout())
            .map_err(|e| format!("write failed: {e}"))
    }

    /// Finds, connects and talks to the board until the link fails or is
    /// stopped.
    fn serve(&mut self, t: &mut dyn BleTransport, reported_lost: &mut bool) -> Outcome {
        let lost = |reason: String| Outcome::Lost {
            reason,
            was_up: false,
        };
        let scan = Duration::from_millis(self.cfg.scan_timeout_ms);
        let device = match t.find(&self.cfg.address, &self.profile, scan) {
            Ok(d) => d,
            Err(BleError::Unsupported(name)) => {
                // Said once, not at every scan while it stays in range.
                if self.unsupported_said.as_ref() != Some(&name) {
                    self.unsupported_said = Some(name.clone());
                    if !self.report(BoardEvent::ModelUnsupported { name: name.clone() }) {
                        return Outcome::Stop;
                    }
                }
                return lost(BleError::Unsupported(name).to_string());
            }
            Err(e) => return lost(e.to_string()),
        };
        let events = match t.connect(&device, self.call_timeout()) {
            Ok(rx) => rx,
            Err(e) => return lost(format!("cannot connect to {}: {e}", device.address)),
        };
        match t.request_mtu(self.profile.mtu, self.call_timeout()) {
            Ok(Some(mtu)) if mtu < self.profile.mtu_needed => {
                return lost(format!(
                    "packet size {mtu} too small (the board needs {}): its position would be cut short",
                    self.profile.mtu_needed
                ));
            }
            Ok(_) => {}
            Err(e) => return lost(format!("packet size: {e}")),
        }
        for &c in &self.profile.notify {
            if let Err(e) = t.subscribe(c, self.call_timeout()) {
                return lost(format!("subscribe failed: {e}"));
            }
        }
        let mut decoder = self.protocol.fresh();
        let mut greeting = self.protocol.greeting();
        if let Some(lights) = self.last_lights {
            greeting.extend(self.protocol.encode(lights));
        }
        if let Err(reason) = self.write(t, &greeting) {
            return lost(reason);
        }
        *reported_lost = false;
        self.shared.set_status(|s| {
            s.connected = true;
            s.last_error = None;
        });
        if !self.report(BoardEvent::LinkUp {
            port: device.address.clone(),
        }) {
            return Outcome::Stop;
        }
        let outcome = self.talk(t, &events, &mut decoder);
        self.totals = add(self.totals, Protocol::stats(&decoder));
        outcome
    }

    /// The connection's loop: commands out, notifications in.
    fn talk(
        &mut self,
        t: &mut dyn BleTransport,
        events: &Receiver<BleEvent>,
        decoder: &mut AnyDecoder,
    ) -> Outcome {
        let up = |reason: String| Outcome::Lost {
            reason,
            was_up: true,
        };
        let mut last_refresh = self.now();
        let mut last_keep_alive = last_refresh;
        loop {
            if self.shared.stopping() {
                return Outcome::Stop;
            }
            while let Ok(cmd) = self.commands.try_recv() {
                if matches!(cmd, HostCommand::Lights(_)) {
                    self.last_lights = Some(cmd);
                }
                if let Err(reason) = self.write(t, &self.protocol.encode(cmd)) {
                    return up(reason);
                }
                for m in decoder.answer(cmd) {
                    if !self.report(BoardEvent::Message(m)) {
                        return Outcome::Stop;
                    }
                }
            }
            match events.recv_timeout(POLL) {
                Ok(BleEvent::Notification { bytes, .. }) => {
                    if !self.take(decoder, self.now(), &bytes) {
                        return Outcome::Stop;
                    }
                }
                Ok(BleEvent::Disconnected(reason)) => return up(reason),
                Err(RecvTimeoutError::Timeout) => decoder.idle(),
                Err(RecvTimeoutError::Disconnected) => {
                    return up("the Bluetooth stack closed the connection".into());
                }
            }
            let now = self.now();
            if let Some(every) = self.protocol.keep_alive_ms()
                && now.saturating_sub(last_keep_alive) >= every
            {
                last_keep_alive = now;
                if let Err(reason) =
                    self.write(t, &self.protocol.encode(self.protocol.keep_alive()))
                {
                    return up(reason);
                }
            }
            if now.saturating_sub(last_refresh) >= self.cfg.refresh_ms {
                // The board's poll now and then: a dead link fails this
                // write (and a Pegasus sends its whole board, which heals
                // a lost notification; see `Profile::poll`).
                last_refresh = now;
                if let Err(reason) = self.write(t, &self.profile.poll) {
                    return up(reason);
                }
            }
        }
    }

    /// Decodes one notification and reports what it said; false when
    /// nobody listens any more.
    fn take(&self, decoder: &mut AnyDecoder, at: u64, bytes: &[u8]) -> bool {
        let mut messages = Vec::new();
        let dropped_before = Protocol::stats(decoder).dropped();
        {
            let mut log = self.shared.log.lock().ok();
            let mut writer = log.as_mut().and_then(|l| l.as_mut());
            decoder.decode(
                bytes,
                &mut |frame, hex| {
                    if let Some(w) = writer.as_mut() {
                        let _ = w.write_all(log::format_entry(at, frame, hex).as_bytes());
                    }
                },
                &mut messages,
            );
            if let Some(w) = writer {
                let _ = w.flush();
            }
        }
        let stats = Protocol::stats(decoder);
        let totals = add(self.totals, stats);
        self.shared.set_status(|s| s.stats = totals);
        let dropped = stats.dropped() - dropped_before;
        if dropped > 0 && !self.report(BoardEvent::LinesDropped { count: dropped }) {
            return false;
        }
        for m in messages {
            if let Some(text) = m.ident() {
                self.shared.set_status(|s| s.ident = Some(text));
            }
            if !self.report(BoardEvent::Message(m)) {
                return false;
            }
        }
        true
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
