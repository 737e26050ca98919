//! Saving off the UI thread through the real app (issue 16, item 6; issue
//! 17, item 5): a move is announced once its save is done, frames go on
//! while the disk is busy, a slow disk is said after `SAVE_HOLD_MS` and the
//! move waits for its save, up to `SAVE_GIVE_UP_MS` for a disk that hangs
//! (virtual time).

mod gui_common;

use std::sync::mpsc;
use std::time::{Duration, Instant};

use gui_common::{settings, start_with};
use rochade::app::{SAVE_GIVE_UP_MS, SAVE_HOLD_MS};
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

    // A slow disk (a USB stick, an SD card): after SAVE_HOLD_MS the player
    // hears that saving is slow, and the move only once it is on disk.
    let slow = "Saving is taking long; the move is announced as soon as it is saved";
    gui.type_move_unsaved("e5");
    gui.harness.run();
    assert!(!said(&gui, "Eva five"));
    gui.advance(SAVE_HOLD_MS - 1);
    assert!(!said(&gui, slow), "not before the hold time");
    gui.advance(1);
    assert!(said(&gui, slow), "{:?}", gui.spoken());
    gui.advance(3 * SAVE_HOLD_MS);
    assert!(
        !said(&gui, "Eva five"),
        "never announced before it is saved"
    );
    go_tx.send(()).unwrap();
    gui.settle_saves();
    assert_eq!(saved_rx.try_recv(), Ok(2), "on disk first");
    assert!(said(&gui, "Eva five"), "{:?}", gui.spoken());
    assert!(gui.app().saves_settled());

    // A disk that hangs: after SAVE_GIVE_UP_MS the move goes out after all
    // (the player was told saving is slow), and the save completes later.
    gui.type_move_unsaved("Nf3");
    gui.harness.run();
    gui.advance(SAVE_GIVE_UP_MS - 1);
    assert!(!said(&gui, "Knight Felix three"), "held until the limit");
    gui.advance(1);
    assert!(said(&gui, "Knight Felix three"), "{:?}", gui.spoken());
    go_tx.send(()).unwrap();
    gui.settle_saves();
    assert_eq!(saved_rx.try_recv(), Ok(3));
}

/// Starts the app on a save folder as `rochade` does at start.
fn open_on(dir: &std::path::Path) -> gui_common::Gui {
    let mut notes = Vec::new();
    let store = rochade::savegame::GameStore::new(dir);
    let (resume, saver, alerts) = rochade::app::run::open_save_folder(Ok(store), None, &mut notes);
    start_with(settings(Lang::En), move |o| {
        o.resume = resume;
        o.saver = Some(saver);
        o.startup_alerts = alerts;
        o.startup_note = (!notes.is_empty()).then(|| notes.join("; "));
    })
}

#[test]
fn a_second_window_says_it_does_not_save_and_never_touches_the_save_file() {
    let dir = tempfile::tempdir().unwrap();
    let mut first = open_on(dir.path());
    first.type_move("e4");
    let saved = std::fs::read(dir.path().join(rochade::savegame::CURRENT_FILE)).unwrap();

    let mut second = open_on(dir.path());
    let told = "Rochade is already open in another window. This window does not save the game";
    assert!(
        second.spoken().iter().any(|s| s == told),
        "{:?}",
        second.spoken()
    );
    assert!(second.shows_part("already open in another window"));
    assert!(
        second.app().question().is_none(),
        "the first window's game is not offered"
    );
    second.type_move("d4");
    let failed = "The game cannot be saved: another Rochade window is using the save folder";
    assert!(
        second.spoken().iter().any(|s| s == failed),
        "{:?}",
        second.spoken()
    );
    assert!(second.shows_part("The game cannot be saved"));
    assert_eq!(
        std::fs::read(dir.path().join(rochade::savegame::CURRENT_FILE)).unwrap(),
        saved,
        "the first window's save file is untouched"
    );
    first.type_move("e5");
    assert!(!first.spoken().iter().any(|s| s.contains("cannot be saved")));
}

