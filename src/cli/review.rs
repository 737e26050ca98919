//! `rochade review GAME.pgn`: learn from a game. The engine searches
//! every position at a fixed depth; the player's inaccuracies, mistakes
//! and blunders are judged as Lichess judges them
//! ([`rochade_core::review::judge`]).
//!
//! With `--json`, one line per mistake in ply order,
//! `{"event":"mistake","ply":N,"played":uci,"best":uci,"loss":centipawns,"kind":"inaccuracy"|"mistake"|"blunder"}`,
//! then `{"event":"end","side":..,"mistakes":N}`. Without it, the summary
//! and the player's mistakes in words (with `--moves` every move: the
//! evaluation after each, the time spent, the judgement), then each
//! mistake as an exercise: the player types a move
//! (as in `rochade play`) or, as in `rochade puzzle`, `help`, `position`,
//! `rank 3`, `file e`, `hint` (the piece, then the square too), `repeat`,
//! `skip` or `quit`; what is printed is also spoken unless `--quiet`
//! (never with `--json`). While the engine works,
//! a position counter goes to stderr every two seconds, and is spoken
//! every six.

use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use serde_json::json;
use shakmaty::{Color, Position};

use super::terminal_voice::TerminalVoice;
use super::{CliError, CliResult};
use crate::announce::AnnounceForm;
use crate::board::HostCommand;
use crate::chess::{GameRecord, Letters, PieceLetters};
use crate::engine::EngineRequest;
use crate::engine::analysis::{MOVETIME_CAP_MS, ReviewEngine, ReviewEvent};
use crate::engine::{DEFAULT_ENGINE_PATH, EngineError, Line};
use crate::runtime::{self, SaveStep, Shell};
use crate::session::{
    Command, Earcon, Effect, Notice, Priority, PuzzleCommand, SessionConfig, Speech,
};
use crate::words::{Lang, Pack, Utterance};
use rochade_core::review::{self as core_review, Exercise, GameReview, Verdict};

#[derive(clap::Args, Debug)]
pub struct Args {
    /// The game (a PGN file).
    pub input: PathBuf,
    /// The side you played (default: as the game's tags say, for games
    /// Rochade saved).
    #[arg(
        long,
        ignore_case = true,
        value_parser = clap::builder::TypedValueParser::map(clap::builder::EnumValueParser::<super::play::Side>::new(), Color::from)
    )]
    pub side: Option<Color>,
    /// Search depth for every position (plies).
    #[arg(long, default_value_t = core_review::DEFAULT_DEPTH, value_parser = clap::value_parser!(u8).range(1..=40))]
    pub depth: u8,
    /// One JSON object per mistake (and a closing `end`), no exercises.
    #[arg(long)]
    pub json: bool,
    /// Language of the words; typed moves may use its piece letters.
    #[arg(long, default_value = "de")]
    pub lang: Lang,
    /// The UCI engine program.
    #[arg(long, default_value = DEFAULT_ENGINE_PATH)]
    pub engine: PathBuf,
    /// Which game of the file, counting from 1.
    #[arg(long, default_value_t = 1)]
    pub game: usize,
    /// Print only; do not speak.
    #[arg(long)]
    pub quiet: bool,
    /// Print every move of the game (its evaluation and the time spent),
    /// not only your mistakes.
    #[arg(long)]
    pub moves: bool,
}

/// `rochade review`'s side of the runtime: what the review says goes out
/// as the session's effects ([`Effect::Speak`]), carried out by
/// [`runtime::carry_out`] like every front end's. Words are printed
/// (written form) and said; status ([`Priority::Guidance`], the counter
/// the caller writes to stderr) and failures ([`Priority::Alert`], which
/// `main` writes to stderr) are said only.
struct ReviewOut {
    voice: TerminalVoice,
    lang: Lang,
}

