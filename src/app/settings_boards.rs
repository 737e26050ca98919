//! The settings dialog's boards: "My board" and "Opponent's board", each a
//! choice of make with its port, the peg-board's line settings, and "Find
//! boards" with the boards found.

use egui::Ui;

use super::settings_rows::number_row;
use super::text::UiText;
use crate::config::{BoardChoice, BoardOrientation, BoardSettings};

/// The ports being typed and the boards found, besides the settings.
pub struct BoardFields<'a> {
    /// The player's own board's port.
    pub port: &'a mut String,
    /// The opponent's board's port.
    pub opponent_port: &'a mut String,
    /// The boards the probes found, in words (empty: none yet).
    pub found: &'a [String],
    /// A probe is running.
    pub probing: bool,
}

/// Draws the boards' rows; true when "Find boards" was pressed.
pub(super) fn board_rows(
    ui: &mut Ui,
    t: &UiText,
    b: &mut BoardSettings,
    fields: BoardFields<'_>,
) -> bool {
    let mine = seat_choice(ui, t, "my_board", b.my_board(), &BoardChoice::MINE);
    if mine != b.my_board() {
        b.set_my_board(mine);
    }
    if mine != BoardChoice::Keyboard {
        super::a11y::text_row(ui, t.get("port"), fields.port);
    }
    if mine.knows_pieces() {
        let named: Vec<(BoardOrientation, String)> = BoardOrientation::ALL
            .iter()
            .map(|o| (*o, t.get(o.label_key())))
            .collect();
        let key = "board_orientation";
        super::a11y::choice(ui, key, &t.get(key), &mut b.orientation, &named);
    }
    if mine.peg_format().is_some() {
        let mut baud = u64::from(b.baud());
        number_row(ui, t.get("baud"), &mut baud, 1200..=1_000_000);
        // Left at the format's own rate, it stays "none" so that a later
        // change of format brings that format's rate.
        if baud != u64::from(b.baud()) {
            b.baud = Some(baud as u32);
        }
        number_row(ui, t.get("settle_ms"), &mut b.settle_ms, 0..=1000);
        number_row(ui, t.get("mismatch_ms"), &mut b.mismatch_ms, 0..=60_000);
    }
    let opponent = seat_choice(
        ui,
        t,
        "opponent_board",
        b.opponent_board(),
        &BoardChoice::OPPONENT,
    );
    if opponent != b.opponent_board() {
        b.set_opponent_board(opponent);
    }
    if opponent != BoardChoice::Keyboard {
        super::a11y::text_row(ui, t.get("opponent_port"), fields.opponent_port);
    }
    ui.label(t.get("port_hint"));
    let find = ui
        .add_enabled(!fields.probing, egui::Button::new(t.get("find_boards")))
        .clicked();
    if fields.probing {
        ui.label(t.get("boards_searching"));
    }
    if !fields.found.is_empty() {
        ui.label(t.get("boards_found"));
        for line in fields.found {
            super::a11y::read_only_text(ui, line.clone());
        }
    }
    find
}

/// A seat's board as a combo box labelled by the text `key` (also its id),
/// among `choices`; the board chosen comes back.
fn seat_choice(
    ui: &mut Ui,
    t: &UiText,
    key: &str,
    current: BoardChoice,
    choices: &[BoardChoice],
) -> BoardChoice {
    let named: Vec<(BoardChoice, String)> = choices
        .iter()
        .map(|c| (*c, t.get(&c.label_key())))
        .collect();
    let mut chosen = current;
    super::a11y::choice(ui, key, &t.get(key), &mut chosen, &named);
    chosen
}
