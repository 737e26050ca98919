//! The boards panel's state: the player's own board ("My board") and the
//! opponent's, each linked as its make needs, and the probe that finds
//! boards on the serial ports. What each seat's link should be
//! ([`SeatLink`]) follows from the settings and the last probe alone; the
//! app opens, closes and reopens links when that changes ([`RochadeApp::relink_boards`]).

use std::sync::mpsc::Receiver;

use super::RochadeApp;
use super::options::TimeSource;
use crate::board::{Format, PegMessage};
use crate::config::{BoardChoice, Settings, is_auto};
use crate::eboard::Kind;
use crate::serial::probe::Found;
use crate::serial::{BoardInput, Link, LinkConfig, LinkStatus};
use crate::session::board::BoardEvent;
use crate::session::{Event, Priority};

/// What a seat's link is, as the settings and the last probe make it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(super) enum SeatLink {
    /// No link: the keyboard, or no port set.
    #[default]
    None,
    /// An occupancy-only board (peg-board, LiBoard, Sentio) on a port.
    Peg {
        port: String,
        format: Format,
        baud: u32,
    },
    /// A serial e-board that knows its pieces.
    EBoard { port: String, kind: Kind },
    /// A Bluetooth LE e-board at an address (or "auto": the first board
    /// of its make the scan finds).
    Bluetooth { address: String, kind: Kind },
    /// The port is "auto" and no board of this make was found (yet).
    Searching(BoardChoice),
    /// This make cannot be reached in this build (the speech key says why).
    Unavailable(&'static str, BoardChoice),
}

impl SeatLink {
    /// The e-board's make, for a link to one.
    fn kind(&self) -> Option<Kind> {
        match self {
            SeatLink::EBoard { kind, .. } | SeatLink::Bluetooth { kind, .. } => Some(*kind),
            _ => None,
        }
    }
}

/// A running link, serial or Bluetooth LE.
pub(super) enum BoardLink {
    Serial(Link),
    Ble(crate::ble::BleLink),
}

impl BoardLink {
    /// Sends a command to the board (queued while the link is down).
    pub fn send(&self, command: crate::board::HostCommand) {
        match self {
            BoardLink::Serial(l) => l.send(command),
            BoardLink::Ble(l) => l.send(command),
        }
    }

    /// A line of the session's own in the board log.
    pub fn note(&self, at_ms: u64, text: &str) {
        match self {
            BoardLink::Serial(l) => l.note(at_ms, text),
            BoardLink::Ble(l) => l.note(at_ms, text),
        }
    }

    pub fn status(&self) -> LinkStatus {
        match self {
            BoardLink::Serial(l) => l.status(),
            BoardLink::Ble(l) => l.status(),
        }
    }
}

/// A running link and what it reports.
pub(super) struct Linked<M> {
    pub link: BoardLink,
    pub rx: Receiver<BoardInput<M>>,
}

/// Both seats' links, the probe and what it found.
#[derive(Default)]
pub(super) struct Boards {
    /// The player's own board when it is an occupancy-only board.
    pub peg: Option<Linked<PegMessage>>,
    /// The player's own board when it knows its pieces.
    pub my_eboard: Option<Linked<crate::eboard::Message>>,
    /// The opponent's board.
    pub opponent: Option<Linked<crate::eboard::Message>>,
    /// What each seat's link is now.
    pub mine_plan: SeatLink,
    pub opponent_plan: SeatLink,
    /// The probe running, if one is.
    probe: Option<Receiver<Vec<Found>>>,
    /// The boards the last probes found.
    pub found: Vec<Found>,
    /// Ports to probe besides those the system lists (pseudo-terminals).
    pub extra_ports: Vec<String>,
    /// The Bluetooth LE stack (none: the system's; tests give a fake).
    pub ble_transport: Option<crate::ble::TransportFactory>,
    /// Why a chosen board has no link, for the status line (written form).
    pub status: Option<String>,
}

