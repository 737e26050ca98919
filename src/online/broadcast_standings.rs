//! A broadcast round's tournament standings, fetched on request (public,
//! no token): the round's tournament from
//! `GET /api/broadcast/{tourSlug}/{roundSlug}/{roundId}` (`tour.id`; the
//! slugs are not read by the server, `-` stands for them), then
//! `GET /broadcast/{tournamentId}/players` (a list of `{name, rank, score,
//! played, ...}`), as Lichess's API reference documents them. Each request
//! has a deadline; the answer is read into [`Standing`]s.

use std::time::Duration;

use rochade_core::broadcast::{Standing, ordered};

use super::ApiError;
use super::http_errors::{map_error, read_answer};

/// The longest wait for each of the two requests.
pub const STANDINGS_TIMEOUT: Duration = Duration::from_secs(10);

/// The standings of `round`'s tournament on `base`, best first.
pub fn fetch_standings(
    base: &str,
    round: &str,
    timeout: Duration,
) -> Result<Vec<Standing>, ApiError> {
    if round.is_empty() || round.len() > 32 || !round.chars().all(|c| c.is_ascii_alphanumeric()) {
        return Err(ApiError::Refused {
            status: 400,
            reason: format!("'{round}' is no round id"),
        });
    }
    let base = base.trim_end_matches('/');
    let agent = ureq::AgentBuilder::new()
        .timeout_connect(timeout)
        .timeout(timeout)
        .user_agent(concat!("rochade/", env!("CARGO_PKG_VERSION")))
        .build();
    let get = |url: String| -> Result<serde_json::Value, ApiError> {
        let response = agent.get(&url).call().map_err(map_error)?;
        read_answer(response)
    };
    let round_info = get(format!("{base}/api/broadcast/-/-/{round}"))?;
    let tour = round_info
        .pointer("/tour/id")
        .and_then(|id| id.as_str())
        .filter(|id| !id.is_empty() && id.chars().all(|c| c.is_ascii_alphanumeric()))
        .ok_or_else(|| ApiError::Network("the round's answer names no tournament".into()))?
        .to_owned();
    let players = get(format!("{base}/broadcast/{tour}/players"))?;
    standings_of(&players)
}

/// The players' list read into standings (entries without a name left out).
pub fn standings_of(players: &serde_json::Value) -> Result<Vec<Standing>, ApiError> {
    let list = players
        .as_array()
        .ok_or_else(|| ApiError::Network("the players' answer is no list".into()))?;
    let standings = list
        .iter()
        .filter_map(|p| {
            let name = p.get("name")?.as_str()?.trim();
            (!name.is_empty()).then(|| Standing {
                rank: p
                    .get("rank")
                    .and_then(|r| r.as_u64())
                    .map(|r| r.min(u32::MAX as u64) as u32),
                name: name.to_owned(),
                score: p.get("score").and_then(|s| s.as_f64()),
                played: p
                    .get("played")
                    .and_then(|n| n.as_u64())
                    .map(|n| n.min(u32::MAX as u64) as u32),
            })
        })
        .collect();
    Ok(ordered(standings))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Lichess's own example answer (lichess-org/api,
    /// doc/specs/examples/broadcasts-getPlayersOfBroadcastTournament.json),
    /// shortened to the fields read and one tiebreak.
    const PLAYERS_EXAMPLE: &str = r#"[
      {"name": "Aravindh, Chithambaram VR.", "title": "GM", "rating": 2749, "fideId": 5072786,
       "fed": "IND", "played": 9, "score": 2.5, "ratingDiff": -23, "performance": 2557,
       "tiebreaks": [{"extendedCode": "DE", "description": "Direct encounter", "points": 0}],
       "rank": 10},
      {"name": "Praggnanandhaa R", "title": "GM", "rating": 2758, "fideId": 25059530,
       "fed": "IND", "played": 9, "score": 5.5, "ratingDiff": 6, "performance": 2802,
       "tiebreaks": [{"extendedCode": "DE", "description": "Direct encounter", "points": 2}],
       "rank": 1}
    ]"#;

    #[test]
    fn the_documented_players_list_is_read_best_first() {
        let value: serde_json::Value = serde_json::from_str(PLAYERS_EXAMPLE).unwrap();
        let standings = standings_of(&value).unwrap();
        assert_eq!(standings[0].name, "Praggnanandhaa R");
        assert_eq!(standings[0].rank, Some(1));
        assert_eq!(standings[0].score, Some(5.5));
        assert_eq!(standings[1].played, Some(9));
        let odd = serde_json::json!([{"name": ""}, {"rank": 1}, {"name": "X", "score": "a"}]);
        let standings = standings_of(&odd).unwrap();
        assert_eq!(standings.len(), 1);
        assert_eq!(standings[0].score, None);
        assert!(standings_of(&serde_json::json!({"error": "x"})).is_err());
    }

    #[test]
    fn a_server_that_never_answers_or_has_no_round_is_an_error_in_time() {
        use std::net::TcpListener;
        let silent = TcpListener::bind("127.0.0.1:0").unwrap();
        let base = format!("http://{}", silent.local_addr().unwrap());
        std::thread::spawn(move || {
            let held: Vec<_> = silent.incoming().flatten().collect();
            drop(held);
        });
        let started = std::time::Instant::now();
        let result = fetch_standings(&base, "AbCd1234", Duration::from_millis(300));
        assert!(matches!(result, Err(ApiError::Network(_))), "{result:?}");
        assert!(started.elapsed() < Duration::from_secs(3));

        let missing = TcpListener::bind("127.0.0.1:0").unwrap();
        let base = format!("http://{}", missing.local_addr().unwrap());
        std::thread::spawn(move || {
            use std::io::{Read, Write};
            for mut conn in missing.incoming().flatten() {
                let mut buf = [0u8; 1024];
                let _ = conn.read(&mut buf);
                let _ = conn.write_all(
                    b"HTTP/1.1 404 Not Found\r\nContent-Length: 21\r\n\r\n{\"error\":\"Not found\"}",
                );
            }
        });
        let result = fetch_standings(&base, "AbCd1234", Duration::from_secs(2));
        assert!(
            matches!(result, Err(ApiError::Refused { status: 404, .. })),
            "{result:?}"
        );
        assert!(fetch_standings(&base, "../x", Duration::from_secs(2)).is_err());
    }
}
