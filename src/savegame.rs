//! Game safety: the scoresheet is written to disk after every move, so a
//! crash, a flat battery or a closed window loses nothing.
//!
//! The game in progress lives in `<data dir>/current-game.pgn` (PGN, so an
//! arbiter can open it with any chess program). Each write goes to a
//! temporary file first and is renamed over the old one. On the next start
//! [`GameStore::unfinished_game`] offers a game without a result for
//! resumption. A finished game is archived as
//! `<data dir>/games/<date>-<white>-<black>.pgn` and the current file is
//! removed.
//!
//! The PGN holds everything [`GameRecord`] holds: the tags (extra tags in
//! order), a start FEN (`SetUp`/`FEN`), each move's clock reading
//! (`[%clk 1:29:50]`, with milliseconds when not whole seconds) and game time
//! (`[%at 0:03:12.250]`), draw offers (`(=)` in the move's comment, as
//! Appendix C writes it), a draw offer not yet attached to a move
//! (`DrawOfferPending` tag) and the result with its reason (`EndReason` tag,
//! e.g. `resignation`; reasons the moves prove, like checkmate, are found
//! again by replaying them).

use std::io;
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

use pgn_reader::{KnownOutcome, Outcome, RawComment, RawTag, Reader, SanPlus, Visitor};
use shakmaty::{Color, Position};

use crate::chess::{Claim, EndReason, GameRecord, Tags};
use crate::config::write_atomically;

/// The game in progress, inside the data folder.
pub const CURRENT_FILE: &str = "current-game.pgn";
/// Finished games, inside the data folder.
pub const ARCHIVE_DIR: &str = "games";

/// What [`GameStore::save_current`] did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Saved {
    /// The game goes on; it was written here.
    InProgress(PathBuf),
    /// The game is over; it was archived here and the current file removed.
    Archived(PathBuf),
}

impl Saved {
    pub fn path(&self) -> &Path {
        match self {
            Saved::InProgress(p) | Saved::Archived(p) => p,
        }
    }
}

/// The saved-games folder (the data folder, or a temporary one in tests).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameStore {
    dir: PathBuf,
}

impl GameStore {
    pub fn new(dir: impl Into<PathBuf>) -> GameStore {
        GameStore { dir: dir.into() }
    }