impl ReviewOut {
    /// Says `words` at `priority` through the runtime.
    fn say(&mut self, words: Utterance, priority: Priority) -> CliResult {
        let speech = Speech {
            text: words,
            lang: self.lang,
            priority,
        };
        // The review asks for no save, so nothing is ever held back.
        let held = runtime::carry_out(self, [Effect::Speak(speech)])?;
        debug_assert!(held.is_none());
        Ok(())
    }

    /// Prints and says an answer to the player.
    fn answer(&mut self, words: Utterance) -> CliResult {
        self.say(words, Priority::Answer)
    }
}

impl Shell for ReviewOut {
    type Error = CliError;

    fn speak(&mut self, speech: Speech) -> CliResult {
        let written = !matches!(speech.priority, Priority::Guidance | Priority::Alert);
        if written && !speech.text.written.is_empty() {
            let text = super::output::terminal_text(&speech.text);
            writeln!(std::io::stdout(), "{text}")?;
        }
        self.voice.speak(speech);
        Ok(())
    }
    fn sound(&mut self, _: Earcon) -> CliResult {
        // The terminal plays no earcons: every event is printed or said.
        Ok(())
    }
    fn notice(&mut self, _: Notice) -> CliResult {
        // The review's words reach the terminal as speech.
        Ok(())
    }
    fn save_game(&mut self) -> Result<SaveStep, CliError> {
        // The review reads a game; it writes none.
        Ok(SaveStep::Done)
    }
    fn board_command(&mut self, _: HostCommand) -> CliResult {
        // `review` follows no board.
        Ok(())
    }
    fn sighted_board_command(&mut self, _: HostCommand) -> CliResult {
        Ok(())
    }
    fn ask_engine(&mut self, request: EngineRequest) -> CliResult {
        // The review's engine is its own thread (`ReviewEngine`).
        Err(CliError::failure(format!(
            "internal: engine request {} reached the review",
            request.id
        )))
    }
    fn restart_engine(&mut self) -> CliResult {
        Err(CliError::failure(
            "internal: an engine restart reached the review".to_owned(),
        ))
    }
    fn config_changed(&mut self, _: SessionConfig) -> CliResult {
        // The review's settings are its arguments, kept nowhere.
        Ok(())
    }
    fn online(&mut self, _: rochade_core::online::OnlineEffect) -> CliResult {
        // `review` has no online play.
        Ok(())
    }
}

/// Reads game `game` (from 1) of a PGN file ([`crate::game_file`]).
pub(super) fn read_game_file(path: &Path, game: usize) -> Result<GameRecord, CliError> {
    if game == 0 {
        return Err(CliError::input("--game counts from 1"));
    }
    crate::game_file::read_game(path, game - 1).map_err(CliError::input)
}

/// One `mistake` line, its keys in the order the issue gives them
/// (a struct keeps its fields' order; `json!` sorts them).
#[derive(serde::Serialize)]
struct MistakeEvent {
    event: &'static str,
    ply: usize,
    played: String,
    best: String,
    loss: i32,
    kind: &'static str,
}

/// How long the review thread may stay silent: one search's cap and the
/// engine's own slack, with room to start the engine.
const SILENCE: Duration = Duration::from_millis(MOVETIME_CAP_MS + 30_000);

/// How often the position counter is written.
const STATUS_EVERY: Duration = Duration::from_secs(2);

