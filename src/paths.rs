//! Where the app keeps user files. `ROCHADE_CONFIG_DIR` / `ROCHADE_DATA_DIR`
//! override the platform folders (tests, portable installs on a USB stick).

use std::path::{Path, PathBuf};

fn project_dirs() -> Option<directories::ProjectDirs> {
    // Windows joins organisation and application (`Rochade\rochade`): one
    // folder is enough there, `%APPDATA%\Rochade\config` and `\data`.
    #[cfg(windows)]
    return directories::ProjectDirs::from_path(PathBuf::from("Rochade"));
    #[cfg(not(windows))]
    directories::ProjectDirs::from("org", "Rochade", "rochade")
}

/// Settings and user language packs: `~/.config/rochade` on Linux.
pub fn config_dir() -> Option<PathBuf> {
    if let Some(dir) = std::env::var_os("ROCHADE_CONFIG_DIR") {
        return Some(PathBuf::from(dir));
    }
    project_dirs().map(|d| d.config_dir().to_path_buf())
}

/// Saved games, board logs, recorded voice clips: `~/.local/share/rochade`.
pub fn data_dir() -> Option<PathBuf> {
    if let Some(dir) = std::env::var_os("ROCHADE_DATA_DIR") {
        return Some(PathBuf::from(dir));
    }
    project_dirs().map(|d| d.data_dir().to_path_buf())
}

/// Makes `dir` (and any missing parent) and, where the system has modes,
/// leaves it readable by the user only (0700): the names of saved games
/// and exports (dates, players) are nobody else's business. A folder that
/// exists with a wider mode is narrowed. A file system without modes (a
/// FAT USB stick) keeps its own; only making the folder can fail.
pub fn private_dir(dir: &Path) -> std::io::Result<()> {
    std::fs::create_dir_all(dir)?;
    narrow_to_user(dir);
    Ok(())
}

/// Narrows an existing folder to the user only; a missing one is left
/// missing.
pub fn narrow_if_exists(dir: &Path) {
    if dir.is_dir() {
        narrow_to_user(dir);
    }
}

#[cfg(unix)]
fn narrow_to_user(dir: &Path) {
    use std::os::unix::fs::PermissionsExt;
    if let Ok(meta) = std::fs::metadata(dir)
        && meta.permissions().mode() & 0o077 != 0
    {
        let _ = std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o700));
    }
}

#[cfg(not(unix))]
fn narrow_to_user(_dir: &Path) {
    // Folders under the user's profile are the user's own already.
}
