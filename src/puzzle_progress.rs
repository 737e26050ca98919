//! The player's puzzle progress on disk: `puzzles.toml` in the user's data
//! folder, written whole or not at all. A failed write (a full disk) is
//! reported once and the progress stays in memory, written again after the
//! next puzzle; an unreadable file is kept beside under a new name, never
//! overwritten.

use std::path::PathBuf;

use crate::puzzle::Progress;

/// What became of a save.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SaveOutcome {
    Saved,
    /// Written again after failing.
    SavedAgain,
    /// The first failure (to be said); later ones are quiet.
    Failed(String),
    StillFailing,
}

#[derive(Debug)]
pub struct ProgressFile {
    path: Option<PathBuf>,
    failing: bool,
    /// Why the file must not be written (one that could not be read nor
    /// moved aside): every save fails with this.
    blocked: std::cell::RefCell<Option<String>>,
    /// Where the last [`ProgressFile::load`] kept a file it could not read.
    kept: std::cell::RefCell<Option<PathBuf>>,
}

impl ProgressFile {
    /// `puzzles.toml` in the user's data folder (none known: kept in
    /// memory only).
    pub fn in_data_dir() -> ProgressFile {
        ProgressFile::at(crate::paths::data_dir().map(|d| d.join("puzzles.toml")))
    }

    pub fn at(path: Option<PathBuf>) -> ProgressFile {
        ProgressFile {
            path,
            failing: false,
            blocked: std::cell::RefCell::new(None),
            kept: std::cell::RefCell::new(None),
        }
    }

    pub fn path(&self) -> Option<&PathBuf> {
        self.path.as_ref()
    }

    /// After a [`ProgressFile::load`] that could not read the file: where
    /// it was kept (`None` when it could not be moved: it is then never
    /// written over).
    pub fn kept(&self) -> Option<PathBuf> {
        self.kept.borrow().clone()
    }

    /// The saved progress (a new player's when there is none), and a
    /// warning when the file could not be read for any reason (not UTF-8,
    /// too large, not a regular file, unreadable, not the progress's
    /// TOML): it is then moved beside under a new name, never overwritten,
    /// and the player starts afresh. The file is read through
    /// [`crate::read_capped`]: a FIFO or a link to a device is refused at
    /// once, a huge file is never loaded. Temporary files a killed write
    /// left are cleared first.
    pub fn load(&self) -> (Progress, Option<String>) {
        let Some(path) = &self.path else {
            return (Progress::default(), None);
        };
        crate::storage::remove_stale_temps(path);
        let problem =
            match crate::read_capped::read_text_capped(path, crate::read_capped::PROGRESS_CAP) {
                Ok(text) => match Progress::from_text(&text) {
                    Ok(progress) => return (progress, None),
                    Err(e) => rochade_core::text::excerpt(e.trim(), 300),
                },
                Err(e) if e.is_not_found() => return (Progress::default(), None),
                Err(e) => e.to_string(),
            };
        // A folder is no progress of the player's: left where it is (a
        // save then fails on it, and that is said).
        if std::fs::symlink_metadata(path).is_ok_and(|m| m.is_dir()) {
            return (
                Progress::default(),
                Some(format!(
                    "{} could not be read ({problem}); it is left as it is; starting afresh",
                    path.display()
                )),
            );
        }
        let kept = match crate::storage::move_aside(path) {
            Ok(kept) => {
                let said = format!("it was kept as {}", kept.display());
                self.kept.replace(Some(kept));
                said
            }
            Err(e) => {
                // Never written over: the progress of this run stays in
                // memory only.
                let why = format!(
                    "{} could not be kept beside ({e}), so it is not written over",
                    path.display()
                );
                self.blocked.replace(Some(why));
                format!("it could not be kept beside ({e}) and is left as it is")
            }
        };
        (
            Progress::default(),
            Some(format!(
                "{} could not be read ({problem}); {kept}; starting afresh",
                path.display()
            )),
        )
    }

    pub fn save(&mut self, progress: &Progress) -> SaveOutcome {
        let Some(path) = &self.path else {
            return SaveOutcome::Saved;
        };
        let blocked = self.blocked.borrow().clone();
        let written = match blocked {
            Some(why) => Err(std::io::Error::other(why)),
            None => Ok(()),
        }
        .and_then(|()| path.parent().map_or(Ok(()), crate::paths::private_dir))
        .and_then(|()| crate::storage::write_atomically(path, progress.to_text().as_bytes()));
        match (written, self.failing) {
            (Ok(()), false) => SaveOutcome::Saved,
            (Ok(()), true) => {
                self.failing = false;
                SaveOutcome::SavedAgain
            }
            (Err(e), false) => {
                self.failing = true;
                SaveOutcome::Failed(format!("{}: {e}", path.display()))
            }
            (Err(_), true) => SaveOutcome::StillFailing,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn saved_loaded_failing_and_unreadable() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("puzzles.toml");
        let mut file = ProgressFile::at(Some(path.clone()));
        assert_eq!(file.load(), (Progress::default(), None));
        let progress = Progress {
            solved: 3,
            ..Progress::default()
        };
        assert_eq!(file.save(&progress), SaveOutcome::Saved);
        assert_eq!(file.load().0, progress);

        // A folder where the file should be: the write fails, said once.
        let blocked = dir.path().join("blocked.toml");
        std::fs::create_dir(&blocked).unwrap();
        let mut file = ProgressFile::at(Some(blocked.clone()));
        assert!(matches!(file.save(&progress), SaveOutcome::Failed(_)));
        assert_eq!(file.save(&progress), SaveOutcome::StillFailing);
        std::fs::remove_dir(&blocked).unwrap();
        assert_eq!(file.save(&progress), SaveOutcome::SavedAgain);

        std::fs::write(&path, "solved = \"many\"").unwrap();
        let (loaded, warning) = ProgressFile::at(Some(path.clone())).load();
        assert_eq!(loaded, Progress::default());
        assert!(warning.unwrap().contains("puzzles-2.toml"));
        assert_eq!(
            std::fs::read_to_string(dir.path().join("puzzles-2.toml")).unwrap(),
            "solved = \"many\""
        );
    }
}
