//! Saving off the UI thread: the scoresheet is written (and flushed to
//! disk with fsync) by a thread of its own, so a slow USB stick never
//! stalls a frame.
//!
//! The window queues a copy of the record after every move
//! ([`SaveWorker::queue`] returns a ticket) and holds the move's
//! announcement until the worker reports that ticket done
//! ([`SaveWorker::poll`]): a move is announced only once it is on disk
//! (a slow disk is said after `app::SAVE_HOLD_MS`; only one that hangs for
//! `app::SAVE_GIVE_UP_MS` lets the move go out unsaved, after that word). Saves queued faster than the disk takes them are
//! merged: the newest record is written and every older ticket is done
//! with it (the newest record holds every move of the older ones).
//!
//! The terminal commands (`play`, `track`) save the same way through
//! [`SaveLine`]: their front end is wrapped in [`WithSaving`], which
//! queues the save and holds the effects after it (the move's
//! announcement) until [`SaveLine::release`] finds the save on disk, with
//! the window's hold and give-up times. Their saves run in steps on
//! threads of their own ([`SaveWorker::spawn_staged`]), overlapping.

use std::collections::VecDeque;
use std::io;
use std::sync::{Arc, Condvar, Mutex, mpsc};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use crate::board::HostCommand;
use crate::chess::GameRecord;
use crate::engine::EngineRequest;
use crate::runtime::{SaveStep, Shell, carry_out};
use crate::session::{Earcon, Effect, Notice, SessionConfig, Speech};
use rochade_core::online::OnlineEffect;

/// Writes the scoresheet (the shell passes one that writes the save file;
/// tests pass one that records calls or fails).
pub type GameSaver = Box<dyn FnMut(&GameRecord) -> io::Result<()> + Send>;

/// The last step of a staged save: flushes the folder of the file put in
/// place, so that the rename survives a power cut.
pub type SyncFolder = Box<dyn FnOnce() -> io::Result<()> + Send>;

/// The middle step of a staged save: puts the flushed file in place (a
/// rename) and returns the last step.
pub type Place = Box<dyn FnOnce() -> io::Result<SyncFolder> + Send>;

/// The first step of a staged save: the record (of the ticket given)
/// flushed to disk under a temporary name; the step that puts it in place.
pub type StagedSaver = Arc<dyn Fn(u64, &GameRecord) -> io::Result<Place> + Send + Sync>;

/// How many staged saves may be under way at once (more are merged).
const SAVES_AT_ONCE: usize = 4;

/// Wakes the window when a save is done (e.g. `egui::Context::request_repaint`).
pub type Wake = Box<dyn Fn() + Send>;

/// A save that finished: the newest ticket it covers and how it went.
pub struct SaveDone {
    pub ticket: u64,
    pub result: io::Result<()>,
    /// How many plies the record written (or not) held.
    pub plies: usize,
}

/// The saving thread and the tickets it was given.
pub struct SaveWorker {
    jobs: Option<mpsc::Sender<(u64, GameRecord)>>,
    done: mpsc::Receiver<SaveDone>,
    threads: Vec<JoinHandle<()>>,
    queued: u64,
    finished: u64,
    /// A ticket no thread will save (the thread is gone).
    lost: Option<u64>,
}

/// One save of [`SaveWorker::spawn_staged`]: flushed, put in place unless
/// a newer save is there already (`Ok(None)`), the folder flushed.
fn save_staged(
    saver: &(dyn Fn(u64, &GameRecord) -> io::Result<Place> + Send + Sync),
    placed: &Mutex<u64>,
    ticket: u64,
    record: &GameRecord,
) -> io::Result<Option<()>> {
    let place = saver(ticket, record)?;
    let sync_folder = {
        let mut newest = placed.lock().unwrap_or_else(|e| e.into_inner());
        if *newest > ticket {
            return Ok(None);
        }
        let sync_folder = place()?;
        *newest = ticket;
        sync_folder
    };
    sync_folder().map(Some)
}

