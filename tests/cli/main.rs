//! The terminal commands' tests (`rochade` run as a process): play, puzzle,
//! announce, files, exports, online: one test binary for 10 files, so that
//! the suite links one program instead of one per file (docs/testing.md,
//! "CI's time"). Each file is a module; run one with `cargo test --test cli
//! <file>::`.

// Test support, shared by the files (each once: a file loaded twice is
// two copies of its types, and clippy denies it).
#[path = "../support/board_sim.rs"]
mod board_sim;
#[path = "../support/cli.rs"]
mod cli;
#[path = "../support/hermetic.rs"]
mod hermetic;
#[path = "../support/lichess_server.rs"]
mod lichess_server;
#[path = "../support/millennium_hands.rs"]
mod millennium_hands;
#[path = "../support/millennium_pty.rs"]
mod millennium_pty;
#[path = "../support/move_event.rs"]
mod move_event;
#[path = "../support/online_client.rs"]
mod online_client;
#[path = "../support/pef_schema.rs"]
mod pef_schema;
#[path = "../support/puzzle_moves.rs"]
mod puzzle_moves;
#[path = "../support/slow_fsync.rs"]
mod slow_fsync;
#[path = "../support/spoken_wav.rs"]
mod spoken_wav;

mod cli_announce;
mod cli_files;
mod cli_play;
mod cli_puzzle;
mod cli_word_files;
mod export_cli;
mod online_hostile;
mod pgn_errors;
mod puzzle_progress_file;
mod voice_online;
