//! PGN export (seven-tag roster, TimeControl, SetUp/FEN, `[%clk]` comments,
//! draw offers, 80-column lines) and import through `pgn-reader`.

use std::cell::Cell as Shared;
use std::fmt;
use std::io::Read;
use std::ops::ControlFlow;
use std::rc::Rc;

use pgn_reader::{KnownOutcome, Outcome, RawComment, RawTag, Reader, SanPlus, Skip, Visitor};
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, Color, Position};

use crate::chess::{GameRecord, Tags};

/// The longest line written.
pub const LINE_WIDTH: usize = 80;

/// How a draw offer is written (Appendix C) in a PGN comment.
pub const DRAW_OFFER_COMMENT: &str = "(=)";

/// Tags written from [`Tags`] fields; others come from `Tags::extra`.
const OWN_TAGS: [&str; 10] = [
    "Event",
    "Site",
    "Date",
    "Round",
    "White",
    "Black",
    "Result",
    "TimeControl",
    "SetUp",
    "FEN",
];

/// `h:mm:ss` for a `[%clk]` comment (whole seconds, rounded down).
pub fn clk(ms: u64) -> String {
    let s = ms / 1000;
    format!("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
}

/// Reads `h:mm:ss` or `h:mm:ss.f` back into milliseconds.
pub fn parse_clk(text: &str) -> Option<u64> {
    let mut parts = text.trim().split(':');
    let (h, m, s) = (parts.next()?, parts.next()?, parts.next()?);
    if parts.next().is_some() {
        return None;
    }
    let h: u64 = h.parse().ok()?;
    let m: u64 = m.parse().ok()?;
    let seconds: f64 = s.parse().ok()?;
    if m >= 60 || !(0.0..60.0).contains(&seconds) {
        return None;
    }
    Some((h * 3600 + m * 60) * 1000 + (seconds * 1000.0).round() as u64)
}

fn push_tag(out: &mut String, name: &str, value: &str) {
    out.push('[');
    out.push_str(name);
    out.push_str(" \"");
    for c in value.chars() {
        match c {
            '"' | '\\' => {
                out.push('\\');
                out.push(c);
            }
            '\n' | '\r' | '\t' => out.push(' '),
            c => out.push(c),
        }
    }
    out.push_str("\"]\n");
}

/// Writes tokens separated by spaces, breaking lines before a token that
/// would pass [`LINE_WIDTH`].
struct Wrapper<'a> {
    out: &'a mut String,
    column: usize,
}

impl Wrapper<'_> {
    fn token(&mut self, token: &str) {
        let len = token.chars().count();
        if self.column > 0 && self.column + 1 + len > LINE_WIDTH {
            self.out.push('\n');
            self.column = 0;
        }
        if self.column > 0 {
            self.out.push(' ');
            self.column += 1;
        }
        self.out.push_str(token);
        self.column += len;
    }
}

/// The game as PGN (export format: tags, a blank line, movetext wrapped at
/// 80 characters, a blank line).
pub fn write_pgn(record: &GameRecord) -> String {
    let tags = &record.tags;
    let mut out = String::with_capacity(512 + record.moves().len() * 24);
    push_tag(&mut out, "Event", &tags.event);
    push_tag(&mut out, "Site", &tags.site);
    push_tag(&mut out, "Date", &tags.date);
    push_tag(&mut out, "Round", &tags.round);
    push_tag(&mut out, "White", &tags.white);
    push_tag(&mut out, "Black", &tags.black);
    push_tag(&mut out, "Result", record.result_str());
    if let Some(tc) = &tags.time_control {
        push_tag(&mut out, "TimeControl", tc);
    }
    if let Some(fen) = record.start_fen() {
        push_tag(&mut out, "SetUp", "1");
        push_tag(&mut out, "FEN", &fen);
    }
    for (name, value) in &tags.extra {
        if !OWN_TAGS.contains(&name.as_str())
            && !name.is_empty()
            && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        {
            push_tag(&mut out, name, value);
        }
    }
    out.push('\n');
    let mut w = Wrapper {
        out: &mut out,
        column: 0,
    };
    let mut after_comment = false;
    for (i, m) in record.moves().iter().enumerate() {
        let pos = record.position_before(i);
        let number = pos.fullmoves().get();
        // The move number stays on the line of its move.
        if pos.turn() == Color::White {
            w.token(&format!("{number}. {}", m.san));
        } else if i == 0 || after_comment {
            w.token(&format!("{number}... {}", m.san));
        } else {
            w.token(&m.san_string());
        }
        let mut comment = Vec::new();
        if let Some(ms) = m.clock_ms {
            comment.push(format!("[%clk {}]", clk(ms)));
        }
        if m.draw_offer {
            comment.push(DRAW_OFFER_COMMENT.to_owned());
        }
        after_comment = !comment.is_empty();
        if after_comment {
            w.token(&format!("{{{}}}", comment.join(" ")));
        }
    }
    w.token(record.result_str());
    out.push_str("\n\n");
    out
}

