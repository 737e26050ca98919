//! Tournament and assistant-relay modes through the real app: the blind
//! player's moves come from the simulated peg-board inside the app (its
//! bytes through the real decoder and tracker), the assistant types the
//! rest, the clock follows E.3, and every answer is checked as spoken.

use crate::board_sim;
use crate::gui_common;

use egui::accesskit::Role;
use egui::{Key, Modifiers};
use egui_kittest::kittest::Queryable;
use gui_common::{Gui, focus_sim_board, settings, sim_press, start, start_with};
use rochade::session::Mode;
use rochade::words::Lang;

/// Clicks a square of a board with the mouse: real pointer events at the
/// square's centre, worked out from the board widget's rectangle (rank
/// numbers take the left fourteenth, file letters the bottom one).
fn click_square(gui: &mut Gui, board: &str, sq: shakmaty::Square) {
    let rect = gui
        .harness
        .get_by_role_and_label(rochade::app::BOARD_ROLE, board)
        .rect();
    let margin = rect.width() / 14.0;
    let side = (rect.width() - margin) / 8.0;
    let (file, rank) = (u32::from(sq.file()) as f32, u32::from(sq.rank()) as f32);
    let pos = egui::pos2(
        rect.min.x + margin + (file + 0.5) * side,
        rect.min.y + (7.5 - rank) * side,
    );
    gui.harness.event(egui::Event::PointerMoved(pos));
    for pressed in [true, false] {
        gui.harness.event(egui::Event::PointerButton {
            pos,
            button: egui::PointerButton::Primary,
            pressed,
            modifiers: Modifiers::default(),
        });
    }
    gui.harness.run();
}

fn peg_move(gui: &mut Gui, from: shakmaty::Square, to: shakmaty::Square) {
    sim_press(gui, from);
    gui.advance(300);
    sim_press(gui, to);
    // Past the tracker's settle window: the move counts as executed.
    gui.advance(300);
}

/// A game record after these moves (SAN), as a save file would hold it.
fn record_after(moves: &[&str]) -> rochade::chess::GameRecord {
    let mut record = rochade::chess::GameRecord::new();
    record.play_sans(&moves.join(" ")).unwrap();
    record
}

#[test]
fn tournament_blind_moves_on_the_pegboard_assistant_types_the_reply() {
    let mut s = settings(Lang::En);
    s.game.mode = Mode::Tournament;
    s.game.time_control = "5400+30".into();
    let mut gui = start_with(s, |o| o.simulated_board = true);
    assert!(
        gui.shows("connected, Port: simulated board"),
        "link status shows the simulator"
    );

    // The blind player (White) lifts e2: a touch report (E.2.2), then e4.
    sim_press(&mut gui, shakmaty::Square::E2);
    gui.advance(300);
    assert_eq!(gui.last_spoken(), "Pawn Eva two touched");
    sim_press(&mut gui, shakmaty::Square::E4);
    gui.advance(300);
    assert_eq!(gui.last_spoken(), "Eva four");
    assert!(gui.shows("1. e4"));
    // E.3: the clock started with the executed move; Black's time runs.
    gui.advance(4000);
    assert!(gui.shows_part("Black  1:29:5"), "Black's clock runs");
    assert!(gui.shows("White  1:30:30"), "White got the increment");

    // The assistant types the sighted player's reply; it is announced and
    // then expected on the peg-board, which still shows e7 occupied.
    gui.type_move("c5");
    assert_eq!(gui.last_spoken(), "Cesar five");
    assert!(gui.shows("1. e4 c5"));
    // The clock is spoken only on request (E.9d): nothing said about it.
    assert!(!gui.spoken().iter().any(|t| t.contains("left")));
    gui.press(Key::F4);
    assert!(
        gui.last_spoken().starts_with("White: "),
        "{}",
        gui.last_spoken()
    );
    // His peg-board differs from the game on c7 and c5 until he copies
    // the move: the board view marks both squares.
    let c7_c5 = (1u64 << 50) | (1u64 << 34);
    assert_eq!(gui.app().board_differs(), c7_c5);
    // He copies it wrongly (c7-c6): after the mismatch time the app
    // guides him (E.7).
    peg_move(&mut gui, shakmaty::Square::C7, shakmaty::Square::C6);
    gui.advance(2500);
    let guidance = gui.last_spoken();
    assert!(
        guidance.contains("Cesar"),
        "guidance names the squares: {guidance}"
    );
    // He corrects it; the app confirms his board matches.
    peg_move(&mut gui, shakmaty::Square::C6, shakmaty::Square::C5);
    assert_eq!(gui.last_spoken(), "Board matches");
    assert_eq!(gui.app().board_differs(), 0);
    assert_eq!(
        gui.app().session().record().moves().len(),
        2,
        "copying is not a move"
    );

    // His next move from the peg-board.
    peg_move(&mut gui, shakmaty::Square::G1, shakmaty::Square::F3);
    assert_eq!(gui.last_spoken(), "Knight Felix three");
    assert!(gui.shows("2. Nf3"));
    assert_eq!(gui.app().saves(), 3);
}

