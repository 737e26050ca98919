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
//! `clock`, `repeat`, `quit`; `resign` and a draw offer are asked first
//! ("Resign? Yes or no") unless `--no-confirm`. With `--voice` they may be
//! said as well ([`voice`]). The opponent's moves are
//! announced as they arrive. `--json` prints one event per line: `game`,
//! `move` (with `by`: `player` or `opponent`; `source`: `server` for a move
//! the server brought), `say`, `offer`, `offer_declined`, `takeback`,
//! `connection` (`lost`, `back`, `game_missing`, `gone`), `caught_up`
//! (moves missed while the connection was lost follow), `chat`, `error`,
//! `end`, and with `--voice` `heard` and `not_understood` (as `rochade
//! listen` prints them).
//!
//! The server is the truth: every `gameFull`/`gameState` is compared with
//! the local record ([`rochade_core::online::OnlineGame::update`]), so a
//! refused move is taken back and a reconnection brings the record back to
//! the server's. The game is the session's (`Event::Online` in,
//! `Effect::Online` out); this is its terminal: threads for stdin, the
//! streams and the requests, and the effects carried out through
//! [`crate::runtime`] (saved before announced).

use std::io::{BufRead, Write};
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, Sender, channel};
use std::time::{Duration, Instant};

use rochade_core::online::{
    Call, GameLine, IncomingEvent, OnlineEffect, OnlineEvent, OnlineSetup, TimeControlArg, Waits,
    path_user,
};
use rochade_core::session::online::server_error;
use serde_json::json;
use shakmaty::Position;

use super::board_arg::OwnBoardInput;
use super::{CliError, CliResult};
use crate::board::HostCommand;
use crate::driver::{self, Next};
use crate::engine::EngineRequest;
use crate::online::{ApiError, Client, Find, GameLink, StreamMsg, Timing, spawn_stream, token};
use crate::runtime::{SaveStep, Shell, carry_out};
use crate::session::{Command, Earcon, Event, Notice, Priority, Session, SessionConfig, Speech};
use crate::speech::{BackendChoice, SpeechConfig, SpeechHandle, SpeechService, VoiceSettings};
use crate::voice_input::microphone::VoiceEvent;
use crate::words::{Lang, Utterance};
use voice::OnlineVoice;

mod voice;

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
    /// The blind player's own board (`--board PORT --format KIND`).
    #[command(flatten)]
    pub board: super::board_arg::OwnBoardArgs,
    /// Write the game as PGN to this file after every move.
    #[arg(long)]
    pub pgn: Option<PathBuf>,
    /// Resign and offer a draw at once, without asking "Resign? Yes or
    /// no" first.
    #[arg(long)]
    pub no_confirm: bool,
    /// Voice input: `--voice`, `--voice-confirm`.
    #[command(flatten)]
    pub voice: super::play_voice::VoiceArgs,
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
    Board(OwnBoardInput),
    Answered(Call, Option<String>, Result<(), ApiError>),
    Voice(VoiceEvent),
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
    /// The player's own board, with `--board`.
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

    /// Prints `text` (a `say` event, or as text).
    fn print(&self, text: &str) -> CliResult {
        let mut out = std::io::stdout().lock();
        if self.json {
            writeln!(out, "{}", json!({"event": "say", "text": text}))?;
        } else {
            writeln!(out, "{text}")?;
        }
        out.flush()?;
        Ok(())
    }

    fn voice(&self, text: Utterance, priority: Priority) {
        if let Some(s) = &self.speech {
            s.speak(Speech {
                text,
                lang: self.lang,
                priority,
            });
        }
    }

    /// Says `text` (printed as a `say` event, or as text).
    fn say(&self, text: Utterance, priority: Priority) -> CliResult {
        self.print(&text.written)?;
        self.voice(text, priority);
        Ok(())
    }

    /// An error line (JSON `error` event) and its words said.
    fn error(&self, reason: &str, words: Utterance) -> CliResult {
        self.line(json!({"event": "error", "reason": reason}))?;
        self.say(words, Priority::Alert)
    }
}

/// The terminal's side of online play: output, and the connection's
/// threads the session's requests and streams go to.
struct Terminal {
    out: Out,
    client: Client,
    /// The request thread and the game's stream: the loop never waits on
    /// the network.
    link: GameLink<Msg>,
    tx: Sender<Msg>,
    /// Stop: the game ended.
    done: bool,
    /// Online play cannot go on (a game this account does not play).
    failed: Option<String>,
    /// The words of the report just printed: said, not printed again.
    reported: Option<String>,
}

