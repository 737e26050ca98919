//! The one way the app reads a file: only a regular file (a FIFO, a
//! device such as `/dev/zero` or a link to one is refused at once, never
//! waited on or read for ever), and at most a cap of bytes (a file larger
//! than its kind can be is refused, never loaded whole). Word files,
//! settings, saves, PGN files, board logs and the puzzle progress all come
//! through here.
//!
//! Errors name the file and what it is; they never quote its contents
//! (what quotes contents, a parser's message, is cut short with
//! [`rochade_core::text::excerpt`]).

use std::fs::File;
use std::io::{self, Read};
use std::path::Path;

/// The most a word file (a language pack or a user's corrections) may hold.
pub const WORDS_CAP: u64 = 1 << 20;
/// The most a settings file may hold.
pub const SETTINGS_CAP: u64 = 1 << 20;
/// The most a save file or a PGN file may hold: thousands of games.
pub const PGN_CAP: u64 = 64 << 20;
/// The most a board log may hold: days of a board's lines.
pub const BOARD_LOG_CAP: u64 = 256 << 20;
/// The most a Braille table or a token file may hold.
pub const SMALL_CAP: u64 = 1 << 20;
/// The most the puzzle progress may hold (a rating, two counts and the
/// ids of the last 500 puzzles take a few kilobytes).
pub const PROGRESS_CAP: u64 = 1 << 20;

/// Why a file was not read.
#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    /// Opening or reading failed (not found, no permission, ...).
    #[error("{0}")]
    Io(#[from] io::Error),
    /// Not a regular file: a FIFO, a device, a folder, a socket.
    #[error("it is {0}, not a regular file")]
    NotRegular(&'static str),
    /// Larger than the cap for its kind.
    #[error("it is larger than {} (the most such a file may hold)", size_words(*.0))]
    TooLarge(u64),
}

impl ReadError {
    /// The file did not exist (a missing optional file is no error).
    pub fn is_not_found(&self) -> bool {
        matches!(self, ReadError::Io(e) if e.kind() == io::ErrorKind::NotFound)
    }
}

impl From<ReadError> for io::Error {
    fn from(e: ReadError) -> io::Error {
        match e {
            ReadError::Io(e) => e,
            other => io::Error::new(io::ErrorKind::InvalidData, other.to_string()),
        }
    }
}

/// `1 MB`, `64 MB`, `512 bytes`.
fn size_words(bytes: u64) -> String {
    if bytes >= 1 << 20 && bytes.is_multiple_of(1 << 20) {
        format!("{} MB", bytes >> 20)
    } else {
        format!("{bytes} bytes")
    }
}

/// What a file that is not regular is, in words.
fn kind_words(file_type: std::fs::FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if file_type.is_fifo() {
            return "a FIFO (named pipe)";
        }
        if file_type.is_char_device() {
            return "a character device";
        }
        if file_type.is_block_device() {
            return "a block device";
        }
        if file_type.is_socket() {
            return "a socket";
        }
    }
    if file_type.is_dir() {
        return "a folder";
    }
    "no regular file"
}

/// Opens `path` for reading only if it is (or links to) a regular file.
/// A FIFO is opened without waiting for a writer and refused; a device is
/// refused before anything is read from it.
pub fn open_regular(path: &Path) -> Result<File, ReadError> {
    // Checked first (through links) so nothing is opened that may block
    // on open, e.g. a FIFO with no writer or a serial device.
    let meta = std::fs::metadata(path)?;
    if !meta.is_file() {
        return Err(ReadError::NotRegular(kind_words(meta.file_type())));
    }
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        // Swapped for a FIFO since the check: still no wait on open.
        options.custom_flags(libc::O_NONBLOCK);
    }
    let file = options.open(path)?;
    let meta = file.metadata()?;
    if !meta.is_file() {
        return Err(ReadError::NotRegular(kind_words(meta.file_type())));
    }
    Ok(file)
}

