//! The scoresheet laid out in lines and pages of cells.

use shakmaty::{Color, Position};

use shakmaty::{Board, Role, Square};

use super::moves::{Coding, move_cells};
use super::tables::{ChessCode, LiteraryTable};
use super::{Cell, Translator};
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

/// A page too small for a scoresheet.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LayoutError {
    #[error("a line needs at least {MIN_COLS} cells (got {0})")]
    TooFewCells(usize),
    #[error("a page needs at least {MIN_ROWS} lines (got {0})")]
    TooFewLines(usize),
}

impl Layout {
    pub fn check(self) -> Result<Layout, LayoutError> {
        if self.cols < MIN_COLS {
            return Err(LayoutError::TooFewCells(self.cols));
        }
        if self.rows < MIN_ROWS {
            return Err(LayoutError::TooFewLines(self.rows));
        }
        Ok(self)
    }
}

/// What the user chose for a Braille scoresheet.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SheetOptions {
    pub layout: Layout,
    pub coding: Coding,
    /// A first page listing the signs used (on by default).
    pub legend: bool,
    /// A diagram of the starting position (as well as the piece list) for a
    /// game that does not start from the usual position.
    pub diagram: bool,
}

impl Default for SheetOptions {
    fn default() -> SheetOptions {
        SheetOptions {
            layout: Layout::default(),
            coding: Coding::Full,
            legend: true,
            diagram: false,
        }
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
/// where possible; continuation lines are indented. A word longer than a
/// line is split with `hyphen` at the end of each part.
pub(super) fn wrap(tokens: &[Vec<Cell>], cols: usize, hyphen: &[Cell], lines: &mut Vec<Vec<Cell>>) {
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
                // Longer than a whole line: split it, with a hyphen.
                let room = cols - line.len() - hyphen.len();
                line.extend_from_slice(&rest[..room]);
                line.extend_from_slice(hyphen);
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
pub(super) fn words(cells: &[Cell]) -> Vec<Vec<Cell>> {
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

/// The known part of a PGN date in the language's order (`dmy`, `mdy` or
/// `ymd`) and separator: `2024.05.17` is `17.05.2024` in German; a partial
/// date keeps its known parts in the same order (`10.1912`).
pub fn local_date(date: &str, order: &str, separator: &str) -> String {
    let parts: Vec<&str> = known_date(date).split('.').collect();
    let (y, m, d) = (parts.first(), parts.get(1), parts.get(2));
    let ordered = match order {
        "dmy" => [d, m, y],
        "mdy" => [m, d, y],
        _ => [y, m, d],
    };
    ordered
        .into_iter()
        .flatten()
        .copied()
        .collect::<Vec<_>>()
        .join(separator)
}

/// The cells of a square in the chess code (file letter, lower-cell digit).
fn square_cells(code: &ChessCode, square: Square, out: &mut Vec<Cell>) {
    out.extend_from_slice(&code.files[square.file().to_usize()]);
    out.extend_from_slice(&code.digits[square.rank().to_usize() + 1]);
}

/// The pieces of one colour as chess-code tokens, king first, pawns last.
fn piece_list(code: &ChessCode, board: &Board, color: shakmaty::Color) -> Vec<Vec<Cell>> {
    let mut tokens = Vec::new();
    for role in [
        Role::King,
        Role::Queen,
        Role::Rook,
        Role::Bishop,
        Role::Knight,
        Role::Pawn,
    ] {
        for square in board.by_piece(role.of(color)) {
            let mut cells = code.piece(role).to_vec();
            square_cells(code, square, &mut cells);
            tokens.push(cells);
        }
    }
    tokens
}

/// A position diagram: one line per rank from 8 to 1, the rank's digit,
/// then a cell per square: the piece letter, with the black pieces after
/// the black-starts sign (dots 3-6), a blank square as dot 3 on a dark
/// square and dots 1-2-3-4-5-6 never (plain blank cell on a light square).
fn diagram_lines(code: &ChessCode, board: &Board, lines: &mut Vec<Vec<Cell>>) {
    for rank in (0..8u32).rev() {
        let mut line = code.digits[rank as usize + 1].clone();
        line.push(0);
        for file in 0..8u32 {
            let square = Square::new(rank * 8 + file);
            match board.piece_at(square) {
                Some(piece) => {
                    if piece.color == shakmaty::Color::Black {
                        line.extend_from_slice(&code.black_starts);
                    }
                    match piece.role {
                        Role::Pawn => line.extend_from_slice(&code.pawn_diagram),
                        role => line.extend_from_slice(code.piece(role)),
                    }
                }
                None if (rank + file) % 2 == 0 => line.extend_from_slice(&code.dark_square),
                None => line.extend_from_slice(&code.light_square),
            }
        }
        lines.push(line);
    }
    let mut files = vec![0, 0];
    for f in &code.files {
        files.extend_from_slice(f);
    }
    lines.push(files);
}

pub(super) struct Sheet<'a> {
    code: &'a ChessCode,
    table: &'a LiteraryTable,
    literary: &'a dyn Translator,
    options: SheetOptions,
    hyphen: Vec<Cell>,
    pub(super) lines: Vec<Vec<Cell>>,
}

impl<'a> Sheet<'a> {
    pub(super) fn new(
        code: &'a ChessCode,
        table: &'a LiteraryTable,
        literary: &'a dyn Translator,
        options: SheetOptions,
    ) -> Sheet<'a> {
        Sheet {
            code,
            table,
            literary,
            options,
            hyphen: literary.translate("-"),
            lines: Vec::new(),
        }
    }

    /// One game without its legend: the header, a blank line, the moves,
    /// the result.
    pub(super) fn game(&mut self, record: &GameRecord) {
        self.header(record);
        self.lines.push(Vec::new());
        self.moves(record);
        let result = self.result_text(record).to_owned();
        self.text(&result);
    }

    /// A line of print text in literary Braille, wrapped.
    pub(super) fn text(&mut self, text: &str) {
        let cells = self.literary.translate(text);
        wrap(
            &words(&cells),
            self.options.layout.cols,
            &self.hyphen,
            &mut self.lines,
        );
    }

    /// A label in literary Braille, then chess-code tokens, wrapped.
    fn labelled(&mut self, label: &str, tokens: Vec<Vec<Cell>>) {
        let mut all = words(&self.literary.translate(&format!("{label}:")));
        all.extend(tokens);
        wrap(
            &all,
            self.options.layout.cols,
            &self.hyphen,
            &mut self.lines,
        );
    }

    pub(super) fn result_text(&self, record: &GameRecord) -> &str {
        let w = &self.table.words;
        match record.result_str() {
            "1-0" => &w.white_wins,
            "0-1" => &w.black_wins,
            "1/2-1/2" => &w.draw,
            _ => &w.unfinished,
        }
    }

    fn header(&mut self, record: &GameRecord) {
        let tags: &Tags = &record.tags;
        let l = self.table.labels.clone();
        let w = &self.table.words;
        let date = local_date(&tags.date, &w.date_order, &w.date_separator);
        for (label, value) in [
            (&l.event, tags.event.as_str()),
            (&l.site, tags.site.as_str()),
            (&l.date, date.as_str()),
            (&l.round, tags.round.as_str()),
        ] {
            if known(value) {
                self.text(&format!("{label}: {}", value.trim()));
            }
        }
        self.text(&format!("{}: {}", l.white, tags.white.trim()));
        self.text(&format!("{}: {}", l.black, tags.black.trim()));
        if let Some(tc) = tags.time_control.as_deref().filter(|tc| known(tc)) {
            self.text(&format!("{}: {}", l.time_control, tc.trim()));
        }
        let result = self.result_text(record).to_owned();
        self.text(&format!("{}: {result}", l.result));
        let start = record.start_position();
        if start.board() != &Board::default() || start.turn() == shakmaty::Color::Black {
            let to_move = match start.turn() {
                shakmaty::Color::White => &l.to_move_white,
                shakmaty::Color::Black => &l.to_move_black,
            };
            self.text(&format!("{}: {to_move}", l.position));
            let board = start.board().clone();
            self.labelled(
                &l.white,
                piece_list(self.code, &board, shakmaty::Color::White),
            );
            self.labelled(
                &l.black,
                piece_list(self.code, &board, shakmaty::Color::Black),
            );
            if self.options.diagram {
                diagram_lines(self.code, &board, &mut self.lines);
            }
        }
    }

    fn moves(&mut self, record: &GameRecord) {
        let code = self.code;
        let moves = record.moves();
        let draw_offer = self.literary.translate(&self.table.words.draw_offer);
        let mut i = 0;
        while i < moves.len() {
            let mut tokens: Vec<Vec<Cell>> = Vec::with_capacity(5);
            let mut number = Vec::new();
            code.number(record.fullmove_number_of(i), &mut number);
            tokens.push(number);
            let black_first = record.position_before(i).turn() == Color::Black;
            let plies = if black_first { 1 } else { 2 };
            for m in moves.iter().skip(i).take(plies) {
                let mut cells = Vec::with_capacity(8);
                if black_first {
                    cells.extend_from_slice(&code.black_starts);
                }
                move_cells(
                    code,
                    &m.san,
                    m.mv.is_en_passant(),
                    self.options.coding,
                    &mut cells,
                );
                tokens.push(cells);
                if m.draw_offer {
                    tokens.push(draw_offer.clone());
                }
                i += 1;
            }
            wrap(
                &tokens,
                self.options.layout.cols,
                &self.hyphen,
                &mut self.lines,
            );
        }
    }

    /// The legend: one line per sign, the sign then its meaning.
    pub(super) fn legend(&mut self, record: &GameRecord) {
        let code = self.code;
        let lg = self.table.legend.clone();
        self.text(&lg.title);
        let entry = |sheet: &mut Self, cells: &[Cell], meaning: &str| {
            if cells.is_empty() {
                return;
            }
            let mut tokens = vec![cells.to_vec()];
            tokens.extend(words(&sheet.literary.translate(meaning)));
            wrap(
                &tokens,
                sheet.options.layout.cols,
                &sheet.hyphen,
                &mut sheet.lines,
            );
        };
        for (role, name) in [
            (Role::King, &lg.king),
            (Role::Queen, &lg.queen),
            (Role::Rook, &lg.rook),
            (Role::Bishop, &lg.bishop),
            (Role::Knight, &lg.knight),
        ] {
            entry(self, code.piece(role), name);
        }
        entry(self, &code.indicator, &lg.indicator);
        if self.options.coding == Coding::Full {
            entry(self, &code.capture, &lg.capture);
            entry(self, &code.check, &lg.check);
            entry(self, &code.capture_check, &lg.capture_check);
        }
        entry(self, &code.mate, &lg.mate);
        entry(self, &code.castle_short, &lg.castle_short);
        entry(self, &code.castle_long, &lg.castle_long);
        entry(self, &code.en_passant, &lg.en_passant);
        let draw_offer = self.literary.translate(&self.table.words.draw_offer);
        if record.moves().iter().any(|m| m.draw_offer) {
            entry(self, &draw_offer, &lg.draw_offer);
        }
        entry(self, &code.black_starts, &lg.black_starts);
        let unfinished = self.literary.translate(&self.table.words.unfinished);
        entry(self, &unfinished, &lg.unfinished);
    }
}

/// Lays out a game: optionally a legend page, the header in literary
/// Braille (with the starting position when it is not the usual one), a
/// blank line, one move pair per line with its number, the result;
/// paginated with page numbers.
pub fn scoresheet(
    record: &GameRecord,
    code: &ChessCode,
    table: &LiteraryTable,
    literary: &dyn Translator,
    options: SheetOptions,
) -> Result<Scoresheet, LayoutError> {
    let layout = options.layout.check()?;
    let mut sheet = Sheet::new(code, table, literary, options);
    let mut legend_lines = Vec::new();
    if options.legend {
        sheet.legend(record);
        legend_lines = std::mem::take(&mut sheet.lines);
    }
    sheet.game(record);
    let mut pages = Vec::new();
    if !legend_lines.is_empty() {
        pages = paginate(legend_lines, literary, layout, 0, &[]);
    }
    let first = pages.len();
    pages.extend(paginate(sheet.lines, literary, layout, first, &[]));
    Ok(Scoresheet { layout, pages })
}

fn page_number_line(n: usize, literary: &dyn Translator, cols: usize) -> Vec<Cell> {
    let number = literary.translate(&n.to_string());
    let mut line = vec![0; cols.saturating_sub(number.len())];
    line.extend_from_slice(&number);
    line
}

/// Pages of `layout.rows` lines: `rows - 1` lines of text, the last line
/// carries the page number at its right end. Numbers continue from
/// `before` pages. A `running` header (not empty) is the first line of
/// every page.
pub(super) fn paginate(
    lines: Vec<Vec<Cell>>,
    literary: &dyn Translator,
    layout: Layout,
    before: usize,
    running: &[Cell],
) -> Vec<Vec<Vec<Cell>>> {
    let top = usize::from(!running.is_empty());
    let body = layout.rows - 1;
    let mut pages: Vec<Vec<Vec<Cell>>> = Vec::new();
    let mut page: Vec<Vec<Cell>> = Vec::with_capacity(layout.rows);
    let start = |page: &mut Vec<Vec<Cell>>| {
        if top == 1 {
            page.push(running[..running.len().min(layout.cols)].to_vec());
        }
    };
    start(&mut page);
    let finish = |page: &mut Vec<Vec<Cell>>, pages: &mut Vec<Vec<Vec<Cell>>>| {
        page.resize(body, Vec::new());
        page.push(page_number_line(
            before + pages.len() + 1,
            literary,
            layout.cols,
        ));
        pages.push(std::mem::take(page));
    };
    for line in lines {
        if page.len() == body {
            finish(&mut page, &mut pages);
            start(&mut page);
        }
        // A page does not start with a blank line.
        if line.is_empty() && page.len() == top && !pages.is_empty() {
            continue;
        }
        page.push(line);
    }
    if page.len() > top || pages.is_empty() {
        finish(&mut page, &mut pages);
    }
    for line in pages.iter_mut().flatten() {
        while line.last() == Some(&0) {
            line.pop();
        }
    }
    pages
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wrap_keeps_within_width_and_indents() {
        let tokens: Vec<Vec<Cell>> = vec![vec![1; 5], vec![2; 5], vec![3; 5]];
        let mut lines = Vec::new();
        wrap(&tokens, 12, &[36], &mut lines);
        assert_eq!(
            lines,
            vec![
                vec![1, 1, 1, 1, 1, 0, 2, 2, 2, 2, 2],
                vec![0, 0, 3, 3, 3, 3, 3]
            ]
        );
        let mut lines = Vec::new();
        wrap(&[vec![7; 30]], 12, &[36], &mut lines);
        assert!(lines.iter().all(|l| l.len() <= 12), "{lines:?}");
        assert_eq!(lines.iter().flatten().filter(|&&c| c == 7).count(), 30);
        assert_eq!(lines[0].last(), Some(&36), "a split word ends in a hyphen");
    }

    #[test]
    fn partial_dates_keep_their_known_part() {
        assert_eq!(known_date("1858.??.??"), "1858");
        assert_eq!(known_date("1912.10.??"), "1912.10");
        assert_eq!(known_date("2024.05.17"), "2024.05.17");
        assert!(!known(known_date("????.??.??")));
        assert_eq!(local_date("2024.05.17", "dmy", "."), "17.05.2024");
        assert_eq!(local_date("1912.10.??", "dmy", "/"), "10/1912");
        assert_eq!(local_date("2024.05.17", "ymd", "-"), "2024-05-17");
    }

    #[test]
    fn tiny_pages_are_refused() {
        assert!(Layout { cols: 5, rows: 25 }.check().is_err());
        assert!(Layout { cols: 40, rows: 2 }.check().is_err());
    }
}
