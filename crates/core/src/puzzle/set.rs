//! The puzzle set: rows of the Lichess puzzle database's CSV (PuzzleId,
//! FEN, Moves, Rating, RatingDeviation, Popularity, NbPlays, Themes,
//! GameUrl, OpeningTags). The FEN is the position before the opponent's
//! move; the first move of the line is the opponent's, then the solution
//! alternates, the player's move last.

use shakmaty::fen::Fen;
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, Color, EnPassantMode, Move, Position};

/// The set shipped with the app (`assets/puzzles/`, checked by
/// `scripts/check-puzzles`).
const BUNDLED: &str = include_str!("../../../../assets/puzzles/lichess-puzzles.csv");

/// One puzzle, as the database has it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Puzzle {
    pub id: String,
    /// The position before the opponent's first move.
    pub fen: String,
    /// The opponent's first move, then the solution.
    pub moves: Vec<UciMove>,
    pub rating: u32,
    pub rating_deviation: u32,
    pub themes: Vec<String>,
    pub game_url: String,
}

/// A row that is not a puzzle.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PuzzleError {
    #[error("the puzzle file has no header with {0}")]
    MissingColumn(&'static str),
    #[error("line {line}: {reason}")]
    Row { line: usize, reason: String },
}

impl Puzzle {
    /// The position before the opponent's first move.
    pub fn start(&self) -> Result<Chess, String> {
        let fen: Fen = self.fen.parse().map_err(|e| format!("FEN: {e}"))?;
        fen.into_position(CastlingMode::Standard)
            .map_err(|e| format!("FEN: {e}"))
    }

    /// Every move of the line, legal in turn, with the position before it.
    pub fn line(&self) -> Result<Vec<(Chess, Move)>, String> {
        let mut pos = self.start()?;
        let mut out = Vec::with_capacity(self.moves.len());
        for (i, uci) in self.moves.iter().enumerate() {
            let mv = uci
                .to_move(&pos)
                .map_err(|_| format!("move {} ({uci}) is illegal", i + 1))?;
            out.push((pos.clone(), mv));
            pos.play_unchecked(mv);
        }
        Ok(out)
    }

    /// The side the player solves for (the one not moving first).
    pub fn player(&self) -> Color {
        self.start().map(|p| !p.turn()).unwrap_or(Color::White)
    }

    /// The position the player solves from, after the opponent's move.
    pub fn solving_fen(&self) -> String {
        match self.line() {
            Ok(line) => {
                let (mut pos, mv) = line[0].clone();
                pos.play_unchecked(mv);
                Fen::from_position(&pos, EnPassantMode::Legal).to_string()
            }
            Err(_) => self.fen.clone(),
        }
    }

    /// N of a "mateInN" theme.
    pub fn mate_in(&self) -> Option<u32> {
        self.themes
            .iter()
            .find_map(|t| t.strip_prefix("mateIn")?.parse().ok())
    }

    /// Whether the puzzle has a theme of this name (Lichess's names,
    /// case and punctuation ignored: "mateIn2", "mate-in-2", "Fork").
    pub fn has_theme(&self, name: &str) -> bool {
        let want = theme_key(name);
        self.themes.iter().any(|t| theme_key(t) == want)
    }

    /// The line as UCI strings ("e2e4 e7e5").
    pub fn moves_uci(&self) -> Vec<String> {
        self.moves.iter().map(ToString::to_string).collect()
    }
}

/// A theme name compared without case or punctuation.
pub fn theme_key(name: &str) -> String {
    name.chars()
        .filter(char::is_ascii_alphanumeric)
        .map(|c| c.to_ascii_lowercase())
        .collect()
}

/// The whole set.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PuzzleSet {
    puzzles: Vec<Puzzle>,
}

impl PuzzleSet {
    /// The set shipped with the app.
    pub fn bundled() -> PuzzleSet {
        PuzzleSet::parse(BUNDLED).expect("the bundled puzzle set is checked by its test")
    }