/// The bytes of a regular file of at most `cap` bytes.
pub fn read_capped(path: &Path, cap: u64) -> Result<Vec<u8>, ReadError> {
    let file = open_regular(path)?;
    let len = file.metadata()?.len();
    if len > cap {
        return Err(ReadError::TooLarge(cap));
    }
    let mut bytes = Vec::with_capacity(len as usize);
    // A file that grows while it is read stops at the cap all the same.
    file.take(cap + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > cap {
        return Err(ReadError::TooLarge(cap));
    }
    Ok(bytes)
}

/// The text of a regular file of at most `cap` bytes; bytes that are not
/// UTF-8 are an error giving the line and column of the first one.
pub fn read_text_capped(path: &Path, cap: u64) -> Result<String, ReadError> {
    let bytes = read_capped(path, cap)?;
    String::from_utf8(bytes).map_err(|e| {
        let (line, column) =
            rochade_core::text::line_column(e.as_bytes(), e.utf8_error().valid_up_to());
        ReadError::Io(io::Error::new(
            io::ErrorKind::InvalidData,
            format!("not UTF-8 text (line {line}, column {column})"),
        ))
    })
}

/// A reader of at most `cap` bytes of a regular file: more is an error
/// (for files read as a stream, e.g. a PGN of many games).
pub fn open_capped(path: &Path, cap: u64) -> Result<impl Read + use<>, ReadError> {
    Ok(Capped {
        inner: open_regular(path)?,
        left: cap,
        cap,
    })
}

struct Capped<R> {
    inner: R,
    left: u64,
    cap: u64,
}

impl<R: Read> Read for Capped<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.left == 0 {
            // One more byte means the file is over the cap.
            let mut probe = [0u8];
            return match self.inner.read(&mut probe)? {
                0 => Ok(0),
                _ => Err(io::Error::other(ReadError::TooLarge(self.cap).to_string())),
            };
        }
        let max = buf.len().min(self.left.min(usize::MAX as u64) as usize);
        let n = self.inner.read(&mut buf[..max])?;
        self.left -= n as u64;
        Ok(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_regular_file_is_read_and_one_over_the_cap_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("words.toml");
        std::fs::write(&path, b"12345").unwrap();
        assert_eq!(read_capped(&path, 5).unwrap(), b"12345");
        let err = read_capped(&path, 4).unwrap_err();
        assert!(matches!(err, ReadError::TooLarge(4)), "{err}");
        let mut all = Vec::new();
        let err = open_capped(&path, 4)
            .unwrap()
            .read_to_end(&mut all)
            .unwrap_err();
        assert!(err.to_string().contains("larger than 4 bytes"), "{err}");
    }

    #[cfg(unix)]
    #[test]
    fn devices_fifos_folders_and_links_to_them_are_refused_at_once() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("fifo");
        let status = std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .expect("mkfifo (coreutils) is needed for this test");
        assert!(status.success());
        let link = dir.path().join("zero.toml");
        std::os::unix::fs::symlink("/dev/zero", &link).unwrap();
        let start = std::time::Instant::now();
        for (path, says) in [
            (fifo.as_path(), "FIFO"),
            (Path::new("/dev/zero"), "character device"),
            (link.as_path(), "character device"),
            (dir.path(), "folder"),
        ] {
            let err = read_capped(path, WORDS_CAP).unwrap_err();
            assert!(err.to_string().contains(says), "{}: {err}", path.display());
        }
        assert!(start.elapsed() < std::time::Duration::from_secs(1));
        assert!(
            read_capped(&dir.path().join("none"), 1)
                .unwrap_err()
                .is_not_found()
        );
    }

    #[cfg(unix)]
    #[test]
    fn settings_and_the_save_file_refuse_a_fifo_or_a_device_at_once() {
        let dir = tempfile::tempdir().unwrap();
        let store = crate::savegame::GameStore::new(dir.path());
        let fifo = store.current_path();
        let made = std::process::Command::new("mkfifo").arg(&fifo).status();
        assert!(made.expect("mkfifo (coreutils)").success());
        let settings = dir.path().join("settings.toml");
        std::os::unix::fs::symlink("/dev/zero", &settings).unwrap();
        let start = std::time::Instant::now();
        let Err(err) = store.read_current() else {
            panic!("a FIFO is no save");
        };
        assert!(err.to_string().contains("FIFO"), "{err}");
        let problem = store.unfinished_game().expect_err("set aside, said");
        assert!(problem.to_string().contains("FIFO"), "{problem}");
        let loaded = crate::config::Settings::load_from(&settings);
        assert_eq!(loaded.settings, crate::config::Settings::default());
        let warning = loaded.warning.expect("said");
        assert!(warning.contains("character device"), "{warning}");
        assert!(start.elapsed() < std::time::Duration::from_secs(1));
    }

    #[test]
    fn a_settings_error_quotes_a_short_excerpt_of_a_huge_line() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("settings.toml");
        std::fs::write(
            &path,
            format!("interface_language = \"{}\"\n", "x".repeat(900_000)),
        )
        .unwrap();
        let warning = crate::config::Settings::load_from(&path)
            .warning
            .expect("said");
        assert!(
            warning.len() < 1500,
            "{} bytes: {}",
            warning.len(),
            &warning[..300]
        );
    }

    #[test]
    fn text_that_is_not_utf8_is_placed_by_line_and_column() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("de.toml");
        std::fs::write(&path, b"[files]\nc = \"C\xffsar\"\n").unwrap();
        let err = read_text_capped(&path, WORDS_CAP).unwrap_err();
        assert!(err.to_string().contains("line 2, column 7"), "{err}");
    }
}
