//! `rochade track`: follow a board on a serial port (a peg-board, LiBoard
//! or Sentio; a DGT, Millennium, Certabo, Chessnut or DGT Pegasus e-board,
//! see [`super::track_eboard`]), or replay a
//! board log in virtual time, printing one JSON object per line for every
//! event (`touched`, `move`, `mismatch`, `in_sync`, `promotion`,
//! `takeback_requested`, `new_game`, `link`, ...). With `--pgn` the game is
//! written as PGN after every move; the games finished before it (the
//! board set back to the start) stay in the file before it.

use std::path::PathBuf;

use shakmaty::Role;

use super::follow::{FormatArg, PegLog, follow_ports, replay_log};
use super::track_driver::Driver;
use super::{CliError, CliResult};
use crate::board::{Decoder, TrackerConfig, log};
use crate::serial::LinkConfig;
use crate::session::board::BoardEvent;
use crate::session::{Event, Session, SessionConfig};
use crate::words::Lang;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// Wire format: peg (the default), liboard, sentio, dgt, millennium,
    /// certabo, chessnut or pegasus (a log's header names its format).
    #[arg(long)]
    pub format: Option<FormatArg>,
    /// Baud rate (default: the format's usual rate).
    #[arg(long)]
    pub baud: Option<u32>,
    /// Language of the announcements.
    #[arg(long, default_value = "de")]
    pub lang: Lang,
    /// Settle window in milliseconds: shorter states are sensor glitches.
    #[arg(long)]
    pub settle_ms: Option<u64>,
    /// Default promotion piece when none is chosen in time.
    #[arg(
        long,
        ignore_case = true,
        value_parser = clap::builder::TypedValueParser::map(
            clap::builder::EnumValueParser::<PromotionPiece>::new(),
            Role::from
        )
    )]
    pub promote_to: Option<Role>,
    /// Strict tournament rules (rook before king is touch-move).
    #[arg(long)]
    pub strict: bool,
    /// Start position as FEN instead of the standard one.
    #[arg(long)]
    pub fen: Option<String>,
    /// Write the game as PGN to this file (after every move).
    #[arg(long)]
    pub pgn: Option<PathBuf>,
    /// Replay a board log instead of reading a port.
    #[arg(long, conflicts_with = "port")]
    pub log: Option<PathBuf>,
    /// Record the board log of a live session to this file.
    #[arg(long, requires = "port")]
    pub board_log: Option<PathBuf>,
    /// The sighted player's e-board on this port (its kind:
    /// --sighted-format), beside the player's board: two boards, one record
    /// (moves read on either are expected on the other).
    #[arg(long, requires = "port")]
    pub sighted: Option<String>,
    /// The sighted player's e-board's kind: dgt, millennium, certabo or
    /// chessnut (a board that knows its pieces; not the occupancy-only
    /// Pegasus).
    #[arg(long, default_value = "dgt")]
    pub sighted_format: crate::eboard::Kind,
    /// Tournament mode (as in the app): strict touch-move, clock on request.
    #[arg(long)]
    pub tournament: bool,
    /// Wait for a board whose port does not exist yet (said once) instead
    /// of ending with an error.
    #[arg(long, requires = "port")]
    pub wait: bool,
    /// Which way round an e-board that knows its pieces lies: auto (found
    /// from what it shows, in either reading), straight (as it reports: a
    /// Millennium a8 first) or turned (h1 first).
    #[arg(long, default_value = "auto")]
    pub orientation: crate::board::OrientationChoice,
    /// Push the game to this Lichess broadcast round after every move (its
    /// id: the 8 letters and digits at the end of the round's address),
    /// with the token (scope study:write). The tags --event, --round-tag,
    /// --white and --black match it to its board.
    #[arg(long)]
    pub push_round: Option<String>,
    /// The server pushed to (Lichess, or one with the same API).
    #[arg(long, default_value = crate::online::DEFAULT_SERVER, requires = "push_round")]
    pub server: String,
    /// First wait before a failed push is tried again (ms).
    #[arg(long, default_value_t = 1000, hide = true)]
    pub push_backoff_ms: u64,
    /// The wait after "too many requests" (ms; Lichess asks a minute).
    #[arg(long, default_value_t = 60_000, hide = true)]
    pub push_rate_limit_ms: u64,
    /// How long the end waits for the last push (ms).
    #[arg(long, default_value_t = 30_000, hide = true)]
    pub push_wait_ms: u64,
    #[command(flatten)]
    pub tags: super::track_push::GameTags,
    /// Serial port (a device path; pseudo-terminals work too), or a
    /// Bluetooth board's address (or auto) for chessnut and pegasus.
    #[arg(required_unless_present = "log")]
    pub port: Option<String>,
}

