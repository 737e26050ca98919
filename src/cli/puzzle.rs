//! `rochade puzzle`: puzzles from the bundled Lichess set in the terminal
//! (and on the player's own board with `--board`, any kind `--format`
//! names: see [`super::board_arg`]).
//!
//! Each puzzle is chosen near the player's rating (or `--rating`), of
//! `--theme` if given; the opponent's first move is played and said, then
//! the position. The player types moves (as in `rochade play`) or `help`
//! (the commands, in the `--lang` language), `hint`, `position`,
//! `rank 3`, `file e`, `skip`, `repeat`, `quit`. With `--json`
//! each event is one JSON object per line: `puzzle` (id, fen: the
//! puzzle's position, in which the opponent's first move is played;
//! solve_fen: the position after it, which the player solves; rating,
//! themes), `move` (the common
//! shape, `by` "player" or "opponent"), `wrong` (uci), `solved` or
//! `failed` (id), `say` (any other words), `error` (bad input),
//! `progress_failed`/`progress_saved`/`progress_unreadable` (the progress
//! file; `progress_unreadable` has `reason` and `kept`) and `end` after
//! `--count` puzzles or the end of input. With `--voice` moves and the
//! commands hint, repeat, take back and resign (the solution) may be said
//! ([`super::play_voice`]); each recognition is a `heard` or
//! `not_understood` line.

use std::io::Write;
use std::sync::mpsc::channel;
use std::time::{Duration, Instant};

use serde_json::json;
use shakmaty::{Color, File, Rank};

use super::output::{MoveBy, move_event, mover_of_ply};
use super::{CliError, CliResult};
use crate::board::HostCommand;
use crate::driver::{self, Next};
use crate::engine::EngineRequest;
use crate::puzzle::{Progress, PuzzleSet};
use crate::puzzle_progress::{ProgressFile, SaveOutcome};
use crate::runtime::{SaveStep, Shell, carry_out};
use crate::session::{
    Command, Earcon, Effect, Event, Notice, PuzzleCommand, Session, SessionConfig, Source, Speech,
};
use crate::speech::SpeechHandle;
use crate::voice_input::microphone::VoiceEvent;

use super::play_voice::Understood;
use crate::words::{Lang, Pack, Token, Utterance};

#[derive(clap::Args, Debug)]
pub struct Args {
    /// Only puzzles of this Lichess theme (mateIn2, fork, pin, skewer,
    /// hangingPiece, endgame, ...; case and dashes ignored).
    #[arg(long)]
    pub theme: Option<String>,
    /// Choose puzzles near this rating instead of your puzzle rating.
    #[arg(long)]
    pub rating: Option<u32>,
    /// Stop after this many puzzles (default: until quit or the end of input).
    #[arg(long)]
    pub count: Option<u32>,
    /// Seed of the choice among the nearest puzzles (default: from the clock).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Language of the words; typed moves may use its piece letters too.
    #[arg(long, default_value = "de")]
    pub lang: Lang,
    /// One JSON object per line instead of text.
    #[arg(long)]
    pub json: bool,
    /// Print only; do not speak.
    #[arg(long)]
    pub quiet: bool,
    /// The player's own board (`--board PORT --format KIND`): the
    /// position is guided there and the moves are read from it.
    #[command(flatten)]
    pub board: super::board_arg::OwnBoardArgs,
    /// Say your moves and the commands hint, repeat, take back and resign
    /// (the solution) into the microphone (German or English).
    #[arg(long)]
    pub voice: bool,
    /// With --voice: these recordings (16 kHz WAV) instead of the
    /// microphone, said one after the other when it is your turn (tests).
    #[arg(long, value_name = "FILE", hide = true)]
    pub voice_wav: Vec<std::path::PathBuf>,
}