impl Boards {
    /// No links yet; "Find boards" probes `extra_ports` too; Bluetooth
    /// boards are reached on `ble_transport` (none: the system's stack).
    pub fn new(
        extra_ports: Vec<String>,
        ble_transport: Option<crate::ble::TransportFactory>,
    ) -> Boards {
        Boards {
            extra_ports,
            ble_transport,
            ..Boards::default()
        }
    }

    /// The link of the player's own board, whichever its kind.
    pub fn mine(&self) -> Option<&BoardLink> {
        (self.peg.as_ref().map(|l| &l.link)).or(self.my_eboard.as_ref().map(|l| &l.link))
    }

    /// The link of the opponent's board.
    pub fn opponent(&self) -> Option<&BoardLink> {
        self.opponent.as_ref().map(|l| &l.link)
    }

    /// Whether a probe is running.
    pub fn probing(&self) -> bool {
        self.probe.is_some()
    }

    /// What the links reported since the last frame, as session events.
    fn take_events(&self) -> Vec<(u64, Event)> {
        let peg = self.peg.iter().flat_map(|l| l.rx.try_iter());
        let peg = peg.map(|i| (i.at_ms, Event::Board(i.event)));
        // A board that knows only occupancy (the Pegasus) goes to the
        // peg-board's tracker.
        let kind = self.mine_plan.kind();
        let mine = self.my_eboard.iter().flat_map(|l| l.rx.try_iter());
        let mine = mine.filter_map(move |i| {
            let event = match kind {
                Some(kind) => Event::own_eboard(kind, i.event)?,
                None => Event::EBoard(i.event),
            };
            Some((i.at_ms, event))
        });
        let opponent = self.opponent.iter().flat_map(|l| l.rx.try_iter());
        let opponent = opponent.map(|i| (i.at_ms, Event::Sighted(i.event)));
        peg.chain(mine).chain(opponent).collect()
    }
}

/// The first board of `kind` the probe found.
fn found_port(found: &[Found], kind: Kind) -> Option<String> {
    found
        .iter()
        .find(|f| f.kind == kind)
        .map(|f| f.port.clone())
}

/// The link a seat's board on `port` needs.
fn seat(choice: BoardChoice, port: Option<&str>, settings: &Settings, found: &[Found]) -> SeatLink {
    if choice == BoardChoice::Keyboard {
        return SeatLink::None;
    }
    let Some(port) = port.map(str::trim).filter(|p| !p.is_empty()) else {
        return SeatLink::None;
    };
    if choice.bluetooth() {
        return match choice.eboard().filter(|k| crate::ble::is_ble(*k)) {
            // The link scans for "auto" itself.
            Some(kind) => SeatLink::Bluetooth {
                address: port.to_owned(),
                kind,
            },
            None => SeatLink::Unavailable("board_bluetooth_unavailable", choice),
        };
    }
    // Only the boards that answer a probe can be looked for.
    if is_auto(port) && !crate::eboard::probe::PROBED.contains(&choice.code()) {
        return SeatLink::Unavailable("board_port_needed", choice);
    }
    if let Some(format) = choice.peg_format() {
        let baud = if settings.board.format == format {
            settings.board.baud()
        } else {
            format.default_baud()
        };
        return SeatLink::Peg {
            port: port.to_owned(),
            format,
            baud,
        };
    }
    let Some(kind) = choice.eboard() else {
        return SeatLink::Unavailable("board_not_in_build", choice);
    };
    if is_auto(port) {
        return match found_port(found, kind) {
            Some(port) => SeatLink::EBoard { port, kind },
            None => SeatLink::Searching(choice),
        };
    }
    SeatLink::EBoard {
        port: port.to_owned(),
        kind,
    }
}

/// The player's own board's link.
pub(super) fn my_seat(settings: &Settings, found: &[Found]) -> SeatLink {
    let choice = settings.board.my_board();
    seat(choice, settings.board.port.as_deref(), settings, found)
}

