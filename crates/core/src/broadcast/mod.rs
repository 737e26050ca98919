//! Following a broadcast round (a live tournament relayed as PGN): the
//! stream cut into games ([`feed`]) and one game followed move by move
//! ([`watch`]); the blind player's own game pushed to a round ([`push`]);
//! the tournament's standings in words ([`standings`]).
//! Pure: the shell reads the stream, sends the pushes and speaks.

pub mod feed;
pub mod push;
pub mod standings;
pub mod watch;

pub use feed::{Fed, PgnFeed};
pub use push::{PushAnswer, PushEffect, PushProblem, PushTiming, Pusher};
pub use standings::{Standing, ordered, standings_words};
pub use watch::{Ask, Board, Pick, Watch, WatchEffect};
