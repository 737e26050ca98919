//! Online play in the window (Lichess Board API): the same game
//! controller as `rochade online` ([`OnlinePlay`]) with the window as its
//! host. The opponent's moves are announced and guided on the peg-board;
//! the player's moves (peg-board, board view or typed) are sent; the words
//! of online play (`draw`, `yes`, `no`, `resign`, `chat` ...) are typed in
//! the move input or chosen in the Online menu.
//!
//! Nothing here waits on the network in a frame: the token, the account,
//! the search for a game and every request run on threads of their own;
//! what they report comes back through one channel that wakes the window.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, Sender, channel};

use shakmaty::Color;

use super::RochadeApp;
use super::online_threads::{OnlineMsg, connect, wrap_answer, wrap_events, wrap_game};
use crate::chess::GameRecord;
use crate::config::{OnlineSettings, Side};
use crate::online::play::requests::{Requests, spawn_requests};
use crate::online::play::{By, Host, OnlinePlay, Report, Todo, path_id};
use crate::online::{Client, StreamMsg, spawn_stream, token};
use crate::session::{Event, Priority, Session};
use crate::words::Utterance;

/// The connection to the server and the game on it.
pub(super) struct Online {
    rx: Receiver<OnlineMsg>,
    /// Where threads send (through the waker).
    tx: Sender<OnlineMsg>,
    client: Option<Client>,
    play: Option<OnlinePlay>,
    server: String,
    /// Set to stop every stream and the seek.
    stop: Arc<AtomicBool>,
    /// Set to stop the game's stream (the game ended); none while no game
    /// is followed.
    game_stop: Option<Arc<AtomicBool>>,
    /// Requests go out in order, one at a time, from this thread.
    requests: Option<Requests>,
    /// Resign asked once by key: the second press within 5 s resigns.
    resign_armed_until: Option<u64>,
}

impl Drop for Online {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(stop) = &self.game_stop {
            stop.store(true, Ordering::Relaxed);
        }
    }
}

/// What the connection panel shows of online play.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct OnlineStatus {
    /// The last thing online play said.
    pub line: String,
    /// The server's clocks (ms, White then Black) after the last move.
    pub clocks: Option<(u64, u64)>,
}

impl RochadeApp {
    /// Whether online play is connected or connecting.
    pub fn online_active(&self) -> bool {
        self.online.is_some()
    }

    /// The online game's colour for this account, once a game runs.
    pub fn online_colour(&self) -> Option<Color> {
        self.online
            .as_ref()
            .and_then(|o| o.play.as_ref())
            .and_then(|p| p.game())
            .map(|g| g.me)
    }

    pub fn online_status(&self) -> &OnlineStatus {
        &self.online_status
    }

    /// Connects to the server in `settings` with the token typed (or, when
    /// none is typed, the stored one) and finds a game as chosen. The
    /// settings are kept; the token never is.
    pub(super) fn online_connect(&mut self, settings: OnlineSettings, typed_token: String) {
        self.online = None; // stops the old connection's threads
        // Only the online choices change: kept and saved, nothing else
        // applied again.
        if self.settings.online != settings {
            self.settings.online = settings.clone();
            self.save_settings();
        }
        let (raw_tx, raw_rx) = channel::<OnlineMsg>();
        // Every report wakes the window.
        let wake = self.wake.clone();
        let rx = match super::run::forward_waking("online-wake", raw_rx, move || {
            if let Some(ctx) = wake.get() {
                ctx.request_repaint();
            }
        }) {
            Ok(rx) => rx,
            Err(e) => return self.online_failed(e.to_string()),
        };
        let stop = Arc::new(AtomicBool::new(false));
        self.online = Some(Online {
            rx,
            tx: raw_tx.clone(),
            client: None,
            play: None,
            server: settings.server.trim().to_owned(),
            stop: stop.clone(),
            game_stop: None,
            requests: None,
            resign_armed_until: None,
        });
        self.online_status = OnlineStatus::default();
        let words = self.session.pack().phrase(
            "online_connecting",
            &[("server", Utterance::from(settings.server.trim()))],
        );
        self.online_say(words, Priority::Answer);
        let started = std::thread::Builder::new()
            .name("online-connect".into())
            .spawn(move || connect(settings, typed_token, raw_tx, stop));
        if let Err(e) = started {
            self.online_failed(e.to_string());
        }
    }

    /// Leaves the server; a game goes on there (Connect follows it again).
    pub(super) fn online_disconnect(&mut self) {
        if self.online.take().is_some() {
            self.say_key("online_disconnected", Priority::Answer);
        }
    }

    fn online_failed(&mut self, reason: String) {
        self.online = None;
        let words = self.session.pack().phrase(
            "online_error",
            &[("reason", Utterance::from(reason.as_str()))],
        );
        self.online_say(words, Priority::Alert);
    }

