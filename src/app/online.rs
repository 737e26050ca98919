//! Online play in the window (Lichess Board API), the shell's side: the
//! game itself is the session's (`Event::Online` in, `Effect::Online`
//! out, as in `rochade online`). The opponent's moves are announced and
//! guided on the peg-board; the player's moves (peg-board, board view or
//! typed) are sent; the words of online play (`draw`, `yes`, `no`,
//! `resign`, `chat` ...) are typed in the move input or chosen in the
//! Online menu.
//!
//! Nothing here waits on the network in a frame: the token, the account,
//! the search for a game and every request run on threads of their own;
//! what they report comes back through one channel that wakes the window
//! and goes into the session as events.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, Sender, channel};

use rochade_core::online::{OnlineEffect, OnlineEvent, OnlineSetup, Report};
use rochade_core::session::online::is_online_word;
use shakmaty::Color;

use super::RochadeApp;
use super::online_threads::{OnlineMsg, connect, wrap_answer, wrap_events, wrap_game};
use crate::config::{OnlineSettings, Side};
use crate::online::{Client, GameLink, StreamMsg, spawn_stream, token};
use crate::session::{Event, Priority};
use crate::words::Utterance;

/// The connection to the server and the game on it.
pub(super) struct Online {
    rx: Receiver<OnlineMsg>,
    /// Where threads send (through the waker).
    tx: Sender<OnlineMsg>,
    server: String,
    /// Set to stop every stream and the seek.
    stop: Arc<AtomicBool>,
    /// The requests and the game's stream, once connected (its game's
    /// stream stops with it).
    link: Option<GameLink<OnlineMsg>>,
}

impl Drop for Online {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
    }
}

/// What the connection panel shows of online play.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct OnlineStatus {
    /// The last thing online play said.
    pub line: String,
    /// The server's clocks (ms, White then Black) after the last move.
    pub clocks: Option<(u64, u64)>,
    /// When (the app's time) the server's clocks last changed: the side
    /// to move's runs down from there.
    pub clocks_at_ms: u64,
}

impl RochadeApp {
    /// Whether online play is connected or connecting.
    pub fn online_active(&self) -> bool {
        self.online.is_some()
    }

    /// The online game's colour for this account, once a game runs.
    pub fn online_colour(&self) -> Option<Color> {
        self.online.as_ref()?;
        self.session.online()?.game().map(|g| g.me)
    }

    pub fn online_status(&self) -> &OnlineStatus {
        &self.online_status
    }

    /// While an online game runs: the server's clocks (ms, White then
    /// Black) and when they came, for the clocks panel (the session's own
    /// clock does not run online: it showed "paused").
    pub(super) fn server_clocks(&self) -> Option<super::clocks::ServerClocks> {
        self.online_colour()?;
        let (white_ms, black_ms) = self.online_status.clocks?;
        Some(super::clocks::ServerClocks {
            white_ms,
            black_ms,
            at_ms: self.online_status.clocks_at_ms,
        })
    }

