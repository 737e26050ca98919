//! The `--pgn` file of `play` and `track`, saved as the window saves its
//! game: off the command's thread ([`crate::save_worker::SaveLine`]), a
//! move announced once it is on disk, a slow disk said. Each save runs on
//! a thread of its own, overlapping the one under way (renames in order),
//! so on a slow disk a move waits for its own save only.
//!
//! A file that cannot be written (a full disk, a pulled stick) stops the
//! file, never the game: the failure is said once (a `pgn_failed` event,
//! stderr, the words), the whole game is written to a spare file instead
//! (`spare/` in the data folder, else the fallback folder), and the return
//! is said as `pgn_saved`. At quit, moves the file still lacks are said
//! with where the whole game is kept, and the command ends non-zero.

use std::io;
use std::path::{Path, PathBuf};
use std::time::Duration;

use serde_json::{Value, json};

use super::{CliError, CliResult};
use crate::chess::GameRecord;
use crate::runtime::Shell;
use crate::save_worker::{Place, SaveLine, SaveNews, SyncFolder, WithSaving};
use crate::savegame::SavedElsewhere;
use crate::session::{Priority, Speech};
use crate::words::{Lang, Pack, Token, Utterance};

/// How long the end waits for the saves still under way.
const FINISH_WAIT: Duration = Duration::from_millis(crate::app::SAVE_GIVE_UP_MS);

/// The `--pgn` file and its saving thread.
pub struct PgnSaving {
    line: SaveLine,
    state: State,
    /// The games finished this run, as PGN: kept in the file before the
    /// game being played (`track` follows a session of games).
    finished: std::sync::Arc<std::sync::Mutex<String>>,
}

/// The file's text: the games finished before, then `record` (left out
/// while it has no move, once a game was finished: the next game not yet
/// begun).
pub fn session_text(finished: &str, record: &GameRecord) -> String {
    let mut text = finished.to_owned();
    if finished.is_empty() || !record.moves().is_empty() {
        // PGN games are parted by an empty line.
        if !text.is_empty() && !text.ends_with("\n\n") {
            text.push('\n');
        }
        text.push_str(&crate::pgn::write_pgn(record));
    }
    text
}

/// What the file holds, as the finished saves told.
struct State {
    path: PathBuf,
    /// The last save failed (said once until one works).
    failing: bool,
    /// Plies the file holds (the last save that worked).
    on_disk: usize,
    /// Where the last failed save kept the whole game, if anywhere.
    spare: Option<PathBuf>,
    pack: Pack,
    lang: Lang,
    /// What still goes on when the file fails ("the game goes on").
    going_on: &'static str,
}

impl PgnSaving {
    /// Starts the saving thread for `path` (readied by the command);
    /// `going_on` ends the stderr line of a failure: what still goes on.
    pub fn start(
        path: PathBuf,
        pack: Pack,
        lang: Lang,
        going_on: &'static str,
    ) -> Result<PgnSaving, CliError> {
        let spare = spare_name(&path);
        let target = path.clone();
        let spare = std::sync::Arc::new(Spare {
            name: spare,
            newest: std::sync::Mutex::new(0),
        });
        let finished = std::sync::Arc::new(std::sync::Mutex::new(String::new()));
        let before = finished.clone();
        let line = SaveLine::spawn(std::sync::Arc::new(move |ticket, record: &GameRecord| {
            let finished = before.lock().unwrap_or_else(|e| e.into_inner()).clone();
            prepare(&target, &spare, ticket, &session_text(&finished, record))
        }))
        .map_err(|e| CliError::failure(format!("no thread to save {}: {e}", path.display())))?;
        Ok(PgnSaving {
            line,
            state: State {
                path,
                failing: false,
                on_disk: 0,
                spare: None,
                pack,
                lang,
                going_on,
            },
            finished,
        })
    }

    /// A game of the session is finished (the next one begins): the file
    /// keeps it before the next one.
    pub fn game_finished(&self, record: &GameRecord) {
        if record.moves().is_empty() {
            return;
        }
        let mut finished = self.finished.lock().unwrap_or_else(|e| e.into_inner());
        *finished = session_text(&finished, record);
    }

