//! The Review window ("learn from your games"): the engine looks at every
//! position of the game on a thread of its own
//! ([`crate::engine::analysis::ReviewEngine`]), then the window lists every
//! move (the evaluation in words, the time spent, the judgement of the
//! player's moves) and offers each mistake again as an exercise typed in
//! its field. Up and Down read the list, Home and End jump to the start
//! and the end of the game. The exercise is answered by typing the move or
//! on the exercise's own board (click or arrows and Enter: the piece,
//! then its square). Copy FEN and Copy PGN put the position or the game
//! on the clipboard (egui's), and say so.

use std::path::PathBuf;
use std::time::Duration;

use egui::Id;
use shakmaty::{Color, EnPassantMode, Move, Position, Role, Square};

use super::{RochadeApp, UiText};
use crate::announce::AnnounceForm;
use crate::chess::{GameRecord, PieceLetters};
use crate::engine::analysis::{ReviewEngine, ReviewEvent};
use crate::session::Priority;
use crate::words::{Pack, Token, Utterance};
use rochade_core::review::{self as core_review, Exercise, GameReview, Verdict};

/// How often the analysis says where it is.
const PROGRESS_EVERY_MS: u64 = 4000;

/// Where the review is.
#[derive(Clone, Debug, PartialEq)]
enum Stage {
    Analysing { done: usize, total: usize },
    Ready,
    Failed(String),
}

/// The Review window's state.
pub struct ReviewPanel {
    record: GameRecord,
    side: Color,
    engine: ReviewEngine,
    stage: Stage,
    review: Option<GameReview>,
    /// Every move in words, written form.
    rows: Vec<String>,
    exercises: Vec<Exercise>,
    /// The exercise being answered (all done at `exercises.len()`).
    current: usize,
    /// The answer being typed.
    answer: String,
    asked: u64,
    /// An answer the engine is scoring.
    waiting: Option<(u64, Move)>,
    /// The exercise's question as shown.
    question: String,
    last_progress_ms: Option<u64>,
    /// The list row with the keyboard, last frame.
    focused_row: Option<usize>,
    /// The list takes the keyboard (the review is ready).
    take_focus: bool,
    /// The exercise's board: its view, cursor and lifted piece.
    board_view: super::board_view::BoardView,
    cursor: Square,
    lifted: Option<Square>,
}

/// What the exercise's board is drawn with (the app's settings).
pub(super) struct BoardLook {
    theme: super::Theme,
    letters: crate::chess::Letters,
}

/// What the window asks the app to do.
#[derive(Default)]
struct PanelOut {
    close: bool,
    submit: bool,
    skip: bool,
    copy_fen: bool,
    copy_pgn: bool,
    /// A list row took the keyboard: say it.
    row_focused: Option<usize>,
    /// A move made on the exercise's board.
    board_move: Option<Move>,
    /// Words for the board's keys (the square, a lifted piece).
    said: Vec<Utterance>,
}

impl ReviewPanel {
    /// Starts the analysis of `record` for the player of `side`.
    pub fn new(record: GameRecord, side: Color, engine: PathBuf, depth: u8) -> ReviewPanel {
        let engine = ReviewEngine::spawn(engine, depth);
        engine.analyse(record.clone());
        let total = record.moves().len() + 1;
        ReviewPanel {
            record,
            side,
            engine,
            stage: Stage::Analysing { done: 0, total },
            review: None,
            rows: Vec::new(),
            exercises: Vec::new(),
            current: 0,
            answer: String::new(),
            asked: 0,
            waiting: None,
            question: String::new(),
            last_progress_ms: None,
            focused_row: None,
            take_focus: false,
            board_view: super::board_view::BoardView::new("review_board"),
            cursor: Square::E2,
            lifted: None,
        }
    }

    /// The engine still works for the window.
    pub fn busy(&self) -> bool {
        matches!(self.stage, Stage::Analysing { .. }) || self.waiting.is_some()
    }

    /// The rows of the list (written form), empty while analysing.
    pub fn rows(&self) -> &[String] {
        &self.rows
    }

    /// The exercise being answered.
    pub fn exercise(&self) -> Option<&Exercise> {
        self.exercises.get(self.current)
    }

    /// The engine's best move of the current exercise, as UCI.
    pub fn exercise_best(&self) -> Option<String> {
        self.exercise().map(|e| core_review::uci(e.best))
    }

