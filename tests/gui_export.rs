//! Ctrl+E through the real app: the exports are written by a thread of
//! their own (issue 16, item 6) and the result is said when it comes.
//! One test in this binary: it sets `ROCHADE_DATA_DIR` and
//! `ROCHADE_CONFIG_DIR` for the process.

mod gui_common;

use egui::{Key, Modifiers};
use gui_common::{settings, start};
use rochade::words::Lang;

#[test]
fn ctrl_e_exports_off_the_ui_thread_and_says_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let config = tempfile::tempdir().unwrap();
    // SAFETY: the only test in this binary; no other thread reads the
    // environment yet. Braille tables and words are read from this empty
    // config folder, never the developer's own.
    unsafe {
        std::env::set_var("ROCHADE_DATA_DIR", dir.path());
        std::env::set_var("ROCHADE_CONFIG_DIR", config.path());
    }
    let mut gui = start(settings(Lang::En));
    gui.type_move("e4");
    gui.press_with(Modifiers::COMMAND, Key::E);
    let said = gui.last_spoken();
    // Said short (issue 51): the players, the formats, the folder; not
    // three time stamps and a partial path.
    assert!(
        said.starts_with("Saved: the game as PGN, Braille and text, in the folder "),
        "{said}"
    );
    assert!(said.ends_with(", exports"), "{said}");
    assert!(!said.contains('/'), "{said}");
    let names: Vec<String> = std::fs::read_dir(dir.path().join("exports"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names.len(), 3, "{names:?}");
    for ext in ["pgn", "brf", "txt"] {
        let name = names.iter().find(|n| n.ends_with(ext));
        let name = name.unwrap_or_else(|| panic!("no .{ext} in {names:?}"));
        assert!(!said.contains(name.as_str()), "{name} said: {said}");
        // Unknown players' names make no "-game-game" file.
        assert!(!name.contains("game-game"), "{name}");
    }
    let pgn = names.iter().find(|n| n.ends_with("pgn")).unwrap();
    let text = std::fs::read_to_string(dir.path().join("exports").join(pgn)).unwrap();
    assert!(text.contains("1. e4"), "{text}");
}
