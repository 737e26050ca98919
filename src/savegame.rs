//! Game safety: the scoresheet is written to disk after every move, so a
//! crash, a flat battery or a closed window loses nothing.
//!
//! The game in progress lives in `<data dir>/current-game.pgn` (PGN, so an
//! arbiter can open it with any chess program). Each write goes to a
//! temporary file first and is renamed over the old one. On the next start
//! [`GameStore::unfinished_game`] offers a game without a result for
//! resumption. A finished game is archived as
//! `<data dir>/games/<date>-<white>-<black>.pgn` and the current file is
//! removed.
//!
//! The app saves through [`SaveFile`] on its saving thread
//! ([`crate::save_worker`]): one window at a time holds the folder
//! ([`GameStore::lock`], a second is refused), a game not resumed is
//! archived rather than overwritten, and a full or read-only folder saves
//! into [`fallback_dir`] ([`SavedElsewhere`]). At start
//! [`GameStore::remove_stale_temps`] clears what a killed write left and
//! [`GameStore::at_start`] offers the unfinished game or the readable start
//! of a damaged file (kept as `.bad-<time>`).
//!
//! The PGN is written and read by [`crate::pgn`] with the save file's
//! extras ([`WriteOptions::SAVE`]): `[%at]` game times, clock readings to the
//! millisecond, the `EndReason` tag and a pending draw offer. A file that
//! cannot be read whole is reported by [`read_save`] as damaged, with the
//! moves read before the damage.

use std::io;
use std::path::{Path, PathBuf};

use crate::chess::GameRecord;
use crate::pgn::WriteOptions;
use crate::storage::write_atomically;

/// The game in progress, inside the data folder.
pub const CURRENT_FILE: &str = "current-game.pgn";
/// Finished games, inside the data folder.
pub const ARCHIVE_DIR: &str = "games";
/// Held locked by the app that saves into the folder (one at a time).
pub const LOCK_FILE: &str = ".lock";
/// The window's exports (PGN, Braille, text), inside the data folder.
pub const EXPORTS_DIR: &str = "exports";

/// What [`GameStore::save_current`] did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Saved {
    /// The game goes on; it was written here.
    InProgress(PathBuf),
    /// The game is over; it was archived here and the current file removed.
    Archived(PathBuf),
}

impl Saved {
    pub fn path(&self) -> &Path {
        match self {
            Saved::InProgress(p) | Saved::Archived(p) => p,
        }
    }
}

/// The saved-games folder (the data folder, or a temporary one in tests).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameStore {
    dir: PathBuf,
}

impl GameStore {
    pub fn new(dir: impl Into<PathBuf>) -> GameStore {
        GameStore { dir: dir.into() }
    }

