//! A Braille book of several games (a whole event): the legend once, a
//! contents page (each game's number, players, result and first page),
//! then every game from a page of its own; the event's name runs at the
//! top of every page after the legend, the page numbers at the bottom
//! run through the book.

use super::layout::{Layout, LayoutError, Scoresheet, Sheet, SheetOptions, paginate, words, wrap};
use super::tables::{ChessCode, LiteraryTable};
use super::{Cell, Translator};
use crate::chess::GameRecord;

/// Lays out `records` as one book. An empty list is a book of its contents
/// page alone.
pub fn book(
    records: &[GameRecord],
    code: &ChessCode,
    table: &LiteraryTable,
    literary: &dyn Translator,
    options: SheetOptions,
) -> Result<Scoresheet, LayoutError> {
    let layout = options.layout.check()?;
    let running = running_header(records, literary, layout);
    let mut pages = Vec::new();
    if options.legend {
        // One legend for the book: the draw offer's sign is listed when any
        // game has one.
        let mut sheet = Sheet::new(code, table, literary, options);
        let sample = records
            .iter()
            .find(|r| r.moves().iter().any(|m| m.draw_offer))
            .or(records.first());
        if let Some(record) = sample {
            sheet.legend(record);
            pages = paginate(sheet.lines, literary, layout, 0, &[]);
        }
    }
    let games: Vec<Vec<Vec<Vec<Cell>>>> = records
        .iter()
        .map(|record| {
            let mut sheet = Sheet::new(code, table, literary, options);
            sheet.game(record);
            // Laid out from page 1: only the count of pages is used here,
            // they are paginated again below with their real numbers.
            paginate(sheet.lines, literary, layout, 0, &running)
        })
        .collect();
    // The contents give each game's first page, which depends on how many
    // pages the contents take: settled when a pass changes nothing (the
    // numbers only grow, so this ends within a few passes).
    let before = pages.len();
    let mut contents_pages = 1;
    let contents = loop {
        let mut first = before + contents_pages + 1;
        let mut starts = Vec::with_capacity(games.len());
        for game in &games {
            starts.push(first);
            first += game.len();
        }
        let lines = contents_lines(records, &starts, code, table, literary, options);
        let laid = paginate(lines, literary, layout, before, &running);
        if laid.len() == contents_pages {
            break laid;
        }
        contents_pages = laid.len();
    };
    pages.extend(contents);
    for record in records {
        let mut sheet = Sheet::new(code, table, literary, options);
        sheet.game(record);
        let first = pages.len();
        pages.extend(paginate(sheet.lines, literary, layout, first, &running));
    }
    Ok(Scoresheet { layout, pages })
}

/// The event's name (of the first game that has one) as the line at the
/// top of every page; none when no game names its event.
fn running_header(records: &[GameRecord], literary: &dyn Translator, layout: Layout) -> Vec<Cell> {
    let Some(event) = records
        .iter()
        .map(|r| r.tags.event.trim())
        .find(|e| !e.is_empty() && e.chars().any(|c| c != '?'))
    else {
        return Vec::new();
    };
    // Cut at a word when it is longer than a line.
    let mut lines = Vec::new();
    wrap(
        &words(&literary.translate(event)),
        layout.cols,
        &literary.translate("-"),
        &mut lines,
    );
    lines.into_iter().next().unwrap_or_default()
}

