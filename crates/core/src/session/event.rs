//! What reaches the session: the one [`Event`] type (moves, commands,
//! ticks, board and engine messages, settings), and where a move came from.

use serde::{Deserialize, Serialize};
use shakmaty::{Color, Move, Square};

use super::board_event::BoardEvent;
use super::config::SessionConfig;
use super::practice::PracticeCommand;
use super::puzzle::PuzzleCommand;
use crate::chess::Claim;
use crate::words::Pack;

/// Where an entered move came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Source {
    /// Typed or clicked by the assistant or a player.
    Keyboard,
    /// Executed on the blind player's peg-board.
    PegBoard,
    /// Read from an electronic board.
    EBoard,
    /// Played by the engine opponent (practice).
    Engine,
    /// Brought by an online server's game (either side's move: the
    /// server is the truth).
    Server,
}

/// A command from a key, a menu or the command line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// Speak the last move announcement again.
    Repeat,
    /// "Letzter Zug: ...".
    LastMove,
    /// Clock reading and moves completed for both sides (E.9d).
    ClockReading,
    /// Moves completed by both sides.
    MoveCount,
    /// Whose turn it is.
    SideToMove,
    /// The state of both boards' links and, with a DGT clock attached to
    /// the sighted board, its times.
    BoardStatus,
    /// The arbiter's retrace (E.7, E.8): compare the sighted player's
    /// scoresheet (moves as typed, or PGN) with the record; where they
    /// differ, ask to go back to the last move both agree on.
    CompareScoresheet(String),
    /// Put back the moves the last retrace removed.
    UndoRetrace,
    /// Ask to take back the last move; needs [`Command::Confirm`].
    Takeback,
    /// Confirms the pending question ([`Session::pending`]).
    Confirm,
    /// Cancels the pending question.
    Cancel,
    /// The side to move resigns; needs [`Command::Confirm`].
    AskResign,
    /// A new game; needs [`Command::Confirm`] while a game is in progress.
    AskNewGame,
    /// The shell wants to close; needs [`Command::Confirm`] while a game is
    /// in progress. Answered by [`Notice::Answered`] for [`QuestionKind::Close`].
    AskClose,
    /// A side offers a draw.
    OfferDraw(Color),
    /// The side that just moved offers a draw (FIDE 9.1.2.1: an offer comes
    /// after one's own move); before the first move, White.
    OfferDrawAfterMove,
    /// The side to move accepts the standing draw offer.
    AcceptDrawToMove,
    /// The side to move declines the standing draw offer.
    DeclineDrawToMove,
    /// A side accepts the standing draw offer.
    AcceptDraw(Color),
    /// A side declines the standing draw offer.
    DeclineDraw(Color),
    /// The side to move claims a draw, optionally with the move he intends
    /// to make (as typed).
    Claim(Claim, Option<String>),
    Resign(Color),
    /// Start a new game with the current settings.
    NewGame,
    StartClock,
    PauseClock,
    ResumeClock,
    /// One clock key: start, pause or resume, saying which; untimed, the
    /// clock reading.
    ToggleClock,
    /// Practice: the engine's best move for the player, spoken.
    Hint,
    /// Practice: what the opponent would play if it were his turn.
    Threat,
    /// Practice: the evaluation in words.
    Evaluate,
    /// Practice: start the engine again and continue the game.
    RestartEngine,
    /// Practice: the computer on or off, its level, the player's colour
    /// (see [`practice`]).
    Practice(PracticeCommand),
    /// Puzzle mode: start a puzzle, hint, position, skip, stop (see
    /// [`puzzle`]).
    Puzzle(PuzzleCommand),
}

/// Something that happened in the world.
#[derive(Clone, Debug, PartialEq)]
pub enum Event {
    /// Time passes (the driver sends one at [`Session::next_deadline`]).
    Tick,
    /// A move as typed: SAN, coordinates or announcement words.
    MoveEntered {
        text: String,
        source: Source,
    },
    /// A move chosen directly (clicked on the board, read from an e-board).
    MovePlayed {
        mv: Move,
        source: Source,
    },
    /// A piece picked on one square and put on another (clicks or the
    /// keyboard on the board view). A promotion takes the tracker's
    /// promotion piece; no legal move is reported like typed input.
    SquaresChosen {
        from: Square,
        to: Square,
        source: Source,
    },
    Command(Command),
    /// New settings from the shell (the settings dialog, a mode change):
    /// the language at once (with the bundled pack until
    /// [`Event::PackChanged`]), the time control from the next game, the
    /// practice opponent at once.
    ConfigChanged(SessionConfig),
    /// Speak and read moves with this pack from now on (a user's pack the
    /// shell loaded; its language should be the config's).
    PackChanged(Box<Pack>),
    /// New tags (players, event) for the scoresheet.
    TagsChanged(crate::chess::Tags),
    /// The peg-board link said something (see [`board`]).
    Board(BoardEvent),
    /// The sighted player's e-board link said something (see [`sighted`]).
    Sighted(BoardEvent<crate::eboard::Message>),
    /// The player's own board, when it is an e-board, said something (see
    /// [`super::eboard_seat`]; the peg-board's is [`Event::Board`]).
    EBoard(BoardEvent<crate::eboard::Message>),
    /// The engine thread answered or failed (practice).
    Engine(crate::engine::EngineEvent),
    /// An online server's clocks just after the last move (Lichess's
    /// `wtime`/`btime`): the server is the truth online, so the last
    /// move's clock reading is the mover's time and both clocks show them.
    ServerClocks {
        white_ms: u64,
        black_ms: u64,
    },
    /// Online play: the server's lines, the answers to requests, the
    /// streams, the player's typed words (see [`super::online`]).
    Online(crate::online::OnlineEvent),
}