    /// The store in [`crate::paths::data_dir`] (`ROCHADE_DATA_DIR` overrides).
    pub fn open_default() -> io::Result<GameStore> {
        crate::paths::data_dir()
            .map(GameStore::new)
            .ok_or_else(|| io::Error::new(io::ErrorKind::NotFound, "no data folder on this system"))
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    pub fn current_path(&self) -> PathBuf {
        self.dir.join(CURRENT_FILE)
    }

    pub fn archive_dir(&self) -> PathBuf {
        self.dir.join(ARCHIVE_DIR)
    }

    pub fn exports_dir(&self) -> PathBuf {
        self.dir.join(EXPORTS_DIR)
    }

    /// Narrows the folder, its archive and its exports to the user only
    /// (0700 where the system has modes), as they are made; for folders an
    /// older version made readable by everyone (called at start).
    pub fn make_private(&self) {
        for dir in [self.dir.clone(), self.archive_dir(), self.exports_dir()] {
            crate::paths::narrow_if_exists(&dir);
        }
    }

    /// When the save file was last written (its modification time), if
    /// there is one.
    pub fn current_saved_at(&self) -> Option<std::time::SystemTime> {
        std::fs::metadata(self.current_path()).ok()?.modified().ok()
    }

    /// Saves the game after a move (the session's `Effect::SaveGame`): an
    /// unfinished game to the current file, a finished one to the archive.
    pub fn save_current(&self, record: &GameRecord) -> io::Result<Saved> {
        if record.is_over() {
            let archived = self.archive(record)?;
            self.discard_current()?;
            Ok(Saved::Archived(archived))
        } else {
            let path = self.current_path();
            crate::paths::private_dir(&self.dir)?;
            write_atomically(&path, save_text(record).as_bytes())?;
            Ok(Saved::InProgress(path))
        }
    }

    /// Writes a game to `games/<date>-<white>-<black>.pgn` (a counter is
    /// added if that exists) and returns the path.
    pub fn archive(&self, record: &GameRecord) -> io::Result<PathBuf> {
        let dir = self.archive_dir();
        crate::paths::private_dir(&self.dir)?;
        crate::paths::private_dir(&dir)?;
        let date = archive_date(&record.tags.date);
        let stem = format!(
            "{date}-{}-{}",
            file_name_part(&record.tags.white),
            file_name_part(&record.tags.black)
        );
        let text = save_text(record);
        for n in 1..10_000 {
            let name = if n == 1 {
                format!("{stem}.pgn")
            } else {
                format!("{stem}-{n}.pgn")
            };
            let path = dir.join(name);
            if path.exists() {
                // The same game saved again (e.g. the result event twice).
                if crate::read_capped::read_capped(&path, crate::read_capped::PGN_CAP)
                    .is_ok_and(|old| old == text.as_bytes())
                {
                    return Ok(path);
                }
                continue;
            }
            write_atomically(&path, text.as_bytes())?;
            return Ok(path);
        }
        Err(io::Error::new(
            io::ErrorKind::AlreadyExists,
            "too many games with the same name",
        ))
    }

    /// Removes the current game if `record` continues it (it is saved
    /// elsewhere now); a different game, or one with moves `record` lacks,
    /// is archived first: a save never drops a game it does not hold.
    pub fn discard_if_continued(&self, record: &GameRecord) -> io::Result<()> {
        if let Ok(SaveRead::Intact(here)) = self.read_current()
            && !continues(record, &here)
        {
            self.archive(&here)?;
        }
        self.discard_current()
    }

    /// Removes the current game (the user chose not to resume it, or it was
    /// archived). A missing file is fine.
    pub fn discard_current(&self) -> io::Result<()> {
        match std::fs::remove_file(self.current_path()) {
            Err(e) if e.kind() != io::ErrorKind::NotFound => Err(e),
            _ => Ok(()),
        }
    }

    /// Takes the folder for this process: an advisory lock on `.lock`,
    /// released when the process ends in any way (kill -9 included).
    /// `Ok(None)`: another Rochade holds it, and must be the only one to
    /// write the save file.
    pub fn lock(&self) -> io::Result<Option<StoreLock>> {
        crate::paths::private_dir(&self.dir)?;
        let file = std::fs::OpenOptions::new()
            .create(true)
            .write(true)
            .truncate(false)
            .open(self.dir.join(LOCK_FILE))?;
        match file.try_lock() {
            Ok(()) => Ok(Some(StoreLock { _file: file })),
            Err(std::fs::TryLockError::WouldBlock) => Ok(None),
            Err(std::fs::TryLockError::Error(e)) => Err(e),
        }
    }

    /// Removes temporary files a killed save left behind (call with the
    /// lock held, so no other writer is mid-save); how many.
    pub fn remove_stale_temps(&self) -> usize {
        crate::storage::remove_stale_temps(&self.current_path())
    }

    /// What to offer at start: the unfinished game, or the readable start
    /// of a damaged save file (the file itself is moved aside, never
    /// deleted, and `problem` names both files).
    pub fn at_start(&self) -> AtStart {
        let path = self.current_path();
        match self.read_current() {
            Ok(SaveRead::Damaged { prefix, error }) => {
                let problem = self.set_aside(&path, &describe(&error));
                let game = prefix.filter(|g| !g.is_over());
                AtStart {
                    prefix_of_damaged: game.is_some(),
                    game,
                    problem: Some(problem),
                }
            }
            _ => match self.unfinished_game() {
                Ok(game) => AtStart {
                    game,
                    problem: None,
                    prefix_of_damaged: false,
                },
                Err(problem) => AtStart {
                    game: None,
                    problem: Some(problem),
                    prefix_of_damaged: false,
                },
            },
        }
    }

    /// The game to offer for resumption at start: one with at least one
    /// move (or a draw offer) and no result. A finished game found there
    /// (the app stopped between archiving and clearing) is archived now.
    /// A file that cannot be read is moved to `current-game.pgn.bad-<time>`
    /// (never deleted) and the error names both files.
    pub fn unfinished_game(&self) -> Result<Option<GameRecord>, SavedGameProblem> {
        let path = self.current_path();
        let record = match self.read_current() {
            Ok(SaveRead::Empty) => return Ok(None),
            Ok(SaveRead::Intact(record)) => record,
            Ok(SaveRead::Damaged { error, .. }) => {
                return Err(self.set_aside(&path, &describe(&error)));
            }
            Err(e) => return Err(self.set_aside(&path, &format!("it cannot be read: {e}"))),
        };
        if record.is_over() {
            self.save_current(&record)
                .map_err(|error| SavedGameProblem::NotArchived { path, error })?;
            return Ok(None);
        }
        let started = !record.moves().is_empty() || record.open_draw_offer().is_some();
        Ok(started.then_some(record))
    }

    /// The save file as it is on disk (nothing moved or changed).
    pub fn read_current(&self) -> io::Result<SaveRead> {
        // Only a regular file of a sensible size: a FIFO or a device in
        // its place is refused at once (and set aside), never read for ever.
        match crate::read_capped::read_capped(&self.current_path(), crate::read_capped::PGN_CAP) {
            Ok(bytes) => Ok(read_save(&bytes)),
            Err(e) if e.is_not_found() => Ok(SaveRead::Empty),
            Err(e) => Err(e.into()),
        }
    }

    fn set_aside(&self, path: &Path, problem: &str) -> SavedGameProblem {
        let stamp = crate::pgn::compact_stamp(jiff::Timestamp::now());
        let kept = path.with_file_name(format!("{CURRENT_FILE}.bad-{stamp}"));
        let (path, problem) = (path.to_path_buf(), problem.to_owned());
        match std::fs::rename(&path, &kept) {
            Ok(()) => SavedGameProblem::MovedAside {
                path,
                problem,
                kept,
            },
            Err(error) => SavedGameProblem::NotMovedAside {
                path,
                problem,
                error,
            },
        }
    }
}

/// What went wrong with the saved game at start, naming the files (for
/// the screen).
#[derive(Debug, thiserror::Error)]
pub enum SavedGameProblem {
    /// Unreadable (`problem` says why), kept under another name.
    #[error(
        "The saved game {} could not be read ({problem}); it was moved to {}.",
        path.display(),
        kept.display()
    )]
    MovedAside {
        path: PathBuf,
        problem: String,
        kept: PathBuf,
    },
    #[error(
        "The saved game {} could not be read ({problem}) nor moved aside ({error}).",
        path.display()
    )]
    NotMovedAside {
        path: PathBuf,
        problem: String,
        error: io::Error,
    },
    /// A finished game found there could not be archived.
    #[error("could not archive the finished game in {}: {error}", path.display())]
    NotArchived { path: PathBuf, error: io::Error },
}

