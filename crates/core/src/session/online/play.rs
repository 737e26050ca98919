//! One online game between the server and the session. The server is
//! the truth: every state it sends goes through [`OnlineGame::update`] and
//! the session follows it (moves played and announced, moves taken back,
//! the clocks, the end). The player's words (`draw`, `yes`, `resign`,
//! `chat` ...) and moves become requests the shell sends
//! ([`OnlineEffect::Send`]); their answers come back through
//! [`OnlinePlay::answered`].

use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, KnownOutcome};

use super::watch_state::Watch;
use super::{Step, Steps};
use crate::chess::GameRecord;
use crate::online::{
    ApiError, Call, ChallengeInfo, Change, EndKind, GameLine, GameState, IncomingEvent,
    OnlineEffect, OnlineGame, OnlineSetup, PathId, Report, Request, path_id,
};
use crate::session::Priority;
use crate::words::{Pack, Utterance};

/// The online game as the session follows it.
pub struct OnlinePlay {
    pub(super) account: String,
    pub(super) server: String,
    /// Accept the first challenge without asking (`--accept`).
    pub(super) auto_accept: bool,
    pub(super) game: Option<OnlineGame>,
    /// A challenge said and waiting for `yes` or `no`.
    pub(super) challenge: Option<Box<ChallengeInfo>>,
    /// The challenges said (their ids, the latest 64), so one sent again
    /// is not said again.
    pub(super) challenges_said: Vec<String>,
    /// Chat lines not read yet.
    pub(super) chat: Vec<(String, String)>,
    /// The server's clocks (ms) as it last sent them.
    pub(super) clocks: Option<(u64, u64)>,
    /// Moves whose clock reading was written.
    pub(super) clocked: usize,
    /// Our move's request got no answer: the next state the server sends
    /// says whether it got through; if not, it is sent again then.
    pub(super) unsent: bool,
    /// Lines typed before the game started.
    pub(super) waiting_input: Vec<String>,
    /// The game's stream is down (said once; "back" said once when a
    /// line arrives again, from whichever stream).
    pub(super) down: bool,
    /// What the shell is to do next, in this order (drained into the
    /// session's effects after each event).
    pub(super) todo: Vec<OnlineEffect>,
    /// Ask before resigning or offering a draw.
    pub(super) confirm: bool,
    /// "Resign?" or "Offer a draw?" asked, waiting for `yes` or the same
    /// word again.
    pub(super) confirming: Option<Confirming>,
    /// `yes` still answers that question: nothing new was said since it
    /// was asked (after an offer or a move, `yes` would answer the wrong
    /// thing; the same word again still means what it says).
    pub(super) yes_confirms: bool,
    /// Today, for the game's `Date` tag.
    pub(super) today: jiff::civil::Date,
    /// Silence, unanswered requests, waits (see [`watch`]).
    pub(super) watch: Watch,
}

/// A word that waits for `yes` before it is sent.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Confirming {
    Resign,
    Draw,
}

/// A game this account does not play.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("game {0} is not played by this account")]
pub struct NotOurGame(pub PathId);

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

/// An [`ApiError`] in the player's words.
pub fn server_error(pack: &Pack, e: &ApiError) -> Utterance {
    pack.phrase(
        "online_error",
        &[("reason", Utterance::from(e.to_string()))],
    )
}

