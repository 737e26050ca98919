//! What the shell tells online play (inside the session, as
//! `Event::Online`): the server's stream lines, the answers to requests,
//! the streams dropping and coming back, the player's typed words, the
//! date.

use super::{ApiError, Call, GameLine, IncomingEvent, Waits};

/// Online play begins: who we are, where, and how.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OnlineSetup {
    /// The account the token belongs to.
    pub account: String,
    /// The server's address (the game's `Site`).
    pub server: String,
    /// Accept the first challenge without asking (`--accept`).
    pub auto_accept: bool,
    /// Ask "Resign? yes or no" (and the same for a draw offer) before
    /// sending it.
    pub confirm: bool,
    pub waits: Waits,
    /// Today's date, for the game's `Date` tag (the core has no clock;
    /// [`OnlineEvent::Today`] brings a new one).
    pub today: jiff::civil::Date,
}

/// Something from the server, the network or the player, for online play.
#[derive(Clone, Debug, PartialEq)]
pub enum OnlineEvent {
    /// Connected: online play starts (a game running is left first).
    Connected(Box<OnlineSetup>),
    /// The player left the server: online play ends here.
    Disconnected,
    /// Today's date, for the game's `Date` tag (the core has no clock).
    Today(jiff::civil::Date),
    /// A line of the incoming-events stream.
    Incoming(Box<IncomingEvent>),
    /// A line of the game's stream.
    Game(Box<GameLine>),
    /// The answer to [`super::OnlineEffect::Send`], with the typed text
    /// the request came from.
    Answered {
        call: Call,
        input: Option<String>,
        result: Result<(), ApiError>,
    },
    /// The game's stream dropped (`first`: the first failure since it
    /// worked).
    GameDropped { reason: ApiError, first: bool },
    /// The game's stream is back.
    GameBack,
    /// The incoming-events stream dropped.
    EventsDropped(ApiError),
    /// The incoming-events stream is back (or brought a line).
    EventsBack,
    /// A line the player typed: a word of online play or a move.
    Typed(String),
}