/// The save folder taken by this process ([`GameStore::lock`]).
#[derive(Debug)]
pub struct StoreLock {
    _file: std::fs::File,
}

/// What [`GameStore::at_start`] found.
#[derive(Debug)]
pub struct AtStart {
    /// The game to offer for resumption.
    pub game: Option<GameRecord>,
    /// The save file was damaged: `game` is the part that could be read.
    pub prefix_of_damaged: bool,
    /// What went wrong, naming the files (for the screen).
    pub problem: Option<SavedGameProblem>,
}

/// The app's saver: writes the save file, keeps the folder locked while it
/// lives, and archives the game offered at start if the user did not
/// resume it (a discarded game is kept in `games/`, never overwritten).
pub struct SaveFile {
    store: GameStore,
    offered: Option<GameRecord>,
    /// The offered game, not resumed and archived (in either folder),
    /// while the data folder's save file may still hold it: removed from
    /// there once the new game is saved, so it is never offered again.
    declined: Option<GameRecord>,
    _lock: Option<StoreLock>,
    /// Where to save when the data folder is full or read-only.
    fallback: Option<GameStore>,
    /// The fallback holds a game that now goes on in the data folder.
    clear_fallback: bool,
    /// The fallback folder, locked like the data folder when it can be.
    _fallback_lock: Option<StoreLock>,
}

/// A save that failed in the data folder (`cause`) but was written to
/// the fallback folder instead (`path`). Carried inside the
/// [`io::Error`] the saver returns, so the failure is still said.
#[derive(Debug, thiserror::Error)]
#[error("{cause}; saved in {} instead", path.display())]
pub struct SavedElsewhere {
    pub cause: io::Error,
    pub path: PathBuf,
}

impl SavedElsewhere {
    /// The `SavedElsewhere` inside a saver's error, if it is one.
    pub fn inside(e: &io::Error) -> Option<&SavedElsewhere> {
        e.get_ref()?.downcast_ref()
    }
}

/// `Documents/Rochade` (or the platform's equivalent): where a game is
/// saved when the data folder is full or read-only. Without a Documents
/// folder, the user's own state folder (`~/.local/state/rochade/spare` on
/// Linux, the local application data elsewhere): never a temporary folder
/// shared by every user of the machine and wiped at reboot.
pub fn fallback_dir() -> Option<PathBuf> {
    if let Some(dir) = std::env::var_os("ROCHADE_SPARE_DIR") {
        return Some(PathBuf::from(dir));
    }
    directories::UserDirs::new()
        .and_then(|d| d.document_dir().map(|p| p.join("Rochade")))
        .or_else(|| {
            let dirs = directories::ProjectDirs::from("org", "Rochade", "rochade")?;
            let base = dirs
                .state_dir()
                .unwrap_or_else(|| dirs.data_local_dir())
                .to_path_buf();
            Some(base.join("spare"))
        })
}

/// Whether `longer` is `shorter` played on (the same start, its moves and
/// more): saving `longer` over `shorter` loses nothing.
pub fn continues(longer: &GameRecord, shorter: &GameRecord) -> bool {
    longer.start_fen() == shorter.start_fen() && longer.moves().starts_with(shorter.moves())
}

impl SaveFile {
    pub fn new(store: GameStore, offered: Option<GameRecord>, lock: Option<StoreLock>) -> SaveFile {
        SaveFile {
            store,
            offered,
            declined: None,
            _lock: lock,
            fallback: None,
            clear_fallback: false,
            _fallback_lock: None,
        }
    }

