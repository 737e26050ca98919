//! The game's board panel: the keyboard cursor, the piece picked up,
//! whether the board has the keyboard, and its view. It draws the game
//! from the session it is given and hands back what the user asked for
//! ([`BoardRequest`]); the app carries that out (speech, moves).

use egui::Ui;
use shakmaty::{Position, Square};

use super::board_view::{BOARD_ID, BoardInput, BoardView, move_squares};
use super::focus::FocusTarget;
use super::keys::{BoardKey, board_keys};
use super::text::UiText;
use crate::config::DisplaySettings;
use crate::session::Session;
use rochade_core::browse;

/// What the user asked of the board in a frame, in order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BoardRequest {
    /// The keyboard left the board with a piece lifted: it goes back (a
    /// later Enter must never finish a move the user has left behind).
    PutBack,
    /// A square clicked: pick up, or play the picked piece there.
    Pick(Square),
    /// A key pressed while the board has the keyboard.
    Key(BoardKey),
}

/// The main board's own state.
pub struct BoardPanel {
    view: BoardView,
    /// The square the keyboard cursor is on.
    pub cursor: Square,
    /// A piece picked up by click or Enter, waiting for its target square.
    pub selected: Option<Square>,
    /// The board had the keyboard in the last frame.
    pub focused: bool,
}

impl Default for BoardPanel {
    fn default() -> Self {
        BoardPanel {
            view: BoardView::new(BOARD_ID),
            cursor: Square::E2,
            selected: None,
            focused: false,
        }
    }
}

impl BoardPanel {
    /// Where the board was drawn last (for tests and measurements).
    pub fn rect(&self) -> Option<egui::Rect> {
        self.view.rect
    }

    /// Draws the game of `session`, filling `ui` (the square
    /// [`super::layout::split`] made). The board takes the keyboard when
    /// `focus_request` asks for it; Tab from it asks for the menus.
    pub fn ui(
        &mut self,
        ui: &mut Ui,
        t: &UiText,
        session: &Session,
        display: &DisplaySettings,
        focus_request: &mut Option<FocusTarget>,
    ) -> Vec<BoardRequest> {
        let size = ui.available_width().min(ui.available_height()).max(80.0);
        let position = session.record().position();
        let board = position.board().clone();
        let mut pieces = [None; 64];
        for sq in Square::ALL {
            pieces[usize::from(sq)] = board.piece_at(sq);
        }
        let value = browse::square(session.pack(), &board, self.cursor).spoken;
        let cell_names: [String; 64] =
            std::array::from_fn(|i| browse::square(session.pack(), &board, Square::ALL[i]).spoken);
        let last_move = session
            .record()
            .last_move()
            .and_then(|m| move_squares(&m.mv));
        let input = BoardInput {
            label: &t.get("board"),
            value: &value,
            size,
            pieces: &pieces,
            cursor: self.cursor,
            selected: self.selected,
            differs: session.board_state().difference(position).0,
            last_move,
            flipped: session.config().blind_side == shakmaty::Color::Black,
            theme: display.theme,
            letters: session.config().letters,
            letter_discs: display.letter_discs,
            big_coordinates: display.big_coordinates,
            cell_names: &cell_names,
        };
        let out = self.view.ui(ui, input);
        // No hover text: resting the mouse on the board put one over its
        // first rank and file letters (the keys are in F1 and the docs).
        if *focus_request == Some(FocusTarget::Board) {
            out.cell.request_focus();
            *focus_request = None;
        }
        let left_board = self.focused && !out.focused && focus_request.is_none();
        self.focused = out.focused;
        let mut requests = Vec::new();
        if left_board {
            requests.push(BoardRequest::PutBack);
        }
        if let Some(sq) = out.clicked {
            requests.push(BoardRequest::Pick(sq));
        }
        // The board is the last stop of Tab: the next Tab goes round to the
        // menus (it went to the bare window, "frame.").
        if out.focused && ui.input_mut(|i| i.consume_key(egui::Modifiers::NONE, egui::Key::Tab)) {
            *focus_request = Some(FocusTarget::Menus);
            ui.ctx().request_repaint();
        }
        if out.focused {
            requests.extend(board_keys(ui.ctx()).into_iter().map(BoardRequest::Key));
        }
        requests
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::session::SessionConfig;
    use crate::words::{Lang, Pack};
    use egui::Key;
    use egui_kittest::Harness;

    /// The panel alone, with the session and focus request the app would
    /// hand it, and everything it handed back.
    struct Alone {
        panel: BoardPanel,
        session: Session,
        focus_request: Option<FocusTarget>,
        asked: Vec<BoardRequest>,
    }

    fn alone() -> Harness<'static, Alone> {
        let t = UiText::bundled(Lang::En);
        let state = Alone {
            panel: BoardPanel::default(),
            session: Session::with_pack(SessionConfig::default(), Pack::bundled(Lang::En)),
            focus_request: Some(FocusTarget::Board),
            asked: Vec::new(),
        };
        Harness::builder()
            .with_size(egui::vec2(600.0, 600.0))
            .build_ui_state(
                move |ui, s: &mut Alone| {
                    let asked = s.panel.ui(
                        ui,
                        &t,
                        &s.session,
                        &DisplaySettings::default(),
                        &mut s.focus_request,
                    );
                    s.asked.extend(asked);
                },
                state,
            )
    }

    fn press(h: &mut Harness<'static, Alone>, key: Key) -> Vec<BoardRequest> {
        h.state_mut().asked.clear();
        h.key_press(key);
        h.run();
        std::mem::take(&mut h.state_mut().asked)
    }

    #[test]
    fn the_board_panel_takes_the_keyboard_and_hands_back_what_was_asked() {
        let mut h = alone();
        h.run();
        assert!(h.state().panel.focused, "the focus request is taken");
        assert_eq!(h.state().focus_request, None);
        assert_eq!(
            press(&mut h, Key::ArrowUp),
            vec![BoardRequest::Key(BoardKey::Step(0, 1))]
        );
        assert_eq!(
            press(&mut h, Key::Enter),
            vec![BoardRequest::Key(BoardKey::Pick)]
        );
        // The panel never moves its cursor itself: the app does.
        assert_eq!(h.state().panel.cursor, Square::E2);
        // Tab from the board asks for the menus (the board is Tab's last
        // stop) and is not handed back as a board key.
        assert_eq!(press(&mut h, Key::Tab), vec![]);
        assert_eq!(h.state().focus_request, Some(FocusTarget::Menus));
        // The keyboard leaving the board asks for a lifted piece to go
        // back.
        h.state_mut().focus_request = None;
        assert_eq!(press(&mut h, Key::Escape), vec![BoardRequest::PutBack]);
        assert!(!h.state().panel.focused);
        assert_eq!(press(&mut h, Key::ArrowUp), vec![], "no keys off the board");
    }
}
