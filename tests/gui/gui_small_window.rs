//! A focus one can see and a small window (issue 36, items 3 to 6): the
//! control with the keyboard has a ring and is in view, the help scrolls
//! by keys and wraps, and at 1024x600 with text size 2 the move input,
//! the dialogs and an error fit. The real app in the kittest harness.

use crate::gui_common;

use egui::accesskit::Role;
use egui::{Key, Modifiers, Rect};
use egui_kittest::kittest::{NodeT, Queryable};
use gui_common::{Gui, settings, start_with};
use rochade::words::Lang;

/// A window of 1024x600 pixels at text size 2, in points.
const SMALL: egui::Vec2 = egui::vec2(512.0, 300.0);

/// The app at 1024x600, text size 2 (`adjust` sets the options).
fn small(adjust: impl FnOnce(&mut rochade::app::AppOptions)) -> Gui {
    let mut s = settings(Lang::En);
    s.display.scale = 2.0;
    let mut gui = start_with(s, adjust);
    gui.harness.set_size(SMALL);
    gui.harness.run();
    gui.harness.run();
    gui
}

/// The widget with the keyboard: its rect and the part of it on screen.
fn focused(gui: &Gui) -> Option<(Rect, Rect)> {
    let ctx = &gui.harness.ctx;
    let id = ctx.memory(|m| m.focused())?;
    let r = ctx.read_response(id)?;
    Some((r.rect, r.interact_rect))
}

/// A stroke at least 2 points wide drawn round `rect`, outside it.
fn ringed(gui: &Gui, rect: Rect) -> bool {
    gui.harness.output().shapes.iter().any(|clipped| {
        let egui::Shape::Rect(shape) = &clipped.shape else {
            return false;
        };
        shape.stroke.width >= 2.0
            && shape.rect.contains_rect(rect)
            && shape.rect != rect
            && (shape.rect.width() - rect.width()) <= 10.0
            && clipped.clip_rect.intersects(rect)
    })
}

#[test]
fn every_control_tabbed_to_is_ringed_and_in_view() {
    let mut gui = small(|_| {});
    let window = Rect::from_min_size(egui::Pos2::ZERO, SMALL);
    let mut seen = 0;
    // Round the window twice over: menus, modes, clocks, move input,
    // scoresheet, connection, board.
    for step in 0..30 {
        gui.press(Key::Tab);
        gui.harness.run();
        let Some((rect, visible)) = focused(&gui) else {
            continue;
        };
        seen += 1;
        assert!(
            visible.width() >= rect.width() - 1.0 && visible.height() >= rect.height() - 1.0,
            "Tab {step}: the focused control {rect:?} is not in view ({visible:?})"
        );
        assert!(window.expand(1.0).contains_rect(visible), "Tab {step}");
        assert!(
            ringed(&gui, rect),
            "Tab {step}: no focus ring round {rect:?}"
        );
    }
    assert!(seen >= 10, "{seen} controls");
}

#[test]
fn settings_check_boxes_and_sliders_are_ringed_and_scrolled_to() {
    let mut gui = small(|_| {});
    gui.press(Key::F8);
    gui.harness.run();
    let mut kinds = std::collections::BTreeSet::new();
    for step in 0..40 {
        gui.press(Key::Tab);
        gui.harness.run();
        let Some((rect, visible)) = focused(&gui) else {
            continue;
        };
        assert!(
            visible.height() >= rect.height() - 1.0,
            "Settings, Tab {step}: {rect:?} not in view ({visible:?})"
        );
        assert!(ringed(&gui, rect), "Settings, Tab {step}: no ring");
        let role = gui
            .harness
            .query_all_by_role(Role::CheckBox)
            .chain(gui.harness.query_all_by_role(Role::Slider))
            .find(|n| n.is_focused())
            .map(|n| format!("{:?}", n.accesskit_node().role()));
        if let Some(role) = role {
            kinds.insert(role);
        }
    }
    assert!(kinds.contains("CheckBox"), "{kinds:?}");
    assert!(kinds.contains("Slider"), "{kinds:?}");
}

#[test]
fn f10_brings_the_menus_into_view() {
    let mut gui = small(|_| {});
    // The column scrolled to its end by the wheel, then F10.
    let column = egui::pos2(SMALL.x - 40.0, SMALL.y / 2.0);
    gui.harness.event(egui::Event::PointerMoved(column));
    for _ in 0..5 {
        gui.harness.event(egui::Event::MouseWheel {
            unit: egui::MouseWheelUnit::Point,
            delta: egui::vec2(0.0, -400.0),
            phase: egui::TouchPhase::Move,
            modifiers: Modifiers::NONE,
            source: egui::MouseWheelSource::Wheel,
        });
        gui.harness.run();
    }
    let game = gui.harness.get_by_role_and_label(Role::Button, "Game");
    let before = game.rect();
    assert!(
        before.max.y < 0.0 || before.min.y < 0.0,
        "scrolled away: {before:?}"
    );
    gui.press(Key::F10);
    for _ in 0..4 {
        gui.harness.run();
    }
    let (rect, visible) = focused(&gui).expect("the Game menu has the keyboard");
    assert!(
        visible.height() >= rect.height() - 1.0,
        "{rect:?} {visible:?}"
    );
    assert!(rect.min.y >= 0.0, "{rect:?}");
}