    /// Connects to the server in `settings` with the token typed (or, when
    /// none is typed, the stored one) and finds a game as chosen. The
    /// settings are kept; the token never is.
    pub(super) fn online_connect(&mut self, settings: OnlineSettings, typed_token: String) {
        self.online_leave(); // stops the old connection's threads
        // Only the online choices change: kept and saved, nothing else
        // applied again.
        if self.settings.online != settings {
            self.settings.online = settings.clone();
            self.save_settings();
        }
        let (raw_tx, raw_rx) = channel::<OnlineMsg>();
        // Every report wakes the window.
        let wake = self.wake.clone();
        let rx = match super::waking::forward_waking("online-wake", raw_rx, move || {
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
            server: settings.server.trim().to_owned(),
            stop: stop.clone(),
            link: None,
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
        if self.online.is_some() {
            self.online_leave();
            self.say_key("online_disconnected", Priority::Answer);
        }
    }

    /// The connection's threads stop and the session leaves online play.
    fn online_leave(&mut self) {
        self.online = None;
        if self.session.online().is_some() {
            self.dispatch(Event::Online(OnlineEvent::Disconnected));
        }
    }

    fn online_failed(&mut self, reason: String) {
        self.online_leave();
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

    /// Typed text while connected: true when it was a word of online play
    /// or a move the session played (the input is cleared), false for a
    /// move refused (it stays typed, to be corrected). None when not
    /// connected (the text is an ordinary move then).
    pub(super) fn online_input(&mut self, text: &str) -> Option<bool> {
        self.online.as_ref()?;
        // Before a game, what is typed is kept for it (or answers a
        // challenge): a word either way.
        let word =
            is_online_word(text) || self.session.online().is_some_and(|o| o.game().is_none());
        let outcome = self.dispatch_outcome(Event::Online(OnlineEvent::Typed(text.to_owned())));
        Some(word || outcome.played())
    }

    /// A key of the game (Ctrl+D, Ctrl+T, F4 ...) while an online game
    /// runs: its word of online play. False when no online game runs.
    pub(super) fn online_key(&mut self, word: &str) -> bool {
        if self.online_colour().is_none() {
            return false;
        }
        // A slip must not lose the game: resigning and offering a draw
        // are asked first (the setting `online_confirm`); yes, or the
        // same key again, sends them.
        self.online_input(word).is_some()
    }

    /// Hands what the threads reported to the session. Every frame.
    pub(super) fn poll_online(&mut self) {
        let Some(online) = &self.online else {
            return;
        };
        let messages: Vec<OnlineMsg> = online.rx.try_iter().collect();
        for msg in messages {
            if self.online.is_none() {
                // Failed, or the game ended: the rest is for nobody.
                break;
            }
            if self.online_game_over() {
                // The end may wait for its save, and with it the Finished
                // that ends the connection: it ends now. The game's stream,
                // ended by the server, was followed meanwhile, and its
                // drops said after the result ("Connection to the server
                // lost ... Reconnecting").
                self.online_leave();
                break;
            }
            let event = match msg {
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
                    continue;
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
                    continue;
                }
                OnlineMsg::Connected {
                    account,
                    client,
                    waits,
                } => {
                    self.online_connected(&client);
                    let words = self.session.pack().phrase(
                        "online_connected",
                        &[("account", Utterance::from(account.as_str()))],
                    );
                    self.online_say(words, Priority::Answer);
                    let setup = OnlineSetup {
                        account,
                        server: self
                            .online
                            .as_ref()
                            .map(|o| o.server.clone())
                            .unwrap_or_default(),
                        auto_accept: false,
                        confirm: self.settings.online.confirm,
                        waits,
                        today: crate::savegame::today(),
                    };
                    OnlineEvent::Connected(Box::new(setup))
                }
                OnlineMsg::Failed(reason) => {
                    self.online_failed(reason);
                    break;
                }
                OnlineMsg::Open(id) => {
                    if let Some(link) = self.online.as_mut().and_then(|o| o.link.as_mut()) {
                        link.open(&id);
                    }
                    continue;
                }
                OnlineMsg::Events(StreamMsg::Line(event)) => OnlineEvent::Incoming(Box::new(event)),
                OnlineMsg::Game(StreamMsg::Line(line)) => {
                    if self.session.online().is_some_and(|o| o.game().is_none()) {
                        // The game about to start is dated today.
                        let today = crate::savegame::today();
                        self.dispatch(Event::Online(OnlineEvent::Today(today)));
                    }
                    OnlineEvent::Game(Box::new(line))
                }
                OnlineMsg::Events(StreamMsg::Unreadable(e))
                | OnlineMsg::Game(StreamMsg::Unreadable(e)) => {
                    let reason = format!("unreadable line from the server: {e}");
                    let words = self.session.pack().phrase(
                        "online_error",
                        &[("reason", Utterance::from(reason.as_str()))],
                    );
                    self.online_say(words, Priority::Alert);
                    continue;
                }
                OnlineMsg::Game(StreamMsg::Dropped { reason, first }) => {
                    OnlineEvent::GameDropped { reason, first }
                }
                OnlineMsg::Game(StreamMsg::Back) => OnlineEvent::GameBack,
                // While a game runs, its own stream says what the player
                // needs (the session decides).
                OnlineMsg::Events(StreamMsg::Dropped { reason, .. }) => {
                    OnlineEvent::EventsDropped(reason)
                }
                OnlineMsg::Events(StreamMsg::Back) => OnlineEvent::EventsBack,
                OnlineMsg::Events(StreamMsg::Fatal(e)) | OnlineMsg::Game(StreamMsg::Fatal(e)) => {
                    self.online_failed(e.to_string());
                    break;
                }
                OnlineMsg::Answered(call, input, result) => OnlineEvent::Answered {
                    call,
                    input,
                    result,
                },
            };
            self.dispatch(Event::Online(event));
        }
        if self.online.is_some() && self.online_game_over() {
            self.online_leave();
        }
        if let Some(play) = self.session.online()
            && play.game().is_some()
            && play.clocks() != self.online_status.clocks
        {
            self.online_status.clocks = play.clocks();
            self.online_status.clocks_at_ms = self.now_ms();
        }
    }

    /// The online game has ended (its end said or waiting for its save).
    fn online_game_over(&self) -> bool {
        self.session
            .online()
            .and_then(|o| o.game())
            .is_some_and(|g| g.is_over())
    }

    /// Connected: the request thread and the events stream start.
    fn online_connected(&mut self, client: &Client) {
        let Some(online) = self.online.as_mut() else {
            return;
        };
        online.link = Some(GameLink::new(
            client.clone(),
            online.tx.clone(),
            wrap_answer,
            wrap_game,
        ));
        spawn_stream(
            client.clone(),
            "/api/stream/event".into(),
            online.stop.clone(),
            online.tx.clone(),
            wrap_events,
        );
    }

    /// Carries out what online play asks ([`crate::runtime::Shell::online`]):
    /// requests to the request thread, the game's stream opened, the
    /// status line. At the end of the game the connection ends too (its
    /// streams stop; a finished game's stream would be reopened again and
    /// again): the window is for games here again, and Ctrl+Shift+O finds
    /// the next one online.
    pub(super) fn online_effect(&mut self, effect: OnlineEffect) {
        let link = self.online.as_mut().and_then(|o| o.link.as_mut());
        let effect = match link {
            Some(link) => match link.carry_out(effect) {
                Some(effect) => effect,
                None => return,
            },
            None => effect,
        };
        match effect {
            // Not connected (yet, or any more): nothing to send them to.
            OnlineEffect::Send { .. } | OnlineEffect::Open(_) | OnlineEffect::Resync(_) => {}
            OnlineEffect::Started { me, previous } => self.online_started(me, previous),
            OnlineEffect::Report { report, line } => {
                // The record changed under the board view (moves taken
                // back, the end): a square picked there is let go.
                if matches!(
                    report,
                    Some(Report::Takeback { .. } | Report::End { .. } | Report::Error { .. })
                ) {
                    self.board.selected = None;
                }
                self.online_status.line = line;
            }
            OnlineEffect::Finished => {
                // Dropping the connection stops its threads; the last
                // words (the result) stay in the connection panel.
                self.online_leave();
            }
            OnlineEffect::NotOurGame(id) => {
                self.online_failed(format!("game {id} is not played by this account"))
            }
        }
    }

    /// A game starts on the server: a game in progress here is not lost
    /// to it (exported: PGN, Braille, text, and the place said); the
    /// settings follow it (no computer, the player's colour as the server
    /// says; the clocks are the server's).
    fn online_started(&mut self, me: Color, previous: Option<rochade_core::online::LeftGame>) {
        if let Some(previous) = previous {
            self.export_record(*previous.0);
        }
        // The session has taken them already (and the game's tags, which
        // applying the whole settings again would overwrite): they are
        // only kept.
        let mut settings = self.settings.clone();
        settings.engine.opponent = false;
        settings.game.blind_side = Side::from_color(me);
        if settings != self.settings {
            self.settings = settings;
            self.save_settings();
        }
        self.board.selected = None;
    }
}
