//! Online play through the Lichess Board API, the pure part: the lines of
//! its NDJSON streams as data, the requests the shell sends, and the rule
//! that the server is the truth.
//!
//! * [`IncomingEvent`]: a line of `/api/stream/event` (`gameStart`,
//!   `gameFinish`, `challenge`, `challengeCanceled`, `challengeDeclined`).
//! * [`GameLine`]: a line of `/api/board/game/stream/{id}` (`gameFull`,
//!   `gameState`, `chatLine`, `opponentGone`).
//! * [`OnlineGame`]: one game's state; [`OnlineGame::update`] compares the
//!   server's move list with the local record and says what to take back,
//!   what to play and announce, which offers arrived and whether the game
//!   ended. A reconnection's `gameFull` goes through the same path, so
//!   the local record always ends up equal to the server's.
//! * [`Request`]: the POST requests of a game (move, draw, takeback,
//!   resign, abort, claim victory, chat) with their paths and forms.
//!
//! The shell parses each line with `serde_json` into these types, does the
//! HTTP and carries out the [`Change`]s; nothing here does I/O.

use serde::Deserialize;
use shakmaty::Color;
use shakmaty::uci::UciMove;

mod call;
mod effect;
mod error;
mod event;
mod number;
mod report;
mod state;
#[cfg(test)]
mod tests;
mod waits;

pub use call::{Call, PathId, path_id, path_user};
pub use effect::{LeftGame, OnlineEffect};
pub use error::ApiError;
pub use event::{OnlineEvent, OnlineSetup};
pub use report::Report;
pub use state::{GameState, GameStatus};
pub use waits::Waits;

/// A line of the incoming-events stream (`/api/stream/event`).
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(tag = "type", rename_all = "camelCase")]
pub enum IncomingEvent {
    GameStart {
        game: Box<GameEventInfo>,
    },
    GameFinish {
        game: Box<GameEventInfo>,
    },
    Challenge {
        challenge: Box<ChallengeInfo>,
    },
    ChallengeCanceled {
        challenge: Box<ChallengeInfo>,
    },
    ChallengeDeclined {
        challenge: Box<ChallengeInfo>,
    },
    /// Any event type this version does not know.
    #[serde(other)]
    Other,
}

/// The game of a `gameStart` or `gameFinish` event.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct GameEventInfo {
    pub game_id: String,
    /// `white` or `black`: the colour this account plays.
    pub color: Option<String>,
    pub opponent: Option<EventOpponent>,
    /// Which clients may play it (`board: true` for the Board API).
    pub compat: Option<Compat>,
}

#[derive(Clone, Debug, PartialEq, Deserialize)]
pub struct Compat {
    #[serde(default)]
    pub board: bool,
}

#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct EventOpponent {
    pub id: Option<String>,
    pub username: Option<String>,
    #[serde(default, deserialize_with = "number::lenient_opt")]
    pub rating: Option<u32>,
    #[serde(default, deserialize_with = "number::lenient_opt")]
    pub ai: Option<u8>,
}

/// A challenge of the incoming-events stream.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ChallengeInfo {
    pub id: String,
    pub status: Option<String>,
    pub challenger: Option<ChallengeUser>,
    pub dest_user: Option<ChallengeUser>,
    #[serde(default)]
    pub rated: bool,
    pub speed: Option<String>,
    pub time_control: Option<TimeControlInfo>,
    pub variant: Option<Variant>,
    /// `white`, `black` or `random`: the challenger's colour.
    pub color: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ChallengeUser {
    pub id: Option<String>,
    pub name: Option<String>,
    #[serde(default, deserialize_with = "number::lenient_opt")]
    pub rating: Option<u32>,
    pub title: Option<String>,
    #[serde(default)]
    pub provisional: bool,
}

/// `{"type":"clock","limit":600,"increment":5,"show":"10+5"}`,
/// `{"type":"correspondence","daysPerTurn":2}` or `{"type":"unlimited"}`.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TimeControlInfo {
    #[serde(rename = "type")]
    pub kind: String,
    #[serde(default, deserialize_with = "number::lenient_opt")]
    pub limit: Option<u32>,
    #[serde(default, deserialize_with = "number::lenient_opt")]
    pub increment: Option<u32>,
    pub show: Option<String>,
    #[serde(default, deserialize_with = "number::lenient_opt")]
    pub days_per_turn: Option<u32>,
}

