//! `rochade online`: a game on Lichess (or any server speaking its Board
//! API) from the terminal.
//!
//! The token comes from `ROCHADE_LICHESS_TOKEN` or the token file
//! (`--set-token` stores one read from stdin). A game is found with
//! `--seek MINUTES+INCREMENT`, `--ai LEVEL`, `--challenge USER` or
//! `--accept` (the first incoming challenge); without any, the next game
//! that starts (or one already running) is played. The player types moves
//! as in `rochade play` and the words `resign`, `draw` (offer or accept),
//! `yes`/`no` (to an offer), `takeback`, `abort`, `claim` (victory when the
//! opponent left), `chat` (read the opponent's lines), `chat TEXT`,
//! `clock`, `repeat`, `quit`. The opponent's moves are announced as they
//! arrive. `--json` prints one event per line: `game`, `move` (with `by`:
//! `player` or `opponent`), `say`, `offer`, `offer_declined`, `takeback`,
//! `connection` (`lost`, `back`, `game_missing`, `gone`), `caught_up`
//! (moves missed while the connection was lost follow), `chat`, `error`,
//! `end`.
//!
//! The server is the truth: every `gameFull`/`gameState` is compared with
//! the local record ([`rochade_core::online::OnlineGame::update`]), so a
//! refused move is taken back and a reconnection brings the record back to
//! the server's.

use std::io::{BufRead, Write};
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, Sender, channel};
use std::time::{Duration, Instant};

use rochade_core::online::{GameLine, IncomingEvent, TimeControlArg};
use serde_json::json;
use shakmaty::Color;

use super::{CliError, CliResult};
use crate::board::HostCommand;
use crate::chess::GameRecord;
use crate::engine::EngineRequest;
use crate::online::play::requests::{Requests, spawn_requests};
use crate::online::play::{
    By, Call, Host, OnlinePlay, Report, Todo, Waits, path_user, server_error,
};
use crate::online::{ApiError, Client, Find, StreamMsg, Timing, spawn_stream, token};
use crate::runtime::{SaveStep, Shell, carry_out};
use crate::session::{Earcon, Effect, Event, Notice, Priority, Session, SessionConfig, Speech};
use crate::speech::{BackendChoice, SpeechConfig, SpeechHandle, SpeechService, VoiceSettings};
use crate::words::{Lang, Utterance};

#[derive(clap::Args, Debug)]
pub struct Args {
    /// The server's address (any server with the Lichess Board API).
    #[arg(long, default_value = crate::online::DEFAULT_SERVER)]
    pub server: String,
    /// Seek a casual game with this time control (MINUTES+INCREMENT).
    #[arg(long, group = "find", value_name = "MINUTES+INCREMENT")]
    pub seek: Option<TimeControlArg>,
    /// Play Lichess's AI at this level (1-8).
    #[arg(long, group = "find", value_parser = clap::value_parser!(u8).range(1..=8))]
    pub ai: Option<u8>,
    /// Challenge this player.
    #[arg(long, group = "find", value_name = "USER")]
    pub challenge: Option<String>,
    /// Accept the first incoming challenge.
    #[arg(long, group = "find")]
    pub accept: bool,
    /// The clock of `--ai` and `--challenge` games (MINUTES+INCREMENT).
    #[arg(long, default_value = "10+5")]
    pub clock: TimeControlArg,
    /// Language of announcements and messages.
    #[arg(long, default_value = "de")]
    pub lang: Lang,
    /// One JSON object per line instead of text.
    #[arg(long)]
    pub json: bool,
    /// Print only; do not speak.
    #[arg(long)]
    pub quiet: bool,
    /// The blind player's peg-board on this serial port: his moves are read
    /// from it, the opponent's guided on it until executed.
    #[arg(long, value_name = "PORT")]
    pub board: Option<String>,
    /// The peg-board's wire format: peg, liboard or sentio.
    #[arg(long, value_name = "FORMAT", requires = "board")]
    pub board_format: Option<crate::board::Format>,
    /// The peg-board's baud rate (default: the format's usual rate).
    #[arg(long, requires = "board")]
    pub baud: Option<u32>,
    /// Write the game as PGN to this file after every move.
    #[arg(long)]
    pub pgn: Option<PathBuf>,
    /// Read a personal API token (scope board:play) from stdin, store it
    /// where only you can read it, and end.
    #[arg(long, exclusive = true)]
    pub set_token: bool,
    /// Forget the stored token and end.
    #[arg(long, exclusive = true)]
    pub forget_token: bool,
    /// First wait before reconnecting, in milliseconds (doubles up to 30 s).
    #[arg(long, default_value = "1000", hide = true)]
    pub backoff_ms: u64,
    /// Wait after "too many requests" (429), in milliseconds.
    #[arg(long, default_value = "60000", hide = true)]
    pub rate_limit_wait_ms: u64,
    /// A stream silent this long (no keep-alive) is reconnected, in milliseconds.
    #[arg(long, default_value = "20000", hide = true)]
    pub stream_timeout_ms: u64,
    /// The server's keep-alive period, in milliseconds: a game silent for
    /// three of them while the opponent is to move is read again.
    #[arg(long, default_value = "7000", hide = true)]
    pub keep_alive_ms: u64,
    /// The server unreachable this long is said as gone, in milliseconds.
    #[arg(long, default_value = "60000", hide = true)]
    pub gone_after_ms: u64,
}

