//! The board comes first (issue 27): at every text scale and window size
//! down to 1024x600, with and without the simulated peg-board, the main
//! board's squares keep at least 60 % of the window's shorter side, lies wholly
//! inside the window, does not overlap the simulated board, and keeps its
//! size from one repaint to the next.

use crate::gui_common;

use gui_common::{settings, start_with};
use rochade::words::Lang;

const SIZES: [(f32, f32); 3] = [(1024.0, 600.0), (1280.0, 800.0), (1920.0, 1080.0)];
const SCALES: [f32; 3] = [1.0, 2.0, 4.0];

/// The main board's side in pixels (its squares: the widget less the
/// coordinates' margin, a fourteenth) and the simulated board's rect, after
/// the window settled, for a window of `w`x`h` pixels at `scale`; asserts
/// the board does not move or change size over the next frames.
fn measure(w: f32, h: f32, scale: f32, sim: bool) -> (f32, Option<egui::Rect>) {
    let mut s = settings(Lang::En);
    s.display.scale = scale;
    let mut gui = start_with(s, |o| o.simulated_board = sim);
    // The harness's size is in points after the zoom (eframe divides the
    // window's pixels by the zoom factor, kittest does not): a window of
    // w x h pixels at text scale s is w/s x h/s points.
    gui.harness.set_size(egui::vec2(w, h) / scale);
    gui.harness.run();
    let first = gui.app().board_rect().expect("the board is drawn");
    let sim_first = gui.app().sim_board_rect();
    for frame in 0..5 {
        // A clock second: the repaint a running clock causes.
        gui.advance(1000);
        gui.harness.step();
        let now = gui.app().board_rect().expect("the board is drawn");
        assert_eq!(
            now, first,
            "{w}x{h} at {scale} (sim {sim}), frame {frame}: the board moved"
        );
        assert_eq!(gui.app().sim_board_rect(), sim_first, "sim board moved");
    }
    // Points to pixels: the zoom factor is the text scale.
    let window = egui::Rect::from_min_size(egui::Pos2::ZERO, egui::vec2(w, h) / scale);
    assert!(
        window.expand(0.5).contains_rect(first),
        "{w}x{h} at {scale}: board {first:?} leaves the window {window:?}"
    );
    if let Some(simr) = sim_first {
        assert!(
            !simr.intersects(first.shrink(0.5)),
            "{w}x{h} at {scale}: the simulated board {simr:?} covers the board {first:?}"
        );
    }
    assert!(sim == sim_first.is_some(), "simulated board shown: {sim}");
    (first.width() * 13.0 / 14.0 * scale, sim_first)
}

#[test]
fn the_board_keeps_60_percent_of_the_shorter_side_and_its_size() {
    let mut report = Vec::new();
    for (w, h) in SIZES {
        for scale in SCALES {
            for sim in [false, true] {
                let (side, _) = measure(w, h, scale, sim);
                let share = side / w.min(h);
                report.push(format!(
                    "{w}x{h} scale {scale} sim {sim}: board {side:.0} px ({:.0} %)",
                    share * 100.0
                ));
                assert!(
                    share >= 0.6,
                    "{w}x{h} at {scale} (sim {sim}): the board is {side} px, {:.0} % of {}",
                    share * 100.0,
                    w.min(h)
                );
            }
        }
    }
    println!("{}", report.join("\n"));
}

/// Every theme, with letter discs or piece shapes and with or without the
/// large square names, draws the same board in the same place (the options
/// change the drawing, never the layout), after a move (the last-move
/// marks drawn too).
#[test]
fn themes_and_piece_options_keep_the_board_in_place() {
    let mut rects = Vec::new();
    for theme in rochade::config::Theme::ALL {
        for letter_discs in [false, true] {
            for big_coordinates in [false, true] {
                let mut s = settings(Lang::En);
                s.display.theme = theme;
                s.display.letter_discs = letter_discs;
                s.display.big_coordinates = big_coordinates;
                let mut gui = start_with(s, |_| {});
                gui.harness.set_size(egui::vec2(1024.0, 600.0));
                gui.type_move("e4");
                gui.harness.run();
                assert_eq!(gui.app().session().record().moves().len(), 1);
                rects.push(gui.app().board_rect().expect("drawn"));
            }
        }
    }
    assert!(rects.windows(2).all(|w| w[0] == w[1]), "{rects:?}");
    assert_eq!(rects[0].width(), 600.0);
}