/// A PGN file that could not be read as a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PgnError {
    /// 1-based line in the file, when the fault has a place.
    pub line: Option<usize>,
    pub message: String,
}

impl fmt::Display for PgnError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.line {
            Some(line) => write!(f, "line {line}: {}", self.message),
            None => f.write_str(&self.message),
        }
    }
}

impl std::error::Error for PgnError {}

/// What went wrong inside a game, before its place is known.
enum Fault {
    Tag { name: &'static str, message: String },
    Move { ply: usize, message: String },
}

struct TagState {
    tags: Tags,
    start: Option<Chess>,
    result: Option<String>,
    fault: Option<Fault>,
}

struct MoveState {
    record: GameRecord,
    fault: Option<Fault>,
    outcome: Option<Outcome>,
    result_tag: Option<String>,
}

struct Importer;

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

impl Visitor for Importer {
    type Tags = TagState;
    type Movetext = MoveState;
    type Output = Result<GameRecord, Fault>;

    fn begin_tags(&mut self) -> ControlFlow<Self::Output, Self::Tags> {
        ControlFlow::Continue(TagState {
            tags: Tags::default(),
            start: None,
            result: None,
            fault: None,
        })
    }

    fn tag(
        &mut self,
        state: &mut TagState,
        name: &[u8],
        value: RawTag<'_>,
    ) -> ControlFlow<Self::Output> {
        let value = value.decode_utf8_lossy().into_owned();
        let t = &mut state.tags;
        match name {
            b"Event" => t.event = value,
            b"Site" => t.site = value,
            b"Date" => t.date = value,
            b"Round" => t.round = value,
            b"White" => t.white = value,
            b"Black" => t.black = value,
            b"TimeControl" => t.time_control = Some(value),
            b"Result" => state.result = Some(value),
            b"SetUp" => {}
            b"FEN" => {
                let parsed = value
                    .parse::<Fen>()
                    .map_err(|e| format!("bad FEN '{value}': {e}"))
                    .and_then(|fen| {
                        fen.into_position::<Chess>(CastlingMode::Standard)
                            .map_err(|e| format!("impossible position in FEN '{value}': {e}"))
                    });
                match parsed {
                    Ok(pos) => state.start = Some(pos),
                    Err(message) => {
                        state.fault = Some(Fault::Tag {
                            name: "FEN",
                            message,
                        })
                    }
                }
            }
            other => t.extra.push((text(other), value)),
        }
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, state: TagState) -> ControlFlow<Self::Output, Self::Movetext> {
        if let Some(fault) = state.fault {
            return ControlFlow::Break(Err(fault));
        }
        let mut record = GameRecord::from_position(state.start.unwrap_or_default());
        record.tags = state.tags;
        ControlFlow::Continue(MoveState {
            record,
            fault: None,
            outcome: None,
            result_tag: state.result,
        })
    }

    fn san(&mut self, state: &mut MoveState, san_plus: SanPlus) -> ControlFlow<Self::Output> {
        let ply = state.record.moves().len();
        let pos = state.record.position();
        let number = pos.fullmoves().get();
        let side = if pos.turn() == Color::White {
            "White"
        } else {
            "Black"
        };
        let mv = match san_plus.san.to_move(pos) {
            Ok(mv) => mv,
            Err(e) => {
                let message = format!("illegal move '{san_plus}' (move {number} for {side}: {e})");
                return ControlFlow::Break(Err(Fault::Move { ply, message }));
            }
        };
        if let Err(e) = state.record.play(mv, None) {
            let message =
                format!("move '{san_plus}' (move {number} for {side}) cannot be played: {e}");
            return ControlFlow::Break(Err(Fault::Move { ply, message }));
        }
        ControlFlow::Continue(())
    }

    fn comment(
        &mut self,
        state: &mut MoveState,
        comment: RawComment<'_>,
    ) -> ControlFlow<Self::Output> {
        let Some(last) = state.record.last_move() else {
            return ControlFlow::Continue(());
        };
        let mover = !state.record.turn();
        let has_offer = last.draw_offer;
        let body = text(comment.as_bytes());
        if let Some(start) = body.find("[%clk") {
            let rest = &body[start + 5..];
            let value = rest.split(']').next().unwrap_or("");
            if let Some(ms) = parse_clk(value) {
                state.record.set_last_clock(ms);
            }
        }
        let lower = body.to_lowercase();
        if !has_offer && (body.contains(DRAW_OFFER_COMMENT) || lower.contains("draw offer")) {
            state.record.offer_draw(mover);
        }
        ControlFlow::Continue(())
    }

