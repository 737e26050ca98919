//! The scoresheet laid out in lines and pages of cells.

use std::fmt;

use shakmaty::{Color, Position};

use super::Cell;
use super::literary;
use super::moves::move_cells;
use super::tables::{ChessCode, LiteraryTable};
use crate::chess::{GameRecord, Tags};

/// Page size in cells and lines.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    pub cols: usize,
    pub rows: usize,
}

impl Default for Layout {
    /// 40 cells by 25 lines, the common embosser page.
    fn default() -> Layout {
        Layout { cols: 40, rows: 25 }
    }
}

/// Pages smaller than this cannot hold a move pair and a page number.
pub const MIN_COLS: usize = 12;
pub const MIN_ROWS: usize = 3;

/// Continuation lines are indented by this many blank cells.
const INDENT: usize = 2;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LayoutError(pub String);

impl fmt::Display for LayoutError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for LayoutError {}

impl Layout {
    pub fn check(self) -> Result<Layout, LayoutError> {
        if self.cols < MIN_COLS {
            return Err(LayoutError(format!(
                "a line needs at least {MIN_COLS} cells (got {})",
                self.cols
            )));
        }
        if self.rows < MIN_ROWS {
            return Err(LayoutError(format!(
                "a page needs at least {MIN_ROWS} lines (got {})",
                self.rows
            )));
        }
        Ok(self)
    }
}

/// A Braille scoresheet: pages of lines of cells. No line is longer than
/// `layout.cols`, no page has more than `layout.rows` lines; the last line
/// of every page carries the page number at its right end.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Scoresheet {
    pub layout: Layout,
    pub pages: Vec<Vec<Vec<Cell>>>,
}

/// Breaks a logical line into lines of at most `cols` cells, at blank cells
/// where possible; continuation lines are indented.
fn wrap(tokens: &[Vec<Cell>], cols: usize, lines: &mut Vec<Vec<Cell>>) {
    let mut line: Vec<Cell> = Vec::with_capacity(cols);
    let mut fresh = true;
    for token in tokens.iter().filter(|t| !t.is_empty()) {
        let mut rest: &[Cell] = token;
        while !rest.is_empty() {
            let gap = usize::from(!fresh);
            if line.len() + gap + rest.len() <= cols {
                if !fresh {
                    line.push(0);
                }
                line.extend_from_slice(rest);
                fresh = false;
                break;
            }
            if fresh {
                // Longer than a whole line: split it hard.
                let room = cols - line.len();
                line.extend_from_slice(&rest[..room]);
                rest = &rest[room..];
            }
            lines.push(std::mem::replace(&mut line, vec![0; INDENT]));
            fresh = true;
        }
    }
    if !line.is_empty() && line.iter().any(|&c| c != 0) {
        lines.push(line);
    }
}

/// Splits cells at blank cells into words.
fn words(cells: &[Cell]) -> Vec<Vec<Cell>> {
    cells
        .split(|&c| c == 0)
        .filter(|w| !w.is_empty())
        .map(<[Cell]>::to_vec)
        .collect()
}

fn known(value: &str) -> bool {
    let v = value.trim();
    !v.is_empty() && v.chars().any(|c| c != '?' && c != '.')
}

/// The known part of a PGN date: `1858.??.??` is written `1858`.
pub fn known_date(date: &str) -> &str {
    let mut known = date.trim();
    while let Some(rest) = known
        .strip_suffix(".??")
        .or_else(|| known.strip_suffix(".????"))
    {
        known = rest;
    }
    known
}

fn header_lines(
    tags: &Tags,
    result: &str,
    table: &LiteraryTable,
    cols: usize,
    lines: &mut Vec<Vec<Cell>>,
) {
    let l = &table.labels;
    let mut fields: Vec<(&str, &str)> = Vec::new();
    let date = known_date(&tags.date);
    for (label, value) in [
        (l.event.as_str(), tags.event.as_str()),
        (l.site.as_str(), tags.site.as_str()),
        (l.date.as_str(), date),
        (l.round.as_str(), tags.round.as_str()),
    ] {
        if known(value) {
            fields.push((label, value));
        }
    }
    fields.push((&l.white, &tags.white));
    fields.push((&l.black, &tags.black));
    if let Some(tc) = tags.time_control.as_deref().filter(|tc| known(tc)) {
        fields.push((&l.time_control, tc));
    }
    fields.push((&l.result, result));
    for (label, value) in fields {
        let cells = literary::to_cells(table, &format!("{label}: {}", value.trim()));
        wrap(&words(&cells), cols, lines);
    }
}