pub fn run(args: Args) -> CliResult {
    let record = read_game_file(&args.input, args.game)?;
    let side = args
        .side
        .or_else(|| core_review::player_side(&record.tags))
        .ok_or_else(|| {
            CliError::input(format!(
                "{}: the game does not say which side you played: add --side white or --side black",
                args.input.display()
            ))
        })?;
    if record.moves().is_empty() {
        return Err(CliError::input(format!(
            "{}: the game has no moves to review",
            args.input.display()
        )));
    }
    let pack = super::load_pack(args.lang);
    let mut out = ReviewOut {
        voice: TerminalVoice::start(args.quiet || args.json, args.lang),
        lang: args.lang,
    };
    let engine = ReviewEngine::spawn(args.engine.clone(), args.depth);
    engine.analyse(record.clone());
    let lines = wait_lines(&engine, &pack, args.json, &mut out);
    let lines = lines.inspect_err(|_| out.voice.finish())?;
    let review = GameReview::new(&record, &lines, side).map_err(CliError::failure)?;
    if args.json {
        return print_json(&review, side);
    }
    let form = AnnounceForm::Short;
    out.answer(core_review::summary_words(&pack, &review))?;
    // The rows of the mistakes are printed and said; every move's row
    // only with `--moves` (20 lines of evaluations before the first
    // exercise were long by ear), printed and not said.
    for m in &review.moves {
        let row = core_review::move_row(&pack, &record, m, form);
        if m.mistake.is_some() {
            out.answer(row)?;
        } else if args.moves {
            println!("{}", super::output::terminal_text(&row));
        }
    }
    let exercises = review.exercises(&record);
    let result = run_exercises(&engine, &pack, &exercises, args.lang, form, &mut out);
    out.voice.finish();
    result
}

/// One `mistake` line per mistake in ply order, then `end`.
fn print_json(review: &GameReview, side: Color) -> CliResult {
    let mut stdout = std::io::stdout().lock();
    for (m, k) in review.mistakes() {
        let event = MistakeEvent {
            event: "mistake",
            ply: m.ply(),
            played: core_review::uci(m.played),
            best: core_review::uci(k.best),
            loss: k.loss_cp,
            kind: k.kind.word(),
        };
        let line = serde_json::to_string(&event).map_err(CliError::failure)?;
        writeln!(stdout, "{line}")?;
    }
    let side_word = if side == Color::White {
        "white"
    } else {
        "black"
    };
    let count = review.mistakes().count();
    let end = json!({"event": "end", "side": side_word, "mistakes": count});
    writeln!(stdout, "{end}")?;
    Ok(())
}

/// How often the position counter is spoken.
const SPEAK_STATUS_EVERY: Duration = Duration::from_secs(6);

/// Waits for the lines of every position, writing the counter to stderr
/// (and saying it now and then).
fn wait_lines(
    engine: &ReviewEngine,
    pack: &Pack,
    json: bool,
    out: &mut ReviewOut,
) -> Result<Vec<Line>, CliError> {
    let mut last_written: Option<Instant> = None;
    let mut last_spoken: Option<Instant> = None;
    let due = |at: Option<Instant>, every: Duration| at.is_none_or(|at| at.elapsed() >= every);
    loop {
        match engine.events().recv_timeout(SILENCE) {
            Ok(ReviewEvent::Progress { done, total }) => {
                if !due(last_written, STATUS_EVERY) && done != total {
                    continue;
                }
                last_written = Some(Instant::now());
                let count = [("ply", number(pack, done)), ("count", number(pack, total))];
                let words = pack.phrase("review_analysing", &count);
                eprintln!("rochade: {}", super::output::terminal_text(&words));
                if due(last_spoken, SPEAK_STATUS_EVERY) {
                    last_spoken = Some(Instant::now());
                    out.say(words, Priority::Guidance)?;
                }
            }
            Ok(ReviewEvent::Lines(lines)) => return Ok(lines),
            Ok(ReviewEvent::Failed(e)) => return Err(engine_failed(pack, &e, json, out)),
            Ok(ReviewEvent::Scored { .. }) => {}
            Err(_) => return Err(engine_failed(pack, &EngineError::Hung, json, out)),
        }
    }
}

fn number(pack: &Pack, n: usize) -> Utterance {
    pack.render(&[crate::words::Token::Number(n as u64)])
}

/// The engine failed: what to do, in the user's words, said (and as a
/// JSON `error` line with `--json`); main writes it to stderr.
fn engine_failed(pack: &Pack, e: &EngineError, json: bool, out: &mut ReviewOut) -> CliError {
    let reason = crate::engine::failure_words(pack, e);
    let words = pack.phrase("review_engine_failed", &[("reason", reason)]);
    if json {
        println!("{}", json!({"event": "error", "reason": words.written}));
    }
    let reason = words.written.clone();
    // A voice that fails here changes nothing: the failure is written by
    // main either way.
    let _ = out.say(words, Priority::Alert);
    CliError::failure(reason)
}