impl TimeControlInfo {
    /// Minutes and increment in seconds, if the challenge has a clock.
    pub fn minutes_increment(&self) -> Option<(u32, u32)> {
        Some((self.limit? / 60, self.increment.unwrap_or(0)))
    }
}

#[derive(Clone, Debug, PartialEq, Deserialize)]
pub struct Variant {
    pub key: String,
    pub name: Option<String>,
}

/// A line of a game's stream (`/api/board/game/stream/{id}`).
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(tag = "type", rename_all = "camelCase")]
pub enum GameLine {
    GameFull(Box<GameFull>),
    GameState(GameState),
    ChatLine(ChatLine),
    OpponentGone(OpponentGone),
    #[serde(other)]
    Other,
}

/// The first line of a game's stream: the players and the whole state.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct GameFull {
    pub id: String,
    #[serde(default)]
    pub rated: bool,
    pub variant: Option<Variant>,
    /// Milliseconds; absent for correspondence and unlimited games.
    pub clock: Option<ClockInfo>,
    pub speed: Option<String>,
    #[serde(default, deserialize_with = "number::lenient_opt")]
    pub created_at: Option<u64>,
    pub white: GamePlayer,
    pub black: GamePlayer,
    /// `startpos` or a FEN.
    pub initial_fen: Option<String>,
    pub state: GameState,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
pub struct ClockInfo {
    #[serde(default, deserialize_with = "number::lenient")]
    pub initial: u64,
    #[serde(default, deserialize_with = "number::lenient")]
    pub increment: u64,
}

/// A player of `gameFull`: an account, or Lichess's AI (`aiLevel`).
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct GamePlayer {
    pub id: Option<String>,
    pub name: Option<String>,
    #[serde(default, deserialize_with = "number::lenient_opt")]
    pub rating: Option<u32>,
    #[serde(default)]
    pub provisional: bool,
    pub title: Option<String>,
    #[serde(default, deserialize_with = "number::lenient_opt")]
    pub ai_level: Option<u8>,
}

impl GamePlayer {
    /// The name for the record and for speech ("Lichess AI level 3" for the AI).
    pub fn display_name(&self) -> String {
        match (&self.name, &self.id, self.ai_level) {
            (Some(name), _, _) => name.clone(),
            (None, Some(id), _) => id.clone(),
            (None, None, Some(level)) => format!("Lichess AI level {level}"),
            _ => "?".to_owned(),
        }
    }

    fn is(&self, account_id: &str) -> bool {
        self.id
            .as_deref()
            .is_some_and(|id| id.eq_ignore_ascii_case(account_id))
    }
}

#[derive(Clone, Debug, PartialEq, Deserialize)]
pub struct ChatLine {
    pub username: String,
    pub text: String,
    pub room: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct OpponentGone {
    pub gone: bool,
    #[serde(default, deserialize_with = "number::lenient_opt")]
    pub claim_win_in_seconds: Option<u32>,
}

/// `white` / `black` as a colour.
pub fn color_of(word: &str) -> Option<Color> {
    match word {
        "white" => Some(Color::White),
        "black" => Some(Color::Black),
        _ => None,
    }
}

/// How a game ended, from the server's `status` and `winner`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EndKind {
    Checkmate {
        winner: Color,
    },
    Resign {
        loser: Color,
    },
    Stalemate,
    /// Agreed, or a draw the server declared (repetition, 50 moves,
    /// insufficient material).
    Draw,
    /// The loser's flag fell (a draw if `winner` is none: the opponent could
    /// not mate).
    OutOfTime {
        loser: Color,
        winner: Option<Color>,
    },
    /// The opponent left and victory was claimed.
    Timeout {
        winner: Option<Color>,
    },
    /// Aborted before both had moved: no result.
    Aborted,
    /// Any other ending (cheat, noStart, variantEnd, unknownFinish).
    Other {
        winner: Option<Color>,
    },
}