    fn begin_variation(&mut self, _state: &mut MoveState) -> ControlFlow<Self::Output, Skip> {
        ControlFlow::Continue(Skip(true))
    }

    fn outcome(&mut self, state: &mut MoveState, outcome: Outcome) -> ControlFlow<Self::Output> {
        state.outcome = Some(outcome);
        ControlFlow::Continue(())
    }

    fn end_game(&mut self, state: MoveState) -> Self::Output {
        let MoveState {
            mut record,
            fault,
            outcome,
            result_tag,
        } = state;
        if let Some(fault) = fault {
            return Err(fault);
        }
        let outcome = outcome.or_else(|| result_tag.and_then(|r| r.parse::<Outcome>().ok()));
        if let (Some(Outcome::Known(known)), None) = (outcome, record.end()) {
            // A PGN result does not say why the game ended; a decisive one
            // without mate is recorded as a resignation, a draw as agreed.
            match known {
                KnownOutcome::Decisive { winner } => record.resign(!winner),
                KnownOutcome::Draw => record.agree_draw(),
            }
        }
        Ok(record)
    }
}

/// Counts the bytes the PGN reader has pulled, so the start of each game in
/// the file is known (for line numbers in errors).
struct Counting<'a> {
    inner: &'a [u8],
    consumed: Rc<Shared<usize>>,
}

impl Read for Counting<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.consumed.set(self.consumed.get() + n);
        Ok(n)
    }
}

/// Reads game `index` (0-based) of a PGN file.
pub fn read_pgn(text: &str, index: usize) -> Result<GameRecord, PgnError> {
    let bytes = text.as_bytes();
    let consumed = Rc::new(Shared::new(0));
    let mut reader = Reader::new(Counting {
        inner: bytes,
        consumed: Rc::clone(&consumed),
    });
    let io = |e: std::io::Error| PgnError {
        line: None,
        message: e.to_string(),
    };
    for skipped in 0..index {
        if !reader.skip_game().map_err(io)? {
            let message = format!(
                "the file has {skipped} game(s); game {} was asked for",
                index + 1
            );
            return Err(PgnError {
                line: None,
                message,
            });
        }
    }
    let start = consumed.get() - reader.buffer().len();
    match reader.read_game(&mut Importer).map_err(io)? {
        None => {
            let message = if index == 0 {
                "the file holds no game".to_owned()
            } else {
                format!(
                    "the file has {index} game(s); game {} was asked for",
                    index + 1
                )
            };
            Err(PgnError {
                line: None,
                message,
            })
        }
        Some(Ok(record)) => Ok(record),
        Some(Err(Fault::Tag { name, message })) => Err(PgnError {
            line: tag_line(text, start, name),
            message,
        }),
        Some(Err(Fault::Move { ply, message })) => Err(PgnError {
            line: san_line(text, start, ply),
            message,
        }),
    }
}

/// Number of games in a PGN file.
pub fn count_games(text: &str) -> usize {
    let mut reader = Reader::new(text.as_bytes());
    let mut n = 0;
    while let Ok(true) = reader.skip_game() {
        n += 1;
    }
    n
}

fn line_of(text: &str, offset: usize) -> usize {
    1 + text.as_bytes()[..offset.min(text.len())]
        .iter()
        .filter(|&&b| b == b'\n')
        .count()
}

fn tag_line(text: &str, start: usize, name: &str) -> Option<usize> {
    let needle = format!("[{name}");
    text.get(start..)?
        .find(&needle)
        .map(|at| line_of(text, start + at))
}

