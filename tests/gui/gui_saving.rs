//! Saving off the UI thread through the real app (issue 16, item 6; issue
//! 17, item 5): a move is announced once its save is done, frames go on
//! while the disk is busy, a slow disk is said after `SAVE_HOLD_MS` and the
//! move waits for its save, up to `SAVE_GIVE_UP_MS` for a disk that hangs
//! (virtual time).

use crate::gui_common;

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

#[test]
fn quick_moves_on_a_slow_disk_are_each_announced_when_a_save_holding_them_is_done() {
    // Issue 37, item 1: every save takes DISK_MS of the test's (virtual)
    // time, as a disk whose fsync is held 1.5 s; ten moves are entered
    // EVERY_MS apart. Each move must be announced the moment a save that
    // holds it is done (before: one whole save after the move before it,
    // the tenth about 15 s late), each save writes the newest record (the
    // saves coalesce), and "saving is taking long" is said once for the
    // spell (until a save is quick again), not once a move.
    const DISK_MS: u64 = 1_500;
    const EVERY_MS: u64 = 300;
    const STEP_MS: u64 = 100;
    let moves = [
        ("e4", "Eva four"),
        ("e5", "Eva five"),
        ("Nf3", "Knight Felix three"),
        ("Nc6", "Knight Cesar six"),
        ("Bb5", "Bishop Bella five"),
        ("a6", "Anna six"),
        ("Ba4", "Bishop Anna four"),
        ("Nf6", "Knight Felix six"),
        ("d3", "David three"),
        ("b5", "Bella five"),
    ];
    // The disk reports each save it starts (the moves in it) and finishes
    // it when the test says.
    let (started_tx, started_rx) = mpsc::channel::<usize>();
    let (go_tx, go_rx) = mpsc::channel::<()>();
    let mut gui = start_with(settings(Lang::En), |o| {
        o.saver = Some(Box::new(move |record| {
            started_tx.send(record.moves().len()).unwrap();
            go_rx
                .recv_timeout(Duration::from_secs(60))
                .map_err(|_| std::io::Error::other("the test never let the save finish"))
        }));
    });
    let next_save = |entered: usize| {
        let held = started_rx
            .recv_timeout(Duration::from_secs(10))
            .expect("a save starts while moves are unsaved");
        assert_eq!(held, entered, "a save writes the newest record");
        held
    };
    // How many moves were announced, in order.
    let announced_count = |gui: &gui_common::Gui| {
        let said = gui.app().spoken();
        moves
            .iter()
            .take_while(|(_, words)| said.iter().any(|s| s == words))
            .count()
    };
    let (mut entered, mut saved, mut announced) = (Vec::new(), Vec::new(), Vec::new());
    let mut saves = 0;
    // The save under way: when it started and how many moves it holds.
    let mut disk: Option<(u64, usize)> = None;
    let mut now = 0;
    while announced.len() < moves.len() && now < 60_000 {
        if entered.len() < moves.len() && now >= entered.len() as u64 * EVERY_MS {
            gui.type_move_unsaved(moves[entered.len()].0);
            entered.push(now);
            if disk.is_none() {
                disk = Some((now, next_save(entered.len())));
            }
        }
        if let Some((since, held)) = disk
            && now >= since + DISK_MS
        {
            go_tx.send(()).unwrap();
            saves += 1;
            saved.resize(held.max(saved.len()), now);
            disk = None;
            // The window takes the finished save in (frames; no time
            // passes): every move it holds is announced now.
            let end = Instant::now() + Duration::from_secs(5);
            while announced_count(&gui) < held && Instant::now() < end {
                gui.harness.run();
            }
            if entered.len() > held {
                disk = Some((now, next_save(entered.len())));
            }
        }
        let count = announced_count(&gui);
        announced.resize(count.max(announced.len()), now);
        now += STEP_MS;
        gui.advance(STEP_MS);
    }
    println!("slow disk ({DISK_MS} ms a save), moves entered {EVERY_MS} ms apart:");
    for (i, (san, _)) in moves.iter().enumerate() {
        let (e, s, a) = (entered[i], saved.get(i), announced.get(i));
        println!(
            "  move {:2} {san:4}: entered at {e:5} ms, on disk at {:>5}, announced at {:>5}: \
             {:>5} ms after it was entered, {:>4} ms after its save",
            i + 1,
            s.map_or("-".into(), u64::to_string),
            a.map_or("never".into(), u64::to_string),
            a.map_or("-".into(), |a| (a - e).to_string()),
            a.zip(s).map_or("-".into(), |(a, s)| (a - s).to_string()),
        );
    }
    println!("  {saves} saves for {} moves", moves.len());
    assert_eq!(announced.len(), moves.len(), "every move is announced");
    for i in 0..moves.len() {
        assert_eq!(
            announced[i],
            saved[i],
            "move {} is announced when the save holding it is done",
            i + 1
        );
    }
    assert!(saves < moves.len() / 2, "saves coalesce: {saves} saves");
    let slow = "Saving is taking long; the move is announced as soon as it is saved";
    let said_slow = |gui: &gui_common::Gui| gui.spoken().iter().filter(|s| *s == slow).count();
    assert_eq!(said_slow(&gui), 1, "once for the spell: {:?}", gui.spoken());
    assert!(gui.app().saves_settled());

    // The spell lasts until a save is quick again ...
    gui.type_move_unsaved("Bb3");
    next_save(moves.len() + 1);
    gui.advance(SAVE_HOLD_MS - 1);
    go_tx.send(()).unwrap();
    gui.settle_saves();
    assert_eq!(gui.app().spoken().last().unwrap(), "Bishop Bella three");
    assert_eq!(said_slow(&gui), 1);
    // ... and the next slow save is a new spell, said again.
    gui.type_move_unsaved("Na5");
    next_save(moves.len() + 2);
    gui.advance(SAVE_HOLD_MS);
    assert_eq!(said_slow(&gui), 2, "{:?}", gui.spoken());
    go_tx.send(()).unwrap();
    gui.settle_saves();
    assert_eq!(gui.app().spoken().last().unwrap(), "Knight Anna five");
}