#[test]
fn the_mouse_moves_pegs_on_the_simulated_board_and_pieces_on_the_board() {
    use shakmaty::Square;
    let mut s = settings(Lang::En);
    s.game.mode = Mode::Tournament;
    let mut gui = start_with(s, |o| o.simulated_board = true);
    const PEGS: &str = "Simulated peg-board";

    // The blind player lifts e2 and puts it on e4: two clicks.
    click_square(&mut gui, PEGS, Square::E2);
    gui.advance(300);
    assert_eq!(gui.last_spoken(), "Pawn Eva two touched");
    assert!(
        gui.shows_part("In the hand: P"),
        "the lifted peg is in the hand"
    );
    click_square(&mut gui, PEGS, Square::E4);
    gui.advance(300);
    assert_eq!(gui.last_spoken(), "Eva four");
    assert!(gui.shows("1. e4"));

    // The assistant clicks the sighted player's reply on the main board:
    // the piece, then where it goes.
    click_square(&mut gui, "Board", Square::C7);
    assert_eq!(gui.last_spoken(), "Pawn Cesar seven picked up");
    click_square(&mut gui, "Board", Square::C5);
    assert_eq!(gui.last_spoken(), "Cesar five");
    assert!(gui.shows("1. e4 c5"));
    let c7_c5 = (1u64 << 50) | (1u64 << 34);
    assert_eq!(gui.app().board_differs(), c7_c5);

    // The blind player copies it on his board with the mouse.
    click_square(&mut gui, PEGS, Square::C7);
    gui.advance(300);
    click_square(&mut gui, PEGS, Square::C5);
    gui.advance(300);
    assert_eq!(gui.last_spoken(), "Board matches");
    assert_eq!(gui.app().board_differs(), 0);
    assert_eq!(gui.app().session().record().moves().len(), 2);
}

#[test]
fn relay_the_assistant_enters_both_sides_and_the_clock_runs() {
    let mut s = settings(Lang::De);
    s.game.mode = Mode::Relay;
    s.game.time_control = "300".into();
    s.game.letters = rochade::chess::Letters::De;
    let mut gui = start(s);
    gui.type_move("e4");
    assert_eq!(gui.last_spoken(), "Eva vier");
    gui.advance(3000);
    assert!(gui.shows("Black  4:57"));
    assert!(gui.shows("White  5:00"));
    gui.type_move("sc6");
    assert_eq!(gui.last_spoken(), "Springer Cesar sechs");
    gui.advance(7000);
    assert!(gui.shows("White  4:53"));
    gui.press(Key::F4);
    assert_eq!(
        gui.last_spoken(),
        "White: 4 minutes 53 seconds left, 7 seconds used, 1 move played. \
         Black: 4 minutes 57 seconds left, 3 seconds used, 1 move played",
        "the clock in the interface language (English), only moves in German"
    );
    // Pausing the clock (e.g. for an arbiter) stops both sides.
    gui.press_with(Modifiers::COMMAND, Key::P);
    assert_eq!(gui.last_spoken(), "Clock paused");
    gui.advance(60_000);
    assert!(gui.shows("White  4:53"));
    gui.press_with(Modifiers::COMMAND, Key::P);
    assert_eq!(gui.last_spoken(), "Clock running");
    // Switching the mode mid-game is announced and kept.
    gui.harness
        .get_by_role_and_label(Role::RadioButton, "Practice")
        .click();
    gui.harness.run();
    assert_eq!(gui.last_spoken(), "Mode: practice");
    assert_eq!(gui.app().session().config().mode, Mode::Practice);
}