    /// The engine's reports since the last call, as words to say.
    fn poll(&mut self, pack: &Pack, now: u64) -> Vec<(Utterance, Priority)> {
        let events: Vec<ReviewEvent> = self.engine.events().try_iter().collect();
        let mut said = Vec::new();
        for event in events {
            said.extend(self.on_event(event, pack, now));
        }
        said
    }

    fn on_event(
        &mut self,
        event: ReviewEvent,
        pack: &Pack,
        now: u64,
    ) -> Vec<(Utterance, Priority)> {
        let form = AnnounceForm::Short;
        match event {
            ReviewEvent::Progress { done, total } => {
                self.stage = Stage::Analysing { done, total };
                let due = self
                    .last_progress_ms
                    .is_none_or(|at| now >= at + PROGRESS_EVERY_MS);
                if !due {
                    return Vec::new();
                }
                self.last_progress_ms = Some(now);
                let count = |n: usize| pack.render(&[Token::Number(n as u64)]);
                let words = pack.phrase(
                    "review_analysing",
                    &[("ply", count(done)), ("count", count(total))],
                );
                vec![(words, Priority::Guidance)]
            }
            ReviewEvent::Lines(lines) => match GameReview::new(&self.record, &lines, self.side) {
                Ok(review) => {
                    self.rows = review
                        .moves
                        .iter()
                        .map(|m| core_review::move_row(pack, &self.record, m, form).written)
                        .collect();
                    self.exercises = review.exercises(&self.record);
                    let mut said = vec![core_review::summary_words(pack, &review)];
                    self.review = Some(review);
                    self.start_exercise();
                    said.extend(self.prompt(pack));
                    self.stage = Stage::Ready;
                    self.take_focus = true;
                    said.into_iter().map(|u| (u, Priority::Answer)).collect()
                }
                Err(e) => self.fail(pack, &e.to_string()),
            },
            ReviewEvent::Scored { id, line } => {
                let Some((asked, answer)) = self.waiting else {
                    return Vec::new();
                };
                if asked != id {
                    return Vec::new();
                }
                self.waiting = None;
                let Some(exercise) = self.exercise() else {
                    return Vec::new();
                };
                let verdict = exercise.check(answer, Some(&line));
                self.judged(pack, answer, verdict)
            }
            ReviewEvent::Failed(e) => {
                self.waiting = None;
                self.fail(pack, &e.to_string())
            }
        }
    }

    fn fail(&mut self, pack: &Pack, reason: &str) -> Vec<(Utterance, Priority)> {
        let words = pack.phrase("review_engine_failed", &[("reason", reason.into())]);
        self.stage = Stage::Failed(words.written.clone());
        vec![(words, Priority::Alert)]
    }

    /// The current exercise's question, or that all are done (also
    /// shown in the window).
    fn prompt(&mut self, pack: &Pack) -> Option<Utterance> {
        let words = match self.exercise() {
            Some(e) => core_review::exercise_prompt(pack, e, AnnounceForm::Short),
            None => pack.say("review_exercises_done"),
        };
        self.question = words.written.clone();
        Some(words)
    }

    /// The typed answer: checked at once, or sent to the engine first.
    fn submit(&mut self, pack: &Pack, letters: PieceLetters) -> Vec<(Utterance, Priority)> {
        let text = std::mem::take(&mut self.answer);
        let text = text.trim();
        if text.is_empty() || self.waiting.is_some() {
            return Vec::new();
        }
        let Some(exercise) = self.exercise() else {
            return Vec::new();
        };
        let Ok(answer) = crate::chess::parse_move(&exercise.position, text, letters, &[pack])
        else {
            let words = pack.phrase("review_illegal", &[("text", text.into())]);
            return vec![(words, Priority::Answer)];
        };
        self.answer_move(pack, answer)
    }

    /// An answer, typed or made on the board: checked at once, or sent to
    /// the engine first.
    fn answer_move(&mut self, pack: &Pack, answer: Move) -> Vec<(Utterance, Priority)> {
        let Some(exercise) = self.exercise() else {
            return Vec::new();
        };
        if self.waiting.is_some() {
            return Vec::new();
        }
        let verdict = exercise.check(answer, None);
        if verdict == Verdict::Unchecked {
            let mut after = exercise.position.clone();
            after.play_unchecked(answer);
            self.asked += 1;
            self.waiting = Some((self.asked, answer));
            self.engine.score(self.asked, after);
            return Vec::new();
        }
        self.judged(pack, answer, verdict)
    }

