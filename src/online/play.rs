//! One online game between the server and a host: the terminal
//! (`rochade online`) or the window. The server is the truth: every state
//! it sends goes through [`OnlineGame::update`] and the host's session
//! follows it (moves played and announced, moves taken back, the clocks,
//! the end). The player's words (`draw`, `yes`, `resign`, `chat` ...) and
//! moves become requests the host sends; their answers come back through
//! [`OnlinePlay::answered`].
//!
//! No I/O here: the host owns the session and carries out its effects,
//! sends the requests ([`OnlinePlay::take_todo`]) on its own terms (the
//! terminal at once, the window from a thread) and reads the streams.

use rochade_core::online::{
    ChallengeInfo, Change, EndKind, GameLine, GameState, IncomingEvent, OnlineGame, Request,
};
use shakmaty::{CastlingMode, Color, KnownOutcome};

use super::ApiError;
use crate::chess::GameRecord;
use crate::session::{Command, Event, Priority, Session, Source};
use crate::words::{Pack, Utterance};

/// Who made a move the host's session plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum By {
    Player,
    Opponent,
}

impl By {
    pub fn word(self) -> &'static str {
        match self {
            By::Player => "player",
            By::Opponent => "opponent",
        }
    }
}

/// What the host's session and output are to [`OnlinePlay`].
pub trait Host {
    fn session(&self) -> &Session;
    /// The session handles `event`; the host carries out its effects
    /// (announces, saves, guides the peg-board). `by` made the move it
    /// plays, if it plays one.
    fn handle(&mut self, now: u64, event: Event, by: By);
    /// The game starts: the session takes `record` (players, site) with
    /// the blind player on `me`'s side.
    fn begin(&mut self, now: u64, record: GameRecord, me: Color);
    /// The record changed under the session (moves taken back, the end):
    /// it takes this one and it is saved.
    fn replace_game(&mut self, now: u64, record: GameRecord);
    /// Words for the player, with the report they belong to.
    fn report(&mut self, report: Option<Report>, words: Utterance, priority: Priority);
}

/// A request to the server.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Call {
    Game { game_id: String, request: Request },
    AcceptChallenge(String),
    DeclineChallenge(String),
}

impl Call {
    pub fn path(&self) -> String {
        match self {
            Call::Game { game_id, request } => request.path(game_id),
            Call::AcceptChallenge(id) => format!("/api/challenge/{id}/accept"),
            Call::DeclineChallenge(id) => format!("/api/challenge/{id}/decline"),
        }
    }

    pub fn form(&self) -> Vec<(&'static str, String)> {
        match self {
            Call::Game { request, .. } => request.form(),
            Call::AcceptChallenge(_) => Vec::new(),
            Call::DeclineChallenge(_) => vec![("reason", "generic".into())],
        }
    }
}

/// What the host is to do next, in this order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Todo {
    /// Send this and hand the answer to [`OnlinePlay::answered`] (with
    /// the typed text it came from, for the error).
    Send(Call, Option<String>),
    /// Follow the stream of this game.
    Open(String),
    /// Open this game's stream again (the old one stops): our move's
    /// request got no answer, and the whole game the stream sends first
    /// says whether the move got through (it is sent again if not).
    Resync(String),
    /// The game is over: the host may stop.
    Finished,
}

/// The online game as the host follows it.
pub struct OnlinePlay {
    account: String,
    server: String,
    /// Accept the first challenge without asking (`--accept`).
    auto_accept: bool,
    game: Option<OnlineGame>,
    /// A challenge said and waiting for `yes` or `no`.
    challenge: Option<Box<ChallengeInfo>>,
    /// The challenges said (their ids, the latest 64), so one sent again
    /// is not said again.
    challenges_said: Vec<String>,
    /// Chat lines not read yet.
    chat: Vec<(String, String)>,
    /// The server's clocks (ms) as it last sent them.
    clocks: Option<(u64, u64)>,
    /// Moves whose clock reading was written.
    clocked: usize,
    /// Our move's request got no answer: the next state the server sends
    /// says whether it got through; if not, it is sent again then.
    unsent: bool,
    /// Lines typed before the game started.
    waiting_input: Vec<String>,
    /// The game's stream is down (said once; "back" said once when a
    /// line arrives again, from whichever stream).
    down: bool,
    todo: Vec<Todo>,
    /// Silence, unanswered requests, waits (see [`watch`]).
    watch: watch::Watch,
}

/// A game this account does not play.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("game {0} is not played by this account")]
pub struct NotOurGame(pub String);

