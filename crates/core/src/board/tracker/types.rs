//! What the tracker takes and tells: the sensors' occupancy, the board's
//! orientation, its settings, a mismatch with the game, its events.

use shakmaty::{Bitboard, Chess, Move, Piece, Position, Role, Square};

/// Occupancy as the board's sensors report it, in **board** coordinates
/// (bit i = hole i as the board is wired). Only [`Orientation::to_game`]
/// turns it into game squares.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct BoardMask(pub u64);

/// How the board lies relative to the game.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Orientation {
    /// a1 is the hole the wiring calls a1.
    #[default]
    Straight,
    /// The board is turned round: hole a1 is game square h8.
    Turned,
}

impl Orientation {
    pub fn from_flipped(flipped: bool) -> Orientation {
        if flipped {
            Orientation::Turned
        } else {
            Orientation::Straight
        }
    }

    pub fn is_turned(self) -> bool {
        self == Orientation::Turned
    }

    /// The other orientation.
    pub fn other(self) -> Orientation {
        Orientation::from_flipped(!self.is_turned())
    }

    /// The game squares a sensor report covers.
    pub fn to_game(self, mask: BoardMask) -> Bitboard {
        match self {
            Orientation::Straight => Bitboard(mask.0),
            Orientation::Turned => Bitboard(mask.0).rotate_180(),
        }
    }

    /// The holes that hold game squares.
    pub fn to_board(self, squares: Bitboard) -> BoardMask {
        match self {
            Orientation::Straight => BoardMask(squares.0),
            Orientation::Turned => BoardMask(squares.rotate_180().0),
        }
    }
}

/// Where the board's report differs from the game, in game coordinates:
/// the one function the app, the session and the tracker use.
pub fn board_difference(report: BoardMask, orientation: Orientation, game: &Chess) -> Bitboard {
    orientation.to_game(report) ^ game.board().occupied()
}

/// Which way round a board that knows its pieces lies, as the player set
/// it: found from what it shows (the default), or fixed by hand.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum OrientationChoice {
    /// Matched against the game in both readings at connection and at any
    /// mismatch: the reading that fits wins.
    #[default]
    Auto,
    /// Always read as it reports (a8 first for a Millennium).
    Straight,
    /// Always read turned round (h1 first for a Millennium).
    Turned,
}

impl OrientationChoice {
    /// The orientation it fixes, if it fixes one.
    pub fn fixed(self) -> Option<Orientation> {
        match self {
            OrientationChoice::Auto => None,
            OrientationChoice::Straight => Some(Orientation::Straight),
            OrientationChoice::Turned => Some(Orientation::Turned),
        }
    }

    /// Its name in the settings file and on the command line.
    pub fn code(self) -> &'static str {
        match self {
            OrientationChoice::Auto => "auto",
            OrientationChoice::Straight => "straight",
            OrientationChoice::Turned => "turned",
        }
    }
}

impl std::str::FromStr for OrientationChoice {
    type Err = String;

    fn from_str(s: &str) -> Result<OrientationChoice, String> {
        [
            OrientationChoice::Auto,
            OrientationChoice::Straight,
            OrientationChoice::Turned,
        ]
        .into_iter()
        .find(|c| c.code().eq_ignore_ascii_case(s.trim()))
        .ok_or_else(|| format!("{s}: give auto, straight or turned"))
    }
}

/// Tunables. The defaults follow the issue: settle at most 100 ms,
/// mismatch guidance after 2 s, queen after 4 s.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TrackerConfig {
    /// A state must last this long before it is acted on (glitch filter).
    pub settle_ms: u64,
    /// How long a rook move that may be the first half of castling waits
    /// for the king.
    pub extension_ms: u64,
    /// How long a board that matches nothing waits before guidance.
    pub mismatch_ms: u64,
    /// How long a promotion waits for the piece before the default.
    pub promotion_ms: u64,
    /// The default promotion piece.
    pub promote_to: Role,
    /// Strict tournament mode: a touched piece put back and another moved,
    /// and castling begun with the rook, are reported as touch-move
    /// (Art. 4.3, 4.4); the move is still recorded.
    pub strict: bool,
    /// The board has lights to guide with (the DGT Pegasus): the move
    /// still to make, or the squares that differ once guidance is due,
    /// are lit ([`crate::board::HostCommand::Lights`]).
    pub guide_lights: bool,
    /// A move read early (a piece set down on its way long enough to be
    /// read) is completed when the same piece is carried on before the
    /// opponent moves ([`TrackerEvent::SlideCompleted`]): for boards that
    /// pieces slide on (the DGT Pegasus), not a peg-board's holes.
    pub complete_slides: bool,
    /// Which way round an e-board that knows its pieces lies (the
    /// recognizer's; the peg-board's tracker finds its own).
    pub orientation: OrientationChoice,
    /// How long a position read by an e-board that knows its pieces must
    /// last before the recognizer acts on it, when given (`rochade track
    /// --settle-ms`); `None` keeps the recognizer's own (300 ms).
    pub eboard_settle_ms: Option<u64>,
}

