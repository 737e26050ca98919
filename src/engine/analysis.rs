//! The engine's side of "learn from your games": one line per position
//! of a game at a fixed depth, and the score of an exercise's answer, on
//! a thread of its own that owns its engine process.
//!
//! Every search has the engine's deadline (the time cap plus a slack,
//! [`super::Engine::search`]): an engine that stops answering is reported
//! as [`EngineError::Hung`] and killed, never waited on for ever.

use std::path::{Path, PathBuf};
use std::sync::mpsc::{self, Receiver, Sender};

use shakmaty::uci::UciMove;
use shakmaty::{Chess, EnPassantMode, Position};

use super::{CommandLog, Engine, EngineError, Level, Line, Score};
use crate::chess::GameRecord;

/// The longest one position is searched (the depth usually ends it far
/// sooner); the engine counts as hung 10 s after it.
pub const MOVETIME_CAP_MS: u64 = 20_000;

/// What the review thread reports.
#[derive(Clone, Debug, PartialEq)]
pub enum ReviewEvent {
    /// Position `done` of `total` searched.
    Progress { done: usize, total: usize },
    /// One line per position of the game, in order.
    Lines(Vec<Line>),
    /// The engine's line in the position after an answer (`id` as asked).
    Scored { id: u64, line: Line },
    /// The engine is missing, crashed or hung; the job is lost.
    Failed(EngineError),
}

enum Job {
    Game(GameRecord),
    Score { id: u64, position: Chess },
}

/// The review's engine thread.
pub struct ReviewEngine {
    jobs: Sender<Job>,
    events: Receiver<ReviewEvent>,
}

impl ReviewEngine {
    /// Starts the thread; the engine program starts with the first job
    /// (and again after a failure).
    pub fn spawn(path: PathBuf, depth: u8) -> ReviewEngine {
        let (jobs, job_rx) = mpsc::channel::<Job>();
        let (tx, events) = mpsc::channel();
        let _ = std::thread::Builder::new()
            .name("review-engine".into())
            .spawn(move || {
                let mut engine: Option<Engine> = None;
                for job in job_rx {
                    let result = run_job(&path, depth, &mut engine, job, &tx);
                    if let Err(e) = result {
                        if let Some(mut dead) = engine.take() {
                            dead.kill();
                        }
                        if tx.send(ReviewEvent::Failed(e)).is_err() {
                            break;
                        }
                    }
                }
            });
        ReviewEngine { jobs, events }
    }

    /// Searches every position of `record`: progress, then the lines.
    pub fn analyse(&self, record: GameRecord) {
        let _ = self.jobs.send(Job::Game(record));
    }

    /// Searches `position` (the one after an answer).
    pub fn score(&self, id: u64, position: Chess) {
        let _ = self.jobs.send(Job::Score { id, position });
    }

    pub fn events(&self) -> &Receiver<ReviewEvent> {
        &self.events
    }
}

fn run_job(
    path: &Path,
    depth: u8,
    engine: &mut Option<Engine>,
    job: Job,
    tx: &Sender<ReviewEvent>,
) -> Result<(), EngineError> {
    if engine.is_none() {
        *engine = Some(Engine::start(path, CommandLog::default())?);
    }
    let e = engine.as_mut().ok_or(EngineError::Crashed)?;
    let event = match job {
        Job::Game(record) => {
            let total = record.moves().len() + 1;
            // Nobody listening any more (the window closed): stop early.
            let lines = analyse_game(e, &record, depth, |done| {
                tx.send(ReviewEvent::Progress { done, total }).is_ok()
            })?;
            ReviewEvent::Lines(lines)
        }
        Job::Score { id, position } => ReviewEvent::Scored {
            id,
            line: best_line(e, &position, depth)?,
        },
    };
    let _ = tx.send(event);
    Ok(())
}

/// The engine's best line in each position of `record` (before each move
/// and after the last), `progress` called with the count done; when it
/// returns false the search stops there (fewer lines).
pub fn analyse_game(
    engine: &mut Engine,
    record: &GameRecord,
    depth: u8,
    mut progress: impl FnMut(usize) -> bool,
) -> Result<Vec<Line>, EngineError> {
    let count = record.moves().len();
    let mut lines = Vec::with_capacity(count + 1);
    for i in 0..=count {
        lines.push(best_line(engine, record.position_before(i), depth)?);
        if !progress(i + 1) {
            break;
        }
    }
    Ok(lines)
}

/// The engine's best line in `position`, searched to `depth`; a position
/// with no move (mate or stalemate) scored without asking.
pub fn best_line(engine: &mut Engine, position: &Chess, depth: u8) -> Result<Line, EngineError> {
    if position.is_game_over() {
        let score = if position.is_checkmate() {
            Score::Mate(0)
        } else {
            Score::Cp(0)
        };
        return Ok(Line {
            score,
            pv: Vec::new(),
        });
    }
    let fen = shakmaty::fen::Fen::from_position(position, EnPassantMode::Legal).to_string();
    // Full strength, one line (MultiPV 1), to the depth or the time cap.
    let plan = Level::analysis(engine.options(), MOVETIME_CAP_MS, Some(depth));
    let (mut lines, best) = engine.search(&fen, &[], &plan)?;
    if lines.is_empty() {
        return Err(EngineError::BadRequest(format!(
            "no line for {fen} (best move {best:?})"
        )));
    }
    let mut line = lines.swap_remove(0);
    // The line's first move is the engine's choice; `bestmove` wins if the
    // last info line was cut short.
    if let Some(best) = best
        && line.pv.first() != Some(&best)
    {
        line.pv = vec![best];
    }
    line.pv.retain(|m| *m != UciMove::Null);
    Ok(line)
}
