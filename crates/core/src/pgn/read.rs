//! The one PGN reader, on `pgn-reader`: streams games from any `Read`
//! (memory bounded by one game), skips a UTF-8 byte order mark, and gives
//! each error a line and column. A game that breaks off keeps the moves read
//! before the damage.

use std::cell::RefCell;
use std::collections::VecDeque;
use std::io::{self, Read};
use std::ops::ControlFlow;
use std::rc::Rc;

use pgn_reader::{Outcome, RawComment, RawTag, Reader, SanPlus, Skip, Visitor};
use shakmaty::{Chess, Color, Position};

use super::scan::{Found, Scanner};
use super::{
    DRAW_OFFER_COMMENT, apply_end, end_reason_from_code, parse_clock_text, side_from_code,
};
use crate::chess::{EndReason, GameEnd, GameRecord, Letters, Tags};

/// How to read.
#[derive(Clone, Debug, Default)]
pub struct ReadOptions {
    /// The start position of a game without a `FEN` tag (standard if none).
    pub start: Option<Chess>,
    /// Text that is not UTF-8 is read with replacement characters instead
    /// of being an error (old files from other programs).
    pub lossy_text: bool,
    /// The piece letters of the movetext (PGN's are English; `rochade
    /// announce` also reads German or Portuguese ones).
    pub letters: Letters,
}

/// A move that cannot be played where the file has it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BadMove {
    /// The full-move number.
    pub number: u32,
    pub side: Color,
    /// The move as written (normalised SAN).
    pub san: String,
    /// Why it cannot be played.
    pub reason: String,
}

impl BadMove {
    /// `2. Ke3` or `2... Ke3`.
    pub fn numbered(&self) -> String {
        let dots = if self.side == Color::White {
            "."
        } else {
            "..."
        };
        format!("{}{dots} {}", self.number, self.san)
    }
}

/// A PGN text that could not be read (wholly) as a game.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{}{message}", line.map(|l| format!("line {l}: ")).unwrap_or_default())]
pub struct PgnError {
    /// 1-based line in the input, when the fault has a place.
    pub line: Option<usize>,
    /// 1-based column (in bytes) in that line, when known.
    pub column: Option<usize>,
    pub message: String,
    /// The move that failed, if a move did.
    pub bad_move: Option<BadMove>,
}

impl PgnError {
    /// A message quoting the file (a tag's name, a token) is cut short.
    fn new(message: impl Into<String>) -> PgnError {
        PgnError {
            line: None,
            column: None,
            message: crate::text::excerpt(&message.into(), 300),
            bad_move: None,
        }
    }

    /// `line 6, column 12`, `line 6` or nothing.
    pub fn place(&self) -> Option<String> {
        match (self.line, self.column) {
            (Some(l), Some(c)) => Some(format!("line {l}, column {c}")),
            (Some(l), None) => Some(format!("line {l}")),
            _ => None,
        }
    }
}

/// One game as read.
#[derive(Clone, Debug)]
pub struct ReadGame {
    /// The game, or the part of it before `error` (`None` when the damage
    /// comes before the moves, e.g. a bad tag).
    pub record: Option<GameRecord>,
    pub error: Option<PgnError>,
    /// The moves ended with a result token (`1-0`, `*`, ...), as every
    /// complete game does.
    pub terminated: bool,
}

/// How far back line numbers are counted exactly: more than `pgn-reader`'s
/// buffer.
const WINDOW: u64 = 1 << 16;

/// How much of a tag value or comment is compared to find its place.
const FIND_PREFIX: usize = 32;

/// Where the reading stands, for line and column numbers: the bytes read
/// so far, the newlines of the last [`WINDOW`] bytes, and the bytes from
/// the start of the current game on (for the [`Scanner`], and to place the
/// tags and comments `pgn-reader` hands over, by reading them again in
/// order).
#[derive(Default)]
struct Track {
    total: u64,
    lines_before: usize,
    newlines: VecDeque<u64>,
    bytes: Vec<u8>,
    /// The input offset of `bytes[0]`.
    bytes_from: u64,
}

