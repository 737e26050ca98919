//! Files written whole or not at all: the save file, the settings, the
//! exports. Each write goes to a temporary file beside its target, is
//! flushed to disk and renamed over it; a crash leaves the old file and at
//! most a temporary one, which the next start removes.
//!
//! A file the user names on the command line (`rochade play --pgn`,
//! `rochade export -o`) is written with [`write_user_file`]: through a
//! symbolic link to the file it points at, never over a device or a
//! folder, keeping the mode of the file it replaces.

use std::io;
use std::path::{Path, PathBuf};

/// Writes `bytes` to a temporary file next to `path`, flushes it to disk and
/// renames it over `path` (atomic on the same file system; `tempfile`'s
/// persist). Creates the folder if needed. The temporary file is named
/// `.<name>.tmp-<random>`, so [`remove_stale_temps`] finds one a crash left.
/// A file replaced keeps its mode (and, where allowed, its owner); a new
/// one is readable by the user only.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> io::Result<()> {
    prepare_atomically(path, bytes)?.commit()
}

/// A file written and flushed to disk under its temporary name, waiting
/// to be put in place ([`Prepared::commit`]). Dropped instead, the
/// temporary file is removed. The steps let saves on threads of their own
/// overlap while their renames stay in order.
#[derive(Debug)]
pub struct Prepared {
    temp: tempfile::NamedTempFile,
    path: PathBuf,
}

/// The first step of [`write_atomically`]: the temporary file beside
/// `path` written and flushed to disk.
pub fn prepare_atomically(path: &Path, bytes: &[u8]) -> io::Result<Prepared> {
    use std::io::Write;
    let dir = folder_of(path);
    std::fs::create_dir_all(dir)?;
    let mut temp = tempfile::Builder::new()
        .prefix(&temp_prefix(&file_name(path)?))
        .tempfile_in(dir)?;
    // Held while it is written, so that another process clearing stale
    // temporary files at its start passes this one by. A file system
    // without locks only loses that protection.
    let _ = temp.as_file().lock();
    if let Ok(old) = std::fs::metadata(path)
        && old.is_file()
    {
        keep_mode_and_owner(temp.as_file(), &old);
    }
    temp.write_all(bytes)?;
    temp.as_file().sync_all()?;
    Ok(Prepared {
        temp,
        path: path.to_path_buf(),
    })
}

impl Prepared {
    /// The rest: renamed over the file, the folder flushed.
    pub fn commit(self) -> io::Result<()> {
        self.place()?.sync();
        Ok(())
    }

    /// Renamed over the file; the folder is flushed by [`Placed::sync`].
    pub fn place(self) -> io::Result<Placed> {
        // On failure the temporary file is removed when dropped.
        self.temp.persist(&self.path).map_err(|e| e.error)?;
        Ok(Placed { path: self.path })
    }
}

/// A file put in place whose folder is not flushed yet.
#[derive(Debug)]
pub struct Placed {
    path: PathBuf,
}

impl Placed {
    /// Flushes the folder: the rename survives a power cut.
    pub fn sync(self) {
        sync_folder(folder_of(&self.path));
    }
}

/// Writes a file the user named: through symbolic links (the file a link
/// points at is written, the link stays), refusing a folder or a device
/// (`/dev/full`, a FIFO) with an error that says what is there. Otherwise
/// as [`write_atomically`], beside the file the links lead to.
pub fn write_user_file(path: &Path, bytes: &[u8]) -> io::Result<()> {
    prepare_user_file(path, bytes)?.commit()
}

/// The first step of [`write_user_file`] (see [`prepare_atomically`]).
pub fn prepare_user_file(path: &Path, bytes: &[u8]) -> io::Result<Prepared> {
    let target = regular_target(path)?;
    prepare_atomically(&target, bytes)
}

/// Where writing the user's `path` goes: the file its symbolic links lead
/// to (or would create). An error if that is a folder, a device or any
/// other thing that is not a regular file.
pub fn regular_target(path: &Path) -> io::Result<PathBuf> {
    let target = follow_links(path)?;
    // The error says what is there (the caller names `path`).
    let it = if target == path {
        "it is".to_owned()
    } else {
        format!("it leads to {}:", target.display())
    };
    match std::fs::metadata(&target) {
        Ok(meta) if meta.is_file() => Ok(target),
        Ok(meta) if meta.is_dir() => Err(io::Error::new(
            io::ErrorKind::IsADirectory,
            format!("{it} a folder, not a file; nothing was written"),
        )),
        Ok(_) => Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("{it} a device or another special file, not a file; nothing was written"),
        )),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(target),
        Err(e) => Err(e),
    }
}