/// The contents: its title, then a line per game, "3. White - Black, 1-0",
/// with the page its game begins on at the right end of the entry's last
/// line.
fn contents_lines(
    records: &[GameRecord],
    starts: &[usize],
    code: &ChessCode,
    table: &LiteraryTable,
    literary: &dyn Translator,
    options: SheetOptions,
) -> Vec<Vec<Cell>> {
    let cols = options.layout.cols;
    let hyphen = literary.translate("-");
    let mut lines = Vec::new();
    wrap(
        &words(&literary.translate(&table.book.contents)),
        cols,
        &hyphen,
        &mut lines,
    );
    lines.push(Vec::new());
    let results = Sheet::new(code, table, literary, options);
    for (i, (record, start)) in records.iter().zip(starts).enumerate() {
        let t = &record.tags;
        let entry = format!(
            "{}. {} - {}, {}",
            i + 1,
            t.white.trim(),
            t.black.trim(),
            results.result_text(record)
        );
        let page = literary.translate(&start.to_string());
        let mut entry_lines = Vec::new();
        wrap(
            &words(&literary.translate(&entry)),
            cols,
            &hyphen,
            &mut entry_lines,
        );
        let last = entry_lines.last_mut().expect("an entry has words");
        if last.len() + 1 + page.len() <= cols {
            last.resize(cols - page.len(), 0);
            last.extend_from_slice(&page);
        } else {
            let mut line = vec![0; cols - page.len()];
            line.extend_from_slice(&page);
            entry_lines.push(line);
        }
        lines.extend(entry_lines);
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::words::Lang;

    /// Print as cells one to one (a letter's byte as its dots): enough to
    /// find the layout's pieces again.
    struct Plain;

    impl Translator for Plain {
        fn translate(&self, text: &str) -> Vec<Cell> {
            text.bytes()
                .map(|b| if b == b' ' { 0 } else { b })
                .collect()
        }
        fn language(&self) -> &str {
            "en"
        }
    }

    fn text(line: &[Cell]) -> String {
        line.iter()
            .map(|&c| if c == 0 { ' ' } else { char::from(c) })
            .collect()
    }

    /// 120 games on small pages: the contents take several pages and the
    /// page numbers grow a digit while they are laid out; every entry
    /// still names the page its game begins on.
    #[test]
    fn the_contents_name_each_games_page_however_long_they_grow() {
        let mut records = Vec::new();
        for i in 0..120 {
            let mut record = GameRecord::new();
            record.play_sans("e4 e5").unwrap();
            record.tags.white = format!("W{i}");
            record.tags.black = format!("B{i}");
            record.tags.event = "Open".into();
            records.push(record);
        }
        let code = ChessCode::bundled(crate::chess::Letters::En);
        let table = LiteraryTable::bundled(Lang::En);
        let options = SheetOptions {
            layout: Layout { cols: 20, rows: 8 },
            legend: false,
            ..SheetOptions::default()
        };
        let book = book(&records, &code, &table, &Plain, options).unwrap();
        let pages: Vec<Vec<String>> = book
            .pages
            .iter()
            .map(|p| p.iter().map(|l| text(l)).collect())
            .collect();
        assert!(pages.iter().all(|p| p[0] == "Open"), "the event on top");
        // Each entry's page: at the end of its line, or of the next line
        // when the entry fills its own.
        // (The body of each page: not the event, not the page number.)
        let lines: Vec<&String> = pages
            .iter()
            .flat_map(|p| &p[1..p.len() - 1])
            .filter(|l| !l.trim().is_empty())
            .collect();
        let entries: Vec<usize> = (0..lines.len())
            .filter(|&i| lines[i].contains(". W"))
            .map(|i| {
                let number = |l: &str| l.rsplit(' ').next().unwrap().parse::<usize>().ok();
                number(lines[i])
                    .or_else(|| number(lines[i + 1]))
                    .expect("a page number")
            })
            .collect();
        assert_eq!(entries.len(), 120);
        for (i, &page) in entries.iter().enumerate() {
            let first = &pages[page - 1];
            assert!(
                first.iter().any(|l| l == &format!("White: W{i}")),
                "entry {} names page {page}: {first:?}",
                i + 1
            );
            assert!(
                !pages[page - 2].iter().any(|l| l == &format!("White: W{i}")),
                "game {} begins on the page named",
                i + 1
            );
        }
        // Numbered through: the last line of page n ends with n.
        for (n, page) in pages.iter().enumerate() {
            assert!(page.last().unwrap().ends_with(&(n + 1).to_string()));
        }
    }
}
