//! `rochade play`: a practice game against a UCI engine in the terminal.
//!
//! The player types moves (every form the move input accepts, in English
//! piece letters or the `--lang` language's: `Sf3`, `Lc4`, `Cf3`) or a
//! command: `help` (the commands, in the `--lang` language), `hint`,
//! `threat`, `eval`, `takeback` and `resign` (both asked first, answered
//! on the next line: `yes`/`ja`/`sim`, anything else cancels),
//! `restart` (the engine program, not the game), `repeat`, `quit`. Once
//! the game is over, `play` waits for `quit` or the end of input (a `yes`
//! typed late never reaches the shell). The engine's move is printed as
//! its announcement and spoken unless `--quiet`; the terminal text is the
//! spoken form (with umlauts) in a UTF-8 locale, ASCII otherwise. With
//! `--json` each event is one JSON object per line: `move` (uci, san, by,
//! announcement), `say` (any other words), `end` (result, reason) and
//! `error` (bad input; the game goes on). With `--voice` moves and
//! commands may be said as well ([`super::play_voice`]); each recognition
//! is a `heard` or `not_understood` line.

use std::io::Write;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use serde_json::json;
use shakmaty::Color;

use super::{CliError, CliResult};
use crate::board::HostCommand;
use crate::engine::EngineRequest;
use crate::engine::driver::{Driver, Time};
use crate::engine::{DEFAULT_ENGINE_PATH, EngineService, Level};
use crate::runtime::{SaveStep, Shell};
use crate::session::{
    Command, Earcon, EngineChange, Event, Notice, Opponent, Session, SessionConfig, Source, Speech,
};
use crate::words::{Lang, Token};

use super::play_voice::{Input, Inputs, Next, PlayVoice, Understood, play_command};

#[derive(clap::Args, Debug)]
pub struct Args {
    /// Engine strength from 1 (a beginner) to 10 (full strength).
    #[arg(long, default_value = "3")]
    pub level: Level,
    /// The colour you play.
    #[arg(
        long,
        default_value = "white",
        ignore_case = true,
        value_parser = clap::builder::TypedValueParser::map(clap::builder::EnumValueParser::<Side>::new(), Color::from)
    )]
    pub color: Color,
    /// Language of announcements and messages; typed moves may use its
    /// piece letters (de: K D T L S, pt: R D T B C) as well as English ones.
    #[arg(long, default_value = "de")]
    pub lang: Lang,
    /// The UCI engine program.
    #[arg(long, default_value = DEFAULT_ENGINE_PATH)]
    pub engine: PathBuf,
    /// One JSON object per line instead of text.
    #[arg(long)]
    pub json: bool,
    /// Print only; do not speak.
    #[arg(long)]
    pub quiet: bool,
    /// Shortest time in milliseconds between your move and the engine's reply.
    #[arg(long, default_value = "800")]
    pub pause_ms: u64,
    /// Seed for the low levels' random choices (default: from the clock).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Write the game as PGN to this file after every move (an earlier
    /// game in it is kept beside it, as FILE-2.pgn or the next number free).
    #[arg(long)]
    pub pgn: Option<PathBuf>,
    /// Voice input: `--voice`, `--voice-confirm`.
    #[command(flatten)]
    pub voice: super::play_voice::VoiceArgs,
}

/// A colour on the command line (English, German or Portuguese).
#[derive(Clone, Copy, Debug, clap::ValueEnum)]
pub(super) enum Side {
    #[value(aliases = ["w", "weiss", "brancas"])]
    White,
    #[value(aliases = ["b", "schwarz", "pretas"])]
    Black,
}

impl From<Side> for Color {
    fn from(side: Side) -> Color {
        match side {
            Side::White => Color::White,
            Side::Black => Color::Black,
        }
    }
}

/// An answer that confirms a question, in English, German or Portuguese.
pub(super) fn is_yes(answer: &str) -> bool {
    matches!(
        answer.to_lowercase().as_str(),
        "y" | "yes" | "j" | "ja" | "s" | "sim" | "confirm"
    )
}

/// A typed line that is a command rather than a move.
pub fn command_for(text: &str) -> Option<Command> {
    Some(match text.trim().to_lowercase().as_str() {
        "hint" | "tipp" | "dica" => Command::Hint,
        "threat" | "drohung" | "ameaca" | "ameaça" => Command::Threat,
        "eval" | "evaluate" | "bewertung" | "avaliacao" | "avaliação" => Command::Evaluate,
        "takeback" | "undo" | "zurueck" | "zurück" | "voltar" => Command::Takeback,
        // Asked first ("White resigns? Yes or no"): a slip never ends the game.
        "resign" | "aufgeben" | "abandonar" => Command::AskResign,
        "restart" => Command::RestartEngine,
        "repeat" | "r" | "wiederholen" | "repetir" => Command::Repeat,
        _ => return None,
    })
}