    /// Saves into `fallback` when the data folder cannot be written;
    /// `resumed_from_it`: the offered game came from there.
    pub fn with_fallback(mut self, fallback: GameStore, resumed_from_it: bool) -> SaveFile {
        // A second window must not write there either (a lock that cannot
        // be had, e.g. the folder does not exist yet, is taken at the
        // first save there).
        self._fallback_lock = fallback.lock().ok().flatten();
        self.fallback = Some(fallback);
        self.clear_fallback = resumed_from_it;
        self
    }

    /// Saves `record` (the session's `Effect::SaveGame`). The first save
    /// of a game that does not continue the offered one archives that.
    /// A full or read-only data folder saves into the fallback folder
    /// and says so ([`SavedElsewhere`]).
    pub fn save(&mut self, record: &GameRecord) -> io::Result<Saved> {
        let cause = match Self::save_in(&self.store, &mut self.offered, &mut self.declined, record)
        {
            Ok(saved) => {
                // The save file holds the new game now.
                self.declined = None;
                if self.clear_fallback
                    && let Some(fallback) = &self.fallback
                    && fallback.discard_if_continued(record).is_ok()
                {
                    self.clear_fallback = false;
                }
                return Ok(saved);
            }
            Err(e) => e,
        };
        let elsewhere = matches!(
            cause.kind(),
            io::ErrorKind::StorageFull
                | io::ErrorKind::QuotaExceeded
                | io::ErrorKind::ReadOnlyFilesystem
                | io::ErrorKind::PermissionDenied
        );
        let Some(fallback) = self.fallback.as_ref().filter(|_| elsewhere) else {
            return Err(cause);
        };
        match Self::save_in(fallback, &mut self.offered, &mut self.declined, record) {
            Ok(saved) => {
                self.clear_fallback = true;
                // A game that ended went to the fallback folder's archive:
                // the data folder's older copy of it must go, or the next
                // start offers it as the game in progress (its first
                // moves; an unfinished game in the fallback folder is
                // preferred to it at start instead). Removing a file needs
                // no room on a full disk; a copy this record does not
                // continue is kept.
                if record.is_over()
                    && let Ok(SaveRead::Intact(here)) = self.store.read_current()
                    && continues(record, &here)
                {
                    let _ = self.store.discard_current();
                }
                // A full folder still lets a file go: the declined game,
                // archived, must not be the one offered at the next start.
                if let Some(old) = &self.declined
                    && self.store.discard_if_continued(old).is_ok()
                {
                    self.declined = None;
                }
                Err(io::Error::new(
                    cause.kind(),
                    SavedElsewhere {
                        path: saved.path().to_owned(),
                        cause,
                    },
                ))
            }
            Err(_) => Err(cause),
        }
    }

    /// Archives the offered game if this record does not continue it
    /// (then it is `declined`), then saves the record, in `store`.
    fn save_in(
        store: &GameStore,
        offered: &mut Option<GameRecord>,
        declined: &mut Option<GameRecord>,
        record: &GameRecord,
    ) -> io::Result<Saved> {
        if let Some(old) = offered.as_ref() {
            let resumed = continues(record, old);
            if !resumed {
                store.archive(old)?;
            }
            let old = offered.take();
            if !resumed {
                *declined = old;
            }
        }
        store.save_current(record)
    }
}

/// Today's date where the user is (UTC if the time zone is unknown): the
/// shell reads the clock, the PGN writer gets the date passed in.
pub fn today() -> jiff::civil::Date {
    jiff::Zoned::now().date()
}

/// `2025-06-01` from a PGN date, today's date where it is unknown.
fn archive_date(pgn_date: &str) -> String {
    crate::pgn::parse_pgn_date(pgn_date)
        .unwrap_or_else(today)
        .to_string()
}

/// A player's name as part of a file name: letters and digits kept
/// (accents included), everything else a single `_`.
fn file_name_part(name: &str) -> String {
    let mut out = String::new();
    for c in name.trim().chars() {
        if c.is_alphanumeric() {
            out.push(c);
        } else if !out.ends_with('_') && !out.is_empty() {
            out.push('_');
        }
    }
    let out = out.trim_end_matches('_');
    let out: String = out.chars().take(40).collect();
    if out.is_empty() { "NN".into() } else { out }
}

// ---------------------------------------------------------------- PGN

/// The save file's text, with today's date where the game has none.
fn save_text(record: &GameRecord) -> String {
    crate::pgn::write(record, &WriteOptions::SAVE.dated(today()))
}