    /// The store in [`crate::paths::data_dir`] (`ROCHADE_DATA_DIR` overrides).
    pub fn open_default() -> io::Result<GameStore> {
        crate::paths::data_dir()
            .map(GameStore::new)
            .ok_or_else(|| io::Error::new(io::ErrorKind::NotFound, "no data folder on this system"))
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    pub fn current_path(&self) -> PathBuf {
        self.dir.join(CURRENT_FILE)
    }

    pub fn archive_dir(&self) -> PathBuf {
        self.dir.join(ARCHIVE_DIR)
    }

    /// Saves the game after a move (the session's `Effect::SaveGame`): an
    /// unfinished game to the current file, a finished one to the archive.
    pub fn save_current(&self, record: &GameRecord) -> io::Result<Saved> {
        if record.is_over() {
            let archived = self.archive(record)?;
            self.discard_current()?;
            Ok(Saved::Archived(archived))
        } else {
            let path = self.current_path();
            write_atomically(&path, to_pgn(record).as_bytes())?;
            Ok(Saved::InProgress(path))
        }
    }

    /// Writes a game to `games/<date>-<white>-<black>.pgn` (a counter is
    /// added if that exists) and returns the path.
    pub fn archive(&self, record: &GameRecord) -> io::Result<PathBuf> {
        let dir = self.archive_dir();
        std::fs::create_dir_all(&dir)?;
        let date = archive_date(&record.tags.date);
        let stem = format!(
            "{date}-{}-{}",
            file_name_part(&record.tags.white),
            file_name_part(&record.tags.black)
        );
        let text = to_pgn(record);
        for n in 1..10_000 {
            let name = if n == 1 {
                format!("{stem}.pgn")
            } else {
                format!("{stem}-{n}.pgn")
            };
            let path = dir.join(name);
            if path.exists() {
                // The same game saved again (e.g. the result event twice).
                if std::fs::read_to_string(&path).is_ok_and(|old| old == text) {
                    return Ok(path);
                }
                continue;
            }
            write_atomically(&path, text.as_bytes())?;
            return Ok(path);
        }
        Err(io::Error::new(
            io::ErrorKind::AlreadyExists,
            "too many games with the same name",
        ))
    }

    /// Removes the current game (the user chose not to resume it, or it was
    /// archived). A missing file is fine.
    pub fn discard_current(&self) -> io::Result<()> {
        match std::fs::remove_file(self.current_path()) {
            Err(e) if e.kind() != io::ErrorKind::NotFound => Err(e),
            _ => Ok(()),
        }
    }

    /// The game to offer for resumption at start: one with at least one
    /// move (or a draw offer) and no result. A finished game found there
    /// (the app stopped between archiving and clearing) is archived now.
    /// A file that cannot be read is moved to `current-game.pgn.bad-<time>`
    /// (never deleted) and the error names both files.
    pub fn unfinished_game(&self) -> Result<Option<GameRecord>, String> {
        let path = self.current_path();
        let text = match std::fs::read_to_string(&path) {
            Ok(text) => text,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(self.set_aside(&path, &format!("it cannot be read: {e}"))),
        };
        let record = match from_pgn(&text) {
            Ok(record) => record,
            Err(e) => return Err(self.set_aside(&path, &e)),
        };
        if record.is_over() {
            self.save_current(&record).map_err(|e| {
                format!(
                    "could not archive the finished game in {}: {e}",
                    path.display()
                )
            })?;
            return Ok(None);
        }
        let started = !record.moves().is_empty() || record.open_draw_offer().is_some();
        Ok(started.then_some(record))
    }

    fn set_aside(&self, path: &Path, problem: &str) -> String {
        let kept = path.with_file_name(format!("{CURRENT_FILE}.bad-{}", UtcTime::now().compact()));
        match std::fs::rename(path, &kept) {
            Ok(()) => format!(
                "The saved game {} could not be read ({problem}); it was moved to {}.",
                path.display(),
                kept.display()
            ),
            Err(e) => format!(
                "The saved game {} could not be read ({problem}) nor moved aside ({e}).",
                path.display()
            ),
        }
    }
}

/// [`GameStore::save_current`] in the data folder.
pub fn save_current(record: &GameRecord) -> io::Result<Saved> {
    GameStore::open_default()?.save_current(record)
}

/// [`GameStore::unfinished_game`] in the data folder.
pub fn unfinished_game() -> Result<Option<GameRecord>, String> {
    GameStore::open_default()
        .map_err(|e| e.to_string())?
        .unfinished_game()
}

/// `2025-06-01` from a PGN date, today's (UTC) date where it is unknown.
fn archive_date(pgn_date: &str) -> String {
    let today = UtcTime::now();
    let today = [
        format!("{:04}", today.year),
        format!("{:02}", today.month),
        format!("{:02}", today.day),
    ];
    let parts: Vec<&str> = pgn_date.split('.').collect();
    if parts.len() == 3
        && parts
            .iter()
            .all(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()))
    {
        parts.join("-")
    } else {
        today.join("-")
    }
}

/// A player's name as part of a file name: letters and digits kept
/// (accents included), everything else a single `_`.
fn file_name_part(name: &str) -> String {
    let mut out = String::new();
    for c in name.trim().chars() {
        if c.is_alphanumeric() {
            out.push(c);
        } else if !out.ends_with('_') && !out.is_empty() {
            out.push('_');
        }
    }
    let out = out.trim_end_matches('_');
    let out: String = out.chars().take(40).collect();
    if out.is_empty() { "NN".into() } else { out }
}

// ---------------------------------------------------------------- writing

const SEVEN_TAG_ROSTER: [&str; 7] = ["Event", "Site", "Date", "Round", "White", "Black", "Result"];
/// Tags this module writes from the record itself; never read into `extra`.
const GENERATED_TAGS: [&str; 5] = [
    "TimeControl",
    "SetUp",
    "FEN",
    "EndReason",
    "DrawOfferPending",
];

/// A PGN tag value: backslash and quote escaped, line breaks and other
/// control characters (not allowed in a tag) as spaces.
fn escape_tag(value: &str) -> String {
    value
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect::<String>()
        .replace('\\', "\\\\")
        .replace('"', "\\\"")
}

fn side_code(color: Color) -> &'static str {
    match color {
        Color::White => "white",
        Color::Black => "black",
    }
}