#[test]
fn an_unfinished_game_is_offered_and_resumed() {
    let record = record_after(&["e4", "e5", "Nf3"]);
    let mut gui = start_with(settings(Lang::En), |o| o.resume = Some(record));
    assert_eq!(
        gui.last_spoken(),
        "An unfinished game was found. Resume it? Yes or no"
    );
    assert!(gui.shows("Unfinished game"));
    gui.harness
        .get_by_role_and_label(Role::Button, "Resume")
        .click();
    gui.harness.run();
    assert!(gui.spoken().contains(&"Game resumed".to_owned()));
    assert!(gui.shows("2. Nf3"));
    gui.type_move("Nc6");
    assert!(gui.shows("2. Nf3 Nc6"));
}

#[test]
fn closing_mid_game_asks_first() {
    let mut gui = start(settings(Lang::En));
    gui.type_move("e4");
    gui.harness.event(egui::Event::WindowFocused(true));
    gui.harness
        .input_mut()
        .viewports
        .entry(egui::ViewportId::ROOT)
        .or_default()
        .events
        .push(egui::ViewportEvent::Close);
    gui.harness.run();
    assert_eq!(
        gui.last_spoken(),
        "The game is not finished. Close anyway? Yes or no"
    );
    gui.press(Key::Escape);
    assert_eq!(gui.last_spoken(), "Cancelled");
}

#[test]
fn escape_at_the_resume_question_keeps_the_game() {
    let record = record_after(&["e4"]);
    let mut gui = start_with(settings(Lang::En), |o| o.resume = Some(record));
    gui.press(egui::Key::Escape);
    assert!(gui.shows("Unfinished game"), "Escape only stops speech");
    assert!(gui.app().question().is_some());
}

#[test]
fn a_failed_save_is_said_before_the_move() {
    let mut gui = start_with(settings(Lang::En), |o| {
        o.saver = Some(Box::new(|_| Err(std::io::ErrorKind::StorageFull.into())));
    });
    gui.type_move("e4");
    let spoken = gui.spoken();
    let failed = "The game cannot be saved: no space left on the disk".to_owned();
    let at = spoken.iter().position(|s| *s == failed);
    assert!(at.is_some(), "{spoken:?}");
    assert!(
        at < spoken.iter().position(|s| s == "Eva four"),
        "{spoken:?}"
    );
    assert!(gui.shows_part("The game cannot be saved"));
    gui.type_move("e5");
    let again = gui.spoken().iter().filter(|s| **s == failed).count();
    assert_eq!(again, 2, "said again after every move");
}

#[test]
fn ctrl_b_shows_and_hides_the_simulated_board_and_says_so() {
    let mut gui = start(settings(Lang::De));
    assert!(gui.app().sim().is_none(), "off on a first run");
    gui.press_with(Modifiers::COMMAND, Key::B);
    assert!(gui.app().sim().is_some());
    assert_eq!(gui.last_spoken(), "Simulated board on");
    gui.press_with(Modifiers::COMMAND, Key::B);
    assert!(gui.app().sim().is_none());
    assert_eq!(gui.last_spoken(), "Simulated board off");
}

#[test]
fn the_simulated_board_speaks_the_squares_walked_by_keys() {
    let mut s = settings(Lang::De);
    s.game.mode = Mode::Tournament;
    let mut gui = start_with(s, |o| o.simulated_board = true);
    focus_sim_board(&mut gui);
    gui.press(Key::ArrowUp);
    assert_eq!(gui.last_spoken(), "Eva drei: leer");
    gui.press(Key::ArrowLeft);
    gui.press(Key::ArrowDown);
    assert_eq!(gui.last_spoken(), "David zwei: weißer Bauer");
}

#[test]
fn the_retrace_reads_the_sighted_players_scoresheet_from_a_pgn_file() {
    let dir = tempfile::tempdir().unwrap();
    let sheet = dir.path().join("sighted.pgn");
    std::fs::write(&sheet, "[Event \"?\"]\n\n1. e4 e5 2. Nc3 *\n").unwrap();
    let mut gui = start(settings(Lang::En));
    for mv in ["e4", "e5", "Nf3"] {
        gui.type_move(mv);
    }
    // The file's path typed into the move input, then Ctrl+Shift+S.
    let input = gui.harness.get_by_role_and_label(Role::TextInput, "Move");
    input.focus();
    gui.harness.run();
    gui.harness
        .get_by_role_and_label(Role::TextInput, "Move")
        .type_text(&sheet.display().to_string());
    gui.harness.run();
    gui.press_with(Modifiers::COMMAND | Modifiers::SHIFT, Key::S);
    let said = gui.last_spoken();
    assert!(
        said.starts_with("First difference at move 2, White") && said.contains("scoresheet Nc3"),
        "{said}"
    );
    assert!(matches!(
        gui.app().question(),
        Some(rochade::session::Question::Retrace(2))
    ));
    gui.press(Key::Escape);

    // A file that cannot be read is said, and its name stays to be fixed.
    let missing = dir.path().join("missing.pgn").display().to_string();
    gui.harness
        .get_by_role_and_label(Role::TextInput, "Move")
        .type_text(&missing);
    gui.harness.run();
    gui.press_with(Modifiers::COMMAND | Modifiers::SHIFT, Key::S);
    let said = gui.last_spoken();
    assert!(
        said.starts_with(&format!("The scoresheet file {missing} cannot be read")),
        "{said}"
    );
    let input = gui.harness.get_by_role_and_label(Role::TextInput, "Move");
    assert_eq!(input.value().as_deref(), Some(missing.as_str()));
    assert_eq!(gui.app().session().record().moves().len(), 3);
}

