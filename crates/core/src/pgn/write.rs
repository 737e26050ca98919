//! The one PGN writer (export format: tags, a blank line, movetext wrapped
//! under 80 characters with each move number on its move's line, a blank line).

use shakmaty::{Color, Position};

use super::{DRAW_OFFER_COMMENT, OWN_TAGS, clock_text, end_reason_code, escape_tag, side_code};
use crate::chess::GameRecord;

/// The longest line written (PGN 8.2.1: less than 80 characters).
pub const LINE_WIDTH: usize = 79;

/// What goes into the text beyond a plain export.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WriteOptions {
    /// `[%clk]` to the millisecond when not whole seconds.
    pub clock_millis: bool,
    /// Each move's game time as `[%at]`.
    pub at_times: bool,
    /// The `EndReason` tag.
    pub end_reason: bool,
    /// The `DrawOfferPending` tag for an offer not yet attached to a move.
    pub pending_offer: bool,
    /// The `Date` written when the record's date is wholly unknown
    /// (`????.??.??`); the shell passes today's.
    pub date: Option<jiff::civil::Date>,
}

impl WriteOptions {
    /// A plain export, as other chess programs expect it.
    pub const EXPORT: WriteOptions = WriteOptions {
        clock_millis: false,
        at_times: false,
        end_reason: false,
        pending_offer: false,
        date: None,
    };
    /// The save file: everything needed to resume the game exactly.
    pub const SAVE: WriteOptions = WriteOptions {
        clock_millis: true,
        at_times: true,
        end_reason: true,
        pending_offer: true,
        date: None,
    };

    /// The same options, filling an unknown date with `date`.
    pub fn dated(self, date: jiff::civil::Date) -> WriteOptions {
        WriteOptions {
            date: Some(date),
            ..self
        }
    }
}

fn push_tag(out: &mut String, name: &str, value: &str) {
    out.push('[');
    out.push_str(name);
    out.push_str(" \"");
    out.push_str(&escape_tag(value));
    out.push_str("\"]\n");
}

/// A tag name other programs read: letters, digits and `_`.
fn valid_tag_name(name: &str) -> bool {
    !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
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

/// The game as PGN text.
pub fn write(record: &GameRecord, options: &WriteOptions) -> String {
    let tags = &record.tags;
    let mut out = String::with_capacity(512 + record.moves().len() * 24);
    let date = match options.date {
        Some(today) if tags.date_unknown() => super::pgn_date(today),
        _ => tags.date.clone(),
    };
    push_tag(&mut out, "Event", &tags.event);
    push_tag(&mut out, "Site", &tags.site);
    push_tag(&mut out, "Date", &date);
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
        if !OWN_TAGS.contains(&name.as_str()) && valid_tag_name(name) {
            push_tag(&mut out, name, value);
        }
    }
    if options.end_reason
        && let Some(end) = record.end()
    {
        push_tag(&mut out, "EndReason", end_reason_code(end.reason));
    }
    // An offer made before the offerer's move waits for that move.
    if options.pending_offer
        && let Some(color) = record.open_draw_offer()
        && record.last_move().is_none_or(|m| !m.draw_offer)
    {
        push_tag(&mut out, "DrawOfferPending", side_code(color));
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
            comment.push(format!("[%clk {}]", clock_text(ms, options.clock_millis)));
        }
        if options.at_times
            && let Some(ms) = m.at_ms
        {
            comment.push(format!("[%at {}]", clock_text(ms, true)));
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

/// The game as an export PGN ([`WriteOptions::EXPORT`]).
pub fn write_pgn(record: &GameRecord) -> String {
    write(record, &WriteOptions::EXPORT)
}
