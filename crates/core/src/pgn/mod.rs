//! PGN, written and read in one place: the save file ([`save`]; the
//! shell's `savegame` module stores it), the export, the import and `rochade announce` all
//! go through [`write`] and [`Games`].
//!
//! What the text holds beyond the seven-tag roster: `TimeControl`,
//! `SetUp`/`FEN`, extra tags in order, each move's clock reading
//! (`[%clk 1:29:50]`), draw offers (`(=)` in the move's comment, as
//! Appendix C writes it) and, in the save file ([`WriteOptions::SAVE`]),
//! each move's game time (`[%at 0:03:12.250]`), clock readings to the
//! millisecond, the reason the game ended (`EndReason` tag) and a draw offer
//! not yet attached to a move (`DrawOfferPending` tag). Reasons the moves
//! prove (checkmate, stalemate, ...) are found again by replaying them; a
//! result without a known reason is kept as
//! [`EndReason::ResultAsRecorded`].

mod read;
pub mod save;
mod scan;
mod tags;
mod write;

pub use read::{BadMove, Games, PgnError, ReadGame, ReadOptions, read_all_pgn, read_pgn};
pub use write::{LINE_WIDTH, WriteOptions, write, write_pgn};

use shakmaty::Color;

use pgn_reader::KnownOutcome;

use crate::chess::{Claim, EndReason, GameRecord};

/// The moves of a movetext as written, in order: tags, comments,
/// variations, annotations, move numbers and results left out, each move in
/// SAN without its check sign. A token that is no move stays in the list as
/// written (shortened if long), so the caller sees where it is.
pub fn movetext_moves(text: &str) -> Vec<String> {
    let mut scanner = scan::Scanner::new(0);
    let mut out = Vec::new();
    loop {
        match scanner.next(text.as_bytes(), 0) {
            scan::Found::San { san, .. } => out.push(san.san.to_string()),
            scan::Found::Unreadable { text, .. } => out.push(text),
            // Shown as the token where the moves stop being readable.
            scan::Found::Unclosed { .. } => {
                out.push("(".into());
                return out;
            }
            scan::Found::End => return out,
        }
    }
}

/// How a draw offer is written (Appendix C) in a PGN comment.
pub const DRAW_OFFER_COMMENT: &str = "(=)";

/// Tags written from the record itself; never kept in `Tags::extra`.
const OWN_TAGS: [&str; 12] = [
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
    "EndReason",
    "DrawOfferPending",
];

/// A PGN tag value: backslash and quote escaped, line breaks and other
/// control characters (not allowed in a tag) as spaces.
pub fn escape_tag(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    for c in value.chars() {
        match c {
            '"' | '\\' => {
                out.push('\\');
                out.push(c);
            }
            c if c.is_control() => out.push(' '),
            c => out.push(c),
        }
    }
    out
}