impl Default for TrackerConfig {
    fn default() -> TrackerConfig {
        TrackerConfig {
            settle_ms: 80,
            extension_ms: 2000,
            mismatch_ms: 2000,
            promotion_ms: 4000,
            promote_to: Role::Queen,
            strict: false,
            guide_lights: false,
            complete_slides: false,
            orientation: OrientationChoice::Auto,
            eboard_settle_ms: None,
        }
    }
}

/// How the board differs from the game.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Mismatch {
    /// Squares where the game has a piece and the board has no peg.
    pub missing: Vec<(Square, Piece)>,
    /// Squares with a peg that the last move emptied (it was not carried out).
    pub expected_empty: Vec<Square>,
    /// Other squares with a peg where the game has none.
    pub extra: Vec<Square>,
}

impl Mismatch {
    pub fn is_empty(&self) -> bool {
        self.missing.is_empty() && self.expected_empty.is_empty() && self.extra.is_empty()
    }
}

/// What the tracker noticed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TrackerEvent {
    /// A piece of the side to move left its hole (E.2.2).
    Touched { square: Square, piece: Piece },
    /// A move was executed on the board (E.2.3); the tracker has played it.
    Executed(Move),
    /// A pawn reached the last rank; the piece is not yet known.
    PromotionPending { from: Square, to: Square },
    /// The player corrected the promotion piece of the last move before
    /// the opponent's move was executed: the tracker now has `new`.
    PromotionCorrected { old: Move, new: Move },
    /// The piece of the last move was set down on the way long enough to
    /// be read, then carried on before the opponent moved: the last move
    /// is `new` (same piece, same from-square; the record's last move is
    /// replaced).
    SlideCompleted { old: Move, new: Move },
    /// Strict mode: a piece of the side to move was touched (lifted) and
    /// put back before another piece moved (Art. 4.3), or castling was begun
    /// with the rook (Art. 4.4 b). The move stands; the arbiter decides.
    TouchMove { square: Square, piece: Piece },
    /// The board is back at the position before this move (E.6); the
    /// session asks the player to confirm and then calls
    /// [`Tracker::take_back`].
    TakebackRequested(Move),
    /// The start position set up on the board after moves of the game
    /// were shown on it, and no move or takeback explains it: the next
    /// game. The tracker keeps the game; the session starts the next one
    /// (or asks first) and resets it.
    NewGameShown,
    /// The board has differed from the game for the mismatch time.
    Mismatch(Mismatch),
    /// The board matches the game again after a mismatch, or after the
    /// player carried out a move entered elsewhere.
    InSync,
    /// The orientation is decided (by the first move only one orientation
    /// explains, a `P` line, a board that matches the game in only one
    /// orientation, or a turned board recovered): `flipped` says whether
    /// the board is turned. Reported once per game.
    OrientationDecided { flipped: bool },
    /// No promotion piece was chosen in time, or the opponent started his
    /// move first: the default piece is played (`mv`, executed next). It
    /// can still be corrected until the opponent's move is executed.
    PromotionDefaulted { mv: Move },
    /// The board is turned round (decided by the first move only one
    /// orientation explains, a `P` line, or a later board that only the
    /// turned reading explains); snapshots are now read rotated by 180
    /// degrees.
    BoardTurned { flipped: bool },
    /// The board showed the position these moves and a reply reach, and
    /// nothing else explains it (a missed snapshot): the moves follow as
    /// [`TrackerEvent::Executed`], then the reply as usual.
    Resynchronised { moves: Vec<Move> },
    /// The board shows the result of `mv`, but a square it fills was never
    /// seen empty (a stuck sensor?): the move is not executed.
    SensorSuspect { mv: Move, square: Square },
    /// A hole's reading (a peg where the game has none when `occupied`,
    /// else none where it has one) is all that keeps the board from being
    /// a legal move done (or the game, for the mismatch time): its sensor
    /// is taken as stuck and left out of the matching until it reports the
    /// other state ([`sensors`]); moves elsewhere are recognised
    /// meanwhile.
    SensorStuck { square: Square, occupied: bool },
    /// A sensor taken as stuck reports the other state again.
    SensorRecovered { square: Square },
}