/// A typed line that asks for the commands.
pub fn is_help(text: &str) -> bool {
    matches!(
        text.trim().to_lowercase().as_str(),
        "help" | "hilfe" | "ajuda" | "?"
    )
}

/// A typed line that leaves the command.
pub fn is_quit(text: &str) -> bool {
    matches!(
        text.trim().to_lowercase().as_str(),
        "quit" | "exit" | "q" | "ende" | "sair"
    )
}

struct Out {
    json: bool,
    speech: super::terminal_voice::TerminalVoice,
    /// The `--pgn` file, saved on its own thread: a move is printed and
    /// said once it is on disk.
    pgn: Option<super::pgn_saving::PgnSaving>,
}

impl Out {
    /// Hands one event to the session through the driver, which carries
    /// its effects out once (engine requests to the engine thread, the
    /// rest here): notices are printed as they come, then what is said (so
    /// a move is printed once, as its `move` line). With `--pgn` the save
    /// comes first and what follows it waits until it is on disk.
    fn handle(&mut self, driver: &mut Driver, event: Event) -> CliResult {
        let mut shell = PlayOut::new(self.json, &self.speech);
        match &mut self.pgn {
            Some(pgn) => {
                driver.handle_with(event, |session, _| pgn.shell(session.record(), &mut shell))?;
            }
            None => {
                driver.handle_with(event, |_, _| &mut shell)?;
            }
        }
        shell.flush_speech()
    }

    /// Prints and says words of the terminal's own (the commands, what
    /// to type).
    fn say(&mut self, driver: &Driver, words: crate::words::Utterance) -> CliResult {
        let mut shell = PlayOut::new(self.json, &self.speech);
        shell.speak(Speech {
            text: words,
            lang: driver.session.pack().lang,
            priority: crate::session::Priority::Answer,
        })?;
        shell.flush_speech()
    }

    /// Prints and says what waited for saves now on disk.
    fn release_saved(&mut self) -> CliResult {
        let Some(pgn) = &mut self.pgn else {
            return Ok(());
        };
        let mut shell = PlayOut::new(self.json, &self.speech);
        pgn.release(&mut shell, PlayOut::event)?;
        shell.flush_speech()
    }

    /// At the end: waits for the saves; an error (said) when the file
    /// lacks moves.
    fn finish_saving(&mut self, record: &crate::chess::GameRecord) -> CliResult {
        let Some(pgn) = &mut self.pgn else {
            return Ok(());
        };
        let mut shell = PlayOut::new(self.json, &self.speech);
        let finished = pgn.finish(record, &mut shell, PlayOut::event);
        shell.flush_speech()?;
        finished
    }

    /// How long the loop may wait for input before it looks for finished
    /// saves again.
    fn wait(&self, wait: Duration) -> Duration {
        self.pgn.as_ref().map_or(wait, |p| p.wait(wait))
    }
}

/// `rochade play`'s side of the runtime (the engine's requests go to the
/// engine thread through the driver).
struct PlayOut<'a> {
    json: bool,
    speech: &'a super::terminal_voice::TerminalVoice,
    stdout: std::io::StdoutLock<'static>,
    /// This batch holds a move: its announcement is printed as the move.
    moved: bool,
    said: Vec<Speech>,
}

impl PlayOut<'_> {
    fn new(json: bool, speech: &super::terminal_voice::TerminalVoice) -> PlayOut<'_> {
        PlayOut {
            json,
            speech,
            stdout: std::io::stdout().lock(),
            moved: false,
            said: Vec::new(),
        }
    }

    fn flush_speech(&mut self) -> CliResult {
        for speech in std::mem::take(&mut self.said) {
            let is_move = self.moved && speech.priority == crate::session::Priority::Move;
            if !is_move && !speech.text.written.is_empty() {
                if self.json {
                    let line = json!({"event": "say", "text": speech.text.written});
                    writeln!(self.stdout, "{line}")?;
                } else {
                    let text = super::output::terminal_text(&speech.text);
                    writeln!(self.stdout, "{text}")?;
                }
            }
            self.speech.speak(speech);
        }
        Ok(())
    }

    /// A JSON line of the saving (`pgn_failed`, `save_slow`, ...); its
    /// words come as speech.
    fn event(&mut self, value: serde_json::Value) -> CliResult {
        if self.json {
            writeln!(self.stdout, "{value}")?;
        }
        Ok(())
    }
}