impl SaveWorker {
    /// Starts the thread; `wake` is called after every finished save.
    pub fn spawn(mut saver: GameSaver, wake: Wake) -> io::Result<SaveWorker> {
        let (jobs, job_rx) = mpsc::channel::<(u64, GameRecord)>();
        let (done_tx, done) = mpsc::channel();
        let thread = std::thread::Builder::new()
            .name("game-saver".into())
            .spawn(move || {
                while let Ok(mut job) = job_rx.recv() {
                    // Only the newest record needs writing.
                    while let Ok(newer) = job_rx.try_recv() {
                        job = newer;
                    }
                    let (ticket, record) = job;
                    let result = saver(&record);
                    let plies = record.moves().len();
                    if done_tx
                        .send(SaveDone {
                            ticket,
                            result,
                            plies,
                        })
                        .is_err()
                    {
                        break;
                    }
                    wake();
                }
            })?;
        Ok(SaveWorker {
            jobs: Some(jobs),
            done,
            threads: vec![thread],
            queued: 0,
            finished: 0,
            lost: None,
        })
    }

    /// Starts a thread that saves each record on a thread of its own, up
    /// to [`SAVES_AT_ONCE`] at once (more are merged): each flushes its
    /// record to disk under a temporary name, puts it in place unless a
    /// newer one is there already (renames stay in order), and flushes
    /// the folder. A move made while a save is under way waits for its own
    /// save only (on a slow disk two flushes), never for the one under way
    /// first. A save overtaken by a newer one is done with it.
    pub fn spawn_staged(saver: StagedSaver, wake: Wake) -> io::Result<SaveWorker> {
        let (jobs, job_rx) = mpsc::channel::<(u64, GameRecord)>();
        let (done_tx, done) = mpsc::channel();
        let wake = Arc::new(Mutex::new(wake));
        let dispatcher = std::thread::Builder::new()
            .name("game-saver".into())
            .spawn(move || {
                // The newest ticket put in place.
                let placed = Arc::new(Mutex::new(0u64));
                let under_way = Arc::new((Mutex::new(0usize), Condvar::new()));
                let mut savers: Vec<JoinHandle<()>> = Vec::new();
                while let Ok(mut job) = job_rx.recv() {
                    {
                        let (count, freed) = &*under_way;
                        let mut count = count.lock().unwrap_or_else(|e| e.into_inner());
                        while *count >= SAVES_AT_ONCE {
                            count = freed.wait(count).unwrap_or_else(|e| e.into_inner());
                        }
                        *count += 1;
                    }
                    // Only the newest of those queued meanwhile is saved.
                    while let Ok(newer) = job_rx.try_recv() {
                        job = newer;
                    }
                    let ticket = job.0;
                    let (saver, placed, freeing) =
                        (saver.clone(), placed.clone(), under_way.clone());
                    let (done_tx_saver, wake) = (done_tx.clone(), wake.clone());
                    let spawned =
                        std::thread::Builder::new()
                            .name("game-save".into())
                            .spawn(move || {
                                let (ticket, record) = job;
                                let plies = record.moves().len();
                                let result = save_staged(&*saver, &placed, ticket, &record);
                                // Overtaken: the newer save's report covers it.
                                if let Some(result) = result.transpose() {
                                    let report = SaveDone {
                                        ticket,
                                        result,
                                        plies,
                                    };
                                    if done_tx_saver.send(report).is_ok() {
                                        (wake.lock().unwrap_or_else(|e| e.into_inner()))();
                                    }
                                }
                                let (count, freed) = &*freeing;
                                *count.lock().unwrap_or_else(|e| e.into_inner()) -= 1;
                                freed.notify_one();
                            });
                    match spawned {
                        Ok(handle) => savers.push(handle),
                        Err(e) => {
                            let (count, _) = &*under_way;
                            *count.lock().unwrap_or_else(|e| e.into_inner()) -= 1;
                            let _ = done_tx.send(SaveDone {
                                ticket,
                                result: Err(e),
                                plies: 0,
                            });
                        }
                    }
                    savers.retain(|h| !h.is_finished());
                }
                for saver in savers {
                    let _ = saver.join();
                }
            })?;
        Ok(SaveWorker {
            jobs: Some(jobs),
            done,
            threads: vec![dispatcher],
            queued: 0,
            finished: 0,
            lost: None,
        })
    }