#[test]
fn a_board_port_set_in_settings_connects_at_once_and_clearing_it_disconnects() {
    // A simulated peg-board on a real pseudo-terminal.
    let sim = board_sim::Sim::start(&[]);
    let device = sim.device.clone();

    let mut gui = start_with(settings(Lang::En), |o| {
        o.time = rochade::app::TimeSource::Real(std::time::Instant::now())
    });
    assert!(gui.shows_part("not connected, Port: "));
    gui.press(Key::F8);
    let port = gui.harness.get_by_role_and_label(Role::TextInput, "Port");
    port.focus();
    gui.harness.run();
    gui.harness
        .get_by_role_and_label(Role::TextInput, "Port")
        .type_text(&device);
    gui.harness.run();
    gui.harness
        .get_by_role_and_label(Role::Button, "Save")
        .click();
    gui.harness.run();
    let connected = format!("connected, Port: {device}");
    gui.run_until("the new port's link", |g| g.shows(&connected));

    // Cleared: the link closes quietly, nothing is "lost".
    gui.press(Key::F8);
    let port = gui.harness.get_by_role_and_label(Role::TextInput, "Port");
    port.focus();
    gui.harness.run();
    gui.harness.key_press_modifiers(Modifiers::COMMAND, Key::A);
    gui.harness.key_press(Key::Backspace);
    gui.harness.run();
    gui.harness
        .get_by_role_and_label(Role::Button, "Save")
        .click();
    gui.harness.run();
    assert!(gui.shows_part("not connected, Port: "));
    assert!(
        !gui.spoken()
            .iter()
            .any(|s| s.to_lowercase().contains("lost")),
        "{:?}",
        gui.spoken()
    );
    drop(sim);
}

#[test]
fn a_mode_chosen_in_the_top_bar_is_kept_when_the_settings_are_saved() {
    let mut gui = start(settings(Lang::En));
    gui.harness
        .get_by_role_and_label(Role::RadioButton, "Assistant relay")
        .click();
    gui.harness.run();
    assert_eq!(gui.app().session().config().mode, Mode::Relay);
    gui.press(Key::F8);
    gui.harness
        .get_by_role_and_label(Role::Button, "Save")
        .click();
    gui.harness.run();
    assert_eq!(
        gui.app().session().config().mode,
        Mode::Relay,
        "Save in Settings switched the mode back"
    );
    assert_eq!(
        gui.app().settings().game.mode,
        Mode::Relay,
        "and it is kept"
    );
}

#[test]
fn a_time_control_set_during_a_game_says_it_starts_with_the_next_game() {
    let mut gui = start(settings(Lang::En));
    gui.type_move("e4");
    let mut changed = gui.app().settings().clone();
    changed.game.time_control = "300+2".into();
    gui.app_mut().apply_settings(changed);
    gui.harness.run();
    assert_eq!(
        gui.last_spoken(),
        "The new time control applies from the next game, Control N"
    );
}

#[test]
fn a_hidden_simulated_board_is_disconnected_and_the_last_message_has_a_unit() {
    let mut gui = start(settings(Lang::En));
    gui.press_with(Modifiers::COMMAND, Key::B);
    assert!(
        gui.shows_part("connected, Port: "),
        "the simulated board is linked"
    );
    gui.advance(3000);
    assert!(
        gui.shows_part("s ago"),
        "the last message says how long ago"
    );
    gui.press_with(Modifiers::COMMAND, Key::B);
    assert!(
        gui.shows_part("not connected"),
        "hidden, it is no longer connected"
    );
}
