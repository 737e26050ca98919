//! What the link writes besides the board log: the file a decoder's
//! memory is kept in (a Certabo board's calibration), and the
//! `lines_dropped` reports, coalesced.

/// Writes what a board's decoder learnt to its file: the folder made
/// readable by the user only (0700, as the config folder is everywhere
/// else), the file written whole and left readable by the user only
/// (0600). A symbolic link is written through (the file it leads to is
/// replaced, the link stays); a folder or a device there is refused.
pub(super) fn write_memory_file(path: &std::path::Path, text: &str) -> std::io::Result<()> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        crate::paths::private_dir(dir)?;
    }
    let target = crate::storage::regular_target(path)?;
    crate::storage::write_atomically(&target, text.as_bytes())?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&target, std::fs::Permissions::from_mode(0o600))?;
    }
    Ok(())
}

/// Lines a decoder dropped, reported at most once a second with the count
/// since the last report (a flood of bad lines gave one `lines_dropped`
/// event a line: 23,234 in 13 s). The first drop after a quiet second is
/// reported at once. Time in milliseconds, passed in.
#[derive(Clone, Debug, Default)]
pub(crate) struct DroppedLines {
    pending: u64,
    last_report: Option<u64>,
}

impl DroppedLines {
    /// The shortest time between two reports.
    pub const EVERY_MS: u64 = 1000;

    /// `count` more lines dropped at `now`: the count to report now, if any.
    pub fn add(&mut self, now: u64, count: u64) -> Option<u64> {
        self.pending += count;
        self.due(now)
    }

    /// The count to report at `now`, if a second has passed since the
    /// last report and lines were dropped since.
    pub fn due(&mut self, now: u64) -> Option<u64> {
        let recent = |at: u64| now.saturating_sub(at) < Self::EVERY_MS;
        if self.pending == 0 || self.last_report.is_some_and(recent) {
            return None;
        }
        self.last_report = Some(now);
        Some(std::mem::take(&mut self.pending))
    }

    /// Whatever is still to report (at the end of a log).
    pub fn rest(&mut self) -> Option<u64> {
        (self.pending > 0).then(|| std::mem::take(&mut self.pending))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dropped_lines_are_reported_at_most_once_a_second_with_their_count() {
        let mut drops = DroppedLines::default();
        // A bad line every 0.5 ms for 13 s (26,000): the first at once,
        // then one report a second.
        let mut reports = Vec::new();
        for i in 0..26_000u64 {
            let at = i / 2;
            reports.extend(drops.due(at).map(|c| (at, c)));
            reports.extend(drops.add(at, 1).map(|c| (at, c)));
        }
        reports.extend(drops.rest().map(|c| (13_000, c)));
        assert_eq!(reports.len(), 14, "{reports:?}");
        assert_eq!(reports[0], (0, 1));
        assert_eq!(reports.iter().map(|r| r.1).sum::<u64>(), 26_000);
        assert!(
            reports
                .windows(2)
                .all(|w| w[1].0 - w[0].0 >= 1000 || w[1].0 == 13_000)
        );
        // Quiet for a second: the next drop is reported at once.
        let mut drops = DroppedLines::default();
        assert_eq!(drops.add(0, 2), Some(2));
        assert_eq!(drops.add(500, 1), None);
        assert_eq!(drops.due(999), None);
        assert_eq!(drops.due(1000), Some(1));
        assert_eq!(drops.add(5000, 3), Some(3));
        assert_eq!(drops.rest(), None);
    }

    #[cfg(unix)]
    #[test]
    fn a_calibration_file_is_private_and_a_link_to_it_is_written_through() {
        use std::os::unix::fs::PermissionsExt;
        let mode = |p: &std::path::Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
        let dir = tempfile::tempdir().unwrap();
        // A config folder not made yet: made for the user only.
        let config = dir.path().join("config");
        let file = config.join("certabo-chips-mine.txt");
        write_memory_file(&file, "1 2 3 4 5 Q\n").unwrap();
        assert_eq!(mode(&config), 0o700);
        assert_eq!(mode(&file), 0o600);
        // A link (to a file kept elsewhere): the file it leads to is
        // written, the link stays a link.
        let elsewhere = dir.path().join("kept").join("chips.txt");
        std::fs::create_dir_all(elsewhere.parent().unwrap()).unwrap();
        std::fs::write(&elsewhere, "old").unwrap();
        std::fs::remove_file(&file).unwrap();
        std::os::unix::fs::symlink(&elsewhere, &file).unwrap();
        write_memory_file(&file, "6 7 8 9 10 q\n").unwrap();
        assert!(
            std::fs::symlink_metadata(&file)
                .unwrap()
                .file_type()
                .is_symlink()
        );
        assert_eq!(
            std::fs::read_to_string(&elsewhere).unwrap(),
            "6 7 8 9 10 q\n"
        );
        assert_eq!(mode(&elsewhere), 0o600);
        // A folder where the file should be: refused, nothing replaced.
        let folder = config.join("certabo-chips-opponent.txt");
        std::fs::create_dir(&folder).unwrap();
        assert!(write_memory_file(&folder, "x").is_err());
        assert!(folder.is_dir());
    }
}
