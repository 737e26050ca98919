//! The app's links to the world: its clock, the boards, the engine, the
//! saving of the game and of the settings.

use super::TimeSource;

/// What the app reaches the world through.
pub(super) struct Links {
    /// Real time, or virtual time in tests.
    pub time: TimeSource,
    /// The player's own board and the opponent's: their links and the
    /// probe that finds boards ([`super::boards`]).
    pub boards: super::boards::Boards,
    /// The engine thread and the program it runs (practice, review).
    pub engine: Option<(std::path::PathBuf, crate::engine::EngineService)>,
    /// The game's saving (a move is announced once on disk) and exports.
    pub saving: super::saving::Saving,
    /// Whether changed settings are written to disk (tests keep them in
    /// memory).
    pub persist_settings: bool,
    /// The game pushed to a broadcast round, when the settings name one
    /// ([`super::broadcast_push`]).
    pub broadcast: Option<super::broadcast_push::AppPush>,
}
