//! Puzzles through the real app and the simulated peg-board inside it:
//! the Puzzles menu starts one, the simulator's pegs are set up to the
//! puzzle's position under the app's guidance, a wrong move is said and
//! guided back, the solution is played peg by peg with the opponent's
//! replies copied as guided, and the result and the panel show it
//! (recording speech backend, accessibility check on).

use crate::gui_common;
use crate::puzzle_moves;

use egui::accesskit::Role;
use egui::{Key, Modifiers};
use egui_kittest::kittest::Queryable;
use gui_common::{Gui, settings, sim_press, start_with};
use puzzle_moves::{plain, quiet_wrong_move};
use rochade::words::Lang;
use shakmaty::{Chess, Move, Position};

const CTRL: Modifiers = Modifiers::COMMAND;

/// A move made with the pegs (a captured peg taken off first), each step
/// held past the tracker's settle window (a capture is told from the
/// square lifted: the pegs only say which holes are filled).
fn peg_move(gui: &mut Gui, mv: &Move) {
    let from = mv.from().expect("a normal move");
    if mv.is_capture() {
        sim_press(gui, mv.to());
        gui.advance(300);
    }
    sim_press(gui, from);
    gui.advance(300);
    sim_press(gui, mv.to());
    gui.advance(300);
}

fn click(gui: &mut Gui, label: &str) {
    gui.harness
        .get_by_role_and_label(Role::Button, label)
        .click();
    gui.harness.run();
}

/// Everything said since `mark` spoken lines, joined.
fn said_since(gui: &Gui, mark: usize) -> String {
    gui.spoken()[mark..].join(" | ")
}

#[test]
fn a_puzzle_set_up_and_solved_on_the_simulated_peg_board_with_a_wrong_move() {
    let mut gui = start_with(settings(Lang::En), |o| o.simulated_board = true);
    click(&mut gui, "Puzzles");
    click(&mut gui, "Next puzzle (Ctrl+U)");
    // A puzzle the pegs can play with two presses a move (Ctrl+U gives it
    // up and Ctrl+U again gives the next).
    let mut tries = 0;
    let run = loop {
        let run = gui.app().session().puzzle().expect("a puzzle").clone();
        let line = run.puzzle.line().unwrap();
        if line.iter().all(|(_, mv)| plain(mv)) {
            break run;
        }
        tries += 1;
        assert!(tries < 30, "no plain puzzle near 1500");
        gui.press_with(CTRL, Key::U);
        gui.press_with(CTRL, Key::U);
    };
    let p = run.puzzle.clone();
    let line = p.line().unwrap();
    assert!(
        gui.shows(&format!("Lichess puzzle {}, rating {}", p.id, p.rating)),
        "the panel names the puzzle"
    );
    assert!(gui.shows_part("Your move: "), "the panel says whose move");
    let (side, opponent) = if run.player.is_white() {
        ("White", "Black")
    } else {
        ("Black", "White")
    };
    let intro = gui
        .spoken()
        .into_iter()
        .rev()
        .find(|s| s.starts_with("Puzzle, rating"))
        .expect("the puzzle is said");
    // Who plays the first move is said before it, then the position.
    assert!(intro.ends_with(&format!(". {opponent} plays")), "{intro}");
    let position = gui
        .spoken()
        .into_iter()
        .rev()
        .find(|s| s.contains(" to move, "))
        .expect("the position is said");
    assert!(
        position.starts_with(&format!("{side} to move, ")),
        "{position}"
    );

    // The player sets the position up on his board, guided square by
    // square: first the pegs that are too many come off ...
    let target: Chess = gui.app().session().record().position().clone();
    let pegs = gui.app().sim().unwrap().pegs();
    let extra = pegs.occupied() & !target.board().occupied();
    let missing = target.board().occupied() & !pegs.occupied();
    assert!(extra.any() && missing.any());
    for sq in extra {
        sim_press(&mut gui, sq);
    }
    gui.advance(300);
    let mark = gui.spoken().len();
    gui.advance(3000);
    let guidance = said_since(&gui, mark);
    assert!(
        [
            "Anna", "Bella", "Cesar", "David", "Eva", "Felix", "Gustav", "Hector"
        ]
        .iter()
        .any(|f| guidance.contains(f)),
        "the guidance names squares: {guidance}"
    );
    // ... then the missing ones go on.
    for sq in missing {
        sim_press(&mut gui, sq);
    }
    gui.advance(300);
    gui.advance(3000);
    assert_eq!(gui.app().board_differs(), 0, "the pegs show the puzzle");
    assert!(gui.spoken().iter().any(|s| s == "Board matches"));

    // A wrong move: said, and taken back when the board is put back.
    let (pos, right) = &line[1];
    let wrong = quiet_wrong_move(pos, right);
    let mark = gui.spoken().len();
    peg_move(&mut gui, &wrong);
    assert!(
        said_since(&gui, mark).contains(": wrong. Take it back and try again"),
        "{}",
        said_since(&gui, mark)
    );
    // It stands on the board until put back (the tracker follows the
    // board back as a takeback); no move is said or saved for it.
    assert!(!said_since(&gui, mark).contains("Board fault"));
    let back = Move::Normal {
        role: wrong.role(),
        from: wrong.to(),
        capture: None,
        to: wrong.from().unwrap(),
        promotion: None,
    };
    peg_move(&mut gui, &back);
    gui.advance(3000);
    assert_eq!(gui.app().board_differs(), 0, "put back");
    assert_eq!(gui.app().session().record().moves().len(), 1);
    assert!(
        !said_since(&gui, mark).contains("Board fault"),
        "{}",
        said_since(&gui, mark)
    );

    // The solution, peg by peg; each reply of the opponent is said and
    // copied onto the board.
    for i in (1..line.len()).step_by(2) {
        let mark = gui.spoken().len();
        peg_move(&mut gui, &line[i].1);
        assert_eq!(
            gui.app().session().record().moves().len(),
            (i + 2).min(line.len()),
            "after {}: {}",
            line[i].1,
            said_since(&gui, mark)
        );
        if let Some((_, reply)) = line.get(i + 1) {
            peg_move(&mut gui, reply);
            gui.advance(3000);
            assert_eq!(gui.app().board_differs(), 0, "reply {reply} copied");
        }
    }
    let end = gui.spoken().join(" | ");
    assert!(end.contains("Not solved. Solution: "), "{end}");
    assert!(gui.shows_part("not solved"), "the panel shows the result");
    assert_eq!(
        gui.app().session().puzzle_progress().failed as usize,
        tries + 1
    );

    // The next puzzle and its hint by key; then back to the game.
    gui.press_with(CTRL, Key::U);
    let next = gui.app().session().puzzle().unwrap().puzzle.id.clone();
    assert_ne!(next, p.id);
    gui.press_with(CTRL, Key::H);
    assert!(
        gui.last_spoken().starts_with("Hint: "),
        "{}",
        gui.last_spoken()
    );
    click(&mut gui, "Puzzles");
    click(&mut gui, "Leave puzzles: back to the game");
    assert!(gui.app().session().puzzle().is_none());
    assert_eq!(gui.last_spoken(), "Puzzles closed: back to your game");
    assert!(gui.app().session().record().moves().is_empty());
    assert_eq!(gui.app().session().record().position(), &Chess::default());
}