/// What reaches the main loop.
enum Msg {
    Stdin(String),
    StdinEnd,
    Events(StreamMsg<IncomingEvent>),
    Game(StreamMsg<GameLine>),
    SeekDone(Result<(), ApiError>),
    Board(crate::serial::BoardInput),
    Answered(Call, Option<String>, Result<(), ApiError>),
}

fn wrap_answer(call: Call, input: Option<String>, result: Result<(), ApiError>) -> Msg {
    Msg::Answered(call, input, result)
}

fn wrap_events(m: StreamMsg<IncomingEvent>) -> Msg {
    Msg::Events(m)
}
fn wrap_game(m: StreamMsg<GameLine>) -> Msg {
    Msg::Game(m)
}

/// Output: printed lines (text or JSON), speech, the PGN file.
struct Out {
    json: bool,
    lang: Lang,
    speech: Option<SpeechHandle>,
    pgn: Option<super::output::PgnFile>,
    /// Who made the move of the batch being carried out.
    by: By,
    /// The peg-board, with `--board`.
    link: Option<crate::serial::Link>,
}

impl Out {
    fn line(&self, value: serde_json::Value) -> CliResult {
        if self.json {
            let mut out = std::io::stdout().lock();
            writeln!(out, "{value}")?;
            out.flush()?;
        }
        Ok(())
    }

    /// Says `text` (printed as a `say` event, or as text).
    fn say(&self, text: Utterance, priority: Priority) -> CliResult {
        {
            let mut out = std::io::stdout().lock();
            if self.json {
                writeln!(out, "{}", json!({"event": "say", "text": text.written}))?;
            } else {
                writeln!(out, "{}", text.written)?;
            }
            out.flush()?;
        }
        if let Some(s) = &self.speech {
            s.speak(Speech {
                text,
                lang: self.lang,
                priority,
            });
        }
        Ok(())
    }

    /// An error line (JSON `error` event) and its words said.
    fn error(&self, reason: &str, words: Utterance) -> CliResult {
        self.line(json!({"event": "error", "reason": reason}))?;
        self.say(words, Priority::Alert)
    }

    fn emit(&self, effects: impl IntoIterator<Item = Effect>) -> CliResult {
        let mut shell = OnlineShell {
            out: self,
            said: Vec::new(),
        };
        carry_out(&mut shell, effects)?;
        for speech in std::mem::take(&mut shell.said) {
            // A move's announcement is printed by its `move` event.
            if speech.priority == Priority::Move {
                if let Some(s) = &self.speech {
                    s.speak(speech);
                }
            } else if !speech.text.written.is_empty() {
                self.say(speech.text, speech.priority)?;
            }
        }
        Ok(())
    }

    fn save(&self, record: &GameRecord) -> CliResult {
        let Some(pgn) = &self.pgn else {
            return Ok(());
        };
        // A file that cannot be written stops the file, never the game.
        match pgn.write(record, "the game goes on") {
            Some(event) => self.line(event),
            None => Ok(()),
        }
    }
}

struct OnlineShell<'a> {
    out: &'a Out,
    said: Vec<Speech>,
}

