//! A broadcast tournament's standings as the server gives them (Lichess:
//! `GET /broadcast/{tournamentId}/players`, each player's rank, score and
//! games played), in words: "1. Praggnanandhaa R, 5.5 of 9; 2. ...".
//! Pure: the shell fetches and reads the answer into [`Standing`]s.

use crate::words::{Pack, Utterance};

/// One player's line of the standings.
#[derive(Clone, Debug, PartialEq)]
pub struct Standing {
    /// The server's rank (None: not given; then the order of the list).
    pub rank: Option<u32>,
    pub name: String,
    /// Points (half points as .5; None: no game scored yet).
    pub score: Option<f64>,
    /// Games played.
    pub played: Option<u32>,
}

/// At most this many players are said at once (a long list is not
/// listened to; the rest is on request of the whole list in writing).
pub const SAID_AT_ONCE: usize = 10;

/// The standings, best first (by the server's rank, else by score; the
/// server's order between equals).
pub fn ordered(mut standings: Vec<Standing>) -> Vec<Standing> {
    standings.sort_by(|a, b| match (a.rank, b.rank) {
        (Some(x), Some(y)) => x.cmp(&y),
        (Some(_), None) => std::cmp::Ordering::Less,
        (None, Some(_)) => std::cmp::Ordering::Greater,
        (None, None) => b
            .score
            .unwrap_or(-1.0)
            .partial_cmp(&a.score.unwrap_or(-1.0))
            .unwrap_or(std::cmp::Ordering::Equal),
    });
    standings
}

/// A score as the language writes it: "5", "5.5" ("5,5" in German and
/// Portuguese: the pack's `broadcast_score_half`); other fractions (a
/// custom scoring) with two decimals.
fn score_text(pack: &Pack, score: f64) -> Utterance {
    if score.fract() == 0.0 {
        format!("{score:.0}").into()
    } else if score.fract() == 0.5 {
        let points = format!("{:.0}", score.trunc());
        pack.phrase("broadcast_score_half", &[("points", points.into())])
    } else {
        format!("{score:.2}").into()
    }
}

/// The first [`SAID_AT_ONCE`] of the standings in words; "no standings"
/// when the list is empty.
pub fn standings_words(pack: &Pack, standings: &[Standing]) -> Utterance {
    if standings.is_empty() {
        return pack.say("broadcast_no_standings");
    }
    let lines: Vec<Utterance> = standings
        .iter()
        .take(SAID_AT_ONCE)
        .enumerate()
        .map(|(i, s)| {
            let rank = s.rank.map_or(i as u32 + 1, |r| r);
            let name = Utterance::from(s.name.as_str());
            match (s.score, s.played) {
                (Some(score), Some(played)) => pack.phrase(
                    "broadcast_standing",
                    &[
                        ("rank", rank.to_string().into()),
                        ("name", name),
                        ("score", score_text(pack, score)),
                        ("played", played.to_string().into()),
                    ],
                ),
                (Some(score), None) => pack.phrase(
                    "broadcast_standing_score",
                    &[
                        ("rank", rank.to_string().into()),
                        ("name", name),
                        ("score", score_text(pack, score)),
                    ],
                ),
                _ => pack.phrase(
                    "broadcast_standing_name",
                    &[("rank", rank.to_string().into()), ("name", name)],
                ),
            }
        })
        .collect();
    let mut joined = Utterance::join_with(&lines, "; ");
    if standings.len() > SAID_AT_ONCE {
        let more = pack.phrase(
            "broadcast_standings_more",
            &[("count", (standings.len() - SAID_AT_ONCE).to_string().into())],
        );
        joined = Utterance::join_with(&[joined, more], "; ");
    }
    joined
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::words::Lang;

    fn standing(rank: Option<u32>, name: &str, score: f64, played: u32) -> Standing {
        Standing {
            rank,
            name: name.into(),
            score: Some(score),
            played: Some(played),
        }
    }

    #[test]
    fn the_best_come_first_and_half_points_are_said() {
        let list = ordered(vec![
            standing(Some(10), "Aravindh, Chithambaram VR.", 2.5, 9),
            standing(Some(1), "Praggnanandhaa R", 5.5, 9),
        ]);
        let en = Pack::bundled(Lang::En);
        let words = standings_words(&en, &list).written;
        assert_eq!(
            words,
            "1. Praggnanandhaa R, 5.5 of 9; 10. Aravindh, Chithambaram VR., 2.5 of 9"
        );
        let de = Pack::bundled(Lang::De);
        assert!(standings_words(&de, &list).written.contains("5,5 aus 9"));
    }

    #[test]
    fn without_ranks_the_score_orders_and_a_long_list_says_how_many_more() {
        let list: Vec<Standing> = (0..13)
            .map(|i| standing(None, &format!("P{i}"), f64::from(i) / 2.0, 6))
            .collect();
        let list = ordered(list);
        assert_eq!(list[0].name, "P12");
        let words = standings_words(&Pack::bundled(Lang::En), &list).written;
        assert!(
            words.starts_with("1. P12, 6 of 6; 2. P11, 5.5 of 6"),
            "{words}"
        );
        assert!(words.ends_with("3 more"), "{words}");
        assert_eq!(
            standings_words(&Pack::bundled(Lang::En), &[]).written,
            "No standings yet"
        );
    }
}
