//! Game menu, "Export a PGN file as a Braille book": every game of a PGN
//! file (a tournament's) as one Braille book (legend, contents page, each
//! game from a page of its own: [`crate::export::Exporter::book`], the same
//! as `rochade export --game all`), written beside the file as BRF and PEF,
//! with the Braille settings. The file is chosen in the window that opens
//! a game for review ([`super::review_open`]); the book is made on a
//! thread of its own and the result said when it comes.

use std::path::{Path, PathBuf};
use std::sync::mpsc::{Receiver, TryRecvError};

use super::RochadeApp;
use crate::export::{ExportOptions, Format};
use crate::session::Priority;
use crate::words::{Pack, Utterance};

/// A book written.
#[derive(Debug)]
pub struct BookWritten {
    pub games: usize,
    pub pages: usize,
    /// The BRF, then the PEF.
    pub files: Vec<PathBuf>,
}

/// The book being made, on its thread.
pub struct BookJob(Receiver<Result<BookWritten, String>>);

/// Writes every game of `pgn` as one Braille book beside it:
/// `<name>.brf` and `<name>.pef`.
pub fn write_book(pgn: &Path, options: ExportOptions) -> Result<BookWritten, String> {
    let records = crate::game_file::read_all_games(pgn)?;
    if records.is_empty() {
        return Err(format!("{}: no game", pgn.display()));
    }
    let exporter = crate::louis::exporter(options).map_err(|e| e.to_string())?;
    let book = exporter.book(&records).map_err(|e| e.to_string())?;
    let mut files = Vec::new();
    for (format, bytes) in [
        (Format::Brf, book.to_brf()),
        (
            Format::Pef,
            exporter
                .render_all(&records, Format::Pef)
                .map_err(|e| e.to_string())?,
        ),
    ] {
        let path = pgn.with_extension(format.extension());
        // A PGN file named like the book is never written over.
        if path == pgn {
            return Err(format!("{}: the book would replace it", pgn.display()));
        }
        crate::storage::write_atomically(&path, &bytes)
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        files.push(path);
    }
    Ok(BookWritten {
        games: records.len(),
        pages: book.pages.len(),
        files,
    })
}

/// "Braille book written: 3 games, 12 pages: ..."; written with the whole
/// paths (to find the files), spoken with the files' names only.
fn book_words(pack: &Pack, book: &BookWritten) -> Utterance {
    let list = |name: fn(&Path) -> String| {
        book.files
            .iter()
            .map(|p| name(p))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let files = Utterance {
        written: list(|p| p.display().to_string()),
        spoken: list(|p| {
            p.file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default()
        }),
    };
    let number = |n: usize| Utterance::from(n.to_string());
    let key = if book.games == 1 {
        "book_written_one"
    } else {
        "book_written"
    };
    pack.phrase(
        key,
        &[
            ("games", number(book.games)),
            ("pages", number(book.pages)),
            ("files", files),
        ],
    )
}

impl RochadeApp {
    /// The path typed in the file window: its book made on a thread (one
    /// at a time); the window stays until the result comes.
    pub(super) fn start_book(&mut self) {
        let Some(dialog) = self.rooms.review_open.as_mut() else {
            return;
        };
        if self.rooms.book.is_some() {
            return;
        }
        let typed = dialog.path.trim().to_owned();
        if typed.is_empty() {
            let reason = self.window.ui.get("review_open_path");
            return self.book_failed(reason);
        }
        let path = crate::game_file::typed_path(&typed);
        let options = self.settings.braille.export_options(
            self.session.config().letters,
            self.settings.interface_language,
        );
        let (tx, rx) = std::sync::mpsc::channel();
        let wake = self.wake.clone();
        let spawned = std::thread::Builder::new()
            .name("braille-book".into())
            .spawn(move || {
                let _ = tx.send(write_book(&path, options));
                if let Some(ctx) = wake.get() {
                    ctx.request_repaint();
                }
            });
        match spawned {
            Ok(_) => self.rooms.book = Some(BookJob(rx)),
            Err(e) => self.book_failed(e.to_string()),
        }
    }

    /// Says the book's result once it is there. Every frame.
    pub(super) fn poll_book(&mut self) {
        let Some(job) = &self.rooms.book else {
            return;
        };
        let result = match job.0.try_recv() {
            Ok(result) => result,
            Err(TryRecvError::Empty) => return,
            Err(TryRecvError::Disconnected) => Err("the book's thread stopped".into()),
        };
        self.rooms.book = None;
        match result {
            Ok(book) => {
                // The file window closes; the folder is kept for the next.
                self.rooms.review_open = None;
                if let Some(folder) = book.files[0].parent().filter(|f| !f.as_os_str().is_empty()) {
                    let folder = folder.display().to_string();
                    if self.settings.game.review_folder != folder {
                        self.settings.game.review_folder = folder;
                        self.save_settings();
                    }
                }
                let words = book_words(self.session.pack(), &book);
                self.say(words, Priority::Answer);
            }
            Err(reason) => self.book_failed(reason),
        }
    }

    /// Says why the book was not written, and writes it in the file
    /// window (the path stays, to be corrected).
    fn book_failed(&mut self, reason: String) {
        let words = self
            .session
            .pack()
            .phrase("book_failed", &[("reason", reason.as_str().into())]);
        if let Some(dialog) = self.rooms.review_open.as_mut() {
            dialog.error = Some(words.written.clone());
            dialog.take_focus = true;
        }
        self.say(words, Priority::Alert);
    }
}