#[test]
fn a_new_game_saved_in_the_spare_folder_is_offered_over_an_older_longer_one() {
    // Issue 37, item 2: game A (10 moves) stays in a data folder that
    // cannot be written; the player declined it and played game B (4
    // moves) into the spare folder. The game in progress is B: the one
    // saved last, though A has more moves (A is kept, named).
    let root = tempfile::tempdir().unwrap();
    let (data, spare) = (root.path().join("data"), root.path().join("spare"));
    save_in(&data, "e4 e5 Nf3 Nc6 Bb5 a6 Ba4 Nf6 O-O Be7");
    let older = std::time::SystemTime::now() - Duration::from_secs(60);
    std::fs::File::options()
        .write(true)
        .open(data.join(rochade::savegame::CURRENT_FILE))
        .unwrap()
        .set_modified(older)
        .unwrap();
    save_in(&spare, "d4 d5 c4 e6");
    let mut notes = Vec::new();
    let (resume, _, _) = rochade::app::run::open_save_folder(
        Ok(rochade::savegame::GameStore::new(&data)),
        Some(spare.clone()),
        &mut notes,
    );
    let offered = resume.expect("a game is offered");
    assert_eq!(
        offered.moves()[0].san.san.to_string(),
        "d4",
        "the game in progress: {notes:?}"
    );
    assert_eq!(offered.moves().len(), 4);
    assert!(
        notes
            .iter()
            .any(|n| n.contains("Another unfinished game (10 moves) was kept as")),
        "{notes:?}"
    );
}

#[cfg(unix)]
#[test]
fn the_save_folders_are_the_users_own() {
    // Issue 37, item 9: the names of saved games and exports (dates,
    // players) are nobody else's: the data folder, games/ and exports/
    // are 0700, also when an older version left them 0755.
    use std::os::unix::fs::PermissionsExt;
    let mode = |p: &std::path::Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
    let root = tempfile::tempdir().unwrap();
    let (data, spare) = (root.path().join("data"), root.path().join("spare"));
    let store = rochade::savegame::GameStore::new(&data);
    for dir in [
        data.clone(),
        store.archive_dir(),
        store.exports_dir(),
        spare.clone(),
    ] {
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    let _ = rochade::app::run::open_save_folder(
        Ok(store.clone()),
        Some(spare.clone()),
        &mut Vec::new(),
    );
    for dir in [data, store.archive_dir(), store.exports_dir(), spare] {
        assert_eq!(mode(&dir), 0o700, "{}", dir.display());
    }
    // Folders made new are the user's own from the start.
    let fresh = root.path().join("fresh");
    let store = rochade::savegame::GameStore::new(&fresh);
    let mut game = rochade::chess::GameRecord::new();
    game.play_sans("f3 e5 g4 Qh4#").unwrap();
    store.save_current(&game).unwrap();
    assert_eq!(mode(&fresh), 0o700);
    assert_eq!(mode(&store.archive_dir()), 0o700);
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
