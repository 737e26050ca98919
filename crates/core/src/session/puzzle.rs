//! Puzzle mode: a puzzle's start position on the record, the opponent's
//! first move played and announced, the player's moves checked against
//! the solution (a wrong one said and never recorded, so the peg-board's
//! guidance leads the piece back), the opponent's replies played from the
//! solution, hints on request, and solved or failed said with the whole
//! line. The player's rating ([`Progress`]) is updated here; the shell
//! saves it when [`Notice::PuzzleDone`] comes and picks the next puzzle
//! ([`crate::puzzle::choose`]).
//!
//! A puzzle counts as solved when the player found every move without a
//! wrong move and without the second hint (the square, which gives the
//! move away); the first hint (the piece) is free. The puzzle goes on
//! after a wrong move until its end, as on Lichess.

use shakmaty::{CastlingMode, Chess, Color, File, Move, Position, Rank};

use super::{Earcon, Effect, Notice, Priority, Session, Source};
use crate::announce;
use crate::chess::GameRecord;
use crate::clock::Clock;
use crate::puzzle::{self, Progress, Puzzle, Verdict};
use crate::words::{Token, Utterance};

/// A puzzle key, menu entry or typed word.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PuzzleCommand {
    /// Set this puzzle up and play the opponent's first move.
    Start(Box<Puzzle>),
    /// The piece to move; asked again, the square too.
    Hint,
    /// The side to move, the goal and every piece.
    Position,
    /// The pieces on one rank.
    Rank(Rank),
    /// The pieces on one file.
    File(File),
    /// Give the puzzle up: failed, the solution said.
    Skip,
    /// Leave puzzle mode: the game from before the puzzles comes back.
    Stop,
}

/// The puzzle being solved.
#[derive(Clone, Debug, PartialEq)]
pub struct PuzzleRun {
    pub puzzle: Puzzle,
    /// Every move of the line with the position before it.
    line: Vec<(Chess, Move)>,
    /// The side the player solves for.
    pub player: Color,
    pub wrong: u32,
    /// Hints asked for the move now to find (1: the piece, 2: the square).
    hints: u32,
    /// The ply the hints were for.
    hint_ply: usize,
    /// A hint named a square: the move was given away.
    pub move_shown: bool,
    /// A wrong move made on the peg-board, kept on the record (unsaid,
    /// unsaved) until the board is put back: the tracker then sees a
    /// takeback, as the Laws' E.6 takeback on a peg-board.
    wrong_on_board: bool,
    /// `Some(solved)` once the puzzle is over.
    pub outcome: Option<bool>,
}

impl PuzzleRun {
    /// How many moves of the line the player has to find.
    pub fn player_moves(&self) -> usize {
        self.line.len() / 2
    }
}

/// What the session keeps for puzzle mode.
#[derive(Clone, Debug, Default)]
pub(super) struct PuzzleState {
    run: Option<PuzzleRun>,
    progress: Progress,
    /// The game on the record before the first puzzle, put back on Stop.
    game_before: Option<GameRecord>,
    /// The verdict on the move being played, for after it is recorded.
    judged: Option<Verdict>,
}

impl Session {
    /// The puzzle being solved (or just finished), if in puzzle mode.
    pub fn puzzle(&self) -> Option<&PuzzleRun> {
        self.puzzle.run.as_ref()
    }

    pub fn puzzle_progress(&self) -> &Progress {
        &self.puzzle.progress
    }

    /// The player's saved progress (the shell loads it before the first
    /// puzzle).
    pub fn set_puzzle_progress(&mut self, progress: Progress) {
        self.puzzle.progress = progress;
    }

    pub(super) fn in_puzzle(&self) -> bool {
        self.puzzle.run.is_some()
    }

    /// A new game ends puzzle mode (and replaces the game from before the
    /// puzzles); the progress stays.
    pub(super) fn puzzle_forget(&mut self) {
        self.puzzle.run = None;
        self.puzzle.game_before = None;
        self.puzzle.judged = None;
    }

