//! Where the app keeps user files. `ROCHADE_CONFIG_DIR` / `ROCHADE_DATA_DIR`
//! override the platform folders (tests, portable installs on a USB stick).

use std::path::PathBuf;

fn project_dirs() -> Option<directories::ProjectDirs> {
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
