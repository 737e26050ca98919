//! Practice against the real Stockfish through the app: the computer
//! opponent switched on by its key, a typed move answered by the engine's
//! move (spoken and on the scoresheet), hint and evaluation keys, and the
//! settings rows found by their labels. Fails loudly without Stockfish.

use crate::gui_common;

use std::time::Duration;

use egui::accesskit::Role;
use egui::{Key, Modifiers};
use egui_kittest::kittest::Queryable;
use gui_common::{Gui, settings, start};
use rochade::words::Lang;

const CTRL: Modifiers = Modifiers::COMMAND;
const CTRL_SHIFT: Modifiers = Modifiers {
    shift: true,
    ..Modifiers::COMMAND
};

fn stockfish_installed() {
    let path = rochade::engine::DEFAULT_ENGINE_PATH;
    assert!(
        std::path::Path::new(path).exists(),
        "{path} is missing: install Debian's stockfish (scripts/deps.sh)"
    );
}

/// Waits (on the engine thread, not on a clock) until the engine is idle,
/// moving the virtual clock past the pause before its move.
fn settle(gui: &mut Gui) {
    for _ in 0..50 {
        if !gui.app().session().engine_busy() {
            return;
        }
        if let Some(due) = gui.app().session().engine_move_due() {
            let now = gui.app().now_ms();
            gui.advance(due.saturating_sub(now));
            continue;
        }
        assert!(
            gui.harness.state_mut().wait_engine(Duration::from_secs(60)),
            "the engine did not answer"
        );
        gui.harness.run();
    }
    panic!("the engine stayed busy");
}

#[test]
fn a_move_against_the_computer_is_answered_and_spoken() {
    stockfish_installed();
    let mut s = settings(Lang::En);
    s.engine.level = rochade::engine::Level::new(2).unwrap();
    s.engine.pause_ms = 500;
    let mut gui = start(s);
    gui.press_with(CTRL_SHIFT, Key::P);
    assert_eq!(
        gui.last_spoken(),
        "Practice against the computer, level 2. You play White"
    );
    gui.type_move("e4");
    assert_eq!(gui.last_spoken(), "Eva four");
    settle(&mut gui);
    let record = gui.app().session().record();
    assert_eq!(record.moves().len(), 2, "{:?}", gui.spoken());
    let reply = record.moves()[1].san.to_string();
    // The reply is spoken and on the scoresheet (a list row).
    assert!(
        gui.shows(&format!("1. e4 {reply}")),
        "scoresheet row for {reply}"
    );
    let said = gui.spoken();
    assert_ne!(
        said.last().map(String::as_str),
        Some("Eva four"),
        "{said:?}"
    );
    // Hint and evaluation keys, answered by the engine.
    gui.press_with(CTRL, Key::H);
    settle(&mut gui);
    assert!(
        gui.last_spoken().starts_with("Hint: "),
        "{:?}",
        gui.spoken()
    );
    gui.press_with(CTRL_SHIFT, Key::E);
    settle(&mut gui);
    let eval = gui.last_spoken();
    // Any of the evaluation's phrases (the level-2 reply may drop a pawn).
    assert!(
        ["equal", "better", "winning", "wins", "mates"]
            .iter()
            .any(|w| eval.contains(w)),
        "{eval}"
    );
    // Takeback of the pair: both moves go, the player is to move again.
    gui.press_with(CTRL, Key::T);
    assert!(gui.last_spoken().starts_with("Take back Eva four and "));
    gui.press(Key::Enter);
    assert!(gui.last_spoken().starts_with("Taken back: Eva four and "));
    settle(&mut gui);
    assert_eq!(gui.app().session().record().moves().len(), 0);
}

#[test]
fn the_settings_have_the_computer_opponent_by_label() {
    let mut gui = start(settings(Lang::En));
    gui.press(Key::F8);
    gui.harness.get_by_role_and_label(
        Role::CheckBox,
        "Practice against the computer (you play the blind player's colour)",
    );
    gui.harness.get_by_role_and_label(
        Role::Slider,
        "Computer level (1 beginner to 10 full strength)",
    );
    gui.harness
        .get_by_role_and_label(Role::TextInput, "Chess engine program (UCI)");
}

#[test]
fn no_computer_help_at_a_tournament_board() {
    use rochade::session::Mode;
    for mode in [Mode::Tournament, Mode::Relay] {
        let mut s = settings(Lang::En);
        s.game.mode = mode;
        let mut gui = start(s);
        for (mods, key) in [(CTRL, Key::H), (CTRL_SHIFT, Key::H), (CTRL_SHIFT, Key::E)] {
            gui.press_with(mods, key);
            assert_eq!(gui.last_spoken(), "Computer help only in practice mode");
            assert!(!gui.app().session().engine_busy());
        }
    }
}

#[test]
fn swapping_colours_lets_the_computer_open_and_the_level_keys_say_the_level() {
    stockfish_installed();
    let mut s = settings(Lang::En);
    s.engine.opponent = true;
    s.engine.level = rochade::engine::Level::new(1).unwrap();
    s.engine.pause_ms = 300;
    let mut gui = start(s);
    gui.press_with(CTRL_SHIFT, Key::ArrowDown);
    assert_eq!(
        gui.last_spoken(),
        "Practice against the computer, level 1. You play White",
        "level 1 is the floor"
    );
    gui.press_with(CTRL_SHIFT, Key::ArrowUp);
    assert_eq!(
        gui.last_spoken(),
        "Practice against the computer, level 2. You play White"
    );
    assert_eq!(gui.app().settings().engine.level.number(), 2);
    gui.press_with(CTRL_SHIFT, Key::C);
    assert_eq!(
        gui.last_spoken(),
        "Practice against the computer, level 2. You play Black"
    );
    settle(&mut gui);
    let record = gui.app().session().record();
    assert_eq!(record.moves().len(), 1, "the computer opened as White");
    // Switched off, the keys still say the level and colour.
    gui.press_with(CTRL_SHIFT, Key::P);
    assert_eq!(gui.last_spoken(), "Practice without a computer opponent");
    gui.press_with(CTRL_SHIFT, Key::C);
    assert_eq!(
        gui.last_spoken(),
        "Computer opponent off; level 2. You play White"
    );
    assert!(!gui.app().session().engine_busy());
}

#[test]
fn the_computer_menu_switches_the_opponent_on() {
    let mut gui = start(settings(Lang::En));
    gui.harness
        .get_by_role_and_label(Role::Button, "Computer")
        .click();
    gui.harness.run();
    gui.harness
        .get_by_label("Play against the computer")
        .click();
    gui.harness.run();
    assert_eq!(
        gui.last_spoken(),
        "Practice against the computer, level 3. You play White"
    );
    gui.harness
        .get_by_role_and_label(Role::Button, "Computer (Level 3)");
    assert!(gui.app().session().opponent().is_some());
}