    pub(super) fn puzzle_command(&mut self, now: u64, cmd: PuzzleCommand, out: &mut Vec<Effect>) {
        match cmd {
            PuzzleCommand::Start(puzzle) => self.start_puzzle(now, *puzzle, out),
            PuzzleCommand::Stop => {
                self.puzzle.run = None;
                if let Some(record) = self.puzzle.game_before.take() {
                    self.resume_game(now, record);
                }
            }
            _ if self.puzzle.run.is_none() => {
                self.speak(out, self.pack.say("puzzle_none"), Priority::Answer)
            }
            PuzzleCommand::Hint => self.puzzle_hint(out),
            PuzzleCommand::Position => {
                let Some(run) = &self.puzzle.run else { return };
                let text = puzzle::words::position(&self.pack, self.record.position(), &run.puzzle);
                self.speak(out, text, Priority::Answer);
            }
            PuzzleCommand::Rank(rank) => {
                let text = crate::browse::rank(&self.pack, self.record.position().board(), rank);
                self.speak(out, text, Priority::Answer);
            }
            PuzzleCommand::File(file) => {
                let text = crate::browse::file(&self.pack, self.record.position().board(), file);
                self.speak(out, text, Priority::Answer);
            }
            PuzzleCommand::Skip => {
                if self
                    .puzzle
                    .run
                    .as_ref()
                    .is_some_and(|r| r.outcome.is_none())
                {
                    self.finish_puzzle(false, out);
                }
            }
        }
    }

    fn start_puzzle(&mut self, now: u64, puzzle: Puzzle, out: &mut Vec<Effect>) {
        let (line, record) = match (puzzle.line(), GameRecord::from_fen(&puzzle.fen)) {
            (Ok(line), Ok(record)) if line.len() >= 2 => (line, record),
            _ => {
                let text = self.pack.phrase(
                    "puzzle_not_found",
                    &[("theme", Utterance::from(puzzle.id.as_str()))],
                );
                self.speak(out, text, Priority::Alert);
                return;
            }
        };
        if self.puzzle.game_before.is_none() {
            self.puzzle.game_before = Some(self.record.clone());
        }
        let tags = self.record.tags.clone();
        self.record = record;
        self.record.tags = tags;
        self.clock = Clock::new(crate::clock::TimeControl::Untimed)
            .with_low_time_thresholds(&self.config.low_time_ms);
        self.game_origin_ms = Some(now);
        self.game_time_base_ms = 0;
        self.last_announcement = None;
        self.pending = None;
        self.set_opponent(None);
        // On the player's own board the position is set up: said rank by
        // rank, as it is built, rather than piece by piece.
        let on_board = self.own_link().in_use();
        self.board.reset(&self.config, &self.record);
        self.seats_reset();
        let player = !self.record.turn();
        let first = line[0].1;
        let mut solving = line[0].0.clone();
        solving.play_unchecked(first);
        let fen = |pos: &Chess| {
            Box::new(shakmaty::fen::Fen::from_position(
                pos,
                shakmaty::EnPassantMode::Legal,
            ))
        };
        out.push(Effect::Notice(Notice::PuzzleStart {
            id: puzzle.id.clone(),
            start_fen: fen(&line[0].0),
            fen: fen(&solving),
            rating: puzzle.rating,
            themes: puzzle.themes.clone(),
        }));
        // "Puzzle, rating 900. Black plays", then the opponent's move (in
        // the moves' own queue, so the two are said in this order), then
        // the position to solve.
        let intro = self.pack.phrase(
            "puzzle_start",
            &[
                (
                    "rating",
                    self.pack.render(&[Token::Number(puzzle.rating.into())]),
                ),
                ("side", self.side(!player)),
            ],
        );
        self.speak(out, intro, Priority::Move);
        let position = if on_board {
            puzzle::words::set_up(&self.pack, &solving, &puzzle)
        } else {
            puzzle::words::position(&self.pack, &solving, &puzzle)
        };
        self.puzzle.run = Some(PuzzleRun {
            puzzle,
            line,
            player,
            wrong: 0,
            hints: 0,
            hint_ply: 0,
            move_shown: false,
            wrong_on_board: false,
            outcome: None,
        });
        self.play(now, first, Source::Engine, out);
        self.speak(out, position, Priority::Answer);
    }

