//! Where the parts of the window go, and the window's first size.
//!
//! The board comes first: [`split`] gives it a square from the window's
//! size alone (never from what the other parts needed last frame, so it
//! cannot shrink from one repaint to the next), at least [`MIN_SHARE`] of
//! the window's shorter side; everything else goes into one scrolling
//! column beside it (or below it in a tall window).

use egui::{Rect, RichText, Vec2, pos2};

/// Text at a size of its own (the side column's large print).
pub fn big(text: impl Into<String>, size: f32) -> RichText {
    RichText::new(text.into()).size(size)
}

/// The board's least share of the window's shorter side: its squares (13
/// fourteenths of it; the rest is the coordinates' margin) then keep
/// 61 %.
pub const MIN_SHARE: f32 = 0.66;

/// The side column's least width (or height below the board), in points.
pub const SIDE_MIN: f32 = 200.0;

/// The gap between the board and the column, in points.
pub const GAP: f32 = 8.0;

/// Where the board and the side column go.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Split {
    /// A square.
    pub board: Rect,
    pub side: Rect,
}

/// The board's square and the column's rect in `area`, from its size
/// alone: the board as large as leaves the column [`SIDE_MIN`], but never
/// less than [`MIN_SHARE`] of the shorter side. A wide area puts the
/// column right of the board, a tall one below it.
pub fn split(area: Rect) -> Split {
    let (w, h) = (area.width().max(0.0), area.height().max(0.0));
    let short = w.min(h);
    let long = w.max(h);
    let side = (short.min(long - SIDE_MIN - GAP))
        .max(short * MIN_SHARE)
        .floor();
    let board = Rect::from_min_size(area.min, Vec2::splat(side));
    let rest = if w >= h {
        Rect::from_min_max(pos2(board.max.x + GAP, area.min.y), area.max)
    } else {
        Rect::from_min_max(pos2(area.min.x, board.max.y + GAP), area.max)
    };
    Split { board, side: rest }
}

/// Text that takes at most `rows` lines of the width it has, cut with
/// "…" after them (an error filled the whole column of a small window);
/// the whole text is its accessible name and its hover text. Whether it
/// was cut comes back with it.
pub fn clamped_label(
    ui: &mut egui::Ui,
    text: &str,
    size: f32,
    colour: egui::Color32,
    rows: usize,
) -> (egui::Response, bool) {
    let mut job = egui::text::LayoutJob::single_section(
        text.to_owned(),
        egui::TextFormat::simple(egui::FontId::proportional(size), colour),
    );
    job.wrap = egui::text::TextWrapping {
        max_width: ui.available_width().max(50.0),
        max_rows: rows,
        break_anywhere: false,
        overflow_character: Some('…'),
    };
    let galley = ui.ctx().fonts_mut(|f| f.layout_job(job));
    let cut = galley.elided;
    let response = ui.add(egui::Label::new(galley));
    response.widget_info(|| egui::WidgetInfo::labeled(egui::accesskit::Role::Label, true, text));
    if cut {
        (response.on_hover_text(text), true)
    } else {
        (response, false)
    }
}

/// The most lines an error or a note at the top of the column takes.
pub const ERROR_ROWS: usize = 3;

/// A dialog's width: `wanted`, but never wider than the window less a
/// margin (the resume dialog was wider than a 1024x600 window at text
/// size 2, its text cut at both sides).
pub fn dialog_width(ctx: &egui::Context, wanted: f32) -> f32 {
    wanted
        .min(ctx.content_rect().width() - 2.0 * DIALOG_MARGIN)
        .max(100.0)
}

/// A dialog's greatest height: the window's less a margin (it scrolls
/// inside).
pub fn dialog_height(ctx: &egui::Context) -> f32 {
    (ctx.content_rect().height() - 2.0 * DIALOG_MARGIN - 40.0).max(100.0)
}

/// Between a dialog and the window's edge, in points.
pub const DIALOG_MARGIN: f32 = 12.0;

/// The window's first size, in points: 1280x800 less room for a panel
/// and the title bar; [`fit_to_screen`] shrinks it on a smaller screen.
pub const FIRST_SIZE: [f32; 2] = [1150.0, 700.0];

/// The window's size for a screen of `monitor` points, if the window of
/// `window` points does not fit it: 90 % of the screen each way.
pub fn fitted(window: Vec2, monitor: Vec2) -> Option<Vec2> {
    let room = monitor * 0.9;
    (window.x > room.x || window.y > room.y).then(|| window.min(room))
}

/// Once the screen's size is known (the first frames), makes a window
/// larger than its screen fit it. `done` remembers that it was checked.
pub fn fit_to_screen(ctx: &egui::Context, done: &mut bool) {
    if *done {
        return;
    }
    let (monitor, inner) = ctx.input(|i| {
        let v = i.viewport();
        (v.monitor_size, v.inner_rect.map(|r| r.size()))
    });
    let (Some(monitor), Some(inner)) = (monitor, inner) else {
        return;
    };
    *done = true;
    if let Some(size) = fitted(inner, monitor) {
        ctx.send_viewport_cmd(egui::ViewportCommand::InnerSize(size));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The window sizes and text scales the issue names, in points.
    fn areas() -> Vec<(f32, f32, f32)> {
        let mut out = Vec::new();
        for (w, h) in [
            (1024.0, 600.0),
            (1280.0, 800.0),
            (1920.0, 1080.0),
            (600.0, 1024.0),
        ] {
            for scale in [1.0, 2.0, 4.0] {
                out.push((w, h, scale));
            }
        }
        out
    }

    #[test]
    fn the_board_keeps_its_share_and_the_column_does_not_overlap_it() {
        for (w, h, scale) in areas() {
            let area = Rect::from_min_size(pos2(0.0, 30.0), Vec2::new(w / scale, h / scale));
            let s = split(area);
            let short = area.width().min(area.height());
            assert_eq!(s.board.width(), s.board.height(), "square");
            assert!(
                s.board.width() >= (short * MIN_SHARE).floor(),
                "{w}x{h} at {scale}: {} of {short}",
                s.board.width()
            );
            assert!(area.contains_rect(s.board), "{w}x{h} at {scale}");
            assert!(
                !s.board.intersects(s.side.shrink(0.5)),
                "{w}x{h} at {scale}"
            );
            assert!(s.side.width() > 0.0 && s.side.height() > 0.0);
            assert_eq!(split(area), s, "the same area, the same split");
        }
    }

    #[test]
    fn the_first_size_fits_a_1280x800_screen_and_shrinks_on_a_smaller_one() {
        let first = Vec2::from(FIRST_SIZE);
        assert_eq!(fitted(first, Vec2::new(1280.0, 800.0)), None);
        assert_eq!(fitted(first, Vec2::new(1920.0, 1080.0)), None);
        let small = fitted(first, Vec2::new(1024.0, 600.0)).expect("shrinks");
        assert!(small.x <= 1024.0 * 0.9 && small.y <= 600.0 * 0.9);
    }
}
