//! The player's own time warnings: said once each when his clock passes
//! 2 minutes 30 seconds, and again at Lichess's "emergency" time.
//!
//! Lichess (lila, `ui/round/src/clock/clockCtrl.ts`) plays its low-time
//! sound at `emergMs = 1000 * min(60, max(10, initial * 0.125))`: an
//! eighth of the starting time, at least 10 s and at most 60 s (5+3: 37.5
//! s; 3+2: 22.5 s; 15+10: 60 s). A threshold at or above the starting time
//! is never passed and not given. Each is said once per game (a takeback
//! that gives time back does not say it again).

use shakmaty::Color;

use super::{Clock, TimeControl};

/// The warning blind players asked for (lichess-org/lila #20343).
pub const PLAYER_WARNING_MS: u64 = 150_000;

/// Lichess's emergency time for a game that starts with `initial_ms`.
pub fn lichess_emergency_ms(initial_ms: u64) -> u64 {
    (initial_ms / 8).clamp(10_000, 60_000)
}

/// Which of the player's warnings were said this game.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PlayerWarnings {
    given: Vec<u64>,
}

impl PlayerWarnings {
    /// The thresholds of a time control, highest first: 2:30 and the
    /// emergency time, those below the starting time only.
    pub fn thresholds(control: &TimeControl) -> Vec<u64> {
        let Some(first) = control.periods().first() else {
            return Vec::new();
        };
        let initial = first.seconds * 1000;
        let mut out: Vec<u64> = [PLAYER_WARNING_MS, lichess_emergency_ms(initial)]
            .into_iter()
            .filter(|t| *t < initial)
            .collect();
        out.sort_unstable_by(|a, b| b.cmp(a));
        out.dedup();
        out
    }

    /// A new game: every warning may be said again.
    pub fn reset(&mut self) {
        self.given.clear();
    }

    /// The threshold the player's time has just passed, if one not yet
    /// said; when time jumped past several at once, the lowest (what is
    /// true now), all of them counted as said.
    pub fn crossed(&mut self, control: &TimeControl, remaining_ms: u64) -> Option<u64> {
        let due: Vec<u64> = Self::thresholds(control)
            .into_iter()
            .filter(|t| remaining_ms <= *t && !self.given.contains(t))
            .collect();
        self.given.extend(&due);
        due.last().copied()
    }

