//! The one place that paces time. Every front end (the window's frames,
//! `rochade play`/`online`, `puzzle`, `track` live and replayed, the
//! broadcast push thread) waits for its next input *here*, and runs what
//! the core has scheduled *here*: the core says when it next needs time
//! ([`Timed::next_deadline`]); the driver turns that into a wait on the
//! front end's one channel of events, and into ticks at the right times.
//!
//! Why one place: a deadline read in seven loops drifted seven ways (one
//! loop ran a single tick per look, another ran them all at "now" instead
//! of at their own times). Time is a value here, so replays in virtual
//! time and live runs take the same steps.

use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::time::Duration;

use rochade_core::broadcast::push::Pusher;
use rochade_core::session::Session;

/// Something whose work is scheduled in time (in ms on its own clock).
pub trait Timed {
    /// When it next needs a tick, if ever.
    fn next_deadline(&self) -> Option<u64>;
}

impl Timed for Session {
    fn next_deadline(&self) -> Option<u64> {
        Session::next_deadline(self)
    }
}

impl Timed for Pusher {
    fn next_deadline(&self) -> Option<u64> {
        Pusher::next_deadline(self)
    }
}

/// The longest a front end sleeps without looking again, when nothing is
/// scheduled sooner: a source that forgets to wake it costs at most this.
pub const LOOK_AGAIN: Duration = Duration::from_millis(500);

/// At most this many deadlines run in one go: a deadline that never moves
/// on (a bug) must not hang the front end.
const MAX_TICKS_IN_A_ROW: usize = 100_000;

/// The deadline due by `now`, if any.
pub fn due(timed: &impl Timed, now: u64) -> Option<u64> {
    timed.next_deadline().filter(|&d| d <= now)
}

/// Whether nothing at all is scheduled (no reply, settle or guidance
/// still to come): voice input listens for the player's move only then.
pub fn nothing_scheduled(timed: &impl Timed) -> bool {
    timed.next_deadline().is_none()
}

/// How long to wait from `now` for the next input: until the next deadline
/// of `timed` (or of `also`, another deadline of the front end's own), at
/// most `cap`.
pub fn wait(timed: &impl Timed, also: Option<u64>, now: u64, cap: Duration) -> Duration {
    until(
        [timed.next_deadline(), also].into_iter().flatten().min(),
        now,
        cap,
    )
}

/// For a front end that is woken rather than waiting (the window): how
/// long it may sleep from `now`, until the next deadline of `timed` or
/// `also`; `None` when nothing is scheduled (it sleeps until an input).
/// At least 1 ms: a deadline just past wakes it at once, not in a busy loop.
pub fn wake_in(timed: &impl Timed, also: Option<u64>, now: u64) -> Option<Duration> {
    to_soonest(timed, also, now).map(|d| d.max(Duration::from_millis(1)))
}

/// From `now` to the next deadline of `timed` or `also` (nothing when past);
/// `None` when nothing is scheduled, for a front end that then waits only
/// for its inputs (give it to [`next`]).
pub fn to_soonest(timed: &impl Timed, also: Option<u64>, now: u64) -> Option<Duration> {
    let next = [timed.next_deadline(), also].into_iter().flatten().min()?;
    Some(Duration::from_millis(next.saturating_sub(now)))
}

/// From `now` until `deadline`, at most `cap` (and `cap` without one).
pub fn until(deadline: Option<u64>, now: u64, cap: Duration) -> Duration {
    deadline
        .map_or(cap, |d| Duration::from_millis(d.saturating_sub(now)))
        .min(cap)
}

/// Runs every deadline of `timed` due by `until`, each at its own time and
/// in order (a tick at 1,200 ms after a pause is told 1,200, not the time
/// the loop woke). `tick` carries the work out.
pub fn run_due<T: Timed, E>(
    timed: &mut T,
    until: u64,
    tick: impl FnMut(&mut T, u64) -> Result<(), E>,
) -> Result<(), E> {
    run_due_of(timed, |t| t, until, tick)
}

/// [`run_due`] for a front end that holds what is timed (its session):
/// `timed` finds it, `tick` is given the whole front end.
pub fn run_due_of<S, T: Timed, E>(
    owner: &mut S,
    timed: impl Fn(&S) -> &T,
    until: u64,
    mut tick: impl FnMut(&mut S, u64) -> Result<(), E>,
) -> Result<(), E> {
    for _ in 0..MAX_TICKS_IN_A_ROW {
        match due(timed(owner), until) {
            Some(d) => tick(owner, d)?,
            None => return Ok(()),
        }
    }
    Ok(())
}

/// What waiting on a front end's channel gave.
#[derive(Debug, PartialEq, Eq)]
pub enum Next<T> {
    /// An input from one of the sources.
    Input(T),
    /// The wait ran out: a deadline may be due.
    Due,
    /// Every source is gone.
    Closed,
}