/// The path the symbolic links starting at `path` lead to (a link to a
/// file that does not exist yet leads to that file). A loop of links is
/// an error, as the system reports it for opening.
fn follow_links(path: &Path) -> io::Result<PathBuf> {
    let mut at = path.to_path_buf();
    // The limit Linux itself puts on links followed in one lookup.
    for _ in 0..40 {
        match std::fs::symlink_metadata(&at) {
            Ok(meta) if meta.file_type().is_symlink() => {
                let next = std::fs::read_link(&at)?;
                at = if next.is_absolute() {
                    next
                } else {
                    folder_of(&at).join(next)
                };
            }
            Ok(_) => return Ok(at),
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(at),
            Err(e) => return Err(e),
        }
    }
    Err(io::Error::new(
        io::ErrorKind::InvalidInput,
        format!("{}: too many symbolic links", path.display()),
    ))
}

/// Keeps what `path` holds under a new name beside it (`game.pgn` as
/// `game-2.pgn`, or the first number free), never replacing a file, and
/// returns that name. `None` when there is nothing to keep (no file, or
/// an empty one). `path` must be a regular file (see [`regular_target`]).
pub fn keep_beside(path: &Path) -> io::Result<Option<PathBuf>> {
    let mut source = match std::fs::File::open(path) {
        Ok(file) => file,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(e),
    };
    let meta = source.metadata()?;
    if !meta.is_file() || meta.len() == 0 {
        return Ok(None);
    }
    let dir = folder_of(path);
    let name = file_name(path)?;
    let (stem, extension) = match name.rsplit_once('.') {
        Some((stem, ext)) if !stem.is_empty() => (stem.to_owned(), format!(".{ext}")),
        _ => (name.clone(), String::new()),
    };
    let mut temp = tempfile::Builder::new()
        .prefix(&temp_prefix(&name))
        .tempfile_in(dir)?;
    let _ = temp.as_file().lock();
    keep_mode_and_owner(temp.as_file(), &meta);
    io::copy(&mut source, &mut temp)?;
    temp.as_file().sync_all()?;
    for n in 2..10_000 {
        let kept = dir.join(format!("{stem}-{n}{extension}"));
        match temp.persist_noclobber(&kept) {
            Ok(_) => {
                sync_folder(dir);
                return Ok(Some(kept));
            }
            Err(e) if e.error.kind() == io::ErrorKind::AlreadyExists => temp = e.file,
            Err(e) => return Err(e.error),
        }
    }
    Err(io::Error::new(
        io::ErrorKind::AlreadyExists,
        format!("no free name beside {}", path.display()),
    ))
}

/// Moves what is at `path` (a file, or whatever is there: a FIFO, a
/// link to a device, a file too large to read) to a new name beside it
/// (`puzzles.toml` as `puzzles-2.toml`, or the first number free), never
/// replacing anything and never reading it, and returns that name. A
/// file that cannot be read is kept this way before a fresh one is
/// written in its place.
pub fn move_aside(path: &Path) -> io::Result<PathBuf> {
    let dir = folder_of(path);
    let name = file_name(path)?;
    let (stem, extension) = match name.rsplit_once('.') {
        Some((stem, ext)) if !stem.is_empty() => (stem.to_owned(), format!(".{ext}")),
        _ => (name.clone(), String::new()),
    };
    for n in 2..10_000 {
        let kept = dir.join(format!("{stem}-{n}{extension}"));
        // A hard link is made only where no name is (no race with another
        // file appearing); a link names the link itself, not its target.
        match std::fs::hard_link(path, &kept) {
            Ok(()) => {
                std::fs::remove_file(path)?;
                sync_folder(dir);
                return Ok(kept);
            }
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => continue,
            // A file system without hard links (a FAT stick): a rename to
            // a name checked free just before.
            Err(_) if std::fs::symlink_metadata(&kept).is_err() => {
                std::fs::rename(path, &kept)?;
                sync_folder(dir);
                return Ok(kept);
            }
            Err(e) => return Err(e),
        }
    }
    Err(io::Error::new(
        io::ErrorKind::AlreadyExists,
        format!("no free name beside {}", path.display()),
    ))
}

/// The folder a file is in (`.` for a bare name).
fn folder_of(path: &Path) -> &Path {
    path.parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."))
}

fn file_name(path: &Path) -> io::Result<String> {
    path.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "no file name"))
}

/// The rename itself survives a power cut only once the folder is on
/// disk (POSIX); elsewhere opening a folder fails and that is fine.
fn sync_folder(dir: &Path) {
    if let Ok(folder) = std::fs::File::open(dir) {
        let _ = folder.sync_all();
    }
}