impl Track {
    /// The input offset where `text` next stands in the current game at or
    /// after offset `from`, just behind `opener` (a tag value's `"`, a
    /// comment's `{`). Only the first [`FIND_PREFIX`] bytes are compared: a
    /// place for an error message, found in time linear in the text.
    fn find(&self, from: u64, opener: u8, text: &[u8]) -> Option<u64> {
        let start = (from.saturating_sub(self.bytes_from) as usize).min(self.bytes.len());
        let text = &text[..text.len().min(FIND_PREFIX)];
        let rest = &self.bytes[start..];
        let i = rest
            .iter()
            .enumerate()
            .filter(|(_, b)| **b == opener)
            .map(|(i, _)| i + 1)
            .find(|&i| rest[i..].starts_with(text))?;
        Some(self.bytes_from + (start + i) as u64)
    }

    /// Forgets the bytes before input offset `offset`.
    fn keep_from(&mut self, offset: u64) {
        let drop = (offset.saturating_sub(self.bytes_from) as usize).min(self.bytes.len());
        self.bytes.drain(..drop);
        self.bytes_from += drop as u64;
    }

    /// Line and column (1-based) of an input offset.
    fn position(&self, offset: u64) -> (usize, Option<usize>) {
        let before = self.newlines.partition_point(|&n| n < offset);
        let line = self.lines_before + before + 1;
        let column = match before {
            0 if self.lines_before == 0 => Some(offset as usize + 1),
            0 => None,
            n => Some((offset - self.newlines[n - 1]) as usize),
        };
        (line, column)
    }
}

/// Where [`LocalLetters`] stands in the text.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum Part {
    #[default]
    Movetext,
    /// A tag pair or a `;` or `%` comment: up to the end of the line.
    Line,
    /// A `{...}` comment.
    Comment,
}

/// Rewrites the piece letters of another language in the movetext into
/// English ones before `pgn-reader` sees them (byte for byte, so lines and
/// columns stay); tags and comments pass unchanged. In the movetext an
/// upper-case letter is always a piece letter, castling's `O` aside.
struct LocalLetters<R> {
    inner: R,
    letters: Letters,
    part: Part,
}

impl<R: Read> Read for LocalLetters<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        if self.letters == Letters::En {
            return Ok(n);
        }
        for byte in &mut buf[..n] {
            self.part = match (self.part, *byte) {
                (Part::Line, b'\n') | (Part::Comment, b'}') => Part::Movetext,
                (Part::Line | Part::Comment, _) => self.part,
                (Part::Movetext, b'[' | b';' | b'%') => Part::Line,
                (Part::Movetext, b'{') => Part::Comment,
                (Part::Movetext, b) => {
                    if b.is_ascii_uppercase()
                        && b != b'O'
                        && let Some(role) = self.letters.role(char::from(b))
                    {
                        *byte = role.upper_char() as u8;
                    }
                    Part::Movetext
                }
            };
        }
        Ok(n)
    }
}

struct Tracked<R> {
    inner: R,
    track: Rc<RefCell<Track>>,
}

impl<R: Read> Read for Tracked<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        let mut t = self.track.borrow_mut();
        let start = t.total;
        for (i, _) in buf[..n].iter().enumerate().filter(|(_, b)| **b == b'\n') {
            t.newlines.push_back(start + i as u64);
        }
        t.total += n as u64;
        t.bytes.extend_from_slice(&buf[..n]);
        while t
            .newlines
            .front()
            .is_some_and(|&first| first + WINDOW < t.total)
        {
            t.newlines.pop_front();
            t.lines_before += 1;
        }
        Ok(n)
    }
}