/// A typed line that is a puzzle word rather than a move.
pub fn command_for(text: &str, packs: &[Pack]) -> Option<Command> {
    let lower = text.trim().to_lowercase();
    let (word, rest) = lower.split_once(' ').unwrap_or((lower.as_str(), ""));
    let rest = rest.trim();
    let puzzle = |c| Some(Command::Puzzle(c));
    match (word, rest) {
        ("hint" | "tipp" | "dica", "") => puzzle(PuzzleCommand::Hint),
        ("position" | "stellung" | "posicao" | "posição", "") => puzzle(PuzzleCommand::Position),
        ("skip" | "weiter" | "pular" | "solution" | "loesung" | "lösung", "") => {
            puzzle(PuzzleCommand::Skip)
        }
        ("repeat" | "r" | "wiederholen" | "repetir", "") => Some(Command::Repeat),
        ("rank" | "reihe" | "fileira", n) => {
            let n: u32 = n.parse().ok().filter(|n| (1..=8).contains(n))?;
            puzzle(PuzzleCommand::Rank(Rank::new(n - 1)))
        }
        ("file" | "linie" | "coluna", f) => file_named(f, packs)
            .map(PuzzleCommand::File)
            .and_then(puzzle),
        _ => None,
    }
}

/// The event a voice event stands for in a puzzle, or the words to say
/// instead and whether voice input has stopped.
fn puzzle_voice(understood: Understood, pack: &Pack) -> Result<Event, (Option<Utterance>, bool)> {
    use rochade_core::voice_input::Command as Said;
    match understood {
        Understood::Move { event, .. } => Ok(event),
        Understood::Command(Said::Hint) => Ok(Event::Command(Command::Puzzle(PuzzleCommand::Hint))),
        Understood::Command(Said::Repeat) => Ok(Event::Command(Command::Repeat)),
        Understood::Command(Said::Takeback) => Ok(Event::Command(Command::Takeback)),
        // Giving up a puzzle is going on to its solution.
        Understood::Command(Said::Resign) => {
            Ok(Event::Command(Command::Puzzle(PuzzleCommand::Skip)))
        }
        // The clock, a draw offer, yes and no: nothing in a puzzle.
        Understood::Command(_) | Understood::Answer(_) => {
            Err((Some(pack.say("voice_not_in_puzzles")), false))
        }
        Understood::Nothing(words) => Err((words, false)),
        Understood::Stopped(words) => Err((words, true)),
    }
}

/// A file by its letter or its phonetic word in any pack ("e", "Eva").
fn file_named(name: &str, packs: &[Pack]) -> Option<File> {
    if let [c] = name.as_bytes()
        && let Some(f) = File::from_char(*c as char)
    {
        return Some(f);
    }
    File::ALL.into_iter().find(|&f| {
        packs.iter().any(|p| {
            let w = p.file(f);
            [
                w.get(crate::words::Form::Written),
                w.get(crate::words::Form::Spoken),
            ]
            .iter()
            .any(|s| s.to_lowercase() == name)
        })
    })
}

enum Msg {
    Line(String),
    End,
    Voice(VoiceEvent),
    Board(super::board_arg::OwnBoardInput),
}

struct Out {
    json: bool,
    speech: Option<SpeechHandle>,
    link: Option<crate::serial::Link>,
}

impl Out {
    fn line(&self, value: serde_json::Value, text: Option<&str>) -> CliResult {
        let mut stdout = std::io::stdout().lock();
        if self.json {
            writeln!(stdout, "{value}")?;
        } else if let Some(text) = text {
            writeln!(stdout, "{text}")?;
        }
        stdout.flush()?;
        Ok(())
    }

    /// Says and prints words the shell itself has (the progress file).
    fn say(&self, text: Utterance, lang: Lang) -> CliResult {
        self.emit(
            None,
            vec![Effect::Speak(Speech {
                text,
                lang,
                priority: crate::session::Priority::Alert,
            })],
        )
        .map(|_| ())
    }

    /// Carries out the session's effects; whether a puzzle ended.
    fn emit(
        &self,
        player: Option<Color>,
        effects: impl Into<Vec<Effect>>,
    ) -> Result<bool, CliError> {
        let effects: Vec<Effect> = effects.into();
        let announced = effects
            .iter()
            .filter_map(|e| match e {
                Effect::Notice(Notice::Move { announcement, .. }) => Some(announcement.clone()),
                _ => None,
            })
            .collect();
        let mut shell = PuzzleOut {
            out: self,
            player: player.unwrap_or(Color::White),
            announced,
            said: Vec::new(),
            ended: false,
        };
        carry_out(&mut shell, effects)?;
        shell.flush_speech()?;
        Ok(shell.ended)
    }
}