    fn judged(
        &mut self,
        pack: &Pack,
        answer: Move,
        verdict: Verdict,
    ) -> Vec<(Utterance, Priority)> {
        let Some(exercise) = self.exercise() else {
            return Vec::new();
        };
        let mut said = vec![core_review::verdict_words(
            pack,
            exercise,
            answer,
            verdict,
            AnnounceForm::Short,
        )];
        if verdict.solved() {
            self.current += 1;
            self.start_exercise();
            said.extend(self.prompt(pack));
        }
        said.into_iter().map(|u| (u, Priority::Answer)).collect()
    }

    fn skip(&mut self, pack: &Pack) -> Vec<(Utterance, Priority)> {
        let Some(exercise) = self.exercise() else {
            return Vec::new();
        };
        let mut said = vec![core_review::solution_words(
            pack,
            exercise,
            AnnounceForm::Short,
        )];
        self.current += 1;
        self.waiting = None;
        self.start_exercise();
        said.extend(self.prompt(pack));
        said.into_iter().map(|u| (u, Priority::Answer)).collect()
    }

    /// A new exercise: its board's cursor on the piece that was moved.
    fn start_exercise(&mut self) {
        self.lifted = None;
        if let Some(e) = self.exercise() {
            self.cursor = e.played.from().unwrap_or(Square::E2);
        }
    }

    /// Draws the exercise's board; a move made there, and the words for
    /// its keys, go to `out`.
    fn exercise_board(
        &mut self,
        ui: &mut egui::Ui,
        t: &UiText,
        pack: &Pack,
        look: &BoardLook,
        out: &mut PanelOut,
    ) {
        let Some(exercise) = self.exercise() else {
            return;
        };
        let pos = exercise.position.clone();
        let board = pos.board().clone();
        let pieces: [Option<shakmaty::Piece>; 64] =
            std::array::from_fn(|i| board.piece_at(Square::ALL[i]));
        let cell_names: [String; 64] =
            std::array::from_fn(|i| super::browse::square(pack, &board, Square::ALL[i]).spoken);
        let value = super::browse::square(pack, &board, self.cursor).spoken;
        let flipped = pos.turn() == Color::Black;
        let label = t.get("review_board");
        let input = super::board_view::BoardInput {
            label: &label,
            value: &value,
            size: 320.0,
            pieces: &pieces,
            cursor: self.cursor,
            selected: self.lifted,
            differs: 0,
            last_move: None,
            flipped,
            theme: look.theme,
            letters: look.letters,
            letter_discs: false,
            big_coordinates: false,
            cell_names: &cell_names,
        };
        let board_out = self.board_view.ui(ui, input);
        let mut picks: Vec<Square> = board_out.clicked.into_iter().collect();
        if board_out.focused {
            for key in super::keys::board_keys(ui.ctx()) {
                match key {
                    super::keys::BoardKey::Step(df, dr) => {
                        self.cursor = super::keys::step(self.cursor, df, dr, flipped);
                        out.said
                            .push(super::browse::square(pack, &board, self.cursor));
                    }
                    super::keys::BoardKey::SayAgain => {
                        out.said
                            .push(super::browse::square(pack, &board, self.cursor));
                    }
                    super::keys::BoardKey::Pick => picks.push(self.cursor),
                    // Reading by rank, file or piece is the main board's;
                    // here the arrows, Space and Enter.
                    _ => {}
                }
            }
        }
        for sq in picks {
            self.cursor = sq;
            match self.lifted {
                None if board.color_at(sq) == Some(pos.turn()) => {
                    self.lifted = Some(sq);
                    out.said.push(super::browse::square(pack, &board, sq));
                }
                None => {}
                Some(from) if from == sq => self.lifted = None,
                Some(from) => {
                    self.lifted = None;
                    // A pawn reaching the last rank becomes a queen here.
                    let found = pos.legal_moves().into_iter().find(|m| {
                        super::board_view::move_squares(m) == Some((from, sq))
                            && m.promotion().is_none_or(|r| r == Role::Queen)
                    });
                    match found {
                        Some(mv) => out.board_move = Some(mv),
                        None => {
                            let text = format!("{from}{sq}");
                            let words = [("text", text.as_str().into())];
                            out.said.push(pack.phrase("review_illegal", &words));
                        }
                    }
                }
            }
        }
    }

