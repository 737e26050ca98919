//! Practice mode through the real app: typed moves, the scoresheet, the
//! live region, board browsing by keyboard, and the spoken answers of the
//! command keys (recording speech backend, accessibility check on).

use crate::gui_common;

use egui::accesskit::Role;
use egui::{Key, Modifiers};
use egui_kittest::kittest::{NodeT, Queryable};
use gui_common::{Gui, settings, start, start_with};
use rochade::app::choice_name;
use rochade::words::Lang;

const CTRL: Modifiers = Modifiers::COMMAND;

#[test]
fn typed_moves_are_announced_written_and_saved() {
    let mut gui = start(settings(Lang::De));
    assert_eq!(gui.last_spoken(), "Rochade ready. F1 for help");
    gui.type_move("Nf3");
    assert_eq!(gui.last_spoken(), "Springer Felix drei");
    assert!(gui.shows("1. Nf3"), "scoresheet row");
    // The last announcement is on screen. It is no live region in
    // self-voicing mode (the default), where a screen reader would talk
    // over the app's voice; nor on AT-SPI in any mode: there the focused
    // widget's description carries it, see `app::a11y`.
    let live = gui.harness.get_by_label("Springer Felix drei");
    assert_eq!(live.accesskit_node().data().live(), None);
    gui.type_move("springer felix sechs");
    assert_eq!(gui.last_spoken(), "Springer Felix sechs");
    assert!(gui.shows("1. Nf3 Nf6"));
    gui.type_move("g2g3");
    assert!(gui.shows("2. g3"));
    assert_eq!(gui.app().saves(), 3, "saved after every move");
    // The move input is cleared after a legal move, kept after a bad one.
    gui.type_move("Ke7");
    assert_eq!(gui.last_spoken(), "Illegal move: Ke7");
    assert_eq!(gui.app().session().record().moves().len(), 3);
    let input = gui.harness.get_by_role_and_label(Role::TextInput, "Move");
    assert_eq!(input.value().as_deref(), Some("Ke7"));
}

#[test]
fn command_keys_speak_their_answers() {
    let mut gui = start(settings(Lang::En));
    gui.type_move("e4");
    gui.type_move("e5");
    gui.press(Key::F2);
    assert_eq!(gui.last_spoken(), "Eva five");
    gui.press(Key::F3);
    assert_eq!(gui.last_spoken(), "Last move: Eva five");
    gui.press(Key::F5);
    assert_eq!(
        gui.last_spoken(),
        "White: 1 move played. Black: 1 move played"
    );
    gui.press(Key::F6);
    assert_eq!(gui.last_spoken(), "White to move");
    gui.press(Key::F4);
    assert!(
        gui.last_spoken().starts_with("White: "),
        "{}",
        gui.last_spoken()
    );
    gui.press(Key::F9);
    assert_eq!(gui.last_spoken(), "Mode: tournament");
    assert_eq!(
        gui.app().session().config().mode,
        rochade::session::Mode::Tournament
    );
    gui.press(Key::F1);
    assert_eq!(gui.last_spoken(), "Help. Escape closes it");
    assert!(gui.shows("F2: repeat the last announcement"));
    gui.press(Key::Escape);
    assert!(
        !gui.shows("F2: repeat the last announcement"),
        "Escape closes the help"
    );
}

#[test]
fn takeback_asks_first_and_enter_confirms() {
    let mut gui = start(settings(Lang::En));
    gui.type_move("e4");
    gui.type_move("e5");
    gui.press_with(CTRL, Key::T);
    assert_eq!(gui.last_spoken(), "Take back Eva five? Yes or no");
    assert!(gui.shows("Please confirm"), "a dialog asks");
    assert_eq!(gui.app().session().record().moves().len(), 2);
    // Escape cancels; nothing is taken back.
    gui.press(Key::Escape);
    assert_eq!(gui.last_spoken(), "Cancelled");
    assert_eq!(gui.app().session().record().moves().len(), 2);
    gui.press_with(CTRL, Key::T);
    gui.press(Key::Enter);
    assert_eq!(gui.last_spoken(), "Taken back: Eva five");
    assert_eq!(gui.app().session().record().moves().len(), 1);
    assert!(gui.shows("1. e4"));
    // The confirm button works with the mouse as well.
    gui.press_with(CTRL, Key::T);
    gui.harness
        .get_by_role_and_label(Role::Button, "Yes")
        .click();
    gui.harness.run();
    assert_eq!(gui.last_spoken(), "Taken back: Eva four");
    assert!(gui.shows("No moves yet"));
}

