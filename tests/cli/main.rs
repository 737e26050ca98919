//! The terminal commands' tests (`rochade` run as a process): play, puzzle, announce, files, exports, online: one test binary for 10 files,
//! so that the suite links one program instead of one per file
//! (docs/testing.md, "CI's time"). Each file is a module; run one with
//! `cargo test --test cli <file>::`.

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
