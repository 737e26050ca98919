//! Files written whole or not at all: the save file, the settings, the
//! exports. Each write goes to a temporary file beside its target, is
//! flushed to disk and renamed over it; a crash leaves the old file and at
//! most a temporary one, which the next start removes.

use std::io;
use std::path::Path;

/// Writes `bytes` to a temporary file next to `path`, flushes it to disk and
/// renames it over `path` (atomic on the same file system; `tempfile`'s
/// persist). Creates the folder if needed. The temporary file is named
/// `.<name>.tmp-<random>`, so [`remove_stale_temps`] finds one a crash left.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> io::Result<()> {
    use std::io::Write;
    let dir = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir)?;
    let name = path
        .file_name()
        .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "no file name"))?
        .to_string_lossy();
    let mut temp = tempfile::Builder::new()
        .prefix(&temp_prefix(&name))
        .tempfile_in(dir)?;
    temp.write_all(bytes)?;
    temp.as_file().sync_all()?;
    // On failure the temporary file is removed when dropped.
    temp.persist(path).map_err(|e| e.error)?;
    // The rename itself survives a power cut only once the folder is on
    // disk (POSIX); elsewhere opening a folder fails and that is fine.
    if let Ok(folder) = std::fs::File::open(dir) {
        let _ = folder.sync_all();
    }
    Ok(())
}

fn temp_prefix(name: &str) -> String {
    format!(".{name}.tmp-")
}

/// Removes the temporary files [`write_atomically`] left next to `path`
/// when the process was killed mid-write (they never hold anything the
/// file itself lacks that was acknowledged: a move is announced only after
/// the rename). Returns how many were removed.
pub fn remove_stale_temps(path: &Path) -> usize {
    let (Some(dir), Some(name)) = (path.parent(), path.file_name()) else {
        return 0;
    };
    let prefix = temp_prefix(&name.to_string_lossy());
    let Ok(entries) = std::fs::read_dir(dir) else {
        return 0;
    };
    entries
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().starts_with(&prefix))
        .filter(|e| std::fs::remove_file(e.path()).is_ok())
        .count()
}