impl Shell for OnlineShell<'_> {
    type Error = CliError;

    fn speak(&mut self, speech: Speech) -> CliResult {
        self.said.push(speech);
        Ok(())
    }
    fn sound(&mut self, _: Earcon) -> CliResult {
        Ok(())
    }
    fn notice(&mut self, notice: Notice) -> CliResult {
        if let Notice::Move {
            ref announcement, ..
        } = notice
        {
            if self.out.json {
                let by = match self.out.by {
                    By::Player => super::output::MoveBy::Player,
                    By::Opponent => super::output::MoveBy::Opponent,
                };
                if let Some(line) = super::output::move_event(&notice, by) {
                    self.out.line(line)?;
                }
            } else {
                let mut out = std::io::stdout().lock();
                writeln!(out, "{announcement}")?;
                out.flush()?;
            }
        }
        // The end is printed from the server's status (the truth online);
        // other notices reach the terminal as speech.
        Ok(())
    }
    fn save_game(&mut self) -> Result<SaveStep, CliError> {
        // Saved by the host before the effects are carried out.
        Ok(SaveStep::Done)
    }
    fn config_changed(&mut self, _: SessionConfig) -> CliResult {
        Ok(())
    }
    fn board_command(&mut self, command: HostCommand) -> CliResult {
        if let Some(link) = &self.out.link {
            link.send(command);
        }
        Ok(())
    }
    fn sighted_board_command(&mut self, _: HostCommand) -> CliResult {
        Ok(())
    }
    fn ask_engine(&mut self, _: EngineRequest) -> CliResult {
        Ok(())
    }
    fn restart_engine(&mut self) -> CliResult {
        Ok(())
    }
}

/// The terminal as the host of an online game: its session announces,
/// reads typed moves and the peg-board and guides it; the game is saved
/// (PGN) before its words are said.
struct Terminal {
    out: Out,
    session: Session,
    /// The first output error (stdout closed): the run stops with it.
    failed: Option<CliError>,
}

impl Terminal {
    fn keep(&mut self, result: CliResult) {
        if let Err(e) = result {
            self.failed.get_or_insert(e);
        }
    }
}

impl Host for Terminal {
    fn session(&self) -> &Session {
        &self.session
    }

    fn handle(&mut self, now: u64, event: Event, by: By) {
        let fx = self.session.handle(now, event);
        self.out.by = by;
        if fx.contains(&Effect::SaveGame) {
            let r = self.out.save(self.session.record());
            self.keep(r);
        }
        let r = self.out.emit(fx);
        self.keep(r);
    }

    fn begin(&mut self, now: u64, record: GameRecord, me: Color) {
        let config = SessionConfig {
            blind_side: me,
            ..self.session.config().clone()
        };
        let fx = self.session.handle(now, Event::ConfigChanged(config));
        let r = self.out.emit(fx);
        self.keep(r);
        self.replace_game(now, record);
    }

    fn replace_game(&mut self, now: u64, record: GameRecord) {
        self.session.resume_game(now, record);
        let r = self.out.save(self.session.record());
        self.keep(r);
    }

    fn report(&mut self, report: Option<Report>, words: Utterance, priority: Priority) {
        if let Some(report) = report {
            let r = self.out.line(report.json());
            self.keep(r);
        }
        let r = self.out.say(words, priority);
        self.keep(r);
    }
}

struct Run {
    client: Client,
    /// The request thread: the loop never waits on the network.
    requests: Requests,
    host: Terminal,
    play: OnlinePlay,
    started: Instant,
    game_stream: Option<Arc<AtomicBool>>,
    tx: Sender<Msg>,
    /// Stop: the game ended or the player quit.
    done: bool,
    /// Board reports before the game started (the board's first snapshot).
    board_waiting: Vec<crate::serial::BoardInput>,
}