/// Builds one game at a time; all state lives here (not in `pgn-reader`'s
/// per-game values) so a game that breaks off keeps what was read.
struct Builder {
    options: ReadOptions,
    track: Rc<RefCell<Track>>,
    tags: Tags,
    fen: Option<(String, Option<u64>)>,
    result_tag: Option<String>,
    end_reason: Option<EndReason>,
    pending_offer: Option<Color>,
    record: Option<GameRecord>,
    outcome: Option<Outcome>,
    fault: Option<PgnError>,
    comment_start: Option<u64>,
    /// The input offset where the game starts.
    game_start: u64,
    /// The input offset up to which the tags, comments and moves handed
    /// over so far stand: the next one is looked for from here.
    placed: u64,
    /// The second look at the movetext, from its start.
    scanner: Option<Scanner>,
}

impl Builder {
    fn fault_at(&mut self, offset: Option<u64>, error: PgnError) {
        let (line, column) = match offset {
            Some(o) => {
                let (l, c) = self.track.borrow().position(o);
                (Some(l), c)
            }
            None => (None, None),
        };
        self.fault = Some(PgnError {
            line,
            column,
            ..error
        });
    }

    /// The input offset of a tag value or comment text `pgn-reader` handed
    /// over (found after `opener`, from where the last one stood), and the
    /// next search starts behind it.
    fn locate(&mut self, opener: u8, text: &[u8]) -> Option<u64> {
        let at = self.track.borrow().find(self.placed, opener, text)?;
        self.placed = at + text.len() as u64;
        Some(at)
    }

    /// Whether the tag value handed over as ending at `end` is closed.
    fn closed(&self, end: Option<u64>) -> Option<bool> {
        let t = self.track.borrow();
        super::tags::value_closed(&t.bytes, t.bytes_from, end?)
    }

    /// Text from the file (at input offset `at`): UTF-8, or a fault placed
    /// at the first bad byte.
    fn text(&mut self, bytes: &[u8], at: Option<u64>, what: &str) -> Option<String> {
        match std::str::from_utf8(bytes) {
            Ok(s) => Some(s.to_owned()),
            Err(_) if self.options.lossy_text => Some(String::from_utf8_lossy(bytes).into_owned()),
            Err(e) => {
                let at = at.map(|o| o + e.valid_up_to() as u64);
                self.fault_at(at, PgnError::new(format!("{what} is not UTF-8 text")));
                None
            }
        }
    }

    /// The next move or unreadable token of the movetext, in the bytes read
    /// so far or up to input offset `end`.
    fn scan(&mut self, end: Option<u64>) -> Found {
        let Some(scanner) = self.scanner.as_mut() else {
            return Found::End;
        };
        let t = self.track.borrow();
        let len = end.map_or(t.bytes.len(), |e| {
            (e.saturating_sub(t.bytes_from) as usize).min(t.bytes.len())
        });
        scanner.next(&t.bytes[..len], t.bytes_from)
    }

    /// A token of the movetext that is no move (at input offset `at`, or
    /// where `pgn-reader` saw a move the scan did not find): the next move
    /// cannot be known, so reading stops there.
    fn unreadable(&mut self, at: Option<u64>, text: String) {
        let Some(record) = self.record.as_ref() else {
            return;
        };
        let (number, side) = (record.position().fullmoves().get(), record.turn());
        // A token may be a whole line of junk: quoted short.
        let text = crate::text::excerpt(&text, crate::text::EXCERPT_CHARS);
        let message = format!(
            "unreadable move '{text}' (move {number} for {})",
            side_name(side)
        );
        let bad_move = BadMove {
            number,
            side,
            san: text,
            reason: "cannot be read as a move".into(),
        };
        self.fault_at(
            at,
            PgnError {
                bad_move: Some(bad_move),
                ..PgnError::new(message)
            },
        );
    }

    /// A variation that is never closed: the moves after its `(` would be
    /// lost, so reading stops there with an error at the `(`.
    fn unclosed(&mut self, at: u64) {
        self.fault_at(
            Some(at),
            PgnError::new("a variation '(' is never closed: the moves after it cannot be read"),
        );
    }