    /// The position after list row `row` (a move), or at the end.
    fn position_at(&self, row: Option<usize>) -> shakmaty::Chess {
        let index = row.map_or(self.record.moves().len(), |r| r + 1);
        self.record
            .position_before(index.min(self.record.moves().len()))
            .clone()
    }

    fn ui(&mut self, ctx: &egui::Context, t: &UiText, pack: &Pack, look: &BoardLook) -> PanelOut {
        let mut out = PanelOut::default();
        let mut open = true;
        egui::Window::new(t.get("review_title"))
            .open(&mut open)
            .vscroll(true)
            // Fixed in place, as the help: no unnamed resize or title controls.
            .resizable(false)
            .collapsible(false)
            .movable(false)
            .default_width(super::layout::dialog_width(ctx, 640.0))
            .max_width(super::layout::dialog_width(ctx, 640.0))
            .max_height(super::layout::dialog_height(ctx))
            .show(ctx, |ui| self.contents(ui, t, pack, look, &mut out));
        out.close |= !open;
        out
    }

    fn contents(
        &mut self,
        ui: &mut egui::Ui,
        t: &UiText,
        pack: &Pack,
        look: &BoardLook,
        out: &mut PanelOut,
    ) {
        match &self.stage {
            Stage::Analysing { done, total } => {
                ui.label(format!("{} {done} / {total}", t.get("review_analysing")));
            }
            Stage::Failed(reason) => {
                ui.label(reason.clone());
            }
            Stage::Ready => {}
        }
        if !self.rows.is_empty() {
            super::a11y::heading(ui, t.get("review_moves"));
            let rows: Vec<egui::WidgetText> = self
                .rows
                .iter()
                .map(|r| super::layout::big(r.as_str(), 18.0).into())
                .collect();
            let take = self.take_focus;
            let focused = super::a11y::row_list_at(ui, "review", &rows, 0, take);
            self.take_focus = take && !focused;
            let now_focused = ui
                .memory(|m| m.focused())
                .and_then(|f| (0..rows.len()).find(|&i| Id::unique(("review", "row", i)) == f));
            // A row the user moved to is said; the first row taking the
            // keyboard as the review opens is not (the exercise's
            // question is being said).
            if now_focused.is_some() && now_focused != self.focused_row && !take {
                out.row_focused = now_focused;
            }
            if now_focused.is_some() {
                self.focused_row = now_focused;
            }
        }
        if !self.question.is_empty() {
            super::a11y::heading(ui, t.get("review_exercise"));
            ui.label(self.question.clone());
        }
        self.exercise_board(ui, t, pack, look, out);
        if self.exercise().is_some() {
            ui.horizontal(|ui| {
                let label = ui.label(t.get("review_answer"));
                let field = ui
                    .add(egui::TextEdit::singleline(&mut self.answer).desired_width(160.0))
                    .labelled_by(label.id);
                if field.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter)) {
                    out.submit = true;
                    field.request_focus();
                }
                if ui.button(t.get("review_check")).clicked() {
                    out.submit = true;
                }
                if ui.button(t.get("review_skip")).clicked() {
                    out.skip = true;
                }
            });
        }
        ui.horizontal(|ui| {
            if ui.button(t.get("copy_fen")).clicked() {
                out.copy_fen = true;
            }
            if ui.button(t.get("copy_pgn")).clicked() {
                out.copy_pgn = true;
            }
            if ui.button(t.get("close")).clicked() {
                out.close = true;
            }
        });
    }
}

/// A position as FEN.
fn fen_of(pos: &shakmaty::Chess) -> String {
    shakmaty::fen::Fen::from_position(pos, EnPassantMode::Legal).to_string()
}

impl RochadeApp {
    /// The Review window, if open.
    pub fn review_panel(&self) -> Option<&ReviewPanel> {
        self.rooms.review.as_ref()
    }

