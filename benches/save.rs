//! How much later a move is announced on a slow disk: the time from the
//! save asked for (the move entered) to the save done (when the window
//! announces it), through the real saving thread and the real save file
//! (a temporary folder, atomic write with fsync), with each write held up
//! as a slow USB stick or SD card holds up its fsync (0, 100, 500 and
//! 1500 ms). Prints the added latency against the undelayed disk; the
//! window says "saving is taking long" from 500 ms on.

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
}