/// The opponent's board's link.
pub(super) fn opponent_seat(settings: &Settings, found: &[Found]) -> SeatLink {
    let choice = settings.board.opponent_board();
    seat(
        choice,
        settings.board.sighted_port.as_deref(),
        settings,
        found,
    )
}

/// Whether a seat waits for a probe ("auto" with nothing found yet).
fn searching(plan: &SeatLink) -> bool {
    matches!(plan, SeatLink::Searching(_))
}

impl RochadeApp {
    /// Opens, closes or reopens each seat's link as the settings and the
    /// last probe now say (at start, after Save in Settings, after a
    /// probe). Links need real time (their reports are stamped with it);
    /// with a manual clock (tests) nothing is linked.
    pub(super) fn relink_boards(&mut self) {
        let TimeSource::Real(epoch) = self.links.time else {
            return;
        };
        let Some(ctx) = self.wake.get().cloned() else {
            return;
        };
        let mine = my_seat(&self.settings, &self.links.boards.found);
        if mine != self.links.boards.mine_plan {
            if self.links.boards.peg.take().is_some() {
                self.dispatch(Event::Board(BoardEvent::LinkClosed));
            }
            if self.links.boards.my_eboard.take().is_some() {
                let closed = match self.links.boards.mine_plan.kind() {
                    Some(kind) => Event::own_eboard(kind, BoardEvent::LinkClosed),
                    None => Some(Event::EBoard(BoardEvent::LinkClosed)),
                };
                if let Some(closed) = closed {
                    self.dispatch(closed);
                }
            }
            match &mine {
                SeatLink::Peg { port, format, baud } => {
                    let mut cfg = LinkConfig::new(port.clone(), *format);
                    cfg.baud = *baud;
                    cfg.epoch = epoch;
                    cfg.log = board_log_path();
                    self.connect_board(cfg, ctx.clone());
                }
                SeatLink::EBoard { port, kind } => {
                    let mut cfg = LinkConfig::eboard(port.clone(), *kind);
                    cfg.epoch = epoch;
                    cfg.log = board_log_path();
                    cfg.memory_file = crate::serial::memory_file(*kind, "mine");
                    self.links.boards.my_eboard = self.spawn_link(cfg, ctx.clone());
                }
                SeatLink::Bluetooth { address, kind } => {
                    let log = board_log_path();
                    self.links.boards.my_eboard = self.spawn_ble(address, *kind, epoch, log, &ctx);
                }
                _ => {}
            }
        }
        let opponent = opponent_seat(&self.settings, &self.links.boards.found);
        if opponent != self.links.boards.opponent_plan {
            if self.links.boards.opponent.take().is_some() {
                self.dispatch(Event::Sighted(BoardEvent::LinkClosed));
            }
            let log = board_log_path().map(|l| l.with_extension("sighted.log"));
            match &opponent {
                SeatLink::EBoard { port, kind } => {
                    let mut cfg = LinkConfig::eboard(port.clone(), *kind);
                    cfg.epoch = epoch;
                    cfg.log = log;
                    cfg.memory_file = crate::serial::memory_file(*kind, "opponent");
                    self.connect_sighted_board(cfg, ctx.clone());
                }
                SeatLink::Bluetooth { address, kind } => {
                    self.links.boards.opponent = self.spawn_ble(address, *kind, epoch, log, &ctx);
                }
                _ => {}
            }
        }
        let changed =
            mine != self.links.boards.mine_plan || opponent != self.links.boards.opponent_plan;
        let searching = (searching(&mine) && !searching(&self.links.boards.mine_plan))
            || (searching(&opponent) && !searching(&self.links.boards.opponent_plan));
        self.links.boards.mine_plan = mine;
        self.links.boards.opponent_plan = opponent;
        if changed {
            self.say_board_status();
        }
        if searching {
            self.find_boards();
        }
    }