fn end_reason_code(reason: EndReason) -> &'static str {
    match reason {
        EndReason::Checkmate => "checkmate",
        EndReason::Stalemate => "stalemate",
        EndReason::Resignation => "resignation",
        EndReason::AgreedDraw => "agreed_draw",
        EndReason::DeadPosition => "dead_position",
        EndReason::FlagFall => "flag_fall",
        EndReason::FlagFallOpponentCannotMate => "flag_fall_opponent_cannot_mate",
        EndReason::FivefoldRepetition => "fivefold_repetition",
        EndReason::SeventyFiveMoves => "seventy_five_moves",
        EndReason::ThreefoldRepetition => "threefold_repetition",
        EndReason::FiftyMoves => "fifty_moves",
    }
}

const END_REASONS: [EndReason; 11] = [
    EndReason::Checkmate,
    EndReason::Stalemate,
    EndReason::Resignation,
    EndReason::AgreedDraw,
    EndReason::DeadPosition,
    EndReason::FlagFall,
    EndReason::FlagFallOpponentCannotMate,
    EndReason::FivefoldRepetition,
    EndReason::SeventyFiveMoves,
    EndReason::ThreefoldRepetition,
    EndReason::FiftyMoves,
];

/// `1:29:50`, or `0:04:59.250` when the milliseconds are not zero.
fn clock_text(ms: u64) -> String {
    let s = ms / 1000;
    let base = format!("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60);
    match ms % 1000 {
        0 => base,
        frac => format!("{base}.{frac:03}"),
    }
}

fn parse_clock_text(text: &str) -> Option<u64> {
    let (hms, frac) = match text.split_once('.') {
        Some((hms, frac)) => (hms, frac),
        None => (text, ""),
    };
    let mut total: u64 = 0;
    let parts: Vec<&str> = hms.split(':').collect();
    if parts.is_empty() || parts.len() > 3 {
        return None;
    }
    for part in parts {
        total = total
            .checked_mul(60)?
            .checked_add(part.trim().parse().ok()?)?;
    }
    let ms = if frac.is_empty() {
        0
    } else {
        if frac.len() > 3 || !frac.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        format!("{frac:0<3}").parse::<u64>().ok()?
    };
    total.checked_mul(1000)?.checked_add(ms)
}

/// The game as PGN (export format: roster first, lines under 80 columns).
pub fn to_pgn(record: &GameRecord) -> String {
    let t = &record.tags;
    let mut out = String::new();
    let mut tag = |name: &str, value: &str| {
        out.push_str(&format!("[{name} \"{}\"]\n", escape_tag(value)));
    };
    for (name, value) in [
        ("Event", t.event.as_str()),
        ("Site", &t.site),
        ("Date", &t.date),
        ("Round", &t.round),
        ("White", &t.white),
        ("Black", &t.black),
        ("Result", record.result_str()),
    ] {
        tag(name, value);
    }
    if let Some(control) = &t.time_control {
        tag("TimeControl", control);
    }
    if let Some(fen) = record.start_fen() {
        tag("SetUp", "1");
        tag("FEN", &fen);
    }
    for (name, value) in &t.extra {
        tag(name, value);
    }
    if let Some(end) = record.end() {
        tag("EndReason", end_reason_code(end.reason));
    }
    // An offer made before the offerer's move waits for that move.
    if let Some(color) = record.open_draw_offer()
        && record.last_move().is_none_or(|m| !m.draw_offer)
    {
        tag("DrawOfferPending", side_code(color));
    }
    out.push('\n');

    let mut tokens: Vec<String> = Vec::new();
    let mut need_number = true;
    for (i, m) in record.moves().iter().enumerate() {
        let pos = record.position_before(i);
        let number = pos.fullmoves().get();
        if pos.turn() == Color::White {
            tokens.push(format!("{number}."));
        } else if need_number {
            tokens.push(format!("{number}..."));
        }
        tokens.push(m.san.to_string());
        let mut comment = Vec::new();
        if m.draw_offer {
            comment.push("(=)".to_owned());
        }
        if let Some(ms) = m.clock_ms {
            comment.push(format!("[%clk {}]", clock_text(ms)));
        }
        if let Some(ms) = m.at_ms {
            comment.push(format!("[%at {}]", clock_text(ms)));
        }
        need_number = !comment.is_empty();
        if !comment.is_empty() {
            tokens.push(format!("{{{}}}", comment.join(" ")));
        }
    }
    tokens.push(record.result_str().to_owned());
    let mut line = String::new();
    for token in tokens {
        if !line.is_empty() && line.len() + 1 + token.len() > 79 {
            out.push_str(&line);
            out.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(&token);
    }
    out.push_str(&line);
    out.push_str("\n\n");
    out
}

// ---------------------------------------------------------------- reading

#[derive(Default)]
struct Parsed {
    tags: Vec<(String, String)>,
    moves: Vec<ParsedMove>,
    outcome: Option<Outcome>,
    error: Option<String>,
}

struct ParsedMove {
    san: SanPlus,
    comments: Vec<String>,
}

struct Collect;

impl Visitor for Collect {
    type Tags = Parsed;
    type Movetext = Parsed;
    type Output = Parsed;

    fn begin_tags(&mut self) -> ControlFlow<Parsed, Parsed> {
        ControlFlow::Continue(Parsed::default())
    }

    fn tag(&mut self, tags: &mut Parsed, name: &[u8], value: RawTag<'_>) -> ControlFlow<Parsed> {
        let name = String::from_utf8_lossy(name).into_owned();
        match value.decode_utf8() {
            Ok(v) => tags.tags.push((name, v.into_owned())),
            Err(e) => tags.error = Some(format!("tag {name} is not UTF-8: {e}")),
        }
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, tags: Parsed) -> ControlFlow<Parsed, Parsed> {
        ControlFlow::Continue(tags)
    }

    fn san(&mut self, game: &mut Parsed, san: SanPlus) -> ControlFlow<Parsed> {
        game.moves.push(ParsedMove {
            san,
            comments: Vec::new(),
        });
        ControlFlow::Continue(())
    }

    fn comment(&mut self, game: &mut Parsed, comment: RawComment<'_>) -> ControlFlow<Parsed> {
        if let Some(m) = game.moves.last_mut() {
            m.comments
                .push(String::from_utf8_lossy(comment.as_bytes()).into_owned());
        }
        ControlFlow::Continue(())
    }

    fn outcome(&mut self, game: &mut Parsed, outcome: Outcome) -> ControlFlow<Parsed> {
        game.outcome = Some(outcome);
        ControlFlow::Continue(())
    }

    fn end_game(&mut self, game: Parsed) -> Parsed {
        game
    }
}

/// `[%name value]` inside a comment.
fn command<'a>(comment: &'a str, name: &str) -> Option<&'a str> {
    let start = comment.find(&format!("[%{name} "))? + name.len() + 3;
    let end = comment[start..].find(']')? + start;
    Some(comment[start..end].trim())
}