#[test]
fn draw_offer_is_marked_and_accepting_ends_the_game() {
    let mut gui = start(settings(Lang::En));
    gui.type_move("e4");
    gui.press_with(CTRL, Key::D);
    assert_eq!(gui.last_spoken(), "White offers a draw");
    assert!(
        gui.shows("1. e4 (=)"),
        "draw offer marked on the scoresheet"
    );
    gui.press_with(
        Modifiers {
            shift: true,
            ..CTRL
        },
        Key::D,
    );
    assert!(
        gui.last_spoken().starts_with("Game over: Draw"),
        "{}",
        gui.last_spoken()
    );
    assert!(gui.shows("1/2-1/2"));
}

#[test]
fn resign_and_new_game_ask_for_confirmation() {
    let mut gui = start(settings(Lang::En));
    gui.type_move("f3");
    gui.press_with(
        Modifiers {
            shift: true,
            ..CTRL
        },
        Key::R,
    );
    assert_eq!(gui.last_spoken(), "Black resigns? Yes or no");
    gui.press(Key::Escape);
    assert!(!gui.app().session().record().is_over());
    gui.press_with(CTRL, Key::N);
    assert_eq!(gui.last_spoken(), "Start a new game? Yes or no");
    gui.press(Key::Y);
    assert_eq!(gui.last_spoken(), "New game");
    assert!(gui.app().session().record().moves().is_empty());
    gui.type_move("d4");
    gui.press_with(
        Modifiers {
            shift: true,
            ..CTRL
        },
        Key::R,
    );
    gui.press(Key::Enter);
    assert!(
        gui.last_spoken().starts_with("Game over: White wins"),
        "{}",
        gui.last_spoken()
    );
    assert!(gui.shows("1-0"));
}