pub fn run(args: Args) -> CliResult {
    if args.set_token {
        let mut line = String::new();
        std::io::stdin().lock().read_line(&mut line)?;
        let token = token::Token::new(&line)
            .ok_or_else(|| CliError::input("no token on stdin (paste it on one line)"))?;
        let stored = token::store(&token)
            .map_err(|e| CliError::failure(format!("cannot store the token: {e}")))?;
        match stored {
            token::Stored::SecretStore => println!("token stored in the system's secret store"),
            token::Stored::File(path) => {
                println!("token stored in {} (readable by you only)", path.display())
            }
        }
        return Ok(());
    }
    if args.forget_token {
        token::forget().map_err(|e| CliError::failure(format!("cannot remove the token: {e}")))?;
        println!("token removed");
        return Ok(());
    }
    let token = token::load().ok_or_else(|| {
        CliError::failure(format!(
            "no token: create a personal API token with the board:play scope, then set {} or store it with `rochade online --set-token`",
            token::TOKEN_ENV
        ))
    })?;
    let timing = Timing {
        backoff: Duration::from_millis(args.backoff_ms.max(1)),
        rate_limit_wait: Duration::from_millis(args.rate_limit_wait_ms),
        stream_silence: Duration::from_millis(args.stream_timeout_ms.max(100)),
        ..Timing::default()
    };
    let client = Client::new(&args.server, token, timing);
    let speech = if args.quiet {
        None
    } else {
        match SpeechService::spawn(SpeechConfig {
            backend: BackendChoice::Auto,
            lang: args.lang,
            settings: VoiceSettings::default(),
            mode: Default::default(),
        }) {
            Ok(h) => Some(h),
            Err(e) => {
                eprintln!(
                    "rochade: no speech ({e}); printing only; {}",
                    super::SPEECH_ADVICE
                );
                None
            }
        }
    };
    let mut out = Out {
        json: args.json,
        lang: args.lang,
        speech,
        pgn: args.pgn.clone().map(super::output::PgnFile::new),
        by: By::Player,
        link: None,
    };
    let pack = super::load_pack(args.lang);
    // Who we are (and whether the token works).
    let account = client
        .account_id(&AtomicBool::new(false), report_waiting(&out, &pack))
        .map_err(|e| refused(&out, &pack, e))?;
    let (tx, rx) = channel();
    let stop_events = Arc::new(AtomicBool::new(false));
    spawn_stream(
        client.clone(),
        "/api/stream/event".into(),
        stop_events.clone(),
        tx.clone(),
        wrap_events,
    );
    spawn_stdin(tx.clone());
    let started = Instant::now();
    if let Some(port) = &args.board {
        let format = args.board_format.unwrap_or_default();
        let cfg = crate::serial::LinkConfig {
            epoch: started,
            baud: args.baud.unwrap_or(format.default_baud()),
            ..crate::serial::LinkConfig::new(port.clone(), format)
        };
        let (link_tx, link_rx) = channel();
        let link = crate::serial::Link::spawn(cfg, link_tx)
            .map_err(|e| CliError::failure(format!("the board on {port}: {e}")))?;
        let tx = tx.clone();
        std::thread::spawn(move || {
            for input in link_rx {
                if tx.send(Msg::Board(input)).is_err() {
                    return;
                }
            }
        });
        out.link = Some(link);
    }
    let config = SessionConfig {
        lang: args.lang,
        ..SessionConfig::default()
    };
    let session = Session::with_pack(config, super::load_pack(args.lang));
    let waits = Waits {
        keep_alive_ms: args.keep_alive_ms.max(10),
        rate_limit_ms: args.rate_limit_wait_ms,
        gone_ms: args.gone_after_ms,
        ..Waits::default()
    };
    let mut run = Run {
        requests: spawn_requests(client.clone(), tx.clone(), wrap_answer),
        client,
        host: Terminal {
            out,
            session,
            failed: None,
        },
        play: OnlinePlay::new(&account, &args.server, args.accept).with_waits(waits),
        started,
        game_stream: None,
        tx,
        done: false,
        board_waiting: Vec::new(),
    };
    let stop_seek = Arc::new(AtomicBool::new(false));
    run.find_game(&args, &pack, &stop_seek)?;
    let result = run.main_loop(&rx, &pack);
    stop_events.store(true, Ordering::Relaxed);
    stop_seek.store(true, Ordering::Relaxed);
    if let Some(stop) = &run.game_stream {
        stop.store(true, Ordering::Relaxed);
    }
    if let Some(s) = &run.host.out.speech {
        s.wait_idle(Duration::from_secs(30));
    }
    result
}

