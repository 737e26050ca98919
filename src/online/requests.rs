//! The front ends' request thread (the terminal's and the window's):
//! requests sent in order, one at a time, each answer reported through
//! `wrap` as soon as it comes, so the front end's loop never waits on the
//! network and online play's deadlines keep running while a request
//! hangs. Every request has the client's timeouts
//! ([`crate::online::Timing`]).

use std::sync::mpsc::{Sender, channel};

use rochade_core::online::Call;

use crate::online::{ApiError, Client};

/// Where the host hands its requests: a call and the typed text it came from.
pub type Requests = Sender<(Call, Option<String>)>;

/// Spawns the thread; its answers go to `tx` wrapped by `wrap`.
pub fn spawn_requests<M: Send + 'static>(
    client: Client,
    tx: Sender<M>,
    wrap: fn(Call, Option<String>, Result<(), ApiError>) -> M,
) -> Requests {
    let (requests, rx) = channel::<(Call, Option<String>)>();
    let _ = std::thread::Builder::new()
        .name("online-requests".into())
        .spawn(move || {
            for (call, input) in rx {
                let result = client.post(&call.path(), &call.form()).map(|_| ());
                if tx.send(wrap(call, input, result)).is_err() {
                    return;
                }
            }
        });
    requests
}
