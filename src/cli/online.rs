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
//! `connection`, `chat`, `error`, `end`.
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

use rochade_core::online::{
    Change, EndKind, GameLine, IncomingEvent, OnlineGame, Request, TimeControlArg,
};
use serde_json::json;
use shakmaty::{CastlingMode, Color, KnownOutcome, Position};

use super::{CliError, CliResult};
use crate::board::HostCommand;
use crate::chess::GameRecord;
use crate::engine::EngineRequest;
use crate::online::{ApiError, Client, StreamMsg, Timing, spawn_stream, token};
use crate::runtime::{SaveStep, Shell, carry_out};
use crate::session::{
    Command, Earcon, Effect, Event, Notice, Priority, Session, SessionConfig, Source, Speech,
};
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
}

/// What reaches the main loop.
enum Msg {
    Stdin(String),
    StdinEnd,
    Events(StreamMsg<IncomingEvent>),
    Game(StreamMsg<GameLine>),
    SeekDone(Result<(), ApiError>),
    Board(crate::serial::BoardInput),
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
    pgn: Option<PathBuf>,
    pgn_failing: std::cell::Cell<bool>,
    /// Who made the move of the batch being carried out.
    by: &'static str,
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
    fn error(&self, input: Option<&str>, reason: &str, words: Utterance) -> CliResult {
        if self.json {
            let mut value = json!({"event": "error", "reason": reason});
            if let Some(input) = input {
                value["input"] = json!(input);
            }
            self.line(value)?;
        }
        self.say(words, Priority::Alert)
    }