    /// The next move the player has to find, with the position before it.
    fn puzzle_expected(&self) -> Option<(&Chess, Move, bool)> {
        let run = self.puzzle.run.as_ref()?;
        let i = self.record.moves().len();
        if run.outcome.is_some()
            || run.wrong_on_board
            || self.record.turn() != run.player
            || i >= run.line.len()
        {
            return None;
        }
        let (pos, mv) = &run.line[i];
        Some((pos, *mv, i + 1 == run.line.len()))
    }

    fn puzzle_hint(&mut self, out: &mut Vec<Effect>) {
        if self.puzzle_wrong_on_board() {
            self.remind_wrong(out);
            return;
        }
        let Some((pos, mv, _)) = self.puzzle_expected() else {
            self.speak(out, self.pack.say("puzzle_none"), Priority::Answer);
            return;
        };
        let pos = pos.clone();
        let ply = self.record.moves().len();
        let run = self.puzzle.run.as_mut().expect("a puzzle is expected");
        if run.hint_ply != ply {
            run.hints = 0;
            run.hint_ply = ply;
        }
        run.hints += 1;
        let with_square = run.hints >= 2;
        run.move_shown |= with_square;
        let text = puzzle::words::hint(&self.pack, &pos, mv, with_square);
        self.speak(out, text, Priority::Answer);
    }

    /// A wrong move stands on the peg-board (and the record) until the
    /// board is put back.
    pub(super) fn puzzle_wrong_on_board(&self) -> bool {
        self.puzzle.run.as_ref().is_some_and(|r| r.wrong_on_board)
    }

    /// "<the wrong move>: wrong. Take it back ..." again.
    fn remind_wrong(&self, out: &mut Vec<Effect>) {
        let last = self.record.moves().len() - 1;
        let before = self.record.position_before(last);
        let mv = self.record.moves()[last].mv;
        let said = announce::announce_move(&self.pack, before, mv, self.config.form);
        let text = self.pack.phrase("puzzle_wrong", &[("move", said)]);
        self.speak(out, text, Priority::Alert);
        out.push(Effect::Sound(Earcon::Illegal));
    }

    /// The board was put back after a wrong move: it leaves the record
    /// too, and the puzzle goes on (said, so the player knows the board
    /// is right again).
    pub(super) fn puzzle_take_back(&mut self, now: u64, out: &mut Vec<Effect>) {
        if let Some(run) = self.puzzle.run.as_mut() {
            run.wrong_on_board = false;
        }
        self.record.takeback(1);
        self.board
            .on_game_changed(now, &self.record, Source::PegBoard);
        self.speak(out, self.pack.say("puzzle_put_back"), Priority::Answer);
    }