    /// When the next warning is due, while `side`'s clock runs.
    pub fn deadline(&self, clock: &Clock, side: Color) -> Option<u64> {
        if clock.running() != Some(side) {
            return None;
        }
        let flag = clock.flag_deadline()?;
        Self::thresholds(clock.control())
            .into_iter()
            .filter(|t| !self.given.contains(t))
            .map(|t| flag.saturating_sub(t))
            .min()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn control(text: &str) -> TimeControl {
        text.parse().unwrap()
    }

    #[test]
    fn two_thirty_and_lichess_s_emergency_time() {
        assert_eq!(
            PlayerWarnings::thresholds(&control("300+3")),
            [150_000, 37_500]
        );
        assert_eq!(
            PlayerWarnings::thresholds(&control("900+10")),
            [150_000, 60_000]
        );
        // A 2-minute game never passes 2:30.
        assert_eq!(PlayerWarnings::thresholds(&control("120+1")), [15_000]);
        assert_eq!(PlayerWarnings::thresholds(&control("60")), [10_000]);
        assert!(PlayerWarnings::thresholds(&control("-")).is_empty());
    }

    #[test]
    fn each_warning_once_the_lowest_when_both_pass_at_once() {
        let c = control("300+3");
        let mut w = PlayerWarnings::default();
        assert_eq!(w.crossed(&c, 151_000), None);
        assert_eq!(w.crossed(&c, 150_000), Some(150_000));
        assert_eq!(w.crossed(&c, 149_000), None);
        // A takeback gives time back: not said again.
        assert_eq!(w.crossed(&c, 149_000), None);
        assert_eq!(w.crossed(&c, 37_000), Some(37_500));
        assert_eq!(w.crossed(&c, 1_000), None);
        let mut jumped = PlayerWarnings::default();
        assert_eq!(jumped.crossed(&c, 20_000), Some(37_500));
        assert_eq!(jumped.crossed(&c, 19_000), None);
        jumped.reset();
        assert_eq!(jumped.crossed(&c, 140_000), Some(150_000));
    }

    #[test]
    fn the_deadline_follows_the_player_s_running_clock() {
        let mut clock = Clock::new(control("300+0"));
        let w = PlayerWarnings::default();
        assert_eq!(w.deadline(&clock, Color::White), None, "not started");
        clock.start(0, Color::White).unwrap();
        assert_eq!(w.deadline(&clock, Color::White), Some(150_000));
        assert_eq!(w.deadline(&clock, Color::Black), None, "White's runs");
    }

    mod in_the_session {
        use crate::session::{Effect, Event, Priority, Session, SessionConfig, Source};
        use crate::speech::queue::{Command as Say, SpeechQueue};
        use crate::words::{Lang, Pack};

        fn session(control: &str) -> Session {
            let config = SessionConfig {
                lang: Lang::En,
                time_control: control.parse().unwrap(),
                // The general low-time readings (5 min, 1 min, 10 s) out of
                // the way: only the player's own warnings are looked at.
                low_time_ms: Vec::new(),
                ..SessionConfig::default()
            };
            Session::with_pack(config, Pack::bundled(Lang::En))
        }

        fn enter(s: &mut Session, now: u64, text: &str) -> Vec<Effect> {
            let source = Source::Keyboard;
            let text = text.into();
            s.handle(now, Event::MoveEntered { text, source }).into()
        }

        fn warnings(fx: &[Effect]) -> Vec<(String, Priority)> {
            fx.iter()
                .filter_map(Effect::speech)
                .filter(|s| s.text.written.contains("on your clock"))
                .map(|s| (s.text.written.clone(), s.priority))
                .collect()
        }

        #[test]
        fn said_once_each_at_its_deadline_in_virtual_time() {
            let mut s = session("300+0");
            enter(&mut s, 0, "e4");
            enter(&mut s, 1_000, "e5");
            // White's clock runs from 1 s with 300 s: 2:30 left at 151 s.
            assert_eq!(s.next_deadline(), Some(151_000));
            assert!(warnings(&s.handle(150_999, Event::Tick)).is_empty());
            let fx = s.handle(151_000, Event::Tick);
            assert_eq!(
                warnings(&fx),
                [(
                    "2 minutes 30 seconds left on your clock".to_owned(),
                    Priority::Question
                )]
            );
            assert!(warnings(&s.handle(152_000, Event::Tick)).is_empty());
            // Then Lichess's emergency time, 300 / 8 = 37.5 s: due when
            // 37.5 s are left, said (floored) as 37 seconds.
            assert_eq!(s.next_deadline(), Some(263_500));
            let fx = s.handle(263_500, Event::Tick);
            assert_eq!(warnings(&fx).len(), 1, "{fx:?}");
            assert!(warnings(&fx)[0].0.starts_with("37 seconds"), "{fx:?}");
            for t in [264_000, 280_000, 290_000] {
                assert!(warnings(&s.handle(t, Event::Tick)).is_empty());
            }
            // Black's clock passing 2:30 says nothing: it is not the player's.
            enter(&mut s, 290_500, "Nf3");
            let fx = s.handle(200_000 + 290_500, Event::Tick);
            assert!(warnings(&fx).is_empty(), "{fx:?}");
        }

        #[test]
        fn never_spoken_over_a_move() {
            let mut s = session("300+0");
            enter(&mut s, 0, "e4");
            enter(&mut s, 0, "e5");
            // White moves late, with no tick since: the move and the
            // warning come together, the move first.
            let fx = enter(&mut s, 160_000, "Nf3");
            let said: Vec<_> = fx.iter().filter_map(Effect::speech).cloned().collect();
            let warn = said
                .iter()
                .position(|s| s.text.written.contains("on your clock"))
                .expect("the warning");
            let mv = said
                .iter()
                .position(|s| s.priority == Priority::Move)
                .expect("the move");
            assert!(mv < warn, "{said:?}");
            // Through the speech queue: the warning waits for the move.
            let mut queue = SpeechQueue::new();
            let first = queue.push(said[mv].clone());
            assert!(matches!(&first[..], [Say::Speak { .. }]));
            assert!(
                queue.push(said[warn].clone()).is_empty(),
                "queued, not spoken over"
            );
            // A move that comes while the warning speaks cuts it off, and
            // the warning is said again, whole, after it.
            let Some(Say::Speak { key, .. }) = first.first().cloned() else {
                unreachable!()
            };
            let next = queue.finished(key);
            assert!(matches!(&next[..], [Say::Speak { speech, .. }] if speech == &said[warn]));
            let cut = queue.push(said[mv].clone());
            assert!(matches!(cut[0], Say::Interrupt), "{cut:?}");
            let waiting: Vec<_> = queue.pending().cloned().collect();
            assert_eq!(waiting, [said[warn].clone()]);
        }
    }
}
