//! Following a broadcast round (a live tournament relayed as PGN): the
//! stream cut into games ([`feed`]) and one game followed move by move
//! ([`watch`]). Pure: the shell reads the stream and speaks.

pub mod feed;
pub mod watch;

pub use feed::{Fed, PgnFeed};
pub use watch::{Ask, Board, Pick, Watch, WatchEffect};