#[test]
fn a_damaged_save_offers_its_readable_moves_and_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let mut record = rochade::chess::GameRecord::new();
    record.play_sans("e4 e5 Nf3 Nc6").unwrap();
    let text = rochade::savegame::to_pgn(&record);
    let cut = &text[..text.len() - 4];
    std::fs::write(dir.path().join(rochade::savegame::CURRENT_FILE), cut).unwrap();
    let mut gui = open_on(dir.path());
    let said = gui.spoken();
    let damaged = "The saved game was damaged. Its readable moves can be resumed";
    let at = said.iter().position(|s| s == damaged);
    assert!(at.is_some(), "{said:?}");
    assert!(
        at < said
            .iter()
            .position(|s| s.starts_with("An unfinished game"))
    );
    assert!(gui.shows_part(".bad-"), "the note names the file set aside");
    gui.press(egui::Key::Enter);
    assert!(gui.app().session().record().moves().len() >= 3);
}

#[test]
fn a_folder_that_cannot_be_written_saves_elsewhere_and_says_both() {
    // /sys refuses new folders (EPERM) even to root: a data folder that
    // cannot be written, on any Linux.
    let blocked = std::path::Path::new("/sys/rochade-save-test");
    assert!(!blocked.exists());
    let fallback = tempfile::tempdir().unwrap();
    let mut notes = Vec::new();
    let (resume, saver, alerts) = rochade::app::run::open_save_folder(
        Ok(rochade::savegame::GameStore::new(blocked)),
        Some(fallback.path().to_owned()),
        &mut notes,
    );
    let mut gui = start_with(settings(Lang::En), move |o| {
        o.resume = resume;
        o.saver = Some(saver);
        o.startup_alerts = alerts;
    });
    gui.type_move("e4");
    let said = gui.spoken();
    let failed = said
        .iter()
        .position(|s| s == "The game cannot be saved: the folder is read-only");
    let elsewhere = said
        .iter()
        .position(|s| s.starts_with("It was saved in the folder ") && s.ends_with(" instead"));
    let moved = said.iter().position(|s| s == "Eva four");
    assert!(
        failed.is_some() && failed < elsewhere && elsewhere < moved,
        "{said:?}"
    );
    assert!(gui.shows_part(&fallback.path().display().to_string()));
    let store = rochade::savegame::GameStore::new(fallback.path());
    let rochade::savegame::SaveRead::Intact(saved) = store.read_current().unwrap() else {
        panic!("the game is in the fallback folder");
    };
    assert_eq!(saved.moves().len(), 1);
    // A second window on the same folders is refused (the lock lives in
    // the fallback folder, as the data folder takes none).
    let (_, _, alerts) = rochade::app::run::open_save_folder(
        Ok(rochade::savegame::GameStore::new(blocked)),
        Some(fallback.path().to_owned()),
        &mut Vec::new(),
    );
    assert_eq!(alerts, ["second_instance"]);
    drop(gui);

    // The next start offers it from there.
    let mut notes = Vec::new();
    let (resume, _, _) = rochade::app::run::open_save_folder(
        Ok(rochade::savegame::GameStore::new(blocked)),
        Some(fallback.path().to_owned()),
        &mut notes,
    );
    assert_eq!(resume.expect("offered").moves().len(), 1);
}

#[test]
fn a_note_at_start_is_said_and_shown_at_the_top() {
    let mut gui = start_with(settings(Lang::En), |o| {
        o.startup_note = Some("settings.toml line 3: unknown value, defaults used".into());
    });
    let said = gui.spoken();
    assert_eq!(
        said.first().map(String::as_str),
        Some("There was a problem at start; it is shown at the top of the window"),
        "{said:?}"
    );
    assert!(gui.shows_part("settings.toml line 3"));
    gui.type_move("e4");
    assert!(gui.shows_part("settings.toml line 3"), "it stays");
}