#[test]
fn the_board_is_walked_and_read_by_keyboard() {
    let mut gui = start(settings(Lang::En));
    gui.press(Key::F7);
    assert_eq!(gui.last_spoken(), "Eva two: white Pawn");
    let board = gui
        .harness
        .get_by_role_and_label(rochade::app::BOARD_ROLE, "Board");
    assert_eq!(board.value().as_deref(), Some("Eva two: white Pawn"));
    // The keyboard is on the cursor's cell, one of 64 named cells.
    let cell = gui
        .harness
        .get_by_role_and_label(rochade::app::CELL_ROLE, "Eva two: white Pawn");
    assert!(cell.is_focused(), "the focus is on the square's cell");
    let cells = gui
        .harness
        .query_all_by_role(rochade::app::CELL_ROLE)
        .count();
    assert!(cells >= 64, "a cell per square, found {cells}");
    // Enter picks up the piece and Enter again puts it back: both said.
    gui.press(Key::Enter);
    assert_eq!(gui.last_spoken(), "Pawn Eva two picked up");
    gui.press(Key::Enter);
    assert_eq!(gui.last_spoken(), "Pawn Eva two put back");
    gui.press(Key::ArrowUp);
    gui.press(Key::ArrowUp);
    assert_eq!(gui.last_spoken(), "Eva four: empty");
    // At the edge the cursor stays and says so.
    for _ in 0..4 {
        gui.press(Key::ArrowUp);
    }
    assert_eq!(gui.last_spoken(), "Eva eight: black King");
    gui.press(Key::ArrowUp);
    assert_eq!(gui.last_spoken(), "Edge: Eva eight: black King");
    for _ in 0..4 {
        gui.press(Key::ArrowDown);
    }
    let board = gui
        .harness
        .get_by_role_and_label(rochade::app::BOARD_ROLE, "Board");
    assert_eq!(
        board.value().as_deref(),
        Some("Eva four: empty"),
        "AccessKit sees the focused square"
    );
    assert!(
        gui.harness
            .get_by_role_and_label(rochade::app::CELL_ROLE, "Eva four: empty")
            .is_focused(),
        "the focus moved with the cursor"
    );
    gui.press(Key::N);
    assert_eq!(gui.last_spoken(), "Bella eight: black Knight");
    gui.press(Key::N);
    assert_eq!(gui.last_spoken(), "Gustav eight: black Knight");
    gui.press(Key::Num1);
    assert!(
        gui.last_spoken()
            .starts_with("Rank one: Anna one white Rook, Bella one white Knight")
    );
    gui.press_with(Modifiers::SHIFT, Key::E);
    assert_eq!(
        gui.last_spoken(),
        "File Eva: Eva one white King, Eva two white Pawn, Eva seven black Pawn, Eva eight black King"
    );
    gui.press(Key::S);
    assert!(
        gui.last_spoken()
            .starts_with("Black: King Eva eight, Queen David eight")
    );
    // Attackers and defenders of f3 (empty): White to move asks.
    gui.press(Key::K);
    assert_eq!(gui.last_spoken(), "Eva one: white King");
    gui.press(Key::ArrowUp);
    gui.press(Key::ArrowUp);
    gui.press(Key::ArrowRight);
    assert_eq!(gui.last_spoken(), "Felix three: empty");
    gui.press(Key::D);
    assert_eq!(
        gui.last_spoken(),
        "Felix three defended by: Gustav one white Knight, Eva two white Pawn, Gustav two white Pawn"
    );
    gui.press(Key::A);
    assert_eq!(gui.last_spoken(), "Felix three: no attackers");
    // Enter picks the knight up and plays it: the move goes to the session.
    gui.press(Key::ArrowRight);
    gui.press(Key::ArrowDown);
    gui.press(Key::ArrowDown);
    assert_eq!(gui.last_spoken(), "Gustav one: white Knight");
    gui.press(Key::Enter);
    gui.press(Key::ArrowUp);
    gui.press(Key::ArrowUp);
    gui.press(Key::ArrowLeft);
    gui.press(Key::Enter);
    assert_eq!(gui.last_spoken(), "Knight Felix three");
    assert!(gui.shows("1. Nf3"));
    // Typing letters into the move input does not jump around the board.
    gui.press(Key::F7);
    assert_eq!(gui.last_spoken(), "Move input");
    gui.type_move("d5");
    assert!(gui.shows("1. Nf3 d5"));
}

/// Escape with a lifted piece puts it back and the board keeps the
/// keyboard; no later Enter can finish the move the user cancelled (it
/// did: Escape left the piece in the hand, and Down, Down, Left, Enter
/// played Nb8-a6).
#[test]
fn escape_puts_a_lifted_piece_back_and_no_later_key_plays_it() {
    let mut gui = start(settings(Lang::De));
    gui.type_move("e4");
    gui.press(Key::F7);
    gui.press(Key::N);
    assert_eq!(gui.last_spoken(), "Bella acht: schwarzer Springer");
    gui.press(Key::Enter);
    assert_eq!(gui.last_spoken(), "Springer Bella acht picked up");
    gui.press(Key::Escape);
    assert_eq!(gui.last_spoken(), "Springer Bella acht put back");
    assert!(
        gui.harness
            .get_by_role_and_label(rochade::app::CELL_ROLE, "Bella acht: schwarzer Springer")
            .is_focused(),
        "the board keeps the keyboard"
    );
    for key in [Key::ArrowDown, Key::ArrowDown, Key::ArrowLeft, Key::Enter] {
        gui.press(key);
    }
    assert_eq!(
        gui.app().session().record().moves().len(),
        1,
        "no move played"
    );
    assert_eq!(gui.last_spoken(), "Anna sechs: leer");
    // Leaving the board with a piece in the hand puts it back too.
    gui.press(Key::N);
    gui.press(Key::Enter);
    assert_eq!(gui.last_spoken(), "Springer Bella acht picked up");
    gui.press(Key::F7);
    assert!(
        gui.spoken()
            .iter()
            .any(|s| s == "Springer Bella acht put back"),
        "{:?}",
        gui.spoken()
    );
    gui.press(Key::F7);
    gui.press(Key::ArrowDown);
    gui.press(Key::ArrowDown);
    gui.press(Key::Enter);
    assert_eq!(
        gui.app().session().record().moves().len(),
        1,
        "no move played"
    );
}