/// Offers each mistake again; answers are read from stdin.
fn run_exercises(
    engine: &ReviewEngine,
    pack: &Pack,
    exercises: &[Exercise],
    lang: Lang,
    form: AnnounceForm,
    out: &mut ReviewOut,
) -> CliResult {
    let stdin = std::io::stdin();
    let mut input = stdin.lock().lines();
    let letters = PieceLetters::new(Letters::En, lang);
    // The words of `rochade puzzle` (position, rank 3, file e, hint,
    // skip, repeat) in every language, as puzzles understand them.
    let packs: Vec<Pack> = Lang::ALL.iter().map(|&l| Pack::bundled(l)).collect();
    let mut asked = 0u64;
    if !exercises.is_empty() {
        out.answer(pack.say("terminal_help_hint"))?;
    }
    for exercise in exercises {
        let prompt = core_review::exercise_prompt(pack, exercise, form);
        out.answer(prompt.clone())?;
        let mut hints = 0;
        loop {
            let Some(line) = input.next() else {
                return Ok(());
            };
            let text = line?;
            let text = text.trim();
            if text.is_empty() {
                continue;
            }
            if super::play::is_quit(text) {
                return Ok(());
            }
            if super::play::is_help(text) {
                out.answer(pack.say("review_help"))?;
                continue;
            }
            let board = exercise.position.board();
            let words = match super::puzzle::command_for(text, &packs) {
                Some(Command::Puzzle(PuzzleCommand::Skip)) => {
                    out.answer(core_review::solution_words(pack, exercise, form))?;
                    break;
                }
                Some(Command::Puzzle(PuzzleCommand::Position)) => {
                    Some(core_review::exercise_position(pack, exercise))
                }
                Some(Command::Puzzle(PuzzleCommand::Rank(rank))) => {
                    Some(rochade_core::browse::rank(pack, board, rank))
                }
                Some(Command::Puzzle(PuzzleCommand::File(file))) => {
                    Some(rochade_core::browse::file(pack, board, file))
                }
                Some(Command::Puzzle(PuzzleCommand::Hint)) => {
                    hints += 1;
                    Some(core_review::exercise_hint(pack, exercise, hints >= 2))
                }
                Some(Command::Repeat) => Some(prompt.clone()),
                _ => None,
            };
            if let Some(words) = words {
                out.answer(words)?;
                continue;
            }
            let Ok(answer) = crate::chess::parse_move(&exercise.position, text, letters, &[pack])
            else {
                out.answer(pack.phrase("review_illegal", &[("text", text.into())]))?;
                continue;
            };
            let mut verdict = exercise.check(answer, None);
            if verdict == Verdict::Unchecked {
                asked += 1;
                let mut after = exercise.position.clone();
                after.play_unchecked(answer);
                engine.score(asked, after);
                let line = wait_score(engine, pack, asked, out)?;
                verdict = exercise.check(answer, Some(&line));
            }
            let words = core_review::verdict_words(pack, exercise, answer, verdict, form);
            out.answer(words)?;
            if verdict.solved() {
                break;
            }
        }
    }
    out.answer(pack.say("review_exercises_done"))?;
    Ok(())
}

fn wait_score(
    engine: &ReviewEngine,
    pack: &Pack,
    id: u64,
    out: &mut ReviewOut,
) -> Result<Line, CliError> {
    loop {
        match engine.events().recv_timeout(SILENCE) {
            Ok(ReviewEvent::Scored { id: got, line }) if got == id => return Ok(line),
            Ok(ReviewEvent::Failed(e)) => return Err(engine_failed(pack, &e, false, out)),
            Ok(_) => {}
            Err(_) => return Err(engine_failed(pack, &EngineError::Hung, false, out)),
        }
    }
}
