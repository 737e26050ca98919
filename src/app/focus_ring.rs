//! A focus one can see (WCAG 2.4.7, 2.4.11): whatever has the keyboard
//! gets a ring drawn round it, and a control that takes the keyboard is
//! scrolled into view.
//!
//! Every widget of the palette's style has the same 2-point border in
//! every state (hovered, pressed, focused alike), so without a ring of its
//! own a check box or a button with the keyboard looked like any other.
//! The ring is the text colour (at least 4.5:1 against the background in
//! every theme, see [`super::palette::contrasts`]), [`RING_WIDTH`] wide,
//! with a gap of background between it and the widget's own border.

use egui::{Context, Id, Rect, Stroke, StrokeKind};

/// The ring's width in points (WCAG 2.4.11 asks for at least 2 CSS pixels).
pub const RING_WIDTH: f32 = 3.0;

/// The gap between a widget's edge and its ring, in points.
pub const RING_GAP: f32 = 2.0;

/// The ring round a focused widget whose rect is `rect`: its outline and
/// its stroke, in the text colour of `visuals`.
pub fn ring(rect: Rect, visuals: &egui::Visuals) -> (Rect, Stroke) {
    (
        rect.expand(RING_GAP),
        Stroke::new(RING_WIDTH, visuals.text_color()),
    )
}

/// Where the widget `id` is (this pass's rect, else the last pass's),
/// read without side effects: `Context::read_response` builds a response,
/// and during a click elsewhere that takes the keyboard from the widget
/// (a piece picked up by a click on the board was put back at once).
fn widget_rect(ctx: &Context, id: Id) -> Option<egui::WidgetRect> {
    ctx.viewport(|v| {
        v.this_pass
            .widgets
            .get(id)
            .filter(|w| w.rect.is_positive() && w.rect.is_finite())
            .or_else(|| v.prev_pass.widgets.get(id))
            .copied()
    })
}

/// Call once a frame, after every widget is built: draws the ring round
/// the widget that has the keyboard, on its own layer and inside the part
/// of it that is on screen (a widget scrolled away gets none).
pub fn draw(ctx: &Context) {
    let Some(id) = ctx.memory(|m| m.focused()) else {
        return;
    };
    let Some(response) = widget_rect(ctx, id) else {
        return;
    };
    if !response.interact_rect.is_positive() {
        return;
    }
    let visuals = ctx.global_style().visuals.clone();
    let (outline, stroke) = ring(response.rect, &visuals);
    // Clipped to where the widget can be seen (its scroll area), grown by
    // the ring so the ring itself is not cut off at the widget's edge.
    let clip = response.interact_rect.expand(RING_GAP + RING_WIDTH + 1.0);
    ctx.layer_painter(response.layer_id)
        .with_clip_rect(clip)
        .rect_stroke(outline, 2.0, stroke, StrokeKind::Outside);
}

/// Call at the start of a scroll area's contents: when the keyboard moved
/// to a widget of this area since the last frame (Tab, F10, a dialog's
/// first field), or the window changed its size (the move input was below
/// the fold after the window shrank), it is scrolled into view. `salt`
/// names the area.
pub fn scroll_focus_into_view(ui: &egui::Ui, salt: &str) {
    let focused = ui.memory(|m| m.focused());
    let size = ui.ctx().content_rect().size().round();
    let seen = Id::unique(("focus_ring_seen", salt));
    let before = ui.data_mut(|d| d.get_temp::<(Option<Id>, egui::Vec2)>(seen));
    ui.data_mut(|d| d.insert_temp(seen, (focused, size)));
    let Some(id) = focused else { return };
    if before == Some((Some(id), size)) {
        return;
    }
    let Some(response) = widget_rect(ui.ctx(), id) else {
        return;
    };
    // Only this area's widgets: the same layer, within its columns.
    let area = ui.max_rect();
    let inside = response.layer_id == ui.layer_id()
        && response.rect.center().x >= area.left()
        && response.rect.center().x <= area.right();
    if inside {
        ui.scroll_to_rect(response.rect.expand(RING_GAP + RING_WIDTH), None);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::palette;
    use crate::config::Theme;

    #[test]
    fn the_ring_is_wide_enough_and_contrasts_with_the_background() {
        for theme in Theme::ALL {
            let style = palette::style(theme, &egui::Style::default());
            let rect = Rect::from_min_size(egui::pos2(10.0, 10.0), egui::vec2(80.0, 20.0));
            let (outline, stroke) = ring(rect, &style.visuals);
            assert!(stroke.width >= 2.0);
            assert!(
                outline.contains_rect(rect) && outline != rect,
                "outside the widget"
            );
            let ground = style.visuals.panel_fill;
            let c = palette::contrast(stroke.color, ground);
            assert!(c >= 3.0, "{theme:?}: {c:.1}:1");
        }
    }
}