/// Reports each "too many requests" (429) while a request waits to be
/// tried again ([`Client::retrying`]).
fn report_waiting<'a>(out: &'a Out, pack: &'a crate::words::Pack) -> impl FnMut(&ApiError) + 'a {
    move |e| {
        // A failed print shows at the next line printed.
        let _ = out.error(&e.to_string(), server_error(pack, e));
    }
}

/// A request that failed: reported, and the run ends with it.
fn refused(out: &Out, pack: &crate::words::Pack, e: ApiError) -> CliError {
    let _ = out.error(&e.to_string(), server_error(pack, &e));
    CliError::failure(e.to_string())
}

fn spawn_stdin(tx: Sender<Msg>) {
    std::thread::Builder::new()
        .name("stdin".into())
        .spawn(move || {
            let stdin = std::io::stdin();
            for line in stdin.lock().lines() {
                let Ok(line) = line else { break };
                if tx.send(Msg::Stdin(line)).is_err() {
                    return;
                }
            }
            let _ = tx.send(Msg::StdinEnd);
        })
        .expect("a thread for stdin");
}

impl Run {
    fn now_ms(&self) -> u64 {
        self.started.elapsed().as_millis() as u64
    }

    fn find_game(
        &mut self,
        args: &Args,
        pack: &crate::words::Pack,
        stop_seek: &Arc<AtomicBool>,
    ) -> CliResult {
        let out = &self.host.out;
        let (find, clock) = if let Some(tc) = args.seek {
            (Find::Seek, tc)
        } else if let Some(level) = args.ai {
            (Find::Ai { level }, args.clock)
        } else if let Some(user) = &args.challenge {
            let user = path_user(user);
            if user.is_empty() {
                return Err(CliError::input("--challenge: no player name"));
            }
            (Find::Challenge { user }, args.clock)
        } else {
            (Find::Wait, args.clock)
        };
        if find == Find::Seek {
            out.say(
                pack.phrase(
                    "online_seeking",
                    &[
                        ("minutes", Utterance::from(clock.minutes.to_string())),
                        ("increment", Utterance::from(clock.increment.to_string())),
                    ],
                ),
                Priority::Answer,
            )?;
            // Held open until a game starts: on a thread of its own.
            let client = self.client.clone();
            let stop = stop_seek.clone();
            let tx = self.tx.clone();
            std::thread::Builder::new()
                .name("seek".into())
                .spawn(move || {
                    let r = client.find_game(&Find::Seek, clock, &stop, |_| {});
                    let _ = tx.send(Msg::SeekDone(r.map(|_| ())));
                })
                .expect("a thread for the seek");
            return Ok(());
        }
        let found = self
            .client
            .find_game(&find, clock, stop_seek, report_waiting(out, pack))
            .map_err(|e| refused(out, pack, e))?;
        match found {
            Some(id) => self.open_game(&id),
            None => out.say(pack.say("online_waiting"), Priority::Answer)?,
        }
        Ok(())
    }

    /// Starts following game `id` (once).
    fn open_game(&mut self, id: &str) {
        if self.game_stream.is_some() {
            return;
        }
        let stop = Arc::new(AtomicBool::new(false));
        spawn_stream(
            self.client.clone(),
            format!("/api/board/game/stream/{id}"),
            stop.clone(),
            self.tx.clone(),
            wrap_game,
        );
        self.game_stream = Some(stop);
    }

    /// Who made a move the board or a deadline may complete now.
    fn mover(&self) -> By {
        match self.play.game() {
            Some(g) if self.host.session.record().turn() != g.me => By::Opponent,
            _ => By::Player,
        }
    }

