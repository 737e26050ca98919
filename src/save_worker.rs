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

use std::io;
use std::sync::mpsc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use crate::chess::GameRecord;

/// Writes the scoresheet (the shell passes one that writes the save file;
/// tests pass one that records calls or fails).
pub type GameSaver = Box<dyn FnMut(&GameRecord) -> io::Result<()> + Send>;

/// Wakes the window when a save is done (e.g. `egui::Context::request_repaint`).
pub type Wake = Box<dyn Fn() + Send>;

/// A save that finished: the newest ticket it covers and how it went.
pub struct SaveDone {
    pub ticket: u64,
    pub result: io::Result<()>,
}

/// The saving thread and the tickets it was given.
pub struct SaveWorker {
    jobs: Option<mpsc::Sender<(u64, GameRecord)>>,
    done: mpsc::Receiver<SaveDone>,
    thread: Option<JoinHandle<()>>,
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
                    if done_tx.send(SaveDone { ticket, result }).is_err() {
                        break;
                    }
                    wake();
                }
            })?;
        Ok(SaveWorker {
            jobs: Some(jobs),
            done,
            thread: Some(thread),
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

impl Drop for SaveWorker {
    /// Lets the thread finish the saves still queued (closing the window
    /// never drops the last move).
    fn drop(&mut self) {
        self.jobs = None;
        if let Some(thread) = self.thread.take() {
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
