//! Saving after every move and exporting without stalling a frame (the
//! exports are written by a thread of their own). The record goes to
//! the saving thread ([`crate::save_worker`]) and the effects after the
//! save (the move's announcement, its sound, the notice) wait until it is
//! on disk. So a move that was heard is a move that was saved, as the
//! rules for a scoresheet ask; a failed save is said before the move.
//!
//! A save that takes longer than [`SAVE_HOLD_MS`] (a slow USB stick or SD
//! card) is said at once ("Saving is taking long ..."), once until a save
//! is quick again (not once a move), and each move is announced as soon as a
//! save holding it is on disk. A move entered while an earlier one waits
//! has its save queued at once (the saving thread writes only the newest
//! record, which holds every move before it), so moves entered quickly on
//! a slow disk wait for one save, never for a queue of them. Only a disk
//! that has not answered for [`SAVE_GIVE_UP_MS`] lets the move go out
//! unsaved (the player was told it is not saved yet: never silently), and
//! a failure is said when it comes.

use std::collections::VecDeque;
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use super::RochadeApp;
use super::run::ExportGameError;
use crate::save_worker::{GameSaver, SaveWorker};
use crate::session::{Effect, Priority};
use crate::words::Utterance;

/// How long a move's announcement waits for its save before the player is
/// told that saving is slow.
pub const SAVE_HOLD_MS: u64 = 500;

/// How long a move's announcement waits for its save at most (a disk that
/// hangs): then it goes out, after the player heard it is not saved yet.
pub const SAVE_GIVE_UP_MS: u64 = 10_000;

/// An export being written: its result comes here.
pub(super) struct Export(
    std::sync::mpsc::Receiver<Result<Vec<std::path::PathBuf>, ExportGameError>>,
);

/// Effects waiting: for a save (`ticket`), or behind ones that do.
pub(super) struct Held {
    ticket: Option<u64>,
    since: u64,
    effects: Vec<crate::session::Effect>,
    /// It waited past the hold time: "Saving is taking long" was said
    /// for it, or earlier in the same slow spell.
    told_slow: bool,
}

impl Held {
    pub(super) fn saving(ticket: u64, since: u64, effects: Vec<Effect>) -> Held {
        Held {
            ticket: Some(ticket),
            since,
            effects,
            told_slow: false,
        }
    }

    pub(super) fn behind(effects: Vec<Effect>) -> Held {
        Held {
            ticket: None,
            since: 0,
            effects,
            told_slow: false,
        }
    }
}

/// The saving of the game and the exports under way.
pub(super) struct Saving {
    /// The saving thread, when the app saves.
    worker: Option<SaveWorker>,
    /// Effects waiting for their save (a move is announced once on disk).
    pub held: VecDeque<Held>,
    /// "Saving is taking long" was said and no save has been quick since.
    slow_spell: bool,
    /// Exports being written by a thread of their own.
    exports: Vec<Export>,
    /// How many times the game was saved.
    pub saves: u64,
    /// Why the last save failed, until one works (in the banner).
    pub error: Option<String>,
}

impl Saving {
    /// Starts the saving thread, if the app saves; it wakes the window
    /// once it has a context.
    pub(super) fn start(saver: Option<GameSaver>, wake: &Arc<OnceLock<egui::Context>>) -> Saving {
        let (worker, error) = spawn(saver, wake);
        Saving {
            worker,
            held: VecDeque::new(),
            slow_spell: false,
            exports: Vec::new(),
            saves: 0,
            error,
        }
    }
}

/// Starts the saving thread; it wakes the window once it has a context.
fn spawn(
    saver: Option<GameSaver>,
    wake: &Arc<OnceLock<egui::Context>>,
) -> (Option<SaveWorker>, Option<String>) {
    let Some(saver) = saver else {
        return (None, None);
    };
    let ctx = wake.clone();
    let wake = Box::new(move || {
        if let Some(ctx) = ctx.get() {
            ctx.request_repaint();
        }
    });
    match SaveWorker::spawn(saver, wake) {
        Ok(worker) => (Some(worker), None),
        Err(e) => (None, Some(format!("saving: {e}"))),
    }
}

impl RochadeApp {
    /// Queues a save of the record; the ticket to wait for, if saving.
    pub(super) fn queue_save(&mut self) -> Option<u64> {
        self.links.saving.saves += 1;
        let record = self.session.record().clone();
        Some(self.links.saving.worker.as_mut()?.queue(record))
    }