    /// Carries out what the game asks: requests handed to the request
    /// thread (their answers come back as messages), streams opened.
    fn follow_up(&mut self) -> CliResult {
        loop {
            let todo = self.play.take_todo();
            if todo.is_empty() {
                break;
            }
            for step in todo {
                match step {
                    Todo::Send(call, input) => {
                        // The thread lives as long as the run.
                        let _ = self.requests.send((call, input));
                    }
                    Todo::Open(id) => self.open_game(&id),
                    Todo::Resync(id) => {
                        if let Some(stop) = self.game_stream.take() {
                            stop.store(true, Ordering::Relaxed);
                        }
                        self.open_game(&id);
                    }
                    Todo::Finished => self.done = true,
                }
            }
        }
        match self.host.failed.take() {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }

    fn main_loop(&mut self, rx: &Receiver<Msg>, pack: &crate::words::Pack) -> CliResult {
        while !self.done {
            let now = self.now_ms();
            let next = [
                self.host.session.next_deadline(),
                self.play.next_deadline(&self.host),
            ]
            .into_iter()
            .flatten()
            .min();
            let wait = next.map_or(500, |d| d.saturating_sub(now)).min(500);
            let msg = match rx.recv_timeout(Duration::from_millis(wait)) {
                Ok(msg) => msg,
                Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {
                    self.run_deadlines();
                    self.follow_up()?;
                    continue;
                }
                Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => break,
            };
            let now = self.now_ms();
            match msg {
                Msg::Board(input) => {
                    if self.play.game().is_some() {
                        let by = self.mover();
                        self.host.handle(input.at_ms, Event::Board(input.event), by);
                        self.play.after_local(&mut self.host, None);
                    } else {
                        self.board_waiting.push(input);
                    }
                }
                Msg::Stdin(line) => {
                    let text = line.trim().to_owned();
                    if matches!(text.as_str(), "quit" | "exit" | "q") {
                        break;
                    }
                    if !text.is_empty() {
                        let _word = self.play.input(&mut self.host, now, &text);
                    }
                }
                Msg::StdinEnd => break,
                Msg::Events(StreamMsg::Line(event)) => {
                    self.play.events_back(&mut self.host);
                    self.play.incoming(&mut self.host, event)
                }
                Msg::Answered(call, input, result) => {
                    self.play
                        .answered(&mut self.host, now, &call, input.as_deref(), result)
                }
                Msg::Game(StreamMsg::Line(line)) => {
                    self.play
                        .game_line(&mut self.host, now, line)
                        .map_err(|e| CliError::failure(e.to_string()))?;
                    if self.play.game().is_some() {
                        for input in std::mem::take(&mut self.board_waiting) {
                            let by = self.mover();
                            self.host.handle(input.at_ms, Event::Board(input.event), by);
                        }
                    }
                }
                Msg::Events(StreamMsg::Unreadable(e)) | Msg::Game(StreamMsg::Unreadable(e)) => {
                    let reason = format!("unreadable line from the server: {e}");
                    let words = pack.phrase(
                        "online_error",
                        &[("reason", Utterance::from(reason.as_str()))],
                    );
                    self.host.out.error(&reason, words)?;
                }
                Msg::Game(StreamMsg::Dropped { reason, first }) => {
                    self.play.stream_dropped(&mut self.host, &reason, first)
                }
                Msg::Game(StreamMsg::Back) => self.play.stream_back(&mut self.host),
                // While a game runs, its own stream says what the player needs.
                Msg::Events(StreamMsg::Dropped { reason, .. }) => {
                    self.play.events_dropped(&mut self.host, &reason)
                }
                Msg::Events(StreamMsg::Back) => self.play.events_back(&mut self.host),
                Msg::Events(StreamMsg::Fatal(e)) | Msg::Game(StreamMsg::Fatal(e)) => {
                    self.host
                        .out
                        .error(&e.to_string(), server_error(pack, &e))?;
                    return Err(CliError::failure(e.to_string()));
                }
                Msg::SeekDone(Err(e)) => {
                    self.host
                        .out
                        .error(&e.to_string(), server_error(pack, &e))?;
                    if self.play.game().is_none() && self.game_stream.is_none() {
                        return Err(CliError::failure(e.to_string()));
                    }
                }
                Msg::SeekDone(Ok(())) => {}
            }
            // Deadlines due while messages kept coming.
            self.run_deadlines();
            self.follow_up()?;
        }
        Ok(())
    }

    /// The session's deadlines due now (settle windows, guidance); a move
    /// they complete is sent.
    fn run_deadlines(&mut self) {
        let now = self.now_ms();
        self.play.tick(&mut self.host, now);
        for _ in 0..1000 {
            match self.host.session.next_deadline() {
                Some(d) if d <= now => {
                    let by = self.mover();
                    self.host.handle(d, Event::Tick, by);
                }
                _ => break,
            }
        }
        self.play.after_local(&mut self.host, None);
    }
}
