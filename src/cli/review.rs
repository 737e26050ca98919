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
//! (as in `rochade play`), `skip` or `quit`; what is printed is also
//! spoken unless `--quiet` (never with `--json`). While the engine works,
//! a position counter goes to stderr every two seconds, and is spoken
//! every six.

use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use serde_json::json;
use shakmaty::{Color, Position};

use super::{CliError, CliResult};
use crate::announce::AnnounceForm;
use crate::chess::{GameRecord, Letters, PieceLetters};
use crate::engine::analysis::{MOVETIME_CAP_MS, ReviewEngine, ReviewEvent};
use crate::engine::{DEFAULT_ENGINE_PATH, EngineError, Line};
use crate::session::{Priority, Speech};
use crate::speech::{BackendChoice, SpeechConfig, SpeechHandle, SpeechService, VoiceSettings};
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
}

/// Where the words go: printed (written form) and, unless quiet, spoken.
struct Voice {
    speech: Option<SpeechHandle>,
    lang: Lang,
}

impl Voice {
    fn start(quiet: bool, lang: Lang) -> Voice {
        if quiet {
            return Voice { speech: None, lang };
        }
        let config = SpeechConfig {
            backend: BackendChoice::Auto,
            lang,
            settings: VoiceSettings::default(),
            mode: Default::default(),
        };
        let speech = match SpeechService::spawn(config) {
            Ok(h) => {
                // A voice that hangs is replaced and the review goes on.
                h.on_fallback(|f| eprintln!("rochade: {}; {}", f.report, super::SPEECH_ADVICE));
                Some(h)
            }
            Err(e) => {
                let advice = super::SPEECH_ADVICE;
                eprintln!("rochade: no speech ({e}); printing only; {advice}");
                None
            }
        };
        Voice { speech, lang }
    }

    /// Prints `words` on stdout and says them.
    fn say(&self, words: &Utterance) {
        println!("{}", words.written);
        self.speak(words, Priority::Answer);
    }

    /// Says `words` without printing them.
    fn speak(&self, words: &Utterance, priority: Priority) {
        if let Some(s) = &self.speech {
            s.speak(Speech {
                text: words.clone(),
                lang: self.lang,
                priority,
            });
        }
    }

    /// Lets the voice finish before the command ends.
    fn finish(&self) {
        if let Some(s) = &self.speech {
            s.wait_idle(Duration::from_secs(30));
        }
    }
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
    let voice = Voice::start(args.quiet || args.json, args.lang);
    let engine = ReviewEngine::spawn(args.engine.clone(), args.depth);
    engine.analyse(record.clone());
    let lines = wait_lines(&engine, &pack, args.json, &voice);
    let lines = lines.inspect_err(|_| voice.finish())?;
    let review = GameReview::new(&record, &lines, side).map_err(CliError::failure)?;
    if args.json {
        return print_json(&review, side);
    }
    let form = AnnounceForm::Short;
    voice.say(&core_review::summary_words(&pack, &review));
    // The list is printed whole; of it, only the rows of the mistakes are
    // said (all of it spoken would hold up the exercises).
    for m in &review.moves {
        let row = core_review::move_row(&pack, &record, m, form);
        println!("{}", row.written);
        if m.mistake.is_some() {
            voice.speak(&row, Priority::Answer);
        }
    }
    let exercises = review.exercises(&record);
    let result = run_exercises(&engine, &pack, &exercises, args.lang, form, &voice);
    voice.finish();
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
    voice: &Voice,
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
                eprintln!("rochade: {}", words.written);
                if due(last_spoken, SPEAK_STATUS_EVERY) {
                    last_spoken = Some(Instant::now());
                    voice.speak(&words, Priority::Guidance);
                }
            }
            Ok(ReviewEvent::Lines(lines)) => return Ok(lines),
            Ok(ReviewEvent::Failed(e)) => return Err(engine_failed(pack, &e, json, voice)),
            Ok(ReviewEvent::Scored { .. }) => {}
            Err(_) => return Err(engine_failed(pack, &EngineError::Hung, json, voice)),
        }
    }
}

fn number(pack: &Pack, n: usize) -> Utterance {
    pack.render(&[crate::words::Token::Number(n as u64)])
}

/// The engine failed: what to do, in the user's words, said (and as a
/// JSON `error` line with `--json`); main writes it to stderr.
fn engine_failed(pack: &Pack, e: &EngineError, json: bool, voice: &Voice) -> CliError {
    let reason = e.to_string();
    let words = pack.phrase(
        "review_engine_failed",
        &[("reason", reason.as_str().into())],
    );
    if json {
        println!("{}", json!({"event": "error", "reason": words.written}));
    }
    voice.speak(&words, Priority::Alert);
    CliError::failure(words.written)
}

/// Offers each mistake again; answers are read from stdin.
fn run_exercises(
    engine: &ReviewEngine,
    pack: &Pack,
    exercises: &[Exercise],
    lang: Lang,
    form: AnnounceForm,
    voice: &Voice,
) -> CliResult {
    let stdin = std::io::stdin();
    let mut input = stdin.lock().lines();
    let letters = PieceLetters::new(Letters::En, lang);
    let mut asked = 0u64;
    for exercise in exercises {
        voice.say(&core_review::exercise_prompt(pack, exercise, form));
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
                    voice.say(&core_review::solution_words(pack, exercise, form));
                    break;
                }
                _ => {}
            }
            let Ok(answer) = crate::chess::parse_move(&exercise.position, text, letters, &[pack])
            else {
                voice.say(&pack.phrase("review_illegal", &[("text", text.into())]));
                continue;
            };
            let mut verdict = exercise.check(answer, None);
            if verdict == Verdict::Unchecked {
                asked += 1;
                let mut after = exercise.position.clone();
                after.play_unchecked(answer);
                engine.score(asked, after);
                let line = wait_score(engine, pack, asked, voice)?;
                verdict = exercise.check(answer, Some(&line));
            }
            let words = core_review::verdict_words(pack, exercise, answer, verdict, form);
            voice.say(&words);
            if verdict.solved() {
                break;
            }
        }
    }
    voice.say(&pack.say("review_exercises_done"));
    Ok(())
}

fn wait_score(
    engine: &ReviewEngine,
    pack: &Pack,
    id: u64,
    voice: &Voice,
) -> Result<Line, CliError> {
    loop {
        match engine.events().recv_timeout(SILENCE) {
            Ok(ReviewEvent::Scored { id: got, line }) if got == id => return Ok(line),
            Ok(ReviewEvent::Failed(e)) => return Err(engine_failed(pack, &e, false, voice)),
            Ok(_) => {}
            Err(_) => return Err(engine_failed(pack, &EngineError::Hung, false, voice)),
        }
    }
}
