//! The shell part: a UCI engine process and the thread that owns it.
//!
//! Messages are written and parsed with `shakmaty-uci`. A reader thread
//! turns the engine's stdout into lines, so every wait has a deadline: an
//! engine that stops answering is reported as hung and killed, never
//! waited on for ever. What the engine writes is bounded ([`BoundedLines`]):
//! a line without end or thousands of lines a second (`--engine
//! /usr/bin/yes`) is reported as [`EngineError::Flooded`] and the engine
//! killed, before it fills the memory (it took 2 to 3 GB in seconds).

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender, SyncSender};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use shakmaty::fen::Fen;
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, Position};
use shakmaty_uci::{UciInfoScore, UciMessage, UciSearchControl, UciTimeControl};

use super::{
    Ask, EngineAnswer, EngineError, EngineEvent, EngineOptions, EngineRequest, Level, Line, Plan,
    Rng, Score, choose_move,
};

/// Where Debian's `stockfish` package installs the engine.
#[cfg(not(windows))]
pub const DEFAULT_ENGINE_PATH: &str = "/usr/games/stockfish";
/// Windows has no usual place: the engine is looked for beside
/// rochade.exe and on PATH (the official Stockfish download is a single
/// `stockfish.exe`); Settings can name another.
#[cfg(windows)]
pub const DEFAULT_ENGINE_PATH: &str = "stockfish.exe";

/// How long the engine may take beyond the think time before it counts as hung.
const SLACK: Duration = Duration::from_secs(10);

/// The longest line an engine may write: a UCI `info` line with a long
/// principal variation is a few KB.
pub const MAX_LINE_BYTES: usize = 16 * 1024;
/// The most lines an engine may write in one second: Stockfish writes a
/// few dozen a search, far fewer than this a second.
pub const MAX_LINES_PER_SECOND: u32 = 5_000;
/// Lines read and not handled yet, at most: beyond, the reader waits (and
/// the engine with it, on its full pipe).
const QUEUED_LINES: usize = 256;
/// `info` lines with another `multipv` number kept per search, at most
/// (Stockfish allows 500).
const MAX_MULTIPV: usize = 500;
/// Options kept from the engine's `uci` reply, at most (Stockfish has
/// about 20).
const MAX_OPTIONS: usize = 1_000;

/// An engine's output as lines, bounded: a line longer than
/// [`MAX_LINE_BYTES`] (a CR before its LF counted), or more than [`MAX_LINES_PER_SECOND`] lines within a
/// second, is a flood. Time is passed in.
pub struct BoundedLines<R> {
    inner: R,
    line: Vec<u8>,
    window_start: Option<Instant>,
    in_window: u32,
}

impl<R: BufRead> BoundedLines<R> {
    pub fn new(inner: R) -> BoundedLines<R> {
        BoundedLines {
            inner,
            line: Vec::new(),
            window_start: None,
            in_window: 0,
        }
    }

    /// The next line (without its line end; bytes that are not UTF-8
    /// replaced), `Ok(None)` at the end of the output, `Err` at a flood or
    /// a read error (the engine is then to be stopped).
    pub fn next_line(&mut self, now: Instant) -> Result<Option<String>, EngineError> {
        self.line.clear();
        loop {
            let available = self.inner.fill_buf().map_err(|_| EngineError::Crashed)?;
            if available.is_empty() {
                if self.line.is_empty() {
                    return Ok(None);
                }
                break;
            }
            let (take, ended) = match available.iter().position(|&b| b == b'\n') {
                Some(i) => (i, true),
                None => (available.len(), false),
            };
            if self.line.len() + take > MAX_LINE_BYTES {
                return Err(EngineError::Flooded);
            }
            self.line.extend_from_slice(&available[..take]);
            self.inner.consume(take + usize::from(ended));
            if ended {
                break;
            }
        }
        match self.window_start {
            Some(start) if now.saturating_duration_since(start) < Duration::from_secs(1) => {
                self.in_window += 1;
                if self.in_window > MAX_LINES_PER_SECOND {
                    return Err(EngineError::Flooded);
                }
            }
            _ => {
                self.window_start = Some(now);
                self.in_window = 1;
            }
        }
        if self.line.last() == Some(&b'\r') {
            self.line.pop();
        }
        Ok(Some(String::from_utf8_lossy(&self.line).into_owned()))
    }
}