/// `rochade puzzle`'s side of the runtime.
struct PuzzleOut<'a> {
    out: &'a Out,
    player: Color,
    /// The written announcements of this batch's moves: printed as the
    /// moves, not again as words.
    announced: Vec<String>,
    said: Vec<Speech>,
    ended: bool,
}

impl PuzzleOut<'_> {
    fn flush_speech(&mut self) -> CliResult {
        for speech in std::mem::take(&mut self.said) {
            let written = &speech.text.written;
            let is_move = match self.announced.iter().position(|a| a == written) {
                Some(i) => {
                    self.announced.remove(i);
                    true
                }
                None => false,
            };
            if !is_move && !written.is_empty() {
                let text = super::output::terminal_text(&speech.text);
                self.out
                    .line(json!({"event": "say", "text": written}), Some(text))?;
            }
            if let Some(s) = &self.out.speech {
                s.speak(speech);
            }
        }
        Ok(())
    }
}

impl Shell for PuzzleOut<'_> {
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
        // Words said before this notice come first.
        self.flush_speech()?;
        match notice {
            Notice::PuzzleStart {
                id,
                start_fen,
                fen,
                rating,
                themes,
            } => {
                self.player = fen.as_setup().turn;
                // `fen` is where the moves that follow start (the
                // opponent's first one is legal in it); `solve_fen` is
                // the position after it, the one to solve.
                let line = json!({"event": "puzzle", "id": id, "fen": start_fen.to_string(), "solve_fen": fen.to_string(), "rating": rating, "themes": themes});
                self.out.line(line, None)?;
            }
            Notice::Move {
                ply,
                ref announcement,
                ref spoken,
                ..
            } => {
                let by = MoveBy::of(mover_of_ply(ply, !self.player), self.player);
                let text = match super::output::terminal_form() {
                    crate::words::Form::Spoken => spoken,
                    crate::words::Form::Written => announcement,
                };
                if let Some(line) = move_event(&notice, by) {
                    self.out.line(line, Some(text))?;
                }
            }
            Notice::PuzzleWrong { uci } => {
                self.out
                    .line(json!({"event": "wrong", "uci": uci.to_string()}), None)?;
            }
            Notice::PuzzleDone { id, solved, .. } => {
                self.ended = true;
                let event = if solved { "solved" } else { "failed" };
                self.out.line(json!({"event": event, "id": id}), None)?;
            }
            Notice::Rejected { input, reason } => {
                let line = json!({"event": "error", "input": input, "reason": reason.to_string()});
                self.out.line(line, None)?;
            }
            // Other notices are for the window and `track`; their words
            // reach the terminal as speech.
            _ => {}
        }
        Ok(())
    }
    fn save_game(&mut self) -> Result<SaveStep, CliError> {
        // A puzzle is no game to keep; the progress is saved after each.
        Ok(SaveStep::Done)
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
    fn ask_engine(&mut self, request: EngineRequest) -> CliResult {
        Err(CliError::failure(format!(
            "internal: engine request {} in puzzle mode",
            request.id
        )))
    }
    fn restart_engine(&mut self) -> CliResult {
        Ok(())
    }
    fn config_changed(&mut self, _: SessionConfig) -> CliResult {
        Ok(())
    }
    fn online(&mut self, _: rochade_core::online::OnlineEffect) -> CliResult {
        // Puzzles are played offline.
        Ok(())
    }
}

/// A file's name as it is said: its name alone (the folder is printed on
/// stderr), the same written and spoken.
fn file_words(path: &std::path::Path) -> Utterance {
    let name = path.file_name().unwrap_or(path.as_os_str());
    Utterance::from(name.to_string_lossy().as_ref())
}

fn number(pack: &Pack, n: u32) -> Utterance {
    pack.render(&[Token::Number(n.into())])
}