impl EndKind {
    /// The ending of a state whose game is over; none while it runs.
    pub fn of(state: &GameState, side_to_move: Color) -> Option<EndKind> {
        if state.is_running() {
            return None;
        }
        let winner = state.winner;
        Some(match &state.status {
            GameStatus::Mate => match winner {
                Some(winner) => EndKind::Checkmate { winner },
                None => EndKind::Checkmate {
                    winner: !side_to_move,
                },
            },
            GameStatus::Resign => EndKind::Resign {
                loser: winner.map(|w| !w).unwrap_or(side_to_move),
            },
            GameStatus::Stalemate => EndKind::Stalemate,
            GameStatus::Draw => EndKind::Draw,
            GameStatus::OutOfTime => EndKind::OutOfTime {
                loser: winner.map(|w| !w).unwrap_or(side_to_move),
                winner,
            },
            GameStatus::Timeout => EndKind::Timeout { winner },
            GameStatus::Aborted => EndKind::Aborted,
            GameStatus::Created
            | GameStatus::Started
            | GameStatus::Cheat
            | GameStatus::NoStart
            | GameStatus::UnknownFinish
            | GameStatus::VariantEnd
            | GameStatus::Unknown(_) => EndKind::Other { winner },
        })
    }

    /// The words for `end` events: the server's status name.
    pub fn reason(self) -> &'static str {
        match self {
            EndKind::Checkmate { .. } => "checkmate",
            EndKind::Resign { .. } => "resignation",
            EndKind::Stalemate => "stalemate",
            EndKind::Draw => "draw",
            EndKind::OutOfTime { .. } => "out of time",
            EndKind::Timeout { .. } => "opponent left",
            EndKind::Aborted => "aborted",
            EndKind::Other { .. } => "other",
        }
    }
}

/// What the shell must do after a server update, in this order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Change {
    /// Take back local moves down to this many (the server has not got
    /// them: a move refused, or the game moved on while we were offline).
    /// `ours_lost`: our move waiting for the server was among them.
    Rewind { keep: usize, ours_lost: bool },
    /// Play these server moves on the local record and announce them.
    Play(Vec<UciMove>),
    /// The clocks in milliseconds, after the moves.
    Clocks { white_ms: u64, black_ms: u64 },
    /// The opponent offers a draw.
    DrawOffered,
    /// Our draw offer is no longer standing and the game goes on.
    DrawDeclined,
    /// The opponent asks to take back a move.
    TakebackOffered,
    /// Our takeback request is no longer standing and no move was taken back.
    TakebackDeclined,
    /// The game is over.
    Ended(EndKind),
}

/// How the server's moves and the local record line up. `pending` is our
/// move that was sent (it is the last local move) and that the server has
/// not shown yet: it is kept while the server's list is a prefix of ours.
pub fn reconcile(local: &[UciMove], server: &[UciMove], pending: Option<&UciMove>) -> Vec<Change> {
    let common = local.iter().zip(server).take_while(|(a, b)| a == b).count();
    let mut changes = Vec::new();
    if local.len() > common {
        let extra = &local[common..];
        let waiting =
            server.len() == common && extra.len() == 1 && pending.is_some_and(|p| *p == extra[0]);
        if waiting {
            return changes;
        }
        changes.push(Change::Rewind {
            keep: common,
            ours_lost: pending.is_some_and(|p| extra.last() == Some(p)),
        });
    }
    if server.len() > common {
        changes.push(Change::Play(server[common..].to_vec()));
    }
    changes
}

/// One online game as the shell follows it.
#[derive(Clone, Debug, PartialEq)]
pub struct OnlineGame {
    pub id: String,
    /// The colour this account plays.
    pub me: Color,
    pub white: GamePlayer,
    pub black: GamePlayer,
    pub clock: Option<ClockInfo>,
    pub rated: bool,
    pub speed: Option<String>,
    pub initial_fen: Option<String>,
    /// The last state the server sent.
    pub state: GameState,
    /// Our move sent and not yet seen in a server state.
    pending: Option<UciMove>,
    /// Our draw offer was sent and is standing.
    our_draw_offer: bool,
    our_takeback_offer: bool,
    opponent_draw_offer: bool,
    opponent_takeback_offer: bool,
    ended: bool,
}

impl OnlineGame {
    /// The game of a `gameFull` line for the account `account_id`. None if
    /// the account plays neither side.
    pub fn new(full: &GameFull, account_id: &str) -> Option<OnlineGame> {
        let me = if full.white.is(account_id) {
            Color::White
        } else if full.black.is(account_id) {
            Color::Black
        } else {
            return None;
        };
        Some(OnlineGame {
            id: full.id.clone(),
            me,
            white: full.white.clone(),
            black: full.black.clone(),
            clock: full.clock,
            rated: full.rated,
            speed: full.speed.clone(),
            initial_fen: full
                .initial_fen
                .clone()
                .filter(|f| !f.is_empty() && f != "startpos"),
            state: GameState::default(),
            pending: None,
            our_draw_offer: false,
            our_takeback_offer: false,
            opponent_draw_offer: false,
            opponent_takeback_offer: false,
            ended: false,
        })
    }