#[test]
fn the_window_sleeps_without_a_running_clock() {
    let mut gui = start(settings(Lang::En));
    gui.type_move("e4");
    assert_eq!(
        gui.app().repaint_delay(),
        None,
        "untimed: no timer repaint at all"
    );
    let mut timed = settings(Lang::En);
    timed.game.time_control = "300".into();
    let mut gui = start(timed);
    gui.type_move("e4");
    gui.advance(250);
    let delay = gui.app().repaint_delay().expect("a running clock repaints");
    assert_eq!(
        delay.as_millis(),
        751,
        "repaints when the displayed second changes"
    );
}

#[test]
fn settings_dialog_changes_apply_at_once() {
    let mut gui = start(settings(Lang::De));
    gui.press(Key::F8);
    assert!(
        gui.shows("Long announcements"),
        "the settings window opened"
    );
    gui.harness
        .get_by_role_and_label(Role::CheckBox, "Long announcements")
        .click();
    gui.harness.run();
    let white = gui
        .harness
        .get_by_role_and_label(Role::TextInput, "White player");
    white.focus();
    gui.harness.run();
    gui.harness
        .get_by_role_and_label(Role::TextInput, "White player")
        .type_text("Ana Souza");
    gui.harness.run();
    gui.harness
        .get_by_role_and_label(Role::Button, "Save")
        .click();
    gui.harness.run();
    assert!(!gui.shows("Long announcements"), "the dialog closed");
    // Save says what it changed, in the interface language.
    assert_eq!(gui.last_spoken(), "Settings saved: speech, game");
    assert_eq!(
        gui.app().settings().speech.form,
        rochade::announce::AnnounceForm::Long
    );
    assert_eq!(gui.app().session().record().tags.white, "Ana Souza");
    assert!(gui.shows("Ana Souza - ?"));
    gui.type_move("Nf3");
    assert_eq!(gui.last_spoken(), "Springer Gustav eins Felix drei");
    // A bad time control is refused with a message; nothing is applied.
    gui.press(Key::F8);
    let tc = gui
        .harness
        .get_by_role_and_label(Role::TextInput, "Time control (PGN, e.g. 5400+30)");
    tc.focus();
    gui.harness.run();
    gui.harness
        .get_by_role_and_label(Role::TextInput, "Time control (PGN, e.g. 5400+30)")
        .type_text("banana");
    gui.harness.run();
    gui.harness
        .get_by_role_and_label(Role::Button, "Save")
        .click_accesskit();
    gui.harness.run();
    assert!(
        gui.shows_part("Time control (PGN, e.g. 5400+30): "),
        "error shown"
    );
    assert_eq!(gui.app().settings().game.time_control, "-");
}

