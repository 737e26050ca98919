//! The first hour in the window (issue 51, the window's part): nothing
//! stale is left behind. A refused move does not stay in front of the
//! next one; the simulated peg-board switched off guides nothing and a new
//! game sets it up again.

use crate::gui_common;

use egui::accesskit::Role;
use egui::{Key, Modifiers};
use egui_kittest::kittest::Queryable;
use gui_common::{Gui, settings, start, start_with};
use rochade::session::Mode;
use rochade::words::Lang;
use shakmaty::Square;

fn sans(gui: &Gui) -> Vec<String> {
    let record = gui.app().session().record();
    let mut position = shakmaty::Chess::default();
    record
        .moves()
        .iter()
        .map(|m| {
            let san = shakmaty::san::San::from_move(&position, m.mv).to_string();
            shakmaty::Position::play_unchecked(&mut position, m.mv);
            san
        })
        .collect()
}

fn move_input_text(gui: &Gui) -> String {
    let input = gui.harness.get_by_role_and_label(Role::TextInput, "Move");
    input.value().unwrap_or_default()
}

#[test]
fn a_move_typed_after_a_refused_one_replaces_it_and_is_played() {
    let mut gui = start(settings(Lang::En));
    gui.type_move_unsaved("d6x");
    assert_eq!(gui.last_spoken(), "Move not understood: d6x");
    assert!(gui.shows_part("Move not understood: d6x"), "written too");
    assert_eq!(move_input_text(&gui), "d6x", "kept, to be corrected");
    // The next move typed, as a keyboard types it (the keyboard is still
    // in the move input), and Enter.
    gui.type_text("e4");
    gui.press(Key::Enter);
    assert_eq!(sans(&gui), ["e4"], "said: {:?}", gui.spoken());
    assert_eq!(move_input_text(&gui), "");
    assert!(
        !gui.spoken().iter().any(|s| s.contains("d6xe4")),
        "nothing appended: {:?}",
        gui.spoken()
    );
}

#[test]
fn a_refused_move_can_still_be_corrected_with_the_arrow_keys() {
    let mut gui = start(settings(Lang::En));
    gui.type_move_unsaved("e9");
    assert_eq!(move_input_text(&gui), "e9");
    // End leaves the selection at the end of the text: the typo is
    // corrected, not retyped.
    gui.press(Key::End);
    gui.press(Key::Backspace);
    gui.type_text("4");
    gui.press(Key::Enter);
    assert_eq!(sans(&gui), ["e4"], "said: {:?}", gui.spoken());
}

#[test]
fn the_simulated_board_switched_off_guides_nothing() {
    let mut s = settings(Lang::En);
    s.game.mode = Mode::Practice;
    let mut gui = start_with(s, |o| o.simulated_board = true);
    // The knight lifted from g1 and the board switched off.
    gui.app_mut().sim_press(Square::G1);
    gui.advance(300);
    assert_ne!(gui.app().board_differs(), 0, "the board shows the lift");
    gui.press_with(Modifiers::COMMAND, Key::B);
    assert_eq!(gui.last_spoken(), "Simulated board off");
    assert_eq!(gui.app().board_differs(), 0, "no square marked any more");
    gui.type_move("e4");
    gui.advance(10_000);
    let spoken = gui.spoken();
    assert!(
        !spoken
            .iter()
            .any(|s| s.contains("missing") || s.contains(" to ")),
        "no guidance for a board that is off: {spoken:?}"
    );
    assert_eq!(gui.app().board_differs(), 0);
}

#[test]
fn a_new_game_sets_the_simulated_board_up_again() {
    let mut s = settings(Lang::En);
    s.game.mode = Mode::Practice;
    let mut gui = start_with(s, |o| o.simulated_board = true);
    for sq in [Square::E2, Square::E4, Square::E7, Square::E5] {
        gui.app_mut().sim_press(sq);
        gui.advance(300);
    }
    gui.advance(1000);
    assert_eq!(sans(&gui), ["e4", "e5"]);
    gui.press_with(Modifiers::COMMAND, Key::N);
    gui.press(Key::Y);
    assert!(gui.app().session().record().moves().is_empty());
    let before = gui.spoken().len();
    gui.advance(10_000);
    assert_eq!(gui.app().board_differs(), 0, "no square marked");
    let after = gui.spoken();
    assert!(
        !after[before..].iter().any(|s| s.contains("missing")),
        "no guidance: {:?}",
        &after[before..]
    );
    // And the pegs play the new game.
    for sq in [Square::D2, Square::D4] {
        gui.app_mut().sim_press(sq);
        gui.advance(300);
    }
    gui.advance(1000);
    assert_eq!(sans(&gui), ["d4"]);
}