    /// The game's end, from the result token or tag, its reason and the
    /// moves; a result the moves contradict is a fault.
    fn finish(&mut self) {
        let Some(record) = self.record.as_mut() else {
            return;
        };
        if let Some(color) = self.pending_offer {
            record.offer_draw(color);
        }
        let known = match self.outcome {
            Some(Outcome::Known(k)) => Some(k),
            _ => self
                .result_tag
                .as_deref()
                .and_then(|r| r.trim().parse::<Outcome>().ok())
                .and_then(|o| match o {
                    Outcome::Known(k) => Some(k),
                    Outcome::Unknown => None,
                }),
        };
        let Some(known) = known else {
            return;
        };
        if !record.is_over() {
            apply_end(record, known, self.end_reason);
        }
        if let Some(end) = record.end()
            && end.outcome != known
        {
            let stated = GameEnd {
                outcome: known,
                reason: EndReason::ResultAsRecorded,
                side: None,
            }
            .result_str();
            self.fault = Some(PgnError::new(format!(
                "the result {stated} does not match the moves ({})",
                end.result_str()
            )));
        }
    }
}

fn side_name(side: Color) -> &'static str {
    match side {
        Color::White => "White",
        Color::Black => "Black",
    }
}

/// `[%name value]` inside a comment.
fn command<'a>(comment: &'a str, name: &str) -> Option<&'a str> {
    let start = comment.find(&format!("[%{name} "))? + name.len() + 3;
    let end = comment[start..].find(']')? + start;
    Some(comment[start..end].trim())
}

impl Visitor for Builder {
    type Tags = ();
    type Movetext = ();
    type Output = ();

    fn begin_tags(&mut self) -> ControlFlow<(), ()> {
        self.tags = Tags::default();
        self.fen = None;
        self.result_tag = None;
        self.end_reason = None;
        self.pending_offer = None;
        self.record = None;
        self.outcome = None;
        self.fault = None;
        self.comment_start = None;
        self.scanner = None;
        self.placed = self.game_start;
        ControlFlow::Continue(())
    }

    fn tag(&mut self, _: &mut (), name: &[u8], value: RawTag<'_>) -> ControlFlow<()> {
        let at = self.locate(b'"', value.as_bytes());
        let name = String::from_utf8_lossy(name).into_owned();
        if self.closed(at.map(|at| at + value.as_bytes().len() as u64)) == Some(false) {
            self.fault_at(at, PgnError::new("unterminated tag"));
            return ControlFlow::Break(());
        }
        let Some(value) = self.text(&value.decode(), at, &format!("the tag {name}")) else {
            return ControlFlow::Break(());
        };
        let t = &mut self.tags;
        match name.as_str() {
            "Event" => t.event = value,
            "Site" => t.site = value,
            "Date" => t.date = value,
            "Round" => t.round = value,
            "White" => t.white = value,
            "Black" => t.black = value,
            "TimeControl" => t.time_control = Some(value),
            "Result" => self.result_tag = Some(value),
            "SetUp" => {}
            "FEN" => self.fen = Some((value, at)),
            "EndReason" => self.end_reason = end_reason_from_code(&value),
            "DrawOfferPending" => self.pending_offer = side_from_code(&value),
            _ => t.extra.push((name, value)),
        }
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, _: ()) -> ControlFlow<(), ()> {
        let mut record = match self.fen.take() {
            Some((fen, at)) => match GameRecord::from_fen(&fen) {
                Ok(record) => record,
                Err(message) => {
                    self.fault_at(at, PgnError::new(message));
                    return ControlFlow::Break(());
                }
            },
            None => match &self.options.start {
                Some(pos) => GameRecord::from_position(pos.clone()),
                None => GameRecord::new(),
            },
        };
        record.tags = std::mem::take(&mut self.tags);
        self.record = Some(record);
        self.scanner = Some(Scanner::new(self.game_start));
        ControlFlow::Continue(())
    }

