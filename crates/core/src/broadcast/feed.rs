//! A broadcast round's PGN stream cut into games (pure): the stream sends
//! every game of the round, then a game's whole PGN again each time it
//! changes (Lichess: `GET /api/stream/broadcast/round/{id}.pgn`, lila's
//! `RelayPgnStream`: the round's PGN dump, then `ofChapter` per changed
//! game). A game ends with its movetext's termination marker (`*`, `1-0`,
//! `0-1`, `1/2-1/2`), which PGN requires; a tag line after movetext also
//! ends the game before it, should a marker be missing.

/// How many lines one game may have: a relay that never ends a game does
/// not grow the feed without bound.
pub const MAX_GAME_LINES: usize = 5000;

/// Lines in, whole games' PGN texts out.
#[derive(Debug, Default)]
pub struct PgnFeed {
    lines: Vec<String>,
    /// A movetext line was seen in the game being read.
    movetext: bool,
    /// Inside a `{...}` comment that spans lines.
    in_comment: bool,
    /// The rest of a dropped game: skipped until the next game's tags.
    skipping: bool,
}

/// What a line did.
#[derive(Debug, PartialEq, Eq)]
pub enum Fed {
    /// Nothing complete yet.
    Nothing,
    /// A game's whole PGN text.
    Game(String),
    /// A game over [`MAX_GAME_LINES`] lines was dropped.
    TooLong,
}

const MARKERS: [&str; 4] = ["*", "1-0", "0-1", "1/2-1/2"];

impl PgnFeed {
    pub fn new() -> PgnFeed {
        PgnFeed::default()
    }

    /// One line of the stream (without its line end).
    pub fn push_line(&mut self, line: &str) -> Fed {
        let line = line.trim_end_matches('\r');
        let trimmed = line.trim();
        if self.skipping {
            if !trimmed.starts_with('[') {
                return Fed::Nothing;
            }
            self.skipping = false;
        }
        let mut out = Fed::Nothing;
        if trimmed.starts_with('[') && !self.in_comment && self.movetext {
            // A new game's tags with no marker before them.
            out = self.take();
        }
        if trimmed.is_empty() && self.lines.is_empty() {
            return out;
        }
        self.lines.push(line.to_owned());
        if self.lines.len() > MAX_GAME_LINES {
            *self = PgnFeed {
                skipping: true,
                ..PgnFeed::default()
            };
            return Fed::TooLong;
        }
        let tag_line = trimmed.starts_with('[') && !self.in_comment;
        if !trimmed.is_empty() && !tag_line {
            self.movetext = true;
            let ends = self.scan(trimmed);
            if ends {
                return self.take();
            }
        }
        out
    }

    /// Follows comments through a movetext line; true when the line ends
    /// with a termination marker outside a comment.
    fn scan(&mut self, line: &str) -> bool {
        let mut last = String::new();
        let mut token = String::new();
        for c in line.chars() {
            if self.in_comment {
                if c == '}' {
                    self.in_comment = false;
                }
                continue;
            }
            match c {
                '{' => {
                    self.in_comment = true;
                    token.clear();
                    last.clear();
                }
                ';' => break,
                c if c.is_whitespace() => {
                    if !token.is_empty() {
                        last = std::mem::take(&mut token);
                    }
                }
                c => token.push(c),
            }
        }
        if !token.is_empty() {
            last = token;
        }
        !self.in_comment && MARKERS.contains(&last.as_str())
    }

    fn take(&mut self) -> Fed {
        let text = self.lines.join("\n");
        *self = PgnFeed::default();
        Fed::Game(text)
    }

    /// The connection ended: a game cut short is dropped (the stream sends
    /// it whole again on the next connection).
    pub fn reset(&mut self) {
        *self = PgnFeed::default();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const A: &str = "[White \"A\"]\n[Black \"B\"]\n\n1. e4 e5 2. Nf3 *";
    const B: &str = "[White \"C\"]\n[Black \"D\"]\n\n1. d4 { [%clk 1:59:50] } d5\n2. c4 1-0";

    fn feed_all(feed: &mut PgnFeed, text: &str) -> Vec<String> {
        text.split('\n')
            .filter_map(|l| match feed.push_line(l) {
                Fed::Game(g) => Some(g),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn games_end_at_their_marker_with_or_without_blank_lines() {
        let mut feed = PgnFeed::new();
        let stream = format!("{A}\n\n\n{B}\n\n\n{A}\n{B}\n");
        let games = feed_all(&mut feed, &stream);
        assert_eq!(games, [A, B, A, B]);
    }

    #[test]
    fn a_marker_inside_a_comment_ends_nothing() {
        let mut feed = PgnFeed::new();
        let text = "[White \"A\"]\n\n1. e4 { said 1-0\nstill the comment *\n} e5 *\n";
        let games = feed_all(&mut feed, text);
        assert_eq!(games.len(), 1);
        assert!(games[0].ends_with("e5 *"));
    }

    #[test]
    fn a_game_without_a_marker_ends_at_the_next_games_tags() {
        let mut feed = PgnFeed::new();
        let text = format!("[White \"A\"]\n\n1. e4 e5\n\n{B}\n");
        let games = feed_all(&mut feed, &text);
        assert_eq!(games, ["[White \"A\"]\n\n1. e4 e5\n", B]);
    }

    #[test]
    fn an_endless_game_is_dropped_and_the_next_is_read() {
        let mut feed = PgnFeed::new();
        assert_eq!(feed.push_line("[White \"A\"]"), Fed::Nothing);
        let mut dropped = false;
        for _ in 0..MAX_GAME_LINES + 1 {
            dropped |= feed.push_line("1. e4 e5") == Fed::TooLong;
        }
        assert!(dropped);
        assert_eq!(feed_all(&mut feed, B), [B]);
    }
}