#[test]
fn a_new_game_after_an_online_one_carries_none_of_its_tags() {
    let mut s = settings(Lang::En);
    s.game.white = "Ana".into();
    let mut gui = start(s);
    // The tags an online game gives its record (what the session's
    // online play sets).
    let mut online = gui.app().session().record().tags.clone();
    online.event = "Rated blitz game".into();
    online.site = "https://lichess.org/abcd1234".into();
    online.white = "BlindPlayer".into();
    online.black = "Sighted".into();
    online.time_control = Some("300+3".into());
    online.extra.push(("WhiteElo".into(), "1580".into()));
    gui.app_mut()
        .dispatch(rochade::session::Event::TagsChanged(online));
    gui.type_move("e4");
    gui.press_with(Modifiers::COMMAND, Key::N);
    gui.press(Key::Y);
    let tags = &gui.app().session().record().tags;
    assert_eq!(tags.white, "Ana", "the settings' name");
    assert_ne!(tags.black, "Sighted");
    assert_ne!(tags.event, "Rated blitz game");
    assert!(!tags.site.contains("lichess"), "{tags:?}");
    assert_eq!(tags.time_control, None, "untimed, as set");
    assert!(tags.extra.is_empty(), "{tags:?}");
}

#[test]
fn a_question_says_how_to_answer_and_its_dialog_asks_once() {
    let mut gui = start(settings(Lang::En));
    gui.type_move("e4");
    gui.press_with(Modifiers::COMMAND, Key::N);
    assert_eq!(gui.last_spoken(), "Start a new game? Yes or no");
    assert!(gui.shows("Start a new game? Yes or no"), "the dialog asks");
    // "Please confirm" is the dialog's title, not said again under it.
    assert!(
        gui.harness
            .query_all_by_label_contains("? Please confirm")
            .next()
            .is_none()
    );
}

/// Focuses the text field `label` (found by its role) and types `text`
/// into it as a keyboard does.
fn type_into(gui: &mut Gui, role: Role, label: &str, text: &str) {
    gui.harness.get_by_role_and_label(role, label).focus();
    gui.harness.run();
    gui.type_text(text);
}

#[test]
fn enter_in_a_settings_field_saves() {
    let mut gui = start(settings(Lang::En));
    gui.press(Key::F8);
    assert!(gui.shows("Save"), "the dialog is open");
    type_into(&mut gui, Role::TextInput, "Event", "Club night");
    gui.press(Key::Enter);
    assert!(!gui.shows("Save"), "saved and closed");
    assert_eq!(gui.app().settings().game.event, "Club night");
    assert_eq!(gui.app().session().record().tags.event, "Club night");
}

#[test]
fn enter_in_a_field_of_play_online_connects_and_keeps_the_keyboard_there() {
    let mut gui = start(settings(Lang::En));
    gui.press_with(Modifiers::COMMAND | Modifiers::SHIFT, Key::O);
    // A server address that is none: connecting is refused, said, and
    // the keyboard stays in the field to correct it (it left the dialog's
    // fields: the focus ring vanished, Tab went back to the first control).
    let server = "Server address";
    gui.harness
        .get_by_role_and_label(Role::TextInput, server)
        .focus();
    gui.harness.run();
    gui.press_with(Modifiers::COMMAND, Key::A);
    gui.type_text("nowhere");
    gui.press(Key::Enter);
    assert!(gui.shows_part("Server address: nowhere"), "refused");
    assert!(!gui.app().online_active());
    assert!(
        gui.harness
            .get_by_role_and_label(Role::TextInput, server)
            .is_focused(),
        "the keyboard stays in the field"
    );
}