fn parse_side(text: &str) -> Option<Color> {
    match text.trim().to_ascii_lowercase().as_str() {
        "white" => Some(Color::White),
        "black" => Some(Color::Black),
        _ => None,
    }
}

/// Reads the first game of a PGN text back into a record (see the module
/// documentation for what is kept). Errors name the move that fails.
pub fn from_pgn(text: &str) -> Result<GameRecord, String> {
    let parsed = Reader::new(io::Cursor::new(text.as_bytes()))
        .read_game(&mut Collect)
        .map_err(|e| format!("unreadable PGN: {e}"))?
        .ok_or("no game in the file")?;
    if let Some(e) = parsed.error {
        return Err(e);
    }
    let tag_value = |name: &str| {
        parsed
            .tags
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    };
    let mut record = match tag_value("FEN") {
        Some(fen) => GameRecord::from_fen(fen)?,
        None => GameRecord::new(),
    };
    let mut tags = Tags::default();
    for (name, value) in &parsed.tags {
        let value = value.clone();
        match name.as_str() {
            "Event" => tags.event = value,
            "Site" => tags.site = value,
            "Date" => tags.date = value,
            "Round" => tags.round = value,
            "White" => tags.white = value,
            "Black" => tags.black = value,
            "TimeControl" => tags.time_control = Some(value),
            n if SEVEN_TAG_ROSTER.contains(&n) || GENERATED_TAGS.contains(&n) => {}
            _ => tags.extra.push((name.clone(), value)),
        }
    }
    record.tags = tags;

    for (i, m) in parsed.moves.iter().enumerate() {
        let number = record.fullmove_number_of(i);
        let dots = if record.turn() == Color::White {
            "."
        } else {
            "..."
        };
        let mv = m
            .san
            .san
            .to_move(record.position())
            .map_err(|e| format!("move {number}{dots} {}: {e}", m.san))?;
        let comments = m.comments.join(" ");
        let at_ms = command(&comments, "at").and_then(parse_clock_text);
        let mover = record.turn();
        record
            .play(mv, at_ms)
            .map_err(|e| format!("move {number}{dots} {}: {e}", m.san))?;
        if let Some(ms) = command(&comments, "clk").and_then(parse_clock_text) {
            record.set_last_clock(ms);
        }
        if comments.contains("(=)") {
            record.offer_draw(mover);
        }
    }
    if let Some(color) = tag_value("DrawOfferPending").and_then(parse_side) {
        record.offer_draw(color);
    }

    let outcome = match parsed.outcome {
        Some(Outcome::Known(k)) => Some(k),
        _ => match tag_value("Result") {
            Some("1-0") => Some(KnownOutcome::Decisive {
                winner: Color::White,
            }),
            Some("0-1") => Some(KnownOutcome::Decisive {
                winner: Color::Black,
            }),
            Some("1/2-1/2") => Some(KnownOutcome::Draw),
            _ => None,
        },
    };
    if let Some(outcome) = outcome
        && !record.is_over()
    {
        let reason = tag_value("EndReason").and_then(|code| {
            END_REASONS
                .into_iter()
                .find(|&r| end_reason_code(r) == code)
        });
        apply_end(&mut record, outcome, reason);
    }
    if let (Some(outcome), Some(end)) = (outcome, record.end())
        && end.outcome != outcome
    {
        return Err(format!(
            "the result {} does not match the moves ({})",
            tag_value("Result").unwrap_or("?"),
            end.result_str()
        ));
    }
    Ok(record)
}

