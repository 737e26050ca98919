//! What online play tells the player besides the session's own words,
//! as data: each [`Report`] is one `--json` event of `rochade online` and
//! is shown or said by the window.

use serde_json::json;
use shakmaty::Color;

/// What the player is told besides the session's own words: one `--json`
/// event each (`rochade online --json`), shown or said by the window.
#[derive(Clone, Debug, PartialEq)]
pub enum Report {
    Game {
        id: String,
        me: Color,
        white: String,
        black: String,
        white_rating: Option<u32>,
        black_rating: Option<u32>,
    },
    Takeback {
        count: usize,
        ours_lost: bool,
    },
    /// The opponent offers a draw or asks for a takeback.
    Offer {
        what: &'static str,
    },
    OfferDeclined {
        what: &'static str,
    },
    Chat {
        from: String,
    },
    OpponentGone {
        gone: bool,
        claim_in: Option<u32>,
    },
    ConnectionLost {
        reason: String,
    },
    ConnectionBack,
    Challenge {
        id: String,
        from: String,
        time: String,
    },
    Error {
        input: Option<String>,
        reason: String,
    },
    End {
        result: String,
        reason: &'static str,
    },
    /// A stream opened anew brought moves the record lacked: said once
    /// ("While the connection was lost: ..."), then each move.
    CaughtUp {
        count: usize,
    },
    /// The server has not answered for this long (reconnecting goes on).
    ServerGone {
        seconds: u64,
    },
    /// The server does not have the game (404): it keeps being looked for.
    GameMissing,
}

impl Report {
    /// The `--json` line.
    pub fn json(&self) -> serde_json::Value {
        match self {
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
}