    fn san(&mut self, _: &mut (), san_plus: SanPlus) -> ControlFlow<()> {
        // The text up to this move holds nothing `pgn-reader` passed over.
        let at = match self.scan(None) {
            Found::San { at, san } if san == san_plus => at,
            Found::San { at, san } => {
                self.unreadable(Some(at), san.to_string());
                return ControlFlow::Break(());
            }
            Found::Unreadable { at, text } => {
                self.unreadable(Some(at), text);
                return ControlFlow::Break(());
            }
            Found::End => {
                self.unreadable(None, san_plus.to_string());
                return ControlFlow::Break(());
            }
            Found::Unclosed { at } => {
                self.unclosed(at);
                return ControlFlow::Break(());
            }
        };
        self.placed = self.placed.max(at);
        let record = self.record.as_mut().expect("movetext has a record");
        let (number, turn) = (record.position().fullmoves().get(), record.turn());
        let side = side_name(turn);
        let san = san_plus.to_string();
        let (reason, message) = match san_plus.san.to_move(record.position()) {
            Ok(mv) => match record.play(mv, None) {
                Ok(_) => return ControlFlow::Continue(()),
                Err(e) => (
                    e.to_string(),
                    format!("move '{san}' (move {number} for {side}) cannot be played: {e}"),
                ),
            },
            Err(e) => (
                e.to_string(),
                format!("illegal move '{san}' (move {number} for {side}: {e})"),
            ),
        };
        let bad_move = BadMove {
            number,
            side: turn,
            san,
            reason,
        };
        self.fault_at(
            Some(at),
            PgnError {
                bad_move: Some(bad_move),
                ..PgnError::new(message)
            },
        );
        ControlFlow::Break(())
    }

    fn partial_comment(&mut self, _: &mut (), comment: RawComment<'_>) -> ControlFlow<()> {
        let bytes = comment.as_bytes();
        let at = match self.comment_start {
            // The comment goes on where its last part ended.
            Some(_) => {
                let at = self.placed;
                self.placed += bytes.len() as u64;
                Some(at)
            }
            None => {
                let at = self.locate(b'{', bytes);
                self.comment_start = at.map(|o| o.saturating_sub(1));
                at
            }
        };
        // Long comments hold no commands of ours; only check the text.
        match self.text(bytes, at, "a comment") {
            Some(_) => ControlFlow::Continue(()),
            None => ControlFlow::Break(()),
        }
    }

    fn comment(&mut self, _: &mut (), comment: RawComment<'_>) -> ControlFlow<()> {
        let at = match self.comment_start.take() {
            Some(_) => {
                let at = self.placed;
                self.placed += comment.as_bytes().len() as u64;
                Some(at)
            }
            None => self.locate(b'{', comment.as_bytes()),
        };
        let Some(body) = self.text(comment.as_bytes(), at, "a comment") else {
            return ControlFlow::Break(());
        };
        let Some(record) = self.record.as_mut() else {
            return ControlFlow::Continue(());
        };
        let Some(last) = record.last_move() else {
            return ControlFlow::Continue(());
        };
        let has_offer = last.draw_offer;
        let mover = !record.turn();
        // A clock reading or game time that is no time ([%clk 9:99:92]) is
        // an error at its comment, never passed over.
        for name in ["clk", "at"] {
            let Some(text) = command(&body, name) else {
                continue;
            };
            let Some(ms) = parse_clock_text(text) else {
                let text = format!("[%{name} {text}]");
                self.fault_at(at, PgnError::new(format!("{text} is no time")));
                return ControlFlow::Break(());
            };
            let record = self.record.as_mut().expect("checked above");
            if name == "clk" {
                record.set_last_clock(ms);
            } else {
                record.set_last_time(ms);
            }
        }
        let record = self.record.as_mut().expect("checked above");
        if !has_offer
            && (body.contains(DRAW_OFFER_COMMENT) || body.to_lowercase().contains("draw offer"))
        {
            record.offer_draw(mover);
        }
        ControlFlow::Continue(())
    }

    fn begin_variation(&mut self, _: &mut ()) -> ControlFlow<(), Skip> {
        ControlFlow::Continue(Skip(true))
    }

    fn outcome(&mut self, _: &mut (), outcome: Outcome) -> ControlFlow<()> {
        self.outcome = Some(outcome);
        ControlFlow::Continue(())
    }

    fn end_game(&mut self, _: ()) {}
}

