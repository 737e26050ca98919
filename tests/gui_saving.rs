//! Saving off the UI thread through the real app (issue 16, item 6; issue
//! 17, item 5): a move is announced once its save is done, frames go on
//! while the disk is busy, and a stalled disk holds the announcement back
//! for at most `SAVE_HOLD_MS` (virtual time).

mod gui_common;

use std::sync::mpsc;
use std::time::{Duration, Instant};

use gui_common::{settings, start_with};
use rochade::app::SAVE_HOLD_MS;
use rochade::words::Lang;

#[test]
fn a_move_is_announced_once_saved_and_a_busy_disk_never_stalls_a_frame() {
    // The "disk" writes only when the test lets it.
    let (go_tx, go_rx) = mpsc::channel::<()>();
    let (saved_tx, saved_rx) = mpsc::channel::<usize>();
    let mut gui = start_with(settings(Lang::En), |o| {
        o.saver = Some(Box::new(move |record| {
            go_rx
                .recv_timeout(Duration::from_secs(10))
                .map_err(|_| std::io::Error::other("the test never let the save finish"))?;
            saved_tx.send(record.moves().len()).unwrap();
            Ok(())
        }));
    });
    let said = |gui: &gui_common::Gui, text: &str| gui.spoken().iter().any(|s| s == text);

    gui.type_move_unsaved("e4");
    let started = Instant::now();
    for _ in 0..10 {
        gui.harness.run();
    }
    assert!(
        started.elapsed() < Duration::from_secs(2),
        "frames must not wait for the disk ({:?} for 10 frames)",
        started.elapsed()
    );
    assert!(!said(&gui, "Eva four"), "announced before it was saved");
    assert!(!gui.app().saves_settled());
    go_tx.send(()).unwrap();
    gui.settle_saves();
    assert_eq!(saved_rx.try_recv(), Ok(1), "the move was on disk first");
    assert!(said(&gui, "Eva four"), "{:?}", gui.spoken());

    // A stalled disk: the move is announced after SAVE_HOLD_MS anyway, and
    // the save still completes later.
    gui.type_move_unsaved("e5");
    gui.harness.run();
    assert!(!said(&gui, "Eva five"));
    gui.advance(SAVE_HOLD_MS - 1);
    assert!(!said(&gui, "Eva five"), "held until the limit");
    gui.advance(1);
    assert!(said(&gui, "Eva five"), "{:?}", gui.spoken());
    go_tx.send(()).unwrap();
    gui.settle_saves();
    assert_eq!(saved_rx.try_recv(), Ok(2));
    assert!(gui.app().saves_settled());
}
