//! The window's tests that run it in-process (egui_kittest, by role and
//! label): one test binary for 11 files, so that the suite links one
//! program instead of one per file (docs/testing.md, "CI's time"). Each
//! file is a module; run one with `cargo test --test gui <file>::`.

// Test support, shared by the files (each once: a file loaded twice is
// two copies of its types, and clippy denies it).
#[path = "../support/board_sim.rs"]
mod board_sim;
#[path = "../gui_common/mod.rs"]
mod gui_common;
#[path = "../support/hermetic.rs"]
mod hermetic;
#[path = "../support/puzzle_moves.rs"]
mod puzzle_moves;
#[path = "../support/spoken_wav.rs"]
mod spoken_wav;

mod gui_board_layout;
mod gui_engine;
mod gui_first_hour;
mod gui_modes;
mod gui_practice;
mod gui_puzzles;
mod gui_questions;
mod gui_saving;
mod gui_small_window;
mod gui_two_boards;
mod gui_voice;