/// A challenge's or a player's name with the rating, for speech.
fn rated(pack: &Pack, name: &str, rating: Option<u32>) -> Utterance {
    match rating {
        Some(r) => pack.phrase(
            "online_rated",
            &[
                ("name", Utterance::from(name)),
                ("rating", Utterance::from(r.to_string())),
            ],
        ),
        None => Utterance::from(name),
    }
}

/// An id as it may go into a path (Lichess ids are alphanumeric).
pub fn path_id(id: &str) -> String {
    id.chars().filter(|c| c.is_ascii_alphanumeric()).collect()
}

/// A user name as it may go into a path (letters, digits, `_` and `-`).
pub fn path_user(name: &str) -> String {
    name.chars()
        .filter(|c| c.is_ascii_alphanumeric() || *c == '_' || *c == '-')
        .collect()
}

/// An [`ApiError`] in the player's words.
pub fn server_error(pack: &Pack, e: &ApiError) -> Utterance {
    pack.phrase(
        "online_error",
        &[("reason", Utterance::from(e.to_string()))],
    )
}

impl OnlinePlay {
    /// For account `account` on `server` (the game's `Site`).
    pub fn new(account: &str, server: &str, auto_accept: bool) -> OnlinePlay {
        OnlinePlay {
            account: account.to_owned(),
            server: server.trim_end_matches('/').to_owned(),
            auto_accept,
            game: None,
            challenge: None,
            challenges_said: Vec::new(),
            chat: Vec::new(),
            clocks: None,
            clocked: 0,
            unsent: false,
            waiting_input: Vec::new(),
            down: false,
            todo: Vec::new(),
            watch: watch::Watch::default(),
        }
    }

    pub fn game(&self) -> Option<&OnlineGame> {
        self.game.as_ref()
    }

    /// The challenge waiting for `yes` or `no`.
    pub fn challenge(&self) -> Option<&ChallengeInfo> {
        self.challenge.as_deref()
    }

    /// The server's clocks (ms), white then black.
    pub fn clocks(&self) -> Option<(u64, u64)> {
        self.clocks
    }

    /// What the host is to do now.
    pub fn take_todo(&mut self) -> Vec<Todo> {
        std::mem::take(&mut self.todo)
    }

    fn send(&mut self, request: Request, input: Option<&str>) {
        if let Some(game) = &self.game {
            if matches!(request, Request::Move(_)) {
                self.watch.move_sent_at = Some(self.watch.now);
            }
            let call = Call::Game {
                game_id: path_id(&game.id),
                request,
            };
            self.todo.push(Todo::Send(call, input.map(str::to_owned)));
        }
    }

    /// A line of the incoming-events stream.
    pub fn incoming(&mut self, host: &mut impl Host, event: IncomingEvent) {
        match event {
            IncomingEvent::GameStart { game } if game.compat.as_ref().is_none_or(|c| c.board) => {
                self.challenge = None;
                self.todo.push(Todo::Open(path_id(&game.game_id)));
            }
            IncomingEvent::Challenge { challenge } if self.game.is_none() => {
                // The events stream sends the open challenges again at every
                // reconnection: each is said once.
                if self.challenges_said.contains(&challenge.id) {
                    return;
                }
                if self.challenges_said.len() >= 64 {
                    self.challenges_said.remove(0);
                }
                self.challenges_said.push(challenge.id.clone());
                let challenger = challenge.challenger.clone();
                let id = challenger.as_ref().and_then(|c| c.id.clone());
                if id.is_some_and(|id| id.eq_ignore_ascii_case(&self.account)) {
                    return; // our own challenge
                }
                let name = challenger
                    .as_ref()
                    .and_then(|c| c.name.clone().or(c.id.clone()))
                    .unwrap_or_else(|| "?".into());
                let rating = challenger.and_then(|c| c.rating);
                let pack = host.session().pack();
                let from = rated(pack, &name, rating);
                let time = challenge
                    .time_control
                    .as_ref()
                    .and_then(|t| {
                        t.show
                            .clone()
                            .or_else(|| t.minutes_increment().map(|(m, i)| format!("{m}+{i}")))
                    })
                    .unwrap_or_else(|| "-".into());
                let mut words = pack.phrase(
                    "online_challenge",
                    &[
                        ("name", from.clone()),
                        ("time", Utterance::from(time.as_str())),
                    ],
                );
                if !self.auto_accept {
                    let ask = pack.say("online_challenge_answer");
                    words.written = format!("{}. {}", words.written, ask.written);
                    words.spoken = format!("{}. {}", words.spoken, ask.spoken);
                }
                let report = Report::Challenge {
                    id: challenge.id.clone(),
                    from: from.written,
                    time,
                };
                host.report(Some(report), words, Priority::Question);
                if self.auto_accept {
                    self.todo.push(Todo::Send(
                        Call::AcceptChallenge(path_id(&challenge.id)),
                        None,
                    ));
                } else {
                    self.challenge = Some(challenge);
                }
            }
            IncomingEvent::ChallengeCanceled { challenge }
                if self
                    .challenge
                    .as_ref()
                    .is_some_and(|c| c.id == challenge.id) =>
            {
                self.challenge = None;
                let words = host.session().pack().say("online_challenge_canceled");
                host.report(None, words, Priority::Answer);
            }
            _ => {}
        }
    }