    fn online_say(&mut self, words: Utterance, priority: Priority) {
        self.online_status.line = words.written.clone();
        self.say(words, priority);
    }

    /// Typed text while connected: a word of online play (true), or a
    /// move (false: sent once the session took it). None when not
    /// connected (the text is an ordinary move then).
    pub(super) fn online_input(&mut self, text: &str) -> Option<bool> {
        let mut online = self.online.take()?;
        let now = self.now_ms();
        let word = match online.play.as_mut() {
            Some(play) => play.input(self, now, text),
            None => {
                let words = self.session.pack().say("online_not_connected_yet");
                self.say(words, Priority::Answer);
                false
            }
        };
        self.online = Some(online);
        self.online_follow_up();
        Some(word)
    }

    /// A key of the game (Ctrl+D, Ctrl+T, F4 ...) while an online game
    /// runs: its word of online play. False when no online game runs.
    pub(super) fn online_key(&mut self, word: &str) -> bool {
        if self.online_colour().is_none() {
            return false;
        }
        if word == "resign" {
            // A slip must not lose the game: the second press resigns.
            let now = self.now_ms();
            let online = self.online.as_mut().expect("online");
            let armed = online.resign_armed_until.is_some_and(|until| now <= until);
            if !armed {
                online.resign_armed_until = Some(now + 5000);
                self.say_key("online_resign_again", Priority::Question);
                return true;
            }
            online.resign_armed_until = None;
        }
        self.online_input(word).is_some()
    }

    /// Hands what the threads reported to the game; sends the player's
    /// new move. Every frame.
    pub(super) fn poll_online(&mut self) {
        let Some(mut online) = self.online.take() else {
            return;
        };
        let messages: Vec<OnlineMsg> = online.rx.try_iter().collect();
        let mut failed = None;
        for msg in messages {
            let now = self.now_ms();
            match msg {
                OnlineMsg::TokenStored(stored) => {
                    let pack = self.session.pack();
                    let words = match stored {
                        Ok(token::Stored::SecretStore) => pack.say("online_token_stored"),
                        Ok(token::Stored::File(_)) => pack.say("online_token_stored_file"),
                        Err(e) => pack.phrase(
                            "online_token_not_stored",
                            &[("reason", Utterance::from(e.as_str()))],
                        ),
                    };
                    self.say(words, Priority::Info);
                }
                OnlineMsg::TokenFile(note) => {
                    let pack = self.session.pack();
                    let words = match &note {
                        token::TokenFileNote::Narrowed { .. } => pack.say("online_token_narrowed"),
                        token::TokenFileNote::StillOpen { path, .. } => pack.phrase(
                            "online_token_open",
                            &[("path", Utterance::from(path.display().to_string()))],
                        ),
                    };
                    self.say(words, Priority::Alert);
                }
                OnlineMsg::Connected {
                    account,
                    client,
                    waits,
                } => {
                    let auto_accept = false;
                    online.play = Some(
                        OnlinePlay::new(&account, &online.server, auto_accept).with_waits(waits),
                    );
                    online.requests = Some(spawn_requests(
                        client.clone(),
                        online.tx.clone(),
                        wrap_answer,
                    ));
                    spawn_stream(
                        client.clone(),
                        "/api/stream/event".into(),
                        online.stop.clone(),
                        online.tx.clone(),
                        wrap_events,
                    );
                    online.client = Some(client);
                    let words = self.session.pack().phrase(
                        "online_connected",
                        &[("account", Utterance::from(account.as_str()))],
                    );
                    self.online_say(words, Priority::Answer);
                }
                OnlineMsg::Failed(reason) => failed = Some(reason),
                OnlineMsg::Open(id) => online.open(&id),
                OnlineMsg::Events(StreamMsg::Line(event)) => {
                    if let Some(play) = online.play.as_mut() {
                        play.events_back(self);
                        play.incoming(self, event);
                    }
                }
                OnlineMsg::Game(StreamMsg::Line(line)) => {
                    if let Some(play) = online.play.as_mut()
                        && let Err(e) = play.game_line(self, now, line)
                    {
                        failed = Some(e.to_string());
                    }
                }
                OnlineMsg::Events(StreamMsg::Unreadable(e))
                | OnlineMsg::Game(StreamMsg::Unreadable(e)) => {
                    let reason = format!("unreadable line from the server: {e}");
                    let words = self.session.pack().phrase(
                        "online_error",
                        &[("reason", Utterance::from(reason.as_str()))],
                    );
                    self.online_say(words, Priority::Alert);
                }
                OnlineMsg::Game(StreamMsg::Dropped { reason, first }) => {
                    if let Some(play) = online.play.as_mut() {
                        play.stream_dropped(self, &reason, first);
                    }
                }
                OnlineMsg::Game(StreamMsg::Back) => {
                    if let Some(play) = online.play.as_mut() {
                        play.stream_back(self);
                    }
                }
                // While a game runs, its own stream says what the player needs.
                OnlineMsg::Events(StreamMsg::Dropped { reason, .. }) => {
                    if let Some(play) = online.play.as_mut() {
                        play.events_dropped(self, &reason);
                    }
                }
                OnlineMsg::Events(StreamMsg::Back) => {
                    if let Some(play) = online.play.as_mut() {
                        play.events_back(self);
                    }
                }
                OnlineMsg::Events(StreamMsg::Fatal(e)) | OnlineMsg::Game(StreamMsg::Fatal(e)) => {
                    failed = Some(e.to_string());
                }
                OnlineMsg::Answered(call, input, result) => {
                    if let Some(play) = online.play.as_mut() {
                        play.answered(self, now, &call, input.as_deref(), result);
                    }
                }
            }
            if failed.is_some() {
                break;
            }
        }
        if let Some(play) = online.play.as_mut() {
            play.after_local(self, None);
            let now = self.now_ms();
            play.tick(self, now);
            if play.game().is_some() {
                self.online_status.clocks = play.clocks();
            }
            // Woken at the controller's next deadline (a silent stream,
            // an unanswered request, a 429 waited out).
            if let (Some(at), Some(ctx)) = (play.next_deadline(self), self.wake.get()) {
                let delay = at.saturating_sub(now).max(1);
                ctx.request_repaint_after(std::time::Duration::from_millis(delay));
            }
        }
        self.online = Some(online);
        self.online_follow_up();
        if let Some(reason) = failed {
            self.online_failed(reason);
        }
    }