#[test]
fn settings_dialog_sets_sounds_voice_and_board_timing() {
    let mut gui = start(settings(Lang::De));
    gui.press(Key::F8);
    // Earcons can be switched off one by one (further down the scrolling
    // fields).
    gui.harness
        .get_by_role_and_label(Role::CheckBox, "Touched")
        .scroll_to_me();
    gui.harness.run();
    gui.harness
        .get_by_role_and_label(Role::CheckBox, "Touched")
        .click();
    gui.harness.run();
    let voice = gui
        .harness
        .get_by_role_and_label(Role::TextInput, "Voice (empty: automatic)");
    voice.focus();
    gui.harness.run();
    gui.harness
        .get_by_role_and_label(Role::TextInput, "Voice (empty: automatic)")
        .type_text("german");
    gui.harness.run();
    // The clip-voice recorder offers the announcement language's words.
    assert!(gui.shows("Record your own word for the clip voice"));
    assert!(
        gui.harness
            .query_by_role_and_label(Role::Button, "Record")
            .is_some()
    );
    gui.harness
        .get_by_role_and_label(Role::Button, "Save")
        .click();
    gui.harness.run();
    let s = gui.app().settings();
    assert!(!s.earcons.enabled(rochade::session::Earcon::Touched));
    assert!(s.earcons.enabled(rochade::session::Earcon::MoveAccepted));
    assert_eq!(s.speech.voice.as_deref(), Some("german"));
}

#[test]
fn the_users_speech_pack_comes_from_the_folder_the_shell_names() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("en.toml"), "[files]\ne = \"Echo\"\n").unwrap();
    let path = dir.path().to_path_buf();
    let mut gui = start_with(settings(Lang::En), |o| o.pack_dir = Some(path));
    gui.type_move("e4");
    assert_eq!(gui.last_spoken(), "Echo four");
    // Without a folder (every other test) only the bundled words are used.
    let mut plain = start(settings(Lang::En));
    plain.type_move("e4");
    assert_eq!(plain.last_spoken(), "Eva four");
}

#[test]
fn settings_dialog_sets_the_braille_export_by_keyboard() {
    let mut gui = start(settings(Lang::En));
    gui.press(Key::F8);
    assert!(
        gui.shows("Braille scoresheet"),
        "the Braille options are shown"
    );
    let legend = "Braille: a legend page of the signs";
    let diagram = "Braille: a diagram of a set-up position";
    let minimal = "Braille: minimal coding (no capture or check signs)";
    let contracted = "Braille: contracted header";
    // Tab walks from one labelled checkbox to the next ...
    gui.harness
        .get_by_role_and_label(Role::CheckBox, legend)
        .focus();
    gui.harness.run();
    for label in [diagram, minimal, contracted] {
        gui.press(Key::Tab);
        assert!(
            gui.harness
                .get_by_role_and_label(Role::CheckBox, label)
                .is_focused(),
            "Tab reaches '{label}'"
        );
    }
    // ... and Space switches the focused one.
    for label in [legend, diagram, minimal, contracted] {
        gui.harness
            .get_by_role_and_label(Role::CheckBox, label)
            .focus();
        gui.harness.run();
        gui.press(Key::Space);
    }
    gui.harness
        .get_by_role_and_label(Role::Button, "Save")
        .click();
    gui.harness.run();
    assert_eq!(
        gui.app().settings().braille,
        rochade::config::BrailleSettings {
            legend: false,
            diagram: true,
            minimal: true,
            contracted: true,
        }
    );
    assert!(
        gui.last_spoken().contains("Braille"),
        "Save says what changed: {}",
        gui.last_spoken()
    );
    // The export takes them: the options the app hands the exporter.
    let options = gui
        .app()
        .settings()
        .braille
        .export_options(rochade::chess::Letters::De, Lang::De);
    assert!(!options.legend && options.diagram);
    assert_eq!(options.coding, rochade::braille::Coding::Minimal);
    assert_eq!(options.grade, rochade::export::Grade::Contracted);
}

/// Focusable controls without a name (role, parent role, place), in the window as
/// it is now: a screen reader would say only "button" or "frame" there.
fn unnamed_focusable(gui: &Gui) -> Vec<String> {
    gui.harness
        .root()
        .children_recursive()
        .filter(|n| {
            let node = n.accesskit_node();
            node.data().supports_action(egui::accesskit::Action::Focus)
                && node.label().is_none_or(|l| l.trim().is_empty())
                // A text's words are its value (what Orca reads for a label).
                && !(node.role() == Role::Label
                    && node.value().is_some_and(|v| !v.trim().is_empty()))
        })
        .map(|n| {
            let node = n.accesskit_node();
            let parent = node.parent().map(|p| p.role());
            format!(
                "{:?} in {parent:?} at {:?}",
                node.role(),
                node.data().bounds()
            )
        })
        .collect()
}

