//! `rochade review GAME.pgn`: learn from a game. The engine searches
//! every position at a fixed depth; the player's inaccuracies, mistakes
//! and blunders are judged as Lichess judges them
//! ([`rochade_core::review::judge`]).
//!
//! With `--json`, one line per mistake in ply order,
//! `{"event":"mistake","ply":N,"played":uci,"best":uci,"loss":centipawns,"kind":"inaccuracy"|"mistake"|"blunder"}`,
//! then `{"event":"end","side":..,"mistakes":N}`. Without it, the list of
//! moves in words (the evaluation after each, the time spent, the
//! judgement), then each mistake as an exercise: the player types a move
//! (as in `rochade play`), `skip` or `quit`. While the engine works, a
//! position counter goes to stderr every two seconds.

use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use serde_json::json;
use shakmaty::{Color, Position};

use super::{CliError, CliResult};
use crate::announce::AnnounceForm;
use crate::chess::{GameRecord, Letters, PieceLetters};
use crate::engine::review::{MOVETIME_CAP_MS, ReviewEngine, ReviewEvent};
use crate::engine::{DEFAULT_ENGINE_PATH, EngineError, Line};
use crate::words::{Lang, Pack};
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
}

/// Reads game `game` (from 1) of a PGN file, as `export` reads it: capped,
/// UTF-8, no NUL bytes, errors placed by line and column.
pub(super) fn read_game_file(path: &Path, game: usize) -> Result<GameRecord, CliError> {
    if game == 0 {
        return Err(CliError::input("--game counts from 1"));
    }
    let bytes = crate::read_capped::read_capped(path, crate::read_capped::PGN_CAP)
        .map_err(|e| CliError::input(format!("cannot read {}: {e}", path.display())))?;
    let place = |bytes: &[u8], at: usize| {
        let (line, column) = crate::text::line_column(bytes, at);
        format!("line {line}, column {column}")
    };
    let text = String::from_utf8(bytes).map_err(|e| {
        let at = place(e.as_bytes(), e.utf8_error().valid_up_to());
        CliError::input(format!("{}: {at}: not UTF-8 text", path.display()))
    })?;
    // NUL bytes (a file overwritten by a crash, a disk image) are no PGN.
    if let Some(at) = text.find('\0') {
        return Err(CliError::input(format!(
            "{}: {}: not a PGN text (a NUL byte)",
            path.display(),
            place(text.as_bytes(), at)
        )));
    }
    crate::export::read_pgn(&text, game - 1)
        .map_err(|e| CliError::input(format!("{}: {e}", path.display())))
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
    let engine = ReviewEngine::spawn(args.engine.clone(), args.depth);
    engine.analyse(record.clone());
    let lines = wait_lines(&engine, &pack, args.json)?;
    let review = GameReview::new(&record, &lines, side).map_err(CliError::failure)?;
    let mut stdout = std::io::stdout().lock();
    if args.json {
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
        let end = json!({"event": "end", "side": side_word, "mistakes": review.mistakes().count()});
        writeln!(stdout, "{end}")?;
        return Ok(());
    }
    let form = AnnounceForm::Short;
    writeln!(
        stdout,
        "{}",
        core_review::summary_words(&pack, &review).written
    )?;
    for m in &review.moves {
        writeln!(
            stdout,
            "{}",
            core_review::move_row(&pack, &record, m, form).written
        )?;
    }
    stdout.flush()?;
    drop(stdout);
    exercises(&engine, &pack, &review.exercises(&record), args.lang, form)
}

/// Waits for the lines of every position, writing the counter to stderr.
fn wait_lines(engine: &ReviewEngine, pack: &Pack, json: bool) -> Result<Vec<Line>, CliError> {
    let mut last_status: Option<Instant> = None;
    loop {
        match engine.events().recv_timeout(SILENCE) {
            Ok(ReviewEvent::Progress { done, total }) => {
                if last_status.is_none_or(|at| at.elapsed() >= STATUS_EVERY) || done == total {
                    last_status = Some(Instant::now());
                    let words = pack.phrase(
                        "review_analysing",
                        &[("ply", number(pack, done)), ("count", number(pack, total))],
                    );
                    eprintln!("rochade: {}", words.written);
                }
            }
            Ok(ReviewEvent::Lines(lines)) => return Ok(lines),
            Ok(ReviewEvent::Failed(e)) => return Err(engine_failed(pack, &e, json)),
            Ok(ReviewEvent::Scored { .. }) => {}
            Err(_) => return Err(engine_failed(pack, &EngineError::Hung, json)),
        }
    }
}

fn number(pack: &Pack, n: usize) -> crate::words::Utterance {
    pack.render(&[crate::words::Token::Number(n as u64)])
}

/// The engine failed: what to do, in the user's words (and as a JSON
/// `error` line with `--json`).
fn engine_failed(pack: &Pack, e: &EngineError, json: bool) -> CliError {
    let words = pack.phrase(
        "review_engine_failed",
        &[("reason", e.to_string().as_str().into())],
    );
    if json {
        println!("{}", json!({"event": "error", "reason": words.written}));
    }
    CliError::failure(words.written)
}

/// Offers each mistake again; answers are read from stdin.
fn exercises(
    engine: &ReviewEngine,
    pack: &Pack,
    exercises: &[Exercise],
    lang: Lang,
    form: AnnounceForm,
) -> CliResult {
    let stdin = std::io::stdin();
    let mut input = stdin.lock().lines();
    let letters = PieceLetters::new(Letters::En, lang);
    let mut asked = 0u64;
    for exercise in exercises {
        println!(
            "{}",
            core_review::exercise_prompt(pack, exercise, form).written
        );
        loop {
            let Some(line) = input.next() else {
                return Ok(());
            };
            let text = line?;
            let text = text.trim();
            match text.to_ascii_lowercase().as_str() {
                "" => continue,
                "quit" | "exit" | "q" => return Ok(()),
                "skip" | "weiter" | "pular" => {
                    println!(
                        "{}",
                        core_review::solution_words(pack, exercise, form).written
                    );
                    break;
                }
                _ => {}
            }
            let Ok(answer) = crate::chess::parse_move(&exercise.position, text, letters, &[pack])
            else {
                println!(
                    "{}",
                    pack.phrase("review_illegal", &[("text", text.into())])
                        .written
                );
                continue;
            };
            let mut verdict = exercise.check(answer, None);
            if verdict == Verdict::Unchecked {
                asked += 1;
                let mut after = exercise.position.clone();
                after.play_unchecked(answer);
                engine.score(asked, after);
                let line = wait_score(engine, pack, asked)?;
                verdict = exercise.check(answer, Some(&line));
            }
            println!(
                "{}",
                core_review::verdict_words(pack, exercise, answer, verdict, form).written
            );
            if verdict.solved() {
                break;
            }
        }
    }
    println!("{}", pack.say("review_exercises_done").written);
    Ok(())
}

fn wait_score(engine: &ReviewEngine, pack: &Pack, id: u64) -> Result<Line, CliError> {
    loop {
        match engine.events().recv_timeout(SILENCE) {
            Ok(ReviewEvent::Scored { id: got, line }) if got == id => return Ok(line),
            Ok(ReviewEvent::Failed(e)) => return Err(engine_failed(pack, &e, false)),
            Ok(_) => {}
            Err(_) => return Err(engine_failed(pack, &EngineError::Hung, false)),
        }
    }
}
