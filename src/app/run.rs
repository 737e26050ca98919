//! Starting the desktop app: settings, speech, sound, saved game, board
//! link, and the eframe window. Everything here is shell; the app state is
//! in [`super::RochadeApp`].

use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::time::Instant;

use super::RochadeApp;
use super::options::{AppOptions, TimeSource};
use super::text::UiText;
use crate::chess::GameRecord;
use crate::config::Settings;
use crate::speech::{BackendChoice, RecordingLog, SpeechConfig, SpeechService};
use crate::words::Utterance;

/// `ROCHADE_SPEECH=silent|recording|system|clips|auto` overrides the
/// speech backend of the settings (tests, measurements under Xvfb).
pub fn speech_config_from_env(settings: &Settings) -> SpeechConfig {
    let mut config = settings.speech_config();
    if let Ok(value) = std::env::var("ROCHADE_SPEECH") {
        config.backend = match value.trim().to_ascii_lowercase().as_str() {
            "recording" => BackendChoice::Recording(RecordingLog::new()),
            other => other.parse().unwrap_or(config.backend),
        };
    }
    config
}

/// Why the app's exports were not written (said after "Export failed").
#[derive(Debug, thiserror::Error)]
pub enum ExportGameError {
    #[error("no data folder")]
    NoDataFolder,
    #[error("{}: {source}", path.display())]
    Write {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error(transparent)]
    Export(#[from] crate::export::ExportError),
    #[error("the export thread could not start: {0}")]
    NoThread(std::io::Error),
    #[error("the export thread stopped")]
    ThreadStopped,
}

/// Writes the game as PGN, Braille (BRF) and a text scoresheet into
/// `<data folder>/exports/`; returns every file written, the PGN first.
pub fn export_game(
    record: &GameRecord,
    options: crate::export::ExportOptions,
) -> Result<Vec<PathBuf>, ExportGameError> {
    let write_error = |path: &Path| {
        let path = path.to_path_buf();
        move |source| ExportGameError::Write { path, source }
    };
    let dir = crate::paths::data_dir()
        .ok_or(ExportGameError::NoDataFolder)?
        .join(crate::savegame::EXPORTS_DIR);
    crate::paths::private_dir(&dir).map_err(write_error(&dir))?;
    let stem = export_stem(
        &crate::pgn::compact_stamp(jiff::Timestamp::now()),
        &record.tags.white,
        &record.tags.black,
    );
    let exporter = crate::louis::exporter(options)?;
    // The exports carry today's date where the game has none yet.
    let mut record = record.clone();
    if record.tags.date_unknown() {
        record.tags.date = crate::pgn::pgn_date(crate::savegame::today());
    }
    let record = &record;
    let mut written = Vec::new();
    for format in [
        crate::export::Format::Pgn,
        crate::export::Format::Brf,
        crate::export::Format::Text,
    ] {
        let bytes = exporter.render(record, format)?;
        let path = dir.join(format!("{stem}.{}", format.extension()));
        crate::storage::write_atomically(&path, &bytes).map_err(write_error(&path))?;
        written.push(path);
    }
    Ok(written)
}

/// The files an export wrote, to be said: written, every full path (where
/// the words are printed, to find the files); spoken, short: the players,
/// the three formats and the folder (its last two names), never the time
/// stamp of every file name nor the whole path.
pub(super) fn written_files(pack: &crate::words::Pack, paths: &[PathBuf]) -> Utterance {
    let folder: Vec<String> = paths
        .first()
        .and_then(|p| p.parent())
        .into_iter()
        .flat_map(|p| p.components().rev().take(2))
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    let folder: Vec<String> = folder.into_iter().rev().collect();
    let game = paths
        .first()
        .and_then(|p| p.file_stem())
        .and_then(|stem| players_in_stem(&stem.to_string_lossy()))
        .map_or_else(|| pack.say("exported_game"), Utterance::from);
    let spoken = pack.phrase(
        "exported_files",
        &[
            ("game", game),
            ("folder", Utterance::from(folder.join(", "))),
        ],
    );
    let written: Vec<String> = paths.iter().map(|p| p.display().to_string()).collect();
    Utterance {
        written: written.join(", "),
        spoken: spoken.spoken,
    }
}

/// The players' names in an export's file name ([`export_stem`]: the time
/// stamp's digits, then the names, `_` for other signs), to be said; None
/// for "game".
fn players_in_stem(stem: &str) -> Option<String> {
    let names: Vec<String> = stem
        .split('-')
        .skip_while(|part| !part.is_empty() && part.bytes().all(|b| b.is_ascii_digit()))
        .map(|name| name.replace('_', " "))
        .collect();
    (!names.is_empty() && names != ["game"]).then(|| names.join(", "))
}

/// The exports' file name without its extension: the time, then the
/// players' names that are known; "game" only when neither is (two
/// unknown names made `...-game-game.pgn`).
fn export_stem(stamp: &str, white: &str, black: &str) -> String {
    let names: Vec<String> = [white, black].into_iter().filter_map(file_safe).collect();
    if names.is_empty() {
        format!("{stamp}-game")
    } else {
        format!("{stamp}-{}", names.join("-"))
    }
}

/// A player's name as part of a file name; None for an unknown one ("?",
/// empty, nothing but signs).
fn file_safe(name: &str) -> Option<String> {
    let s: String = name
        .chars()
        .map(|c| if c.is_alphanumeric() { c } else { '_' })
        .collect();
    (!s.trim_matches('_').is_empty()).then_some(s)
}

/// Takes the save folder for this window: the game to offer, the saver
/// and what to say at start. A second window (the folder is locked by the
/// first) offers nothing and saves nothing: every save fails with "another
/// Rochade window is using the save folder", said after every move.
/// A data folder that is full or read-only saves into `fallback`
/// ([`crate::savegame::SavedElsewhere`]); at start both folders are
/// searched and the game in progress is offered (the other kept).
pub fn open_save_folder(
    store: std::io::Result<crate::savegame::GameStore>,
    fallback: Option<PathBuf>,
    notes: &mut Vec<String>,
) -> (
    Option<GameRecord>,
    crate::save_worker::GameSaver,
    Vec<&'static str>,
) {
    use crate::savegame::SaveFile;
    let store = match store {
        Ok(store) => store,
        Err(e) => {
            notes.push(e.to_string());
            let saver = Box::new(move |_: &GameRecord| Err(std::io::Error::other(e.to_string())));
            return (None, saver, Vec::new());
        }
    };
    // A folder that cannot be locked (read-only) is guarded by a lock in
    // the fallback folder, where this window would save instead.
    let lock = store.lock().or_else(|e| {
        let fallback = fallback
            .as_ref()
            .ok_or_else(|| std::io::Error::other(e.to_string()))?;
        notes.push(format!("{}: {e}", store.dir().display()));
        crate::savegame::GameStore::new(fallback).lock()
    });
    let lock = match lock {
        Ok(Some(lock)) => Some(lock),
        Ok(None) => {
            notes.push(format!(
                "Rochade is already open in another window; this window does not save the game \
                 (the save folder {} is in use).",
                store.dir().display()
            ));
            let saver = Box::new(|_: &GameRecord| {
                Err(std::io::Error::new(
                    std::io::ErrorKind::ResourceBusy,
                    "another Rochade window is using the save folder",
                ))
            });
            return (None, saver, vec!["second_instance"]);
        }
        Err(e) => {
            // A read-only folder cannot be locked either; saving says so.
            notes.push(format!("{}: {e}", store.dir().display()));
            None
        }
    };
    if lock.is_some() {
        store.remove_stale_temps();
    }
    // Folders an older version made readable by everyone are narrowed.
    store.make_private();
    // Both folders are searched: a game saved in the fallback folder while
    // the data folder could not be written may be newer than the data
    // folder's. The game in progress is offered (see `in_progress`); the
    // other, unless the offered one continues it, is kept in its folder's
    // archive and named.
    let mut found = store.at_start();
    let fallback = fallback.map(crate::savegame::GameStore::new);
    let mut from_fallback = false;
    let mut alerts = Vec::new();
    if let Some(spare) = &fallback {
        spare.make_private();
        let other = spare.at_start();
        if let Some(problem) = other.problem {
            notes.push(problem.to_string());
            alerts.push("save_damaged");
        }
        match (&found.game, other.game) {
            (None, Some(game)) => {
                found.game = Some(game);
                found.prefix_of_damaged = other.prefix_of_damaged;
                from_fallback = true;
            }
            (Some(here), Some(there)) => {
                let spare_first = in_progress(
                    (here, store.current_saved_at()),
                    (&there, spare.current_saved_at()),
                );
                let (newer, older, older_store) = if spare_first {
                    (there, here.clone(), &store)
                } else {
                    (here.clone(), there, spare)
                };
                if crate::savegame::continues(&newer, &older) {
                    // The newer game holds every move of the older one.
                    if std::ptr::eq(older_store, spare) {
                        let _ = spare.discard_current();
                    }
                } else {
                    match older_store.archive(&older) {
                        Ok(path) => {
                            let _ = older_store.discard_current();
                            notes.push(format!(
                                "Another unfinished game ({} moves) was kept as {}.",
                                older.moves().len(),
                                path.display()
                            ));
                        }
                        Err(e) => notes.push(format!(
                            "Another unfinished game ({} moves) in {} could not be archived ({e}); \
                             it stays there.",
                            older.moves().len(),
                            older_store.dir().display()
                        )),
                    }
                }
                from_fallback = !std::ptr::eq(older_store, spare);
                found.game = Some(newer);
            }
            _ => {}
        }
    }
    if let Some(problem) = found.problem {
        notes.push(problem.to_string());
        alerts.push(if found.prefix_of_damaged {
            "save_damaged_prefix"
        } else {
            "save_damaged"
        });
    }
    let mut file = SaveFile::new(store, found.game.clone(), lock);
    if let Some(fallback) = fallback {
        file = file.with_fallback(fallback, from_fallback);
    }
    let saver = Box::new(move |record: &GameRecord| file.save(record).map(|_| ()));
    (found.game, saver, alerts)
}

/// Whether the second of two unfinished games is the one in progress: the
/// one that holds every move of the other, else the one saved last (a game
/// declined at start and a new one begun in the spare folder on a full
/// disk: the new one), else the longer.
fn in_progress(
    (first, first_at): (&GameRecord, Option<std::time::SystemTime>),
    (second, second_at): (&GameRecord, Option<std::time::SystemTime>),
) -> bool {
    use crate::savegame::continues;
    if continues(second, first) || continues(first, second) {
        return second.moves().len() > first.moves().len();
    }
    match (first_at, second_at) {
        (Some(a), Some(b)) if a != b => b > a,
        _ => second.moves().len() > first.moves().len(),
    }
}

/// A problem at start as the banner shows it: what happened and what to do
/// (the interface text `key`), then the technical cause, which alone
/// ("alsa:default: The requested audio device is not available") told the
/// user nothing to do.
fn start_problem(ui: &UiText, key: &str, cause: &str) -> String {
    format!(
        "{} ({}: {cause})",
        ui.get(key),
        ui.get("start_problem_cause")
    )
}

/// Why the app could not run.
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    #[error(transparent)]
    Speech(#[from] crate::speech::SpeechError),
    #[error(transparent)]
    Window(#[from] eframe::Error),
}

/// Opens the window and runs until it closes.
pub fn run() -> Result<(), RunError> {
    let trace = |name: &str| (std::env::var(name).as_deref() == Ok("1")).then(Instant::now);
    let trace_startup = trace("ROCHADE_TRACE_STARTUP");
    let trace_frames = trace("ROCHADE_TRACE_FRAMES");
    let loaded = Settings::load();
    let settings = loaded.settings;
    let mut notes: Vec<String> = loaded.warning.into_iter().collect();

    let ui = UiText::bundled(settings.interface_language);
    let config = speech_config_from_env(&settings);
    let speech = match SpeechService::spawn(config.clone()) {
        Ok(h) => h,
        Err(e) => {
            // The window opens anyway, with the clip voice (or silent when
            // that cannot play either); the note is said and shown.
            match SpeechService::spawn(SpeechConfig {
                backend: BackendChoice::Clips,
                ..config
            }) {
                Ok(h) => {
                    notes.push(start_problem(&ui, "start_speech_clips", &e.to_string()));
                    h
                }
                Err(clips) => {
                    notes.push(start_problem(
                        &ui,
                        "start_speech_silent",
                        &format!("{e}; {clips}"),
                    ));
                    SpeechService::spawn(SpeechConfig {
                        backend: BackendChoice::Silent,
                        ..SpeechConfig::default()
                    })?
                }
            }
        }
    };
    let audio = match crate::audio::AudioOut::open() {
        Ok(a) => Some(a),
        Err(e) => {
            notes.push(start_problem(&ui, "start_sound", &e.to_string()));
            None
        }
    };
    let (resume, saver, startup_alerts) = open_save_folder(
        crate::savegame::GameStore::open_default(),
        crate::savegame::fallback_dir(),
        &mut notes,
    );
    let epoch = Instant::now();
    let options = AppOptions {
        // The simulated board stays off until the user turns it on
        // (Ctrl+B or the menu): a board nobody uses must not talk.
        simulated_board: false,
        persist_settings: true,
        pack_dir: crate::words::user_pack_dir(),
        speech,
        time: TimeSource::Real(epoch),
        resume,
        saver: Some(saver),
        audio,
        startup_note: (!notes.is_empty()).then(|| notes.join("; ")),
        startup_alerts,
        trace_startup,
        trace_frames,
        settings,
        screen_reader: None,
        screen_reader_api: None,
        probe_ports: Vec::new(),
        ble_transport: None,
        voice_recordings: super::recordings_from_env(),
    };
    let native = eframe::NativeOptions {
        viewport: egui::ViewportBuilder::default()
            .with_title("Rochade")
            .with_app_id("rochade")
            .with_inner_size(super::layout::FIRST_SIZE)
            .with_min_inner_size([640.0, 480.0]),
        // Dithering adds noise to every pixel against colour banding in
        // gradients. The app has no gradients, only flat high-contrast
        // colours, where the noise is visible speckle; and it is shader
        // work on every repaint.
        dithering: false,
        ..eframe::NativeOptions::default()
    };
    eframe::run_native(
        "Rochade",
        native,
        Box::new(move |cc| {
            let mut options = options;
            // Whether a screen reader runs: for the offer to let it speak
            // (asked once), to hand it the window's keys (Orca) and its
            // words through its own interface (NVDA, JAWS).
            let (found, reach) = super::screen_reader::detect_in_background(cc.egui_ctx.clone());
            options.screen_reader = Some(found);
            let mut app = RochadeApp::new(options);
            app.screen_reader.reach_rx = Some(reach);
            // Each seat's board linked (or looked for, on "auto") at once.
            app.wake.get_or_init(|| cc.egui_ctx.clone());
            app.relink_boards();
            Ok(Box::new(app))
        }),
    )?;
    Ok(())
}

impl RochadeApp {
    /// Starts the serial link thread; its reports wake the window.
    pub fn connect_board(&mut self, cfg: crate::serial::LinkConfig, ctx: egui::Context) {
        self.links.boards.peg = self.spawn_link(cfg, ctx);
    }

    /// Starts the sighted player's e-board link (a DGT board).
    pub fn connect_sighted_board(
        &mut self,
        cfg: crate::serial::LinkConfig<crate::eboard::AnyDecoder>,
        ctx: egui::Context,
    ) {
        self.links.boards.opponent = self.spawn_link(cfg, ctx);
    }

    /// Starts a link to a board of any kind (generic over its
    /// [`crate::board::Protocol`]).
    pub(super) fn spawn_link<P: crate::board::Protocol>(
        &mut self,
        cfg: crate::serial::LinkConfig<P>,
        ctx: egui::Context,
    ) -> Option<super::boards::Linked<P::Message>> {
        let (link_tx, link_rx) = mpsc::channel();
        match crate::serial::Link::spawn(cfg, link_tx) {
            Ok(link) => {
                match super::waking::forward_waking("board-wake", link_rx, move || {
                    ctx.request_repaint()
                }) {
                    Ok(rx) => Some(super::boards::Linked {
                        link: super::boards::BoardLink::Serial(link),
                        rx,
                    }),
                    Err(e) => {
                        self.window.note = Some(e.to_string());
                        None
                    }
                }
            }
            Err(e) => {
                self.window.note = Some(format!("{}: {e}", self.window.ui.get("connection")));
                None
            }
        }
    }
}

#[cfg(test)]
mod export_name_tests {
    use super::*;

    #[test]
    fn a_speech_or_sound_problem_at_start_says_what_to_do() {
        use crate::words::Lang;
        let cause = "alsa:default: The requested audio device is not available";
        for lang in [Lang::En, Lang::De, Lang::Pt] {
            let ui = super::super::text::UiText::bundled(lang);
            for key in ["start_sound", "start_speech_clips", "start_speech_silent"] {
                let text = start_problem(&ui, key, cause);
                assert!(text.contains(cause), "{text}");
                assert!(
                    text.contains("Settings")
                        || text.contains("Einstellungen")
                        || text.contains("Configura"),
                    "{lang:?} {key}: where to change it: {text}"
                );
                assert!(text.len() > cause.len() + 60, "{text}");
            }
        }
    }

    #[test]
    fn unknown_names_make_no_game_game_file() {
        let stamp = "20261126-1700";
        assert_eq!(export_stem(stamp, "?", "?"), "20261126-1700-game");
        assert_eq!(export_stem(stamp, "", "?"), "20261126-1700-game");
        assert_eq!(export_stem(stamp, "Anna", "?"), "20261126-1700-Anna");
        assert_eq!(
            export_stem(stamp, "Player", "Computer level 2"),
            "20261126-1700-Player-Computer_level_2"
        );
    }

    #[test]
    fn every_file_written_is_named() {
        let dir = PathBuf::from("/data/rochade/exports");
        let paths: Vec<PathBuf> = ["1-2-game.pgn", "1-2-game.brf", "1-2-game.txt"]
            .iter()
            .map(|n| dir.join(n))
            .collect();
        let pack = crate::words::Pack::bundled(crate::words::Lang::En);
        let said = written_files(&pack, &paths);
        assert_eq!(
            said.spoken,
            "the game as PGN, Braille and text, in the folder rochade, exports"
        );
        // Each path as the system writes it (a backslash before the name on
        // Windows).
        let written: Vec<String> = paths.iter().map(|p| p.display().to_string()).collect();
        assert_eq!(said.written, written.join(", "));
        assert!(said.written.starts_with("/data/rochade/exports"));
    }

    #[test]
    fn an_export_is_said_by_its_players_not_its_time_stamps() {
        let dir = PathBuf::from("/home/ana/.local/share/rochade/exports");
        let stem = export_stem("20261128-090000", "Ana Souza", "Computer level 2");
        let paths: Vec<PathBuf> = ["pgn", "brf", "txt"]
            .iter()
            .map(|x| dir.join(format!("{stem}.{x}")))
            .collect();
        let pack = crate::words::Pack::bundled(crate::words::Lang::Pt);
        let said = written_files(&pack, &paths);
        assert_eq!(
            said.spoken,
            "Ana Souza, Computer level 2 em PGN, Braille e texto, na pasta rochade, exports"
        );
        assert!(
            said.written.contains(&format!("{stem}.brf")),
            "{}",
            said.written
        );
    }
}
