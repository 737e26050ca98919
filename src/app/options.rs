//! What the app is started with ([`AppOptions`]) and where its time
//! comes from ([`TimeSource`]).

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use crate::chess::GameRecord;
use crate::config::Settings;
use crate::save_worker::GameSaver;
use crate::speech::SpeechHandle;

/// Where the app's milliseconds come from: the wall clock, or a counter a
/// test advances by hand (so clocks and deadlines run in virtual time).
#[derive(Clone, Debug)]
pub enum TimeSource {
    Real(Instant),
    Manual(Arc<AtomicU64>),
}

impl TimeSource {
    pub fn now_ms(&self) -> u64 {
        match self {
            TimeSource::Real(epoch) => epoch.elapsed().as_millis() as u64,
            TimeSource::Manual(ms) => ms.load(Ordering::SeqCst),
        }
    }
}

/// Everything the app needs at start.
pub struct AppOptions {
    /// The settings (from `config::Settings::load`, or made up by a test).
    pub settings: Settings,
    /// Write settings changed in the dialog back to the config file.
    pub persist_settings: bool,
    pub speech: SpeechHandle,
    pub time: TimeSource,
    /// Show the simulated peg-board (first run without hardware).
    pub simulated_board: bool,
    /// The folder of the user's speech packs (`<config>/speech`); `None`:
    /// the bundled packs only (tests).
    pub pack_dir: Option<std::path::PathBuf>,
    /// An unfinished game to offer for resumption.
    pub resume: Option<GameRecord>,
    pub saver: Option<GameSaver>,
    /// Earcons go here when set (the shell opens the audio device).
    pub audio: Option<crate::audio::AudioOut>,
    /// A note to show once (e.g. "settings file unreadable, defaults used").
    pub startup_note: Option<String>,
    /// Speech-pack keys said at start, before anything else (a damaged
    /// save file, a second window); the note shows the details.
    pub startup_alerts: Vec<&'static str>,
    /// Print the time of the first spoken word on stderr (start-up figure).
    pub trace_startup: Option<Instant>,
    /// Print a line on stderr for every frame drawn (idle figure: proves
    /// the window repaints only on events and clock seconds).
    pub trace_frames: Option<Instant>,
    /// Whether a screen reader runs, found by the shell in the background;
    /// when it says yes, the app offers to let the screen reader speak.
    pub screen_reader: Option<std::sync::mpsc::Receiver<bool>>,
    /// The screen reader's own interface, when the shell found one (on
    /// Windows the look-up finds NVDA's or JAWS's itself; tests give a
    /// recorder).
    pub screen_reader_api: Option<crate::speech::screen_reader_api::DirectSpeech>,
    /// Ports "Find boards" probes besides those the system lists
    /// (pseudo-terminals are never listed).
    pub probe_ports: Vec<String>,
    /// The Bluetooth LE stack for Chessnut and Pegasus boards; none: the
    /// system's (tests give a fake one).
    pub ble_transport: Option<crate::ble::TransportFactory>,
    /// Recordings (16 kHz WAV) voice input hears instead of the
    /// microphone, through the same path ([`super::RECORDINGS_VARIABLE`]).
    pub voice_recordings: Vec<std::path::PathBuf>,
}

impl AppOptions {
    /// Default settings around a speech handle, in real time, nothing saved.
    pub fn new(speech: SpeechHandle) -> AppOptions {
        AppOptions {
            settings: Settings::default(),
            persist_settings: false,
            speech,
            time: TimeSource::Real(Instant::now()),
            simulated_board: false,
            pack_dir: None,
            resume: None,
            saver: None,
            audio: None,
            startup_note: None,
            startup_alerts: Vec::new(),
            trace_startup: None,
            trace_frames: None,
            screen_reader: None,
            screen_reader_api: None,
            probe_ports: Vec::new(),
            ble_transport: None,
            voice_recordings: Vec::new(),
        }
    }
}