/// The reader thread: the engine's lines to `tx` until its output ends,
/// it floods (then the flood is the last thing sent and the output is
/// left unread) or nobody listens.
fn read_engine(stdout: impl std::io::Read, tx: SyncSender<Result<String, EngineError>>) {
    let mut lines = BoundedLines::new(BufReader::new(stdout));
    loop {
        match lines.next_line(Instant::now()) {
            Ok(Some(line)) => {
                if tx.send(Ok(line)).is_err() {
                    return;
                }
            }
            Ok(None) => return,
            Err(e) => {
                let _ = tx.send(Err(e));
                return;
            }
        }
    }
}

/// Every line sent to the engine, in order (shared with tests and logs).
#[derive(Clone, Debug, Default)]
pub struct CommandLog(Arc<Mutex<Vec<String>>>);

impl CommandLog {
    pub fn lines(&self) -> Vec<String> {
        self.0.lock().map(|l| l.clone()).unwrap_or_default()
    }

    fn push(&self, line: String) {
        if let Ok(mut l) = self.0.lock() {
            l.push(line);
        }
    }
}

/// A running UCI engine.
pub struct Engine {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<Result<String, EngineError>>,
    name: String,
    options: EngineOptions,
    /// Option values last sent, so each is sent only when it changes.
    sent: BTreeMap<String, String>,
    log: CommandLog,
}