/// The terminal carrying out one event's effects: the session as it
/// stands after the event (the record to save, who made a move).
struct TerminalShell<'a> {
    term: &'a mut Terminal,
    session: &'a Session,
    /// The batch holds a move: its announcement is printed as its `move`
    /// event (a move's words said again, `repeat`, are printed here).
    moved: bool,
}

impl Shell for TerminalShell<'_> {
    type Error = CliError;

    fn speak(&mut self, speech: Speech) -> CliResult {
        let out = &self.term.out;
        let reported = self.term.reported.take();
        // A report's words were printed with it; a move's announcement is
        // printed by its `move` event.
        if reported.as_deref() == Some(speech.text.written.as_str())
            || speech.priority == Priority::Move && self.moved
            || speech.text.written.is_empty()
        {
            out.voice(speech.text, speech.priority);
            return Ok(());
        }
        out.say(speech.text, speech.priority)
    }
    fn sound(&mut self, _: Earcon) -> CliResult {
        Ok(())
    }
    fn notice(&mut self, notice: Notice) -> CliResult {
        let Notice::Move {
            ply,
            ref announcement,
            ..
        } = notice
        else {
            // The end is printed from the server's status (the truth
            // online); other notices reach the terminal as speech.
            return Ok(());
        };
        let out = &self.term.out;
        if out.json {
            let record = self.session.record();
            let start = record.start_position().turn();
            let mover = if ply % 2 == 1 { start } else { !start };
            let by = super::output::MoveBy::of(mover, self.session.config().blind_side);
            if let Some(line) = super::output::move_event(&notice, by) {
                out.line(line)?;
            }
        } else {
            let mut stdout = std::io::stdout().lock();
            writeln!(stdout, "{announcement}")?;
            stdout.flush()?;
        }
        Ok(())
    }
    fn save_game(&mut self) -> Result<SaveStep, CliError> {
        // `--pgn` is saved by the saving line in front of this shell
        // ([`Run::handle`]); without it there is nothing to save.
        Ok(SaveStep::Done)
    }
    fn config_changed(&mut self, _: SessionConfig) -> CliResult {
        // The terminal's settings are its arguments, kept nowhere.
        Ok(())
    }
    fn board_command(&mut self, command: HostCommand) -> CliResult {
        if let Some(link) = &self.term.out.link {
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
    fn online(&mut self, effect: OnlineEffect) -> CliResult {
        let term = &mut *self.term;
        let Some(effect) = term.link.carry_out(effect) else {
            return Ok(());
        };
        match effect {
            // Carried out by the link.
            OnlineEffect::Send { .. } | OnlineEffect::Open(_) | OnlineEffect::Resync(_) => {}
            // Nothing here to keep: the terminal plays one game.
            OnlineEffect::Started { .. } => {}
            OnlineEffect::Report { report, line } => {
                if let Some(report) = report {
                    term.out.line(super::online_report::report_json(&report))?;
                }
                term.out.print(&line)?;
                term.reported = Some(line);
            }
            OnlineEffect::Finished => term.done = true,
            OnlineEffect::NotOurGame(id) => {
                term.failed = Some(format!("game {id} is not played by this account"))
            }
        }
        Ok(())
    }
}

struct Run {
    session: Session,
    term: Terminal,
    /// The player typed `quit`, or the input ended: nothing more is read.
    left: bool,
    /// The `--pgn` file, saved off this thread as `play` saves it: a move
    /// is printed and said once it is on disk; the requests to the server
    /// never wait for the disk.
    pgn: Option<super::pgn_saving::PgnSaving>,
    started: Instant,
    /// Board reports before the game started (the board's first snapshot).
    board_waiting: Vec<OwnBoardInput>,
    /// With `--voice`.
    voice: Option<OnlineVoice>,
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
    args.board.check_port()?;
    if let Some(path) = &args.pgn {
        super::play::ready_pgn_file(path)?;
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
    super::spawn_stdin_lines(tx.clone(), Msg::Stdin, Msg::StdinEnd);
    let voice = args.voice.wanted().then(|| {
        OnlineVoice::start(
            args.lang,
            &args.voice.voice_wav,
            args.voice.voice_confirm,
            super::terminal_voice::speaking_probe(out.speech.clone()),
            tx.clone(),
            Msg::Voice,
        )
    });
    let started = Instant::now();
    out.link = args.board.open(started, &tx, Msg::Board)?;
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
        session,
        term: Terminal {
            out,
            link: GameLink::new(client.clone(), tx.clone(), wrap_answer, wrap_game),
            client,
            tx,
            done: false,
            failed: None,
            reported: None,
        },
        started,
        board_waiting: Vec::new(),
        voice,
        left: false,
        pgn: match args.pgn.clone() {
            Some(path) => Some(super::pgn_saving::PgnSaving::start(
                path,
                pack.clone(),
                args.lang,
                "the game goes on",
            )?),
            None => None,
        },
    };
    let setup = OnlineSetup {
        account,
        server: args.server.clone(),
        auto_accept: args.accept,
        confirm: !args.no_confirm,
        waits,
        today: crate::savegame::today(),
    };
    run.handle(0, Event::Online(OnlineEvent::Connected(Box::new(setup))))?;
    if run.voice.is_some() {
        run.term.out.say(pack.say("voice_on"), Priority::Answer)?;
    }
    let stop_seek = Arc::new(AtomicBool::new(false));
    run.find_game(&args, &pack, &stop_seek)?;
    let result = run.main_loop(&rx, &pack);
    stop_events.store(true, Ordering::Relaxed);
    stop_seek.store(true, Ordering::Relaxed);
    run.term.link.stop_game();
    // The game is over: nothing more of the server is said, and what is
    // typed now stays here until `quit` (a `yes` typed for a question
    // that never came never reaches the shell).
    // Every move on disk, or said which are not and where they are.
    let saved = run.finish_saving();
    let result = match result {
        Ok(()) if run.term.done && !run.left => run.after_the_end(&rx),
        other => other,
    };
    let result = result.and(saved);
    if let Some(s) = &run.term.out.speech {
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

impl Run {
    fn now_ms(&self) -> u64 {
        self.started.elapsed().as_millis() as u64
    }

    /// The session handles `event`; its effects are carried out (saved
    /// before announced) through the one runtime.
    fn handle(&mut self, now: u64, event: Event) -> CliResult {
        let effects = self.session.handle(now, event);
        let moved = effects
            .iter()
            .any(|e| matches!(e, crate::session::Effect::Notice(Notice::Move { .. })));
        let mut shell = TerminalShell {
            term: &mut self.term,
            session: &self.session,
            moved,
        };
        match &mut self.pgn {
            Some(pgn) => carry_out(&mut pgn.shell(self.session.record(), &mut shell), effects)?,
            None => carry_out(&mut shell, effects)?,
        };
        match self.term.failed.take() {
            Some(reason) => Err(CliError::failure(reason)),
            None => Ok(()),
        }
    }

    fn online(&mut self, now: u64, event: OnlineEvent) -> CliResult {
        self.handle(now, Event::Online(event))
    }

    fn in_game(&self) -> bool {
        self.session.online().is_some_and(|o| o.game().is_some())
    }

    fn find_game(
        &mut self,
        args: &Args,
        pack: &crate::words::Pack,
        stop_seek: &Arc<AtomicBool>,
    ) -> CliResult {
        let out = &self.term.out;
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
            let client = self.term.client.clone();
            let stop = stop_seek.clone();
            let tx = self.term.tx.clone();
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
            .term
            .client
            .find_game(&find, clock, stop_seek, report_waiting(out, pack))
            .map_err(|e| refused(out, pack, e))?;
        match found {
            Some(id) => self.term.link.open(&id),
            None => out.say(pack.say("online_waiting"), Priority::Answer)?,
        }
        Ok(())
    }

    /// Prints and says what waited for saves now on disk.
    fn release_saved(&mut self) -> CliResult {
        let Some(pgn) = &mut self.pgn else {
            return Ok(());
        };
        let mut shell = TerminalShell {
            term: &mut self.term,
            session: &self.session,
            moved: false,
        };
        pgn.release(&mut shell, |shell, event| shell.term.out.line(event))
    }

    /// At the end: the saves under way finished; an error (said) when the
    /// file lacks moves, with where the whole game is kept.
    fn finish_saving(&mut self) -> CliResult {
        let Some(pgn) = &mut self.pgn else {
            return Ok(());
        };
        let mut shell = TerminalShell {
            term: &mut self.term,
            session: &self.session,
            moved: false,
        };
        pgn.finish(self.session.record(), &mut shell, |shell, event| {
            shell.term.out.line(event)
        })
    }

    fn main_loop(&mut self, rx: &Receiver<Msg>, pack: &crate::words::Pack) -> CliResult {
        while !self.term.done {
            self.release_saved()?;
            if let Some(voice) = &self.voice {
                voice.listen(self.session.record().position(), self.playing());
            }
            let wait = driver::wait(&self.session, None, self.now_ms(), driver::LOOK_AGAIN);
            let wait = match &self.pgn {
                Some(pgn) => pgn.wait(wait),
                None => wait,
            };
            let msg = match driver::next(rx, Some(wait)) {
                Next::Input(msg) => msg,
                Next::Due => {
                    self.run_deadlines()?;
                    continue;
                }
                Next::Closed => break,
            };
            let now = self.now_ms();
            match msg {
                Msg::Board(input) => {
                    if self.in_game() {
                        self.handle(input.at_ms, input.event)?;
                    } else {
                        self.board_waiting.push(input);
                    }
                }
                Msg::Stdin(line) => {
                    let text = line.trim().to_owned();
                    if super::play::is_quit(&text) {
                        self.left = true;
                        break;
                    }
                    let over = self.game_over();
                    let answer = match &mut self.voice {
                        Some(voice) if !text.is_empty() => voice.typed_answer(&text, pack),
                        _ => None,
                    };
                    if let Some(answer) = answer {
                        self.voice_reply(now, answer)?;
                    } else if over && !text.is_empty() {
                        // The end is still being saved: answered as after it.
                        self.typed_after_the_end(&text)?;
                    } else if !text.is_empty() {
                        self.online(now, OnlineEvent::Typed(text))?;
                    }
                }
                Msg::StdinEnd => {
                    self.left = true;
                    break;
                }
                Msg::Events(StreamMsg::Line(event)) => {
                    self.online(now, OnlineEvent::Incoming(Box::new(event)))?
                }
                Msg::Answered(call, input, result) => self.online(
                    now,
                    OnlineEvent::Answered {
                        call,
                        input,
                        result,
                    },
                )?,
                Msg::Game(StreamMsg::Line(line)) => {
                    if !self.in_game() {
                        // The game about to start is dated today.
                        self.online(now, OnlineEvent::Today(crate::savegame::today()))?;
                    }
                    self.online(now, OnlineEvent::Game(Box::new(line)))?;
                    if self.in_game() {
                        for input in std::mem::take(&mut self.board_waiting) {
                            self.handle(input.at_ms, input.event)?;
                        }
                    }
                }
                Msg::Events(StreamMsg::Unreadable(e)) | Msg::Game(StreamMsg::Unreadable(e)) => {
                    let reason = format!("unreadable line from the server: {e}");
                    let words = pack.phrase(
                        "online_error",
                        &[("reason", Utterance::from(reason.as_str()))],
                    );
                    self.term.out.error(&reason, words)?;
                }
                Msg::Game(StreamMsg::Dropped { reason, first }) => {
                    self.online(now, OnlineEvent::GameDropped { reason, first })?
                }
                Msg::Game(StreamMsg::Back) => self.online(now, OnlineEvent::GameBack)?,
                // While a game runs, its own stream says what the player
                // needs (the session decides).
                Msg::Events(StreamMsg::Dropped { reason, .. }) => {
                    self.online(now, OnlineEvent::EventsDropped(reason))?
                }
                Msg::Events(StreamMsg::Back) => self.online(now, OnlineEvent::EventsBack)?,
                Msg::Events(StreamMsg::Fatal(e)) | Msg::Game(StreamMsg::Fatal(e)) => {
                    self.term
                        .out
                        .error(&e.to_string(), server_error(pack, &e))?;
                    return Err(CliError::failure(e.to_string()));
                }
                Msg::SeekDone(Err(e)) => {
                    self.term
                        .out
                        .error(&e.to_string(), server_error(pack, &e))?;
                    if !self.in_game() && !self.term.link.follows_game() {
                        return Err(CliError::failure(e.to_string()));
                    }
                }
                Msg::SeekDone(Ok(())) => {}
                Msg::Voice(event) => self.voice_heard(now, event)?,
            }
            // Deadlines due while messages kept coming.
            self.run_deadlines()?;
        }
        Ok(())
    }

    /// After the game: typed lines until `quit` or the end of input;
    /// `repeat` says the last move again, anything else that the game is
    /// over.
    fn after_the_end(&mut self, rx: &Receiver<Msg>) -> CliResult {
        for msg in rx {
            let text = match msg {
                Msg::Stdin(line) => line.trim().to_owned(),
                Msg::StdinEnd => return Ok(()),
                _ => continue,
            };
            if text.is_empty() {
                continue;
            }
            if super::play::is_quit(&text) {
                return Ok(());
            }
            self.typed_after_the_end(&text)?;
        }
        Ok(())
    }

    /// A line typed once the game is over: `repeat` says the last move
    /// again, anything else that the game is over.
    fn typed_after_the_end(&mut self, text: &str) -> CliResult {
        let now = self.now_ms();
        if matches!(super::play::command_for(text), Some(Command::Repeat)) {
            self.handle(now, Event::Command(Command::Repeat))
        } else {
            let words = self.session.pack().say("play_over");
            self.term.out.say(words, Priority::Answer)
        }
    }

    /// The session's deadlines due now (settle windows, guidance, online
    /// play's watch); a move they complete is sent.
    fn run_deadlines(&mut self) -> CliResult {
        let now = self.now_ms();
        driver::run_due_of(self, |s| &s.session, now, |s, at| s.handle(at, Event::Tick))
    }
}
