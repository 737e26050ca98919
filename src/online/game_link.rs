//! What online play asks of the connection, carried out once for the
//! terminal and the window: a request sent ([`OnlineEffect::Send`]), a
//! game's stream followed ([`OnlineEffect::Open`]) or opened anew
//! ([`OnlineEffect::Resync`]). The front ends differ only in the message
//! their threads send back.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::Sender;

use rochade_core::online::{GameLine, OnlineEffect, PathId};

use super::requests::{Requests, spawn_requests};
use super::{ApiError, Client, StreamMsg, spawn_stream};
use rochade_core::online::Call;

/// The request thread and the game's stream of one connection; the
/// game's stream stops when it is dropped.
pub struct GameLink<M> {
    client: Client,
    requests: Requests,
    /// Set to stop the game's stream; none while no game is followed.
    game_stop: Option<Arc<AtomicBool>>,
    tx: Sender<M>,
    wrap_game: fn(StreamMsg<GameLine>) -> M,
}

impl<M: Send + 'static> GameLink<M> {
    /// Starts the request thread; its answers and the game's lines go to
    /// `tx`, wrapped.
    pub fn new(
        client: Client,
        tx: Sender<M>,
        wrap_answer: fn(Call, Option<String>, Result<(), ApiError>) -> M,
        wrap_game: fn(StreamMsg<GameLine>) -> M,
    ) -> GameLink<M> {
        GameLink {
            requests: spawn_requests(client.clone(), tx.clone(), wrap_answer),
            client,
            game_stop: None,
            tx,
            wrap_game,
        }
    }

    /// Carries out a `Send`, `Open` or `Resync`; any other effect is the
    /// front end's and comes back.
    pub fn carry_out(&mut self, effect: OnlineEffect) -> Option<OnlineEffect> {
        match effect {
            OnlineEffect::Send { call, input } => {
                // The thread lives as long as the connection.
                let _ = self.requests.send((call, input));
            }
            OnlineEffect::Open(id) => self.open(&id),
            OnlineEffect::Resync(id) => {
                self.stop_game();
                self.open(&id);
            }
            other => return Some(other),
        }
        None
    }

    /// Whether a game's stream is followed.
    pub fn follows_game(&self) -> bool {
        self.game_stop.is_some()
    }

    /// Follows game `id`'s stream (one game at a time).
    pub fn open(&mut self, id: &PathId) {
        if self.game_stop.is_some() {
            return;
        }
        let stop = Arc::new(AtomicBool::new(false));
        self.game_stop = Some(stop.clone());
        spawn_stream(
            self.client.clone(),
            format!("/api/board/game/stream/{id}"),
            stop,
            self.tx.clone(),
            self.wrap_game,
        );
    }

    /// Stops the game's stream.
    pub fn stop_game(&mut self) {
        if let Some(stop) = self.game_stop.take() {
            stop.store(true, Ordering::Relaxed);
        }
    }
}

impl<M> Drop for GameLink<M> {
    fn drop(&mut self) {
        if let Some(stop) = &self.game_stop {
            stop.store(true, Ordering::Relaxed);
        }
    }
}
