//! Rochade: over-the-board chess for blind and visually impaired players.
//!
//! A functional core with a thin shell around it. The core is the crate
//! `rochade_core` (plain data in, plain data out, time passed in as a
//! value; no I/O, which its dependencies and its clippy configuration
//! keep so): [`chess`], [`words`], [`announce`], [`clock`], [`board`],
//! [`dgt`], [`pgn`], [`braille`], [`export`] and [`session`], re-exported
//! here under the same paths, and the pure parts of [`speech`], [`audio`]
//! and [`engine`].
//!
//! This crate is the shell: [`serial`] (board link thread), [`louis`]
//! (liblouis, Braille tables from disk), [`save_worker`] and [`savegame`]
//! (saving off the UI thread), [`speech`] and [`audio`] (speech and sound
//! threads), [`engine`] (the engine process), [`config`] and [`paths`]
//! (settings and folders), [`storage`] (files written whole or not at
//! all), [`app`] (the egui desktop app) and [`cli`], all
//! carrying out the session's effects through one [`runtime`].

pub use rochade_core::{
    announce, board, braille, broadcast, chess, clock, dgt, eboard, export, pgn, puzzle, session,
    text,
};

pub mod app;
pub mod audio;
pub mod ble;
pub mod cli;
pub mod config;
pub mod driver;
pub mod engine;
pub mod game_file;
pub mod louis;
pub mod online;
pub mod paths;
pub mod puzzle_progress;
pub mod read_capped;
pub mod runtime;
pub mod save_worker;
pub mod savegame;
pub mod serial;
pub mod speech;
pub mod storage;
pub mod voice_input;
pub mod words;
