//! The simulated peg-board inside the app, for trying the whole flow
//! without hardware: click a peg to lift it, click an empty hole to put it
//! down (or walk it with arrow keys and press Enter). Its wire bytes go
//! through the real decoder, so the session sees exactly what a board sends.

use shakmaty::Square;

use super::{RochadeApp, UiText};
use crate::board::sim::{SimBoard, SimCommand, SimStep};
use crate::board::{Decoder, Format, HostCommand, PegMessage};
use crate::config::DisplaySettings;
use crate::words::Pack;

/// The simulated board and its decoder.
pub struct SimPanel {
    board: SimBoard,
    decoder: Decoder,
    pub cursor: Square,
    /// The last thing the simulator refused ("e4 is occupied").
    pub error: Option<String>,
    /// Its board's view state.
    view: super::board_view::BoardView,
}

impl Default for SimPanel {
    fn default() -> Self {
        SimPanel::new()
    }
}

impl SimPanel {
    /// The pegs standing on the simulated board, as a board.
    pub fn pegs(&self) -> shakmaty::Board {
        let mut board = shakmaty::Board::empty();
        for (sq, piece) in Square::ALL.into_iter().zip(self.board.pieces()) {
            if let Some(p) = piece {
                board.set_piece_at(sq, *p);
            }
        }
        board
    }

    /// The name the link status shows.
    pub const PORT: &'static str = "simulated";

    pub fn new() -> SimPanel {
        SimPanel {
            board: SimBoard::new(Format::Peg),
            decoder: Decoder::new(Format::Peg),
            cursor: Square::E2,
            error: None,
            view: super::board_view::BoardView::new("sim_board"),
        }
    }

    /// Sets up the start position again (a new game), the hand empty.
    pub fn set_up_again(&mut self) {
        self.board = SimBoard::new(self.board.format());
        self.error = None;
    }

    /// Where its board was drawn last.
    pub fn view_rect(&self) -> Option<egui::Rect> {
        self.view.rect
    }

    pub fn board(&self) -> &SimBoard {
        &self.board
    }

    pub fn format(&self) -> Format {
        self.board.format()
    }

    pub fn lines_dropped(&self) -> u64 {
        self.decoder.stats().dropped()
    }

    fn decode(&mut self, steps: Vec<SimStep>) -> Vec<PegMessage> {
        let mut out = Vec::new();
        for step in steps {
            // Pauses only matter in real time; each click is its own step.
            if let SimStep::Send(bytes) = step {
                out.extend(self.decoder.push_collect(&bytes));
            }
        }
        out
    }

    /// Lift the peg on `sq`, or put the peg in the hand into `sq`.
    pub fn press(&mut self, sq: Square) -> Vec<PegMessage> {
        self.cursor = sq;
        let occupied = self.board.pieces()[usize::from(sq)].is_some();
        let cmd = if occupied && self.board.hand().is_empty() {
            SimCommand::Lift(sq)
        } else if occupied {
            // A capture: the captured peg comes out; the hand keeps the mover.
            SimCommand::Lift(sq)
        } else {
            SimCommand::Place(sq)
        };
        match self.board.apply(&cmd) {
            Ok(steps) => {
                self.error = None;
                self.decode(steps)
            }
            Err(e) => {
                self.error = Some(e.to_string());
                Vec::new()
            }
        }
    }

    /// The board's answer to a host command (a snapshot request).
    pub fn answer(&mut self, cmd: HostCommand) -> Vec<PegMessage> {
        match self.board.answer(cmd.line()) {
            Some(bytes) => self.decode(vec![SimStep::Send(bytes)]),
            None => Vec::new(),
        }
    }
}

/// What was done on the simulated board in a frame.
#[derive(Default)]
pub struct SimOutcome {
    /// A square reached by an arrow key (and whether the cursor moved).
    pub walked: Option<(Square, bool)>,
    /// A square clicked, or Enter on it: a peg lifted or put down there.
    pub pressed: Option<Square>,
}

impl SimPanel {
    /// Draws the simulated board (its heading, the pegs in hand, the last
    /// refusal, the board) as wide as `ui`; the squares are named in the
    /// words of `pack`. What was done comes back, to be carried out.
    pub fn ui(
        &mut self,
        ui: &mut egui::Ui,
        t: &UiText,
        pack: &Pack,
        flipped: bool,
        display: &DisplaySettings,
    ) -> SimOutcome {
        let title = t.get("sim_board");
        let hint = t.get("sim_board_hint");
        let hand_label = t.get("sim_hand");
        let mut outcome = SimOutcome::default();
        super::a11y::heading(ui, &title);
        ui.label(&hint);
        let hand: Vec<String> = self
            .board
            .hand()
            .iter()
            .map(|p| p.char().to_string())
            .collect();
        ui.label(format!(
            "{hand_label}: {}",
            if hand.is_empty() {
                "-".into()
            } else {
                hand.join(" ")
            }
        ));
        if let Some(e) = &self.error {
            ui.label(egui::RichText::new(e).strong());
        }
        let size = ui.available_width().max(120.0);
        let pieces = *self.board.pieces();
        let pegs = self.pegs();
        let cell_names: [String; 64] = std::array::from_fn(|i| {
            super::browse::square(pack, &pegs, shakmaty::Square::ALL[i]).spoken
        });
        let value = format!("{}", self.cursor);
        let out = self.view.ui(
            ui,
            super::board_view::BoardInput {
                label: &title,
                value: &value,
                size,
                pieces: &pieces,
                cursor: self.cursor,
                selected: None,
                differs: 0,
                last_move: None,
                flipped,
                theme: display.theme,
                letters: crate::chess::Letters::En,
                letter_discs: display.letter_discs,
                big_coordinates: display.big_coordinates,
                cell_names: &cell_names,
            },
        );
        if let Some(sq) = out.clicked {
            outcome.pressed = Some(sq);
        }
        if out.focused {
            for key in super::keys::board_keys(ui.ctx()) {
                match key {
                    super::keys::BoardKey::Step(df, dr) => {
                        let before = self.cursor;
                        self.cursor = super::keys::step(before, df, dr, flipped);
                        outcome.walked = Some((self.cursor, before != self.cursor));
                    }
                    super::keys::BoardKey::Pick | super::keys::BoardKey::SayAgain => {
                        outcome.pressed = Some(self.cursor)
                    }
                    _ => {}
                }
            }
        }
        outcome
    }
}

/// The simulated board, in the side column (never in the main board's
/// space), as wide as the column; a square walked to is said, a press
/// lifts or places a peg.
pub fn show(app: &mut RochadeApp, ui: &mut egui::Ui) {
    let t = app.window.ui.clone();
    let flipped = app.flipped();
    let display = app.settings.display.clone();
    let pack = app.session.pack().clone();
    let Some(sim) = app.panels.sim.as_mut() else {
        return;
    };
    let outcome = sim.ui(ui, &t, &pack, flipped, &display);
    if let Some((sq, moved)) = outcome.walked {
        let board = app
            .panels
            .sim
            .as_ref()
            .map_or_else(shakmaty::Board::empty, SimPanel::pegs);
        app.speak_sim_square(&board, sq, moved);
    }
    if let Some(sq) = outcome.pressed {
        app.sim_press(sq);
    }
}
