//! How announcements reach a screen reader and its Braille display.
//!
//! Every screen reader presents what happens to the object that has the
//! focus. Orca 43 (Debian 12) has no listener for AccessKit's live-region
//! `object:announcement` and ignores name changes of labels, but it speaks
//! and brailles a change of the focused object's description
//! (`object:property-change:accessible-description`, `presentMessage`).
//! So on AT-SPI each announcement is set, for one frame, as the
//! description of the focused widget (or of the window when nothing has
//! the keyboard) and then taken away again: the next focus change does not
//! repeat an old announcement, and the same words said twice are presented
//! twice. The live region stays for UI Automation (NVDA, JAWS, Narrator)
//! and macOS; on AT-SPI it is off, so a newer Orca that listens to
//! `object:announcement` does not hear each move twice.

use egui::{Context, Id};

/// Whether the announcement label is a live region on this platform.
pub const LIVE_REGION: bool = !cfg!(target_os = "linux");

/// The role of the board (the container of the 64 cells). On AT-SPI a
/// grid offers selection, so Orca adds "not selected" to every cell it
/// reads; a list does not, and its items are read by name alone. UI
/// Automation and macOS get a real grid.
pub const BOARD_ROLE: egui::accesskit::Role = if cfg!(target_os = "linux") {
    egui::accesskit::Role::List
} else {
    egui::accesskit::Role::Grid
};

/// The role of a board square's cell. AccessKit gives AT-SPI grids no
/// `Table` interface, and without it Orca 43 brailles a table cell as
/// nothing; a list item it speaks and brailles by name. UI Automation and
/// macOS get real grid cells (with row and column index).
pub const CELL_ROLE: egui::accesskit::Role = if cfg!(target_os = "linux") {
    egui::accesskit::Role::ListItem
} else {
    egui::accesskit::Role::GridCell
};

/// Announcements said since the last frame, waiting to be handed to the
/// accessibility tree.
#[derive(Default, Debug)]
pub struct Pending(Vec<String>, usize);

impl Pending {
    pub fn push(&mut self, text: &str) {
        if !text.trim().is_empty() {
            self.0.push(text.trim().to_owned());
        }
    }

    /// A move's words: before any other words still waiting (after the
    /// moves already there), so a Braille line shows the move first (a
    /// 40-cell display showed the start of the screen-reader offer, the
    /// move said with it far out of view).
    pub fn push_move(&mut self, text: &str) {
        if !text.trim().is_empty() {
            let at = self.1.min(self.0.len());
            self.0.insert(at, text.trim().to_owned());
            self.1 = at + 1;
        }
    }

    /// Where the announcements end now, for [`Pending::truncate`].
    pub fn mark(&self) -> usize {
        self.0.len()
    }

    /// Forgets the announcements since `mark`: the screen reader presents
    /// the same words anyway (the focus moves to what says them).
    pub fn truncate(&mut self, mark: usize) {
        self.0.truncate(mark);
        self.1 = self.1.min(mark);
    }

    /// Forgets the newest announcement with these words, when the screen
    /// reader gets them another way (a dialog that takes the focus).
    pub fn forget(&mut self, text: &str) {
        if let Some(i) = self.0.iter().rposition(|t| t == text.trim()) {
            self.0.remove(i);
            if i < self.1 {
                self.1 -= 1;
            }
        }
    }

    /// What the next frame hands over: all pending words in one message
    /// (a move and "Schach" said together arrive together).
    pub fn take(&mut self) -> Option<String> {
        if self.0.is_empty() {
            return None;
        }
        let text = self.0.join(" ");
        self.0.clear();
        self.1 = 0;
        Some(text)
    }
}

/// Words a widget wants said to the screen reader at the end of this frame
/// (a choice's new value), picked up by [`deliver`].
pub(super) fn say_soon(ctx: &Context, text: &str) {
    let id = Id::unique("a11y_say_soon");
    ctx.data_mut(|d| {
        d.get_temp_mut_or_default::<Vec<String>>(id)
            .push(text.to_owned())
    });
}