    /// A line of the game's stream.
    pub fn game_line(
        &mut self,
        host: &mut impl Host,
        now: u64,
        line: GameLine,
    ) -> Result<(), NotOurGame> {
        // A line from the server: the connection works again.
        self.stream_back(host);
        self.heard(now);
        match line {
            GameLine::GameFull(full) => {
                if self.game.is_none() && !full.state.is_running() {
                    // A game that is over (the last lines of an ended
                    // game's stream): nothing to play.
                    return Ok(());
                }
                if self.game.is_none() {
                    let game =
                        OnlineGame::new(&full, &self.account).ok_or(NotOurGame(full.id.clone()))?;
                    self.start(host, now, game);
                }
                // The whole game of a stream opened anew: the moves it
                // brings were missed while the connection was lost.
                let missed = std::mem::take(&mut self.watch.catching_up);
                self.reconcile(host, now, &full.state, missed);
            }
            GameLine::GameState(state) => self.apply(host, now, &state),
            GameLine::ChatLine(chat) => {
                if self.game.is_none()
                    || chat.username.eq_ignore_ascii_case(&self.account)
                    || chat.room.as_deref() == Some("spectator")
                {
                    return Ok(());
                }
                self.chat.push((chat.username.clone(), chat.text.clone()));
                let words = host.session().pack().say("online_chat_new");
                let report = Report::Chat {
                    from: chat.username,
                };
                host.report(Some(report), words, Priority::Info);
            }
            GameLine::OpponentGone(gone) => {
                if self.game.is_none() {
                    return Ok(());
                }
                let pack = host.session().pack();
                let words = match (gone.gone, gone.claim_win_in_seconds) {
                    (false, _) => pack.say("online_opponent_back"),
                    (true, Some(s)) if s > 0 => pack.phrase(
                        "online_opponent_gone",
                        &[("seconds", Utterance::from(s.to_string()))],
                    ),
                    (true, _) => pack.say("online_opponent_gone_now"),
                };
                let report = Report::OpponentGone {
                    gone: gone.gone,
                    claim_in: gone.claim_win_in_seconds,
                };
                host.report(Some(report), words, Priority::Alert);
            }
            GameLine::Other => {}
        }
        Ok(())
    }

    fn start(&mut self, host: &mut impl Host, now: u64, game: OnlineGame) {
        let mut record = match &game.initial_fen {
            Some(fen) => match GameRecord::from_fen(fen) {
                Ok(record) => record,
                Err(e) => {
                    let reason = format!("the server's start position: {e}");
                    let words = host.session().pack().phrase(
                        "online_error",
                        &[("reason", Utterance::from(reason.as_str()))],
                    );
                    host.report(
                        Some(Report::Error {
                            input: None,
                            reason,
                        }),
                        words,
                        Priority::Alert,
                    );
                    GameRecord::new()
                }
            },
            None => GameRecord::new(),
        };
        let tags = &mut record.tags;
        tags.event = format!(
            "{} {} game",
            if game.rated { "Rated" } else { "Casual" },
            game.speed.as_deref().unwrap_or("online")
        );
        tags.site = format!("{}/{}", self.server, game.id);
        tags.date = crate::pgn::pgn_date(crate::savegame::today());
        tags.white = game.white.display_name();
        tags.black = game.black.display_name();
        tags.time_control = Some(game.pgn_time_control());
        for (tag, player) in [("WhiteElo", &game.white), ("BlackElo", &game.black)] {
            if let Some(r) = player.rating {
                tags.extra.push((tag.into(), r.to_string()));
            }
        }
        host.begin(now, record, game.me);
        let pack = host.session().pack();
        let opponent = game.opponent();
        let greeting = pack.phrase(
            "online_game",
            &[
                (
                    "opponent",
                    rated(pack, &opponent.display_name(), opponent.rating),
                ),
                ("side", crate::announce::side_word(pack, game.me)),
            ],
        );
        let report = Report::Game {
            id: game.id.clone(),
            me: game.me,
            white: game.white.display_name(),
            black: game.black.display_name(),
            white_rating: game.white.rating,
            black_rating: game.black.rating,
        };
        host.report(Some(report), greeting, Priority::Answer);
        self.game = Some(game);
        self.challenge = None;
        for text in std::mem::take(&mut self.waiting_input) {
            self.input(host, now, &text);
        }
    }