    pub fn player(&self, color: Color) -> &GamePlayer {
        match color {
            Color::White => &self.white,
            Color::Black => &self.black,
        }
    }

    pub fn opponent(&self) -> &GamePlayer {
        self.player(!self.me)
    }

    /// The PGN `TimeControl` value (`600+5`), `-` without a clock.
    pub fn pgn_time_control(&self) -> String {
        match self.clock {
            Some(c) => format!("{}+{}", c.initial / 1000, c.increment / 1000),
            None => "-".to_owned(),
        }
    }

    /// Our move that waits for the server, if any.
    pub fn pending(&self) -> Option<&UciMove> {
        self.pending.as_ref()
    }

    /// The opponent's draw offer stands.
    pub fn opponent_offers_draw(&self) -> bool {
        self.opponent_draw_offer
    }

    /// The opponent's takeback request stands.
    pub fn opponent_offers_takeback(&self) -> bool {
        self.opponent_takeback_offer
    }

    pub fn is_over(&self) -> bool {
        self.ended
    }

    /// Our move is sent: the request, and the move waits for the server.
    pub fn send_move(&mut self, uci: UciMove) -> Request {
        self.pending = Some(uci);
        Request::Move(uci)
    }

    /// The server refused our move: it no longer waits.
    pub fn move_refused(&mut self) {
        self.pending = None;
    }

    /// We offered a draw or accepted the opponent's (`yes`), or declined
    /// it (`no`).
    pub fn draw(&mut self, yes: bool) -> Request {
        if yes && !self.opponent_draw_offer {
            self.our_draw_offer = true;
        }
        if !yes {
            self.opponent_draw_offer = false;
        }
        Request::Draw(yes)
    }

    /// We asked for a takeback or accepted the opponent's (`yes`), or
    /// declined it (`no`).
    pub fn takeback(&mut self, yes: bool) -> Request {
        if yes && !self.opponent_takeback_offer {
            self.our_takeback_offer = true;
        }
        if !yes {
            self.opponent_takeback_offer = false;
        }
        Request::Takeback(yes)
    }

    /// A state older than one already seen: a line of a stream that was
    /// replaced, delivered late. The server's list shrinks only by a
    /// takeback, which a standing request announces; without one, a
    /// shorter list that the last one extends is not the truth any more.
    fn is_stale(&self, server: &[UciMove]) -> bool {
        let known = &self.state.moves;
        let takeback = self.our_takeback_offer
            || self.opponent_takeback_offer
            || self.state.wtakeback
            || self.state.btakeback;
        server.len() < known.len() && known.starts_with(server) && !takeback
    }

    /// A `gameFull` (first line or a reconnection) or `gameState` line:
    /// what to change locally, given the local record's moves.
    pub fn update(&mut self, local: &[UciMove], state: &GameState) -> Vec<Change> {
        let server = &state.moves;
        if self.is_stale(server) {
            return Vec::new();
        }
        let mut changes = reconcile(local, server, self.pending.as_ref());
        if let Some(p) = &self.pending {
            let seen = local
                .len()
                .checked_sub(1)
                .is_some_and(|i| server.get(i) == Some(p));
            let lost = changes
                .iter()
                .any(|c| matches!(c, Change::Rewind { .. } | Change::Play(_)));
            if seen || lost {
                self.pending = None;
            }
        }
        let moved = server.len() != self.state.moves.len();
        changes.push(Change::Clocks {
            white_ms: state.wtime,
            black_ms: state.btime,
        });
        let (their_draw, their_takeback, our_draw, our_takeback) = match self.me {
            Color::White => (state.bdraw, state.btakeback, state.wdraw, state.wtakeback),
            Color::Black => (state.wdraw, state.wtakeback, state.bdraw, state.btakeback),
        };
        let running = state.is_running();
        if their_draw && !self.opponent_draw_offer && running {
            changes.push(Change::DrawOffered);
        }
        if their_takeback && !self.opponent_takeback_offer && running {
            changes.push(Change::TakebackOffered);
        }
        if self.our_draw_offer && !our_draw && running && !moved {
            changes.push(Change::DrawDeclined);
        }
        let shrank = server.len() < self.state.moves.len();
        if self.our_takeback_offer && !our_takeback && running && !shrank {
            changes.push(Change::TakebackDeclined);
        }
        self.opponent_draw_offer = their_draw;
        self.opponent_takeback_offer = their_takeback;
        self.our_draw_offer = our_draw;
        self.our_takeback_offer = our_takeback;
        if !self.ended {
            let to_move = if server.len().is_multiple_of(2) {
                Color::White
            } else {
                Color::Black
            };
            let to_move = if self
                .initial_fen
                .as_deref()
                .is_some_and(|f| f.contains(" b "))
            {
                !to_move
            } else {
                to_move
            };
            if let Some(end) = EndKind::of(state, to_move) {
                self.ended = true;
                self.pending = None;
                changes.push(Change::Ended(end));
            }
        }
        self.state = state.clone();
        changes
    }
}

