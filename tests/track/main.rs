//! Following a board from the terminal (`rochade track`, `probe`, `watch`, the broadcast push): one test binary for 7 files,
//! so that the suite links one program instead of one per file
//! (docs/testing.md, "CI's time"). Each file is a module; run one with
//! `cargo test --test track <file>::`.

mod board_probe;
mod cli_track;
mod cli_track_pegasus_sessions;
mod cli_track_sessions;
mod track_board_faults;
mod track_push;
mod watch_broadcast;