pub use crate::pgn::save::{SaveFileError, SaveRead, describe, from_pgn, read_save, to_pgn};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::Claim;
    use shakmaty::Color;
    use shakmaty::san::San;

    fn play(record: &mut GameRecord, sans: &str) {
        record
            .play_sans(sans)
            .unwrap_or_else(|e| panic!("{sans}: {e}"));
    }

    fn play_at(record: &mut GameRecord, san: &str, at_ms: u64, clock_ms: u64) {
        let mv = san
            .parse::<San>()
            .unwrap()
            .to_move(record.position())
            .unwrap();
        record.play(mv, Some(at_ms)).unwrap();
        record.set_last_clock(clock_ms);
    }

    /// What a round trip must keep: everything the scoresheet shows.
    fn assert_same(a: &GameRecord, b: &GameRecord) {
        assert_eq!(a.tags, b.tags);
        assert_eq!(a.start_fen(), b.start_fen());
        assert_eq!(a.moves(), b.moves());
        assert_eq!(a.end(), b.end());
        assert_eq!(a.open_draw_offer(), b.open_draw_offer());
        assert_eq!(a.fen(), b.fen());
    }

    fn round_trip(record: &GameRecord) -> GameRecord {
        let text = to_pgn(record);
        from_pgn(&text).unwrap_or_else(|e| panic!("{e}\n{text}"))
    }

    fn tournament_game() -> GameRecord {
        let mut g = GameRecord::new();
        g.tags.event = "Blind \"Open\" \\ 2025".into();
        g.tags.site = "São Paulo".into();
        g.tags.date = "2025.06.01".into();
        g.tags.round = "3".into();
        g.tags.white = "Müller, Jörg".into();
        g.tags.black = "Silva, João".into();
        g.tags.time_control = Some("5400+30".into());
        g.tags.extra = vec![
            ("Board".into(), "12".into()),
            ("Annotator".into(), "Rochade".into()),
        ];
        play_at(&mut g, "e4", 1_200, 5_428_800);
        play_at(&mut g, "e5", 9_950, 5_421_250);
        g.offer_draw(Color::Black);
        play_at(&mut g, "Nf3", 15_000, 5_443_000);
        play(&mut g, "Nc6");
        g
    }

    #[test]
    fn a_save_file_with_an_unreadable_move_is_damaged_keeping_the_moves_before() {
        let text = "[Event \"x\"]\n\n1. e4 e5 2. Nf3 Nc6x 3. Bb5 *\n";
        let SaveRead::Damaged { prefix, error } = read_save(text.as_bytes()) else {
            panic!("read as intact");
        };
        assert_eq!(prefix.unwrap().moves().len(), 3);
        assert_eq!(
            describe(&error),
            "line 3, column 17: move 2... Nc6x: cannot be read as a move"
        );
        assert_eq!(
            from_pgn(text).unwrap_err().to_string(),
            "line 3, column 17: move 2... Nc6x: cannot be read as a move"
        );
    }

    #[test]
    fn round_trip_keeps_tags_clocks_times_and_offers() {
        let g = tournament_game();
        assert!(g.moves()[1].draw_offer);
        let back = round_trip(&g);
        assert_same(&g, &back);
        assert_eq!(back.moves()[1].clock_ms, Some(5_421_250));
        assert_eq!(back.moves()[0].at_ms, Some(1_200));
        assert_eq!(to_pgn(&back), to_pgn(&g));
    }

    #[test]
    fn pgn_text_is_what_an_arbiter_expects() {
        let text = to_pgn(&tournament_game());
        assert!(
            text.starts_with("[Event \"Blind \\\"Open\\\" \\\\ 2025\"]\n"),
            "{text}"
        );
        assert!(text.contains("[White \"Müller, Jörg\"]\n"));
        assert!(text.contains("[Result \"*\"]\n[TimeControl \"5400+30\"]\n[Board \"12\"]\n"));
        let movetext = text.split("\n\n").nth(1).unwrap().replace('\n', " ");
        assert_eq!(
            movetext.trim_end(),
            "1. e4 {[%clk 1:30:28.800] [%at 0:00:01.200]} 1... e5 \
             {[%clk 1:30:21.250] [%at 0:00:09.950] (=)} 2. Nf3 \
             {[%clk 1:30:43] [%at 0:00:15]} 2... Nc6 *"
        );
        assert!(text.trim_end().ends_with("Nc6 *"), "{text}");
        assert!(text.lines().all(|l| l.len() < 80));
    }

    #[test]
    fn line_breaks_in_names_cannot_break_the_file() {
        let mut g = GameRecord::new();
        g.tags.white = "Ana\n[Result \"1-0\"]".into();
        play(&mut g, "e4");
        let back = round_trip(&g);
        assert_eq!(back.tags.white, "Ana [Result \"1-0\"]");
        assert_eq!(back.result_str(), "*");
        assert_eq!(back.moves().len(), 1);
    }

    #[test]
    fn start_fen_and_pending_offer_round_trip() {
        let mut g = GameRecord::from_fen("4k3/8/8/8/8/8/P7/R3K3 b - - 3 40").unwrap();
        play(&mut g, "Kd7 a4");
        g.offer_draw(Color::Black);
        assert_eq!(g.open_draw_offer(), Some(Color::Black));
        assert!(!g.last_move().unwrap().draw_offer);
        let text = to_pgn(&g);
        assert!(
            text.contains("[SetUp \"1\"]\n[FEN \"4k3/8/8/8/8/8/P7/R3K3 b - - 3 40\"]"),
            "{text}"
        );
        assert!(text.contains("40... Kd7 41. a4"), "{text}");
        let back = round_trip(&g);
        assert_same(&g, &back);
    }

    #[test]
    fn results_and_reasons_round_trip() {
        let mut cases = Vec::new();
        let mut mate = GameRecord::new();
        play(&mut mate, "f3 e5 g4 Qh4#");
        cases.push(mate);
        let mut resigned = GameRecord::new();
        play(&mut resigned, "e4");
        resigned.resign(Color::Black);
        cases.push(resigned);
        let mut agreed = GameRecord::new();
        play(&mut agreed, "d4");
        agreed.offer_draw(Color::White);
        assert!(agreed.accept_draw(Color::Black));
        cases.push(agreed);
        let mut flag = GameRecord::new();
        play(&mut flag, "e4 e5");
        flag.flag_fall(Color::White);
        cases.push(flag);
        let mut flag_draw = GameRecord::from_fen("4k3/8/8/8/8/8/8/R3K3 w - - 0 1").unwrap();
        flag_draw.flag_fall(Color::White);
        cases.push(flag_draw);
        let mut threefold = GameRecord::new();
        play(&mut threefold, "Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1 Ng8");
        assert!(threefold.claim(Claim::ThreefoldRepetition, None).correct);
        cases.push(threefold);
        let mut fifty = GameRecord::from_fen("4k3/8/8/8/8/8/8/R3K3 w - - 99 80").unwrap();
        let mv = "Ra2"
            .parse::<San>()
            .unwrap()
            .to_move(fifty.position())
            .unwrap();
        assert!(fifty.claim(Claim::FiftyMoves, Some(mv)).correct);
        cases.push(fifty);
        for g in cases {
            let back = round_trip(&g);
            assert_same(&g, &back);
            assert!(back.is_over());
        }
    }

    #[test]
    fn foreign_pgn_with_unknown_reason_keeps_the_result() {
        let back = from_pgn("[Result \"0-1\"]\n\n1. e4 e5 0-1\n").unwrap();
        assert_eq!(back.result_str(), "0-1");
        assert_eq!(back.moves().len(), 2);
    }

    #[test]
    fn bad_pgn_names_the_move() {
        let err = from_pgn("1. e4 e5 2. Ke3 *").unwrap_err().to_string();
        assert!(err.contains("move 2. Ke3"), "{err}");
        let err = from_pgn("[Result \"1-0\"]\n\n1. f3 e5 2. g4 Qh4# 1-0")
            .unwrap_err()
            .to_string();
        assert!(err.contains("does not match"), "{err}");
    }

    #[test]
    fn unfinished_game_is_saved_and_offered() {
        let dir = tempfile::tempdir().unwrap();
        let store = GameStore::new(dir.path().join("data"));
        assert!(matches!(store.unfinished_game(), Ok(None)));
        let mut g = tournament_game();
        let saved = store.save_current(&g).unwrap();
        assert_eq!(saved, Saved::InProgress(store.current_path()));
        play(&mut g, "Bb5");
        store.save_current(&g).unwrap();
        let offered = store.unfinished_game().unwrap().expect("offered");
        assert_same(&g, &offered);
        // No temporary files are left behind.
        let names: Vec<_> = std::fs::read_dir(store.dir())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names, vec![std::ffi::OsString::from(CURRENT_FILE)]);
    }

    #[test]
    fn a_new_game_without_moves_is_not_offered() {
        let dir = tempfile::tempdir().unwrap();
        let store = GameStore::new(dir.path());
        store.save_current(&GameRecord::new()).unwrap();
        assert!(store.current_path().exists());
        assert!(matches!(store.unfinished_game(), Ok(None)));
    }

    #[test]
    fn finished_game_is_archived_and_current_cleared() {
        let dir = tempfile::tempdir().unwrap();
        let store = GameStore::new(dir.path());
        let mut g = tournament_game();
        store.save_current(&g).unwrap();
        g.resign(Color::White);
        let saved = store.save_current(&g).unwrap();
        let expected = store
            .archive_dir()
            .join("2025-06-01-Müller_Jörg-Silva_João.pgn");
        assert_eq!(saved, Saved::Archived(expected.clone()));
        assert!(!store.current_path().exists());
        assert!(matches!(store.unfinished_game(), Ok(None)));
        let archived = from_pgn(&std::fs::read_to_string(&expected).unwrap()).unwrap();
        assert_same(&g, &archived);
        // Saving the same finished game again does not make a second file.
        store.save_current(&g).unwrap();
        // Another game between the same players on the same day does.
        let mut other = tournament_game();
        other.resign(Color::Black);
        let second = store.save_current(&other).unwrap();
        assert!(
            second
                .path()
                .ends_with("2025-06-01-Müller_Jörg-Silva_João-2.pgn")
        );
        assert_eq!(std::fs::read_dir(store.archive_dir()).unwrap().count(), 2);
    }

    #[test]
    fn finished_game_left_in_current_file_is_archived_at_start() {
        let dir = tempfile::tempdir().unwrap();
        let store = GameStore::new(dir.path());
        let mut g = GameRecord::new();
        play(&mut g, "f3 e5 g4 Qh4#");
        std::fs::write(store.current_path(), to_pgn(&g)).unwrap();
        assert!(matches!(store.unfinished_game(), Ok(None)));
        assert!(!store.current_path().exists());
        let name = format!("{}-NN-NN.pgn", today());
        assert!(store.archive_dir().join(name).exists());
    }

    #[test]
    fn unreadable_current_game_is_moved_aside_not_deleted() {
        let dir = tempfile::tempdir().unwrap();
        let store = GameStore::new(dir.path());
        std::fs::write(store.current_path(), "1. e4 e5 2. Qxf7 *").unwrap();
        let err = store.unfinished_game().unwrap_err();
        assert!(matches!(err, SavedGameProblem::MovedAside { .. }), "{err}");
        let err = err.to_string();
        assert!(err.contains(CURRENT_FILE) && err.contains("Qxf7"), "{err}");
        assert!(!store.current_path().exists());
        let kept: Vec<_> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.to_string_lossy().contains(".bad-"))
            .collect();
        assert_eq!(kept.len(), 1);
        assert_eq!(
            std::fs::read_to_string(&kept[0]).unwrap(),
            "1. e4 e5 2. Qxf7 *"
        );
    }

    #[test]
    fn external_tools_read_the_file() {
        // pgn-extract (not ours) must accept the file and see the moves.
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("g.pgn");
        let mut g = tournament_game();
        g.resign(Color::White);
        std::fs::write(&path, to_pgn(&g)).unwrap();
        // Debian installs it under /usr/games, which is not always on PATH.
        let tool = if Path::new("/usr/games/pgn-extract").exists() {
            "/usr/games/pgn-extract"
        } else {
            "pgn-extract"
        };
        let out = std::process::Command::new(tool)
            .args(["-Wuci", "--nocomments", "-s"])
            .arg(&path)
            .output()
            .expect("pgn-extract must be installed (apt install pgn-extract)");
        let text = String::from_utf8_lossy(&out.stdout);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success() && stderr.trim().is_empty(), "{stderr}");
        assert!(text.contains("e2e4 e7e5 g1f3 b8c6 0-1"), "{text}");
        assert!(text.contains("[Result \"0-1\"]"), "{text}");
    }

    #[test]
    fn civil_dates() {
        assert_eq!(archive_date("2025.06.01"), "2025-06-01");
        assert_eq!(file_name_part("  O'Brien, Séan  "), "O_Brien_Séan");
        assert_eq!(file_name_part("???"), "NN");
    }
}