    /// Carries out what the game asks: requests to the request thread,
    /// the game's stream opened. At the end of the game the connection
    /// ends too (its streams stop; a finished game's stream would be
    /// reopened again and again): the window is for games here again,
    /// and Ctrl+Shift+O finds the next one online.
    fn online_follow_up(&mut self) {
        let Some(online) = self.online.as_mut() else {
            return;
        };
        let Some(play) = online.play.as_mut() else {
            return;
        };
        let mut finished = false;
        for todo in play.take_todo() {
            match todo {
                Todo::Send(call, input) => {
                    if let Some(requests) = &online.requests {
                        let _ = requests.send((call, input));
                    }
                }
                Todo::Open(id) => online.open(&id),
                Todo::Resync(id) => {
                    if let Some(stop) = online.game_stop.take() {
                        stop.store(true, Ordering::Relaxed);
                    }
                    online.open(&id);
                }
                Todo::Finished => finished = true,
            }
        }
        if finished {
            // Dropping the connection stops its threads; the last words
            // (the result) stay in the connection panel.
            self.online = None;
        }
    }
}

impl Online {
    /// Follows game `id`'s stream (one game at a time).
    fn open(&mut self, id: &str) {
        if self.game_stop.is_some() {
            return;
        }
        let Some(client) = &self.client else { return };
        let stop = Arc::new(AtomicBool::new(false));
        self.game_stop = Some(stop.clone());
        spawn_stream(
            client.clone(),
            format!("/api/board/game/stream/{}", path_id(id)),
            stop,
            self.tx.clone(),
            wrap_game,
        );
    }
}

/// The window as the host of an online game.
impl Host for RochadeApp {
    fn session(&self) -> &Session {
        &self.session
    }

    fn handle(&mut self, _now: u64, event: Event, _by: By) {
        self.dispatch(event);
    }

    fn begin(&mut self, now: u64, record: GameRecord, me: Color) {
        // A game in progress here is not lost to the online one: it is
        // exported (PGN, Braille, text) before the record is replaced,
        // and the place said.
        if self.session.game_in_progress() {
            self.export();
        }
        // The server is the opponent: no computer, the player's colour
        // as the server says, the clocks the server's (no local flag).
        let mut settings = self.settings.clone();
        settings.engine.opponent = false;
        settings.game.blind_side = Side::from_color(me);
        if settings != self.settings {
            self.apply_settings(settings);
        }
        let config = crate::session::SessionConfig {
            time_control: crate::clock::TimeControl::Untimed,
            ..self.session.config().clone()
        };
        self.dispatch(Event::ConfigChanged(config));
        self.replace_game(now, record);
        self.board.selected = None;
    }

    fn replace_game(&mut self, now: u64, record: GameRecord) {
        self.session.resume_game(now, record);
        self.board.selected = None;
        self.queue_save();
    }

    fn report(&mut self, report: Option<Report>, words: Utterance, priority: Priority) {
        if let Some(Report::End { .. }) = report {
            self.online_status.line = words.written.clone();
        }
        self.online_say(words, priority);
    }
}