    /// Queues a save of `record`; returns its ticket.
    pub fn queue(&mut self, record: GameRecord) -> u64 {
        self.queued += 1;
        let ticket = self.queued;
        let sent = self
            .jobs
            .as_ref()
            .is_some_and(|j| j.send((ticket, record)).is_ok());
        if !sent {
            // The thread is gone (it panicked): nothing will save this.
            self.lost = Some(ticket);
        }
        ticket
    }

    /// The saves finished since the last call (never blocks).
    pub fn poll(&mut self) -> Vec<SaveDone> {
        // A report older than one already given says nothing new (saves
        // on threads of their own may finish out of order).
        let mut newest = self.finished;
        let mut out: Vec<SaveDone> = self
            .done
            .try_iter()
            .filter(|d| {
                let news = d.ticket > newest;
                newest = newest.max(d.ticket);
                news
            })
            .collect();
        if let Some(ticket) = self.lost.take() {
            out.push(SaveDone {
                ticket,
                result: Err(io::Error::other("the saving thread stopped")),
                plies: 0,
            });
        }
        if let Some(last) = out.iter().map(|d| d.ticket).max() {
            self.finished = self.finished.max(last);
        }
        out
    }

    /// Whether `ticket` is saved (or failed: it is done either way).
    pub fn is_done(&self, ticket: u64) -> bool {
        self.finished >= ticket
    }

    /// Every queued save has finished.
    pub fn is_idle(&self) -> bool {
        self.finished >= self.queued
    }

    /// The newest ticket given (0: none yet).
    pub fn last_ticket(&self) -> u64 {
        self.queued
    }

    /// Blocks until `ticket` is done or `timeout` passed; returns what
    /// finished meanwhile. For a process without a window (tests, the
    /// command line), never for the UI thread.
    pub fn wait(&mut self, ticket: u64, timeout: Duration) -> Vec<SaveDone> {
        let end = Instant::now() + timeout;
        let mut out = self.poll();
        while !self.is_done(ticket) && self.lost.is_none() {
            let left = end.saturating_duration_since(Instant::now());
            match self.done.recv_timeout(left) {
                Ok(d) if d.ticket > self.finished => {
                    self.finished = d.ticket;
                    out.push(d);
                }
                Ok(_) => {}
                Err(_) => break,
            }
        }
        out.extend(self.poll());
        out
    }
}

/// What [`SaveLine::release`] has to tell the front end, in order, before
/// the effects it lets through.
pub enum SaveNews {
    /// A save finished (well or not).
    Finished(SaveDone),
    /// The move waits for its save longer than the hold time: said once
    /// a slow spell.
    Slow,
    /// The disk did not answer for the give-up time: the move goes out
    /// now, not saved yet.
    GaveUp,
}

/// Effects waiting for a save (`ticket`), or behind ones that do.
struct Waiting {
    ticket: Option<u64>,
    since: Instant,
    effects: Vec<Effect>,
    told_slow: bool,
}

/// The saving of a front end without a window: the saving thread and the
/// effects waiting for it, in order (see the module's words).
pub struct SaveLine {
    worker: SaveWorker,
    held: VecDeque<Waiting>,
    /// "Saving is taking long" was said and no save was quick since.
    slow_spell: bool,
}

impl SaveLine {
    /// Saves in steps, overlapping (see [`SaveWorker::spawn_staged`]).
    pub fn spawn(saver: StagedSaver) -> io::Result<SaveLine> {
        Ok(SaveLine {
            worker: SaveWorker::spawn_staged(saver, Box::new(|| {}))?,
            held: VecDeque::new(),
            slow_spell: false,
        })
    }

