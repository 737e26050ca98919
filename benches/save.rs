//! How much later a move is announced on a slow disk: the time from the
//! save asked for (the move entered) to the save done (when the window
//! announces it), through the real saving thread and the real save file
//! (a temporary folder, atomic write with fsync), with each write held up
//! as a slow USB stick or SD card holds up its fsync (0, 100, 500 and
//! 1500 ms). Prints the added latency against the undelayed disk; the
//! window says "saving is taking long" from 500 ms on.
//!
//! Then moves entered quicker than the disk takes them (issue 37: ten
//! moves 300 ms apart, each save held 1.5 s as by a slow fsync), queued as
//! the window queues them, each as it is entered: per move, how long after
//! it was entered a save holding it was done (when the window announces
//! it), and how many saves were written. `tests/gui/gui_saving.rs` checks the
//! window itself announces each move at that moment.

use std::time::{Duration, Instant};

use rochade::chess::GameRecord;
use rochade::save_worker::SaveWorker;
use rochade::savegame::{GameStore, SaveFile};

fn announce_after_save(delay_ms: u64, moves: usize) -> Duration {
    let dir = tempfile::tempdir().unwrap();
    let store = GameStore::new(dir.path());
    let lock = store.lock().unwrap();
    let mut file = SaveFile::new(store, None, lock);
    let mut worker = SaveWorker::spawn(
        Box::new(move |record: &GameRecord| {
            // The disk takes this long before the data is safe.
            std::thread::sleep(Duration::from_millis(delay_ms));
            file.save(record).map(|_| ())
        }),
        Box::new(|| {}),
    )
    .unwrap();
    let mut record = GameRecord::new();
    let sans = [
        "e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Ba4", "Nf6", "O-O", "Be7",
    ];
    let mut total = Duration::ZERO;
    for san in sans.iter().cycle().take(moves) {
        if record.play_sans(san).is_err() {
            record = GameRecord::new();
            record.play_sans(san).unwrap();
        }
        let asked = Instant::now();
        let ticket = worker.queue(record.clone());
        let done = worker.wait(ticket, Duration::from_secs(30));
        assert!(
            worker.is_done(ticket) && done.iter().all(|d| d.result.is_ok()),
            "the save failed"
        );
        total += asked.elapsed();
    }
    total / moves as u32
}

/// Ten moves (or `moves`) entered `every_ms` apart on a disk that holds
/// each save `hold_ms`; per move, the time from entered to announced.
fn quick_moves_on_a_slow_disk(hold_ms: u64, every_ms: u64, moves: usize) {
    let dir = tempfile::tempdir().unwrap();
    let store = GameStore::new(dir.path());
    let lock = store.lock().unwrap();
    let mut file = SaveFile::new(store, None, lock);
    let saves = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let counted = saves.clone();
    let mut worker = SaveWorker::spawn(
        Box::new(move |record: &GameRecord| {
            counted.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            std::thread::sleep(Duration::from_millis(hold_ms));
            file.save(record).map(|_| ())
        }),
        Box::new(|| {}),
    )
    .unwrap();
    let sans = [
        "e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Ba4", "Nf6", "d3", "b5",
    ];
    let mut record = GameRecord::new();
    let start = Instant::now();
    let (mut entered, mut tickets) = (Vec::new(), Vec::new());
    let mut announced: Vec<Option<Duration>> = vec![None; moves];
    while announced.iter().any(Option::is_none) {
        if tickets.len() < moves
            && start.elapsed() >= Duration::from_millis(every_ms) * tickets.len() as u32
        {
            record.play_sans(sans[tickets.len() % sans.len()]).unwrap();
            tickets.push(worker.queue(record.clone()));
            entered.push(start.elapsed());
        }
        // Until a save is done or the next move is entered.
        let next_entry = Duration::from_millis(every_ms) * tickets.len() as u32;
        let wait = if tickets.len() < moves {
            next_entry.saturating_sub(start.elapsed())
        } else {
            Duration::from_secs(30)
        };
        // The oldest move not announced yet: its save is the next to
        // finish (a save holding a later move holds it too).
        let oldest = announced.iter().position(Option::is_none).unwrap();
        let ticket = tickets.get(oldest).copied().unwrap_or(u64::MAX);
        let done = worker.wait(ticket, wait);
        assert!(done.iter().all(|d| d.result.is_ok()), "a save failed");
        for (i, ticket) in tickets.iter().enumerate() {
            if announced[i].is_none() && worker.is_done(*ticket) {
                announced[i] = Some(start.elapsed());
            }
        }
    }
    println!(
        "{moves} moves entered {every_ms} ms apart, each save held {hold_ms} ms: {} saves",
        saves.load(std::sync::atomic::Ordering::Relaxed)
    );
    for i in 0..moves {
        let (e, a) = (entered[i], announced[i].unwrap());
        println!(
            "  move {:2}: entered at {:6.0} ms, saved and announced at {:6.0} ms: {:6.0} ms after it was entered",
            i + 1,
            e.as_secs_f64() * 1000.0,
            a.as_secs_f64() * 1000.0,
            (a - e).as_secs_f64() * 1000.0
        );
    }
}

fn main() {
    let moves = 6;
    let base = announce_after_save(0, moves);
    println!(
        "save then announce, fast disk: {:.2} ms per move (fsync included)",
        base.as_secs_f64() * 1000.0
    );
    for delay in [100u64, 500, 1500] {
        let slow = announce_after_save(delay, moves);
        let added = slow.saturating_sub(base);
        println!(
            "disk {delay} ms slow: the move is announced {:.1} ms later ({:.1} ms after it was entered){}",
            added.as_secs_f64() * 1000.0,
            slow.as_secs_f64() * 1000.0,
            if delay >= 500 {
                "; \"saving is taking long\" said at 500 ms"
            } else {
                ""
            }
        );
    }
    quick_moves_on_a_slow_disk(1500, 300, 10);
    // A save flushes the file and then its folder: both held 1.5 s.
    quick_moves_on_a_slow_disk(3000, 300, 10);
}