#[test]
fn the_title_says_the_game_state_and_no_focusable_control_is_unnamed() {
    let mut gui = start(settings(Lang::En));
    assert_eq!(gui.app().window_title(), "Rochade – White to move");
    gui.type_move("e4");
    gui.type_move("Nf6");
    gui.harness.run();
    assert_eq!(
        gui.app().window_title(),
        "Rochade – 1... Nf6 – White to move"
    );
    gui.type_move("Nf3");
    gui.harness.run();
    assert_eq!(gui.app().window_title(), "Rochade – 2. Nf3 – Black to move");
    assert_eq!(unnamed_focusable(&gui), Vec::<String>::new(), "main window");
    // The modes are a radio group named "Mode".
    let group = gui.harness.get_by_role(Role::RadioGroup);
    assert_eq!(group.get_all_by_role(Role::RadioButton).count(), 3);
    gui.press(Key::F8);
    assert_eq!(unnamed_focusable(&gui), Vec::<String>::new(), "settings");
    gui.press(Key::Escape);
    gui.press(Key::F1);
    assert_eq!(unnamed_focusable(&gui), Vec::<String>::new(), "help");
    gui.press(Key::Escape);
    gui.press_with(Modifiers::COMMAND, Key::N);
    assert_eq!(
        unnamed_focusable(&gui),
        Vec::<String>::new(),
        "new game question"
    );
}

#[test]
fn who_speaks_is_chosen_in_settings_and_applies_at_once() {
    let mut gui = start(settings(Lang::En));
    gui.press(Key::F8);
    let name = choice_name("Who speaks", "Rochade's own voice");
    let combo = gui.harness.get_by_role_and_label(Role::ComboBox, &name);
    // A combo box says its value (a screen reader reads "Who speaks,
    // combo box, Rochade's own voice"; on AT-SPI the value is in the name).
    assert_eq!(combo.value().as_deref(), Some("Rochade's own voice"));
    gui.harness
        .get_by_role_and_label(Role::ComboBox, &name)
        .click();
    gui.harness.run();
    gui.harness.get_by_label("My screen reader").click();
    gui.harness.run();
    gui.harness
        .get_by_role_and_label(Role::Button, "Save")
        .click();
    gui.harness.run();
    assert_eq!(
        gui.app().settings().speech.mode,
        rochade::speech::SpeechMode::ScreenReader
    );
    // At once: the app's own voice is silent for the next move.
    let voice_before = gui.spoken();
    gui.type_move("e4");
    assert!(gui.shows("1. e4"));
    assert_eq!(gui.spoken(), voice_before);
}

/// Settings by keyboard alone: the keyboard moves into the dialog, each
/// choice says its value and Up/Down change it, Shift+Tab reaches Save,
/// Enter saves, and the keyboard goes back where it was. Seven keys.
#[test]
fn settings_are_changed_and_saved_by_keyboard_alone() {
    let mut gui = start(settings(Lang::En));
    gui.press(Key::F8);
    let focused_combo = |gui: &Gui, label: &str, value: &str| {
        gui.harness
            .get_by_role_and_label(Role::ComboBox, &choice_name(label, value))
            .is_focused()
    };
    assert!(
        focused_combo(&gui, "Interface language", "English"),
        "the first field has the keyboard"
    );
    gui.press(Key::Tab);
    assert!(focused_combo(&gui, "Announcement language", "English"));
    gui.press(Key::ArrowDown);
    assert!(
        focused_combo(&gui, "Announcement language", "Deutsch"),
        "Down changes the value and the name says it"
    );
    gui.press(Key::ArrowUp);
    assert!(focused_combo(&gui, "Announcement language", "English"));
    gui.press(Key::ArrowDown);
    for _ in 0..3 {
        gui.press_with(Modifiers::SHIFT, Key::Tab);
    }
    assert!(
        gui.harness
            .get_by_role_and_label(Role::Button, "Save")
            .is_focused(),
        "Shift+Tab reaches Save"
    );
    gui.press(Key::Enter);
    assert_eq!(gui.app().settings().speech.language, Lang::De);
    assert!(!gui.shows("Cancel"), "the dialog closed");
    assert!(
        gui.harness.get_by_role(Role::TextInput).is_focused(),
        "the keyboard is back in the move input"
    );
    gui.type_move("e4");
    assert_eq!(gui.last_spoken(), "Eva vier");
}