/// The games of a PGN input, one at a time.
pub struct Games<R> {
    reader: Reader<Tracked<LocalLetters<R>>>,
    builder: Builder,
    done: bool,
}

impl<R: Read> Games<R> {
    pub fn new(input: R, options: ReadOptions) -> Games<R> {
        let track = Rc::new(RefCell::new(Track::default()));
        Games {
            reader: Reader::new(Tracked {
                inner: LocalLetters {
                    inner: input,
                    letters: options.letters,
                    part: Part::Movetext,
                },
                track: Rc::clone(&track),
            }),
            builder: Builder {
                options,
                track,
                tags: Tags::default(),
                fen: None,
                result_tag: None,
                end_reason: None,
                pending_offer: None,
                record: None,
                outcome: None,
                fault: None,
                comment_start: None,
                game_start: 0,
                placed: 0,
                scanner: None,
            },
            done: false,
        }
    }

    /// The input offset the reader has reached.
    fn cursor(&self) -> u64 {
        self.builder.track.borrow().total - self.reader.buffer().len() as u64
    }

    /// Line and column (1-based) the reader has reached.
    pub fn position(&self) -> (usize, Option<usize>) {
        self.builder.track.borrow().position(self.cursor())
    }

    /// Skips a game; false at the end of the input.
    pub fn skip_game(&mut self) -> Result<bool, PgnError> {
        self.reader
            .skip_game()
            .map_err(|e| PgnError::new(e.to_string()))
    }

    /// The next game, `None` at the end of the input.
    pub fn next_game(&mut self) -> Option<ReadGame> {
        if self.done {
            return None;
        }
        // Past what is left of the game before (after a fault), the BOM and
        // blank lines: where this game starts.
        let result = match self.reader.has_more() {
            Ok(true) => {
                let start = self.cursor();
                self.builder.game_start = start;
                self.builder.track.borrow_mut().keep_from(start);
                self.reader.read_game(&mut self.builder)
            }
            Ok(false) => Ok(None),
            Err(e) => Err(e),
        };
        let cursor = self.cursor();
        let b = &mut self.builder;
        match result {
            Ok(None) => {
                self.done = true;
                return None;
            }
            Ok(Some(())) => {
                if b.fault.is_none() {
                    // Nothing after the last move was passed over either.
                    match b.scan(Some(cursor)) {
                        Found::San { at, san } => b.unreadable(Some(at), san.to_string()),
                        Found::Unreadable { at, text } => b.unreadable(Some(at), text),
                        Found::Unclosed { at } => b.unclosed(at),
                        Found::End => {}
                    }
                }
            }
            Err(e) if e.kind() == io::ErrorKind::InvalidData => {
                // `pgn-reader` has two such errors: a tag left open (while
                // it reads the tags) and a comment left open (in the
                // movetext). Which one it is follows from where the reading
                // stands, not from the message's wording.
                let in_movetext = b.record.is_some();
                let (at, message) = match b.comment_start {
                    Some(start) if in_movetext => (start, e.to_string()),
                    // A tag, from the start of its line.
                    _ => {
                        let t = b.track.borrow();
                        super::tags::open_tag(&t.bytes, t.bytes_from, cursor.saturating_sub(1))
                    }
                };
                b.fault_at(Some(at), PgnError::new(message));
            }
            Err(e) => {
                self.done = true;
                b.fault = Some(PgnError::new(format!("cannot read: {e}")));
            }
        }
        if b.fault.is_none() {
            b.finish();
        }
        Some(ReadGame {
            record: b.record.take(),
            error: b.fault.take(),
            terminated: b.outcome.is_some(),
        })
    }
}

impl<R: Read> Iterator for Games<R> {
    type Item = ReadGame;

    fn next(&mut self) -> Option<ReadGame> {
        self.next_game()
    }
}