fn move_lines(record: &GameRecord, code: &ChessCode, cols: usize, lines: &mut Vec<Vec<Cell>>) {
    let moves = record.moves();
    let mut i = 0;
    while i < moves.len() {
        let mut tokens: Vec<Vec<Cell>> = Vec::with_capacity(5);
        let mut number = Vec::new();
        code.number(record.fullmove_number_of(i), &mut number);
        tokens.push(number);
        let black_first = record.position_before(i).turn() == Color::Black;
        if black_first {
            tokens.push(code.black_starts.clone());
        }
        let plies = if black_first { 1 } else { 2 };
        for m in moves.iter().skip(i).take(plies) {
            let mut cells = Vec::with_capacity(8);
            move_cells(code, m, &mut cells);
            tokens.push(cells);
            if m.draw_offer {
                tokens.push(code.draw_offer.clone());
            }
            i += 1;
        }
        wrap(&tokens, cols, lines);
    }
}

fn result_cells<'c>(record: &GameRecord, code: &'c ChessCode) -> &'c [Cell] {
    match record.result_str() {
        "1-0" => &code.result_white,
        "0-1" => &code.result_black,
        "1/2-1/2" => &code.result_draw,
        _ => &code.result_unfinished,
    }
}

/// Lays out a game: the header in literary Braille, a blank line, one move
/// pair per line with its number, the result; paginated with page numbers.
pub fn scoresheet(
    record: &GameRecord,
    code: &ChessCode,
    table: &LiteraryTable,
    layout: Layout,
) -> Result<Scoresheet, LayoutError> {
    let layout = layout.check()?;
    let cols = layout.cols;
    let mut lines: Vec<Vec<Cell>> = Vec::with_capacity(record.moves().len() / 2 + 16);
    header_lines(&record.tags, record.result_str(), table, cols, &mut lines);
    lines.push(Vec::new());
    move_lines(record, code, cols, &mut lines);
    lines.push(result_cells(record, code).to_vec());
    Ok(paginate(lines, table, layout))
}

fn page_number_line(n: usize, table: &LiteraryTable, cols: usize) -> Vec<Cell> {
    let number = literary::to_cells(table, &n.to_string());
    let mut line = vec![0; cols.saturating_sub(number.len())];
    line.extend_from_slice(&number);
    line
}

fn paginate(lines: Vec<Vec<Cell>>, table: &LiteraryTable, layout: Layout) -> Scoresheet {
    let body = layout.rows - 1;
    let mut pages: Vec<Vec<Vec<Cell>>> = Vec::new();
    let mut page: Vec<Vec<Cell>> = Vec::with_capacity(layout.rows);
    let finish = |page: &mut Vec<Vec<Cell>>, pages: &mut Vec<Vec<Vec<Cell>>>| {
        page.resize(body, Vec::new());
        page.push(page_number_line(pages.len() + 1, table, layout.cols));
        pages.push(std::mem::take(page));
    };
    for line in lines {
        if page.len() == body {
            finish(&mut page, &mut pages);
        }
        // A page does not start with a blank line.
        if line.is_empty() && page.is_empty() && !pages.is_empty() {
            continue;
        }
        page.push(line);
    }
    if !page.is_empty() || pages.is_empty() {
        finish(&mut page, &mut pages);
    }
    for line in pages.iter_mut().flatten() {
        while line.last() == Some(&0) {
            line.pop();
        }
    }
    Scoresheet { layout, pages }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wrap_keeps_within_width_and_indents() {
        let tokens: Vec<Vec<Cell>> = vec![vec![1; 5], vec![2; 5], vec![3; 5]];
        let mut lines = Vec::new();
        wrap(&tokens, 12, &mut lines);
        assert_eq!(
            lines,
            vec![
                vec![1, 1, 1, 1, 1, 0, 2, 2, 2, 2, 2],
                vec![0, 0, 3, 3, 3, 3, 3]
            ]
        );
        let mut lines = Vec::new();
        wrap(&[vec![7; 30]], 12, &mut lines);
        assert!(lines.iter().all(|l| l.len() <= 12), "{lines:?}");
        assert_eq!(lines.iter().flatten().filter(|&&c| c == 7).count(), 30);
    }

    #[test]
    fn partial_dates_keep_their_known_part() {
        assert_eq!(known_date("1858.??.??"), "1858");
        assert_eq!(known_date("1912.10.??"), "1912.10");
        assert_eq!(known_date("2024.05.17"), "2024.05.17");
        assert!(!known(known_date("????.??.??")));
    }

    #[test]
    fn tiny_pages_are_refused() {
        assert!(Layout { cols: 5, rows: 25 }.check().is_err());
        assert!(Layout { cols: 40, rows: 2 }.check().is_err());
    }
}