    /// Parses the CSV (a header naming the columns, then one puzzle a
    /// line; no field is quoted in the Lichess database).
    pub fn parse(text: &str) -> Result<PuzzleSet, PuzzleError> {
        let mut lines = text.lines().enumerate();
        let header: Vec<&str> = lines
            .next()
            .map(|(_, l)| l.trim_end_matches('\r').split(',').collect())
            .unwrap_or_default();
        let col = |name: &'static str| {
            header
                .iter()
                .position(|h| *h == name)
                .ok_or(PuzzleError::MissingColumn(name))
        };
        let (id, fen, moves, rating) =
            (col("PuzzleId")?, col("FEN")?, col("Moves")?, col("Rating")?);
        let (deviation, themes, url) = (col("RatingDeviation")?, col("Themes")?, col("GameUrl")?);
        let mut puzzles = Vec::new();
        for (i, line) in lines {
            let line = line.trim_end_matches('\r');
            if line.is_empty() {
                continue;
            }
            let row = |reason: String| PuzzleError::Row {
                line: i + 1,
                reason,
            };
            if line.contains('"') {
                return Err(row("a quoted field".into()));
            }
            let fields: Vec<&str> = line.split(',').collect();
            let field = |n: usize| fields.get(n).copied().unwrap_or("");
            let number = |n: usize, what: &str| {
                field(n)
                    .parse::<u32>()
                    .map_err(|_| row(format!("{what} is not a number: {:?}", field(n))))
            };
            let moves = field(moves)
                .split_whitespace()
                .map(|m| m.parse::<UciMove>().map_err(|_| row(format!("move {m:?}"))))
                .collect::<Result<Vec<_>, _>>()?;
            let puzzle = Puzzle {
                id: field(id).to_owned(),
                fen: field(fen).to_owned(),
                moves,
                rating: number(rating, "the rating")?,
                rating_deviation: number(deviation, "the rating deviation")?,
                themes: field(themes)
                    .split_whitespace()
                    .map(str::to_owned)
                    .collect(),
                game_url: field(url).to_owned(),
            };
            if puzzle.moves.len() < 2 || !puzzle.moves.len().is_multiple_of(2) {
                return Err(row(format!("a line of {} moves", puzzle.moves.len())));
            }
            puzzle.line().map_err(row)?;
            puzzles.push(puzzle);
        }
        Ok(PuzzleSet { puzzles })
    }

    pub fn puzzles(&self) -> &[Puzzle] {
        &self.puzzles
    }

    pub fn get(&self, id: &str) -> Option<&Puzzle> {
        self.puzzles.iter().find(|p| p.id == id)
    }

    /// Whether any puzzle has this theme.
    pub fn knows_theme(&self, name: &str) -> bool {
        self.puzzles.iter().any(|p| p.has_theme(name))
    }

    /// Every theme with its count, most common first.
    pub fn themes(&self) -> Vec<(String, usize)> {
        let mut counts: std::collections::BTreeMap<&str, usize> = Default::default();
        for t in self.puzzles.iter().flat_map(|p| &p.themes) {
            *counts.entry(t).or_default() += 1;
        }
        let mut out: Vec<(String, usize)> =
            counts.into_iter().map(|(t, n)| (t.to_owned(), n)).collect();
        out.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SAMPLE: &str = "PuzzleId,FEN,Moves,Rating,RatingDeviation,Popularity,NbPlays,Themes,GameUrl,OpeningTags
000rZ,2kr1b1r/p1p2pp1/2pqb3/7p/3N2n1/2NPB3/PPP2PPP/R2Q1RK1 w - - 2 13,d4e6 d6h2,633,93,100,616,kingsideAttack mate mateIn1 oneMove opening,https://lichess.org/seIMDWkD#25,Scandinavian_Defense
";

    #[test]
    fn a_row_keeps_id_line_rating_and_themes() {
        let set = PuzzleSet::parse(SAMPLE).unwrap();
        let p = &set.puzzles()[0];
        assert_eq!(p.id, "000rZ");
        assert_eq!(p.moves_uci(), ["d4e6", "d6h2"]);
        assert_eq!(p.rating, 633);
        assert_eq!(p.player(), Color::Black);
        assert_eq!(p.mate_in(), Some(1));
        assert!(p.has_theme("MATE-IN-1") && p.has_theme("opening") && !p.has_theme("fork"));
        assert_eq!(
            p.solving_fen(),
            "2kr1b1r/p1p2pp1/2pqN3/7p/6n1/2NPB3/PPP2PPP/R2Q1RK1 b - - 0 13"
        );
    }

    #[test]
    fn a_bad_row_is_refused_with_its_line() {
        let bad = SAMPLE.replace("d4e6 d6h2", "d4e6 d6h3");
        assert!(matches!(
            PuzzleSet::parse(&bad),
            Err(PuzzleError::Row { line: 2, .. })
        ));
        assert_eq!(
            PuzzleSet::parse("a,b\n"),
            Err(PuzzleError::MissingColumn("PuzzleId"))
        );
    }

    #[test]
    fn the_bundled_set_parses_and_spans_the_ratings() {
        let set = PuzzleSet::bundled();
        assert!(set.puzzles().len() > 2000, "{}", set.puzzles().len());
        assert!(
            set.puzzles()
                .iter()
                .all(|p| (600..=2400).contains(&p.rating))
        );
        for theme in ["mateIn1", "mateIn2", "mateIn3", "fork", "pin", "endgame"] {
            assert!(set.knows_theme(theme), "{theme}");
        }
    }
}
