//! `rochade export`: a game from a PGN file as Braille (BRF, PEF, Unicode),
//! PGN or a printable text scoresheet.

use std::io::Write;
use std::path::PathBuf;

use super::{CliError, CliResult};
use crate::braille::Coding;
use crate::braille::{Layout, MIN_COLS, MIN_ROWS};
use crate::chess::Letters;
use crate::export::{ExportOptions, Format, Grade};
use crate::words::Lang;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// Output format: brf, pef, unicode, pgn or text.
    #[arg(long = "to", value_name = "FORMAT")]
    pub to: Format,
    /// Piece letters: en (UK Braille chess code K Q R B N), de (K D T L S) or pt (R D T B C).
    #[arg(long, default_value = "en")]
    pub letters: Letters,
    /// Language of the header (words and literary Braille): de, pt or en.
    #[arg(long, default_value = "en")]
    pub lang: Lang,
    /// Braille line width in cells.
    #[arg(long, default_value_t = 40)]
    pub cols: usize,
    /// Braille page length in lines (the last carries the page number).
    #[arg(long, default_value_t = 25)]
    pub rows: usize,
    /// Contracted literary Braille in the header (en-ueb-g2, de-g2, pt-pt-g2)
    /// instead of uncontracted.
    #[arg(long)]
    pub contracted: bool,
    /// Minimal coding: no capture or check signs (for a player's own score).
    #[arg(long)]
    pub minimal: bool,
    /// Leave out the legend page that lists the signs.
    #[arg(long)]
    pub no_legend: bool,
    /// A diagram of a set-up starting position, as well as its piece list.
    #[arg(long)]
    pub diagram: bool,
    /// Which game of the file, counting from 1, or `all`: every game, in
    /// Braille as one book (a contents page, each game from a new page).
    #[arg(long, default_value = "1")]
    pub game: GameChoice,
    /// Write here instead of standard output.
    #[arg(short = 'o', long = "output", value_name = "OUT")]
    pub output: Option<PathBuf>,
    /// The PGN file; `-` reads standard input.
    pub input: PathBuf,
}

/// `--game`: one game (counting from 1) or every game of the file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameChoice {
    One(usize),
    All,
}

impl std::str::FromStr for GameChoice {
    type Err = String;

    fn from_str(s: &str) -> Result<GameChoice, String> {
        if s.eq_ignore_ascii_case("all") {
            return Ok(GameChoice::All);
        }
        match s.parse::<usize>() {
            Ok(0) => Err("--game counts from 1".into()),
            Ok(n) => Ok(GameChoice::One(n)),
            Err(_) => Err(format!("'{s}' is no game number (1, 2, ... or all)")),
        }
    }
}

pub fn run(args: Args) -> CliResult {
    if args.cols < MIN_COLS || args.rows < MIN_ROWS {
        return Err(CliError::input(format!(
            "a Braille page needs at least {MIN_COLS} cells by {MIN_ROWS} lines (got --cols {} --rows {})",
            args.cols, args.rows
        )));
    }
    let stdin = args.input.as_os_str() == "-";
    let records = match args.game {
        GameChoice::One(n) if stdin => {
            vec![crate::game_file::read_game_stdin(n - 1).map_err(CliError::input)?]
        }
        GameChoice::One(n) => vec![super::review::read_game_file(&args.input, n)?],
        GameChoice::All if stdin => {
            crate::game_file::read_all_games_stdin().map_err(CliError::input)?
        }
        GameChoice::All => {
            crate::game_file::read_all_games(&args.input).map_err(CliError::input)?
        }
    };
    let options = ExportOptions {
        letters: args.letters,
        lang: args.lang,
        layout: Layout {
            cols: args.cols,
            rows: args.rows,
        },
        grade: if args.contracted {
            Grade::Contracted
        } else {
            Grade::Uncontracted
        },
        coding: if args.minimal {
            Coding::Minimal
        } else {
            Coding::Full
        },
        legend: !args.no_legend,
        diagram: args.diagram,
    };
    // A broken user table is bad input too: the message names the file and key.
    let exporter = crate::louis::exporter(options).map_err(|e| CliError::input(e.to_string()))?;
    let out = match (args.game, records.as_slice()) {
        (GameChoice::One(_), [record]) => exporter.render(record, args.to),
        _ => exporter.render_all(&records, args.to),
    }
    .map_err(|e| CliError::input(e.to_string()))?;
    match &args.output {
        Some(path) => super::write_file(path, out)?,
        None => {
            let mut stdout = std::io::stdout().lock();
            stdout.write_all(&out)?;
            stdout.flush()?;
        }
    }
    Ok(())
}
