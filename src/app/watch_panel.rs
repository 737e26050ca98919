//! The Watch panel: a live broadcast round followed in the window (Online
//! menu, "Watch a broadcast"). The round's stream is read on a thread of
//! its own ([`crate::online::broadcast::spawn_round_stream`], reconnecting
//! after a drop); its messages wake the window and are made into games in
//! the frame ([`RoundFollower`], shared with `rochade watch`). The followed
//! game's moves are said as any announced move (first, at once) and land
//! in the spoken history; the round's boards are buttons (press one to
//! follow it), each with its last move; the clocks, the results and the
//! tournament's standings (fetched on a thread of their own) on request.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, channel};

use egui::Ui;

use super::{RochadeApp, UiText};
use crate::announce::AnnounceForm;
use crate::broadcast::{Ask, Pick, Watch};
use crate::online::broadcast::{
    Followed, RoundFollower, RoundMsg, RoundTiming, effect_words, round_path, spawn_round_stream,
};
use crate::session::Priority;
use crate::words::{Pack, Utterance};

/// The round followed, its thread and what the panel shows.
pub struct WatchPanel {
    /// The round's id.
    round: String,
    watch: Watch,
    follower: RoundFollower,
    rx: Receiver<RoundMsg>,
    /// Set to stop the round's thread (on Stop, or when the panel goes).
    stop: Arc<AtomicBool>,
    /// The last word about the connection, under the heading.
    status: String,
    /// The panel's first button takes the keyboard (just opened).
    take_focus: bool,
    /// The standings asked for, while they are fetched.
    standings: Option<Receiver<StandingsAnswer>>,
    /// Wakes the window (for the standings' answer).
    wake: Arc<dyn Fn() + Send + Sync>,
}

/// The standings fetched, or why not.
type StandingsAnswer = Result<Vec<crate::broadcast::Standing>, crate::online::ApiError>;

impl Drop for WatchPanel {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
    }
}

/// What the listener asked in the panel this frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum PanelAsk {
    Ask(Ask),
    Standings,
    Stop,
}

fn same(msg: RoundMsg) -> RoundMsg {
    msg
}

impl WatchPanel {
    /// Starts reading `round`'s stream on `server`; `wake` wakes the
    /// window for each message.
    fn start(
        server: &str,
        round: &str,
        pick: Pick,
        form: AnnounceForm,
        timing: RoundTiming,
        wake: impl Fn() + Send + Sync + 'static,
    ) -> std::io::Result<WatchPanel> {
        let path = round_path(round).ok_or_else(|| std::io::Error::other("no round id"))?;
        let wake: Arc<dyn Fn() + Send + Sync> = Arc::new(wake);
        let (raw_tx, raw_rx) = channel::<RoundMsg>();
        let waker = wake.clone();
        let rx = super::waking::forward_waking("broadcast-wake", raw_rx, move || waker())?;
        let stop = Arc::new(AtomicBool::new(false));
        spawn_round_stream(server, &path, timing, stop.clone(), raw_tx, same)?;
        Ok(WatchPanel {
            round: round.to_owned(),
            watch: Watch::new(pick, form),
            follower: RoundFollower::new(),
            rx,
            stop,
            status: String::new(),
            take_focus: true,
            standings: None,
            wake,
        })
    }

    /// Fetches the standings of the round's tournament from `server`.
    fn ask_standings(&mut self, server: &str) {
        let (tx, rx) = channel();
        let (server, round, wake) = (server.to_owned(), self.round.clone(), self.wake.clone());
        std::thread::spawn(move || {
            let timeout = crate::online::broadcast_standings::STANDINGS_TIMEOUT;
            let answer =
                crate::online::broadcast_standings::fetch_standings(&server, &round, timeout);
            if tx.send(answer).is_ok() {
                wake();
            }
        });
        self.standings = Some(rx);
    }

    /// What the round's thread reported since the last frame.
    fn poll(&mut self, pack: &Pack) -> Vec<Followed> {
        let messages: Vec<RoundMsg> = self.rx.try_iter().collect();
        let mut out = Vec::new();
        for msg in messages {
            out.extend(self.follower.message(msg, pack, &mut self.watch));
        }
        out
    }

    /// Draws the panel; what was asked comes back.
    fn ui(&mut self, ui: &mut Ui, t: &UiText, pack: &Pack) -> Option<PanelAsk> {
        let mut asked = None;
        super::a11y::heading(ui, format!("{} {}", t.get("watch_heading"), self.round));
        if !self.status.is_empty() {
            ui.label(&self.status);
        }
        ui.horizontal_wrapped(|ui| {
            let results = ui.button(t.get("watch_results"));
            if std::mem::take(&mut self.take_focus) {
                results.request_focus();
            }
            if results.clicked() {
                asked = Some(PanelAsk::Ask(Ask::Boards));
            }
            if ui.button(t.get("watch_clocks")).clicked() {
                asked = Some(PanelAsk::Ask(Ask::Clock));
            }
            if ui.button(t.get("watch_standings")).clicked() {
                asked = Some(PanelAsk::Standings);
            }
            if ui.button(t.get("watch_stop")).clicked() {
                asked = Some(PanelAsk::Stop);
            }
        });
        if self.watch.boards().is_empty() {
            ui.label(t.get("watch_waiting"));
            return asked;
        }
        ui.label(t.get("watch_boards"));
        let followed = self.watch.followed();
        for board in self.watch.boards() {
            ui.horizontal_wrapped(|ui| {
                let words = board.state_words(pack).spoken;
                let button = egui::Button::new(words).selected(followed == Some(board.number));
                if ui.add(button).clicked() {
                    asked = Some(PanelAsk::Ask(Ask::Follow(board.number)));
                }
                let last = format!("{} {}", t.get("watch_last"), board.number);
                if ui.button(last).clicked() {
                    asked = Some(PanelAsk::Ask(Ask::Last(board.number)));
                }
            });
        }
        asked
    }
}