#[test]
fn the_help_scrolls_by_keys_and_wraps() {
    let mut gui = small(|_| {});
    gui.press(Key::F1);
    gui.harness.run();
    let row = |gui: &Gui| {
        let (rect, visible) = focused(gui).expect("a help line has the keyboard");
        assert!(
            visible.height() >= rect.height() - 1.0,
            "the help line {rect:?} is in view ({visible:?})"
        );
        rect
    };
    row(&gui);
    assert_eq!(focused_label(&gui), first_line(&gui));
    gui.press(Key::End);
    gui.harness.run();
    row(&gui);
    let last_line = gui.app().ui_text().help().last().unwrap().1.clone();
    assert_eq!(focused_label(&gui), last_line, "End: the last line");
    gui.press(Key::Home);
    gui.harness.run();
    row(&gui);
    assert_eq!(
        focused_label(&gui),
        first_line(&gui),
        "Home: the first line"
    );
    gui.press(Key::PageDown);
    gui.harness.run();
    row(&gui);
    assert_eq!(
        focused_label(&gui),
        gui.app().ui_text().help()[10].1,
        "Page Down moves ten lines"
    );
    gui.press(Key::PageUp);
    gui.harness.run();
    assert_eq!(focused_label(&gui), first_line(&gui), "Page Up");
    gui.press(Key::ArrowDown);
    gui.harness.run();
    assert_eq!(focused_label(&gui), gui.app().ui_text().help()[1].1);
    // Every line within the window's width: long ones wrap.
    let window = Rect::from_min_size(egui::Pos2::ZERO, SMALL);
    for node in gui.harness.query_all_by_role(Role::ListItem) {
        let r = node.rect();
        if r.width() > 0.0
            && node
                .accesskit_node()
                .label()
                .is_some_and(|l| l.starts_with('F'))
        {
            assert!(
                r.max.x <= window.max.x + 1.0,
                "{:?} is cut: {r:?}",
                node.accesskit_node().label()
            );
        }
    }
}

fn first_line(gui: &Gui) -> String {
    gui.app().ui_text().help()[0].1.clone()
}

/// The name of the list item with the keyboard.
fn focused_label(gui: &Gui) -> String {
    gui.harness
        .query_all_by_role(Role::ListItem)
        .find(|n| n.is_focused())
        .and_then(|n| n.accesskit_node().label().map(|l| l.to_string()))
        .unwrap_or_default()
}

#[test]
fn at_1024x600_text_size_2_the_move_input_the_resume_dialog_and_an_error_fit() {
    let mut record = rochade::chess::GameRecord::new();
    record.play_sans("e4 e5").unwrap();
    let long_note = "speech: alsa:default: The requested audio device is not available; \
                     speech-dispatcher did not answer within 5 seconds; sound: no output \
                     device; the data folder could not be written, so the game is saved \
                     in the temporary folder instead; and more words to fill a column";
    let mut gui = small(|o| {
        o.resume = Some(record);
        o.startup_note = Some(long_note.to_owned());
    });
    let window = Rect::from_min_size(egui::Pos2::ZERO, SMALL);
    // The resume dialog fits the window.
    let dialog = gui
        .harness
        .get_by_role_and_label(Role::Dialog, "Unfinished game")
        .rect();
    assert!(
        window.expand(1.0).contains_rect(dialog),
        "the dialog {dialog:?} leaves the window {window:?}"
    );
    let question = gui
        .harness
        .query_all_by_label("An unfinished game was found. Resume it? Yes or no")
        .map(|n| n.rect())
        .find(|r| dialog.intersects(*r))
        .expect("the question in the dialog");
    assert!(window.contains_rect(question), "the question {question:?}");
    for button in ["Resume", "Start a new game"] {
        let b = gui
            .harness
            .get_by_role_and_label(Role::Button, button)
            .rect();
        assert!(window.contains_rect(b), "{button}: {b:?}");
    }
    gui.press(Key::Escape);
    gui.harness
        .get_by_role_and_label(Role::Button, "Start a new game")
        .click();
    gui.harness.run();
    gui.harness.run();
    // The move input has room for twelve characters, and is in view (it
    // has the keyboard).
    let input = gui
        .harness
        .get_by_role_and_label(Role::TextInput, "Move")
        .rect();
    let (_, visible) = focused(&gui).expect("the move input has the keyboard");
    assert!(
        visible.height() >= input.height() - 1.0,
        "{input:?} {visible:?}"
    );
    let digit = gui
        .harness
        .ctx
        .fonts_mut(|f| f.glyph_width(&egui::FontId::proportional(24.0), '0'));
    assert!(
        input.width() >= 12.0 * digit,
        "the move input is {} points, 12 characters are {}",
        input.width(),
        12.0 * digit
    );
    assert!(window.expand(1.0).contains_rect(input), "{input:?}");
    // The error at the top takes at most three lines (18-point text).
    let note = gui
        .harness
        .query_all_by_role(Role::Label)
        .find(|n| {
            let node = n.accesskit_node();
            let words = node.label().or_else(|| node.value());
            words.is_some_and(|l| l.starts_with("speech: alsa") && l.ends_with("fill a column"))
        })
        .expect("the note is shown, its whole text its name")
        .rect();
    let line = gui
        .harness
        .ctx
        .fonts_mut(|f| f.row_height(&egui::FontId::proportional(18.0)));
    assert!(
        note.height() <= 3.0 * line + 1.0,
        "the note is {} points high, three lines {}",
        note.height(),
        3.0 * line
    );
    // Cut, it is not lost (issue 51: the speech warning ended in "…"):
    // "Show all" shows it whole, "Show less" cuts it again.
    let note_height = |gui: &Gui| {
        gui.harness
            .query_all_by_role(Role::Label)
            .find(|n| {
                let node = n.accesskit_node();
                let words = node.label().or_else(|| node.value());
                words.is_some_and(|l| l.starts_with("speech: alsa"))
            })
            .expect("the note")
            .rect()
            .height()
    };
    gui.harness
        .get_by_role_and_label(Role::Button, "Show all")
        .focus();
    gui.harness.run();
    gui.press(Key::Enter);
    gui.harness.run();
    assert!(gui.harness.query_by_label("Show less").is_some(), "toggled");
    assert!(
        note_height(&gui) > 3.0 * line + 1.0,
        "shown whole: {}",
        note_height(&gui)
    );
    gui.press(Key::Enter);
    gui.harness.run();
    assert!(note_height(&gui) <= 3.0 * line + 1.0, "cut again");
}

