//! The `--json` line of each report of online play (`rochade online
//! --json`): the report is the session's, its JSON the terminal's.

use rochade_core::online::Report;
use serde_json::json;
use shakmaty::Color;

/// The `--json` line of `report`.
pub fn report_json(report: &Report) -> serde_json::Value {
    match report {
        Report::Game {
            id,
            me,
            white,
            black,
            white_rating,
            black_rating,
        } => json!({
            "event": "game",
            "id": id,
            "color": if *me == Color::White { "white" } else { "black" },
            "white": white,
            "black": black,
            "white_rating": white_rating,
            "black_rating": black_rating,
        }),
        Report::Takeback { count, ours_lost } => {
            json!({"event": "takeback", "count": count, "ours_lost": ours_lost})
        }
        Report::Offer { what } => json!({"event": "offer", "what": what, "by": "opponent"}),
        Report::OfferDeclined { what } => {
            json!({"event": "offer_declined", "what": what, "by": "opponent"})
        }
        Report::Chat { from } => json!({"event": "chat", "from": from}),
        Report::OpponentGone { gone, claim_in } => {
            json!({"event": "opponent_gone", "gone": gone, "claim_in": claim_in})
        }
        Report::ConnectionLost { reason } => {
            json!({"event": "connection", "state": "lost", "reason": reason})
        }
        Report::ConnectionBack => json!({"event": "connection", "state": "back"}),
        Report::Challenge { id, from, time } => {
            json!({"event": "challenge", "id": id, "from": from, "time": time})
        }
        Report::Error { input, reason } => {
            let mut value = json!({"event": "error", "reason": reason});
            if let Some(input) = input {
                value["input"] = json!(input);
            }
            value
        }
        Report::End { result, reason } => {
            json!({"event": "end", "result": result, "reason": reason})
        }
        Report::CaughtUp { count } => json!({"event": "caught_up", "count": count}),
        Report::ServerGone { seconds } => {
            json!({"event": "connection", "state": "gone", "seconds": seconds})
        }
        Report::GameMissing => json!({"event": "connection", "state": "game_missing"}),
    }
}