impl Engine {
    /// Starts the engine and completes the `uci` / `isready` handshake.
    pub fn start(path: &Path, log: CommandLog) -> Result<Engine, EngineError> {
        let mut child = Command::new(path)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| EngineError::Missing(format!("{}: {e}", path.display())))?;
        let stdin = child.stdin.take().ok_or(EngineError::Crashed)?;
        let stdout = child.stdout.take().ok_or(EngineError::Crashed)?;
        let (tx, lines) = mpsc::sync_channel(QUEUED_LINES);
        std::thread::Builder::new()
            .name("engine-reader".into())
            .spawn(move || read_engine(stdout, tx))
            .map_err(|e| EngineError::Missing(e.to_string()))?;
        let mut engine = Engine {
            child,
            stdin,
            lines,
            name: path.display().to_string(),
            options: EngineOptions::default(),
            sent: BTreeMap::new(),
            log,
        };
        engine.send(&UciMessage::Uci)?;
        let deadline = Instant::now() + SLACK;
        let mut options = EngineOptions::default();
        let mut name = None;
        let mut option_lines = 0;
        engine.read_until(deadline, |msg| {
            match msg {
                UciMessage::Option(o) if option_lines < MAX_OPTIONS => {
                    option_lines += 1;
                    options.add(&o);
                }
                UciMessage::Id { name: Some(n), .. } => name = Some(n),
                UciMessage::UciOk => return true,
                _ => {}
            }
            false
        })?;
        engine.options = options;
        if let Some(n) = name {
            engine.name = n;
        }
        engine.ready()?;
        Ok(engine)
    }

    pub fn name(&self) -> &str {
        &self.name
    }

    pub fn options(&self) -> &EngineOptions {
        &self.options
    }

    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    fn send(&mut self, msg: &UciMessage) -> Result<(), EngineError> {
        let line = msg.to_string();
        self.log.push(line.clone());
        writeln!(self.stdin, "{line}")
            .and_then(|()| self.stdin.flush())
            .map_err(|_| EngineError::Crashed)
    }

    fn read_until(
        &mut self,
        deadline: Instant,
        mut done: impl FnMut(UciMessage) -> bool,
    ) -> Result<(), EngineError> {
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(Err(flood)) => return Err(flood),
                Ok(Ok(line)) => {
                    // `bestmove (none)` (mate or stalemate on the board) is
                    // not UCI the parser knows: read it as the null move.
                    let parsed = line.parse::<UciMessage>().or_else(|e| {
                        if line.split_whitespace().next() == Some("bestmove") {
                            Ok(UciMessage::BestMove {
                                best_move: UciMove::Null,
                                ponder: None,
                            })
                        } else {
                            Err(e)
                        }
                    });
                    if let Ok(msg) = parsed
                        && done(msg)
                    {
                        return Ok(());
                    }
                }
                Err(RecvTimeoutError::Timeout) => return Err(EngineError::Hung),
                Err(RecvTimeoutError::Disconnected) => return Err(EngineError::Crashed),
            }
        }
    }

    fn ready(&mut self) -> Result<(), EngineError> {
        self.send(&UciMessage::IsReady)?;
        self.read_until(Instant::now() + SLACK, |m| m == UciMessage::ReadyOk)
    }

    /// Searches `fen` plus `moves` as the plan says; returns the lines
    /// (best first) and the engine's `bestmove`.
    pub fn search(
        &mut self,
        fen: &str,
        moves: &[UciMove],
        plan: &Plan,
    ) -> Result<(Vec<Line>, Option<UciMove>), EngineError> {
        for (name, value) in &plan.options {
            if self.sent.get(name) != Some(value) {
                self.send(&UciMessage::SetOption {
                    name: name.clone(),
                    value: Some(value.clone()),
                })?;
                self.sent.insert(name.clone(), value.clone());
            }
        }
        let fen: Fen = fen
            .parse()
            .map_err(|e| EngineError::BadRequest(format!("{e}")))?;
        self.send(&UciMessage::Position {
            startpos: false,
            fen: Some(fen),
            moves: moves.to_vec(),
        })?;
        let search_control =
            (plan.depth.is_some() || plan.nodes.is_some()).then(|| UciSearchControl {
                search_moves: Vec::new(),
                mate: None,
                depth: plan.depth,
                nodes: plan.nodes,
            });
        self.send(&UciMessage::Go {
            time_control: Some(UciTimeControl::MoveTime(Duration::from_millis(
                plan.movetime_ms,
            ))),
            search_control,
        })?;
        let mut by_pv: BTreeMap<u16, Line> = BTreeMap::new();
        let mut best = None;
        let deadline = Instant::now() + Duration::from_millis(plan.movetime_ms) + SLACK;
        self.read_until(deadline, |msg| match msg {
            UciMessage::Info(info) => {
                if let (Some(score), Some(first)) = (info.score.as_ref(), info.pv.first())
                    && !score.lower_bound
                    && !score.upper_bound
                {
                    let _ = first;
                    let multi_pv = info.multi_pv.unwrap_or(1);
                    let room = by_pv.len() < MAX_MULTIPV || by_pv.contains_key(&multi_pv);
                    if let Some(score) = convert(score)
                        && room
                    {
                        by_pv.insert(multi_pv, Line { score, pv: info.pv });
                    }
                }
                false
            }
            UciMessage::BestMove { best_move, .. } => {
                best = Some(best_move);
                true
            }
            _ => false,
        })?;
        let mut lines: Vec<Line> = by_pv.into_values().collect();
        lines.sort_by_key(|l| -l.score.as_cp());
        Ok((lines, best.filter(|m| m.to_string() != "0000")))
    }

    /// Stops the process at once.
    pub fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.send(&UciMessage::Quit);
        // Give a well-behaved engine a moment, then make sure.
        let deadline = Instant::now() + Duration::from_millis(200);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        self.kill();
    }
}

fn convert(score: &UciInfoScore) -> Option<Score> {
    match (score.mate, score.cp) {
        (Some(m), _) => Some(Score::Mate(m.into())),
        (None, Some(cp)) => Some(Score::Cp(cp)),
        _ => None,
    }
}

