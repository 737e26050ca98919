//! `rochade announce`: prints the Appendix E announcement of each move.

use std::io::{BufRead, Read, Write};
use std::path::PathBuf;

use shakmaty::{Color, Position};

use super::{CliError, CliResult};
use crate::announce::{AnnounceForm, announce_move};
use crate::chess::{GameRecord, Letters, parse_move};
use crate::words::{Form, Lang, Pack, Utterance};

#[derive(clap::Args, Debug)]
pub struct Args {
    /// Language of the announcements.
    #[arg(long, default_value = "de")]
    pub lang: Lang,
    /// Short (piece + destination) or long (piece + from + to) form.
    #[arg(long, default_value = "short")]
    pub form: AnnounceForm,
    /// Print the spoken form (with umlauts) instead of the written one.
    #[arg(long)]
    pub spoken: bool,
    /// Also speak each announcement, in order.
    #[arg(long)]
    pub speak: bool,
    /// Piece letters the input SAN may use (en: K Q R B N, de: K D T L S, pt: R D T B C).
    #[arg(long, default_value = "en")]
    pub letters: Letters,
    /// Start position instead of the standard one.
    #[arg(long)]
    pub fen: Option<String>,
    /// A PGN (or its movetext) or one move per line; `-` or nothing reads stdin.
    pub file: Option<PathBuf>,
}

pub fn run(args: Args) -> CliResult {
    let input = read_input(args.file.as_deref())?;
    let pack = Pack::load(args.lang).map_err(|e| CliError::input(e.to_string()))?;
    let mut record = match &args.fen {
        Some(fen) => GameRecord::from_fen(fen).map_err(CliError::input)?,
        None => GameRecord::new(),
    };
    let form = if args.spoken {
        Form::Spoken
    } else {
        Form::Written
    };
    let mut stdout = std::io::stdout().lock();
    let mut said: Vec<Utterance> = Vec::new();
    let all_packs: Vec<Pack> = Lang::ALL.iter().map(|&l| Pack::bundled(l)).collect();
    let packs: Vec<&Pack> = all_packs.iter().collect();
    let mut failure = None;
    for token in movetext_tokens(&input) {
        let pos = record.position().clone();
        let number = pos.fullmoves().get();
        let side = if pos.turn() == Color::White {
            "White"
        } else {
            "Black"
        };
        let mv = match parse_move(&pos, &token.text, args.letters, &packs) {
            Ok(mv) => mv,
            Err(e) => {
                failure = Some(CliError::input(format!(
                    "line {}, move {number} ({side}): {e}",
                    token.line
                )));
                break;
            }
        };
        let words = announce_move(&pack, &pos, mv, args.form);
        writeln!(stdout, "{}", words.get(form))?;
        stdout.flush()?;
        if let Err(e) = record.play(mv, None) {
            failure = Some(CliError::input(format!(
                "line {}, move {number} ({side}): {e}",
                token.line
            )));
            break;
        }
        said.push(words);
    }
    if args.speak && !said.is_empty() {
        crate::speech::speak_all_blocking(args.lang, &said, crate::speech::BackendChoice::Auto)
            .map_err(CliError::failure)?;
    }
    failure.map_or(Ok(()), Err)
}

fn read_input(path: Option<&std::path::Path>) -> Result<String, CliError> {
    match path {
        None => read_stdin(),
        Some(p) if p.as_os_str() == "-" => read_stdin(),
        Some(p) => std::fs::read_to_string(p)
            .map_err(|e| CliError::input(format!("cannot read {}: {e}", p.display()))),
    }
}

fn read_stdin() -> Result<String, CliError> {
    let mut s = String::new();
    std::io::stdin()
        .lock()
        .read_to_string(&mut s)
        .map_err(|e| CliError::input(format!("cannot read stdin: {e}")))?;
    Ok(s)
}

/// A move as written in the input, with its line for error messages.
#[derive(Debug, PartialEq, Eq)]
pub struct MoveToken {
    pub text: String,
    pub line: usize,
}

/// The moves of a PGN movetext or a move-per-line list: tag pairs,
/// comments, variations, NAGs, move numbers and results are skipped.
pub fn movetext_tokens(input: &str) -> Vec<MoveToken> {
    let mut tokens = Vec::new();
    let mut comment_depth = 0usize; // inside { }
    let mut variation_depth = 0usize; // inside ( )
    for (index, raw_line) in input.as_bytes().lines().enumerate() {
        let line = raw_line.unwrap_or_default();
        let trimmed = line.trim_start();
        if comment_depth == 0 && (trimmed.starts_with('[') || trimmed.starts_with('%')) {
            continue;
        }
        let mut word = String::new();
        let flush = |word: &mut String, tokens: &mut Vec<MoveToken>| {
            if let Some(text) = move_word(word) {
                tokens.push(MoveToken {
                    text,
                    line: index + 1,
                });
            }
            word.clear();
        };
        for c in line.chars() {
            match c {
                '{' => {
                    flush(&mut word, &mut tokens);
                    comment_depth += 1;
                }
                '}' => comment_depth = comment_depth.saturating_sub(1),
                _ if comment_depth > 0 => {}
                ';' => break,
                '(' => {
                    flush(&mut word, &mut tokens);
                    variation_depth += 1;
                }
                ')' => variation_depth = variation_depth.saturating_sub(1),
                _ if variation_depth > 0 => {}
                c if c.is_whitespace() => flush(&mut word, &mut tokens),
                c => word.push(c),
            }
        }
        if comment_depth == 0 && variation_depth == 0 {
            flush(&mut word, &mut tokens);
        }
    }
    tokens
}

/// The move in a word, without a leading move number ("12.Nf3", "3...e5").
fn move_word(word: &str) -> Option<String> {
    let w = word
        .trim_start_matches(|c: char| c.is_ascii_digit())
        .trim_start_matches('.');
    let w = if w.len() < word.len()
        && word.starts_with(|c: char| c.is_ascii_digit())
        && !word.contains('.')
    {
        // "1-0" and other digit-led words that are not move numbers.
        word
    } else {
        w
    };
    if w.is_empty() || w.starts_with('$') || matches!(w, "1-0" | "0-1" | "1/2-1/2" | "*" | "½-½")
    {
        return None;
    }
    Some(w.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(input: &str) -> Vec<String> {
        movetext_tokens(input).into_iter().map(|t| t.text).collect()
    }

    #[test]
    fn reads_pgn_movetext() {
        let pgn = "[Event \"x\"]\n[White \"A\"]\n\n1. e4 {best by test} e5 2.Nf3 (2. f4 exf4) Nc6 $1 3. Bb5 a6 ; Ruy\n4. O-O 1-0\n";
        assert_eq!(texts(pgn), ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "O-O"]);
        let t = movetext_tokens(pgn);
        assert_eq!(t[6].line, 5);
    }

    #[test]
    fn reads_one_move_per_line_and_black_move_numbers() {
        assert_eq!(texts("e4\nc5\n\nNf3\n"), ["e4", "c5", "Nf3"]);
        assert_eq!(texts("12... Qxd5 13. O-O-O 0-1"), ["Qxd5", "O-O-O"]);
    }
}