    /// Ctrl+L, Game menu: review the game on the board (the window closes
    /// when already open).
    pub(super) fn toggle_review(&mut self) {
        if self.rooms.review.take().is_some() {
            return;
        }
        let record = self.session.record().clone();
        if record.moves().is_empty() {
            self.say_key("review_no_game", Priority::Answer);
            return;
        }
        let side = self.session.config().blind_side;
        self.start_review(record, side);
    }

    /// Opens the Review window on `record`, for the player of `side`.
    pub(super) fn start_review(&mut self, record: GameRecord, side: Color) {
        let engine = PathBuf::from(self.settings.engine.path.trim());
        self.rooms.review = Some(ReviewPanel::new(
            record,
            side,
            engine,
            core_review::DEFAULT_DEPTH,
        ));
        self.say_key("review_running", Priority::Answer);
    }

    /// Ctrl+Alt+F: the position on the board as FEN on the clipboard.
    pub(super) fn copy_fen(&mut self) {
        let fen = self.session.record().fen();
        self.copy(fen, "copied_fen");
    }

    /// Ctrl+Alt+P: the game as PGN on the clipboard.
    pub(super) fn copy_pgn(&mut self) {
        let pgn = crate::pgn::write_pgn(self.session.record());
        self.copy(pgn, "copied_pgn");
    }

    fn copy(&mut self, text: String, said: &str) {
        if let Some(ctx) = self.wake.get() {
            ctx.copy_text(text);
            self.say_key(said, Priority::Answer);
        }
    }

    /// The engine's reports for the Review window, said.
    pub(super) fn poll_review(&mut self) {
        let now = self.now_ms();
        let Some(panel) = self.rooms.review.as_mut() else {
            return;
        };
        for (words, priority) in panel.poll(self.session.pack(), now) {
            self.say(words, priority);
        }
    }

    /// Blocks until the review's engine reports (at most `timeout`);
    /// false if nothing came. For tests, which have no frames to wait in.
    pub fn wait_review(&mut self, timeout: Duration) -> bool {
        let now = self.now_ms();
        let Some(panel) = self.rooms.review.as_mut() else {
            return false;
        };
        let Ok(event) = panel.engine.events().recv_timeout(timeout) else {
            return false;
        };
        for (words, priority) in panel.on_event(event, self.session.pack(), now) {
            self.say(words, priority);
        }
        true
    }

    /// Draws the Review window and carries out what was asked there.
    pub(super) fn review_window(&mut self, ctx: &egui::Context) {
        self.review_open_window(ctx);
        let t = self.window.ui.clone();
        let Some(panel) = self.rooms.review.as_mut() else {
            return;
        };
        let look = BoardLook {
            theme: self.settings.display.theme,
            letters: self.session.config().letters,
        };
        let pack = self.session.pack().clone();
        let out = panel.ui(ctx, &t, &pack, &look);
        if panel.busy() {
            ctx.request_repaint_after(Duration::from_millis(100));
        }
        let letters = PieceLetters::new(self.settings.game.letters, self.session.config().lang);
        let mut said: Vec<(Utterance, Priority)> =
            out.said.into_iter().map(|u| (u, Priority::Info)).collect();
        if let Some(mv) = out.board_move {
            said.extend(panel.answer_move(&pack, mv));
        }
        if out.submit {
            said.extend(panel.submit(&pack, letters));
        }
        if out.skip {
            said.extend(panel.skip(&pack));
        }
        if let Some(row) = out.row_focused {
            let mut words = vec![Utterance::from(panel.rows[row].as_str())];
            let last = panel.rows.len() - 1;
            let edge = match row {
                0 => Some("review_start"),
                r if r == last => Some("review_end"),
                _ => None,
            };
            // Home and End (or Up and Down to the edge): where it is.
            if let Some(key) = edge {
                words.insert(0, pack.say(key));
            }
            said.push((Utterance::join_with(&words, ". "), Priority::Info));
        }
        let fen = out
            .copy_fen
            .then(|| fen_of(&panel.position_at(panel.focused_row)));
        let pgn = out.copy_pgn.then(|| crate::pgn::write_pgn(&panel.record));
        if out.close {
            self.rooms.review = None;
        }
        for (words, priority) in said {
            self.say(words, priority);
        }
        if let Some(fen) = fen {
            self.copy(fen, "copied_fen");
        }
        if let Some(pgn) = pgn {
            self.copy(pgn, "copied_pgn");
        }
    }
}