    /// `inner` with the saving in front (see [`SaveLine::shell`]).
    pub fn shell<'a, S: Shell + ?Sized>(
        &'a mut self,
        record: &'a GameRecord,
        inner: &'a mut S,
    ) -> WithSaving<'a, S> {
        self.line.shell(record, inner)
    }

    /// A save is under way or something waits for one: look again soon.
    pub fn busy(&self) -> bool {
        self.line.busy()
    }

    /// How long a command's loop may wait before it looks again (`wait`
    /// when nothing is being saved).
    pub fn wait(&self, wait: Duration) -> Duration {
        if self.busy() {
            wait.min(SaveLine::POLL)
        } else {
            wait
        }
    }

    /// Carries out through `shell` what waited for saves now on disk;
    /// what the saves tell is printed by `event` (a JSON line) and said.
    pub fn release<S: Shell<Error = CliError> + ?Sized>(
        &mut self,
        shell: &mut S,
        mut event: impl FnMut(&mut S, Value) -> CliResult,
    ) -> CliResult {
        let state = &mut self.state;
        self.line
            .release(shell, |shell, news| state.tell(shell, news, &mut event))
    }

    /// At the end: waits for the saves under way and carries out what
    /// waited. An error (a non-zero exit) when the file lacks moves of
    /// `record`, saying which and where the whole game is kept.
    pub fn finish<S: Shell<Error = CliError> + ?Sized>(
        &mut self,
        record: &GameRecord,
        shell: &mut S,
        mut event: impl FnMut(&mut S, Value) -> CliResult,
    ) -> CliResult {
        if self.state.failing {
            // One more try: the disk may have room again.
            let mut nothing_more = crate::runtime::Collect::default();
            let mut again = self.line.shell(record, &mut nothing_more);
            let Ok(_) = again.save_game();
        }
        let state = &mut self.state;
        self.line.finish(
            shell,
            |shell, news| state.tell(shell, news, &mut event),
            FINISH_WAIT,
        )?;
        let plies = record.moves().len();
        if self.state.on_disk >= plies && !self.state.failing {
            return Ok(());
        }
        let (words, text) = self.state.lacking(record);
        let value = json!({
            "event": "pgn_incomplete",
            "path": self.state.path.display().to_string(),
            "on_disk": self.state.on_disk,
            "plies": plies,
            "spare": self.state.spare.as_ref().map(|p| p.display().to_string()),
        });
        event(shell, value)?;
        self.state.say(shell, words)?;
        Err(CliError::failure(text))
    }
}

impl State {
    /// Tells what a save's news means for the file.
    fn tell<S: Shell<Error = CliError> + ?Sized>(
        &mut self,
        shell: &mut S,
        news: SaveNews,
        event: &mut impl FnMut(&mut S, Value) -> CliResult,
    ) -> CliResult {
        let shown = self.path.display().to_string();
        match news {
            SaveNews::Finished(done) => match done.result {
                Ok(()) => {
                    self.on_disk = done.plies;
                    self.spare = None;
                    if std::mem::replace(&mut self.failing, false) {
                        eprintln!("rochade: {shown} is written again");
                        event(shell, json!({"event": "pgn_saved", "path": shown}))?;
                    }
                }
                Err(e) => {
                    let elsewhere = SavedElsewhere::inside(&e);
                    self.spare = elsewhere.map(|s| s.path.clone());
                    if std::mem::replace(&mut self.failing, true) {
                        return Ok(());
                    }
                    let cause = elsewhere.map_or(e.to_string(), |s| s.cause.to_string());
                    let reason = format!("cannot write {shown}: {cause}");
                    let kept = self.spare.as_ref().map_or_else(
                        || "; the game could not be saved anywhere else".to_owned(),
                        |p| format!("; the whole game is kept in {}", p.display()),
                    );
                    eprintln!("rochade: {reason}; {}{kept}", self.going_on);
                    event(
                        shell,
                        json!({"event": "pgn_failed", "path": shown, "reason": reason,
                               "spare": self.spare.as_ref().map(|p| p.display().to_string())}),
                    )?;
                    let reason = match e.kind() {
                        io::ErrorKind::StorageFull | io::ErrorKind::QuotaExceeded => {
                            self.pack.say("save_no_space")
                        }
                        io::ErrorKind::ReadOnlyFilesystem | io::ErrorKind::PermissionDenied => {
                            self.pack.say("save_read_only")
                        }
                        _ => Utterance::from(cause.as_str()),
                    };
                    let words = self.pack.phrase("save_failed", &[("reason", reason)]);
                    self.say(shell, words)?;
                    if let Some(spare) = &self.spare {
                        let folder = folder_words(spare);
                        let words = self.pack.phrase("saved_elsewhere", &[("folder", folder)]);
                        self.say(shell, words)?;
                    }
                }
            },
            SaveNews::Slow => {
                eprintln!("rochade: saving {shown} is taking long; moves are announced once saved");
                event(shell, json!({"event": "save_slow", "path": shown}))?;
                let words = self.pack.say("save_slow");
                self.say(shell, words)?;
            }
            SaveNews::GaveUp => {
                eprintln!(
                    "rochade: {shown}: the disk has not answered for {} s; the move is announced before it is saved",
                    crate::app::SAVE_GIVE_UP_MS / 1000
                );
                event(shell, json!({"event": "save_gave_up", "path": shown}))?;
            }
        }
        Ok(())
    }

    fn say<S: Shell<Error = CliError> + ?Sized>(
        &self,
        shell: &mut S,
        text: Utterance,
    ) -> CliResult {
        shell.speak(Speech {
            text,
            lang: self.lang,
            priority: Priority::Alert,
        })
    }

