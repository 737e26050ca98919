//! The command line. `rochade` with no arguments opens the desktop app;
//! each subcommand is a headless tool over the same core.

use clap::{Parser, Subcommand};

pub mod announce;
pub mod board_arg;
pub mod board_sim;
#[cfg(unix)]
mod certabo_sim;
pub mod dgt;
#[cfg(unix)]
pub mod eboard_sim;
pub mod export;
pub mod follow;
pub mod listen;
pub mod online;
pub mod online_report;
pub mod output;
mod pgn_saving;
pub mod play;
pub(crate) mod play_voice;
pub mod puzzle;
pub mod review;
pub mod say;
mod terminal_voice;
pub mod track;
mod track_driver;
mod track_eboard;
mod track_push;
pub mod watch;

#[derive(Parser, Debug)]
#[command(
    name = "rochade",
    // The same usage lines on every system (not "rochade.exe" on Windows,
    // where both names start it).
    bin_name = "rochade",
    version,
    about = "Over-the-board chess for blind and visually impaired players",
    long_about = "Rochade announces moves with the FIDE Appendix E words (Anna, Bella, Cesar ...), \
follows a tactile peg-board over serial, speaks for itself and keeps a scoresheet that exports \
to Braille (BRF, PEF, Unicode), PGN and text.\n\nWithout a command it opens the desktop app."
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Print the Appendix E announcement of each move in a PGN or move list.
    Announce(announce::Args),
    /// Follow a board (peg-board, LiBoard, Sentio, DGT, Millennium, Certabo, Chessnut, DGT Pegasus) on a port, or replay a board log, printing JSON events.
    Track(track::Args),
    /// Run a simulated board (peg-board, DGT, Millennium, Certabo) on a pseudo-terminal, driven from stdin.
    BoardSim(board_sim::Args),
    /// Speak a text with the system voice or the clip voice.
    Say(say::SayArgs),
    /// List system voices and clip voice packs.
    Voices(say::VoicesArgs),
    /// Export a game as Braille (BRF, PEF, Unicode), PGN or a text scoresheet.
    Export(export::Args),
    /// Practise against a UCI engine (Stockfish) in the terminal.
    Play(play::Args),
    /// Play online on Lichess (Board API) from the terminal.
    Online(online::Args),
    /// Puzzles from the bundled Lichess set: typed moves or your own board.
    Puzzle(puzzle::Args),
    /// Review a game with the engine: your mistakes, then each as an exercise.
    Review(review::Args),
    /// Follow one game of a live broadcast round (Lichess broadcasts) move by move.
    Watch(watch::Args),
    /// Recognise one spoken move (or command) in a WAV recording, offline.
    Listen(listen::Args),
}

/// A failure with the exit code the command should end with: 2 for bad
/// input (an illegal move, an unreadable file), 1 for anything else.
#[derive(Debug, thiserror::Error)]
#[error("{message}")]
pub struct CliError {
    pub code: i32,
    pub message: String,
}

impl CliError {
    /// Bad input (exit code 2); any error or text.
    pub fn input(message: impl ToString) -> CliError {
        CliError {
            code: 2,
            message: message.to_string(),
        }
    }

    /// Something failed (exit code 1); any error or text.
    pub fn failure(message: impl ToString) -> CliError {
        CliError {
            code: 1,
            message: message.to_string(),
        }
    }
}

impl From<std::io::Error> for CliError {
    fn from(e: std::io::Error) -> CliError {
        CliError::failure(e.to_string())
    }
}

pub type CliResult = Result<(), CliError>;

/// What to do when the voice does not start or stops answering, said after
/// the technical cause (which alone told the user nothing to do).
pub(crate) const SPEECH_ADVICE: &str = "to hear the moves, install speech-dispatcher and \
     espeak-ng and check that the sound output works (or add --quiet to print only)";

/// Writes an output file whole or not at all (a temporary file renamed
/// over it), so a reader never sees half a file: through a symbolic link
/// to the file it points at, keeping that file's mode, and never over a
/// folder or a device (an error that says what is there).
fn write_file(path: &std::path::Path, bytes: impl AsRef<[u8]>) -> CliResult {
    crate::storage::write_user_file(path, bytes.as_ref())
        .map_err(|e| CliError::failure(format!("cannot write {}: {e}", path.display())))
}

/// Reads stdin on a thread of its own, each line sent on as `line(text)`
/// and the end of input as `end`, so a command's loop never waits on the
/// keyboard (it ends with the input or the receiver).
fn spawn_stdin_lines<M: Send + 'static>(
    tx: std::sync::mpsc::Sender<M>,
    line: fn(String) -> M,
    end: M,
) {
    use std::io::BufRead;
    std::thread::Builder::new()
        .name("stdin".into())
        .spawn(move || {
            for text in std::io::stdin().lock().lines() {
                let Ok(text) = text else { break };
                if tx.send(line(text)).is_err() {
                    return;
                }
            }
            let _ = tx.send(end);
        })
        .expect("a thread for stdin");
}

/// The terminal's voice in `lang` (none with `--quiet`, or when no voice
/// starts: said on stderr with what to do, as is a voice replaced).
fn terminal_speech(lang: crate::words::Lang, quiet: bool) -> Option<crate::speech::SpeechHandle> {
    use crate::speech::{BackendChoice, SpeechConfig, SpeechService, VoiceSettings};
    if quiet {
        return None;
    }
    match SpeechService::spawn(SpeechConfig {
        backend: BackendChoice::Auto,
        lang,
        settings: VoiceSettings::default(),
        mode: Default::default(),
    }) {
        Ok(h) => {
            // A voice that hangs is replaced (the clip voice, else silence)
            // and the command goes on; the terminal says so.
            h.on_fallback(|f| eprintln!("rochade: {}; {SPEECH_ADVICE}", f.report));
            Some(h)
        }
        Err(e) => {
            eprintln!("rochade: no speech ({e}); printing only; {SPEECH_ADVICE}");
            None
        }
    }
}

