//! A printable text scoresheet for the sighted side: header, then two
//! columns (White, Black) with move numbers, in the chosen piece letters.

use std::fmt::Write as _;

use crate::braille::{Labels, Words, local_date};
use crate::chess::{GameRecord, Letters};

/// Marks a move that carried a draw offer (Appendix C).
pub const DRAW_OFFER: &str = "(=)";

fn known(value: &str) -> bool {
    let v = value.trim();
    !v.is_empty() && v.chars().any(|c| c != '?' && c != '.')
}

fn width(s: &str) -> usize {
    s.chars().count()
}

/// The scoresheet as plain text (UTF-8, `\n` line ends); the date in the
/// language's order, as on the Braille sheet.
pub fn text_scoresheet(
    record: &GameRecord,
    letters: Letters,
    labels: &Labels,
    words: &Words,
) -> String {
    let tags = &record.tags;
    let mut out = String::with_capacity(256 + record.moves().len() * 16);
    let mut fields: Vec<(&str, &str)> = Vec::new();
    let date = local_date(&tags.date, &words.date_order, &words.date_separator);
    for (label, value) in [
        (labels.event.as_str(), tags.event.as_str()),
        (labels.site.as_str(), tags.site.as_str()),
        (labels.date.as_str(), date.as_str()),
        (labels.round.as_str(), tags.round.as_str()),
    ] {
        if known(value) {
            fields.push((label, value));
        }
    }
    fields.push((&labels.white, &tags.white));
    fields.push((&labels.black, &tags.black));
    if let Some(tc) = tags.time_control.as_deref().filter(|tc| known(tc)) {
        fields.push((&labels.time_control, tc));
    }
    fields.push((&labels.result, record.result_str()));
    let fen;
    if record.start_position() != &shakmaty::Chess::default() {
        fen = shakmaty::fen::Fen::from_position(
            record.start_position(),
            shakmaty::EnPassantMode::Legal,
        )
        .to_string();
        fields.push((&labels.position, &fen));
    }
    let label_width = fields.iter().map(|(l, _)| width(l)).max().unwrap_or(0) + 1;
    for (label, value) in &fields {
        let _ = writeln!(
            out,
            "{:<label_width$} {}",
            format!("{label}:"),
            value.trim()
        );
    }
    out.push('\n');

    // Rows of (number, white, black).
    let cell = |m: &crate::chess::RecordedMove| {
        let mut written = letters.localise_san(&m.san_string());
        if m.draw_offer {
            written.push(' ');
            written.push_str(DRAW_OFFER);
        }
        written
    };
    let rows: Vec<(u32, String, String)> = record
        .rows()
        .into_iter()
        .map(|row| {
            let white = row.white.map_or_else(|| "...".to_owned(), cell);
            (row.number, white, row.black.map(cell).unwrap_or_default())
        })
        .collect();
    let number_width = rows
        .iter()
        .map(|r| r.0.to_string().len())
        .max()
        .unwrap_or(1)
        .max(width(&labels.move_word));
    let white_width = rows
        .iter()
        .map(|r| width(&r.1))
        .max()
        .unwrap_or(0)
        .max(width(&labels.white))
        + 2;
    let _ = writeln!(
        out,
        "{:>number_width$}  {:<white_width$}{}",
        labels.move_word, labels.white, labels.black
    );
    for (number, white, black) in &rows {
        let line = format!("{number:>number_width$}  {white:<white_width$}{black}");
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out.push('\n');
    out.push_str(record.result_str());
    out.push('\n');
    out
}