impl RochadeApp {
    /// Online menu, "Watch a broadcast": the dialog asking for the round.
    pub(super) fn open_watch(&mut self) {
        let return_to = if self.board.focused {
            super::FocusTarget::Board
        } else {
            super::FocusTarget::MoveInput
        };
        self.panels.dialogs.modal = Some(super::Modal::Watch(Box::new(
            super::watch_dialog::WatchDraft::new(return_to),
        )));
        self.say_key("broadcast_dialog", Priority::Answer);
    }

    /// The round being watched, if any (its id).
    pub fn watched_round(&self) -> Option<&str> {
        self.rooms.watch.as_ref().map(|w| w.round.as_str())
    }

    /// Starts watching `round` on the server of the online settings (a
    /// round watched before stops).
    pub(super) fn start_watch(&mut self, round: String, pick: Pick) {
        self.rooms.watch = None;
        let wake = self.wake.clone();
        // The waits before reconnecting: Lichess's, or shorter ones for a
        // local server (`ROCHADE_ONLINE_WAITS`, as online play).
        let (waits, _) = super::online_threads::waits_from_env();
        let timing = RoundTiming {
            backoff: waits.backoff,
            ..RoundTiming::default()
        };
        let started = WatchPanel::start(
            self.settings.online.server.trim(),
            &round,
            pick,
            self.settings.speech.form,
            timing,
            move || {
                if let Some(ctx) = wake.get() {
                    ctx.request_repaint();
                }
            },
        );
        match started {
            Ok(panel) => {
                self.rooms.watch = Some(panel);
                let words = self
                    .session
                    .pack()
                    .phrase("broadcast_watching", &[("round", Utterance::from(round))]);
                self.watch_say(words, Priority::Answer);
            }
            Err(e) => {
                let words = self.session.pack().phrase(
                    "online_error",
                    &[("reason", Utterance::from(e.to_string()))],
                );
                self.say(words, Priority::Alert);
            }
        }
    }

    /// Stop watching: the round's thread ends.
    pub(super) fn stop_watch(&mut self) {
        if self.rooms.watch.take().is_some() {
            self.say_key("broadcast_stopped", Priority::Answer);
        }
    }

    /// Says words of the watch's connection, and shows them in the panel.
    fn watch_say(&mut self, words: Utterance, priority: Priority) {
        if let Some(panel) = self.rooms.watch.as_mut() {
            panel.status = words.spoken.clone();
        }
        self.say(words, priority);
    }

    /// What the round's thread reported, said. Every frame.
    pub(super) fn poll_watch(&mut self) {
        let pack = self.session.pack().clone();
        let Some(panel) = self.rooms.watch.as_mut() else {
            return;
        };
        let round = panel.round.clone();
        let standings = panel.standings.as_ref().and_then(|rx| rx.try_recv().ok());
        if let Some(answer) = standings {
            panel.standings = None;
            let words = match answer {
                Ok(list) => crate::broadcast::standings_words(&pack, &list),
                Err(e) => pack.phrase(
                    "broadcast_standings_failed",
                    &[("reason", Utterance::from(e.to_string()))],
                ),
            };
            self.say(words, Priority::Answer);
        }
        let Some(panel) = self.rooms.watch.as_mut() else {
            return;
        };
        for followed in panel.poll(&pack) {
            match followed {
                Followed::Effect(effect) => {
                    let (words, priority) = effect_words(&effect);
                    self.say(words.clone(), priority);
                }
                Followed::TooLong | Followed::Unreadable(_) => {
                    self.watch_say(pack.say("broadcast_unreadable"), Priority::Info)
                }
                Followed::Back => self.watch_say(pack.say("broadcast_back"), Priority::Info),
                Followed::Dropped(reason) => {
                    let words = pack.phrase(
                        "broadcast_dropped",
                        &[("reason", Utterance::from(reason.as_str()))],
                    );
                    self.watch_say(words, Priority::Alert);
                }
                Followed::Ended => {
                    // The boards stay, to be asked about.
                    if let Some(panel) = self.rooms.watch.as_ref() {
                        panel.stop.store(true, Ordering::Relaxed);
                    }
                    self.watch_say(pack.say("broadcast_ended"), Priority::Answer);
                }
                Followed::NotFound => {
                    let words = pack.phrase(
                        "broadcast_not_found",
                        &[("round", Utterance::from(round.as_str()))],
                    );
                    self.watch_say(words, Priority::Alert);
                }
            }
        }
    }

    /// Draws the Watch panel (in the side column) and carries out what
    /// was asked there.
    pub(super) fn watch_panel_ui(&mut self, ui: &mut Ui, t: &UiText) {
        let pack = self.session.pack().clone();
        let Some(panel) = self.rooms.watch.as_mut() else {
            return;
        };
        if panel.take_focus {
            // The panel's first button takes the keyboard, not the place
            // the dialog was opened from (nor the move input, which takes
            // it when nothing has it).
            self.panels.focus_request = None;
        }
        let asked = panel.ui(ui, t, &pack);
        ui.separator();
        match asked {
            None => {}
            Some(PanelAsk::Stop) => self.stop_watch(),
            Some(PanelAsk::Standings) => {
                let server = self.settings.online.server.trim().to_owned();
                panel.ask_standings(&server);
            }
            Some(PanelAsk::Ask(ask)) => {
                let effects = panel.watch.ask(&pack, ask);
                for effect in effects {
                    let (words, priority) = effect_words(&effect);
                    self.say(words.clone(), priority);
                }
            }
        }
    }
}