    fn local_moves(session: &Session) -> Vec<String> {
        session
            .record()
            .moves()
            .iter()
            .map(|m| m.mv.to_uci(CastlingMode::Standard).to_string())
            .collect()
    }

    /// A server state: the host's record follows it.
    pub fn apply(&mut self, host: &mut impl Host, now: u64, state: &GameState) {
        self.reconcile(host, now, state, false);
    }

    /// A server state: the host's record follows it; `missed`: it comes
    /// from a stream opened anew, and the moves it brings are said as
    /// made while the connection was lost.
    fn reconcile(&mut self, host: &mut impl Host, now: u64, state: &GameState, missed: bool) {
        self.watch.now = now;
        let Some(game) = &mut self.game else {
            return;
        };
        let local = Self::local_moves(host.session());
        let changes = game.update(&local, state);
        let me = game.me;
        let timed = game.clock.is_some();
        for change in changes {
            match change {
                Change::Rewind { keep, ours_lost } => {
                    let mut record = host.session().record().clone();
                    let n = record.moves().len() - keep;
                    let taken = record.takeback(n);
                    host.replace_game(now, record);
                    self.clocked = self.clocked.min(keep);
                    self.unsent = false;
                    let pack = host.session().pack();
                    let what = taken
                        .first()
                        .map(|m| Utterance::from(m.san_string()))
                        .unwrap_or_default();
                    let words = if ours_lost {
                        pack.phrase("online_game_moved_on", &[("move", what)])
                    } else {
                        pack.phrase("takeback", &[("move", what)])
                    };
                    let report = Report::Takeback {
                        count: n,
                        ours_lost,
                    };
                    host.report(Some(report), words, Priority::Alert);
                }
                Change::Play(moves) => {
                    if missed {
                        let words = host.session().pack().say("online_while_lost");
                        let report = Report::CaughtUp { count: moves.len() };
                        host.report(Some(report), words, Priority::Move);
                    }
                    for uci in moves {
                        let position = host.session().record().position();
                        let mv = uci
                            .parse::<shakmaty::uci::UciMove>()
                            .ok()
                            .and_then(|u| u.to_move(position).ok());
                        let Some(mv) = mv else {
                            let reason = format!("the server's move {uci} is not legal here");
                            let words = host.session().pack().phrase(
                                "online_error",
                                &[("reason", Utterance::from(reason.as_str()))],
                            );
                            let report = Report::Error {
                                input: None,
                                reason,
                            };
                            host.report(Some(report), words, Priority::Alert);
                            break;
                        };
                        let by = if host.session().record().turn() == me {
                            By::Player
                        } else {
                            By::Opponent
                        };
                        let event = Event::MovePlayed {
                            mv,
                            source: Source::Keyboard,
                        };
                        host.handle(now, event, by);
                    }
                }
                Change::Clocks { white_ms, black_ms } => {
                    self.clocks = Some((white_ms, black_ms));
                    let n = host.session().record().moves().len();
                    if n > self.clocked && timed {
                        self.clocked = n;
                        let event = Event::ServerClocks { white_ms, black_ms };
                        host.handle(now, event, By::Player);
                    }
                }
                Change::DrawOffered => {
                    let pack = host.session().pack();
                    let words = pack.phrase(
                        "draw_offer",
                        &[("side", crate::announce::side_word(pack, !me))],
                    );
                    host.report(Some(Report::Offer { what: "draw" }), words, Priority::Alert);
                }
                Change::DrawDeclined => {
                    let words = host.session().pack().say("draw_offer_declined");
                    let report = Report::OfferDeclined { what: "draw" };
                    host.report(Some(report), words, Priority::Alert);
                }
                Change::TakebackOffered => {
                    let pack = host.session().pack();
                    let words = pack.phrase(
                        "online_takeback_offer",
                        &[("side", crate::announce::side_word(pack, !me))],
                    );
                    let report = Report::Offer { what: "takeback" };
                    host.report(Some(report), words, Priority::Alert);
                }
                Change::TakebackDeclined => {
                    let words = host.session().pack().say("online_takeback_declined");
                    let report = Report::OfferDeclined { what: "takeback" };
                    host.report(Some(report), words, Priority::Alert);
                }
                Change::Ended(kind) => {
                    let mut record = host.session().record().clone();
                    end_record(&mut record, kind);
                    let result = record.result_str().to_owned();
                    let pack = host.session().pack();
                    let words = match record.end() {
                        Some(end) => crate::announce::announce_result(pack, &end),
                        None => pack.say("online_aborted"),
                    };
                    host.replace_game(now, record);
                    let report = Report::End {
                        result,
                        reason: kind.reason(),
                    };
                    host.report(Some(report), words, Priority::Alert);
                    self.todo.push(Todo::Finished);
                }
            }
        }
        self.resend_unsent();
    }

