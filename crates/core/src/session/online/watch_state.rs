//! What the online controller's watch remembers between events (see
//! `watch.rs` for what it does with it): when the server was last heard,
//! what is awaited, and how long a silence it waits for now.

use crate::online::Waits;
use shakmaty::uci::UciMove;

/// What the watch remembers.
#[derive(Clone, Debug, Default)]
pub(super) struct Watch {
    pub(super) waits: Waits,
    /// The time of the last event that passed one in.
    pub(super) now: u64,
    /// When the game stream last brought a line or was opened anew.
    pub(super) heard_at: u64,
    /// Our move's request was asked of the shell then; its answer awaited.
    pub(super) move_sent_at: Option<u64>,
    /// Our move waits out a 429 until then, then is sent again.
    pub(super) resend_at: Option<u64>,
    /// The game stream is down since then.
    pub(super) down_since: Option<u64>,
    /// "The server does not answer" said for this outage.
    pub(super) gone_said: bool,
    /// "The server does not have this game" said for this outage.
    pub(super) missing_said: bool,
    /// The stream was opened anew after a drop or a silence: the moves
    /// its whole game brings are said as missed.
    pub(super) catching_up: bool,
    /// The events stream is down (said while no game runs).
    pub(super) events_down: bool,
    /// Our move's request failed with the network (said once; every
    /// failure after it, until a request goes through, is not said
    /// again: each try is not an outage).
    pub(super) requests_down: bool,
    /// The server's move list with a move not legal in it, said (its
    /// moves as sent): said once, the game read again after the usual
    /// silence rather than at once, so a server that keeps sending it is
    /// never asked in a loop.
    pub(super) illegal_said: Option<(Vec<UciMove>, Option<String>)>,
    /// The silence the watch waits for before reading the game again:
    /// three keep-alives at first, doubled after each reread that brought
    /// nothing new (the opponent thinks long), up to [`SILENCE_MAX_MS`];
    /// `None` for the first wait.
    pub(super) silence_ms: Option<u64>,
    /// The game was read again for a silence: the whole game it brings
    /// says whether the wait grows.
    pub(super) reread_for_silence: bool,
}

/// The longest silence waited for before reading the game again: a long
/// think is reread every two minutes at most, so the server never answers
/// "too many requests" (429) to the rereads.
pub const SILENCE_MAX_MS: u64 = 120_000;

impl Watch {
    pub(super) fn with_waits(waits: Waits) -> Watch {
        Watch {
            waits,
            ..Watch::default()
        }
    }

    /// The silence waited for now.
    pub(super) fn silence(&self) -> u64 {
        self.silence_ms.unwrap_or(3 * self.waits.keep_alive_ms)
    }

    /// A line of the game arrived: `new`, it brought something (a state,
    /// a move) and the wait starts again from three keep-alives; the whole
    /// game of a reread for a silence that brought nothing doubles it.
    pub(super) fn reread(&mut self, new: bool) {
        let for_silence = std::mem::take(&mut self.reread_for_silence);
        if new {
            self.silence_ms = None;
        } else if for_silence {
            self.silence_ms = Some((2 * self.silence()).min(SILENCE_MAX_MS.max(self.silence())));
        }
    }
}