impl OnlinePlay {
    /// For the account, on the server, as `setup` says.
    pub fn new(setup: OnlineSetup) -> OnlinePlay {
        OnlinePlay {
            account: setup.account,
            server: setup.server.trim_end_matches('/').to_owned(),
            auto_accept: setup.auto_accept,
            confirm: setup.confirm,
            confirming: None,
            yes_confirms: false,
            today: setup.today,
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
            watch: Watch::with_waits(setup.waits),
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

    /// What the shell is to do now.
    pub(super) fn take_todo(&mut self) -> Vec<OnlineEffect> {
        std::mem::take(&mut self.todo)
    }

    pub(super) fn send(&mut self, request: Request, input: Option<&str>) {
        if let Some(game) = &self.game {
            if matches!(request, Request::Move(_)) {
                self.watch.move_sent_at = Some(self.watch.now);
            }
            let call = Call::Game {
                game_id: path_id(&game.id),
                request,
            };
            self.todo.push(OnlineEffect::Send {
                call,
                input: input.map(str::to_owned),
            });
        }
    }

    /// A line of the incoming-events stream.
    pub(super) fn incoming(&mut self, steps: &mut Steps<'_>, event: IncomingEvent) {
        match event {
            IncomingEvent::GameStart { game } if game.compat.as_ref().is_none_or(|c| c.board) => {
                self.challenge = None;
                self.todo.push(OnlineEffect::Open(path_id(&game.game_id)));
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
                let pack = steps.pack();
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
                steps.report(Some(report), words, Priority::Question);
                if self.auto_accept {
                    self.todo.push(OnlineEffect::Send {
                        call: Call::AcceptChallenge(path_id(&challenge.id)),
                        input: None,
                    });
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
                let words = steps.pack().say("online_challenge_canceled");
                steps.report(None, words, Priority::Answer);
            }
            _ => {}
        }
    }

    /// A line of the game's stream.
    pub(super) fn game_line(
        &mut self,
        steps: &mut Steps<'_>,
        now: u64,
        line: GameLine,
    ) -> Result<(), NotOurGame> {
        // A line from the server: the connection works again.
        self.stream_back(steps);
        match line {
            GameLine::GameFull(_) => self.heard_game(now),
            GameLine::GameState(_) => {
                // A state: the silence watch starts again from its first
                // wait.
                self.heard_game(now);
                self.watch.reread(true);
            }
            // Chat, the opponent gone, a line of an unknown kind: the
            // connection lives, but none of them is the game, so they
            // never hold off reading it again. The opponent is there,
            // though: the next reread comes three keep-alives after the
            // last state, not after a long think's longer wait (a chat
            // line next to a reply that never came).
            _ => {
                self.heard(now);
                self.watch.silence_ms = None;
            }
        }
        match line {
            GameLine::GameFull(full) => {
                if self.game.is_none() && !full.state.is_running() {
                    // A game that is over (the last lines of an ended
                    // game's stream): nothing to play.
                    return Ok(());
                }
                if self.game.is_none() {
                    let game = OnlineGame::new(&full, &self.account)
                        .ok_or(NotOurGame(path_id(&full.id)))?;
                    self.start(steps, game);
                }
                // The whole game of a stream opened anew: the moves it
                // brings were missed while the connection was lost. Read
                // once the game started above is the session's record.
                let missed = std::mem::take(&mut self.watch.catching_up);
                steps.then(Step::Reconcile {
                    state: Box::new(full.state),
                    missed,
                });
            }
            GameLine::GameState(state) => self.apply(steps, now, &state),
            GameLine::ChatLine(chat) => {
                if self.game.is_none()
                    || chat.username.eq_ignore_ascii_case(&self.account)
                    || chat.room.as_deref() == Some("spectator")
                {
                    return Ok(());
                }
                self.chat.push((chat.username.clone(), chat.text.clone()));
                let words = steps.pack().say("online_chat_new");
                let report = Report::Chat {
                    from: chat.username,
                };
                steps.report(Some(report), words, Priority::Info);
            }
            GameLine::OpponentGone(gone) => {
                if self.game.is_none() {
                    return Ok(());
                }
                let pack = steps.pack();
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
                steps.report(Some(report), words, Priority::Alert);
            }
            GameLine::Other => {}
        }
        Ok(())
    }

    pub(super) fn start(&mut self, steps: &mut Steps<'_>, game: OnlineGame) {
        let mut record = match &game.initial_fen {
            Some(fen) => match GameRecord::from_fen(fen) {
                Ok(record) => record,
                Err(e) => {
                    report_error(steps, format!("the server's start position: {e}"));
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
        tags.date = crate::pgn::pgn_date(self.today);
        tags.white = game.white.display_name();
        tags.black = game.black.display_name();
        tags.time_control = Some(game.pgn_time_control());
        for (tag, player) in [("WhiteElo", &game.white), ("BlackElo", &game.black)] {
            if let Some(r) = player.rating {
                tags.extra.push((tag.into(), r.to_string()));
            }
        }
        steps.then(Step::Begin {
            record,
            me: game.me,
        });
        let pack = steps.pack();
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
        steps.report(Some(report), greeting, Priority::Answer);
        self.game = Some(game);
        self.challenge = None;
        // Read once the game is the session's record.
        for text in std::mem::take(&mut self.waiting_input) {
            steps.then(Step::Input(text));
        }
    }

    pub(super) fn local_moves(record: &GameRecord) -> Vec<UciMove> {
        record
            .moves()
            .iter()
            .map(|m| m.mv.to_uci(CastlingMode::Standard))
            .collect()
    }

    /// A server state: the session's record follows it.
    pub(super) fn apply(&mut self, steps: &mut Steps<'_>, now: u64, state: &GameState) {
        self.reconcile(steps, now, state, false);
    }

    /// The whole game of a stream ([`Step::Reconcile`]): the record
    /// follows it, and the silence watch starts again from its first wait
    /// only if it brought something new.
    pub(super) fn reconcile_full(
        &mut self,
        steps: &mut Steps<'_>,
        now: u64,
        state: &GameState,
        missed: bool,
    ) {
        let new = self.reconcile(steps, now, state, missed);
        self.watch.reread(new);
    }

    /// A server state: the session's record follows it; `missed`: it comes
    /// from a stream opened anew, and the moves it brings are said as
    /// made while the connection was lost.
    /// True when the state brought something new (more than the clocks).
    fn reconcile(
        &mut self,
        steps: &mut Steps<'_>,
        now: u64,
        state: &GameState,
        missed: bool,
    ) -> bool {
        self.watch.now = now;
        let Some(game) = &mut self.game else {
            return false;
        };
        // A list with a move that is not legal is no state of this game:
        // nothing is taken back or played for it (the player's move taken
        // back for a server's mistake, and every later move refused, was
        // worse than waiting); it is said once and the game read again.
        let start = steps.record().start_position();
        if let Some((ply, uci)) = first_illegal(start, state) {
            let said = (state.moves.clone(), state.unreadable.clone());
            if self.watch.illegal_said.as_ref() != Some(&said) {
                self.watch.illegal_said = Some(said);
                let reason = format!(
                    "the server's move {uci} (ply {}) is not legal here",
                    ply + 1
                );
                report_error(steps, reason);
            }
            return false;
        }
        let local = Self::local_moves(steps.record());
        let changes = game.update(&local, state);
        let new = changes.iter().any(|c| !matches!(c, Change::Clocks { .. }));
        let opponent = game.opponent().display_name();
        let timed = game.clock.is_some();
        // The record's length once the steps asked so far are applied.
        let mut length = local.len();
        for change in changes {
            match change {
                Change::Rewind { keep, ours_lost } => {
                    steps.then(Step::Rewind { keep, ours_lost });
                    length = keep;
                    self.clocked = self.clocked.min(keep);
                    self.unsent = false;
                }
                Change::Play(moves) => {
                    length += moves.len();
                    steps.then(Step::ServerMoves { moves, missed });
                }
                Change::Clocks { white_ms, black_ms } => {
                    self.clocks = Some((white_ms, black_ms));
                    if length > self.clocked && timed {
                        self.clocked = length;
                        steps.then(Step::ServerClocks { white_ms, black_ms });
                    }
                }
                Change::DrawOffered => {
                    let words = steps.pack().phrase(
                        "online_opponent_offers_draw",
                        &[("name", Utterance::from(opponent.as_str()))],
                    );
                    steps.report(Some(Report::Offer { what: "draw" }), words, Priority::Alert);
                }
                Change::DrawDeclined => {
                    let words = steps.pack().say("draw_offer_declined");
                    let report = Report::OfferDeclined { what: "draw" };
                    steps.report(Some(report), words, Priority::Alert);
                }
                Change::TakebackOffered => {
                    let words = steps.pack().phrase(
                        "online_opponent_asks_takeback",
                        &[("name", Utterance::from(opponent.as_str()))],
                    );
                    let report = Report::Offer { what: "takeback" };
                    steps.report(Some(report), words, Priority::Alert);
                }
                Change::TakebackDeclined => {
                    let words = steps.pack().say("online_takeback_declined");
                    let report = Report::OfferDeclined { what: "takeback" };
                    steps.report(Some(report), words, Priority::Alert);
                }
                Change::Ended(kind) => {
                    steps.then(Step::End(kind));
                    self.todo.push(OnlineEffect::Finished);
                }
            }
        }
        self.resend_unsent();
        if new {
            // The game moved on (a move, an offer): a "yes" no longer
            // answers the question asked before it (it could be meant for
            // the offer just said); "resign" or "draw" typed again still
            // sends what it names.
            self.yes_confirms = false;
        }
        new
    }

    /// After the session took a move (typed, or executed on the
    /// peg-board): if it is ours and the server has not got it, it is sent.
    pub(super) fn after_local(&mut self, steps: &mut Steps<'_>, input: Option<&str>) {
        let Some(game) = &mut self.game else {
            return;
        };
        let local = Self::local_moves(steps.record());
        // Ours to send: the record is the server's game and one move more,
        // made on our side, while none waits for the server.
        let ours = match local.split_last() {
            Some((&last, before))
                if before == game.state.moves.as_slice()
                    && steps.record().turn() != game.me
                    && game.pending().is_none()
                    && !game.is_over() =>
            {
                last
            }
            _ => return,
        };
        let request = game.send_move(ours);
        self.send(request, input);
    }

    /// The answer to a [`OnlineEffect::Send`]: a refused move is taken back and
    /// said, a move lost with the network waits for the connection.
    pub(super) fn answered(
        &mut self,
        steps: &mut Steps<'_>,
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
        if result.is_ok() {
            self.watch.requests_down = false;
        }
        if ours {
            self.watch.move_sent_at = None;
            if result.is_ok() {
                self.unsent = false;
            }
        }
        let Err(e) = result else {
            if let Call::Game {
                request: Request::Chat(_),
                ..
            } = call
            {
                let words = steps.pack().say("online_chat_sent");
                steps.report(None, words, Priority::Answer);
            }
            return;
        };
        let error = Report::Error {
            input: input.map(str::to_owned),
            reason: e.to_string(),
        };
        if ours && e == ApiError::RateLimited {
            // Waited out, then sent again: never "not accepted".
            self.rate_limited_move(steps, now, error);
            return;
        }
        if ours && matches!(e, ApiError::Network(_)) {
            self.unsent = true;
            self.read_again(now);
            if std::mem::replace(&mut self.watch.requests_down, true) {
                // Said at the first failure of this outage.
                return;
            }
            let words = steps.pack().phrase(
                "online_connection_lost",
                &[("reason", Utterance::from(e.to_string()))],
            );
            steps.report(Some(error), words, Priority::Alert);
            return;
        }
        let pack = steps.pack();
        match (&e, ours, &mut self.game) {
            (_, true, Some(game)) if game.pending().is_some() => {
                game.move_refused();
                let reason = e.to_string();
                steps.then(Step::MoveRefused { error, reason });
            }
            _ => {
                let words = server_error(pack, &e);
                steps.report(Some(error), words, Priority::Alert);
            }
        }
    }

    /// The game's stream dropped (`first`: the first failure since it
    /// worked): said once, also when a stream opened again fails too.
    pub(super) fn stream_dropped(&mut self, steps: &mut Steps<'_>, reason: &ApiError, first: bool) {
        if self.game.as_ref().is_some_and(|g| g.is_over()) {
            // The server ends a finished game's stream: nothing to say
            // (the front end may still be saving the end).
            return;
        }
        if matches!(reason, ApiError::Refused { status: 404, .. }) && self.game.is_some() {
            self.game_missing(steps);
            return;
        }
        if !first || self.down {
            return;
        }
        self.down = true;
        say_connection_lost(steps, reason);
    }

    /// The game's stream is back: said. A move that got no answer waits
    /// for the game the stream sends first ([`OnlinePlay::apply`]): sent
    /// before it, a move the server already took would be refused and
    /// said as not accepted.
    pub(super) fn stream_back(&mut self, steps: &mut Steps<'_>) {
        if !std::mem::take(&mut self.down) {
            return;
        }
        self.watch.catching_up = true;
        let words = steps.pack().say("online_connection_back");
        steps.report(Some(Report::ConnectionBack), words, Priority::Alert);
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
            .and_then(|g| g.pending().copied());
        if let Some(uci) = pending {
            self.send(Request::Move(uci), None);
        }
    }
}

/// "Server error: {reason}", said and reported (an error of the server's,
/// not of anything the player typed).
fn report_error(steps: &mut Steps<'_>, reason: String) {
    let (report, words) = server_error_report(steps.pack(), reason);
    steps.report(Some(report), words, Priority::Alert);
}

/// The words and the report of a server's error.
pub(super) fn server_error_report(pack: &Pack, reason: String) -> (Report, Utterance) {
    let words = pack.phrase(
        "online_error",
        &[("reason", Utterance::from(reason.as_str()))],
    );
    let report = Report::Error {
        input: None,
        reason,
    };
    (report, words)
}

/// The first move of the server's list that is not legal after the ones
/// before it from `start` (or the word in it that is no move), with its
/// index.
fn first_illegal(start: &shakmaty::Chess, state: &GameState) -> Option<(usize, String)> {
    use shakmaty::Position;
    let mut pos = start.clone();
    for (i, uci) in state.moves.iter().enumerate() {
        match uci.to_move(&pos) {
            Ok(mv) => pos.play_unchecked(mv),
            Err(_) => return Some((i, uci.to_string())),
        }
    }
    let word = state.unreadable.clone()?;
    Some((state.moves.len(), word))
}

/// "Connection to the server lost: ... Reconnecting", with its report.
pub(super) fn say_connection_lost(steps: &mut Steps<'_>, reason: &ApiError) {
    let words = steps.pack().phrase(
        "online_connection_lost",
        &[("reason", Utterance::from(reason.to_string()))],
    );
    let report = Report::ConnectionLost {
        reason: reason.to_string(),
    };
    steps.report(Some(report), words, Priority::Alert);
}

/// The server's ending written into the record (a mate or stalemate the
/// record found itself stays as it is).
pub(super) fn end_record(record: &mut GameRecord, kind: EndKind) {
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