    /// `inner` with the saving in front: a save is queued and what follows
    /// it waits, as does everything after effects that wait.
    pub fn shell<'a, S: Shell + ?Sized>(
        &'a mut self,
        record: &'a GameRecord,
        inner: &'a mut S,
    ) -> WithSaving<'a, S> {
        WithSaving {
            line: self,
            record,
            inner,
            batch: None,
        }
    }

    /// Something waits for a save, or a save is under way: the front end
    /// looks again within [`SaveLine::POLL`].
    pub fn busy(&self) -> bool {
        !self.held.is_empty() || !self.worker.is_idle()
    }

    /// How often a busy front end looks for finished saves.
    pub const POLL: Duration = Duration::from_millis(10);

    /// Takes in the finished saves (told through `news`) and carries out,
    /// through `shell`, the effects whose save is done or has waited for
    /// the give-up time.
    pub fn release<S: Shell + ?Sized>(
        &mut self,
        shell: &mut S,
        news: impl FnMut(&mut S, SaveNews) -> Result<(), S::Error>,
    ) -> Result<(), S::Error> {
        self.release_until(shell, news, None)
    }

    /// At the end: waits up to `limit` for every save, then carries out
    /// everything still held (what was not saved in time after
    /// [`SaveNews::GaveUp`]).
    pub fn finish<S: Shell + ?Sized>(
        &mut self,
        shell: &mut S,
        mut news: impl FnMut(&mut S, SaveNews) -> Result<(), S::Error>,
        limit: Duration,
    ) -> Result<(), S::Error> {
        let last = self.worker.last_ticket();
        for done in self.worker.wait(last, limit) {
            news(shell, SaveNews::Finished(done))?;
        }
        self.release_until(shell, news, Some(()))
    }

    fn release_until<S: Shell + ?Sized>(
        &mut self,
        shell: &mut S,
        mut news: impl FnMut(&mut S, SaveNews) -> Result<(), S::Error>,
        all: Option<()>,
    ) -> Result<(), S::Error> {
        for done in self.worker.poll() {
            news(shell, SaveNews::Finished(done))?;
        }
        let hold = Duration::from_millis(crate::app::SAVE_HOLD_MS);
        let give_up = Duration::from_millis(crate::app::SAVE_GIVE_UP_MS);
        while let Some(front) = self.held.front_mut() {
            let waited = front.since.elapsed();
            let saved = front.ticket.is_none_or(|t| self.worker.is_done(t));
            if !saved && waited < give_up && all.is_none() {
                if waited >= hold && !front.told_slow {
                    front.told_slow = true;
                    // Once a slow spell, not once a move.
                    if !self.slow_spell {
                        self.slow_spell = true;
                        news(shell, SaveNews::Slow)?;
                    }
                }
                break;
            }
            let front = self.held.pop_front().expect("a front");
            if !saved {
                news(shell, SaveNews::GaveUp)?;
            } else if front.ticket.is_some() && waited < hold {
                // Quick again: the next slow save is a new spell.
                self.slow_spell = false;
            }
            carry_out(shell, front.effects)?;
        }
        Ok(())
    }
}

/// A front end with [`SaveLine`]'s saving in front of it.
pub struct WithSaving<'a, S: ?Sized> {
    line: &'a mut SaveLine,
    record: &'a GameRecord,
    inner: &'a mut S,
    /// The effects after this event's save (or behind earlier ones).
    batch: Option<Waiting>,
}

impl<S: Shell + ?Sized> WithSaving<'_, S> {
    /// Carries `effect` out now, or holds it when something before it
    /// waits for a save.
    fn pass(&mut self, effect: Effect) -> Result<(), S::Error> {
        if let Some(batch) = &mut self.batch {
            batch.effects.push(effect);
        } else if !self.line.held.is_empty() {
            self.batch = Some(Waiting {
                ticket: None,
                since: Instant::now(),
                effects: vec![effect],
                told_slow: false,
            });
        } else {
            carry_out(&mut *self.inner, [effect])?;
        }
        Ok(())
    }
}

impl<S: ?Sized> Drop for WithSaving<'_, S> {
    /// What waits goes in line once the event's effects are all given.
    fn drop(&mut self) {
        if let Some(batch) = self.batch.take() {
            self.line.held.push_back(batch);
        }
    }
}