/// The language pack with the user's corrections, the same for every
/// command; a correction that is refused (a word missing, two words that
/// would sound alike, a word holding another or a hidden character, a file
/// that is no regular file or too large) is said on stderr, naming the
/// word, and the bundled words are used.
fn load_pack(lang: crate::words::Lang) -> crate::words::Pack {
    use crate::words::LoadPack;
    let (pack, error) =
        crate::words::Pack::load_or_bundled(lang, crate::words::user_pack_dir().as_deref());
    if let Some(e) = error {
        eprintln!("rochade: {e}; the bundled words are used");
    }
    pack
}

/// Runs the command line and returns the process exit code.
pub fn main() -> i32 {
    let cli = Cli::parse();
    let result = match cli.command {
        None => open_app(),
        Some(Command::Announce(args)) => announce::run(args),
        Some(Command::Track(args)) => track::run(args),
        Some(Command::BoardSim(args)) => board_sim::run(args),
        Some(Command::Say(args)) => say::run_say(args),
        Some(Command::Voices(args)) => say::run_voices(args),
        Some(Command::Export(args)) => export::run(args),
        Some(Command::Watch(args)) => watch::run(args),
        Some(Command::Play(args)) => play::run(args),
        Some(Command::Online(args)) => online::run(args),
        Some(Command::Puzzle(args)) => puzzle::run(args),
        Some(Command::Review(args)) => review::run(args),
        Some(Command::Listen(args)) => listen::run(args),
    };
    match result {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("rochade: {}", one_line(&e.message));
            e.code
        }
    }
}

/// The longest error line written, in characters.
const ERROR_WIDTH: usize = 300;

/// An error as one short line: control characters escaped (nothing from an
/// input file reaches the terminal raw), cut after [`ERROR_WIDTH`].
fn one_line(message: &str) -> String {
    let mut out = String::new();
    for (i, c) in message.chars().enumerate() {
        if i == ERROR_WIDTH {
            out.push_str("...");
            break;
        }
        if c.is_control() {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    out
}

fn open_app() -> CliResult {
    crate::app::run().map_err(CliError::failure)
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::{Color, Role};

    fn parse(args: &[&str]) -> Result<Command, clap::Error> {
        Cli::try_parse_from([&["rochade"], args].concat()).map(|c| c.command.expect("a command"))
    }

    #[test]
    fn colours_and_promotion_pieces_in_any_case_and_language() {
        for (word, color) in [
            ("white", Color::White),
            ("W", Color::White),
            ("Weiss", Color::White),
            ("brancas", Color::White),
            ("BLACK", Color::Black),
            ("b", Color::Black),
            ("schwarz", Color::Black),
            ("Pretas", Color::Black),
        ] {
            let Ok(Command::Play(args)) = parse(&["play", "--color", word]) else {
                panic!("--color {word}");
            };
            assert_eq!(args.color, color, "{word}");
        }
        assert!(parse(&["play", "--color", "purple"]).is_err());
        for (word, role) in [
            ("q", Role::Queen),
            ("Knight", Role::Knight),
            ("R", Role::Rook),
        ] {
            let Ok(Command::Track(args)) = parse(&["track", "--promote-to", word, "--log", "x"])
            else {
                panic!("--promote-to {word}");
            };
            assert_eq!(args.promote_to, Some(role), "{word}");
        }
        assert!(parse(&["track", "--promote-to", "king", "--log", "x"]).is_err());
    }

    #[test]
    fn track_s_help_names_every_board_format() {
        use clap::CommandFactory;
        let mut cli = Cli::command();
        let track = cli.find_subcommand_mut("track").expect("track");
        let help = track.render_long_help().to_string();
        let about = track.get_about().map(|a| a.to_string()).unwrap_or_default();
        let codes = crate::board::Format::ALL
            .iter()
            .map(|f| f.code())
            .chain(crate::eboard::Kind::ALL.iter().map(|k| k.code()));
        for code in codes {
            assert!(help.contains(code), "--format names {code}: {help}");
        }
        for name in ["DGT", "Millennium", "Certabo", "Chessnut", "Pegasus"] {
            assert!(about.contains(name), "{name} in: {about}");
        }
        assert!(help.contains("--orientation"), "{help}");
    }

    #[test]
    fn track_takes_the_board_s_orientation() {
        use crate::board::OrientationChoice;
        for (word, choice) in [
            ("auto", OrientationChoice::Auto),
            ("Turned", OrientationChoice::Turned),
            ("straight", OrientationChoice::Straight),
        ] {
            let Ok(Command::Track(args)) = parse(&["track", "--orientation", word, "--log", "x"])
            else {
                panic!("--orientation {word}");
            };
            assert_eq!(args.orientation, choice);
        }
        let Ok(Command::Track(args)) = parse(&["track", "--log", "x"]) else {
            panic!("track");
        };
        assert_eq!(args.orientation, OrientationChoice::Auto);
        assert!(parse(&["track", "--orientation", "sideways", "--log", "x"]).is_err());
    }
}
