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
//! The terminal commands (`play`, `track`, `online`) save the same way
//! through [`SaveLine`]: their front end is wrapped in [`WithSaving`],
//! which queues the save and holds the effects after it (the move's
//! announcement) until [`SaveLine::release`] finds the save on disk, with
//! the window's hold and give-up times.

use std::collections::VecDeque;
use std::io;
use std::sync::mpsc;
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

/// The second half of a staged save: puts what the first half flushed to
/// disk in place (a rename, the folder flushed).
pub type Commit = Box<dyn FnOnce() -> io::Result<()> + Send>;

/// The first half of a staged save: the record flushed to disk under a
/// temporary name; the commit that puts it in place.
pub type StagedSaver = Box<dyn FnMut(&GameRecord) -> io::Result<Commit> + Send>;

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

    /// Starts two threads that save in two halves, one after the other:
    /// while the second puts a save in place and flushes its folder, the
    /// first already flushes the next record to disk (on a slow disk a
    /// move waits for at most about three flushes, not four). Saves queued
    /// meanwhile are merged at each half.
    pub fn spawn_staged(mut prepare: StagedSaver, wake: Wake) -> io::Result<SaveWorker> {
        type Prepared = (u64, usize, io::Result<Commit>);
        let (jobs, job_rx) = mpsc::channel::<(u64, GameRecord)>();
        let (prepared_tx, prepared_rx) = mpsc::channel::<Prepared>();
        let (done_tx, done) = mpsc::channel();
        let first = std::thread::Builder::new()
            .name("game-saver".into())
            .spawn(move || {
                while let Ok(mut job) = job_rx.recv() {
                    while let Ok(newer) = job_rx.try_recv() {
                        job = newer;
                    }
                    let (ticket, record) = job;
                    let prepared = prepare(&record);
                    if prepared_tx
                        .send((ticket, record.moves().len(), prepared))
                        .is_err()
                    {
                        break;
                    }
                }
            })?;
        let second = std::thread::Builder::new()
            .name("game-committer".into())
            .spawn(move || {
                while let Ok(mut prepared) = prepared_rx.recv() {
                    // Only the newest needs putting in place (an older one
                    // dropped removes its temporary file).
                    while let Ok(newer) = prepared_rx.try_recv() {
                        prepared = newer;
                    }
                    let (ticket, plies, commit) = prepared;
                    let result = commit.and_then(|commit| commit());
                    let done = SaveDone {
                        ticket,
                        result,
                        plies,
                    };
                    if done_tx.send(done).is_err() {
                        break;
                    }
                    wake();
                }
            })?;
        Ok(SaveWorker {
            jobs: Some(jobs),
            done,
            threads: vec![first, second],
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
        let mut out: Vec<SaveDone> = self.done.try_iter().collect();
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
                Ok(d) => {
                    self.finished = self.finished.max(d.ticket);
                    out.push(d);
                }
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
    /// Saves in two halves (see [`SaveWorker::spawn_staged`]).
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
        self.pass(Effect::Online(effect))
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

    #[test]
    fn staged_saves_are_merged_while_the_last_one_is_put_in_place() {
        let (gate_tx, gate_rx) = mpsc::channel::<()>();
        let (prepared_tx, prepared_rx) = mpsc::channel::<usize>();
        let (committing_tx, committing_rx) = mpsc::channel::<usize>();
        let committing_tx = Arc::new(Mutex::new(committing_tx));
        let gate = Arc::new(Mutex::new(gate_rx));
        let committed = Arc::new(Mutex::new(Vec::new()));
        let log = committed.clone();
        let mut worker = SaveWorker::spawn_staged(
            Box::new(move |r: &GameRecord| {
                let plies = r.moves().len();
                prepared_tx.send(plies).unwrap();
                let (gate, log) = (gate.clone(), log.clone());
                let committing = committing_tx.clone();
                Ok(Box::new(move || {
                    committing.lock().unwrap().send(plies).unwrap();
                    gate.lock().unwrap().recv().unwrap();
                    log.lock().unwrap().push(plies);
                    Ok(())
                }) as Commit)
            }),
            Box::new(|| {}),
        )
        .unwrap();
        let mut record = GameRecord::new();
        let first = worker.queue(record.clone());
        assert_eq!(prepared_rx.recv().unwrap(), 0);
        assert_eq!(committing_rx.recv().unwrap(), 0);
        // The first is being put in place (held); two more are flushed
        // to disk meanwhile, not one after the other.
        record.play_sans("e4").unwrap();
        let _ = worker.queue(record.clone());
        record.play_sans("e5 Nf3").unwrap();
        let last = worker.queue(record.clone());
        while prepared_rx.recv().unwrap() != 3 {}
        assert!(!worker.is_done(first));
        gate_tx.send(()).unwrap();
        gate_tx.send(()).unwrap();
        let done = worker.wait(last, Duration::from_secs(10));
        assert!(worker.is_idle());
        assert_eq!(done.last().map(|d| (d.ticket, d.plies)), Some((last, 3)));
        assert_eq!(*committed.lock().unwrap(), [0, 3], "the middle one merged");
    }

    #[test]
    fn a_line_holds_what_follows_a_save_until_it_is_on_disk() {
        use crate::runtime::Collect;
        use crate::session::Priority;
        let (gate_tx, gate_rx) = mpsc::channel::<()>();
        let mut line = SaveLine::spawn(Box::new(move |_: &GameRecord| {
            gate_rx.recv().unwrap();
            Ok(Box::new(|| Ok(())) as Commit)
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