impl<S: Shell + ?Sized> Shell for WithSaving<'_, S> {
    type Error = S::Error;

    fn speak(&mut self, speech: Speech) -> Result<(), S::Error> {
        self.pass(Effect::Speak(speech))
    }
    fn sound(&mut self, earcon: Earcon) -> Result<(), S::Error> {
        self.pass(Effect::Sound(earcon))
    }
    fn notice(&mut self, notice: Notice) -> Result<(), S::Error> {
        self.pass(Effect::Notice(notice))
    }
    fn save_game(&mut self) -> Result<SaveStep, S::Error> {
        // Queued at once, even behind effects that wait: the save under
        // way next holds this move too (moves made quickly on a slow disk
        // wait for one save, never for a queue of them).
        let ticket = self.line.worker.queue(self.record.clone());
        if let Some(batch) = self.batch.take() {
            self.line.held.push_back(batch);
        }
        self.batch = Some(Waiting {
            ticket: Some(ticket),
            since: Instant::now(),
            effects: Vec::new(),
            told_slow: false,
        });
        Ok(SaveStep::Done)
    }
    fn board_command(&mut self, command: HostCommand) -> Result<(), S::Error> {
        self.pass(Effect::BoardCommand(command))
    }
    fn sighted_board_command(&mut self, command: HostCommand) -> Result<(), S::Error> {
        self.pass(Effect::SightedBoardCommand(command))
    }
    fn ask_engine(&mut self, request: EngineRequest) -> Result<(), S::Error> {
        self.pass(Effect::AskEngine(request))
    }
    fn restart_engine(&mut self) -> Result<(), S::Error> {
        self.pass(Effect::RestartEngine)
    }
    fn config_changed(&mut self, config: SessionConfig) -> Result<(), S::Error> {
        self.pass(Effect::ConfigChanged(config))
    }
    fn online(&mut self, effect: OnlineEffect) -> Result<(), S::Error> {
        match effect {
            // A request (our move among them) and the game's stream never
            // wait for the disk: the server's clock runs.
            OnlineEffect::Send { .. } | OnlineEffect::Open(_) | OnlineEffect::Resync(_) => {
                self.inner.online(effect)
            }
            _ => self.pass(Effect::Online(effect)),
        }
    }
}