    /// Starts a Bluetooth LE board's link (on the stack the options gave:
    /// the system's, or a test's fake); its reports wake the window.
    fn spawn_ble(
        &mut self,
        address: &str,
        kind: Kind,
        epoch: std::time::Instant,
        log: Option<std::path::PathBuf>,
        ctx: &egui::Context,
    ) -> Option<Linked<crate::eboard::Message>> {
        let mut cfg = crate::ble::BleConfig::new(address, kind);
        if let Some(transport) = &self.links.boards.ble_transport {
            cfg = cfg.with_transport(transport.clone());
        }
        cfg.epoch = epoch;
        cfg.log = log;
        let (tx, rx) = std::sync::mpsc::channel();
        let ctx = ctx.clone();
        let spawned = crate::ble::BleLink::spawn(cfg, tx).and_then(|link| {
            super::waking::forward_waking("ble-wake", rx, move || ctx.request_repaint()).map(|rx| {
                Linked {
                    link: BoardLink::Ble(link),
                    rx,
                }
            })
        });
        match spawned {
            Ok(linked) => Some(linked),
            Err(e) => {
                self.window.note = Some(format!("{}: {e}", self.window.ui.get("connection")));
                None
            }
        }
    }

    /// Says (and writes in the status line) why a chosen board has no link.
    fn say_board_status(&mut self) {
        let unavailable = [
            &self.links.boards.mine_plan,
            &self.links.boards.opponent_plan,
        ]
        .into_iter()
        .find_map(|plan| match plan {
            SeatLink::Unavailable(key, choice) => Some((*key, *choice)),
            _ => None,
        });
        self.links.boards.status = None;
        if let Some((key, choice)) = unavailable {
            let text = self
                .session
                .pack()
                .phrase(key, &[("board", choice_name(choice).into())]);
            self.links.boards.status = Some(text.written.clone());
            self.say(text, Priority::Answer);
        }
    }

    /// Starts looking for boards on the serial ports, on a thread of its
    /// own (each port gets under a second); what it finds is said.
    pub(super) fn find_boards(&mut self) {
        if self.links.boards.probing() {
            return;
        }
        let Some(ctx) = self.wake.get().cloned() else {
            return;
        };
        // The ports our own links hold are not disturbed.
        let busy: Vec<String> = [self.links.boards.mine(), self.links.boards.opponent()]
            .into_iter()
            .flatten()
            .map(|l| l.status().port)
            .collect();
        let ports: Vec<String> = crate::serial::probe::candidates(&self.links.boards.extra_ports)
            .into_iter()
            .filter(|p| !busy.contains(p))
            .collect();
        let (tx, rx) = std::sync::mpsc::channel();
        let answer = std::time::Duration::from_millis(crate::serial::probe::ANSWER_MS);
        let spawned = std::thread::Builder::new()
            .name("board-probe".into())
            .spawn(move || {
                let _ = tx.send(crate::serial::probe::probe_ports(&ports, answer));
            });
        match spawned.and_then(|_| {
            super::waking::forward_waking("board-probe-wake", rx, move || ctx.request_repaint())
        }) {
            Ok(rx) => {
                self.links.boards.probe = Some(rx);
                self.say_key("boards_searching", Priority::Answer);
            }
            Err(e) => self.window.note = Some(e.to_string()),
        }
    }

