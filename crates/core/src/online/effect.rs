//! What online play asks the shell to do (inside the session's effects,
//! as `Effect::Online`): requests to send, streams to open, the report for
//! the front end. Its words go out as ordinary speech.

use shakmaty::Color;

use super::{Call, PathId, Report};
use crate::chess::GameRecord;

/// What online play asks the shell to do.
#[derive(Clone, Debug, PartialEq)]
pub enum OnlineEffect {
    /// Send this and hand the answer back as
    /// [`super::OnlineEvent::Answered`] (with the typed text it came
    /// from, for the error).
    Send { call: Call, input: Option<String> },
    /// Follow the stream of this game.
    Open(PathId),
    /// Open this game's stream again (the old one stops): the whole game
    /// the stream sends first settles whatever was lost.
    Resync(PathId),
    /// A game starts on the server, the player on `me`'s side; `previous`:
    /// the game in progress here that it replaces (the front end keeps
    /// it, e.g. exports it).
    Started {
        me: Color,
        previous: Option<LeftGame>,
    },
    /// What online play told the player (said as speech too): the
    /// report, if it has one, and the written words, for a status line.
    Report {
        report: Option<Report>,
        line: String,
    },
    /// The game is over: the front end may stop following it.
    Finished,
    /// The server sent a game this account does not play: online play
    /// cannot go on.
    NotOurGame(PathId),
}

/// The game in progress that an online game replaced.
#[derive(Clone, Debug)]
pub struct LeftGame(pub Box<GameRecord>);

impl PartialEq for LeftGame {
    /// The same scoresheet: the same tags, moves and result.
    fn eq(&self, other: &LeftGame) -> bool {
        let (a, b) = (&self.0, &other.0);
        a.tags == b.tags && a.moves() == b.moves() && a.result_str() == b.result_str()
    }
}