/// Writes a save file with these moves into `dir`.
fn save_in(dir: &std::path::Path, sans: &str) {
    let mut record = rochade::chess::GameRecord::new();
    record.play_sans(sans).unwrap();
    std::fs::create_dir_all(dir).unwrap();
    std::fs::write(
        dir.join(rochade::savegame::CURRENT_FILE),
        rochade::savegame::to_pgn(&record),
    )
    .unwrap();
}

fn moves_in(dir: &std::path::Path) -> usize {
    let text = std::fs::read_to_string(dir.join(rochade::savegame::CURRENT_FILE)).unwrap();
    rochade::savegame::from_pgn(&text).unwrap().moves().len()
}

#[test]
fn the_newer_game_in_the_spare_folder_is_offered_and_nothing_is_lost() {
    // e4 e5 were saved in the data folder; the disk filled, and Nf3 Nc6
    // Bb5 went to the spare folder; the app was killed. At the restart the
    // game with every move is offered, wherever it is.
    let root = tempfile::tempdir().unwrap();
    let (data, spare) = (root.path().join("data"), root.path().join("spare"));
    save_in(&data, "e4 e5");
    save_in(&spare, "e4 e5 Nf3 Nc6 Bb5");
    let mut notes = Vec::new();
    let (resume, mut saver, _) = rochade::app::run::open_save_folder(
        Ok(rochade::savegame::GameStore::new(&data)),
        Some(spare.clone()),
        &mut notes,
    );
    let mut game = resume.expect("a game is offered");
    assert_eq!(game.moves().len(), 5, "the newest game: {notes:?}");
    // Play on: saved in the data folder (writable again), the spare copy
    // is cleared only because the saved game holds every move of it.
    game.play_sans("a6").unwrap();
    saver(&game).unwrap();
    assert_eq!(moves_in(&data), 6);
    assert!(!spare.join(rochade::savegame::CURRENT_FILE).exists());
}

#[test]
fn two_different_unfinished_games_keep_both() {
    let root = tempfile::tempdir().unwrap();
    let (data, spare) = (root.path().join("data"), root.path().join("spare"));
    save_in(&data, "d4 d5 c4");
    save_in(&spare, "e4 e5 Nf3 Nc6");
    let mut notes = Vec::new();
    let (resume, _, _) = rochade::app::run::open_save_folder(
        Ok(rochade::savegame::GameStore::new(&data)),
        Some(spare.clone()),
        &mut notes,
    );
    assert_eq!(resume.expect("offered").moves().len(), 4);
    let kept = notes
        .iter()
        .find(|n| n.contains("Another unfinished game (3 moves) was kept as"))
        .unwrap_or_else(|| panic!("the other game is named: {notes:?}"));
    let path = kept
        .trim_end_matches('.')
        .rsplit(" as ")
        .next()
        .expect("a path");
    let archived = std::fs::read_to_string(path).unwrap();
    assert!(archived.contains("1. d4 d5 2. c4"), "{archived}");
}

#[test]
fn the_spare_folder_is_the_users_own_never_a_shared_temporary_one() {
    // (On a machine without a Documents folder, as this test machine, the
    // spare folder used to be /tmp/rochade-games, shared by every user.)
    let dir = rochade::savegame::fallback_dir().expect("a spare folder");
    assert!(
        !dir.starts_with(std::env::temp_dir()),
        "{} is a shared temporary folder",
        dir.display()
    );
}

#[test]
fn a_word_file_that_makes_two_squares_alike_is_refused_said_and_shown() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("en.toml"), "[files]\na = \"Bella\"\n").unwrap();
    let gui = start_with(settings(Lang::En), |o| {
        o.pack_dir = Some(dir.path().to_path_buf());
    });
    let said = gui.spoken();
    assert!(
        said.iter()
            .any(|s| s.starts_with("Your corrected words are not used")
                && s.contains("file 'b'")
                && s.ends_with("The bundled words are used")),
        "{said:?}"
    );
    assert!(gui.shows_part("file 'b'"), "shown at the top");
    // The bundled words: a5 is Anna, not Bella.
    let pack = gui.app().session().pack();
    assert_eq!(pack.file(shakmaty::File::A).written, "Anna");
}
