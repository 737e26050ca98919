//! The scoresheet: the players and the moves, one line per move number,
//! read line by line with Up and Down.

use egui::Ui;

use super::focus::FocusTarget;
use super::layout::big;
use super::text::UiText;
use crate::chess::{GameRecord, Letters};

/// "1. e4 e5" rows, in the chosen piece letters, "(=)" after a move that
/// came with a draw offer.
pub fn scoresheet_rows(record: &GameRecord, letters: Letters) -> Vec<String> {
    let cell = |m: &crate::chess::RecordedMove| {
        let san = letters.localise_san(&m.san_string());
        if m.draw_offer {
            format!("{san} (=)")
        } else {
            san
        }
    };
    let mut rows: Vec<String> = record
        .rows()
        .into_iter()
        .map(|row| {
            let white = row.white.map_or_else(|| "...".to_owned(), cell);
            let black = row.black.map(cell).unwrap_or_default();
            format!("{}. {white} {black}", row.number)
                .trim_end()
                .to_owned()
        })
        .collect();
    if let Some(end) = record.end() {
        rows.push(end.result_str().to_owned());
    }
    rows
}

/// The scoresheet's state: whether a line has the keyboard.
#[derive(Default)]
pub struct Scoresheet {
    /// A line had the keyboard in the last frame (a question asked from
    /// there gives it back there).
    pub focused: bool,
    /// Frames the newest line was asked to take the keyboard.
    focus_tries: u8,
}

impl Scoresheet {
    /// Draws the scoresheet of `record`; the newest line takes the
    /// keyboard when `focus_request` asks for the scoresheet.
    pub fn ui(
        &mut self,
        ui: &mut Ui,
        t: &UiText,
        record: &GameRecord,
        letters: Letters,
        focus_request: &mut Option<FocusTarget>,
    ) {
        super::a11y::heading(ui, t.get("scoresheet"));
        let tags = &record.tags;
        ui.label(format!("{} - {}", tags.white, tags.black));
        let rows = scoresheet_rows(record, letters);
        if rows.is_empty() {
            ui.label(t.get("no_moves"));
        }
        let rows: Vec<egui::WidgetText> = rows
            .into_iter()
            .map(|row| big(row, 20.0).monospace().into())
            .collect();
        // Back from a question asked here: the newest line takes the
        // keyboard (asked again until it has it: the closing dialog may
        // hold it for a frame).
        let back = *focus_request == Some(FocusTarget::Scoresheet);
        self.focused =
            super::a11y::row_list_at(ui, "scoresheet", &rows, rows.len().saturating_sub(1), back);
        if back {
            self.focus_tries += 1;
            if self.focused || rows.is_empty() || self.focus_tries >= 3 {
                *focus_request = None;
                self.focus_tries = 0;
            } else {
                ui.ctx().request_repaint();
            }
        }
    }
}
