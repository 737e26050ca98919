//! The clock in words, for speech and Braille ("1 Stunde 12 Minuten 5
//! Sekunden uebrig"), and its compact display for the screen.

use shakmaty::Color;

use super::Clock;
use crate::words::{Pack, Token, Utterance};

impl Clock {
    /// One side's reading for speech: "Weiss: 1 Stunde 12 Minuten 5 Sekunden
    /// uebrig, 3 Minuten verbraucht, 20 Zuege gespielt". Untimed clocks give
    /// only the time used.
    pub fn side_reading(&self, pack: &Pack, color: Color, now: u64) -> Utterance {
        self.side_reading_with(pack, color, now, self.moves_completed(color))
    }

    /// [`Self::side_reading`] with the move count from the game record
    /// (the clock counts only moves made while it ran).
    pub fn side_reading_with(&self, pack: &Pack, color: Color, now: u64, moves: u32) -> Utterance {
        let side = side_name(pack, color);
        let used = duration_words(pack, self.used(color, now));
        let time = match self.remaining(color, now) {
            Some(remaining) => pack.phrase(
                "clock_side",
                &[
                    ("side", side),
                    ("remaining", duration_words(pack, remaining)),
                    ("used", used),
                ],
            ),
            None => pack.phrase("clock_side_untimed", &[("side", side), ("used", used)]),
        };
        Utterance::join_with(&[time, moves_words(pack, moves)], ", ")
    }

    /// The reading the assistant gives at the player's request (Appendix
    /// E.9d): both sides, `first` (usually the asking player) first,
    /// separated by ". ".
    pub fn reading(&self, pack: &Pack, now: u64, first: Color) -> Utterance {
        self.reading_with(pack, now, first, |c| self.moves_completed(c))
    }

    /// [`Self::reading`] with each side's move count from `moves` (the
    /// game record's).
    pub fn reading_with(
        &self,
        pack: &Pack,
        now: u64,
        first: Color,
        moves: impl Fn(Color) -> u32,
    ) -> Utterance {
        Utterance::join_with(
            &[
                self.side_reading_with(pack, first, now, moves(first)),
                self.side_reading_with(pack, first.other(), now, moves(first.other())),
            ],
            ". ",
        )
    }
}

fn side_name(pack: &Pack, color: Color) -> Utterance {
    pack.render(&[Token::Term(match color {
        Color::White => "white",
        Color::Black => "black",
    })])
}

/// "20 Zuege gespielt" / "1 Zug gespielt".
pub fn moves_words(pack: &Pack, count: u32) -> Utterance {
    let key = if count == 1 {
        "moves_completed_one"
    } else {
        "moves_completed"
    };
    pack.phrase(
        key,
        &[("count", pack.render(&[Token::Number(count.into())]))],
    )
}

/// A duration as words, floored to whole seconds, zero units left out:
/// "1 Stunde 12 Minuten 5 Sekunden", "12 Minuten", "0 Sekunden".
pub fn duration_words(pack: &Pack, ms: u64) -> Utterance {
    let total = ms / 1000;
    let (hours, minutes, seconds) = (total / 3600, total / 60 % 60, total % 60);
    let mut tokens = Vec::new();
    for (value, one, many) in [
        (hours, "hour", "hours"),
        (minutes, "minute", "minutes"),
        (seconds, "second", "seconds"),
    ] {
        if value > 0 {
            tokens.push(Token::Number(value));
            tokens.push(Token::Term(if value == 1 { one } else { many }));
        }
    }
    if tokens.is_empty() {
        tokens = vec![Token::Number(0), Token::Term("seconds")];
    }
    pack.render(&tokens)
}

/// Compact clock display for the GUI, never for speech: "1:12:05", "4:59",
/// and with tenths under 10 s: "0:09.5". Floors, as a clock does.
pub fn display(ms: u64) -> String {
    let total = ms / 1000;
    let (h, m, s) = (total / 3600, total / 60 % 60, total % 60);
    if h > 0 {
        format!("{h}:{m:02}:{s:02}")
    } else if ms >= 10_000 {
        format!("{m}:{s:02}")
    } else {
        format!("0:{s:02}.{}", ms % 1000 / 100)
    }
}
