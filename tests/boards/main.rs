//! The trackers and the e-boards' recognizers, replayed in-process (the self-play corpus, five seeds): one test binary for 13 files,
//! so that the suite links one program instead of one per file
//! (docs/testing.md, "CI's time"). Each file is a module; run one with
//! `cargo test --test boards <file>::`.

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
