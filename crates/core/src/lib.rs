//! Rochade's functional core: plain data in, plain data out, time passed
//! in as a value. Nothing here reads a file, the environment or a clock,
//! sleeps, starts a thread or prints; the compiler keeps it so (this crate
//! depends on no library of the world, and its `clippy.toml` denies the
//! standard library's I/O, environment, thread and clock APIs).
//!
//! * [`chess`] (game record, results, claims, typed moves), [`words`]
//!   (language packs), [`announce`] (FIDE Appendix E announcements),
//!   [`clock`];
//! * [`board`] (peg-board protocol and the move tracker), [`dgt`] (the
//!   DGT e-board: protocol and move recognition), [`eboard`] (every
//!   full-position e-board: Millennium, Certabo, Chessnut, Pegasus);
//! * [`pgn`], [`braille`] and [`export`] (scoresheets); [`browse`] (the
//!   board read aloud square by square, rank, file, attackers);
//! * [`speech`] (what is said and how urgently, the speech queue, voice
//!   choice, who speaks), [`audio`] (the earcons and their synthesis),
//!   [`engine`] (levels, move choice, evaluation words,
//!   the review, and the messages to and from the engine thread);
//! * [`session`], which ties them together: one [`session::Event`] in, a
//!   list of [`session::Effect`]s out, with
//!   [`session::Session::next_deadline`];
//! * [`voice_input`]: the grammar of what may be said in a position, its
//!   dictionary, and the way from recognised words back to a move.
//!
//! The shell (the `rochade` crate: serial, speech, audio, the engine
//! process, storage, the window and the terminal) loads packs, tables and
//! settings and hands them in.

pub mod announce;
pub mod audio;
pub mod board;
pub mod braille;
pub mod broadcast;
pub mod browse;
pub mod chess;
pub mod clock;
pub mod dgt;
pub mod eboard;
pub mod engine;
pub mod export;
pub mod online;
pub mod pgn;
pub mod puzzle;
pub mod review;
pub mod session;
pub mod speech;
pub mod text;
pub mod voice_input;
pub mod words;