#[cfg(test)]
mod damaged_tests {
    use super::*;
    use shakmaty::san::San;

    fn game() -> GameRecord {
        let mut g = GameRecord::new();
        for (i, san) in ["e4", "e5", "Nf3", "Nc6", "Bb5"].into_iter().enumerate() {
            let mv = san.parse::<San>().unwrap().to_move(g.position()).unwrap();
            g.play(mv, Some(i as u64 * 1000)).unwrap();
            g.set_last_clock(5_400_000 - i as u64 * 500);
        }
        g
    }

    #[test]
    fn nul_filled_header_only_and_empty_files_are_damaged_not_absent() {
        for bytes in [
            vec![0u8; 4096],
            b"[Event \"?\"]\n[White \"A\"]\n".to_vec(),
            Vec::new(),
            b"   \n\n".to_vec(),
        ] {
            match read_save(&bytes) {
                SaveRead::Damaged { prefix: None, .. } => {}
                other => panic!("{:?}: {other:?}", String::from_utf8_lossy(&bytes)),
            }
        }
        let dir = tempfile::tempdir().unwrap();
        let store = GameStore::new(dir.path());
        std::fs::write(store.current_path(), vec![0u8; 512]).unwrap();
        assert!(matches!(
            store.read_current().unwrap(),
            SaveRead::Damaged { .. }
        ));
        // Not taken for "no game": reported, and the file kept aside.
        assert!(store.unfinished_game().is_err());
    }