    /// Takes the probe's answer, once it is in: new boards are said found,
    /// boards found before whose port no longer answers are said lost, and
    /// a seat waiting for its board is linked.
    fn poll_probe(&mut self) {
        let Some(rx) = &self.links.boards.probe else {
            return;
        };
        let found = match rx.try_recv() {
            Ok(found) => found,
            Err(std::sync::mpsc::TryRecvError::Empty) => return,
            Err(std::sync::mpsc::TryRecvError::Disconnected) => Vec::new(),
        };
        self.links.boards.probe = None;
        let busy: Vec<String> = [self.links.boards.mine(), self.links.boards.opponent()]
            .into_iter()
            .flatten()
            .map(|l| l.status().port)
            .collect();
        let before = std::mem::take(&mut self.links.boards.found);
        let mut now = found.clone();
        // A board behind one of our own links was not asked: still there.
        now.extend(
            before
                .iter()
                .filter(|f| busy.contains(&f.port) && !found.contains(f))
                .cloned(),
        );
        let pack = self.session.pack().clone();
        let mut said = Vec::new();
        for f in now.iter().filter(|f| !before.contains(f)) {
            said.push(pack.phrase(
                "board_found",
                &[
                    ("board", kind_name(f.kind).into()),
                    ("port", f.port.as_str().into()),
                ],
            ));
        }
        for f in before.iter().filter(|f| !now.contains(f)) {
            said.push(pack.phrase(
                "board_gone",
                &[
                    ("board", kind_name(f.kind).into()),
                    ("port", f.port.as_str().into()),
                ],
            ));
        }
        if now.is_empty() && said.is_empty() {
            said.push(pack.say("boards_none_found"));
        }
        self.links.boards.found = now;
        for text in said {
            self.say(text, Priority::Answer);
        }
        self.relink_boards();
    }

    /// Hands what the links reported since the last frame to the session,
    /// and takes the probe's answer.
    pub(super) fn poll_board(&mut self) {
        for (at_ms, event) in self.links.boards.take_events() {
            // The links stamp with the same epoch as the app's time source.
            let effects = self.session.handle(at_ms, event);
            self.apply_effects(effects);
        }
        self.poll_probe();
    }
}

/// A make's name as said and written ("DGT", "Millennium").
pub(super) fn kind_name(kind: Kind) -> &'static str {
    match kind.code().parse() {
        Ok(choice) => choice_name(choice),
        Err(_) => kind.code(),
    }
}

/// An e-board's make as said and written (a proper name, the same in
/// every language); the occupancy boards and the keyboard by their code.
pub(super) fn choice_name(choice: BoardChoice) -> &'static str {
    match choice {
        BoardChoice::Dgt => "DGT",
        BoardChoice::Millennium => "Millennium",
        BoardChoice::Certabo => "Certabo",
        BoardChoice::Chessnut => "Chessnut",
        BoardChoice::Pegasus => "Pegasus",
        BoardChoice::LiBoard => "LiBoard",
        BoardChoice::Sentio => "Sentio",
        other => other.code(),
    }
}

/// The day's board log in the data folder (`board-logs/2025-06-01.log`,
/// appended), if the folder can be written: the board's frames and the
/// app's decisions, for the arbiter and for replaying a game.
pub(super) fn board_log_path() -> Option<std::path::PathBuf> {
    board_log_in(&crate::paths::data_dir()?)
}