/// The name of a format as the command line and a log's header write it.
pub(super) fn format_name(format: FormatArg) -> String {
    match format {
        FormatArg::Board(f) => f.to_string(),
        FormatArg::EBoard(kind) => kind.to_string(),
    }
}

/// A port that does not exist ends `track` at once with its name (it waited
/// silently for ever), unless `--wait` asks to wait for it: then that is
/// said once.
fn check_ports(args: &Args) -> CliResult {
    // A Bluetooth board's port is its address (or `auto`), no device file.
    let bluetooth = matches!(args.format, Some(FormatArg::EBoard(k))
        if crate::ble::over_bluetooth(k, args.port.as_deref()));
    let port = args.port.iter().filter(|_| !bluetooth);
    for port in port.chain(args.sighted.iter()) {
        if !cfg!(unix) || std::path::Path::new(port).exists() {
            continue;
        }
        if args.wait {
            eprintln!("rochade: waiting for the board on {port} to be plugged in");
        } else {
            return Err(CliError::input(format!(
                "{port}: no such port. Is the board plugged in? Give its port \
                 (ls /dev/ttyUSB* /dev/ttyACM*), or add --wait to wait for it"
            )));
        }
    }
    Ok(())
}

/// A promotion piece on the command line.
#[derive(Clone, Copy, Debug, clap::ValueEnum)]
enum PromotionPiece {
    #[value(alias = "q")]
    Queen,
    #[value(alias = "r")]
    Rook,
    #[value(alias = "b")]
    Bishop,
    #[value(alias = "n")]
    Knight,
}

impl From<PromotionPiece> for Role {
    fn from(piece: PromotionPiece) -> Role {
        match piece {
            PromotionPiece::Queen => Role::Queen,
            PromotionPiece::Rook => Role::Rook,
            PromotionPiece::Bishop => Role::Bishop,
            PromotionPiece::Knight => Role::Knight,
        }
    }
}