impl Shell for PlayOut<'_> {
    type Error = CliError;

    fn speak(&mut self, speech: Speech) -> CliResult {
        self.said.push(speech);
        Ok(())
    }
    fn sound(&mut self, _: Earcon) -> CliResult {
        // The terminal plays no earcons: every event is printed or said.
        Ok(())
    }
    fn notice(&mut self, notice: Notice) -> CliResult {
        let json = self.json;
        match notice {
            Notice::Move {
                ref announcement,
                ref spoken,
                source,
                ..
            } => {
                self.moved = true;
                let by = if source == Source::Engine {
                    super::output::MoveBy::Engine
                } else {
                    super::output::MoveBy::Player
                };
                if json {
                    if let Some(line) = super::output::move_event(&notice, by) {
                        writeln!(self.stdout, "{line}")?;
                    }
                } else {
                    let text = match super::output::terminal_form() {
                        crate::words::Form::Spoken => spoken,
                        crate::words::Form::Written => announcement,
                    };
                    writeln!(self.stdout, "{text}")?;
                }
            }
            Notice::GameOver { result, reason } if json => {
                let line = json!({"event": "end", "result": result.to_string(), "reason": reason});
                writeln!(self.stdout, "{line}")?;
            }
            Notice::Rejected { input, reason } if json => {
                let line = json!({"event": "error", "input": input, "reason": reason.to_string()});
                writeln!(self.stdout, "{line}")?;
            }
            Notice::Engine {
                state: EngineChange::Failed,
                detail,
            } if json => {
                let line = json!({"event": "error", "reason": detail});
                writeln!(self.stdout, "{line}")?;
            }
            // Other notices are for the window and `track`; their words
            // reach the terminal as speech.
            _ => {}
        }
        Ok(())
    }
    fn save_game(&mut self) -> Result<SaveStep, CliError> {
        // Without `--pgn` nothing is saved; with it, the saving in front
        // of this front end takes the save.
        Ok(SaveStep::Done)
    }
    fn board_command(&mut self, _: HostCommand) -> CliResult {
        // `play` follows no board.
        Ok(())
    }
    fn sighted_board_command(&mut self, _: HostCommand) -> CliResult {
        Ok(())
    }
    fn ask_engine(&mut self, request: EngineRequest) -> CliResult {
        // The driver sends requests to the engine before they reach here.
        Err(CliError::failure(format!(
            "internal: engine request {} reached the terminal",
            request.id
        )))
    }
    fn restart_engine(&mut self) -> CliResult {
        Err(CliError::failure(
            "internal: an engine restart reached the terminal".to_owned(),
        ))
    }
    fn config_changed(&mut self, _: crate::session::SessionConfig) -> CliResult {
        // The terminal sends no practice keys; its settings are its
        // arguments, kept nowhere.
        Ok(())
    }
    fn online(&mut self, _: rochade_core::online::OnlineEffect) -> CliResult {
        // `play` has no online play.
        Ok(())
    }
}

/// Readies the `--pgn` file before the game: a folder or a device there is
/// refused (nothing is played), what a killed run left half-written is
/// removed, and an earlier game in the file is kept beside it under a new
/// name, said on stderr (a second run never silently replaces the first
/// game).
pub(super) fn ready_pgn_file(path: &std::path::Path) -> CliResult {
    let target = crate::storage::regular_target(path)
        .map_err(|e| CliError::input(format!("--pgn {}: {e}", path.display())))?;
    crate::storage::remove_stale_temps(&target);
    let kept = crate::storage::keep_beside(&target).map_err(|e| {
        CliError::failure(format!(
            "--pgn {}: the earlier game in it could not be kept ({e}); nothing was played",
            path.display()
        ))
    })?;
    if let Some(kept) = kept {
        eprintln!(
            "rochade: {} held an earlier game; it was kept as {}",
            path.display(),
            kept.display()
        );
    }
    Ok(())
}