    /// Every save and export is done and nothing waits for one (tests
    /// wait for this).
    pub fn saves_settled(&self) -> bool {
        self.links.saving.held.is_empty()
            && self.links.saving.exports.is_empty()
            && self
                .links
                .saving
                .worker
                .as_ref()
                .is_none_or(SaveWorker::is_idle)
    }

    /// Writes the exports (PGN, BRF, text) on a thread of their own; the
    /// result is said when it comes ([`RochadeApp::poll_exports`]).
    pub(super) fn export(&mut self) {
        self.export_record(self.session.record().clone());
    }

    /// Writes the exports of `record` (a game the session has left).
    pub(super) fn export_record(&mut self, record: crate::chess::GameRecord) {
        let options = self.settings.braille.export_options(
            self.session.config().letters,
            self.settings.interface_language,
        );
        let (tx, rx) = std::sync::mpsc::channel();
        let ctx = self.wake.clone();
        let spawned = std::thread::Builder::new()
            .name("export".into())
            .spawn(move || {
                let _ = tx.send(super::run::export_game(&record, options));
                if let Some(ctx) = ctx.get() {
                    ctx.request_repaint();
                }
            });
        match spawned {
            Ok(_) => self.links.saving.exports.push(Export(rx)),
            Err(e) => self.exported(Err(ExportGameError::NoThread(e))),
        }
    }

    /// Says the exports finished since the last frame.
    pub(super) fn poll_exports(&mut self) {
        let mut results = Vec::new();
        self.links
            .saving
            .exports
            .retain(|export| match export.0.try_recv() {
                Ok(result) => {
                    results.push(result);
                    false
                }
                Err(std::sync::mpsc::TryRecvError::Empty) => true,
                Err(std::sync::mpsc::TryRecvError::Disconnected) => {
                    results.push(Err(ExportGameError::ThreadStopped));
                    false
                }
            });
        for result in results {
            self.exported(result);
        }
    }

    fn exported(&mut self, result: Result<Vec<std::path::PathBuf>, ExportGameError>) {
        let text = match result {
            Ok(paths) => {
                let file = super::run::written_files(self.session.pack(), &paths);
                self.session.pack().phrase("exported", &[("file", file)])
            }
            Err(e) => self.session.pack().phrase(
                "export_failed",
                &[("reason", e.to_string().as_str().into())],
            ),
        };
        self.say(text, Priority::Answer);
    }

    /// Takes in finished saves (a failure is said at once) and carries out
    /// the effects whose save is done or has waited long enough.
    pub(super) fn release_saved(&mut self) {
        let Some(worker) = &mut self.links.saving.worker else {
            return;
        };
        for done in worker.poll() {
            match done.result {
                Ok(()) => self.links.saving.error = None,
                Err(e) => self.save_failed(&e),
            }
        }
        let now = self.now_ms();
        while let Some(front) = self.links.saving.held.front() {
            let due = match front.ticket {
                None => true,
                Some(t) => {
                    self.links
                        .saving
                        .worker
                        .as_ref()
                        .is_none_or(|w| w.is_done(t))
                        || now >= front.since + SAVE_GIVE_UP_MS
                }
            };
            if !due {
                if now >= front.since + SAVE_HOLD_MS && !front.told_slow {
                    if let Some(front) = self.links.saving.held.front_mut() {
                        front.told_slow = true;
                    }
                    // Said at once, ahead of the move that waits for it;
                    // once a slow spell, not once a move.
                    if !self.links.saving.slow_spell {
                        self.links.saving.slow_spell = true;
                        let text = self.session.pack().say("save_slow");
                        self.say(text, Priority::Alert);
                    }
                }
                break;
            }
            let held = self.links.saving.held.pop_front().expect("front exists");
            // A move whose save was done within the hold time: the disk
            // is quick again, and the next slow save is a new spell.
            if held.ticket.is_some() && now < held.since + SAVE_HOLD_MS {
                self.links.saving.slow_spell = false;
            }
            self.run_effects(held.effects, true);
        }
    }