    fn emit(&self, session: &Session, effects: Vec<Effect>) -> CliResult {
        let moved = effects
            .iter()
            .any(|e| matches!(e, Effect::Notice(Notice::Move { .. })));
        let _ = session;
        let mut shell = OnlineShell {
            out: self,
            moved,
            said: Vec::new(),
        };
        carry_out(&mut shell, effects)?;
        for speech in std::mem::take(&mut shell.said) {
            let is_move = moved && speech.priority == Priority::Move;
            if is_move {
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
        let Some(path) = &self.pgn else {
            return Ok(());
        };
        match super::write_file(path, crate::pgn::write_pgn(record)) {
            Ok(()) => self.pgn_failing.set(false),
            Err(e) if !self.pgn_failing.get() => {
                self.pgn_failing.set(true);
                self.line(json!({"event": "error", "reason": e.to_string()}))?;
                eprintln!("rochade: {e}; the game goes on");
            }
            Err(_) => {}
        }
        Ok(())
    }
}

struct OnlineShell<'a> {
    out: &'a Out,
    moved: bool,
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
            san,
            mv,
            announcement,
            ..
        } = notice
        {
            if self.out.json {
                let uci = mv.to_uci(CastlingMode::Standard).to_string();
                self.out.line(json!({"event": "move", "uci": uci, "san": san, "by": self.out.by, "announcement": announcement}))?;
            } else {
                let mut out = std::io::stdout().lock();
                writeln!(out, "{announcement}")?;
                out.flush()?;
            }
        }
        // The end is printed from the server's status (the truth online);
        // other notices reach the terminal as speech.
        let _ = self.moved;
        Ok(())
    }
    fn save_game(&mut self) -> Result<SaveStep, CliError> {
        // The online record (with the server's clocks) is saved by the
        // game loop as soon as the session has the move, before it is said.
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

/// A game being played.
struct Live {
    game: OnlineGame,
    /// Announces, reads the typed moves and the peg-board, guides it.
    session: Session,
    /// The game as the server has it (plus our move on its way): what is
    /// saved. The session's record follows it.
    record: GameRecord,
    /// Chat lines not read yet.
    chat: Vec<(String, String)>,
    clocks: Option<(u64, u64)>,
    /// Moves whose clock was written to the record.
    clocked: usize,
    /// Our move could not reach the server (no connection): sent again
    /// when the stream is back.
    unsent: bool,
}

impl Live {
    /// An event for the session: moves it took are added to the record and
    /// saved, then its words are said.
    fn handle(&mut self, out: &Out, now: u64, event: Event) -> CliResult {
        let fx = self.session.handle(now, event);
        let known = self.record.moves().len();
        let grew = self.session.record().moves().len() > known;
        for m in self.session.record().moves().iter().skip(known) {
            if self.record.play(m.mv, m.at_ms).is_err() {
                break;
            }
        }
        if grew {
            out.save(&self.record)?;
        }
        out.emit(&self.session, fx)
    }

    /// Changes the record (a takeback, the end) and the session with it.
    fn rewrite(&mut self, out: &Out, now: u64, change: impl FnOnce(&mut GameRecord)) -> CliResult {
        change(&mut self.record);
        self.session.resume_game(now, self.record.clone());
        out.save(&self.record)
    }

    fn local_moves(&self) -> Vec<String> {
        self.record
            .moves()
            .iter()
            .map(|m| m.mv.to_uci(CastlingMode::Standard).to_string())
            .collect()
    }
}

struct Run {
    args_server: String,
    client: Client,
    out: Out,
    account: String,
    started: Instant,
    live: Option<Live>,
    game_stream: Option<Arc<AtomicBool>>,
    tx: Sender<Msg>,
    /// Lines typed before the game started.
    waiting_input: Vec<String>,
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
                eprintln!("rochade: no speech ({e}); printing only");
                None
            }
        }
    };
    let out = Out {
        json: args.json,
        lang: args.lang,
        speech,
        pgn: args.pgn.clone(),
        pgn_failing: Default::default(),
        by: "player",
        link: None,
    };
    let pack = super::load_pack(args.lang);
    // Who we are (and whether the token works).
    let account = request_with_retry(&out, &pack, client.timing.rate_limit_wait, || {
        client.get_json("/api/account")
    })?;
    let account = account
        .get("id")
        .and_then(|v| v.as_str())
        .ok_or_else(|| CliError::failure("the server's account answer has no id"))?
        .to_owned();
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
    let mut out = out;
    if let Some(port) = &args.board {
        let cfg = crate::serial::LinkConfig {
            epoch: started,
            ..crate::serial::LinkConfig::new(port.clone(), crate::board::Format::default())
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
    let mut run = Run {
        args_server: args.server.clone(),
        client,
        out,
        account,
        started,
        live: None,
        game_stream: None,
        tx,
        waiting_input: Vec::new(),
        done: false,
        board_waiting: Vec::new(),
    };
    let stop_seek = Arc::new(AtomicBool::new(false));
    run.find_game(&args, &pack, &stop_seek)?;
    let result = run.main_loop(&rx, &args, &pack);
    stop_events.store(true, Ordering::Relaxed);
    stop_seek.store(true, Ordering::Relaxed);
    if let Some(stop) = &run.game_stream {
        stop.store(true, Ordering::Relaxed);
    }
    if let Some(s) = &run.out.speech {
        s.wait_idle(Duration::from_secs(30));
    }
    result
}

/// A request retried after a 429 (twice at most); other errors returned.
fn request_with_retry(
    out: &Out,
    pack: &crate::words::Pack,
    wait: Duration,
    mut request: impl FnMut() -> Result<serde_json::Value, ApiError>,
) -> Result<serde_json::Value, CliError> {
    for attempt in 0..3 {
        match request() {
            Ok(v) => return Ok(v),
            Err(ApiError::RateLimited) if attempt < 2 => {
                let e = ApiError::RateLimited;
                out.error(None, &e.to_string(), server_error(pack, &e))?;
                std::thread::sleep(wait);
            }
            Err(e) => {
                out.error(None, &e.to_string(), server_error(pack, &e))?;
                return Err(CliError::failure(e.to_string()));
            }
        }
    }
    unreachable!("the last attempt returns")
}

fn server_error(pack: &crate::words::Pack, e: &ApiError) -> Utterance {
    pack.phrase("online_error", &[("reason", plain(&e.to_string()))])
}

fn plain(text: &str) -> Utterance {
    Utterance {
        written: text.to_owned(),
        spoken: text.to_owned(),
    }
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
        if let Some(tc) = args.seek {
            self.out.say(
                pack.phrase(
                    "online_seeking",
                    &[
                        ("minutes", plain(&tc.minutes.to_string())),
                        ("increment", plain(&tc.increment.to_string())),
                    ],
                ),
                Priority::Answer,
            )?;
            let client = self.client.clone();
            let stop = stop_seek.clone();
            let tx = self.tx.clone();
            std::thread::Builder::new()
                .name("seek".into())
                .spawn(move || {
                    let r = client.post_streaming("/api/board/seek", &tc.seek_form(), &stop);
                    let _ = tx.send(Msg::SeekDone(r));
                })
                .expect("a thread for the seek");
        } else if let Some(level) = args.ai {
            let mut form = vec![("level", level.to_string()), ("color", "random".into())];
            form.extend(args.clock.clock_form());
            let answer =
                request_with_retry(&self.out, pack, self.client.timing.rate_limit_wait, || {
                    self.client.post("/api/challenge/ai", &form)
                })?;
            if let Some(id) = answer.get("id").and_then(|v| v.as_str()) {
                self.open_game(id);
            }
        } else if let Some(user) = &args.challenge {
            let form = args.clock.clock_form();
            let user: String = user
                .chars()
                .filter(|c| c.is_ascii_alphanumeric() || *c == '_' || *c == '-')
                .collect();
            request_with_retry(&self.out, pack, self.client.timing.rate_limit_wait, || {
                self.client.post(&format!("/api/challenge/{user}"), &form)
            })?;
            self.out.say(pack.say("online_waiting"), Priority::Answer)?;
        } else {
            self.out.say(pack.say("online_waiting"), Priority::Answer)?;
        }
        Ok(())
    }

    /// Starts following game `id` (once).
    fn open_game(&mut self, id: &str) {
        if self.game_stream.is_some() {
            return;
        }
        let id: String = id.chars().filter(|c| c.is_ascii_alphanumeric()).collect();
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

    fn main_loop(
        &mut self,
        rx: &Receiver<Msg>,
        args: &Args,
        pack: &crate::words::Pack,
    ) -> CliResult {
        while !self.done {
            let now = self.now_ms();
            let wait = self
                .live
                .as_ref()
                .and_then(|l| l.session.next_deadline())
                .map_or(500, |d| d.saturating_sub(now))
                .min(500);
            let msg = match rx.recv_timeout(Duration::from_millis(wait)) {
                Ok(msg) => msg,
                Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {
                    self.run_deadlines()?;
                    continue;
                }
                Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => break,
            };
            match msg {
                Msg::Board(input) => {
                    if let Some(live) = &mut self.live {
                        self.out.by = if live.record.turn() == live.game.me {
                            "player"
                        } else {
                            "opponent"
                        };
                        live.handle(&self.out, input.at_ms, Event::Board(input.event))?;
                        self.send_new_move(None)?;
                    } else {
                        self.board_waiting.push(input);
                    }
                }
                Msg::Stdin(line) => {
                    let text = line.trim().to_owned();
                    if text.is_empty() {
                        continue;
                    }
                    if matches!(text.as_str(), "quit" | "exit" | "q") {
                        break;
                    }
                    if self.live.is_none() {
                        self.waiting_input.push(text);
                    } else {
                        self.input(&text)?;
                    }
                }
                Msg::StdinEnd => break,
                Msg::Events(StreamMsg::Line(event)) => self.incoming(event, args, pack)?,
                Msg::Game(StreamMsg::Line(line)) => {
                    self.game_line(line)?;
                    if let Some(live) = &mut self.live {
                        for input in std::mem::take(&mut self.board_waiting) {
                            live.handle(&self.out, input.at_ms, Event::Board(input.event))?;
                        }
                        for text in std::mem::take(&mut self.waiting_input) {
                            self.input(&text)?;
                        }
                    }
                }
                Msg::Events(StreamMsg::Unreadable(e)) | Msg::Game(StreamMsg::Unreadable(e)) => {
                    let reason = format!("unreadable line from the server: {e}");
                    self.out.error(
                        None,
                        &reason,
                        pack.phrase("online_error", &[("reason", plain(&reason))]),
                    )?;
                }
                Msg::Game(StreamMsg::Dropped { reason, first }) => {
                    if first {
                        self.out.line(json!({"event": "connection", "state": "lost", "reason": reason.to_string()}))?;
                        self.out.say(
                            pack.phrase(
                                "online_connection_lost",
                                &[("reason", plain(&reason.to_string()))],
                            ),
                            Priority::Alert,
                        )?;
                    }
                }
                Msg::Game(StreamMsg::Back) => {
                    self.out
                        .line(json!({"event": "connection", "state": "back"}))?;
                    self.out
                        .say(pack.say("online_connection_back"), Priority::Alert)?;
                    self.resend()?;
                }
                Msg::Events(StreamMsg::Dropped { .. }) | Msg::Events(StreamMsg::Back) => {
                    // The game's own stream says what the player needs.
                }
                Msg::Events(StreamMsg::Fatal(e)) | Msg::Game(StreamMsg::Fatal(e)) => {
                    self.out
                        .error(None, &e.to_string(), server_error(pack, &e))?;
                    return Err(CliError::failure(e.to_string()));
                }
                Msg::SeekDone(Err(e)) => {
                    self.out
                        .error(None, &e.to_string(), server_error(pack, &e))?;
                    if self.live.is_none() && self.game_stream.is_none() {
                        return Err(CliError::failure(e.to_string()));
                    }
                }
                Msg::SeekDone(Ok(())) => {}
            }
        }
        Ok(())
    }

    fn incoming(
        &mut self,
        event: IncomingEvent,
        args: &Args,
        pack: &crate::words::Pack,
    ) -> CliResult {
        match event {
            IncomingEvent::GameStart { game } if game.compat.as_ref().is_none_or(|c| c.board) => {
                self.open_game(&game.game_id);
            }
            IncomingEvent::Challenge { challenge } if args.accept && self.game_stream.is_none() => {
                let challenger =
                    challenge
                        .challenger
                        .clone()
                        .unwrap_or(rochade_core::online::ChallengeUser {
                            id: None,
                            name: None,
                            rating: None,
                            title: None,
                            provisional: false,
                        });
                if challenger
                    .id
                    .as_deref()
                    .is_some_and(|id| id.eq_ignore_ascii_case(&self.account))
                {
                    return Ok(()); // our own challenge
                }
                let name = challenger
                    .name
                    .or(challenger.id)
                    .unwrap_or_else(|| "?".into());
                let name = match challenger.rating {
                    Some(r) => pack.phrase(
                        "online_rated",
                        &[("name", plain(&name)), ("rating", plain(&r.to_string()))],
                    ),
                    None => plain(&name),
                };
                let time = challenge
                    .time_control
                    .as_ref()
                    .and_then(|t| {
                        t.show
                            .clone()
                            .or_else(|| t.minutes_increment().map(|(m, i)| format!("{m}+{i}")))
                    })
                    .unwrap_or_else(|| "-".into());
                self.out.line(json!({"event": "challenge", "id": challenge.id, "from": name.written, "time": time}))?;
                self.out.say(
                    pack.phrase(
                        "online_challenge",
                        &[("name", name), ("time", plain(&time))],
                    ),
                    Priority::Answer,
                )?;
                let id: String = challenge
                    .id
                    .chars()
                    .filter(|c| c.is_ascii_alphanumeric())
                    .collect();
                if let Err(e) = self
                    .client
                    .post(&format!("/api/challenge/{id}/accept"), &[])
                {
                    self.out
                        .error(None, &e.to_string(), server_error(pack, &e))?;
                }
            }
            _ => {}
        }
        Ok(())
    }

    fn game_line(&mut self, line: GameLine) -> CliResult {
        match line {
            GameLine::GameFull(full) => {
                if self.live.is_none() {
                    let Some(game) = OnlineGame::new(&full, &self.account) else {
                        return Err(CliError::failure(format!(
                            "game {} is not played by this account",
                            full.id
                        )));
                    };
                    self.start_live(game)?;
                }
                self.apply(&full.state)
            }
            GameLine::GameState(state) => self.apply(&state),
            GameLine::ChatLine(chat) => {
                let Some(live) = &mut self.live else {
                    return Ok(());
                };
                if chat.username.eq_ignore_ascii_case(&self.account)
                    || chat.room.as_deref() == Some("spectator")
                {
                    return Ok(());
                }
                live.chat.push((chat.username.clone(), chat.text.clone()));
                self.out
                    .line(json!({"event": "chat", "from": chat.username}))?;
                let words = live.session.pack().say("online_chat_new");
                self.out.say(words, Priority::Info)
            }
            GameLine::OpponentGone(gone) => {
                let Some(live) = &self.live else {
                    return Ok(());
                };
                let pack = live.session.pack();
                let words = match (gone.gone, gone.claim_win_in_seconds) {
                    (false, _) => pack.say("online_opponent_back"),
                    (true, Some(s)) if s > 0 => pack.phrase(
                        "online_opponent_gone",
                        &[("seconds", plain(&s.to_string()))],
                    ),
                    (true, _) => pack.say("online_opponent_gone_now"),
                };
                self.out.line(json!({"event": "opponent_gone", "gone": gone.gone, "claim_in": gone.claim_win_in_seconds}))?;
                self.out.say(words, Priority::Alert)
            }
            GameLine::Other => Ok(()),
        }
    }

    fn start_live(&mut self, game: OnlineGame) -> CliResult {
        let lang = self.out.lang;
        let config = SessionConfig {
            lang,
            blind_side: game.me,
            ..SessionConfig::default()
        };
        let mut session = Session::with_pack(config, super::load_pack(lang));
        let mut record = match &game.initial_fen {
            Some(fen) => GameRecord::from_fen(fen)
                .map_err(|e| CliError::failure(format!("the server's start position: {e}")))?,
            None => GameRecord::new(),
        };
        {
            let tags = &mut record.tags;
            tags.event = format!(
                "{} {} game",
                if game.rated { "Rated" } else { "Casual" },
                game.speed.as_deref().unwrap_or("online")
            );
            tags.site = format!("{}/{}", self.args_server.trim_end_matches('/'), game.id);
            tags.date = crate::pgn::pgn_date(crate::savegame::today());
            tags.white = game.white.display_name();
            tags.black = game.black.display_name();
            tags.time_control = Some(game.pgn_time_control());
            for (tag, player) in [("WhiteElo", &game.white), ("BlackElo", &game.black)] {
                if let Some(r) = player.rating {
                    tags.extra.push((tag.into(), r.to_string()));
                }
            }
        }
        session.resume_game(self.now_ms(), record.clone());
        let pack = session.pack();
        let opponent = game.opponent();
        let name = opponent.display_name();
        let opponent_words = match opponent.rating {
            Some(r) => pack.phrase(
                "online_rated",
                &[("name", plain(&name)), ("rating", plain(&r.to_string()))],
            ),
            None => plain(&name),
        };
        let greeting = pack.phrase(
            "online_game",
            &[
                ("opponent", opponent_words),
                ("side", crate::announce::side_word(pack, game.me)),
            ],
        );
        self.out.line(json!({
            "event": "game",
            "id": game.id,
            "color": if game.me == Color::White { "white" } else { "black" },
            "white": game.white.display_name(),
            "black": game.black.display_name(),
            "white_rating": game.white.rating,
            "black_rating": game.black.rating,
        }))?;
        self.out.say(greeting, Priority::Answer)?;
        self.live = Some(Live {
            game,
            session,
            record,
            chat: Vec::new(),
            clocks: None,
            clocked: 0,
            unsent: false,
        });
        Ok(())
    }

    /// A server state: the local record follows it.
    fn apply(&mut self, state: &rochade_core::online::GameState) -> CliResult {
        let now = self.now_ms();
        let Some(live) = &mut self.live else {
            return Ok(());
        };
        let local = live.local_moves();
        let changes = live.game.update(&local, state);
        let me = live.game.me;
        for change in changes {
            match change {
                Change::Rewind { keep, ours_lost } => {
                    let n = live.record.moves().len() - keep;
                    let mut taken = Vec::new();
                    live.rewrite(&self.out, now, |r| taken = r.takeback(n))?;
                    live.clocked = live.clocked.min(keep);
                    live.unsent = false;
                    let pack = live.session.pack();
                    let what = taken
                        .first()
                        .map(|m| plain(&m.san_string()))
                        .unwrap_or_default();
                    self.out
                        .line(json!({"event": "takeback", "count": n, "ours_lost": ours_lost}))?;
                    let words = if ours_lost {
                        pack.phrase("online_game_moved_on", &[("move", what)])
                    } else {
                        pack.phrase("takeback", &[("move", what)])
                    };
                    self.out.say(words, Priority::Alert)?;
                }
                Change::Play(moves) => {
                    for uci in moves {
                        let mv = uci
                            .parse::<shakmaty::uci::UciMove>()
                            .ok()
                            .and_then(|u| u.to_move(live.record.position()).ok());
                        let Some(mv) = mv else {
                            let reason = format!("the server's move {uci} is not legal here");
                            let words = live
                                .session
                                .pack()
                                .phrase("online_error", &[("reason", plain(&reason))]);
                            self.out.error(None, &reason, words)?;
                            break;
                        };
                        self.out.by = if live.record.turn() == me {
                            "player"
                        } else {
                            "opponent"
                        };
                        live.handle(
                            &self.out,
                            now,
                            Event::MovePlayed {
                                mv,
                                source: Source::Keyboard,
                            },
                        )?;
                    }
                }
                Change::Clocks { white_ms, black_ms } => {
                    live.clocks = Some((white_ms, black_ms));
                    let record = &mut live.record;
                    let n = record.moves().len();
                    if n > live.clocked && live.game.clock.is_some() {
                        // The last mover's time after his move.
                        let mover = record.position().turn().other();
                        record.set_last_clock(if mover == Color::White {
                            white_ms
                        } else {
                            black_ms
                        });
                        live.clocked = n;
                        self.out.save(&live.record)?;
                    }
                }
                Change::DrawOffered => {
                    let pack = live.session.pack();
                    self.out
                        .line(json!({"event": "offer", "what": "draw", "by": "opponent"}))?;
                    let words = pack.phrase(
                        "draw_offer",
                        &[("side", crate::announce::side_word(pack, !me))],
                    );
                    self.out.say(words, Priority::Alert)?;
                }
                Change::DrawDeclined => {
                    self.out.line(
                        json!({"event": "offer_declined", "what": "draw", "by": "opponent"}),
                    )?;
                    let words = live.session.pack().say("draw_offer_declined");
                    self.out.say(words, Priority::Alert)?;
                }
                Change::TakebackOffered => {
                    let pack = live.session.pack();
                    self.out
                        .line(json!({"event": "offer", "what": "takeback", "by": "opponent"}))?;
                    let words = pack.phrase(
                        "online_takeback_offer",
                        &[("side", crate::announce::side_word(pack, !me))],
                    );
                    self.out.say(words, Priority::Alert)?;
                }
                Change::TakebackDeclined => {
                    self.out.line(
                        json!({"event": "offer_declined", "what": "takeback", "by": "opponent"}),
                    )?;
                    let words = live.session.pack().say("online_takeback_declined");
                    self.out.say(words, Priority::Alert)?;
                }
                Change::Ended(kind) => {
                    live.rewrite(&self.out, now, |r| end_record(r, kind))?;
                    let record = &live.record;
                    let pack = live.session.pack();
                    let words = match record.end() {
                        Some(end) => crate::announce::announce_result(pack, &end),
                        None => pack.say("online_aborted"),
                    };
                    self.out.line(json!({"event": "end", "result": record.result_str(), "reason": kind.reason()}))?;
                    self.out.say(words, Priority::Alert)?;
                    self.done = true;
                }
            }
        }
        Ok(())
    }

    /// A line typed by the player during the game.
    fn input(&mut self, text: &str) -> CliResult {
        let Some(live) = &mut self.live else {
            return Ok(());
        };
        if live.game.is_over() {
            return Ok(());
        }
        let lower = text.to_lowercase();
        let (word, rest) = lower.split_once(' ').unwrap_or((lower.as_str(), ""));
        let me = live.game.me;
        let request = match word {
            "resign" | "aufgeben" | "abandonar" => Some(Request::Resign),
            "abort" | "abbrechen" | "abortar" => Some(Request::Abort),
            "claim" | "claim-victory" | "sieg" | "vitoria" => Some(Request::ClaimVictory),
            "draw" | "remis" | "empate" => {
                let offering = !live.game.opponent_offers_draw();
                if offering {
                    let pack = live.session.pack();
                    let words = pack.phrase(
                        "draw_offer",
                        &[("side", crate::announce::side_word(pack, me))],
                    );
                    self.out.say(words, Priority::Answer)?;
                }
                Some(live.game.draw(true))
            }
            "takeback" | "undo" | "zurueck" | "voltar" => Some(live.game.takeback(true)),
            "yes" | "y" | "ja" | "j" | "sim" | "s" | "no" | "n" | "nein" | "nao" => {
                let yes = matches!(word, "yes" | "y" | "ja" | "j" | "sim" | "s");
                if live.game.opponent_offers_draw() {
                    Some(live.game.draw(yes))
                } else if live.game.opponent_offers_takeback() {
                    Some(live.game.takeback(yes))
                } else {
                    let words = live.session.pack().say("online_no_offer");
                    return self.out.say(words, Priority::Answer);
                }
            }
            "chat" if !rest.is_empty() => {
                // The typed text as typed (not lower-cased).
                let original = text.trim()[4..].trim().to_owned();
                Some(Request::Chat(original))
            }
            "chat" => {
                let pack = live.session.pack();
                if live.chat.is_empty() {
                    let words = pack.say("online_chat_none");
                    return self.out.say(words, Priority::Answer);
                }
                for (name, line) in std::mem::take(&mut live.chat) {
                    let words = pack.phrase(
                        "online_chat",
                        &[("name", plain(&name)), ("text", plain(&line))],
                    );
                    self.out.say(words, Priority::Answer)?;
                }
                return Ok(());
            }
            "clock" | "uhr" | "relogio" => {
                let pack = live.session.pack();
                let Some((w, b)) = live.clocks else {
                    return Ok(());
                };
                for (side, ms) in [(Color::White, w), (Color::Black, b)] {
                    let words = pack.phrase(
                        "low_time",
                        &[
                            ("side", crate::announce::side_word(pack, side)),
                            ("remaining", crate::clock::duration_words(pack, ms)),
                        ],
                    );
                    self.out.say(words, Priority::Answer)?;
                }
                return Ok(());
            }
            "repeat" | "r" => {
                let now = self.started.elapsed().as_millis() as u64;
                return live.handle(&self.out, now, Event::Command(Command::Repeat));
            }
            _ => None,
        };
        if let Some(request) = request {
            return self.send(request, None);
        }
        // A move.
        let pack = live.session.pack();
        if live.record.turn() != me || live.game.pending().is_some() {
            let words = pack.say("online_not_your_turn");
            return self.out.error(Some(text), "not your turn", words);
        }
        let before = live.record.moves().len();
        self.out.by = "player";
        let now = self.started.elapsed().as_millis() as u64;
        live.handle(
            &self.out,
            now,
            Event::MoveEntered {
                text: text.to_owned(),
                source: Source::Keyboard,
            },
        )?;
        if live.record.moves().len() != before + 1 {
            return Ok(()); // refused locally: said by the session
        }
        self.send_new_move(Some(text))
    }

    /// Sends our move that the record has and the server has not (typed,
    /// or executed on the peg-board).
    fn send_new_move(&mut self, input: Option<&str>) -> CliResult {
        let Some(live) = &mut self.live else {
            return Ok(());
        };
        let record = &live.record;
        let server_len = live.game.state.move_list().len();
        let ours = record.moves().len() == server_len + 1
            && record.position().turn() != live.game.me
            && live.game.pending().is_none()
            && !live.game.is_over();
        if !ours {
            return Ok(());
        }
        let uci = record
            .last_move()
            .map(|m| m.mv.to_uci(CastlingMode::Standard).to_string())
            .unwrap_or_default();
        let request = live.game.send_move(&uci);
        self.send(request, input)
    }

    /// The session's deadlines due now (settle windows, guidance).
    fn run_deadlines(&mut self) -> CliResult {
        let now = self.now_ms();
        let Some(live) = &mut self.live else {
            return Ok(());
        };
        for _ in 0..1000 {
            match live.session.next_deadline() {
                Some(d) if d <= now => {
                    live.handle(&self.out, d, Event::Tick)?;
                }
                _ => break,
            }
        }
        self.send_new_move(None)
    }

    /// Sends a game request; a refused move is taken back and said.
    fn send(&mut self, request: Request, input: Option<&str>) -> CliResult {
        let Some(live) = &mut self.live else {
            return Ok(());
        };
        let path = request.path(&live.game.id);
        let result = self.client.post(&path, &request.form());
        let Err(e) = result else {
            live.unsent = false;
            return Ok(());
        };
        let pack = live.session.pack();
        match (&request, &e) {
            (Request::Move(_), ApiError::Network(_)) => {
                // Sent again when the connection is back.
                live.unsent = true;
                let words = pack.phrase(
                    "online_connection_lost",
                    &[("reason", plain(&e.to_string()))],
                );
                self.out.error(input, &e.to_string(), words)
            }
            (Request::Move(_), _) => {
                live.game.move_refused();
                let mut taken = Vec::new();
                let now = self.started.elapsed().as_millis() as u64;
                live.rewrite(&self.out, now, |r| taken = r.takeback(1))?;
                let pack = live.session.pack();
                let what = taken
                    .first()
                    .map(|m| plain(&m.san_string()))
                    .unwrap_or_default();
                let words = pack.phrase(
                    "online_move_refused",
                    &[("move", what), ("reason", plain(&e.to_string()))],
                );
                self.out.error(input, &e.to_string(), words)
            }
            _ => {
                let words = server_error(pack, &e);
                self.out.error(input, &e.to_string(), words)
            }
        }
    }

    /// The stream is back: a move that could not be sent goes now (the
    /// server's state decides if it still fits).
    fn resend(&mut self) -> CliResult {
        let Some(live) = &mut self.live else {
            return Ok(());
        };
        if !live.unsent {
            return Ok(());
        }
        let Some(uci) = live.game.pending().map(str::to_owned) else {
            live.unsent = false;
            return Ok(());
        };
        self.send(Request::Move(uci), None)
    }
}

/// The server's ending written into the record (a mate or stalemate the
/// record found itself stays as it is).
fn end_record(record: &mut crate::chess::GameRecord, kind: EndKind) {
    if record.is_over() {
        return;
    }
    match kind {
        EndKind::Checkmate { winner } => record.record_result(KnownOutcome::Decisive { winner }),
        EndKind::Resign { loser } => record.resign(loser),
        EndKind::Stalemate | EndKind::Draw => record.agree_draw(),
        EndKind::OutOfTime { loser, .. } => record.flag_fall(loser),
        EndKind::Timeout { winner } | EndKind::Other { winner } => match winner {
            Some(winner) => record.record_result(KnownOutcome::Decisive { winner }),
            None => record.record_result(KnownOutcome::Draw),
        },
        EndKind::Aborted => {}
    }
}