/// A request of a running game (POST, `board:play` scope).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Request {
    /// `/api/board/game/{id}/move/{uci}`
    Move(UciMove),
    /// `/api/board/game/{id}/draw/{yes|no}`: offer or accept, or decline.
    Draw(bool),
    /// `/api/board/game/{id}/takeback/{yes|no}`
    Takeback(bool),
    /// `/api/board/game/{id}/resign`
    Resign,
    /// `/api/board/game/{id}/abort`
    Abort,
    /// `/api/board/game/{id}/claim-victory`
    ClaimVictory,
    /// `/api/board/game/{id}/chat` with `room=player&text=...`
    Chat(String),
}

impl Request {
    /// The path of this request for game `game_id`.
    pub fn path(&self, game_id: &str) -> String {
        let yes_no = |yes: bool| if yes { "yes" } else { "no" };
        let tail = match self {
            Request::Move(uci) => format!("move/{uci}"),
            Request::Draw(yes) => format!("draw/{}", yes_no(*yes)),
            Request::Takeback(yes) => format!("takeback/{}", yes_no(*yes)),
            Request::Resign => "resign".into(),
            Request::Abort => "abort".into(),
            Request::ClaimVictory => "claim-victory".into(),
            Request::Chat(_) => "chat".into(),
        };
        format!("/api/board/game/{game_id}/{tail}")
    }

    /// The form body (`application/x-www-form-urlencoded` fields).
    pub fn form(&self) -> Vec<(&'static str, String)> {
        match self {
            Request::Chat(text) => vec![("room", "player".into()), ("text", text.clone())],
            _ => Vec::new(),
        }
    }
}

/// A time control typed as `MINUTES+INCREMENT` (`10+5`, `15`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeControlArg {
    pub minutes: u32,
    pub increment: u32,
}

/// A `--seek`/`--clock` value that is no time control.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "`{0}` is not a time control: MINUTES+INCREMENT, e.g. 10+5 (minutes 1-180, increment 0-180 seconds)"
)]
pub struct UnknownTimeControl(pub String);

impl std::str::FromStr for TimeControlArg {
    type Err = UnknownTimeControl;
    fn from_str(s: &str) -> Result<Self, UnknownTimeControl> {
        let (m, i) = s.split_once('+').unwrap_or((s, "0"));
        let parse = |t: &str| t.trim().parse::<u32>().ok();
        match (parse(m), parse(i)) {
            (Some(minutes), Some(increment))
                if minutes > 0 && minutes <= 180 && increment <= 180 =>
            {
                Ok(TimeControlArg { minutes, increment })
            }
            _ => Err(UnknownTimeControl(s.to_owned())),
        }
    }
}

impl TimeControlArg {
    /// The form of `/api/board/seek` (rated is false: a casual game).
    pub fn seek_form(self) -> Vec<(&'static str, String)> {
        vec![
            ("rated", "false".into()),
            ("time", self.minutes.to_string()),
            ("increment", self.increment.to_string()),
        ]
    }

    /// The clock fields of `/api/challenge/ai` and `/api/challenge/{user}`.
    pub fn clock_form(self) -> Vec<(&'static str, String)> {
        vec![
            ("clock.limit", (self.minutes * 60).to_string()),
            ("clock.increment", self.increment.to_string()),
        ]
    }
}