/// Escape in an open list closes the list, a second Escape the dialog;
/// Tab never leaves the dialog for the window behind it.
#[test]
fn escape_closes_a_list_first_and_tab_stays_in_settings() {
    let mut gui = start(settings(Lang::En));
    gui.press(Key::F8);
    gui.press(Key::Space);
    assert!(gui.shows("Português (Brasil)"), "the list opened");
    gui.press(Key::Escape);
    assert!(!gui.shows("Português (Brasil)"), "the list closed");
    assert!(gui.shows("Cancel"), "the dialog is still open");
    for _ in 0..80 {
        gui.press(Key::Tab);
        assert!(
            !gui.harness
                .get_by_role_and_label(Role::TextInput, "Move")
                .is_focused(),
            "Tab stayed in the dialog"
        );
    }
    assert!(gui.shows("Cancel"));
    gui.press(Key::Escape);
    assert!(!gui.shows("Cancel"), "the second Escape closed the dialog");
}

/// F10 reaches the menus in one key; a menu opened by Space puts the
/// keyboard on its first item; Tab from the board, the last stop, goes
/// round to the menus, and Shift+Tab from the first menu back to the board.
#[test]
fn menus_are_one_key_away_and_tab_goes_round() {
    let mut gui = start(settings(Lang::En));
    let focused = |gui: &Gui, role: Role, label: &str| {
        gui.harness.get_by_role_and_label(role, label).is_focused()
    };
    gui.press(Key::F10);
    assert!(focused(&gui, Role::Button, "Game"), "F10: the Game menu");
    assert_eq!(gui.last_spoken(), "Game");
    gui.press(Key::Space);
    assert!(
        focused(&gui, Role::Button, "New game"),
        "the open menu's first item has the keyboard"
    );
    gui.press(Key::Escape);
    assert!(!gui.shows("New game"), "Escape closed the menu");
    // The board is the last stop of Tab; the next Tab goes round.
    gui.press(Key::F7);
    assert!(focused(
        &gui,
        rochade::app::CELL_ROLE,
        "Eva two: white Pawn"
    ));
    gui.press(Key::Tab);
    assert!(focused(&gui, Role::Button, "Game"), "Tab from the board");
    gui.press_with(Modifiers::SHIFT, Key::Tab);
    assert!(
        focused(&gui, rochade::app::CELL_ROLE, "Eva two: white Pawn"),
        "Shift+Tab from the menus"
    );
}

/// A question asked while the scoresheet has the keyboard gives it back to
/// the scoresheet (it went to the move input).
#[test]
fn a_question_from_the_scoresheet_gives_the_keyboard_back_there() {
    let mut gui = start(settings(Lang::En));
    gui.type_move("e4");
    gui.type_move("e5");
    gui.press(Key::Tab);
    gui.press(Key::Tab);
    let row = |gui: &Gui| {
        gui.harness
            .get_by_role_and_label(Role::ListItem, "1. e4 e5")
            .is_focused()
    };
    assert!(
        row(&gui),
        "Tab from the move input past Play: the scoresheet"
    );
    gui.press_with(CTRL, Key::T);
    assert!(gui.app().question().is_some());
    gui.press(Key::Escape);
    gui.harness.run();
    assert!(gui.app().question().is_none());
    assert!(row(&gui), "the keyboard is back on the scoresheet");
}
