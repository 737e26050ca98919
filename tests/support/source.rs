//! The project's own source files, for the tests that read the code
//! (`core_purity`, `message_keys`). Included with `#[path]`.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

/// Every `.rs` file under `path`, in a stable order.
pub fn rust_files(path: &Path, out: &mut Vec<PathBuf>) {
    if path.is_dir() {
        let mut entries: Vec<_> = std::fs::read_dir(path)
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
            .map(|e| e.expect("directory entry").path())
            .collect();
        entries.sort();
        for entry in entries {
            rust_files(&entry, out);
        }
    } else if path.extension().is_some_and(|e| e == "rs") {
        out.push(path.to_path_buf());
    }
}