/// The day's board log in `data_dir`'s `board-logs` folder. The logs hold
/// the player's games: the folder is the user's alone (0700) and so is
/// each log (0600), also one an earlier version made open to all.
fn board_log_in(data_dir: &std::path::Path) -> Option<std::path::PathBuf> {
    let dir = data_dir.join("board-logs");
    let mut builder = std::fs::DirBuilder::new();
    builder.recursive(true);
    #[cfg(unix)]
    std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
    builder.create(&dir).ok()?;
    let path = dir.join(format!("{}.log", crate::savegame::today()));
    let mut options = std::fs::OpenOptions::new();
    options.create(true).append(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    #[cfg_attr(not(unix), allow(unused_variables))]
    let file = options.open(&path).ok()?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let _ = std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o700));
        let _ = file.set_permissions(std::fs::Permissions::from_mode(0o600));
    }
    Some(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(unix)]
    #[test]
    fn board_logs_are_the_users_alone() {
        use std::os::unix::fs::PermissionsExt;
        let data = tempfile::tempdir().unwrap();
        // A folder and a log an earlier version left open to all.
        let dir = data.path().join("board-logs");
        std::fs::create_dir(&dir).unwrap();
        std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o755)).unwrap();
        let log = board_log_in(data.path()).unwrap();
        let mode = |p: &std::path::Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode(&dir), 0o700);
        assert_eq!(mode(&log), 0o600);
        std::fs::set_permissions(&log, std::fs::Permissions::from_mode(0o644)).unwrap();
        assert_eq!(board_log_in(data.path()).unwrap(), log);
        assert_eq!(mode(&log), 0o600);
    }

    fn with(mine: BoardChoice, port: &str, opponent: BoardChoice, sighted: &str) -> Settings {
        let mut s = Settings::default();
        s.board.set_my_board(mine);
        s.board.port = (!port.is_empty()).then(|| port.to_owned());
        s.board.set_opponent_board(opponent);
        s.board.sighted_port = (!sighted.is_empty()).then(|| sighted.to_owned());
        s
    }

    #[test]
    fn each_seat_gets_the_link_its_board_needs() {
        let s = with(BoardChoice::LiBoard, "/dev/a", BoardChoice::Dgt, "/dev/b");
        assert_eq!(
            my_seat(&s, &[]),
            SeatLink::Peg {
                port: "/dev/a".into(),
                format: Format::LiBoard,
                baud: Format::LiBoard.default_baud()
            }
        );
        assert_eq!(
            opponent_seat(&s, &[]),
            SeatLink::EBoard {
                port: "/dev/b".into(),
                kind: Kind::Dgt
            }
        );
        let s = with(
            BoardChoice::Keyboard,
            "/dev/a",
            BoardChoice::Keyboard,
            "/dev/b",
        );
        assert_eq!(my_seat(&s, &[]), SeatLink::None);
        assert_eq!(opponent_seat(&s, &[]), SeatLink::None);
        let s = with(BoardChoice::Peg, "", BoardChoice::Chessnut, "auto");
        assert_eq!(my_seat(&s, &[]), SeatLink::None, "no port, no link");
        assert_eq!(
            opponent_seat(&s, &[]),
            SeatLink::Bluetooth {
                address: "auto".into(),
                kind: Kind::Chessnut
            },
            "a Bluetooth board scans for \"auto\" itself"
        );
        // The Pegasus, an occupancy board, in the player's own seat only.
        let s = with(BoardChoice::Pegasus, "auto", BoardChoice::Pegasus, "auto");
        assert_eq!(
            my_seat(&s, &[]),
            SeatLink::Bluetooth {
                address: "auto".into(),
                kind: Kind::Pegasus
            }
        );
        assert_ne!(s.board.opponent_board(), BoardChoice::Pegasus);
        let s = with(
            BoardChoice::Chessnut,
            "AA:BB:CC:DD:EE:FF",
            BoardChoice::Keyboard,
            "",
        );
        assert_eq!(
            my_seat(&s, &[]),
            SeatLink::Bluetooth {
                address: "AA:BB:CC:DD:EE:FF".into(),
                kind: Kind::Chessnut
            }
        );
    }

    #[test]
    fn an_auto_port_waits_for_the_probe_and_takes_what_it_found() {
        let s = with(BoardChoice::Peg, "/dev/a", BoardChoice::Dgt, "auto");
        assert_eq!(
            opponent_seat(&s, &[]),
            SeatLink::Searching(BoardChoice::Dgt)
        );
        let found = [Found {
            port: "/dev/ttyUSB3".into(),
            kind: Kind::Dgt,
        }];
        assert_eq!(
            opponent_seat(&s, &found),
            SeatLink::EBoard {
                port: "/dev/ttyUSB3".into(),
                kind: Kind::Dgt
            }
        );
        // A board that answers no probe needs its port typed.
        let s = with(BoardChoice::Peg, "auto", BoardChoice::Certabo, "auto");
        assert_eq!(
            my_seat(&s, &found),
            SeatLink::Unavailable("board_port_needed", BoardChoice::Peg)
        );
        assert_eq!(
            opponent_seat(&s, &found),
            SeatLink::Unavailable("board_port_needed", BoardChoice::Certabo)
        );
    }
}