/// Answers one request with a started engine.
fn answer(engine: &mut Engine, req: &EngineRequest) -> Result<EngineAnswer, EngineError> {
    let start: Fen = req
        .fen
        .parse()
        .map_err(|e| EngineError::BadRequest(format!("{e}")))?;
    let mut pos: Chess = start
        .into_position(CastlingMode::Standard)
        .map_err(|e| EngineError::BadRequest(format!("{e}")))?;
    let mut positions = vec![pos.clone()];
    for m in &req.moves {
        let mv = m
            .to_move(&pos)
            .map_err(|e| EngineError::BadRequest(format!("{m}: {e}")))?;
        pos.play_unchecked(mv);
        positions.push(pos.clone());
    }
    let mut out = EngineAnswer {
        id: req.id,
        ask: req.ask,
        best: None,
        lines: Vec::new(),
    };
    match req.ask {
        Ask::Move => {
            let plan = req.level.plan(engine.options());
            let (lines, best) = engine.search(&req.fen, &req.moves, &plan)?;
            let mut rng = Rng::new(req.seed);
            out.best = choose_move(&pos, &lines, best.as_ref(), plan.choice, &mut rng);
            out.lines = lines;
        }
        Ask::Hint | Ask::Threat | Ask::Evaluate => {
            let plan = Level::analysis(engine.options(), 500, None);
            let (lines, best) = engine.search(&req.fen, &req.moves, &plan)?;
            out.best = best;
            out.lines = lines;
        }
        Ask::Review => {
            let plan = Level::analysis(engine.options(), 300, Some(10));
            for (n, position) in positions.iter().enumerate() {
                let (mut lines, best) = engine.search(&req.fen, &req.moves[..n], &plan)?;
                let line = if lines.is_empty() {
                    // Mate or stalemate on the board: no line to report.
                    let score = if position.is_checkmate() {
                        Score::Mate(0)
                    } else {
                        Score::Cp(0)
                    };
                    Line {
                        score,
                        pv: best.into_iter().collect(),
                    }
                } else {
                    lines.swap_remove(0)
                };
                out.lines.push(line);
            }
        }
    }
    Ok(out)
}

enum Job {
    Ask(EngineRequest),
    Restart,
}

/// The engine thread. Requests are answered in order; a missing, crashed
/// or hung engine is reported as [`EngineEvent::Failed`] and started again
/// on the next request or [`EngineService::restart`].
pub struct EngineService {
    jobs: Sender<Job>,
    events: Receiver<EngineEvent>,
    log: CommandLog,
    pid: Arc<Mutex<Option<u32>>>,
    flooded: Arc<AtomicBool>,
}

impl EngineService {
    pub fn spawn(path: PathBuf) -> EngineService {
        let (jobs, job_rx) = mpsc::channel::<Job>();
        let (event_tx, events) = mpsc::channel();
        let log = CommandLog::default();
        let pid = Arc::new(Mutex::new(None));
        let flooded = Arc::new(AtomicBool::new(false));
        let (thread_log, thread_pid) = (log.clone(), pid.clone());
        let thread_flooded = flooded.clone();
        let _ = std::thread::Builder::new()
            .name("engine".into())
            .spawn(move || {
                let mut engine: Option<Engine> = None;
                let start = |engine: &mut Option<Engine>| -> Result<(), EngineError> {
                    if engine.is_none() {
                        let e = Engine::start(&path, thread_log.clone())?;
                        if let Ok(mut p) = thread_pid.lock() {
                            *p = Some(e.pid());
                        }
                        thread_flooded.store(false, Ordering::Relaxed);
                        let _ = event_tx.send(EngineEvent::Ready {
                            name: e.name().to_owned(),
                        });
                        *engine = Some(e);
                    }
                    Ok(())
                };
                for job in job_rx {
                    let (id, result) = match job {
                        Job::Restart => {
                            if let Some(mut e) = engine.take() {
                                e.kill();
                            }
                            (None, start(&mut engine).map(|()| None))
                        }
                        Job::Ask(req) => (
                            Some(req.id),
                            start(&mut engine).and_then(|()| {
                                let e = engine.as_mut().ok_or(EngineError::Crashed)?;
                                answer(e, &req).map(Some)
                            }),
                        ),
                    };
                    let event = match result {
                        Ok(Some(a)) => EngineEvent::Answer(a),
                        Ok(None) => continue,
                        Err(err) => {
                            if !matches!(err, EngineError::BadRequest(_))
                                && let Some(mut e) = engine.take()
                            {
                                e.kill();
                            }
                            if err == EngineError::Flooded {
                                thread_flooded.store(true, Ordering::Relaxed);
                            }
                            EngineEvent::Failed { id, error: err }
                        }
                    };
                    if event_tx.send(event).is_err() {
                        break;
                    }
                }
            });
        EngineService {
            jobs,
            events,
            log,
            pid,
            flooded,
        }
    }

