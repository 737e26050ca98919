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
        }
    }

    pub fn path(&self) -> Option<&PathBuf> {
        self.path.as_ref()
    }

    /// The saved progress (a new player's when there is none), and a
    /// warning when the file could not be read: it is then kept beside
    /// under a new name and the player starts afresh.
    pub fn load(&self) -> (Progress, Option<String>) {
        let Some(path) = &self.path else {
            return (Progress::default(), None);
        };
        let text = match std::fs::read_to_string(path) {
            Ok(text) => text,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return (Progress::default(), None);
            }
            Err(e) => {
                return (
                    Progress::default(),
                    Some(format!("cannot read {}: {e}", path.display())),
                );
            }
        };
        match Progress::from_text(&text) {
            Ok(progress) => (progress, None),
            Err(e) => {
                let kept = match crate::storage::keep_beside(path) {
                    Ok(Some(kept)) => format!("kept as {}", kept.display()),
                    Ok(None) => "empty".to_owned(),
                    Err(e) => format!("could not be kept: {e}"),
                };
                (
                    Progress::default(),
                    Some(format!(
                        "{} is unreadable ({}), {kept}; starting afresh",
                        path.display(),
                        e.trim()
                    )),
                )
            }
        }
    }

    pub fn save(&mut self, progress: &Progress) -> SaveOutcome {
        let Some(path) = &self.path else {
            return SaveOutcome::Saved;
        };
        let written = path
            .parent()
            .map_or(Ok(()), crate::paths::private_dir)
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
