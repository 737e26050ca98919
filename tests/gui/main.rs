//! The window's tests that run it in-process (egui_kittest, by role and label): one test binary for 11 files,
//! so that the suite links one program instead of one per file
//! (docs/testing.md, "CI's time"). Each file is a module; run one with
//! `cargo test --test gui <file>::`.

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
