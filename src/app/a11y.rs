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
pub struct Pending(Vec<String>);

impl Pending {
    pub fn push(&mut self, text: &str) {
        if !text.trim().is_empty() {
            self.0.push(text.trim().to_owned());
        }
    }

    /// Forgets the last announcement: the screen reader presents the same
    /// words anyway (the focus moves to a board cell that says them).
    pub fn drop_last(&mut self) {
        self.0.pop();
    }

    /// What the next frame hands over: all pending words in one message
    /// (a move and "Schach" said together arrive together).
    pub fn take(&mut self) -> Option<String> {
        if self.0.is_empty() {
            return None;
        }
        let text = self.0.join(" ");
        self.0.clear();
        Some(text)
    }
}

/// Call at the end of a frame, after every widget is built: sets the
/// pending announcement as the focused widget's description on AT-SPI and
/// asks for another frame, which builds the node without it.
pub fn deliver(ctx: &Context, pending: &mut Pending) {
    let Some(text) = pending.take() else {
        return;
    };
    if LIVE_REGION {
        return;
    }
    let target = ctx
        .memory(|m| m.focused())
        .filter(|id| ctx.has_accesskit_node(*id))
        .unwrap_or_else(egui::accesskit_root_id);
    describe(ctx, target, text);
    ctx.request_repaint();
}

fn describe(ctx: &Context, id: Id, text: String) {
    ctx.accesskit_node_builder(id, |node| node.set_description(text));
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
}
