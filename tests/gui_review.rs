//! The Review window through the real app and the real Stockfish: a game
//! with a planted blunder (the opening of Morphy's Opera game, 6. Qxf7+
//! in place of 6. Bc4) played by keyboard, the window opened by its key,
//! the list read by role and label, Home and End, the exercise answered
//! wrong and then right (typed, then on the exercise's board), FEN and
//! PGN copied; and the same game played on the simulated peg-board, then
//! reviewed. Fails loudly without Stockfish.

mod gui_common;

use std::time::Duration;

use egui::accesskit::Role;
use egui::{Key, Modifiers};
use egui_kittest::kittest::{NodeT, Queryable};
use gui_common::{Gui, settings, start};
use rochade::words::Lang;

const CTRL: Modifiers = Modifiers::COMMAND;
const CTRL_ALT: Modifiers = Modifiers {
    alt: true,
    ..Modifiers::COMMAND
};

const PLANTED: [&str; 12] = [
    "e4", "e5", "Nf3", "d6", "d4", "Bg4", "dxe5", "Bxf3", "Qxf3", "dxe5", "Qxf7+", "Kxf7",
];

fn stockfish_installed() {
    let path = rochade::engine::DEFAULT_ENGINE_PATH;
    assert!(
        std::path::Path::new(path).exists(),
        "{path} is missing: install Debian's stockfish (scripts/deps.sh)"
    );
}

/// Waits on the review's engine thread (no clock) until the review is
/// ready, then runs frames.
fn wait_for_review(gui: &mut Gui) {
    let end = std::time::Instant::now() + Duration::from_secs(120);
    while gui
        .app()
        .review_panel()
        .is_some_and(|p| p.rows().is_empty())
    {
        assert!(
            std::time::Instant::now() < end,
            "the review took over 2 minutes"
        );
        gui.app_mut().wait_review(Duration::from_secs(1));
    }
    gui.harness.run();
}

/// The Review list's items (the scoresheet and the board's squares are
/// list items too).
fn list_items(gui: &Gui) -> Vec<String> {
    gui.harness
        .query_all_by_role(Role::ListItem)
        .filter_map(|n| n.accesskit_node().label())
        .filter(|l| l.starts_with("Move "))
        .collect()
}

fn copied(gui: &Gui) -> Vec<String> {
    gui.harness
        .output()
        .platform_output
        .commands
        .iter()
        .filter_map(|c| match c {
            egui::OutputCommand::CopyText(t) => Some(t.clone()),
            _ => None,
        })
        .collect()
}

#[test]
fn a_game_is_reviewed_read_by_keys_and_its_blunder_found_again() {
    stockfish_installed();
    let mut gui = start(settings(Lang::En));
    for mv in PLANTED {
        gui.type_move(mv);
    }
    assert_eq!(gui.app().session().record().moves().len(), 12);
    gui.press_with(CTRL, Key::L);
    assert!(
        gui.app().review_panel().is_some(),
        "Ctrl+L opens the review"
    );
    assert_eq!(gui.last_spoken(), "Working out the review");
    wait_for_review(&mut gui);
    let spoken = gui.spoken();
    assert!(
        spoken.iter().any(|s| s.starts_with("Review: blunders 1, ")),
        "{spoken:?}"
    );
    assert_eq!(
        gui.last_spoken(),
        "Move 6: you played Queen takes Felix seven check. Find a better move"
    );
    // The list: every move, the evaluation in words, the judgement.
    let items = list_items(&gui);
    assert_eq!(items.len(), 12, "{items:?}");
    assert!(
        items[0].starts_with("Move 1, White: Eva four. "),
        "{items:?}"
    );
    assert!(
        items[10].starts_with(
            "Move 6, White: Queen takes Felix seven check. Black is winning. Blunder, better "
        ),
        "{items:?}"
    );
    assert!(gui.shows("Move 6: you played Queen takes Felix seven check. Find a better move"));
    // The list has the keyboard: End and Home jump and say where.
    gui.press(Key::End);
    assert!(
        gui.last_spoken()
            .starts_with("End of the game. Move 6, Black: King takes Felix seven"),
        "{:?}",
        gui.spoken()
    );
    gui.press(Key::Home);
    assert!(
        gui.last_spoken()
            .starts_with("Start of the game. Move 1, White: Eva four"),
        "{:?}",
        gui.spoken()
    );
    gui.press(Key::ArrowDown);
    assert!(gui.last_spoken().starts_with("Move 1, Black: Eva five"));
    // The position after that move as FEN, from the window's button.
    gui.harness
        .get_by_role_and_label(Role::Button, "Copy FEN")
        .click_accesskit();
    // The frame that handles the click hands the text to the clipboard.
    gui.harness.step();
    assert_eq!(
        copied(&gui),
        ["rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"]
    );
    gui.harness.run();
    assert_eq!(gui.last_spoken(), "Position copied as FEN");
    // The exercise: the game's move again is refused, the best is right.
    let best = gui.app().review_panel().unwrap().exercise_best().unwrap();
    let field = gui
        .harness
        .get_by_role_and_label(Role::TextInput, "Your move");
    field.focus();
    gui.harness.run();
    gui.type_text("Qxf7");
    gui.press(Key::Enter);
    assert_eq!(
        gui.last_spoken(),
        "Queen takes Felix seven check is the move of the game. Try again"
    );
    // The engine's move on the exercise's board: its cursor starts on the
    // piece that was moved (f3); Enter lifts it, the arrows walk to the
    // target, Enter plays it.
    let square = |s: &str| {
        let b = s.as_bytes();
        (i32::from(b[0] - b'a'), i32::from(b[1] - b'1'))
    };
    let (from, to) = (square(&best[..2]), square(&best[2..4]));
    let cell = gui
        .harness
        .get_by_role_and_label(rochade::app::CELL_ROLE, "Felix three: white Queen");
    cell.focus();
    gui.harness.run();
    let walk = |gui: &mut Gui, (f0, r0): (i32, i32), (f1, r1): (i32, i32)| {
        for _ in 0..(f1 - f0).abs() {
            gui.press(if f1 > f0 {
                Key::ArrowRight
            } else {
                Key::ArrowLeft
            });
        }
        for _ in 0..(r1 - r0).abs() {
            gui.press(if r1 > r0 {
                Key::ArrowUp
            } else {
                Key::ArrowDown
            });
        }
    };
    walk(&mut gui, (5, 2), from);
    gui.press(Key::Enter);
    walk(&mut gui, from, to);
    gui.press(Key::Enter);
    let spoken = gui.spoken();
    let right = &spoken[spoken.len() - 2];
    assert!(right.starts_with("Right: "), "{spoken:?}");
    assert!(right.contains("The computer goes on: "), "{spoken:?}");
    assert_eq!(gui.last_spoken(), "All exercises of this game are done");
    // The whole game as PGN, by its key.
    // The key's press alone, so that one step handles it (a step runs per
    // queued event, and the output is the last step's).
    gui.harness.event(egui::Event::Key {
        key: Key::P,
        physical_key: None,
        pressed: true,
        repeat: false,
        modifiers: CTRL_ALT,
    });
    gui.harness.step();
    let pgn = copied(&gui).pop().expect("the PGN copied");
    assert!(pgn.contains("6. Qxf7+ Kxf7"), "{pgn}");
    gui.harness.run();
    assert_eq!(gui.last_spoken(), "Game copied as PGN");
    // Escape closes the window; Ctrl+L opens it again and closes it.
    gui.press(Key::Escape);
    assert!(gui.app().review_panel().is_none());
    assert!(list_items(&gui).is_empty());
    gui.press_with(CTRL, Key::L);
    assert!(gui.app().review_panel().is_some());
    gui.press_with(CTRL, Key::L);
    assert!(gui.app().review_panel().is_none());
}

