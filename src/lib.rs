//! Rochade: over-the-board chess for blind and visually impaired players.
//!
//! The crate is a functional core with a thin shell around it:
//!
//! * pure core (plain data in, plain data out, time passed in as a value):
//!   [`chess`] (game record, results, claims, PGN), [`words`] (language
//!   packs), [`announce`] (FIDE Appendix E announcements), [`clock`],
//!   [`board`] (peg-board protocol and the move tracker), [`braille`] and
//!   [`export`] (scoresheets), and [`session`], which ties them together:
//!   one [`session::Event`] in, a list of [`session::Effect`]s out
//!   (`tests/core_purity.rs` fails on any file, environment, clock or
//!   thread API in these modules; the shell loads packs and tables);
//! * shell: [`serial`] (board link thread), [`louis`] (liblouis, Braille
//!   tables from disk), [`save_worker`] (saving off the UI thread), [`speech`] and [`audio`]
//!   (speech and sound threads), [`app`] (the egui desktop app) and [`cli`].

pub mod announce;
pub mod app;
pub mod audio;
pub mod board;
pub mod braille;
pub mod chess;
pub mod cli;
pub mod clock;
pub mod config;
pub mod dgt;
pub mod engine;
pub mod export;
pub mod louis;
pub mod paths;
pub mod pgn;
pub mod save_worker;
pub mod savegame;
pub mod serial;
pub mod session;
pub mod speech;
pub mod words;
