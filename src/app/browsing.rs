//! Browsing the board by keys: the cursor, the squares, ranks, files and
//! pieces said, picking up and putting back a piece.

use shakmaty::{Color, Position, Square};

use super::board_panel::BoardRequest;
use super::focus::FocusTarget;
use super::{RochadeApp, browse, keys};
use crate::session::{Event, Priority, Source};

impl RochadeApp {
    /// Draws the game's board panel and carries out what was asked of it.
    pub(super) fn main_board(&mut self, ui: &mut egui::Ui) {
        let t = self.window.ui.clone();
        let requests = self.board.ui(
            ui,
            &t,
            &self.session,
            &self.settings.display,
            &mut self.panels.focus_request,
        );
        for request in requests {
            match request {
                BoardRequest::PutBack => self.put_back_lifted(false),
                BoardRequest::Pick(sq) => self.pick(sq),
                BoardRequest::Key(key) => self.board_key(key),
            }
        }
    }

    pub fn speak_square(&mut self, sq: Square) {
        let text = browse::square(
            self.session.pack(),
            self.session.record().position().board(),
            sq,
        );
        self.say(text, Priority::Info);
    }

    /// Moves the cursor by a step in board coordinates (White's view).
    pub(super) fn move_cursor(&mut self, df: i32, dr: i32) {
        let before = self.board.cursor;
        self.board.cursor = keys::step(before, df, dr, self.flipped());
        let mark = self.screen_reader.pending.mark();
        if before == self.board.cursor {
            // At the edge the square is said again with a cue, so a
            // repeated square never sounds like a step taken.
            let pack = self.session.pack();
            let square = browse::square(pack, self.session.record().position().board(), before);
            let text = pack.phrase("board_edge", &[("square", square)]);
            self.say(text, Priority::Info);
            return;
        }
        self.speak_square(self.board.cursor);
        self.focus_moved(mark, before != self.board.cursor);
    }

    /// Speaks a square of the simulated peg-board (its pegs, not the
    /// game's pieces) as the user walks it by keys.
    pub fn speak_sim_square(&mut self, board: &shakmaty::Board, sq: Square, moved: bool) {
        let text = browse::square(self.session.pack(), board, sq);
        let mark = self.screen_reader.pending.mark();
        self.say(text, Priority::Info);
        self.focus_moved(mark, moved);
    }

    /// Carries out a key pressed while the board has the keyboard.
    pub fn board_key(&mut self, key: keys::BoardKey) {
        let board = self.session.record().position().board().clone();
        let pack = self.session.pack().clone();
        let turn = self.session.record().turn();
        match key {
            keys::BoardKey::Step(df, dr) => self.move_cursor(df, dr),
            keys::BoardKey::SayAgain => self.speak_square(self.board.cursor),
            keys::BoardKey::Jump(role) => match browse::next_piece(&board, self.board.cursor, role)
            {
                Some(sq) => {
                    let moved = self.board.cursor != sq;
                    self.board.cursor = sq;
                    let mark = self.screen_reader.pending.mark();
                    self.speak_square(sq);
                    self.focus_moved(mark, moved);
                }
                None => self.say(browse::not_found(&pack, role), Priority::Info),
            },
            keys::BoardKey::Rank(r) => self.say(browse::rank(&pack, &board, r), Priority::Info),
            keys::BoardKey::File(f) => self.say(browse::file(&pack, &board, f), Priority::Info),
            keys::BoardKey::Side(c) => {
                self.say(browse::side_pieces(&pack, &board, c), Priority::Info)
            }
            keys::BoardKey::Attackers => self.say(
                browse::attackers(&pack, &board, self.board.cursor, turn),
                Priority::Info,
            ),
            keys::BoardKey::Defenders => self.say(
                browse::defenders(&pack, &board, self.board.cursor, turn),
                Priority::Info,
            ),
            keys::BoardKey::Pick => self.pick(self.board.cursor),
        }
    }

    /// A click or Enter on a board square: pick up a piece of the side to
    /// move, or play the picked piece to this square.
    pub fn pick(&mut self, sq: Square) {
        self.board.cursor = sq;
        let pos = self.session.record().position();
        let own = pos.board().color_at(sq) == Some(pos.turn());
        match self.board.selected {
            Some(from) if from == sq => {
                self.board.selected = None;
                self.say_piece_at(sq, "put_back");
            }
            Some(from) if !own => {
                // A promotion takes the promotion piece from the settings;
                // underpromotion is typed ("e8=N").
                self.board.selected = None;
                self.dispatch(Event::SquaresChosen {
                    from,
                    to: sq,
                    source: Source::Keyboard,
                });
            }
            _ if own => {
                self.board.selected = Some(sq);
                self.say_piece_at(sq, "picked_up");
            }
            _ => self.speak_square(sq),
        }
    }

    /// Puts a piece lifted by key or click back on its square and says so
    /// ("Springer Bella acht zurückgestellt"); `stay` keeps the keyboard on
    /// the board (Escape there).
    pub fn put_back_lifted(&mut self, stay: bool) {
        let Some(sq) = self.board.selected.take() else {
            return;
        };
        self.say_piece_at(sq, "put_back");
        if stay && self.board.focused {
            self.panels.focus_request = Some(FocusTarget::Board);
        }
    }

    /// "Läufer Felix eins aufgenommen": the piece on `sq` in a phrase of the
    /// pack (`picked_up`, `put_back`), so a key press that picks up or puts
    /// back a piece is confirmed.
    pub(super) fn say_piece_at(&mut self, sq: Square, key: &str) {
        let pack = self.session.pack();
        let Some(piece) = self.session.record().position().board().piece_at(sq) else {
            return self.speak_square(sq);
        };
        let what = pack.render(&[
            crate::words::Token::Piece(piece.role),
            crate::words::Token::Square(sq),
        ]);
        let text = pack.phrase(key, &[("piece", what)]);
        self.say(text, Priority::Info);
    }

    /// The squares (bit i = square i) where the peg-board's last report
    /// differs from the game; the board view marks them.
    /// Game coordinates: correct on a turned board.
    pub fn board_differs(&self) -> u64 {
        let game = self.session.record().position();
        self.session.board_state().difference(game).0
    }

    pub fn position(&self) -> &shakmaty::Chess {
        self.session.record().position()
    }

    pub fn side_to_move(&self) -> Color {
        self.session.record().position().turn()
    }
}