/// Gives a replayed record the result the file states. Reasons the record
/// cannot reach by itself fall back to resignation (decisive) or an agreed
/// draw, which carry the same result.
fn apply_end(record: &mut GameRecord, outcome: KnownOutcome, reason: Option<EndReason>) {
    let loser = match outcome {
        KnownOutcome::Decisive { winner } => Some(!winner),
        KnownOutcome::Draw => None,
    };
    match (reason, loser) {
        (Some(EndReason::FlagFall), Some(loser)) => record.flag_fall(loser),
        (Some(EndReason::FlagFallOpponentCannotMate), None) => record.flag_fall(record.turn()),
        (Some(EndReason::ThreefoldRepetition), None) => {
            record.claim(Claim::ThreefoldRepetition, None);
        }
        (Some(EndReason::FiftyMoves), None) => {
            record.claim(Claim::FiftyMoves, None);
        }
        _ => {}
    }
    if record.end().is_none_or(|e| e.outcome != outcome) {
        record.clear_end();
        match loser {
            Some(loser) => record.resign(loser),
            None => record.agree_draw(),
        }
    }
}

// ---------------------------------------------------------------- time

/// A UTC calendar time, for file names and the PGN `Date` tag (no time
/// zone database needed).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct UtcTime {
    pub year: i64,
    pub month: u32,
    pub day: u32,
    pub hour: u32,
    pub minute: u32,
    pub second: u32,
}

impl UtcTime {
    pub fn now() -> UtcTime {
        UtcTime::from_system_time(SystemTime::now())
    }

