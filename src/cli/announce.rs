//! `rochade announce`: prints the Appendix E announcement of each move.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};

use shakmaty::Color;

use super::{CliError, CliResult};
use crate::announce::{AnnounceForm, announce_move};
use crate::chess::{GameRecord, Letters};
use crate::pgn::{Games, PgnError, ReadOptions};
use crate::words::{Form, Lang, Utterance};

#[derive(clap::Args, Debug)]
pub struct Args {
    /// Language of the announcements.
    #[arg(long, default_value = "de")]
    pub lang: Lang,
    /// Short (piece + destination) or long (piece + from + to) form.
    #[arg(long, default_value = "short")]
    pub form: AnnounceForm,
    /// Print the spoken form (with umlauts: "Läufer"), as is done by
    /// default where the locale is UTF-8.
    #[arg(long, conflicts_with = "written")]
    pub spoken: bool,
    /// Print the written ASCII form ("Laeufer"), as is done by default
    /// where the locale is not UTF-8.
    #[arg(long)]
    pub written: bool,
    /// Also speak each announcement, in order.
    #[arg(long)]
    pub speak: bool,
    /// Piece letters of the input's SAN (en: K Q R B N, de: K D T L S, pt: R D T B C).
    #[arg(long, default_value = "en")]
    pub letters: Letters,
    /// Start position instead of the standard one.
    #[arg(long)]
    pub fen: Option<String>,
    /// A PGN file (one or more games, or bare movetext such as one SAN move
    /// per line); `-` or nothing reads stdin.
    pub file: Option<PathBuf>,
}

pub fn run(args: Args) -> CliResult {
    let pack = super::load_pack(args.lang);
    let start = match &args.fen {
        Some(fen) => Some(
            GameRecord::from_fen(fen)
                .map_err(CliError::input)?
                .position()
                .clone(),
        ),
        None => None,
    };
    let form = if args.spoken {
        Form::Spoken
    } else if args.written {
        Form::Written
    } else {
        super::output::terminal_form()
    };
    let options = ReadOptions {
        start,
        lossy_text: false,
        letters: args.letters,
    };
    let mut stdout = std::io::stdout().lock();
    let mut moves = 0;
    // One game at a time: memory is bounded by the longest game, not the file.
    for (index, game) in Games::new(open_input(args.file.as_deref())?, options).enumerate() {
        if index > 0 {
            writeln!(stdout)?;
        }
        let mut said: Vec<Utterance> = Vec::new();
        if let Some(record) = &game.record {
            for (i, m) in record.moves().iter().enumerate() {
                let words = announce_move(&pack, record.position_before(i), m.mv, args.form);
                writeln!(stdout, "{}", words.get(form))?;
                said.push(words);
            }
            moves += record.moves().len();
        }
        stdout.flush()?;
        if args.speak && !said.is_empty() {
            crate::speech::speak_all_blocking(args.lang, &said, crate::speech::BackendChoice::Auto)
                .map_err(CliError::failure)?;
        }
        if let Some(error) = game.error {
            let game = (index > 0).then_some(index + 1);
            let mut message = describe(game, &error);
            if moves == 0 {
                message = format!("{message}; {NO_MOVES}");
            }
            return Err(CliError::input(message));
        }
    }
    if moves == 0 {
        return Err(CliError::input(NO_MOVES));
    }
    Ok(())
}

const NO_MOVES: &str =
    "no moves found (give PGN movetext, e.g. \"1. e4 e5\", or one SAN move per line)";

/// The file, or stdin for `-` or no file, read as it comes. A file must be
/// a regular one of at most [`crate::read_capped::PGN_CAP`] bytes (a FIFO
/// or a device is refused at once); stdin is the user's own pipe.
fn open_input(path: Option<&Path>) -> Result<Box<dyn Read>, CliError> {
    match path {
        Some(p) if p.as_os_str() != "-" => {
            crate::read_capped::open_capped(p, crate::read_capped::PGN_CAP)
                .map(|f| Box::new(f) as Box<dyn Read>)
                .map_err(|e| CliError::input(format!("cannot read {}: {e}", p.display())))
        }
        _ => Ok(Box::new(std::io::stdin().lock())),
    }
}

/// `game 2, line 9, column 4: move 5 (Black) 'Nf4': illegal san`.
fn describe(game: Option<usize>, error: &PgnError) -> String {
    let mut place: Vec<String> = Vec::new();
    if let Some(n) = game {
        place.push(format!("game {n}"));
    }
    place.extend(error.place());
    let what = match &error.bad_move {
        Some(bad) => {
            let side = if bad.side == Color::White {
                "White"
            } else {
                "Black"
            };
            format!("move {} ({side}) '{}': {}", bad.number, bad.san, bad.reason)
        }
        None => error.message.clone(),
    };
    if place.is_empty() {
        what
    } else {
        format!("{}: {what}", place.join(", "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_error_names_game_place_and_move() {
        let error = PgnError {
            line: Some(9),
            column: Some(4),
            message: "illegal move".into(),
            bad_move: Some(crate::pgn::BadMove {
                number: 5,
                side: Color::Black,
                san: "Nf4".into(),
                reason: "illegal san".into(),
            }),
        };
        assert_eq!(
            describe(Some(2), &error),
            "game 2, line 9, column 4: move 5 (Black) 'Nf4': illegal san"
        );
        let error = PgnError {
            bad_move: None,
            column: None,
            ..error
        };
        assert_eq!(describe(None, &error), "line 9: illegal move");
    }
}