/// Reads game `index` (0-based) of a PGN text (the import: text that is not
/// UTF-8 is read leniently).
pub fn read_pgn(text: &str, index: usize) -> Result<GameRecord, PgnError> {
    let options = ReadOptions {
        lossy_text: true,
        ..ReadOptions::default()
    };
    let mut games = Games::new(text.as_bytes(), options);
    for skipped in 0..index {
        if !games.skip_game()? {
            return Err(PgnError::new(format!(
                "the file has {skipped} game(s); game {} was asked for",
                index + 1
            )));
        }
    }
    match games.next_game() {
        None if index == 0 => Err(PgnError::new("the file holds no game")),
        None => Err(PgnError::new(format!(
            "the file has {index} game(s); game {} was asked for",
            index + 1
        ))),
        Some(ReadGame {
            error: Some(error), ..
        }) => Err(error),
        Some(ReadGame { record, .. }) => {
            record.ok_or_else(|| PgnError::new("the file holds no game"))
        }
    }
}

/// Reads every game of a PGN text (a Braille book of an event). A game
/// that cannot be read stops it: the error says which game, so nothing is
/// left out without a word.
pub fn read_all_pgn(text: &str) -> Result<Vec<GameRecord>, PgnError> {
    let options = ReadOptions {
        lossy_text: true,
        ..ReadOptions::default()
    };
    let mut records = Vec::new();
    for (i, game) in Games::new(text.as_bytes(), options).enumerate() {
        match game {
            ReadGame {
                error: Some(mut error),
                ..
            } => {
                error.message = format!("game {}: {}", i + 1, error.message);
                return Err(error);
            }
            ReadGame {
                record: Some(record),
                ..
            } => records.push(record),
            ReadGame { record: None, .. } => {}
        }
    }
    if records.is_empty() {
        return Err(PgnError::new("the file holds no game"));
    }
    Ok(records)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pgn::write_pgn;

    #[test]
    fn every_game_is_read_and_a_bad_one_is_named() {
        let two = "[White \"A\"]\n\n1. e4 e5 1-0\n\n[White \"B\"]\n\n1. d4 *\n";
        let games = read_all_pgn(two).unwrap();
        assert_eq!(games.len(), 2);
        assert_eq!(games[1].tags.white, "B");
        let bad = format!("{two}\n[White \"C\"]\n\n1. e4 e5 2. Ke3 *\n");
        let err = read_all_pgn(&bad).unwrap_err();
        assert!(err.message.starts_with("game 3: "), "{err}");
        assert!(read_all_pgn("").is_err());
    }

    #[test]
    fn clock_readings_round_trip() {
        use crate::pgn::{clock_text, parse_clock_text};
        assert_eq!(clock_text(5_399_000, false), "1:29:59");
        assert_eq!(clock_text(59_999, false), "0:00:59");
        assert_eq!(parse_clock_text("1:29:59"), Some(5_399_000));
        assert_eq!(parse_clock_text("0:00:05.5"), Some(5_500));
        assert_eq!(parse_clock_text("1:75:00"), None);
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

#[cfg(test)]
mod import_tests {
    use super::*;

    #[test]
    fn a_result_without_a_reason_is_recorded_as_such() {
        let g = read_pgn("[Result \"1-0\"]\n\n1. e4 e5 2. Nf3 1-0\n", 0).unwrap();
        let end = g.end().unwrap();
        assert_eq!(end.reason, EndReason::ResultAsRecorded);
        assert_eq!(g.result_str(), "1-0");
        let g = read_pgn("1. d4 d5 1/2-1/2\n", 0).unwrap();
        assert_eq!(g.end().unwrap().reason, EndReason::ResultAsRecorded);
        // Reasons the moves prove are still found.
        let g = read_pgn("1. f3 e5 2. g4 Qh4# 0-1\n", 0).unwrap();
        assert_eq!(g.end().unwrap().reason, EndReason::Checkmate);
    }

    #[test]
    fn an_unreadable_move_is_an_error_with_its_place() {
        let pgn = "[Event \"a\"]\n\n1. e4 e5\n2. Nf3 Nc 3. Bb5 *\n";
        let err = read_pgn(pgn, 0).unwrap_err();
        assert_eq!((err.line, err.column), (Some(4), Some(8)), "{err}");
        assert_eq!(err.message, "unreadable move 'Nc' (move 2 for Black)");
        let bad = err.bad_move.unwrap();
        assert_eq!((bad.numbered(), bad.side), ("2... Nc".into(), Color::Black));
        // Junk after the last move hides what may be one.
        let err = read_pgn("1. d4 d5 2. c4 e6 3. Nc3 Nf6 4. Bg5xx 1-0\n", 0).unwrap_err();
        assert_eq!(err.column, Some(33), "{err}");
        assert!(err.message.contains("'Bg5xx' (move 4 for White)"), "{err}");
        // The error is where the move is, past long comments and lines.
        let long = format!("{{{}}}", "c".repeat(100_000));
        let pgn = format!("1. e4 {long}\ne5 2. Nf3 {long}\n\u{2658}c6 *\n");
        let err = read_pgn(&pgn, 0).unwrap_err();
        assert_eq!((err.line, err.column), (Some(3), Some(1)), "{err}");
        // A game read through, and the next one, are not affected.
        let two = "1. e4 e5 *\n\n1. d4 d5 2. c4 *\n";
        assert_eq!(read_pgn(two, 1).unwrap().moves().len(), 3);
    }
    /// The first game of `bytes`, read strictly (no lossy text).
    fn strict(bytes: &[u8]) -> ReadGame {
        Games::new(bytes, ReadOptions::default())
            .next_game()
            .expect("a game")
    }

    #[test]
    fn bad_text_in_a_tag_or_comment_is_placed_at_its_byte() {
        // A byte that is no UTF-8 in a tag value: line 2, at that byte.
        let err = strict(b"[Event \"a\"]\n[Site \"Ber\xfflin\"]\n\n1. e4 *\n")
            .error
            .unwrap();
        assert_eq!((err.line, err.column), (Some(2), Some(11)), "{err}");
        assert_eq!(err.message, "the tag Site is not UTF-8 text");
        // In a comment, after an earlier comment with the same beginning.
        let err = strict(b"1. e4 {ok} e5 {ok\xff} 2. Nf3 *\n").error.unwrap();
        assert_eq!((err.line, err.column), (Some(1), Some(18)), "{err}");
        // In a long comment that reaches the visitor in parts.
        let mut long = b"1. e4 {".to_vec();
        long.extend(std::iter::repeat_n(b'c', 20_000));
        long.extend(b"\xff} e5 *\n");
        let err = strict(&long).error.unwrap();
        assert_eq!((err.line, err.column), (Some(1), Some(20_008)), "{err}");
    }

    #[test]
    fn an_unclosed_variation_and_a_clock_that_is_no_time_are_errors() {
        let err = strict(b"1. e4 e5 2. Nf3 (2. Nc3 Nc6 3. Bc4 *\n")
            .error
            .unwrap();
        assert!(err.message.contains("never closed"), "{err}");
        assert_eq!((err.line, err.column), (Some(1), Some(17)), "{err}");
        let game = strict(b"1. e4 {[%clk 9:99:92]} e5 *\n");
        let err = game.error.unwrap();
        assert!(err.message.contains("[%clk 9:99:92] is no time"), "{err}");
        assert_eq!(
            game.record.unwrap().moves().len(),
            1,
            "the moves before kept"
        );
        // A closed variation is passed over as before.
        let game = strict(b"1. e4 e5 2. Nf3 (2. Nc3 Nc6) Nc6 *\n");
        assert!(game.error.is_none(), "{:?}", game.error);
        assert_eq!(game.record.unwrap().moves().len(), 4);
    }

    #[test]
    fn a_comment_or_tag_left_open_is_placed_where_it_opens() {
        let err = strict(b"1. e4 e5\n2. Nf3 {never closed\n*\n")
            .error
            .unwrap();
        assert_eq!((err.line, err.column), (Some(2), Some(8)), "{err}");
        let err = strict(b"[Event \"a\"]\n[Site \"never closed")
            .error
            .unwrap();
        assert_eq!(err.line, Some(2), "{err}");
        assert_eq!(err.column, Some(1), "{err}");
    }
}