    pub fn from_system_time(time: SystemTime) -> UtcTime {
        let secs = time.duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs()) as i64;
        UtcTime::from_unix_seconds(secs)
    }

    /// Howard Hinnant's `civil_from_days`.
    pub fn from_unix_seconds(secs: i64) -> UtcTime {
        let days = secs.div_euclid(86_400);
        let rem = secs.rem_euclid(86_400);
        let z = days + 719_468;
        let era = z.div_euclid(146_097);
        let doe = z - era * 146_097;
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
        let mp = (5 * doy + 2) / 153;
        let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
        let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
        let year = yoe + era * 400 + i64::from(month <= 2);
        UtcTime {
            year,
            month,
            day,
            hour: (rem / 3600) as u32,
            minute: (rem / 60 % 60) as u32,
            second: (rem % 60) as u32,
        }
    }

    /// `20250601-143005`, for file names.
    pub fn compact(&self) -> String {
        format!(
            "{:04}{:02}{:02}-{:02}{:02}{:02}",
            self.year, self.month, self.day, self.hour, self.minute, self.second
        )
    }

    /// `2025.06.01`, the PGN `Date` tag.
    pub fn pgn_date(&self) -> String {
        format!("{:04}.{:02}.{:02}", self.year, self.month, self.day)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::san::San;

    fn play(record: &mut GameRecord, sans: &str) {
        for san in sans.split_whitespace() {
            let mv = san
                .parse::<San>()
                .unwrap()
                .to_move(record.position())
                .unwrap();
            record
                .play(mv, None)
                .unwrap_or_else(|e| panic!("{san}: {e}"));
        }
    }

    fn play_at(record: &mut GameRecord, san: &str, at_ms: u64, clock_ms: u64) {
        let mv = san
            .parse::<San>()
            .unwrap()
            .to_move(record.position())
            .unwrap();
        record.play(mv, Some(at_ms)).unwrap();
        record.set_last_clock(clock_ms);
    }

    /// What a round trip must keep: everything the scoresheet shows.
    fn assert_same(a: &GameRecord, b: &GameRecord) {
        assert_eq!(a.tags, b.tags);
        assert_eq!(a.start_fen(), b.start_fen());
        assert_eq!(a.moves(), b.moves());
        assert_eq!(a.end(), b.end());
        assert_eq!(a.open_draw_offer(), b.open_draw_offer());
        assert_eq!(a.fen(), b.fen());
    }

    fn round_trip(record: &GameRecord) -> GameRecord {
        let text = to_pgn(record);
        from_pgn(&text).unwrap_or_else(|e| panic!("{e}\n{text}"))
    }

    fn tournament_game() -> GameRecord {
        let mut g = GameRecord::new();
        g.tags.event = "Blind \"Open\" \\ 2025".into();
        g.tags.site = "São Paulo".into();
        g.tags.date = "2025.06.01".into();
        g.tags.round = "3".into();
        g.tags.white = "Müller, Jörg".into();
        g.tags.black = "Silva, João".into();
        g.tags.time_control = Some("5400+30".into());
        g.tags.extra = vec![
            ("Board".into(), "12".into()),
            ("Annotator".into(), "Rochade".into()),
        ];
        play_at(&mut g, "e4", 1_200, 5_428_800);
        play_at(&mut g, "e5", 9_950, 5_421_250);
        g.offer_draw(Color::Black);
        play_at(&mut g, "Nf3", 15_000, 5_443_000);
        play(&mut g, "Nc6");
        g
    }

    #[test]
    fn round_trip_keeps_tags_clocks_times_and_offers() {
        let g = tournament_game();
        assert!(g.moves()[1].draw_offer);
        let back = round_trip(&g);
        assert_same(&g, &back);
        assert_eq!(back.moves()[1].clock_ms, Some(5_421_250));
        assert_eq!(back.moves()[0].at_ms, Some(1_200));
        assert_eq!(to_pgn(&back), to_pgn(&g));
    }

    #[test]
    fn pgn_text_is_what_an_arbiter_expects() {
        let text = to_pgn(&tournament_game());
        assert!(
            text.starts_with("[Event \"Blind \\\"Open\\\" \\\\ 2025\"]\n"),
            "{text}"
        );
        assert!(text.contains("[White \"Müller, Jörg\"]\n"));
        assert!(text.contains("[Result \"*\"]\n[TimeControl \"5400+30\"]\n[Board \"12\"]\n"));
        let movetext = text.split("\n\n").nth(1).unwrap().replace('\n', " ");
        assert_eq!(
            movetext.trim_end(),
            "1. e4 {[%clk 1:30:28.800] [%at 0:00:01.200]} 1... e5 \
             {(=) [%clk 1:30:21.250] [%at 0:00:09.950]} 2. Nf3 \
             {[%clk 1:30:43] [%at 0:00:15]} 2... Nc6 *"
        );
        assert!(text.trim_end().ends_with("Nc6 *"), "{text}");
        assert!(text.lines().all(|l| l.len() < 80));
    }

    #[test]
    fn line_breaks_in_names_cannot_break_the_file() {
        let mut g = GameRecord::new();
        g.tags.white = "Ana\n[Result \"1-0\"]".into();
        play(&mut g, "e4");
        let back = round_trip(&g);
        assert_eq!(back.tags.white, "Ana [Result \"1-0\"]");
        assert_eq!(back.result_str(), "*");
        assert_eq!(back.moves().len(), 1);
    }

    #[test]
    fn start_fen_and_pending_offer_round_trip() {
        let mut g = GameRecord::from_fen("4k3/8/8/8/8/8/P7/R3K3 b - - 3 40").unwrap();
        play(&mut g, "Kd7 a4");
        g.offer_draw(Color::Black);
        assert_eq!(g.open_draw_offer(), Some(Color::Black));
        assert!(!g.last_move().unwrap().draw_offer);
        let text = to_pgn(&g);
        assert!(
            text.contains("[SetUp \"1\"]\n[FEN \"4k3/8/8/8/8/8/P7/R3K3 b - - 3 40\"]"),
            "{text}"
        );
        assert!(text.contains("40... Kd7 41. a4"), "{text}");
        let back = round_trip(&g);
        assert_same(&g, &back);
    }

    #[test]
    fn results_and_reasons_round_trip() {
        let mut cases = Vec::new();
        let mut mate = GameRecord::new();
        play(&mut mate, "f3 e5 g4 Qh4#");
        cases.push(mate);
        let mut resigned = GameRecord::new();
        play(&mut resigned, "e4");
        resigned.resign(Color::Black);
        cases.push(resigned);
        let mut agreed = GameRecord::new();
        play(&mut agreed, "d4");
        agreed.offer_draw(Color::White);
        assert!(agreed.accept_draw(Color::Black));
        cases.push(agreed);
        let mut flag = GameRecord::new();
        play(&mut flag, "e4 e5");
        flag.flag_fall(Color::White);
        cases.push(flag);
        let mut flag_draw = GameRecord::from_fen("4k3/8/8/8/8/8/8/R3K3 w - - 0 1").unwrap();
        flag_draw.flag_fall(Color::White);
        cases.push(flag_draw);
        let mut threefold = GameRecord::new();
        play(&mut threefold, "Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1 Ng8");
        assert!(threefold.claim(Claim::ThreefoldRepetition, None).correct);
        cases.push(threefold);
        let mut fifty = GameRecord::from_fen("4k3/8/8/8/8/8/8/R3K3 w - - 99 80").unwrap();
        let mv = "Ra2"
            .parse::<San>()
            .unwrap()
            .to_move(fifty.position())
            .unwrap();
        assert!(fifty.claim(Claim::FiftyMoves, Some(mv)).correct);
        cases.push(fifty);
        for g in cases {
            let back = round_trip(&g);
            assert_same(&g, &back);
            assert!(back.is_over());
        }
    }

    #[test]
    fn foreign_pgn_with_unknown_reason_keeps_the_result() {
        let back = from_pgn("[Result \"0-1\"]\n\n1. e4 e5 0-1\n").unwrap();
        assert_eq!(back.result_str(), "0-1");
        assert_eq!(back.moves().len(), 2);
    }

    #[test]
    fn bad_pgn_names_the_move() {
        let err = from_pgn("1. e4 e5 2. Ke3 *").unwrap_err();
        assert!(err.contains("move 2. Ke3"), "{err}");
        let err = from_pgn("[Result \"1-0\"]\n\n1. f3 e5 2. g4 Qh4# 1-0").unwrap_err();
        assert!(err.contains("does not match"), "{err}");
    }

    #[test]
    fn unfinished_game_is_saved_and_offered() {
        let dir = tempfile::tempdir().unwrap();
        let store = GameStore::new(dir.path().join("data"));
        assert!(matches!(store.unfinished_game(), Ok(None)));
        let mut g = tournament_game();
        let saved = store.save_current(&g).unwrap();
        assert_eq!(saved, Saved::InProgress(store.current_path()));
        play(&mut g, "Bb5");
        store.save_current(&g).unwrap();
        let offered = store.unfinished_game().unwrap().expect("offered");
        assert_same(&g, &offered);
        // No temporary files are left behind.
        let names: Vec<_> = std::fs::read_dir(store.dir())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names, vec![std::ffi::OsString::from(CURRENT_FILE)]);
    }

    #[test]
    fn a_new_game_without_moves_is_not_offered() {
        let dir = tempfile::tempdir().unwrap();
        let store = GameStore::new(dir.path());
        store.save_current(&GameRecord::new()).unwrap();
        assert!(store.current_path().exists());
        assert!(matches!(store.unfinished_game(), Ok(None)));
    }

    #[test]
    fn finished_game_is_archived_and_current_cleared() {
        let dir = tempfile::tempdir().unwrap();
        let store = GameStore::new(dir.path());
        let mut g = tournament_game();
        store.save_current(&g).unwrap();
        g.resign(Color::White);
        let saved = store.save_current(&g).unwrap();
        let expected = store
            .archive_dir()
            .join("2025-06-01-Müller_Jörg-Silva_João.pgn");
        assert_eq!(saved, Saved::Archived(expected.clone()));
        assert!(!store.current_path().exists());
        assert!(matches!(store.unfinished_game(), Ok(None)));
        let archived = from_pgn(&std::fs::read_to_string(&expected).unwrap()).unwrap();
        assert_same(&g, &archived);
        // Saving the same finished game again does not make a second file.
        store.save_current(&g).unwrap();
        // Another game between the same players on the same day does.
        let mut other = tournament_game();
        other.resign(Color::Black);
        let second = store.save_current(&other).unwrap();
        assert!(
            second
                .path()
                .ends_with("2025-06-01-Müller_Jörg-Silva_João-2.pgn")
        );
        assert_eq!(std::fs::read_dir(store.archive_dir()).unwrap().count(), 2);
    }

    #[test]
    fn finished_game_left_in_current_file_is_archived_at_start() {
        let dir = tempfile::tempdir().unwrap();
        let store = GameStore::new(dir.path());
        let mut g = GameRecord::new();
        play(&mut g, "f3 e5 g4 Qh4#");
        std::fs::write(store.current_path(), to_pgn(&g)).unwrap();
        assert!(matches!(store.unfinished_game(), Ok(None)));
        assert!(!store.current_path().exists());
        let today = UtcTime::now();
        let name = format!(
            "{:04}-{:02}-{:02}-NN-NN.pgn",
            today.year, today.month, today.day
        );
        assert!(store.archive_dir().join(name).exists());
    }

    #[test]
    fn unreadable_current_game_is_moved_aside_not_deleted() {
        let dir = tempfile::tempdir().unwrap();
        let store = GameStore::new(dir.path());
        std::fs::write(store.current_path(), "1. e4 e5 2. Qxf7 *").unwrap();
        let err = store.unfinished_game().unwrap_err();
        assert!(err.contains(CURRENT_FILE) && err.contains("Qxf7"), "{err}");
        assert!(!store.current_path().exists());
        let kept: Vec<_> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.to_string_lossy().contains(".bad-"))
            .collect();
        assert_eq!(kept.len(), 1);
        assert_eq!(
            std::fs::read_to_string(&kept[0]).unwrap(),
            "1. e4 e5 2. Qxf7 *"
        );
    }

    #[test]
    fn external_tools_read_the_file() {
        // pgn-extract (not ours) must accept the file and see the moves.
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("g.pgn");
        let mut g = tournament_game();
        g.resign(Color::White);
        std::fs::write(&path, to_pgn(&g)).unwrap();
        // Debian installs it under /usr/games, which is not always on PATH.
        let tool = if Path::new("/usr/games/pgn-extract").exists() {
            "/usr/games/pgn-extract"
        } else {
            "pgn-extract"
        };
        let out = std::process::Command::new(tool)
            .args(["-Wuci", "--nocomments", "-s"])
            .arg(&path)
            .output()
            .expect("pgn-extract must be installed (apt install pgn-extract)");
        let text = String::from_utf8_lossy(&out.stdout);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success() && stderr.trim().is_empty(), "{stderr}");
        assert!(text.contains("e2e4 e7e5 g1f3 b8c6 0-1"), "{text}");
        assert!(text.contains("[Result \"0-1\"]"), "{text}");
    }

    #[test]
    fn clock_text_round_trips() {
        for ms in [0, 999, 1000, 59_999, 5_400_000, 5_421_250, 36_000_001] {
            assert_eq!(
                parse_clock_text(&clock_text(ms)),
                Some(ms),
                "{}",
                clock_text(ms)
            );
        }
        assert_eq!(parse_clock_text("1:29:50"), Some(5_390_000));
        assert_eq!(parse_clock_text("0:00:09.5"), Some(9_500));
        assert_eq!(parse_clock_text("x"), None);
    }

    #[test]
    fn civil_dates() {
        assert_eq!(UtcTime::from_unix_seconds(0).compact(), "19700101-000000");
        assert_eq!(
            UtcTime::from_unix_seconds(951_782_400).pgn_date(),
            "2000.02.29"
        );
        assert_eq!(
            UtcTime::from_unix_seconds(1_748_779_199).compact(),
            "20250601-115959"
        );
        assert_eq!(archive_date("2025.06.01"), "2025-06-01");
        assert_eq!(file_name_part("  O'Brien, Séan  "), "O_Brien_Séan");
        assert_eq!(file_name_part("???"), "NN");
    }
}