    /// Before a move is recorded: a wrong move of the player's is said
    /// and not played (`true`); a right one is remembered for
    /// [`Session::puzzle_after_move`]. A wrong move made on the peg-board
    /// stays on the record, unsaid, until the board is put back (the
    /// tracker follows the board back as a takeback; refused, the board
    /// would show a move the tracker never saw made).
    pub(super) fn puzzle_refuses(
        &mut self,
        now: u64,
        mv: Move,
        source: Source,
        out: &mut Vec<Effect>,
    ) -> bool {
        self.puzzle.judged = None;
        if self.puzzle_wrong_on_board() {
            // Only putting the wrong move back goes on from here.
            self.remind_wrong(out);
            return true;
        }
        let Some((pos, expected, last)) = self.puzzle_expected() else {
            return false;
        };
        let verdict = puzzle::judge(pos, expected, mv, last);
        if verdict != Verdict::Wrong {
            self.puzzle.judged = Some(verdict);
            return false;
        }
        let said = announce::announce_move(&self.pack, pos, mv, self.config.form);
        if let Some(run) = self.puzzle.run.as_mut() {
            run.wrong += 1;
            if matches!(source, Source::PegBoard | Source::EBoard) {
                run.wrong_on_board = true;
                self.record
                    .play(mv, None)
                    .expect("checked legal and not over");
                self.board.on_game_changed(now, &self.record, source);
            }
        }
        // Only a move made on the board stands there to be taken back; a
        // typed one was never played.
        let on_board = self.puzzle_wrong_on_board();
        let key = if on_board {
            "puzzle_wrong"
        } else {
            "puzzle_wrong_typed"
        };
        let text = self.pack.phrase(key, &[("move", said)]);
        self.speak(out, text, Priority::Alert);
        out.push(Effect::Sound(Earcon::Illegal));
        out.push(Effect::Notice(Notice::PuzzleWrong {
            uci: mv.to_uci(CastlingMode::Standard),
        }));
        true
    }

    /// After a move was recorded: a right move of the player's is
    /// answered by the opponent's reply from the solution; the last one
    /// ends the puzzle.
    pub(super) fn puzzle_after_move(&mut self, now: u64, out: &mut Vec<Effect>) {
        let Some(verdict) = self.puzzle.judged.take() else {
            return;
        };
        let Some(run) = self.puzzle.run.as_ref() else {
            return;
        };
        if verdict == Verdict::Solved {
            let clean = run.wrong == 0 && !run.move_shown;
            self.finish_puzzle(clean, out);
            return;
        }
        let i = self.record.moves().len();
        let Some((_, reply)) = run.line.get(i).cloned() else {
            return;
        };
        self.speak(out, self.pack.say("puzzle_right"), Priority::Move);
        self.play(now, reply, Source::Engine, out);
    }