/// Call at the end of a frame, after every widget is built: sets the
/// pending announcement as the focused widget's description on AT-SPI and
/// asks for another frame, which builds the node without it. `hold`: the
/// focused widget's text changed in this frame, so the words wait a frame
/// (a screen reader re-presents an entry whose text or caret changed, and
/// that would push the words off the Braille line at once).
pub fn deliver(ctx: &Context, pending: &mut Pending, hold: bool) {
    let focused = ctx.memory(|m| m.focused());
    // When the focus moved in this frame, the words wait one frame: a
    // screen reader takes the focus change after the description change
    // of the same update, and drops words said to an object that does not
    // have its focus yet.
    let last_focus = Id::unique("a11y_last_focus");
    let said: Vec<String> = ctx.data_mut(|d| {
        d.remove_temp(Id::unique("a11y_say_soon"))
            .unwrap_or_default()
    });
    for text in &said {
        pending.push(text);
    }
    let moved = ctx.data_mut(|d| {
        let before = d.get_temp::<Option<Id>>(last_focus);
        d.insert_temp(last_focus, focused);
        before != Some(focused)
    });
    if pending.0.is_empty() {
        return;
    }
    if (moved || hold) && !LIVE_REGION {
        ctx.request_repaint();
        return;
    }
    let Some(text) = pending.take() else {
        return;
    };
    if LIVE_REGION {
        return;
    }
    let target = focused
        .filter(|id| ctx.has_accesskit_node(*id))
        .unwrap_or_else(egui::accesskit_root_id);
    describe(ctx, target, text);
    ctx.request_repaint();
}

/// A heading a screen reader announces as one (level 2: the window title
/// is the top).
pub fn heading(ui: &mut egui::Ui, text: impl Into<egui::RichText>) -> egui::Response {
    let r = ui.heading(text);
    ui.ctx().accesskit_node_builder(r.id, |node| {
        node.set_role(egui::accesskit::Role::Heading);
        // A label's words are its value; a heading is read by its name.
        if let Some(value) = node.value().map(str::to_owned) {
            node.set_label(value);
            node.clear_value();
        }
        node.set_level(2);
    });
    r
}

/// Text a screen-reader user can Tab to and have read (clocks, side to
/// move, connection status): a label that takes the keyboard focus.
pub fn read_only_text(ui: &mut egui::Ui, text: impl Into<egui::WidgetText>) -> egui::Response {
    ui.add(egui::Label::new(text).sense(egui::Sense::FOCUSABLE))
}

/// Rows a screen reader reads line by line (the scoresheet, the help): one
/// list item per row, a roving focus (Tab enters on row `enter_at`, Up and
/// Down move the focus row by row, Page Up and Page Down by
/// [`ROWS_PER_PAGE`], Home and End to the first and last; the row with the
/// keyboard is scrolled into view; Tab leaves). Long rows wrap. `take_focus` puts the
/// keyboard there now (a document that opens, such as the help). Returns
/// whether a row has the keyboard (a window's first, invisible frame takes
/// none).
pub fn row_list_at(
    ui: &mut egui::Ui,
    salt: &str,
    rows: &[egui::WidgetText],
    enter_at: usize,
    take_focus: bool,
) -> bool {
    if rows.is_empty() {
        return false;
    }
    let row_id = |i: usize| Id::unique((salt, "row", i));
    let focused = ui
        .memory(|m| m.focused())
        .and_then(|f| (0..rows.len()).find(|&i| row_id(i) == f));
    let mut target = focused.unwrap_or(enter_at.min(rows.len() - 1));
    if take_focus {
        ui.memory_mut(|m| m.request_focus(row_id(target)));
    }
    let mut moved = take_focus;
    if focused.is_some() {
        target = row_keys(ui, target, rows.len() - 1);
        if Some(target) != focused {
            ui.memory_mut(|m| m.request_focus(row_id(target)));
            moved = true;
        }
    }
    let wrap_width = ui.available_width().max(50.0);
    let mut has_focus = false;
    for (i, row) in rows.iter().enumerate() {
        let sense = if i == target {
            egui::Sense::FOCUSABLE
        } else {
            egui::Sense::hover()
        };
        let galley = row.clone().into_galley(
            ui,
            Some(egui::TextWrapMode::Wrap),
            wrap_width,
            egui::TextStyle::Body,
        );
        let (rect, _) = ui.allocate_exact_size(galley.size(), egui::Sense::hover());
        let r = ui.interact(rect, row_id(i), sense);
        if moved && i == target {
            ui.scroll_to_rect(rect.expand(4.0), None);
        }
        let colour = ui.visuals().text_color();
        if r.has_focus() {
            ui.painter().rect_stroke(
                rect.expand(2.0),
                0.0,
                ui.visuals().selection.stroke,
                egui::StrokeKind::Outside,
            );
        }
        ui.painter().galley(rect.min, galley, colour);
        let name = row.text().to_owned();
        r.widget_info(|| egui::WidgetInfo::labeled(egui::accesskit::Role::ListItem, true, &name));
        if r.has_focus() {
            has_focus = true;
            keep_up_down(ui, r.id);
        }
    }
    has_focus
}