pub fn run(args: Args) -> CliResult {
    if let Some(path) = &args.pgn {
        ready_pgn_file(path)?;
    }
    let config = SessionConfig {
        lang: args.lang,
        blind_side: args.color,
        ..SessionConfig::default()
    };
    // The user's word corrections, as every command reads them.
    let pack = super::load_pack(args.lang);
    // A complete PGN: the date, who played whom, the result (written from
    // the record's end).
    let computer = format!("Computer level {}", args.level.number());
    let (white, black) = match args.color {
        Color::White => ("Player".to_owned(), computer),
        Color::Black => (computer, "Player".to_owned()),
    };
    let tags = crate::chess::Tags {
        event: "Rochade practice".into(),
        date: crate::pgn::pgn_date(crate::savegame::today()),
        white,
        black,
        ..crate::chess::Tags::default()
    };
    let mut session = Session::with_pack(config, pack).with_tags(tags);
    let seed = args.seed.unwrap_or_else(|| {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos() as u64)
            .unwrap_or(1)
    });
    let speech = super::terminal_voice::TerminalVoice::start(args.quiet, args.lang);
    let pgn = match args.pgn {
        Some(path) => Some(super::pgn_saving::PgnSaving::start(
            path,
            session.pack().clone(),
            args.lang,
            "the game goes on",
        )?),
        None => None,
    };
    let mut out = Out {
        json: args.json,
        speech,
        pgn,
    };
    let greeting = {
        let pack = session.pack();
        pack.phrase(
            "practice_start",
            &[
                (
                    "level",
                    pack.render(&[Token::Number(args.level.number().into())]),
                ),
                ("side", crate::announce::side_word(pack, args.color)),
            ],
        )
    };
    session.set_opponent(Some(Opponent {
        color: !args.color,
        level: args.level,
        pause_ms: args.pause_ms,
        seed,
    }));
    let engine = EngineService::spawn(args.engine);
    let mut driver = Driver::new(session, engine, Time::Real(Instant::now()));
    {
        let mut shell = PlayOut::new(out.json, &out.speech);
        shell.speak(Speech {
            text: greeting,
            lang: args.lang,
            priority: crate::session::Priority::Answer,
        })?;
        shell.flush_speech()?;
    }
    // Lines come on a channel, so that while the player thinks, moves
    // waiting for their save are printed as soon as it is on disk; what
    // voice input hears comes on the same channel.
    let (tx, rx) = std::sync::mpsc::channel();
    let voice = args.voice.wanted().then(|| PlayVoice {
        source: super::play_voice::start_voice(
            args.lang,
            &args.voice.voice_wav,
            out.speech.speaking_probe(),
            tx.clone(),
            Input::Voice,
        ),
        confirm: args.voice.voice_confirm,
        ended: false,
    });
    super::spawn_stdin_lines(tx, |line| Input::Typed(Some(line)), Input::Typed(None));
    let mut inputs = Inputs {
        rx,
        typed_ended: false,
        voice,
    };
    let played = play_lines(&mut driver, &mut out, &mut inputs);
    // Every move on disk, or said which are not and where they are.
    let saved = out.finish_saving(driver.session.record());
    out.speech.finish();
    played.and(saved)
}

/// The game: events from the typed lines, the voice and the engine, until
/// `quit`, the end of input (typed, and the voice's recordings) or the end
/// of the game.
fn play_lines(driver: &mut Driver, out: &mut Out, inputs: &mut Inputs) -> CliResult {
    out.handle(driver, Event::Tick)?;
    settle(driver, out)?;
    out.say(driver, driver.session.pack().say("terminal_help_hint"))?;
    if inputs.voice.is_some() {
        out.say(driver, driver.session.pack().say("voice_on"))?;
    }
    loop {
        let event = match next_input(driver, out, inputs)? {
            Next::End => return Ok(()),
            Next::Line(line) => {
                let text = line.trim();
                if text.is_empty() {
                    continue;
                }
                if is_quit(text) {
                    return Ok(());
                }
                if is_help(text) {
                    out.say(driver, driver.session.pack().say("play_help"))?;
                    continue;
                }
                match command_for(text) {
                    Some(cmd) => Event::Command(cmd),
                    None => Event::MoveEntered {
                        text: text.to_owned(),
                        source: Source::Keyboard,
                    },
                }
            }
            Next::Voice(heard) => match inputs.understand(heard, driver, out.json) {
                Understood::Command(said) => Event::Command(play_command(said)),
                Understood::Move { event, words } => {
                    if inputs.confirm() && !game_over(driver) {
                        let question = driver
                            .session
                            .pack()
                            .phrase("voice_confirm_move", &[("move", words)]);
                        out.say(driver, question)?;
                        if !next_answer(driver, out, inputs)? {
                            out.say(driver, driver.session.pack().say("voice_move_dropped"))?;
                            continue;
                        }
                    }
                    event
                }
                Understood::Answer(_) => {
                    out.say(driver, driver.session.pack().say("voice_nothing_to_answer"))?;
                    continue;
                }
                Understood::Nothing(words) | Understood::Stopped(words) => {
                    if let Some(words) = words {
                        out.say(driver, words)?;
                    }
                    continue;
                }
            },
        };
        if game_over(driver) && event != Event::Command(Command::Repeat) {
            // The game stays open until `quit`: a word typed after the end
            // (an answer to a question that never came) is answered here,
            // never passed to the shell.
            out.say(driver, driver.session.pack().say("play_over"))?;
            continue;
        }
        out.handle(driver, event)?;
        if driver.session.pending().is_some() {
            // The question (takeback, resign; it ends "Yes or no") waits
            // for its answer: the next line, or yes or no said.
            let answer = if next_answer(driver, out, inputs)? {
                Command::Confirm
            } else {
                Command::Cancel
            };
            out.handle(driver, Event::Command(answer))?;
        }
        settle(driver, out)?;
        if game_over(driver) {
            out.say(driver, driver.session.pack().say("play_over"))?;
        }
    }
}

