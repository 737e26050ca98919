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
//! `error` (bad input; the game goes on).

use std::io::{BufRead, Write};
use std::path::PathBuf;
use std::time::Instant;

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
fn is_yes(answer: &str) -> bool {
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
        // Asked first ("Resign? Please confirm"): a slip never ends the game.
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
    pgn: Option<super::output::PgnFile>,
}

impl Out {
    /// The terminal's side of the runtime for one event's effects; `moved`
    /// when the event played a move.
    fn shell<'a>(&'a self, session: &'a Session, moved: bool) -> PlayOut<'a> {
        PlayOut {
            out: self,
            session,
            stdout: std::io::stdout().lock(),
            moved,
            said: Vec::new(),
        }
    }

    /// Hands one event to the session through the driver, which carries
    /// its effects out once (engine requests to the engine thread, the
    /// rest here): notices are printed as they come, then what is said (so
    /// a move is printed once, as its `move` line, and saved before it is
    /// spoken).
    /// Prints and says words of the terminal's own (the commands, what
    /// to type).
    fn say(&self, driver: &Driver, words: crate::words::Utterance) -> CliResult {
        let mut shell = self.shell(&driver.session, false);
        shell.speak(Speech {
            text: words,
            lang: driver.session.pack().lang,
            priority: crate::session::Priority::Answer,
        })?;
        shell.flush_speech()
    }

    fn handle(&self, driver: &mut Driver, event: Event) -> CliResult {
        driver
            .handle_with(event, |session, outcome| {
                self.shell(session, outcome.played())
            })?
            .flush_speech()
    }
}

/// `rochade play`'s side of the runtime (the engine's requests go to the
/// engine thread through the driver).
struct PlayOut<'a> {
    out: &'a Out,
    session: &'a Session,
    stdout: std::io::StdoutLock<'static>,
    /// This batch holds a move: its announcement is printed as the move.
    moved: bool,
    said: Vec<Speech>,
}

impl PlayOut<'_> {
    fn flush_speech(&mut self) -> CliResult {
        for speech in std::mem::take(&mut self.said) {
            let is_move = self.moved && speech.priority == crate::session::Priority::Move;
            if !is_move && !speech.text.written.is_empty() {
                if self.out.json {
                    let line = json!({"event": "say", "text": speech.text.written});
                    writeln!(self.stdout, "{line}")?;
                } else {
                    let text = super::output::terminal_text(&speech.text);
                    writeln!(self.stdout, "{text}")?;
                }
            }
            self.out.speech.speak(speech);
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
        let json = self.out.json;
        match notice {
            Notice::Move {
                ref announcement,
                ref spoken,
                source,
                ..
            } => {
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
                let line = json!({"event": "end", "result": result, "reason": reason});
                writeln!(self.stdout, "{line}")?;
            }
            Notice::Rejected { input, reason } if json => {
                let line = json!({"event": "error", "input": input, "reason": reason});
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
        let Some(pgn) = &self.out.pgn else {
            return Ok(SaveStep::Done);
        };
        // A file that cannot be written stops the file, never the game.
        if let Some(event) = pgn.write(self.session.record(), "the game goes on")
            && self.out.json
        {
            writeln!(self.stdout, "{event}")?;
        }
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
fn ready_pgn_file(path: &std::path::Path) -> CliResult {
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
    let out = Out {
        json: args.json,
        speech,
        pgn: args.pgn.map(super::output::PgnFile::new),
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
        let mut shell = out.shell(&driver.session, false);
        shell.speak(Speech {
            text: greeting,
            lang: args.lang,
            priority: crate::session::Priority::Answer,
        })?;
        shell.flush_speech()?;
    }
    out.handle(&mut driver, Event::Tick)?;
    settle(&mut driver, &out)?;
    out.say(&driver, driver.session.pack().say("terminal_help_hint"))?;
    let stdin = std::io::stdin();
    let mut lines = stdin.lock().lines();
    while let Some(line) = lines.next() {
        let line = line?;
        let text = line.trim();
        if text.is_empty() {
            continue;
        }
        if is_quit(text) {
            break;
        }
        if is_help(text) {
            out.say(&driver, driver.session.pack().say("play_help"))?;
            continue;
        }
        let command = command_for(text);
        if game_over(&driver) && command != Some(Command::Repeat) {
            // The game stays open until `quit`: a word typed after the end
            // (an answer to a question that never came) is answered here,
            // never passed to the shell.
            out.say(&driver, driver.session.pack().say("play_over"))?;
            continue;
        }
        let event = match command {
            Some(cmd) => Event::Command(cmd),
            None => Event::MoveEntered {
                text: text.to_owned(),
                source: Source::Keyboard,
            },
        };
        out.handle(&mut driver, event)?;
        if driver.session.pending().is_some() {
            // The question (takeback, resign) waits for its answer: the
            // next line.
            out.say(&driver, driver.session.pack().say("terminal_yes_or_no"))?;
            let answer = lines
                .by_ref()
                .map_while(Result::ok)
                .find(|l| !l.trim().is_empty());
            let answer = match answer.as_deref().map(str::trim) {
                Some(a) if is_yes(a) => Command::Confirm,
                _ => Command::Cancel,
            };
            out.handle(&mut driver, Event::Command(answer))?;
        }
        settle(&mut driver, &out)?;
        if game_over(&driver) {
            out.say(&driver, driver.session.pack().say("play_over"))?;
        }
    }
    out.speech.finish();
    Ok(())
}

/// The game has ended and the engine has nothing more to say.
fn game_over(driver: &Driver) -> bool {
    driver.session.record().is_over() && !driver.session.engine_busy()
}

fn settle(driver: &mut Driver, out: &Out) -> CliResult {
    let done = driver.settle_with(|driver, event| out.handle(driver, event))?;
    if !done {
        return Err(CliError::failure("the engine thread stopped answering"));
    }
    // Restarted, a flooding engine floods again: the game ends here (the
    // session said why; main writes this too).
    if driver.engine.flooded() {
        out.speech.finish();
        let words = driver.session.pack().say("play_engine_flooded");
        return Err(CliError::failure(words.written));
    }
    Ok(())
}