/// Names the window for a screen reader and gives it its bounds: without
/// them the window has no on-screen extent, and a screen reader's flat
/// review (Orca's keypad) finds nothing in it. True when the name changed
/// in this frame: Orca presents the renamed window again and cuts off
/// words said with it, so they wait a frame (see [`deliver`]).
pub fn name_window(ctx: &Context, name: &str) -> bool {
    let last = Id::unique("a11y_window_name");
    let renamed = ctx.data_mut(|d| {
        let changed = d.get_temp::<String>(last).as_deref() != Some(name);
        if changed {
            d.insert_temp(last, name.to_owned());
        }
        changed
    });
    let rect = ctx.content_rect();
    ctx.accesskit_node_builder(egui::accesskit_root_id(), |node| {
        node.set_label(name);
        node.set_bounds(egui::accesskit::Rect {
            x0: rect.min.x.into(),
            y0: rect.min.y.into(),
            x1: rect.max.x.into(),
            y1: rect.max.y.into(),
        });
    });
    renamed
}

/// Up and Down stay with the focused widget `id` (it moves within itself:
/// rows, a choice's values) instead of moving the focus to a neighbour.
fn keep_up_down(ui: &egui::Ui, id: Id) {
    ui.memory_mut(|m| {
        m.set_focus_lock_filter(
            id,
            egui::EventFilter {
                vertical_arrows: true,
                ..Default::default()
            },
        )
    });
}

/// How far Page Up and Page Down move in a row list.
pub const ROWS_PER_PAGE: usize = 10;

/// The row a list's keys move to from `at` (of rows 0..=`last`): Up,
/// Down, Page Up, Page Down, Home, End pressed this frame, taken out of
/// the input.
fn row_keys(ui: &egui::Ui, at: usize, last: usize) -> usize {
    use egui::Key;
    let mut to = at;
    ui.input_mut(|i| {
        let mut take = |key| i.consume_key(egui::Modifiers::NONE, key);
        if take(Key::ArrowUp) {
            to = to.saturating_sub(1);
        }
        if take(Key::ArrowDown) {
            to = (to + 1).min(last);
        }
        if take(Key::PageUp) {
            to = to.saturating_sub(ROWS_PER_PAGE);
        }
        if take(Key::PageDown) {
            to = (to + ROWS_PER_PAGE).min(last);
        }
        if take(Key::Home) {
            to = 0;
        }
        if take(Key::End) {
            to = last;
        }
    });
    to
}

/// Up and Down pressed this frame, taken out of the input.
fn up_down(ui: &egui::Ui) -> (bool, bool) {
    ui.input_mut(|i| {
        (
            i.consume_key(egui::Modifiers::NONE, egui::Key::ArrowUp),
            i.consume_key(egui::Modifiers::NONE, egui::Key::ArrowDown),
        )
    })
}

fn describe(ctx: &Context, id: Id, text: String) {
    ctx.accesskit_node_builder(id, |node| node.set_description(text));
}

/// The accessible name of a choice (combo box) whose value is `value`. On
/// AT-SPI a combo box's value is not exposed (Orca said "Who speaks combo
/// box." and nothing more), so the value is part of the name there (Orca
/// reads it on focus; a change of value is said as an announcement, since
/// Orca 43 ignores the name change). UI Automation and macOS read the
/// value itself.
pub fn choice_name(label: &str, value: &str) -> String {
    if cfg!(target_os = "linux") {
        format!("{label}: {value}")
    } else {
        label.to_owned()
    }
}

/// A labelled choice among `options` (value, words shown): a combo box
/// whose list opens with Space or a click, and whose value Up and Down
/// change while it has the keyboard (as a desktop combo box does), each
/// change spoken by the screen reader.
pub fn choice<T: PartialEq + Clone>(
    ui: &mut egui::Ui,
    id_salt: &str,
    label: &str,
    value: &mut T,
    options: &[(T, String)],
) -> egui::Response {
    ui.horizontal(|ui| {
        let l = ui.label(label);
        let at = options.iter().position(|(v, _)| v == value);
        let shown = at.map_or_else(String::new, |i| options[i].1.clone());
        let inner = egui::ComboBox::from_id_salt(id_salt)
            .selected_text(shown.as_str())
            .height(400.0)
            .show_ui(ui, |ui| {
                for (v, text) in options {
                    ui.selectable_value(value, v.clone(), text);
                }
            });
        let r = inner.response;
        let open = inner.inner.is_some();
        let open_id = r.id.with("list_open");
        let was_open = ui.data(|d| d.get_temp::<bool>(open_id).unwrap_or(false));
        ui.data_mut(|d| d.insert_temp(open_id, open));
        if open && !was_open {
            // The list opened (Space or a click): its choices are said, and
            // Up and Down still choose.
            let all: Vec<&str> = options.iter().map(|(_, t)| t.as_str()).collect();
            say_soon(ui.ctx(), &all.join(", "));
        }
        // Escape closing the list leaves the keyboard on the combo box
        // (egui let it go, and the dialog had nothing focused); when it
        // never left, the choice and its value are said again, as the
        // screen reader says them when the focus comes back.
        let closed = was_open && !open;
        let refocus = closed && ui.memory(|m| m.focused().is_none());
        if refocus {
            r.request_focus();
        }
        if r.has_focus() && !options.is_empty() {
            keep_up_down(ui, r.id);
            let (up, down) = up_down(ui);
            let last = options.len() - 1;
            let next = match (at, up, down) {
                (Some(i), true, false) => Some(i.saturating_sub(1)),
                (Some(i), false, true) => Some((i + 1).min(last)),
                (None, true, false) | (None, false, true) => Some(0),
                _ => None,
            };
            if let Some(i) = next {
                *value = options[i].0.clone();
                // Said through the focused widget, as every announcement
                // (Orca 43 ignores the name change of a focused combo box).
                say_soon(ui.ctx(), &options[i].1);
                ui.ctx().request_repaint();
            }
        }
        let now = options
            .iter()
            .find(|(v, _)| v == value)
            .map_or(shown, |(_, text)| text.clone());
        let name = choice_name(label, &now);
        if closed && !refocus {
            say_soon(ui.ctx(), &name);
        }
        if cfg!(target_os = "linux") {
            ui.ctx()
                .accesskit_node_builder(r.id, |node| node.set_label(name));
            r
        } else {
            r.labelled_by(l.id)
        }
    })
    .inner
}