/// The answer to a question: a typed line (yes, anything else cancels)
/// or yes or no said (anything else said is not understood, and the
/// question waits); the end of input cancels.
fn next_answer(driver: &mut Driver, out: &mut Out, inputs: &mut Inputs) -> Result<bool, CliError> {
    loop {
        match next_input(driver, out, inputs)? {
            Next::End => return Ok(false),
            Next::Line(line) if line.trim().is_empty() => {}
            Next::Line(line) => return Ok(is_yes(line.trim())),
            Next::Voice(heard) => match inputs.understand(heard, driver, out.json) {
                Understood::Answer(yes) => return Ok(yes),
                Understood::Nothing(Some(words)) | Understood::Stopped(Some(words)) => {
                    out.say(driver, words)?
                }
                Understood::Nothing(None) | Understood::Stopped(None) => {}
                Understood::Command(_) | Understood::Move { .. } => {
                    out.say(driver, driver.session.pack().say("voice_not_understood"))?;
                }
            },
        }
    }
}

/// The next typed line or voice event, printing what waited for saves
/// meanwhile.
fn next_input(driver: &Driver, out: &mut Out, inputs: &mut Inputs) -> Result<Next, CliError> {
    let wait = out.wait(Duration::from_secs(1));
    let position = driver.session.record().position().clone();
    inputs.next(&position, wait, || out.release_saved())
}

/// The game has ended and the engine has nothing more to say.
fn game_over(driver: &Driver) -> bool {
    driver.session.record().is_over() && !driver.session.engine_busy()
}

/// Waits for the engine's answers (the engine's move is played after the
/// pause), printing what waited for saves as they reach the disk.
fn settle(driver: &mut Driver, out: &mut Out) -> CliResult {
    let mut silent_since = Instant::now();
    loop {
        out.release_saved()?;
        if !driver.session.engine_busy() {
            // Ready notices and the like that arrived meanwhile.
            while let Ok(event) = driver.engine.events().try_recv() {
                out.handle(driver, Event::Engine(event))?;
            }
            out.release_saved()?;
            // Restarted, a flooding engine floods again: the game ends
            // here (the session said why; main writes this too).
            if driver.engine.flooded() {
                let words = driver.session.pack().say("play_engine_flooded");
                return Err(CliError::failure(words.written));
            }
            return Ok(());
        }
        if let Some(at) = driver.session.engine_move_due() {
            let now = driver.now();
            if now >= at {
                out.handle(driver, Event::Tick)?;
                silent_since = Instant::now();
            } else {
                let left = Duration::from_millis(at - now);
                std::thread::sleep(out.wait(left));
            }
            continue;
        }
        match driver.engine.events().recv_timeout(out.wait(ENGINE_WAIT)) {
            Ok(event) => {
                out.handle(driver, Event::Engine(event))?;
                silent_since = Instant::now();
            }
            Err(std::sync::mpsc::RecvTimeoutError::Timeout)
                if silent_since.elapsed() < ENGINE_WAIT => {}
            Err(_) => return Err(CliError::failure("the engine thread stopped answering")),
        }
    }
}

/// The engine thread sent nothing for this long: give up waiting (the
/// thread itself reports a hung engine well before).
const ENGINE_WAIT: Duration = Duration::from_secs(120);