    pub fn ask(&self, request: EngineRequest) {
        let _ = self.jobs.send(Job::Ask(request));
    }

    /// Kills the engine (if running) and starts it again.
    pub fn restart(&self) {
        let _ = self.jobs.send(Job::Restart);
    }

    pub fn events(&self) -> &Receiver<EngineEvent> {
        &self.events
    }

    /// Every line sent to the engine so far.
    pub fn log(&self) -> &CommandLog {
        &self.log
    }

    /// The engine's last failure was a flood ([`EngineError::Flooded`]),
    /// and it was not started again since: a restart would flood again.
    pub fn flooded(&self) -> bool {
        self.flooded.load(Ordering::Relaxed)
    }

    /// The process id of the running engine, if one was started.
    pub fn pid(&self) -> Option<u32> {
        self.pid.lock().ok().and_then(|p| *p)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(text: &[u8]) -> BoundedLines<&[u8]> {
        BoundedLines::new(text)
    }

    #[test]
    fn a_line_up_to_the_bound_is_read_and_a_longer_one_is_a_flood() {
        let now = Instant::now();
        let longest = [vec![b'x'; MAX_LINE_BYTES], b"\nuciok\r\n".to_vec()].concat();
        let mut read = lines(&longest);
        assert_eq!(
            read.next_line(now).unwrap().map(|l| l.len()),
            Some(MAX_LINE_BYTES)
        );
        assert_eq!(read.next_line(now), Ok(Some("uciok".into())));
        assert_eq!(read.next_line(now), Ok(None));
        let longer = vec![b'x'; MAX_LINE_BYTES + 1];
        assert_eq!(lines(&longer).next_line(now), Err(EngineError::Flooded));
        // A last line without its line end is still a line.
        assert_eq!(
            lines(b"bestmove e2e4").next_line(now),
            Ok(Some("bestmove e2e4".into()))
        );
    }

    #[test]
    fn more_lines_than_the_bound_within_a_second_are_a_flood() {
        let text = b"info\n".repeat(2 * MAX_LINES_PER_SECOND as usize + 2);
        let start = Instant::now();
        // The bound a second, spread over two seconds: no flood.
        let mut read = lines(&text);
        for i in 0..2 * MAX_LINES_PER_SECOND {
            let at = start + Duration::from_millis(u64::from(i / MAX_LINES_PER_SECOND) * 1000);
            assert_eq!(read.next_line(at), Ok(Some("info".into())), "line {i}");
        }
        // One more within a second: a flood.
        let mut read = lines(&text);
        for _ in 0..MAX_LINES_PER_SECOND {
            assert!(read.next_line(start).unwrap().is_some());
        }
        let at = start + Duration::from_millis(999);
        assert_eq!(read.next_line(at), Err(EngineError::Flooded));
    }
}