pub fn run(args: Args) -> CliResult {
    let log_text = match &args.log {
        Some(path) => Some(
            crate::read_capped::read_text_capped(path, crate::read_capped::BOARD_LOG_CAP)
                .map_err(|e| CliError::input(format!("cannot read {}: {e}", path.display())))?,
        ),
        None => None,
    };
    let header_format = log_text.as_deref().and_then(|text| {
        text.lines()
            .take_while(|l| l.starts_with('#'))
            .flat_map(|l| l.split_whitespace())
            .find_map(|w| w.strip_prefix("format=")?.parse::<FormatArg>().ok())
    });
    // A log names the format it was recorded in: another one given would
    // read every line as garbage and print nothing (it exited 0).
    if let (Some(given), Some(recorded)) = (args.format, header_format)
        && given != recorded
    {
        let path = args.log.as_ref().map(|p| p.display().to_string());
        return Err(CliError::input(format!(
            "{}: the format looks wrong: the log was recorded from a {} board, \
             not {}; leave --format out or give --format {}",
            path.unwrap_or_default(),
            format_name(recorded),
            format_name(given),
            format_name(recorded)
        )));
    }
    if args.sighted.is_some() && args.sighted_format.occupancy_only() {
        return Err(CliError::input(format!(
            "--sighted-format {}: the sighted player's board must know its pieces, and a \
             DGT Pegasus tells only which squares are occupied; give dgt, millennium, \
             certabo or chessnut",
            args.sighted_format
        )));
    }
    if args.log.is_none() {
        check_ports(&args)?;
    }
    let format = args.format.or(header_format);
    let eboard = match format {
        Some(FormatArg::EBoard(kind)) => Some(kind),
        _ => None,
    };
    let format = format.and_then(FormatArg::board);
    let config = SessionConfig {
        lang: args.lang,
        mode: if args.tournament {
            crate::session::Mode::Tournament
        } else {
            crate::session::Mode::default()
        },
        // Nothing answers a question here: a board set back to the start
        // after a game starts the next game at once.
        questions_answered: false,
        ..SessionConfig::default()
    };
    let pack = super::load_pack(config.lang);
    let lang = config.lang;
    let mut tags = crate::chess::Tags::default();
    args.tags.apply(&mut tags);
    let mut session = Session::with_pack(config, pack.clone()).with_tags(tags);
    let push = match &args.push_round {
        Some(round) => Some(super::track_push::TrackPush::start(
            round,
            &args.server,
            super::track_push::PushWaits {
                backoff_ms: args.push_backoff_ms.max(1),
                rate_limit_ms: args.push_rate_limit_ms,
                finish_ms: args.push_wait_ms,
            },
        )?),
        None => None,
    };
    if let Some(fen) = &args.fen {
        session.set_start_fen(fen).map_err(CliError::input)?;
    }
    let mut tracker = TrackerConfig {
        strict: args.strict,
        ..TrackerConfig::default()
    };
    if let Some(ms) = args.settle_ms {
        tracker.settle_ms = ms;
    }
    if let Some(role) = args.promote_to {
        tracker.promote_to = role;
    }
    tracker.orientation = args.orientation;
    let mut driver = Driver {
        session,
        pgn: match &args.pgn {
            Some(path) => Some(super::pgn_saving::PgnSaving::start(
                path.clone(),
                pack,
                lang,
                "the board is still followed",
            )?),
            None => None,
        },
        link: None,
        ble: None,
        sighted: None,
        push,
    };
    let sighted = args.sighted.clone().map(|port| (port, args.sighted_format));
    if let Some(kind) = eboard {
        // The guidance time is the one tracker setting an e-board takes;
        // an occupancy-only board (the Pegasus) takes them all, and its
        // lights guide.
        tracker.guide_lights = kind.occupancy_only();
        tracker.complete_slides = kind.occupancy_only();
        if kind.occupancy_only() && args.settle_ms.is_none() {
            tracker.settle_ms = crate::eboard::pegasus::SETTLE_MS;
        }
        // A board that knows its pieces settles in the recognizer.
        tracker.eboard_settle_ms = args.settle_ms.filter(|_| !kind.occupancy_only());
        let configure = BoardEvent::Configure(tracker);
        let configure = Event::own_eboard(kind, configure).expect("a setting is an event");
        driver.handle(0, configure)?;
        let run = super::track_eboard::Run {
            kind,
            log: log_text.as_deref(),
            port: args.port.clone(),
            baud: args.baud,
            board_log: args.board_log.clone(),
            sighted,
        };
        return super::track_eboard::run(driver, run);
    }
    driver.handle(0, Event::Board(BoardEvent::Configure(tracker)))?;

    if let Some(text) = &log_text {
        let format = format.unwrap_or_default();
        let entries = log::parse_log(text).map_err(|e| CliError::input(e.to_string()))?;
        if entries.is_empty() {
            // An empty or cut log is no game: said, never a silent success.
            let path = args
                .log
                .as_ref()
                .map(|p| p.display().to_string())
                .unwrap_or_default();
            return Err(CliError::input(format!(
                "{path}: the board log holds no board message"
            )));
        }
        return replay_log(&mut driver, entries, PegLog(Decoder::new(format)));
    }

    let format = format.unwrap_or_default();
    let baud = args.baud.unwrap_or(format.default_baud());
    let board_log = args.board_log.clone();
    follow_ports(
        &mut driver,
        args.port.clone(),
        |port, epoch| LinkConfig {
            baud,
            log: board_log,
            epoch,
            ..LinkConfig::new(port, format)
        },
        sighted,
    )
}