/// Saves the progress; a failure (a full disk) is said once and the
/// progress kept in memory for the next try.
fn save_progress(
    file: &mut ProgressFile,
    progress: &Progress,
    out: &Out,
    pack: &Pack,
    lang: Lang,
) -> CliResult {
    let path = file
        .path()
        .map(|p| p.display().to_string())
        .unwrap_or_default();
    match file.save(progress) {
        SaveOutcome::Saved | SaveOutcome::StillFailing => Ok(()),
        SaveOutcome::SavedAgain => {
            eprintln!("rochade: the puzzle progress is saved again in {path}");
            if out.json {
                out.line(json!({"event": "progress_saved", "path": path}), None)?;
            }
            out.say(pack.say("puzzle_saved_again"), lang)
        }
        SaveOutcome::Failed(reason) => {
            eprintln!(
                "rochade: the puzzle progress was not saved: {reason}; it is kept and saved again after the next puzzle"
            );
            if out.json {
                out.line(
                    json!({"event": "progress_failed", "path": path, "reason": reason}),
                    None,
                )?;
            }
            out.say(
                pack.phrase(
                    "puzzle_save_failed",
                    &[("reason", Utterance::from(reason.as_str()))],
                ),
                lang,
            )
        }
    }
}

pub fn run(args: Args) -> CliResult {
    args.board.check_port()?;
    let set = PuzzleSet::bundled();
    if let Some(theme) = &args.theme
        && !set.knows_theme(theme)
    {
        let known: Vec<String> = set.themes().into_iter().map(|(t, _)| t).collect();
        return Err(CliError::input(format!(
            "no puzzle has the theme {theme}; the themes are: {}",
            known.join(", ")
        )));
    }
    let pack = super::load_pack(args.lang);
    let packs: Vec<Pack> = Lang::ALL.iter().map(|&l| Pack::bundled(l)).collect();
    let mut file = ProgressFile::in_data_dir();
    let (progress, warning) = file.load();
    let config = SessionConfig {
        lang: args.lang,
        ..SessionConfig::default()
    };
    let mut session = Session::with_pack(config, pack.clone());
    session.set_puzzle_progress(progress);
    let seed = args.seed.unwrap_or_else(|| {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos() as u64)
            .unwrap_or(1)
    });
    let speech = super::terminal_speech(args.lang, args.quiet);
    let started = Instant::now();
    let (tx, rx) = channel();
    let mut out = Out {
        json: args.json,
        speech,
        link: None,
    };
    out.link = args.board.open(started, &tx, Msg::Board)?;
    if let Some(w) = warning {
        // A file that could not be read was kept beside (or left as it
        // is): said, so the player knows why the rating starts afresh.
        eprintln!("rochade: {w}");
        let said = match file.kept() {
            Some(kept) => pack.phrase("puzzle_progress_kept", &[("file", file_words(&kept))]),
            None => pack.say("puzzle_progress_not_kept"),
        };
        if out.json {
            let kept = file.kept().map(|k| k.display().to_string());
            out.line(
                json!({"event": "progress_unreadable", "reason": w, "kept": kept}),
                None,
            )?;
        }
        out.say(said, args.lang)?;
    }
    // What voice input hears comes on the same channel as typed lines;
    // the input has ended when both have.
    let voice = (args.voice || !args.voice_wav.is_empty()).then(|| {
        super::play_voice::start_voice(
            args.lang,
            &args.voice_wav,
            super::terminal_voice::speaking_probe(out.speech.clone()),
            tx.clone(),
            Msg::Voice,
        )
    });
    let (mut typed_ended, mut voice_ended) = (false, voice.is_none());
    super::spawn_stdin_lines(tx, Msg::Line, Msg::End);
    let now = || started.elapsed().as_millis() as u64;
    out.say(pack.say("terminal_help_hint"), args.lang)?;
    if voice.is_some() {
        out.say(pack.say("voice_on"), args.lang)?;
    }
    let mut played = 0u32;
    let mut session_stats = (0u32, 0u32);
    'puzzles: while args.count.is_none_or(|c| played < c) {
        let progress = session.puzzle_progress().clone();
        let target = args.rating.map_or(progress.rating.rating, f64::from);
        let Some(puzzle) = crate::puzzle::choose(
            &set,
            target,
            args.theme.as_deref(),
            seed.wrapping_add(u64::from(played)),
            &|id| progress.played(id),
        ) else {
            break;
        };
        let player = puzzle.player();
        let fx = session.handle(
            now(),
            Event::Command(Command::Puzzle(PuzzleCommand::Start(Box::new(
                puzzle.clone(),
            )))),
        );
        out.emit(Some(player), fx)?;
        played += 1;
        loop {
            let wait = driver::wait(&session, None, now(), driver::LOOK_AGAIN);
            if let Some(voice) = &voice {
                // A recording is said only when the player is to move and
                // the opponent's reply is not still to come.
                let position = session.record().position();
                voice.set_position(position);
                voice.set_awaiting(
                    shakmaty::Position::turn(position) == player
                        && driver::nothing_scheduled(&session),
                );
            }
            let event = match driver::next(&rx, Some(wait)) {
                Next::Due => Event::Tick,
                Next::Closed => break 'puzzles,
                Next::Input(Msg::End) => {
                    typed_ended = true;
                    if voice_ended {
                        break 'puzzles;
                    }
                    continue;
                }
                Next::Input(Msg::Voice(heard)) => {
                    let (line, understood) = super::play_voice::understand(heard, &pack);
                    if let Some(line) = line {
                        out.line(line, None)?;
                    }
                    match puzzle_voice(understood, &pack) {
                        Ok(event) => event,
                        Err((words, stopped)) => {
                            if let Some(words) = words {
                                out.say(words, args.lang)?;
                            }
                            voice_ended |= stopped;
                            if voice_ended && typed_ended {
                                break 'puzzles;
                            }
                            continue;
                        }
                    }
                }
                Next::Input(Msg::Board(input)) => input.event,
                Next::Input(Msg::Line(line)) => {
                    let text = line.trim();
                    if text.is_empty() {
                        continue;
                    }
                    if super::play::is_quit(text) {
                        break 'puzzles;
                    }
                    if super::play::is_help(text) {
                        out.say(pack.say("puzzle_help"), args.lang)?;
                        continue;
                    }
                    command_for(text, &packs).map_or_else(
                        || Event::MoveEntered {
                            text: text.to_owned(),
                            source: Source::Keyboard,
                        },
                        Event::Command,
                    )
                }
            };
            let before = session.puzzle_progress().clone();
            let fx = session.handle(now(), event);
            // The result is said only once it is on disk: a kill right
            // after it was heard loses nothing.
            if *session.puzzle_progress() != before {
                save_progress(&mut file, session.puzzle_progress(), &out, &pack, args.lang)?;
            }
            if out.emit(Some(player), fx)? {
                let solved = session.puzzle().and_then(|r| r.outcome) == Some(true);
                if solved {
                    session_stats.0 += 1;
                } else {
                    session_stats.1 += 1;
                }
                break;
            }
        }
    }
    let (solved, failed) = session_stats;
    let rating = session.puzzle_progress().rating_number();
    let summary = pack.phrase(
        "puzzle_summary",
        &[
            ("solved", number(&pack, solved)),
            ("failed", number(&pack, failed)),
        ],
    );
    out.line(
        json!({"event": "end", "puzzles": played, "solved": solved, "failed": failed, "rating": rating}),
        None,
    )?;
    out.say(summary, args.lang)?;
    if let Some(link) = out.link.take() {
        link.stop();
    }
    if let Some(s) = &out.speech {
        s.wait_idle(Duration::from_secs(30));
    }
    // A save that failed is tried once more before leaving.
    if file.path().is_some() {
        save_progress(&mut file, session.puzzle_progress(), &out, &pack, args.lang)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn puzzle_words_in_three_languages_and_moves_left_alone() {
        let packs: Vec<Pack> = Lang::ALL.iter().map(|&l| Pack::bundled(l)).collect();
        let puzzle = |c| Some(Command::Puzzle(c));
        assert_eq!(command_for("Tipp", &packs), puzzle(PuzzleCommand::Hint));
        assert_eq!(
            command_for("posicao", &packs),
            puzzle(PuzzleCommand::Position)
        );
        assert_eq!(command_for("weiter", &packs), puzzle(PuzzleCommand::Skip));
        assert_eq!(
            command_for("rank 3", &packs),
            puzzle(PuzzleCommand::Rank(Rank::Third))
        );
        assert_eq!(
            command_for("linie Eva", &packs),
            puzzle(PuzzleCommand::File(File::E))
        );
        assert_eq!(
            command_for("coluna h", &packs),
            puzzle(PuzzleCommand::File(File::H))
        );
        assert_eq!(command_for("rank 9", &packs), None);
        assert_eq!(command_for("e4", &packs), None);
        assert_eq!(command_for("Rb8", &packs), None);
    }
}
