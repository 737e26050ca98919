//! Game menu, "Export a PGN file as a Braille book", through the real app:
//! the file chosen in the window that opens games for review, every game
//! written as one Braille book beside it (BRF and PEF) on a thread of its
//! own, and the result said: the games, the pages, the files. A file that
//! cannot be read is said, and the window keeps its path. One test in this
//! binary: it sets `ROCHADE_DATA_DIR` and `ROCHADE_CONFIG_DIR`.

mod gui_common;

use egui::accesskit::Role;
use egui_kittest::kittest::Queryable;
use gui_common::{Gui, settings, start};
use rochade::words::Lang;

const EVENT: &str = "[Event \"Rochade Open\"]\n[Round \"1\"]\n[White \"Alpha\"]\n[Black \"Beta\"]\n\
[Result \"1-0\"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n\n\
[Event \"Rochade Open\"]\n[Round \"1\"]\n[White \"Gamma\"]\n[Black \"Delta\"]\n\
[Result \"1/2-1/2\"]\n\n1. d4 d5 2. c4 e6 1/2-1/2\n";

const MENU_ITEM: &str = "Export a PGN file as a Braille book...";

/// The Game menu's item, the path typed after what the field holds, and
/// the window's button.
fn write_book(gui: &mut Gui, typed: &str) {
    gui.harness
        .get_by_role_and_label(Role::Button, "Game")
        .click();
    gui.harness.run();
    gui.harness
        .get_by_role_and_label(Role::Button, MENU_ITEM)
        .click();
    gui.harness.run();
    assert!(
        gui.shows("Braille book from a PGN file"),
        "the window opened"
    );
    assert_eq!(
        gui.app().spoken().last().unwrap(),
        "Export a PGN file as a Braille book. Type the path of the PGN file, then Enter"
    );
    let field = gui
        .harness
        .get_by_role_and_label(Role::TextInput, "PGN file");
    assert!(field.is_focused(), "the path field has the keyboard");
    field.type_text(typed);
    gui.harness.run();
    gui.harness
        .get_by_role_and_label(Role::Button, "Write the book")
        .click();
    gui.harness.run();
}

#[test]
fn a_pgn_file_becomes_a_braille_book_beside_it_and_a_missing_one_is_said() {
    let data = tempfile::tempdir().unwrap();
    let config = tempfile::tempdir().unwrap();
    // SAFETY: the only test in this binary; no other thread reads the
    // environment yet. Braille tables and words come from this empty
    // config folder, never the developer's own.
    unsafe {
        std::env::set_var("ROCHADE_DATA_DIR", data.path());
        std::env::set_var("ROCHADE_CONFIG_DIR", config.path());
    }
    let folder = tempfile::tempdir().unwrap();
    let pgn = folder.path().join("event.pgn");
    std::fs::write(&pgn, EVENT).unwrap();
    let mut gui = start(settings(Lang::En));

    write_book(&mut gui, &pgn.display().to_string());
    gui.run_until("the book", |g| {
        g.app()
            .spoken()
            .last()
            .is_some_and(|s| s.starts_with("Braille book written"))
    });
    let pef = std::fs::read_to_string(folder.path().join("event.pef")).unwrap();
    let brf = std::fs::read(folder.path().join("event.brf")).unwrap();
    let pages = pef.matches("<page>").count();
    assert!(pages >= 3, "legend, contents, two games: {pages}");
    assert_eq!(
        gui.app().spoken().last().unwrap(),
        &format!("Braille book written: 2 games, {pages} pages: event.brf, event.pef")
    );
    // The BRF is the same book: each page ends with a form feed.
    assert!(brf.is_ascii());
    assert_eq!(brf.iter().filter(|&&b| b == b'\x0c').count(), pages);
    assert!(
        !gui.shows("Braille book from a PGN file"),
        "the window closed"
    );
    // The game on the board is not touched.
    assert!(gui.app().session().record().moves().is_empty());

    // Again: the field holds the folder of the file; a missing file is
    // said, the window stays with the reason and the path.
    write_book(&mut gui, "missing.pgn");
    gui.run_until("the failure", |g| {
        g.app()
            .spoken()
            .last()
            .is_some_and(|s| s.starts_with("Braille book not written: cannot read "))
    });
    let said = gui.app().spoken().last().unwrap().clone();
    assert!(said.contains("missing.pgn"), "{said}");
    assert!(
        gui.shows("Braille book from a PGN file"),
        "the window stays"
    );
    assert!(
        gui.shows_part("Braille book not written"),
        "the reason is shown"
    );
    assert!(!folder.path().join("missing.brf").exists());
    // Escape closes it (and opens nothing else).
    gui.press(egui::Key::Escape);
    assert!(
        !gui.shows("Braille book from a PGN file"),
        "Escape closed it"
    );
    assert!(gui.app().review_open().is_none());
}