    /// Solved or failed: said with the whole line, the rating updated.
    fn finish_puzzle(&mut self, solved: bool, out: &mut Vec<Effect>) {
        let Some(run) = self.puzzle.run.as_mut() else {
            return;
        };
        run.outcome = Some(solved);
        let line = puzzle::words::line(&self.pack, &run.line[1..], self.config.form);
        let puzzle = run.puzzle.clone();
        self.puzzle.progress.record(&puzzle, solved);
        let key = if solved {
            "puzzle_solved"
        } else {
            "puzzle_failed"
        };
        self.speak(
            out,
            self.pack.phrase(key, &[("line", line)]),
            Priority::Move,
        );
        let rating = self.puzzle.progress.rating_number();
        let text = self.pack.phrase(
            "puzzle_rating",
            &[("rating", self.pack.render(&[Token::Number(rating.into())]))],
        );
        self.speak(out, text, Priority::Answer);
        out.push(Effect::Notice(Notice::PuzzleDone {
            id: puzzle.id.clone(),
            solved,
            line: puzzle.moves.clone(),
            rating,
        }));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::session::{Command, Event, SessionConfig};
    use crate::words::{Lang, Pack};

    fn session() -> Session {
        Session::with_pack(SessionConfig::default(), Pack::bundled(Lang::En))
    }

    fn puzzle(csv_row: &str) -> Puzzle {
        let text = format!("PuzzleId,FEN,Moves,Rating,RatingDeviation,Themes,GameUrl\n{csv_row}\n");
        crate::puzzle::PuzzleSet::parse(&text).unwrap().puzzles()[0].clone()
    }

    /// Mate in two: after the opponent's Kg8-h8, Ra2-a7 (the king has
    /// only g8 then), Kh8-g8, Rb3-b8 mate.
    fn ladder() -> Puzzle {
        puzzle(
            "lad1,6k1/8/8/8/8/1R6/R7/K7 b - - 0 1,g8h8 a2a7 h8g8 b3b8,900,80,mate mateIn2 endgame,https://lichess.org/x",
        )
    }

    fn cmd(s: &mut Session, c: PuzzleCommand) -> Vec<Effect> {
        s.handle(0, Event::Command(Command::Puzzle(c)))
            .into_effects()
    }

    fn typed(s: &mut Session, text: &str) -> Vec<Effect> {
        s.handle(
            0,
            Event::MoveEntered {
                text: text.into(),
                source: Source::Keyboard,
            },
        )
        .into_effects()
    }

    fn notices(fx: &[Effect]) -> Vec<&Notice> {
        fx.iter()
            .filter_map(|e| match e {
                Effect::Notice(n) => Some(n),
                _ => None,
            })
            .collect()
    }

    fn said(fx: &[Effect]) -> String {
        fx.iter()
            .filter_map(|e| e.speech().map(|s| s.text.written.clone()))
            .collect::<Vec<_>>()
            .join(" | ")
    }

    #[test]
    fn the_opponent_moves_first_then_the_position_is_said() {
        let mut s = session();
        let fx = cmd(&mut s, PuzzleCommand::Start(Box::new(ladder())));
        let n = notices(&fx);
        assert!(matches!(
            n[0],
            Notice::PuzzleStart { id, fen, rating: 900, .. }
                if id == "lad1" && fen.to_string() == "7k/8/8/8/8/1R6/R7/K7 w - - 1 2"
        ));
        assert!(matches!(
            n[1],
            Notice::Move {
                ply: 1,
                source: Source::Engine,
                ..
            }
        ));
        assert!(
            matches!(
                n[0],
                Notice::PuzzleStart { start_fen, .. } if start_fen.to_string() == "6k1/8/8/8/8/1R6/R7/K7 b - - 0 1"
            ),
            "{:?}",
            n[0]
        );
        // Who plays the first move is said before it.
        assert_eq!(
            said(&fx),
            "Puzzle, rating 900. Black plays | King Hector eight | White to move, mate in 2. \
             White: King Anna one, Rook Anna two, Bella three. Black: King Hector eight"
        );
        assert!(
            !fx.contains(&Effect::SaveGame),
            "a puzzle is not the saved game"
        );
        assert_eq!(s.puzzle().unwrap().player, Color::White);
    }

    #[test]
    fn on_the_own_board_the_position_is_said_rank_by_rank_to_set_it_up() {
        let mut s = session();
        s.handle(
            0,
            Event::Board(crate::session::board::BoardEvent::LinkUp { port: "pty".into() }),
        );
        let fx = cmd(&mut s, PuzzleCommand::Start(Box::new(ladder())));
        assert!(
            said(&fx).ends_with(
                "King Hector eight | White to move, mate in 2. Set it up rank by rank: \
                 Rank eight: Hector eight black King. Rank three: Bella three white Rook. \
                 Rank two: Anna two white Rook. Rank one: Anna one white King"
            ),
            "{}",
            said(&fx)
        );
    }

    #[test]
    fn a_wrong_move_is_said_not_recorded_and_the_puzzle_goes_on() {
        let mut s = session();
        cmd(&mut s, PuzzleCommand::Start(Box::new(ladder())));
        let fx = typed(&mut s, "Rb8");
        // A typed move was never played: nothing to take back.
        assert_eq!(said(&fx), "Rook Bella eight check: wrong. Try again");
        assert!(
            matches!(notices(&fx)[..], [Notice::PuzzleWrong { uci }] if uci.to_string() == "b3b8")
        );
        assert_eq!(s.record().moves().len(), 1);
        let fx = typed(&mut s, "Ra7");
        let moves: Vec<_> = notices(&fx)
            .into_iter()
            .filter_map(|n| match n {
                Notice::Move { san, source, .. } => Some((san.to_string(), *source)),
                _ => None,
            })
            .collect();
        assert_eq!(
            moves,
            [
                ("Ra7".into(), Source::Keyboard),
                ("Kg8".into(), Source::Engine)
            ]
        );
        let fx = typed(&mut s, "Rb8#");
        assert!(notices(&fx).iter().any(|n| matches!(
            n,
            Notice::PuzzleDone { id, solved: false, .. } if id == "lad1"
        )));
        // The mate ends the puzzle, not a game: no "Game over" before it.
        assert!(!said(&fx).contains("Game over"), "{}", said(&fx));
        assert!(
            said(&fx).contains(
                "Not solved. Solution: Rook Anna seven, King Gustav eight, Rook Bella eight mate"
            ),
            "{}",
            said(&fx)
        );
        assert_eq!(s.puzzle_progress().failed, 1);
        assert!(s.puzzle_progress().rating.rating < 1500.0);
    }

    #[test]
    fn solved_clean_with_the_first_hint_and_the_rating_rises() {
        let mut s = session();
        cmd(&mut s, PuzzleCommand::Start(Box::new(ladder())));
        let fx = cmd(&mut s, PuzzleCommand::Hint);
        assert_eq!(said(&fx), "Hint: Rook Anna two");
        typed(&mut s, "a2a7");
        let fx = cmd(&mut s, PuzzleCommand::Hint);
        assert_eq!(said(&fx), "Hint: Rook Bella three");
        let fx = typed(&mut s, "b3b8");
        assert!(
            notices(&fx)
                .iter()
                .any(|n| matches!(n, Notice::PuzzleDone { solved: true, .. }))
        );
        assert!(said(&fx).contains("Solved. Solution:"), "{}", said(&fx));
        assert_eq!(s.puzzle_progress().solved, 1);
        assert!(s.puzzle_progress().rating.rating > 1500.0);
        // The second hint gives the move away: not solved.
        let mut s = session();
        cmd(&mut s, PuzzleCommand::Start(Box::new(ladder())));
        cmd(&mut s, PuzzleCommand::Hint);
        let fx = cmd(&mut s, PuzzleCommand::Hint);
        assert_eq!(said(&fx), "Hint: Rook Anna two to Anna seven");
        typed(&mut s, "a2a7");
        let fx = typed(&mut s, "b3b8");
        assert!(
            notices(&fx)
                .iter()
                .any(|n| matches!(n, Notice::PuzzleDone { solved: false, .. }))
        );
    }

    #[test]
    fn skip_fails_and_stop_brings_the_game_back() {
        let mut s = session();
        typed(&mut s, "e4");
        cmd(&mut s, PuzzleCommand::Start(Box::new(ladder())));
        let fx = cmd(&mut s, PuzzleCommand::Skip);
        assert!(
            said(&fx).starts_with("Not solved. Solution: Rook Anna seven"),
            "{}",
            said(&fx)
        );
        let fx = cmd(&mut s, PuzzleCommand::File(File::A));
        assert_eq!(
            said(&fx),
            "File Anna: Anna one white King, Anna two white Rook"
        );
        cmd(&mut s, PuzzleCommand::Stop);
        assert!(s.puzzle().is_none());
        assert_eq!(s.record().moves().len(), 1);
        assert_eq!(s.record().moves()[0].san.to_string(), "e4");
        let fx = cmd(&mut s, PuzzleCommand::Hint);
        assert_eq!(said(&fx), "No puzzle open");
    }

    /// Every shipped puzzle, its solution played through the session
    /// (the player's moves as a peg-board would make them): each move
    /// is taken, the opponent answers from the line, and the puzzle is
    /// solved at its last move. Stockfish's agreement with each solution
    /// is checked by scripts/check-puzzles.
    #[test]
    fn every_shipped_solution_solves_its_puzzle_through_the_session() {
        let set = crate::puzzle::PuzzleSet::bundled();
        let mut s = session();
        for p in set.puzzles() {
            let fx = cmd(&mut s, PuzzleCommand::Start(Box::new(p.clone())));
            assert!(
                matches!(
                    notices(&fx)[..],
                    [Notice::PuzzleStart { .. }, Notice::Move { .. }]
                ),
                "{}: {:?}",
                p.id,
                notices(&fx)
            );
            let line = p.line().unwrap();
            for (i, (_, mv)) in line.iter().enumerate().skip(1).step_by(2) {
                assert_eq!(s.record().moves().len(), i, "{}", p.id);
                let fx = s.handle(
                    0,
                    Event::MovePlayed {
                        mv: *mv,
                        source: Source::PegBoard,
                    },
                );
                let done = notices(&fx).into_iter().any(
                    |n| matches!(n, Notice::PuzzleDone { id, solved: true, .. } if *id == p.id),
                );
                assert_eq!(done, i + 1 == line.len(), "{} after move {}", p.id, i + 1);
                assert!(
                    !notices(&fx)
                        .iter()
                        .any(|n| matches!(n, Notice::PuzzleWrong { .. }))
                );
            }
            assert_eq!(s.puzzle().unwrap().outcome, Some(true), "{}", p.id);
        }
        assert_eq!(s.puzzle_progress().solved as usize, set.puzzles().len());
    }

    #[test]
    fn a_wrong_move_on_the_peg_board_stands_until_the_board_is_put_back() {
        let mut s = session();
        cmd(&mut s, PuzzleCommand::Start(Box::new(ladder())));
        let wrong = "b3b8".parse::<shakmaty::uci::UciMove>().unwrap();
        let wrong = wrong.to_move(s.record().position()).unwrap();
        let peg = |mv| Event::MovePlayed {
            mv,
            source: Source::PegBoard,
        };
        let fx = s.handle(0, peg(wrong));
        assert_eq!(
            said(&fx),
            "Rook Bella eight check: wrong. Take it back and try again"
        );
        assert!(matches!(notices(&fx)[..], [Notice::PuzzleWrong { .. }]));
        assert!(!fx.contains(&Effect::SaveGame));
        // On the record (as on the board) until put back; nothing else
        // is played meanwhile.
        assert_eq!(s.record().moves().len(), 2);
        let fx = typed(&mut s, "Kg7");
        assert!(said(&fx).contains("wrong."), "{}", said(&fx));
        assert_eq!(s.record().moves().len(), 2);
        // The tracker sees the board put back: a takeback, said.
        let fx = s.handle(0, Event::Command(Command::Takeback));
        assert_eq!(said(&fx), "Put back. Try again");
        assert_eq!(s.record().moves().len(), 1);
        assert!(s.pending().is_none(), "no question asked");
        let fx = typed(&mut s, "Ra7");
        assert!(notices(&fx).iter().any(|n| matches!(
            n,
            Notice::Move {
                source: Source::Engine,
                ..
            }
        )));
        assert_eq!(s.puzzle().unwrap().wrong, 1);
    }

    #[test]
    fn a_new_game_leaves_puzzle_mode_and_moves_are_free_again() {
        let mut s = session();
        cmd(&mut s, PuzzleCommand::Start(Box::new(ladder())));
        let fx = s.handle(0, Event::Command(Command::NewGame));
        assert!(fx.contains(&Effect::SaveGame), "the new game is saved");
        assert!(s.puzzle().is_none());
        let fx = typed(&mut s, "e4");
        assert!(
            notices(&fx)
                .iter()
                .any(|n| matches!(n, Notice::Move { .. }))
        );
        assert!(fx.contains(&Effect::SaveGame));
    }

    #[test]
    fn fixture_is_legal_and_mates() {
        let p = ladder();
        let line = p.line().unwrap();
        let (mut last, mv) = line.last().unwrap().clone();
        last.play_unchecked(mv);
        assert!(last.is_checkmate());
    }
}