    #[test]
    fn a_cut_off_save_keeps_its_readable_moves_and_says_where() {
        let text = to_pgn(&game());
        for cut in [
            text.len() - 3,
            text.find("Bb5").unwrap() + 1,
            text.find("Nc6").unwrap() + 10,
        ] {
            let SaveRead::Damaged { prefix, error } = read_save(&text.as_bytes()[..cut]) else {
                panic!("cut at {cut} read as whole");
            };
            let prefix = prefix.expect("moves before the damage");
            assert!(prefix.moves().len() >= 3, "cut at {cut}");
            assert_eq!(prefix.moves()[..3], game().moves()[..3]);
            assert!(error.line.is_some() && error.column.is_some(), "{error:?}");
            assert!(
                describe(&error).starts_with("line "),
                "{}",
                describe(&error)
            );
        }
        // An unterminated comment is placed where it opens.
        let cut = text.find("{[%clk 1:29:58").unwrap() + 5;
        let SaveRead::Damaged { error, .. } = read_save(&text.as_bytes()[..cut]) else {
            panic!("read as whole");
        };
        let line = text[..cut].lines().count();
        assert_eq!(error.line, Some(line), "{error:?}");
        assert!(matches!(read_save(text.as_bytes()), SaveRead::Intact(_)));
    }
}