impl Drop for SaveWorker {
    /// Lets the thread finish the saves still queued (closing the window
    /// never drops the last move).
    fn drop(&mut self) {
        self.jobs = None;
        for thread in self.threads.drain(..) {
            let _ = thread.join();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::{Arc, Mutex};

    #[test]
    fn saves_run_in_order_and_merge_while_the_disk_is_busy() {
        let (gate_tx, gate_rx) = mpsc::channel::<()>();
        let (started_tx, started_rx) = mpsc::channel::<()>();
        let written = Arc::new(Mutex::new(Vec::new()));
        let log = written.clone();
        let mut worker = SaveWorker::spawn(
            Box::new(move |r: &GameRecord| {
                started_tx.send(()).unwrap();
                gate_rx.recv().unwrap();
                log.lock().unwrap().push(r.moves().len());
                Ok(())
            }),
            Box::new(|| {}),
        )
        .unwrap();
        let mut record = GameRecord::new();
        let first = worker.queue(record.clone());
        record.play_sans("e4 e5 Nf3").unwrap();
        // The first save is being written (blocked); two more queue up.
        started_rx.recv().unwrap();
        let _ = worker.queue(record.clone());
        let last = worker.queue(record.clone());
        assert!(!worker.is_done(first) && !worker.is_idle());
        gate_tx.send(()).unwrap();
        gate_tx.send(()).unwrap();
        let done = worker.wait(last, Duration::from_secs(10));
        assert!(worker.is_done(last) && worker.is_idle());
        assert!(done.iter().all(|d| d.result.is_ok()));
        let written = written.lock().unwrap().clone();
        assert_eq!(*written.last().unwrap(), 3, "the newest record is on disk");
        assert_eq!(written, vec![0, 3], "the two queued while busy are merged");
    }

    /// A staged step that puts nothing in place and flushes nothing.
    fn placed_nowhere() -> Place {
        Box::new(|| Ok(Box::new(|| Ok(())) as SyncFolder))
    }

    #[test]
    fn a_staged_save_overtakes_a_slow_one_and_renames_stay_in_order() {
        let (gate_tx, gate_rx) = mpsc::channel::<()>();
        let (started_tx, started_rx) = mpsc::channel::<usize>();
        let gate = Mutex::new(gate_rx);
        let started = Mutex::new(started_tx);
        let placed = Arc::new(Mutex::new(Vec::new()));
        let log = placed.clone();
        let mut worker = SaveWorker::spawn_staged(
            Arc::new(move |_, r: &GameRecord| {
                let plies = r.moves().len();
                started.lock().unwrap().send(plies).unwrap();
                if plies == 0 {
                    // The first save's disk is slow.
                    gate.lock().unwrap().recv().unwrap();
                }
                let log = log.clone();
                Ok(Box::new(move || {
                    log.lock().unwrap().push(plies);
                    Ok(Box::new(|| Ok(())) as SyncFolder)
                }) as Place)
            }),
            Box::new(|| {}),
        )
        .unwrap();
        let mut record = GameRecord::new();
        let first = worker.queue(record.clone());
        assert_eq!(started_rx.recv().unwrap(), 0);
        // A move made while the first save is under way waits for its
        // own save only.
        record.play_sans("e4 e5 Nf3").unwrap();
        let last = worker.queue(record.clone());
        let done = worker.wait(last, Duration::from_secs(10));
        assert_eq!(done.len(), 1);
        assert_eq!((done[0].ticket, done[0].plies), (last, 3));
        assert!(done[0].result.is_ok());
        assert!(worker.is_done(first) && worker.is_idle());
        // The slow one, overtaken, is never put in place over the newer.
        gate_tx.send(()).unwrap();
        drop(worker);
        assert_eq!(*placed.lock().unwrap(), [3]);
    }

    #[test]
    fn a_line_holds_what_follows_a_save_until_it_is_on_disk() {
        use crate::runtime::Collect;
        use crate::session::Priority;
        let (gate_tx, gate_rx) = mpsc::channel::<()>();
        let gate = Mutex::new(gate_rx);
        let mut line = SaveLine::spawn(Arc::new(move |_, _: &GameRecord| {
            gate.lock().unwrap().recv().unwrap();
            Ok(placed_nowhere())
        }))
        .unwrap();
        let speech = Effect::Speak(Speech {
            text: "Eva vier".into(),
            lang: crate::words::Lang::De,
            priority: Priority::Move,
        });
        let mut record = GameRecord::new();
        record.play_sans("e4").unwrap();
        let mut front = Collect::default();
        let sound = Effect::Sound(Earcon::MoveAccepted);
        let Ok(_) = carry_out(
            &mut line.shell(&record, &mut front),
            [sound.clone(), Effect::SaveGame, speech.clone()],
        );
        // What comes next waits behind it, though it saves nothing.
        let snapshot = Effect::BoardCommand(HostCommand::Snapshot);
        let Ok(_) = carry_out(&mut line.shell(&record, &mut front), [snapshot.clone()]);
        let Ok(()) = line.release(&mut front, |_, _| Ok(()));
        assert_eq!(
            front.0,
            std::slice::from_ref(&sound),
            "the move waits for its save"
        );
        assert!(line.busy());
        gate_tx.send(()).unwrap();
        let end = Instant::now() + Duration::from_secs(10);
        while front.0.len() < 3 && Instant::now() < end {
            std::thread::sleep(Duration::from_millis(5));
            let Ok(()) = line.release(&mut front, |_, _| Ok(()));
        }
        assert_eq!(front.0, [sound, speech, snapshot]);
        assert!(!line.busy());
    }

    #[test]
    fn a_failed_save_is_reported_with_its_ticket() {
        let mut worker = SaveWorker::spawn(
            Box::new(|_: &GameRecord| Err(io::ErrorKind::StorageFull.into())),
            Box::new(|| {}),
        )
        .unwrap();
        let t = worker.queue(GameRecord::new());
        let done = worker.wait(t, Duration::from_secs(10));
        assert_eq!(done.len(), 1);
        assert_eq!(done[0].ticket, t);
        assert_eq!(
            done[0].result.as_ref().unwrap_err().kind(),
            io::ErrorKind::StorageFull
        );
    }
}