/// Gives the new file the mode and owner of the one it replaces (a 0644
/// scoresheet stays readable by the arbiter's account). Best effort: a
/// file system without modes (a FAT USB stick) or an owner only root may
/// give keeps the new file's own.
#[cfg(unix)]
fn keep_mode_and_owner(file: &std::fs::File, old: &std::fs::Metadata) {
    use std::os::unix::fs::{MetadataExt, PermissionsExt};
    let _ = std::os::unix::fs::fchown(file, Some(old.uid()), Some(old.gid()));
    let _ = file.set_permissions(std::fs::Permissions::from_mode(old.mode() & 0o7777));
}

#[cfg(not(unix))]
fn keep_mode_and_owner(file: &std::fs::File, old: &std::fs::Metadata) {
    let _ = file.set_permissions(old.permissions());
}

fn temp_prefix(name: &str) -> String {
    format!(".{name}.tmp-")
}

/// Removes the temporary files [`write_atomically`] left next to `path`
/// when the process was killed mid-write (they never hold anything the
/// file itself lacks that was acknowledged: a move is announced only after
/// the rename). One still being written by a live process (it holds its
/// lock) is left alone. Returns how many were removed.
pub fn remove_stale_temps(path: &Path) -> usize {
    let (Some(dir), Some(name)) = (path.parent(), path.file_name()) else {
        return 0;
    };
    let dir = if dir.as_os_str().is_empty() {
        Path::new(".")
    } else {
        dir
    };
    let prefix = temp_prefix(&name.to_string_lossy());
    let Ok(entries) = std::fs::read_dir(dir) else {
        return 0;
    };
    entries
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().starts_with(&prefix))
        .filter(|e| e.file_type().is_ok_and(|t| t.is_file()))
        .filter(|e| !held_by_a_writer(&e.path()))
        .filter(|e| std::fs::remove_file(e.path()).is_ok())
        .count()
}

/// Whether another process holds the lock of this temporary file (it is
/// writing it now).
fn held_by_a_writer(path: &Path) -> bool {
    let Ok(file) = std::fs::File::open(path) else {
        return false;
    };
    matches!(file.try_lock(), Err(std::fs::TryLockError::WouldBlock))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(unix)]
    #[test]
    fn a_user_file_is_written_through_links_keeping_its_mode() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let real = dir.path().join("real.txt");
        std::fs::write(&real, "old").unwrap();
        std::fs::set_permissions(&real, std::fs::Permissions::from_mode(0o640)).unwrap();
        // A chain of two links, the second relative to its own folder.
        std::fs::create_dir(dir.path().join("sub")).unwrap();
        std::os::unix::fs::symlink("../real.txt", dir.path().join("sub/one")).unwrap();
        let link = dir.path().join("two");
        std::os::unix::fs::symlink("sub/one", &link).unwrap();
        write_user_file(&link, b"new").unwrap();
        assert_eq!(std::fs::read_to_string(&real).unwrap(), "new");
        assert!(
            std::fs::symlink_metadata(&link)
                .unwrap()
                .file_type()
                .is_symlink()
        );
        let mode = std::fs::metadata(&real).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o640);
        // Links in a loop: an error, nothing written.
        let (a, b) = (dir.path().join("a"), dir.path().join("b"));
        std::os::unix::fs::symlink(&b, &a).unwrap();
        std::os::unix::fs::symlink(&a, &b).unwrap();
        let e = write_user_file(&a, b"x").unwrap_err();
        assert!(e.to_string().contains("too many symbolic links"), "{e}");
    }

    #[test]
    fn keeping_beside_never_replaces_a_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("game.pgn");
        assert_eq!(keep_beside(&path).unwrap(), None, "nothing there");
        std::fs::write(&path, "").unwrap();
        assert_eq!(keep_beside(&path).unwrap(), None, "nothing in it");
        std::fs::write(&path, "first").unwrap();
        std::fs::write(dir.path().join("game-2.pgn"), "someone's").unwrap();
        let kept = keep_beside(&path).unwrap().unwrap();
        assert_eq!(kept, dir.path().join("game-3.pgn"));
        assert_eq!(std::fs::read_to_string(&kept).unwrap(), "first");
        assert_eq!(
            std::fs::read_to_string(dir.path().join("game-2.pgn")).unwrap(),
            "someone's"
        );
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "first");
        let bare = dir.path().join("notes");
        std::fs::write(&bare, "x").unwrap();
        assert_eq!(
            keep_beside(&bare).unwrap().unwrap(),
            dir.path().join("notes-2")
        );
        // No temporary file is left.
        assert!(
            std::fs::read_dir(dir.path()).unwrap().all(|e| !e
                .unwrap()
                .file_name()
                .to_string_lossy()
                .contains(".tmp-"))
        );
    }
}