    /// Effects that come while earlier ones wait for a save: they wait in
    /// line, but their own save is queued now, so that the save under way
    /// next holds this move too and it is announced when that is done
    /// (not one whole save after the move before it).
    pub(super) fn hold_behind(&mut self, mut effects: Vec<Effect>) {
        let at = effects.iter().position(|e| matches!(e, Effect::SaveGame));
        // (Without a saving thread a save is done at once, in line.)
        let ticket = at
            .filter(|_| self.links.saving.worker.is_some())
            .and_then(|_| self.queue_save());
        let (Some(at), Some(ticket)) = (at, ticket) else {
            self.links.saving.held.push_back(Held::behind(effects));
            return;
        };
        let after = effects.split_off(at + 1);
        effects.pop(); // the save, queued above
        if !effects.is_empty() {
            self.links.saving.held.push_back(Held::behind(effects));
        }
        let since = self.now_ms();
        self.links
            .saving
            .held
            .push_back(Held::saving(ticket, since, after));
    }

    /// How long until a held announcement needs a word (saving is slow) or
    /// goes out without its save.
    pub(super) fn save_hold_delay(&self) -> Option<Duration> {
        let front = self.links.saving.held.front()?;
        front.ticket?;
        let at = if front.told_slow {
            front.since + SAVE_GIVE_UP_MS
        } else {
            front.since + SAVE_HOLD_MS
        };
        let left = at.saturating_sub(self.now_ms());
        Some(Duration::from_millis(left.max(1)))
    }

    /// Says and shows why the game could not be saved; said again after
    /// every move until a save works.
    fn save_failed(&mut self, e: &std::io::Error) {
        let pack = self.session.pack();
        let reason = match e.kind() {
            std::io::ErrorKind::StorageFull | std::io::ErrorKind::QuotaExceeded => {
                pack.say("save_no_space")
            }
            std::io::ErrorKind::ReadOnlyFilesystem | std::io::ErrorKind::PermissionDenied => {
                pack.say("save_read_only")
            }
            // The shell's saver in a second window ([`crate::savegame::GameStore::lock`]).
            std::io::ErrorKind::ResourceBusy => pack.say("save_other_instance"),
            _ => Utterance::from(e.to_string().as_str()),
        };
        let text = pack.phrase("save_failed", &[("reason", reason)]);
        self.links.saving.error = Some(format!("{} ({e})", text.written));
        self.say(text, Priority::Alert);
        if let Some(elsewhere) = crate::savegame::SavedElsewhere::inside(e) {
            let folder = elsewhere.path.parent().unwrap_or(&elsewhere.path);
            // Spoken: the folder's last two names ("Documents, Rochade").
            let spoken: Vec<String> = folder
                .components()
                .rev()
                .take(2)
                .map(|c| c.as_os_str().to_string_lossy().into_owned())
                .collect::<Vec<_>>()
                .into_iter()
                .rev()
                .collect();
            let folder = Utterance {
                written: folder.display().to_string(),
                spoken: spoken.join(", "),
            };
            let text = self
                .session
                .pack()
                .phrase("saved_elsewhere", &[("folder", folder)]);
            self.say(text, Priority::Alert);
        }
    }
}

/// A failed save and the start-up note (a damaged save file, a second
/// window, a settings problem) stay at the top of the window, above
/// everything, where they cannot scroll out of view; a screen reader finds
/// them first. The save error goes once a save works. A long one is cut
/// after three lines, and "Show all" shows it whole ("Show less" cuts it
/// again): cut, the speech warning ended in "…" with no way to read it.
pub(super) fn alert_banner(
    ui: &mut egui::Ui,
    t: &super::UiText,
    save_error: Option<&String>,
    note: Option<&String>,
) {
    let lines: Vec<&String> = [save_error, note].into_iter().flatten().collect();
    if lines.is_empty() {
        return;
    }
    let whole_id = egui::Id::unique("alert_banner_whole");
    let whole = ui
        .ctx()
        .data(|d| d.get_temp::<bool>(whole_id))
        .unwrap_or(false);
    egui::Panel::top("alert_banner")
        .frame(
            egui::Frame::NONE
                .fill(egui::Color32::from_rgb(120, 0, 0))
                .inner_margin(8.0),
        )
        .show(ui, |ui| {
            // At most three lines each (the whole text on hover and for
            // a screen reader): a long one filled a small window's column.
            let rows = if whole {
                usize::MAX
            } else {
                super::layout::ERROR_ROWS
            };
            let mut cut = false;
            for line in lines {
                let (_, this_cut) =
                    super::layout::clamped_label(ui, line, 18.0, egui::Color32::WHITE, rows);
                cut |= this_cut;
            }
            if cut || whole {
                let key = if whole { "show_less" } else { "show_all" };
                if ui.button(t.get(key)).clicked() {
                    ui.ctx().data_mut(|d| d.insert_temp(whole_id, !whole));
                }
            }
        });
}
