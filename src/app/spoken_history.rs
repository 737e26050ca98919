//! The spoken history panel: what the app said, the newest line large
//! (a live region), the ones before it small.

use std::collections::VecDeque;

use egui::{RichText, Ui};

use super::layout::big;
use super::text::UiText;
use crate::words::Utterance;

/// How many lines before the newest one the panel shows.
const SHOWN: usize = 8;

/// How many lines the history keeps.
const KEPT: usize = 50;

/// What was said, newest last (the written form, for the screen).
#[derive(Default)]
pub struct SpokenHistory {
    lines: VecDeque<Utterance>,
}

impl SpokenHistory {
    /// Keeps a line said; the oldest go beyond [`KEPT`].
    pub fn push(&mut self, said: Utterance) {
        self.lines.push_back(said);
        while self.lines.len() > KEPT {
            self.lines.pop_front();
        }
    }

    /// The spoken form of every line kept, oldest first.
    pub fn spoken(&self) -> Vec<String> {
        self.lines.iter().map(|u| u.spoken.clone()).collect()
    }

    /// Draws the panel. `live`: the newest line is a live region (only
    /// when the screen reader is meant to speak; in self-voicing mode it
    /// would talk over the app's voice).
    pub fn ui(&self, ui: &mut Ui, t: &UiText, live: bool) {
        super::a11y::heading(ui, t.get("announcements"));
        let last = self
            .lines
            .back()
            .map(|u| u.spoken.clone())
            .unwrap_or_default();
        ui.label(RichText::new(t.get("last_announcement")).small());
        // The live region (not on AT-SPI, see `a11y`): a screen reader or
        // Braille display reads each new announcement without the focus
        // moving here.
        let response = ui.label(big(last, 24.0).strong());
        if super::a11y::LIVE_REGION && live {
            ui.ctx().accesskit_node_builder(response.id, |node| {
                node.set_live(egui::accesskit::Live::Polite);
                node.set_live_atomic();
            });
        }
        ui.label(RichText::new(t.get("history")).small());
        // One line each, cut at the column's edge: a long line said before
        // (a question) pushed the scoresheet below the window, out of sight
        // and out of a screen reader's flat review. The whole text stays
        // the label's accessible name.
        for u in self.lines.iter().rev().skip(1).take(SHOWN) {
            ui.add(egui::Label::new(&u.spoken).truncate());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_history_keeps_the_newest_lines_in_order() {
        let mut history = SpokenHistory::default();
        for i in 0..KEPT + 3 {
            history.push(Utterance::from(i.to_string().as_str()));
        }
        let spoken = history.spoken();
        assert_eq!(spoken.len(), KEPT);
        assert_eq!(spoken.first().map(String::as_str), Some("3"));
        assert_eq!(
            spoken.last().map(String::as_str),
            Some((KEPT + 2).to_string().as_str())
        );
    }
}