    /// After the session took a move (typed, or executed on the
    /// peg-board): if it is ours and the server has not got it, it is sent.
    pub fn after_local(&mut self, host: &mut impl Host, input: Option<&str>) {
        let Some(game) = &mut self.game else {
            return;
        };
        let record = host.session().record();
        let server_len = game.state.move_count();
        let ours = record.moves().len() == server_len + 1
            && record.turn() != game.me
            && game.pending().is_none()
            && !game.is_over();
        if !ours {
            return;
        }
        let uci = record
            .last_move()
            .map(|m| m.mv.to_uci(CastlingMode::Standard).to_string())
            .unwrap_or_default();
        let request = game.send_move(&uci);
        self.send(request, input);
    }

    /// The answer to a [`Todo::Send`]: a refused move is taken back and
    /// said, a move lost with the network waits for the connection.
    pub fn answered(
        &mut self,
        host: &mut impl Host,
        now: u64,
        call: &Call,
        input: Option<&str>,
        result: Result<(), ApiError>,
    ) {
        self.watch.now = now;
        // Only the answer to the move waiting for the server settles it:
        // an older move's late answer, or a chat line's, does not (a move
        // whose request failed stayed unsent for ever when any later
        // request succeeded).
        let ours = matches!(
            (call, self.game.as_ref().and_then(|g| g.pending())),
            (Call::Game { request: Request::Move(uci), .. }, Some(p)) if uci == p
        );
        if ours {
            self.watch.move_sent_at = None;
            if result.is_ok() {
                self.unsent = false;
            }
        }
        let Err(e) = result else {
            return;
        };
        let error = Report::Error {
            input: input.map(str::to_owned),
            reason: e.to_string(),
        };
        if ours && e == ApiError::RateLimited {
            // Waited out, then sent again: never "not accepted".
            self.rate_limited_move(host, now, error);
            return;
        }
        if ours && matches!(e, ApiError::Network(_)) {
            self.unsent = true;
            self.read_again(now);
            let words = host.session().pack().phrase(
                "online_connection_lost",
                &[("reason", Utterance::from(e.to_string()))],
            );
            host.report(Some(error), words, Priority::Alert);
            return;
        }
        let pack = host.session().pack();
        match (&e, ours, &mut self.game) {
            (_, true, Some(game)) if game.pending().is_some() => {
                game.move_refused();
                let mut record = host.session().record().clone();
                let taken = record.takeback(1);
                host.replace_game(now, record);
                let what = taken
                    .first()
                    .map(|m| Utterance::from(m.san_string()))
                    .unwrap_or_default();
                let words = host.session().pack().phrase(
                    "online_move_refused",
                    &[("move", what), ("reason", Utterance::from(e.to_string()))],
                );
                host.report(Some(error), words, Priority::Alert);
            }
            _ => {
                let words = server_error(pack, &e);
                host.report(Some(error), words, Priority::Alert);
            }
        }
    }

    /// The game's stream dropped (`first`: the first failure since it
    /// worked): said once, also when a stream opened again fails too.
    pub fn stream_dropped(&mut self, host: &mut impl Host, reason: &ApiError, first: bool) {
        if matches!(reason, ApiError::Refused { status: 404, .. }) && self.game.is_some() {
            self.game_missing(host);
            return;
        }
        if !first || self.down {
            return;
        }
        self.down = true;
        say_connection_lost(host, reason);
    }

    /// The game's stream is back: said. A move that got no answer waits
    /// for the game the stream sends first ([`OnlinePlay::apply`]): sent
    /// before it, a move the server already took would be refused and
    /// said as not accepted.
    pub fn stream_back(&mut self, host: &mut impl Host) {
        if !std::mem::take(&mut self.down) {
            return;
        }
        self.watch.catching_up = true;
        let words = host.session().pack().say("online_connection_back");
        host.report(Some(Report::ConnectionBack), words, Priority::Alert);
    }

    /// After a server state: our move that got no answer and that the
    /// server still lacks is sent again (one the server has, or one the
    /// game moved past, is settled by the state itself).
    fn resend_unsent(&mut self) {
        if !std::mem::take(&mut self.unsent) {
            return;
        }
        let pending = self
            .game
            .as_ref()
            .filter(|g| !g.is_over())
            .and_then(|g| g.pending().map(str::to_owned));
        if let Some(uci) = pending {
            self.send(Request::Move(uci), None);
        }
    }
}