#[test]
fn no_game_no_review_and_a_missing_engine_is_said() {
    let mut gui = start(settings(Lang::En));
    gui.press_with(CTRL, Key::L);
    assert_eq!(gui.last_spoken(), "No moves to review yet");
    assert!(gui.app().review_panel().is_none());
    let mut s = settings(Lang::En);
    s.engine.path = "/nonexistent/stockfish".into();
    let mut gui = start(s);
    gui.type_move("e4");
    gui.press_with(CTRL, Key::L);
    gui.run_until("the engine's failure", |g| {
        g.app().review_panel().is_some_and(|p| !p.busy())
    });
    assert!(
        gui.last_spoken()
            .starts_with("No review: the engine could not be started"),
        "{:?}",
        gui.spoken()
    );
    assert!(gui.shows_part("Check the path to the engine program (Stockfish)"));
}

/// Presses a square of the simulated peg-board (lift or place a peg),
/// then lets the board settle.
fn sim_press(gui: &mut Gui, sq: shakmaty::Square) {
    gui.app_mut().sim_press(sq);
    gui.advance(300);
}

#[test]
fn a_game_played_on_the_simulated_peg_board_is_reviewed() {
    use shakmaty::Square::*;
    stockfish_installed();
    let mut gui = gui_common::start_with(settings(Lang::En), |o| o.simulated_board = true);
    // Each move: the piece lifted, a captured piece lifted, the piece placed.
    let moves = [
        (E2, E4, false),
        (E7, E5, false),
        (G1, F3, false),
        (D7, D6, false),
        (D2, D4, false),
        (C8, G4, false),
        (D4, E5, true),
        (G4, F3, true),
        (D1, F3, true),
        (D6, E5, true),
        (F3, F7, true),
        (E8, F7, true),
    ];
    for (from, to, capture) in moves {
        sim_press(&mut gui, from);
        if capture {
            sim_press(&mut gui, to);
        }
        sim_press(&mut gui, to);
    }
    gui.settle_saves();
    let sans: Vec<String> = gui
        .app()
        .session()
        .record()
        .moves()
        .iter()
        .map(|m| m.san.to_string())
        .collect();
    assert_eq!(sans, PLANTED, "the game as played on the peg-board");
    gui.press_with(CTRL, Key::L);
    wait_for_review(&mut gui);
    let items = list_items(&gui);
    assert!(
        items[10]
            .starts_with("Move 6, White: Queen takes Felix seven check. Black is winning. Blunder"),
        "{items:?}"
    );
    assert_eq!(
        gui.last_spoken(),
        "Move 6: you played Queen takes Felix seven check. Find a better move"
    );
}