#[cfg(test)]
mod safety_tests {
    use super::*;
    use shakmaty::san::San;

    fn played(sans: &str) -> GameRecord {
        let mut g = GameRecord::new();
        for san in sans.split_whitespace() {
            let mv = san.parse::<San>().unwrap().to_move(g.position()).unwrap();
            g.play(mv, None).unwrap();
        }
        g
    }

    #[test]
    fn a_second_instance_cannot_take_the_folder() {
        let dir = tempfile::tempdir().unwrap();
        let store = GameStore::new(dir.path());
        let first = store.lock().unwrap();
        assert!(first.is_some());
        assert!(store.lock().unwrap().is_none(), "held by the first");
        drop(first);
        assert!(store.lock().unwrap().is_some(), "free once the first ends");
    }

    #[test]
    fn temporary_files_left_by_a_kill_are_removed_at_start() {
        let dir = tempfile::tempdir().unwrap();
        let store = GameStore::new(dir.path());
        store.save_current(&played("e4")).unwrap();
        // What an old build and a killed write leave behind.
        let old = dir.path().join(format!(".{CURRENT_FILE}.tmp-4242-7"));
        let new = dir.path().join(format!(".{CURRENT_FILE}.tmp-Ab3xYz"));
        std::fs::write(&old, "1. e4 e5 *").unwrap();
        std::fs::write(&new, "1. e4").unwrap();
        let other = dir.path().join("notes.txt");
        std::fs::write(&other, "kept").unwrap();
        assert_eq!(store.remove_stale_temps(), 2);
        assert!(!old.exists() && !new.exists() && other.exists());
        assert!(matches!(store.read_current().unwrap(), SaveRead::Intact(_)));
    }

    #[test]
    fn a_discarded_game_is_archived_not_overwritten() {
        let dir = tempfile::tempdir().unwrap();
        let store = GameStore::new(dir.path());
        let old = played("d4 d5 c4");
        store.save_current(&old).unwrap();
        let found = store.at_start();
        assert_eq!(found.game.as_ref().unwrap().moves(), old.moves());
        let mut file = SaveFile::new(store.clone(), found.game, None);
        // The user said no and started a new game.
        file.save(&played("e4")).unwrap();
        let archived: Vec<_> = std::fs::read_dir(store.archive_dir())
            .unwrap()
            .map(|e| std::fs::read_to_string(e.unwrap().path()).unwrap())
            .collect();
        assert_eq!(archived.len(), 1);
        assert_eq!(from_pgn(&archived[0]).unwrap().moves(), old.moves());
        let SaveRead::Intact(current) = store.read_current().unwrap() else {
            panic!("current file")
        };
        assert_eq!(current.moves().len(), 1);
        // A resumed game is not archived: it goes on in the current file.
        let dir = tempfile::tempdir().unwrap();
        let store = GameStore::new(dir.path());
        store.save_current(&old).unwrap();
        let mut file = SaveFile::new(store.clone(), store.at_start().game, None);
        file.save(&played("d4 d5 c4 e6")).unwrap();
        assert!(!store.archive_dir().exists());
    }

    #[test]
    fn a_damaged_save_offers_its_readable_moves_and_is_kept() {
        let dir = tempfile::tempdir().unwrap();
        let store = GameStore::new(dir.path());
        let text = to_pgn(&played("e4 e5 Nf3 Nc6 Bb5"));
        let cut = &text[..text.find("Bb5").unwrap() + 2];
        std::fs::write(store.current_path(), cut).unwrap();
        let found = store.at_start();
        assert!(found.prefix_of_damaged);
        assert_eq!(found.game.unwrap().moves().len(), 4);
        let problem = found.problem.unwrap().to_string();
        assert!(problem.contains(".bad-"), "{problem}");
        let kept: Vec<_> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.to_string_lossy().contains(".bad-"))
            .collect();
        assert_eq!(std::fs::read_to_string(&kept[0]).unwrap(), cut);
        // Nothing readable: set aside, nothing offered, said so.
        std::fs::write(store.current_path(), vec![0u8; 64]).unwrap();
        let found = store.at_start();
        assert!(found.game.is_none() && !found.prefix_of_damaged);
        assert!(found.problem.is_some());
    }
}