/// "Connection to the server lost: ... Reconnecting", with its report.
fn say_connection_lost(host: &mut impl Host, reason: &ApiError) {
    let words = host.session().pack().phrase(
        "online_connection_lost",
        &[("reason", Utterance::from(reason.to_string()))],
    );
    let report = Report::ConnectionLost {
        reason: reason.to_string(),
    };
    host.report(Some(report), words, Priority::Alert);
}

/// The server's ending written into the record (a mate or stalemate the
/// record found itself stays as it is).
fn end_record(record: &mut GameRecord, kind: EndKind) {
    if record.is_over() {
        return;
    }
    match kind {
        EndKind::Checkmate { winner } => record.record_result(KnownOutcome::Decisive { winner }),
        EndKind::Resign { loser } => record.resign(loser),
        EndKind::Stalemate | EndKind::Draw => record.agree_draw(),
        EndKind::OutOfTime { loser, .. } => record.flag_fall(loser),
        EndKind::Timeout { winner } | EndKind::Other { winner } => match winner {
            Some(winner) => record.record_result(KnownOutcome::Decisive { winner }),
            None => record.record_result(KnownOutcome::Draw),
        },
        EndKind::Aborted => {}
    }
}

mod report;
pub mod requests;
mod typed;
mod watch;
pub use report::Report;
pub use watch::Waits;

