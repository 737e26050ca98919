//! Following a board from the terminal (`rochade track`, `probe`, `watch`,
//! the broadcast push): one test binary for 7 files, so that the suite
//! links one program instead of one per file (docs/testing.md, "CI's
//! time"). Each file is a module; run one with `cargo test --test track
//! <file>::`.

// Test support, shared by the files (each once: a file loaded twice is
// two copies of its types, and clippy denies it).
#[path = "../support/board_sim.rs"]
mod board_sim;
#[path = "../support/broadcast_round.rs"]
mod broadcast_round;
#[path = "../support/cli.rs"]
mod cli;
#[path = "../support/eboard_hands.rs"]
mod eboard_hands;
#[path = "../support/hermetic.rs"]
mod hermetic;
#[path = "../support/millennium_pty.rs"]
mod millennium_pty;
#[path = "../support/paced_game.rs"]
mod paced_game;
#[path = "../support/rng.rs"]
mod rng;
#[path = "../support/track_replay.rs"]
mod track_replay;

mod board_probe;
mod cli_track;
mod cli_track_pegasus_sessions;
mod cli_track_sessions;
mod track_board_faults;
mod track_push;
mod watch_broadcast;