/// In a menu's contents, after its first item: the first item takes the
/// keyboard when the menu opens (Space or Enter on its button), so its
/// items are read and walked with Tab or the arrows (the menu opened
/// silently and the keyboard stayed on the button).
pub fn focus_first_item_on_open(ui: &egui::Ui, menu: &str, first: &egui::Response) {
    let id = Id::unique(("menu_drawn", menu));
    let pass = ui.ctx().cumulative_pass_nr();
    let last = ui.data(|d| d.get_temp::<u64>(id));
    ui.data_mut(|d| d.insert_temp(id, pass));
    if last.is_none_or(|l| l + 1 < pass) {
        first.request_focus();
    }
}

/// A labelled one-line text field: the label names the field for a screen
/// reader (`labelled_by`).
///
/// Enter in it does what Enter does in a dialog, save or connect (see
/// [`entered_field`]).
pub(super) fn text_row(ui: &mut egui::Ui, label: String, value: &mut String) {
    ui.horizontal(|ui| {
        let l = ui.label(label);
        let field = entering_field(egui::TextEdit::singleline(value));
        let r = ui.add(field).labelled_by(l.id);
        note_enter(ui, &r);
    });
}

/// A one-line field of a dialog that keeps the keyboard on Enter (egui's
/// field gives it up: the focus ring vanished and the next Tab went back
/// to the dialog's first control); [`note_enter`] after adding it.
pub(super) fn entering_field(field: egui::TextEdit<'_>) -> egui::TextEdit<'_> {
    field.return_key(None)
}

/// Id of the frame's note that Enter was pressed in a dialog's field.
fn enter_note() -> egui::Id {
    egui::Id::unique("enter_in_dialog_field")
}

/// Enter pressed in this field (built with [`entering_field`]): noted for
/// the dialog, which saves or connects ([`entered_field`]).
pub(super) fn note_enter(ui: &egui::Ui, field: &egui::Response) {
    if field.has_focus() && ui.input_mut(|i| i.consume_key(egui::Modifiers::NONE, egui::Key::Enter))
    {
        ui.ctx().data_mut(|d| d.insert_temp(enter_note(), true));
    }
}

/// Whether Enter was pressed in one of the dialog's fields in this frame
/// (the note is taken).
pub(super) fn entered_field(ctx: &egui::Context) -> bool {
    ctx.data_mut(|d| d.remove_temp::<bool>(enter_note()))
        .unwrap_or(false)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pending_words_arrive_together_once() {
        let mut p = Pending::default();
        assert_eq!(p.take(), None);
        p.push("Eva zwei Eva vier");
        p.push("  ");
        p.push("Schach");
        assert_eq!(p.take().as_deref(), Some("Eva zwei Eva vier Schach"));
        assert_eq!(p.take(), None);
    }

    #[test]
    fn moves_come_first_in_the_order_they_were_played() {
        let mut p = Pending::default();
        p.push("A screen reader is running. Let it speak the moves?");
        p.push_move("Eva vier");
        p.push_move("Eva fuenf");
        p.push("Schach");
        assert_eq!(
            p.take().as_deref(),
            Some("Eva vier Eva fuenf A screen reader is running. Let it speak the moves? Schach")
        );
        p.push_move("Springer Felix drei");
        assert_eq!(p.take().as_deref(), Some("Springer Felix drei"));
    }
}