    /// The words and the stderr line for moves the file lacks at the end.
    fn lacking(&self, record: &GameRecord) -> (Utterance, String) {
        let moves = record.moves();
        let first = self.on_disk.min(moves.len());
        let start = record.start_position();
        let first_move = shakmaty::Position::fullmoves(start).get() as usize
            + (first + usize::from(shakmaty::Position::turn(start).is_black())) / 2;
        let sans: Vec<String> = moves[first..].iter().map(|m| m.san.to_string()).collect();
        let file = file_words(&self.path);
        let from = self.pack.render(&[Token::Number(first_move as u64)]);
        let shown = self.path.display();
        match &self.spare {
            Some(spare) => (
                self.pack.phrase(
                    "pgn_lacks_moves",
                    &[
                        ("file", file),
                        ("from", from),
                        ("spare", folder_words(spare)),
                    ],
                ),
                format!(
                    "{shown} lacks {} half-move(s) from move {first_move} on ({}); \
                     the whole game is kept in {}",
                    sans.len(),
                    sans.join(" "),
                    spare.display()
                ),
            ),
            // The last save neither worked nor failed: the disk hangs.
            None if !self.failing => (
                self.pack.phrase(
                    "pgn_lacks_moves_unwritten",
                    &[("file", file), ("from", from)],
                ),
                format!(
                    "{shown} lacks {} half-move(s) from move {first_move} on ({}); \
                     the disk has not finished writing them",
                    sans.len(),
                    sans.join(" ")
                ),
            ),
            None => (
                self.pack
                    .phrase("pgn_lacks_moves_nowhere", &[("file", file), ("from", from)]),
                format!(
                    "{shown} lacks {} half-move(s) from move {first_move} on ({}); \
                     they could not be saved anywhere",
                    sans.len(),
                    sans.join(" ")
                ),
            ),
        }
    }
}

/// Flushes the game to disk beside the `--pgn` file; the steps after put
/// it in place and flush the folder. When a step fails, the whole game is
/// written to the spare file, carried in the error ([`SavedElsewhere`]).
fn prepare(
    path: &Path,
    spare: &std::sync::Arc<Spare>,
    ticket: u64,
    text: &str,
) -> io::Result<Place> {
    let text = text.to_owned();
    let prepared = match crate::storage::prepare_user_file(path, text.as_bytes()) {
        Ok(prepared) => prepared,
        Err(cause) => return Err(spare.keep(cause, ticket, &text)),
    };
    let spare = spare.clone();
    Ok(Box::new(move || match prepared.place() {
        Ok(placed) => Ok(Box::new(move || {
            placed.sync();
            Ok(())
        }) as SyncFolder),
        Err(cause) => Err(spare.keep(cause, ticket, &text)),
    }))
}

/// The spare file of this run and the newest save written to it.
struct Spare {
    name: PathBuf,
    newest: std::sync::Mutex<u64>,
}

impl Spare {
    /// The whole game in the spare file, unless a newer save's game is
    /// there already (saves run side by side); the error to report
    /// (`cause`, with where the game is kept when it could be).
    fn keep(&self, cause: io::Error, ticket: u64, text: &str) -> io::Error {
        let mut newest = self.newest.lock().unwrap_or_else(|e| e.into_inner());
        for dir in spare_dirs() {
            let at = dir.join(&self.name);
            let written = if *newest > ticket {
                // A newer game is there: this one's moves and more.
                if at.is_file() {
                    Ok(())
                } else {
                    Err(io::Error::from(io::ErrorKind::NotFound))
                }
            } else {
                crate::paths::private_dir(&dir)
                    .and_then(|()| crate::storage::write_atomically(&at, text.as_bytes()))
            };
            if written.is_ok() {
                *newest = (*newest).max(ticket);
                return io::Error::new(cause.kind(), SavedElsewhere { cause, path: at });
            }
        }
        cause
    }
}

/// Where a game the `--pgn` file could not take is kept: `spare/` in the
/// data folder, else the fallback folder (Documents/Rochade).
fn spare_dirs() -> Vec<PathBuf> {
    let data = crate::paths::data_dir().map(|d| d.join("spare"));
    data.into_iter()
        .chain(crate::savegame::fallback_dir())
        .collect()
}

/// The spare file's name for `path`, one of its own for this run
/// (`game-20261128-0912.pgn`): no earlier run's spare is replaced.
fn spare_name(path: &Path) -> PathBuf {
    let stem = path
        .file_stem()
        .map_or("game".into(), |s| s.to_string_lossy().into_owned());
    let now = jiff::Zoned::now();
    PathBuf::from(format!("{stem}-{}.pgn", now.strftime("%Y%m%d-%H%M%S-%3f")))
}

/// A file's name as it is said (the folder is printed on stderr).
fn file_words(path: &Path) -> Utterance {
    let name = path.file_name().unwrap_or(path.as_os_str());
    Utterance::from(name.to_string_lossy().as_ref())
}

/// A file's folder as it is said: its last two names ("Documents,
/// Rochade"); the whole path written.
fn folder_words(path: &Path) -> Utterance {
    let folder = path.parent().unwrap_or(path);
    let names: Vec<String> = folder
        .components()
        .rev()
        .take(2)
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    Utterance {
        written: path.display().to_string(),
        spoken: names.into_iter().rev().collect::<Vec<_>>().join(", "),
    }
}