/// Finds the line of main-line move `ply` (0-based) in the game starting at
/// `start`: a small tokenizer that skips tags, comments, variations, move
/// numbers, NAGs and results the way PGN defines them.
fn san_line(text: &str, start: usize, ply: usize) -> Option<usize> {
    let b = text.as_bytes();
    let mut i = start;
    let mut seen = 0;
    let mut depth = 0usize;
    let mut line_start = true;
    while i < b.len() {
        let c = b[i];
        if line_start && c == b'%' {
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
            continue;
        }
        line_start = c == b'\n';
        match c {
            b'{' => {
                while i < b.len() && b[i] != b'}' {
                    i += 1;
                }
                i += 1;
            }
            b';' => {
                while i < b.len() && b[i] != b'\n' {
                    i += 1;
                }
            }
            b'[' if depth == 0 => {
                i += 1;
                let mut in_string = false;
                while i < b.len() && (in_string || b[i] != b']') {
                    match b[i] {
                        b'\\' if in_string => i += 1,
                        b'"' => in_string = !in_string,
                        _ => {}
                    }
                    i += 1;
                }
                i += 1;
            }
            b'(' => {
                depth += 1;
                i += 1;
            }
            b')' => {
                depth = depth.saturating_sub(1);
                i += 1;
            }
            c if c.is_ascii_whitespace() || c == b'.' => i += 1,
            _ => {
                let digits = b[i..].iter().take_while(|x| x.is_ascii_digit()).count();
                if digits > 0 && b.get(i + digits) == Some(&b'.') {
                    // A move number running into its dots ("12.Nf3").
                    i += digits;
                    continue;
                }
                let end = b[i..]
                    .iter()
                    .position(|&x| x.is_ascii_whitespace() || b"{}()[];".contains(&x))
                    .map_or(b.len(), |p| i + p)
                    .max(i + 1);
                let token = &b[i..end];
                let is_number = token.iter().all(u8::is_ascii_digit);
                let is_result = matches!(token, b"1-0" | b"0-1" | b"1/2-1/2" | b"*");
                let is_nag =
                    token.starts_with(b"$") || token.iter().all(|&x| x == b'!' || x == b'?');
                if is_result && depth == 0 {
                    return None;
                }
                if !is_number && !is_nag && depth == 0 {
                    if seen == ply {
                        return Some(line_of(text, i));
                    }
                    seen += 1;
                }
                i = end;
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clock_readings_round_trip() {
        assert_eq!(clk(5_399_000), "1:29:59");
        assert_eq!(clk(59_999), "0:00:59");
        assert_eq!(parse_clk("1:29:59"), Some(5_399_000));
        assert_eq!(parse_clk("0:00:05.5"), Some(5_500));
        assert_eq!(parse_clk("1:75:00"), None);
    }

    #[test]
    fn errors_name_the_line_and_move() {
        let pgn = "[Event \"x\"]\n[White \"A\"]\n\n1. e4 e5 2. Nf3 Nc6\n3. Bb5 {a comment\nover lines} a6 4. Nf6 *\n";
        let err = read_pgn(pgn, 0).unwrap_err();
        assert_eq!(err.line, Some(6), "{err}");
        assert!(
            err.to_string()
                .starts_with("line 6: illegal move 'Nf6' (move 4 for White"),
            "{err}"
        );
    }

    #[test]
    fn errors_in_a_later_game_count_lines_from_the_file_start() {
        let pgn =
            "[Event \"a\"]\n\n1. e4 *\n\n[Event \"b\"]\n\n1. e4 e5 (1... c5 2. Nf3) 2. Ke3 *\n";
        assert_eq!(read_pgn(pgn, 0).unwrap().moves().len(), 1);
        let err = read_pgn(pgn, 1).unwrap_err();
        assert_eq!(err.line, Some(7));
        assert!(err.message.contains("'Ke3' (move 2 for White"), "{err}");
        assert!(
            read_pgn(pgn, 2)
                .unwrap_err()
                .message
                .contains("has 2 game(s)")
        );
        assert_eq!(count_games(pgn), 2);
    }

    #[test]
    fn bad_fen_names_its_line() {
        let pgn = "[Event \"a\"]\n[SetUp \"1\"]\n[FEN \"8/8/8 w - - 0 1\"]\n\n*\n";
        let err = read_pgn(pgn, 0).unwrap_err();
        assert_eq!(err.line, Some(3), "{err}");
    }

    #[test]
    fn export_then_import_keeps_everything() {
        let pgn = "[Event \"Open \\\"A\\\"\"]\n[Site \"Berlin\"]\n[Date \"2024.05.17\"]\n[Round \"3\"]\n[White \"Müller, Jürgen\"]\n[Black \"Araújo, João\"]\n[Result \"1/2-1/2\"]\n[TimeControl \"5400+30\"]\n[Board \"4\"]\n\n1. e4 {[%clk 1:29:58]} e5 {[%clk 1:29:50] (=)} 2. Nf3 1/2-1/2\n";
        let g = read_pgn(pgn, 0).unwrap();
        assert_eq!(g.tags.event, "Open \"A\"");
        assert_eq!(g.tags.extra, vec![("Board".to_owned(), "4".to_owned())]);
        assert_eq!(g.moves()[0].clock_ms, Some(5_398_000));
        assert!(g.moves()[1].draw_offer);
        assert_eq!(g.result_str(), "1/2-1/2");
        let out = write_pgn(&g);
        assert!(out.contains("[Event \"Open \\\"A\\\"\"]"));
        assert!(
            out.contains("1. e4 {[%clk 1:29:58]} 1... e5 {[%clk 1:29:50] (=)} 2. Nf3 1/2-1/2"),
            "{out}"
        );
        let again = read_pgn(&out, 0).unwrap();
        assert_eq!(write_pgn(&again), out);
    }
}