/// Waits on the front end's one channel for the next input, at most `wait`
/// (from [`wait`]); `None` waits until an input comes or the sources end.
pub fn next<T>(rx: &Receiver<T>, wait: Option<Duration>) -> Next<T> {
    match wait {
        Some(wait) => match rx.recv_timeout(wait) {
            Ok(input) => Next::Input(input),
            Err(RecvTimeoutError::Timeout) => Next::Due,
            Err(RecvTimeoutError::Disconnected) => Next::Closed,
        },
        None => rx.recv().map_or(Next::Closed, Next::Input),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Deadlines in a list: each tick takes the first.
    struct Alarms(Vec<u64>);

    impl Timed for Alarms {
        fn next_deadline(&self) -> Option<u64> {
            self.0.first().copied()
        }
    }

    #[test]
    fn deadlines_run_in_order_each_at_its_own_time_and_none_early() {
        let mut alarms = Alarms(vec![100, 250, 900]);
        let mut told = Vec::new();
        run_due(&mut alarms, 300, |a, at| {
            told.push(at);
            a.0.remove(0);
            Ok::<(), ()>(())
        })
        .unwrap();
        assert_eq!(told, [100, 250]);
        assert_eq!(alarms.0, [900]);
    }

    #[test]
    fn a_deadline_that_never_moves_on_does_not_hang_the_front_end() {
        let mut stuck = Alarms(vec![5]);
        let mut ticks = 0;
        run_due(&mut stuck, 10, |_, _| {
            ticks += 1;
            Ok::<(), ()>(())
        })
        .unwrap();
        assert_eq!(ticks, MAX_TICKS_IN_A_ROW);
    }

    #[test]
    fn an_error_stops_the_ticks() {
        let mut alarms = Alarms(vec![1, 2, 3]);
        let result = run_due(&mut alarms, 10, |a, at| {
            a.0.remove(0);
            if at == 2 { Err(at) } else { Ok(()) }
        });
        assert_eq!(result, Err(2));
        assert_eq!(alarms.0, [3]);
    }

    #[test]
    fn the_wait_runs_to_the_soonest_deadline_and_never_past_the_cap() {
        let cap = Duration::from_millis(500);
        let alarms = Alarms(vec![1_300]);
        assert_eq!(wait(&alarms, None, 1_000, cap), Duration::from_millis(300));
        assert_eq!(
            wait(&alarms, Some(1_100), 1_000, cap),
            Duration::from_millis(100)
        );
        assert_eq!(wait(&Alarms(vec![]), None, 1_000, cap), cap);
        assert_eq!(wait(&Alarms(vec![9_000]), None, 1_000, cap), cap);
        // A deadline already past: no wait at all.
        assert_eq!(wait(&alarms, None, 2_000, cap), Duration::ZERO);
        assert!(!nothing_scheduled(&alarms));
        assert!(nothing_scheduled(&Alarms(vec![])));
        assert_eq!(due(&alarms, 1_299), None);
        assert_eq!(due(&alarms, 1_300), Some(1_300));
    }

    #[test]
    fn the_window_sleeps_until_the_soonest_deadline_or_until_an_input() {
        let alarms = Alarms(vec![1_300]);
        assert_eq!(
            wake_in(&alarms, Some(1_200), 1_000),
            Some(Duration::from_millis(200))
        );
        assert_eq!(
            wake_in(&alarms, None, 1_000),
            Some(Duration::from_millis(300))
        );
        assert_eq!(
            wake_in(&alarms, None, 5_000),
            Some(Duration::from_millis(1))
        );
        assert_eq!(wake_in(&Alarms(vec![]), None, 1_000), None);
        assert_eq!(to_soonest(&alarms, None, 5_000), Some(Duration::ZERO));
        assert_eq!(
            to_soonest(&Alarms(vec![]), Some(1_100), 1_000),
            Some(Duration::from_millis(100))
        );
        assert_eq!(to_soonest(&Alarms(vec![]), None, 1_000), None);
    }

    #[test]
    fn the_channel_gives_an_input_a_timeout_or_its_end() {
        let (tx, rx) = std::sync::mpsc::channel();
        tx.send(7).unwrap();
        assert_eq!(next(&rx, Some(Duration::ZERO)), Next::Input(7));
        assert_eq!(next(&rx, Some(Duration::ZERO)), Next::Due);
        tx.send(8).unwrap();
        assert_eq!(next(&rx, None), Next::Input(8));
        drop(tx);
        assert_eq!(next(&rx, Some(Duration::ZERO)), Next::Closed);
        assert_eq!(next::<i32>(&rx, None), Next::Closed);
    }
}