/// A clock reading or game time for `[%clk]` / `[%at]`: `1:29:50`; with
/// `millis`, `0:04:59.250` when the milliseconds are not zero (otherwise
/// they are dropped, as tournament software writes whole seconds).
pub fn clock_text(ms: u64, millis: bool) -> String {
    let s = ms / 1000;
    let base = format!("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60);
    match ms % 1000 {
        frac if millis && frac != 0 => format!("{base}.{frac:03}"),
        _ => base,
    }
}

/// Reads `h:mm:ss`, `m:ss` or either with a fraction (`.5`, `.250`) back
/// into milliseconds.
pub fn parse_clock_text(text: &str) -> Option<u64> {
    let text = text.trim();
    let (hms, frac) = text.split_once('.').unwrap_or((text, ""));
    let parts: Vec<&str> = hms.split(':').collect();
    if parts.len() > 3 {
        return None;
    }
    let mut total: u64 = 0;
    for (i, part) in parts.iter().enumerate() {
        if part.is_empty() || !part.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        let value: u64 = part.parse().ok()?;
        if i > 0 && value >= 60 {
            return None;
        }
        total = total.checked_mul(60)?.checked_add(value)?;
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

/// The `EndReason` tag's value for a reason.
fn end_reason_code(reason: EndReason) -> &'static str {
    reason.into()
}

fn end_reason_from_code(code: &str) -> Option<EndReason> {
    code.trim().parse().ok()
}

fn side_code(color: Color) -> &'static str {
    match color {
        Color::White => "white",
        Color::Black => "black",
    }
}

fn side_from_code(text: &str) -> Option<Color> {
    match text.trim().to_ascii_lowercase().as_str() {
        "white" => Some(Color::White),
        "black" => Some(Color::Black),
        _ => None,
    }
}

/// `2025.06.01`, the PGN `Date` tag for a calendar date.
pub fn pgn_date(date: jiff::civil::Date) -> String {
    date.strftime("%Y.%m.%d").to_string()
}

/// The calendar date of a PGN `Date` tag, when all of it is known.
pub fn parse_pgn_date(text: &str) -> Option<jiff::civil::Date> {
    jiff::civil::Date::strptime("%Y.%m.%d", text.trim()).ok()
}

/// `20250601-143005` (UTC), for file names.
pub fn compact_stamp(time: jiff::Timestamp) -> String {
    time.strftime("%Y%m%d-%H%M%S").to_string()
}

/// Gives a replayed record the result the file states, with its reason
/// where the record can reach it, otherwise as recorded.
pub(crate) fn apply_end(record: &mut GameRecord, outcome: KnownOutcome, reason: Option<EndReason>) {
    let loser = match outcome {
        KnownOutcome::Decisive { winner } => Some(!winner),
        KnownOutcome::Draw => None,
    };
    match (reason, loser) {
        (Some(EndReason::Resignation), Some(loser)) => record.resign(loser),
        (Some(EndReason::AgreedDraw), None) => record.agree_draw(),
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
        record.record_result(outcome);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clock_text_round_trips() {
        for ms in [0, 999, 1000, 59_999, 5_400_000, 5_421_250, 36_000_001] {
            assert_eq!(parse_clock_text(&clock_text(ms, true)), Some(ms));
        }
        assert_eq!(clock_text(5_399_999, false), "1:29:59");
        assert_eq!(clock_text(5_399_250, true), "1:29:59.250");
        assert_eq!(parse_clock_text("1:29:50"), Some(5_390_000));
        assert_eq!(parse_clock_text("0:00:09.5"), Some(9_500));
        assert_eq!(parse_clock_text("1:75:00"), None);
        assert_eq!(parse_clock_text("x"), None);
    }

    #[test]
    fn dates() {
        let d = jiff::civil::date(2000, 2, 29);
        assert_eq!(pgn_date(d), "2000.02.29");
        assert_eq!(parse_pgn_date("2000.02.29"), Some(d));
        assert_eq!(parse_pgn_date("2000.??.??"), None);
        assert_eq!(
            compact_stamp(jiff::Timestamp::from_second(1_748_779_199).unwrap()),
            "20250601-115959"
        );
    }

    #[test]
    fn escaping_keeps_a_tag_on_one_line() {
        assert_eq!(escape_tag("a \"b\" \\ c\nd\te"), "a \\\"b\\\" \\\\ c d e");
    }

    #[test]
    fn every_end_reason_has_a_code() {
        for &reason in <EndReason as strum::VariantArray>::VARIANTS {
            assert_eq!(end_reason_from_code(end_reason_code(reason)), Some(reason));
        }
        // The save file's spelling stays.
        assert_eq!(end_reason_code(EndReason::AgreedDraw), "agreed_draw");
        assert_eq!(
            end_reason_code(EndReason::FlagFallOpponentCannotMate),
            "flag_fall_opponent_cannot_mate"
        );
        assert_eq!(
            end_reason_code(EndReason::SeventyFiveMoves),
            "seventy_five_moves"
        );
        assert_eq!(
            end_reason_code(EndReason::ResultAsRecorded),
            "result_as_recorded"
        );
        assert_eq!(end_reason_from_code("nonsense"), None);
    }
}