#[cfg(test)]
mod faults;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::session::SessionConfig;
    use crate::words::Lang;

    /// A host with a real session that keeps what it was told.
    pub(super) struct Recorder {
        pub(super) session: Session,
        pub(super) told: Vec<(Option<Report>, String)>,
        /// Every move announced (UCI) and who made it.
        pub(super) announced: Vec<(String, By)>,
    }

    impl Recorder {
        pub(super) fn new() -> Recorder {
            let config = SessionConfig {
                lang: Lang::En,
                ..SessionConfig::default()
            };
            Recorder {
                session: Session::with_pack(config, Pack::bundled(Lang::En)),
                told: Vec::new(),
                announced: Vec::new(),
            }
        }
    }

    impl Host for Recorder {
        fn session(&self) -> &Session {
            &self.session
        }
        fn handle(&mut self, now: u64, event: Event, by: By) {
            for effect in self.session.handle(now, event) {
                if let crate::session::Effect::Notice(crate::session::Notice::Move { mv, .. }) =
                    effect
                {
                    let uci = mv.to_uci(CastlingMode::Standard).to_string();
                    self.announced.push((uci, by));
                }
            }
        }
        fn begin(&mut self, now: u64, record: GameRecord, _: Color) {
            self.session.resume_game(now, record);
        }
        fn replace_game(&mut self, now: u64, record: GameRecord) {
            self.session.resume_game(now, record);
        }
        fn report(&mut self, report: Option<Report>, words: Utterance, _: Priority) {
            self.told.push((report, words.written));
        }
    }

    fn full(status: &str, moves: &str) -> GameLine {
        serde_json::from_str(&format!(
            r#"{{"type":"gameFull","id":"G1","rated":false,"clock":{{"initial":600000,"increment":5000}},"white":{{"id":"me","name":"Me","rating":1500}},"black":{{"id":"them","name":"Them","rating":1600}},"initialFen":"startpos","state":{{"type":"gameState","moves":"{moves}","wtime":600000,"btime":600000,"winc":5000,"binc":5000,"status":"{status}"}}}}"#
        ))
        .unwrap()
    }

    fn sends(play: &mut OnlinePlay) -> Vec<String> {
        play.take_todo()
            .into_iter()
            .filter_map(|t| match t {
                Todo::Send(call, _) => Some(call.path()),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn the_last_lines_of_an_ended_games_stream_start_no_game() {
        let mut host = Recorder::new();
        let mut play = OnlinePlay::new("me", "http://x", false);
        play.game_line(&mut host, 0, full("mate", "f2f3 e7e5 g2g4 d8h4"))
            .unwrap();
        assert!(play.game().is_none());
        assert!(host.told.is_empty());
        play.game_line(&mut host, 0, full("started", "")).unwrap();
        assert_eq!(play.game().map(|g| g.me), Some(Color::White));
    }

    #[test]
    fn a_challenge_waits_for_yes_or_no_and_a_move_typed_early_is_played_at_the_start() {
        let mut host = Recorder::new();
        let mut play = OnlinePlay::new("me", "http://x", false);
        let challenge: IncomingEvent = serde_json::from_str(
            r#"{"type":"challenge","challenge":{"id":"C1","challenger":{"id":"them","name":"Them","rating":1600},"timeControl":{"type":"clock","limit":300,"increment":3,"show":"5+3"}}}"#,
        )
        .unwrap();
        play.incoming(&mut host, challenge.clone());
        assert_eq!(
            host.told.last().map(|t| t.1.as_str()),
            Some("Challenge from Them, rating 1600: 5+3. Type yes to accept, no to decline")
        );
        // Sent again (the events stream came back): not said again.
        let told = host.told.len();
        play.incoming(&mut host, challenge);
        assert_eq!(host.told.len(), told);
        assert!(play.input(&mut host, 0, "no"));
        assert_eq!(sends(&mut play), ["/api/challenge/C1/decline"]);
        assert!(play.challenge().is_none());
        // No challenge stands: "e4" waits for the game, then is played and sent.
        assert!(play.input(&mut host, 0, "e4"));
        assert!(sends(&mut play).is_empty());
        play.game_line(&mut host, 10, full("started", "")).unwrap();
        assert_eq!(host.session.record().moves().len(), 1);
        assert_eq!(sends(&mut play), ["/api/board/game/G1/move/e2e4"]);
    }

    #[test]
    fn a_move_the_server_refuses_is_taken_back_and_said_with_the_reason() {
        let mut host = Recorder::new();
        let mut play = OnlinePlay::new("me", "http://x", false);
        play.game_line(&mut host, 0, full("started", "")).unwrap();
        assert!(!play.input(&mut host, 5, "Nf3"));
        let todo = play.take_todo();
        let Some(Todo::Send(call, input)) = todo.first().cloned() else {
            panic!("{todo:?}")
        };
        assert_eq!(call.path(), "/api/board/game/G1/move/g1f3");
        let refused = Err(ApiError::Refused {
            status: 400,
            reason: "Not your turn, or game already over".into(),
        });
        play.answered(&mut host, 9, &call, input.as_deref(), refused);
        assert!(host.session.record().moves().is_empty());
        let (report, words) = host.told.last().unwrap();
        assert!(matches!(report, Some(Report::Error { .. })));
        assert_eq!(
            words,
            "Move not accepted: Nf3, Not your turn, or game already over (400)"
        );
        // The same move may be tried again.
        assert!(!play.input(&mut host, 12, "Nf3"));
        assert_eq!(sends(&mut play), ["/api/board/game/G1/move/g1f3"]);
    }

    #[test]
    fn the_clock_word_says_the_servers_clocks_or_that_there_is_none() {
        let mut host = Recorder::new();
        let mut play = OnlinePlay::new("me", "http://x", false);
        play.game_line(&mut host, 0, full("started", "e2e4"))
            .unwrap();
        assert!(play.input(&mut host, 1, "clock"));
        let said: Vec<&str> = host
            .told
            .iter()
            .rev()
            .take(2)
            .map(|t| t.1.as_str())
            .collect();
        assert!(said.iter().all(|s| s.contains("10 minutes")), "{said:?}");
        let mut host = Recorder::new();
        let mut play = OnlinePlay::new("me", "http://x", false);
        let correspondence: GameLine = serde_json::from_str(
            r#"{"type":"gameFull","id":"G2","white":{"id":"me"},"black":{"id":"them"},"state":{"moves":"","status":"started"}}"#,
        )
        .unwrap();
        play.game_line(&mut host, 0, correspondence).unwrap();
        assert!(play.input(&mut host, 1, "clock"));
        assert_eq!(host.told.last().unwrap().1, "This game has no clock");
    }

    #[test]
    fn a_move_whose_request_failed_is_sent_again_though_a_later_request_got_through() {
        let mut host = Recorder::new();
        let mut play = OnlinePlay::new("me", "http://x", false);
        play.game_line(&mut host, 0, full("started", "")).unwrap();
        play.input(&mut host, 5, "e4");
        let Some(Todo::Send(call, input)) = play.take_todo().first().cloned() else {
            panic!()
        };
        let lost = Err(ApiError::Network("timed out".into()));
        play.answered(&mut host, 9, &call, input.as_deref(), lost);
        let todo = play.take_todo();
        assert!(
            todo.iter().any(|t| matches!(t, Todo::Resync(_))),
            "{todo:?}"
        );
        // A chat line written meanwhile gets through ...
        play.input(&mut host, 10, "chat hi");
        let Some(Todo::Send(chat, _)) = play.take_todo().first().cloned() else {
            panic!()
        };
        play.answered(&mut host, 11, &chat, None, Ok(()));
        // ... and the game read again lacks the move: it is sent again.
        play.game_line(&mut host, 12, full("started", "")).unwrap();
        assert_eq!(sends(&mut play), ["/api/board/game/G1/move/e2e4"]);
    }

    #[test]
    fn a_silent_stream_while_the_opponent_is_to_move_is_read_again_after_three_keep_alives() {
        let mut host = Recorder::new();
        let waits = Waits {
            keep_alive_ms: 1000,
            ..Waits::default()
        };
        let mut play = OnlinePlay::new("me", "http://x", false).with_waits(waits);
        play.game_line(&mut host, 0, full("started", "e2e4"))
            .unwrap();
        assert_eq!(play.next_deadline(&host), Some(3000));
        play.tick(&mut host, 2999);
        assert!(play.take_todo().is_empty());
        play.tick(&mut host, 3000);
        assert_eq!(play.take_todo(), [Todo::Resync("G1".into())]);
        // The whole game brings the reply that never came: said as
        // missed, then played.
        play.game_line(&mut host, 3100, full("started", "e2e4 e7e5"))
            .unwrap();
        let said: Vec<&str> = host.told.iter().map(|t| t.1.as_str()).collect();
        assert!(said.contains(&"While the connection was lost:"), "{said:?}");
        assert_eq!(host.announced.last().map(|a| a.0.as_str()), Some("e7e5"));
        // Our turn: nothing to watch.
        assert_eq!(play.next_deadline(&host), None);
    }

    #[test]
    fn too_many_requests_on_a_move_is_waited_out_and_the_move_sent_again() {
        let mut host = Recorder::new();
        let waits = Waits {
            rate_limit_ms: 60_000,
            ..Waits::default()
        };
        let mut play = OnlinePlay::new("me", "http://x", false).with_waits(waits);
        play.game_line(&mut host, 0, full("started", "")).unwrap();
        play.input(&mut host, 5, "e4");
        let Some(Todo::Send(call, input)) = play.take_todo().first().cloned() else {
            panic!()
        };
        play.answered(
            &mut host,
            10,
            &call,
            input.as_deref(),
            Err(ApiError::RateLimited),
        );
        assert_eq!(host.session.record().moves().len(), 1, "kept");
        assert_eq!(
            host.told.last().unwrap().1,
            "The server asks to wait (too many requests): e4 is sent again in 60 seconds"
        );
        play.tick(&mut host, 60_009);
        assert!(sends(&mut play).is_empty());
        play.tick(&mut host, 60_010);
        assert_eq!(sends(&mut play), ["/api/board/game/G1/move/e2e4"]);
    }

    #[test]
    fn the_events_stream_dropping_is_said_before_a_game_and_not_during_one() {
        let mut host = Recorder::new();
        let mut play = OnlinePlay::new("me", "http://x", false);
        let e = ApiError::Network("the stream ended".into());
        play.events_dropped(&mut host, &e);
        play.events_dropped(&mut host, &e);
        play.events_back(&mut host);
        play.events_back(&mut host);
        let said: Vec<&str> = host.told.iter().map(|t| t.1.as_str()).collect();
        assert_eq!(
            said,
            [
                "Connection to the server lost: no connection to the server: the stream ended. Reconnecting",
                "Connected to the server again"
            ]
        );
        play.game_line(&mut host, 0, full("started", "")).unwrap();
        let before = host.told.len();
        play.events_dropped(&mut host, &e);
        play.events_back(&mut host);
        assert_eq!(host.told.len(), before, "the game's own stream speaks");
    }

    #[test]
    fn a_game_the_server_lost_is_said_once_with_the_way_out() {
        let mut host = Recorder::new();
        let mut play = OnlinePlay::new("me", "http://x", false);
        play.game_line(&mut host, 0, full("started", "e2e4"))
            .unwrap();
        let gone = ApiError::Refused {
            status: 404,
            reason: "No such game".into(),
        };
        play.stream_dropped(&mut host, &gone, true);
        play.stream_dropped(&mut host, &gone, false);
        let missing = host
            .told
            .iter()
            .filter(|t| t.0 == Some(Report::GameMissing))
            .count();
        assert_eq!(missing, 1);
        assert!(play.input(&mut host, 10, "again"));
        assert_eq!(play.take_todo(), [Todo::Resync("G1".into())]);
        // Found again: said back, and the game goes on.
        play.game_line(&mut host, 20, full("started", "e2e4 e7e5"))
            .unwrap();
        assert!(
            host.told
                .iter()
                .any(|t| t.0 == Some(Report::ConnectionBack))
        );
        assert_eq!(host.session.record().moves().len(), 2);
    }
}