#[test]
fn the_board_has_no_hover_text_over_its_first_rank() {
    let mut gui = small(|_| {});
    let board = gui.app().board_rect().expect("the board");
    gui.harness.event(egui::Event::PointerMoved(board.center()));
    for _ in 0..3 {
        gui.advance(2000);
        gui.harness.run();
    }
    assert!(
        !gui.shows_part("Arrow keys walk the board"),
        "a hover text covers the board"
    );
    let bottom = egui::pos2(board.center().x, board.max.y - 5.0);
    gui.harness.event(egui::Event::PointerMoved(bottom));
    gui.advance(2000);
    gui.harness.run();
    let tooltips = gui.harness.query_all_by_role(Role::Tooltip).count();
    assert_eq!(tooltips, 0);
}

#[test]
fn escape_on_the_board_with_nothing_lifted_says_where_the_keyboard_went() {
    let mut gui = small(|_| {});
    gui.press(Key::F7);
    gui.harness.run();
    gui.press(Key::Escape);
    gui.harness.run();
    assert_eq!(
        gui.last_spoken(),
        "Nothing lifted: the keyboard is in the move input. F7 goes back to the board"
    );
    assert!(
        gui.harness
            .get_by_role_and_label(Role::TextInput, "Move")
            .is_focused()
    );
}

#[test]
fn ctrl_p_in_an_untimed_game_says_that_no_clock_runs() {
    let mut gui = small(|_| {});
    gui.type_move("e4");
    gui.press_with(Modifiers::COMMAND, Key::P);
    assert_eq!(
        gui.last_spoken(),
        "This game is untimed: no clock runs. Settings, Time control, sets one"
    );
}

#[test]
fn at_1024x600_text_size_2_the_online_dialog_fits_and_tab_brings_connect_into_view() {
    let mut gui = small(|_| {});
    let ctrl_shift = egui::Modifiers {
        ctrl: true,
        shift: true,
        ..Default::default()
    };
    gui.press_with(ctrl_shift, Key::O);
    gui.harness.run();
    gui.harness.run();
    let window = Rect::from_min_size(egui::Pos2::ZERO, SMALL);
    let dialog = gui
        .harness
        .get_by_role_and_label(Role::Window, "Play online")
        .rect();
    assert!(
        window.expand(1.0).contains_rect(dialog),
        "the dialog {dialog:?} leaves the window {window:?}"
    );
    // Every field is reached by Tab and is in view when it has the keyboard.
    for _ in 0..8 {
        gui.press(Key::Tab);
        gui.harness.run();
        gui.harness.run();
        let (rect, visible) = focused(&gui).expect("a field has the keyboard");
        assert!(
            visible.height() >= rect.height() - 1.0 && window.expand(1.0).contains_rect(visible),
            "the field with the keyboard {rect:?} is not in view ({visible:?})"
        );
    }
}
