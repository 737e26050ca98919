//! The trackers and the e-boards' recognizers, replayed in-process (the
//! self-play corpus, five seeds): one test binary for 13 files, so that the
//! suite links one program instead of one per file (docs/testing.md, "CI's
//! time"). Each file is a module; run one with `cargo test --test boards
//! <file>::`.

// Test support, shared by the files (each once: a file loaded twice is
// two copies of its types, and clippy denies it).
#[path = "../support/ble_fake.rs"]
mod ble_fake;
#[path = "../support/board_sim.rs"]
mod board_sim;
#[path = "../support/corpus.rs"]
mod corpus;
#[path = "../support/eboard_hands.rs"]
mod eboard_hands;
#[path = "../support/hermetic.rs"]
mod hermetic;
#[path = "../support/millennium_pty.rs"]
mod millennium_pty;
#[path = "../support/paced_game.rs"]
mod paced_game;
#[path = "../support/recorded.rs"]
mod recorded;
#[path = "../support/rng.rs"]
mod rng;

mod certabo_cut_lines;
mod certabo_quick_start;
mod chessnut_games;
mod dgt_games;
mod dgt_recognizer;
mod eboard_ble;
mod eboard_millennium;
mod eboard_seat_games;
mod recognizer_scanning;
mod serial_decoders_random;
mod tracker_cases;
mod tracker_games;
mod tracker_sensors;
