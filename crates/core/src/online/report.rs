//! What online play tells the player besides the session's own words,
//! as data: each [`Report`] is one `--json` event of `rochade online` (the
//! shell writes the JSON) and is shown by the window.

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
