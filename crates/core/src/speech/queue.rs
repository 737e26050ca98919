//! The speech scheduler: a pure state machine that decides what the speech
//! backend says next. No threads, no clocks, no I/O: the speech thread feeds
//! it events (a new item, "the backend finished utterance N", "stop") and
//! carries out the commands it returns.
//!
//! Speech falls into three classes ([`SpeechClass`]), scheduled as screen
//! readers do it:
//! * *moves and alerts* come first: they interrupt anything of a lower class
//!   (a long clock reading must not delay the opponent's move) and are never
//!   dropped: one cut off by an alert is spoken again, whole, after it;
//! * *answers to the user's own keys* (browsing, F-keys): the newest answer
//!   replaces any older answer still waiting or speaking; an answer never
//!   cuts off a move (only "stop" does);
//! * *guidance and status* (board differences): lowest; only the newest is
//!   kept (a newer board state or "the board matches" replaces it), it never
//!   waits in front of anything else, a move makes it stale (dropped), an
//!   answer only pauses it (said again after the answer);
//! * within a class, items of equal priority wait their turn in arrival order;
//! * the same text twice in a row is spoken twice (no de-duplication).
//!
//! "Repeat the last announcement" (F2) is the session's: it knows what the
//! last move was, whatever was said after it.

use std::collections::VecDeque;

use super::vocab::{Priority, Speech, SpeechClass};

/// Identifies one utterance handed to the backend, so a late "finished"
/// for speech that was already interrupted cannot end the next one.
pub type UtteranceKey = u64;

/// What the speech thread must tell the backend to do, in order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// Cut off the utterance that is playing now.
    Interrupt,
    /// Start saying this; report `finished(key)` when it ends.
    Speak { key: UtteranceKey, speech: Speech },
}

/// The scheduler's state.
#[derive(Clone, Debug, Default)]
pub struct SpeechQueue {
    current: Option<(UtteranceKey, Speech)>,
    /// Waiting items, highest priority first, arrival order within one.
    pending: VecDeque<Speech>,
    next_key: UtteranceKey,
}

impl SpeechQueue {
    pub fn new() -> SpeechQueue {
        SpeechQueue::default()
    }

    /// A new item to say.
    pub fn push(&mut self, speech: Speech) -> Vec<Command> {
        let mut out = Vec::new();
        let class = speech.priority.class();
        if class != SpeechClass::Urgent {
            // The newest answer replaces older answers still waiting; the
            // newest guidance replaces older guidance (one sentence about
            // the board as it is now).
            self.pending.retain(|p| p.priority.class() != class);
        } else {
            // A move or alert changes what the board guidance is about.
            self.pending
                .retain(|p| p.priority.class() != SpeechClass::Guidance);
        }
        match self.current.take() {
            None => {
                self.enqueue(speech);
                self.start_next(&mut out);
            }
            Some((_, playing)) if cuts_off(&speech, &playing) => {
                out.push(Command::Interrupt);
                // Lower-priority speech still waiting is stale now (moves
                // and alerts are never dropped).
                self.pending.retain(|p| {
                    keeps_after_interruption(p.priority) || p.priority >= speech.priority
                });
                let resumes = match playing.priority.class() {
                    // Said again, whole, right after what interrupted it.
                    SpeechClass::Urgent => true,
                    // An answer does not change the board: the guidance is
                    // still true and follows the answer. A move makes it stale.
                    SpeechClass::Guidance => class == SpeechClass::Answer,
                    SpeechClass::Answer => false,
                };
                if resumes {
                    self.enqueue_front_of_priority(playing);
                }
                self.enqueue(speech);
                self.start_next(&mut out);
            }
            Some(current) => {
                self.current = Some(current);
                self.enqueue(speech);
            }
        }
        out
    }

    /// The backend reports that utterance `key` ended. Stale keys (speech
    /// that was already interrupted) are ignored.
    pub fn finished(&mut self, key: UtteranceKey) -> Vec<Command> {
        let mut out = Vec::new();
        if self.current.as_ref().is_some_and(|(k, _)| *k == key) {
            self.current = None;
            self.start_next(&mut out);
        }
        out
    }

    /// The user asked for silence: cut off what plays and forget what waits.
    pub fn stop(&mut self) -> Vec<Command> {
        self.pending.clear();
        match self.current.take() {
            Some(_) => vec![Command::Interrupt],
            None => Vec::new(),
        }
    }

    /// The utterance playing now, if any.
    pub fn current(&self) -> Option<&Speech> {
        self.current.as_ref().map(|(_, s)| s)
    }

    pub fn pending(&self) -> impl Iterator<Item = &Speech> {
        self.pending.iter()
    }

    pub fn is_idle(&self) -> bool {
        self.current.is_none() && self.pending.is_empty()
    }

    fn enqueue(&mut self, speech: Speech) {
        // After the last item of equal or higher priority: FIFO within a
        // priority, more urgent first overall.
        let at = self
            .pending
            .iter()
            .position(|p| p.priority < speech.priority)
            .unwrap_or(self.pending.len());
        self.pending.insert(at, speech);
    }

    fn enqueue_front_of_priority(&mut self, speech: Speech) {
        let at = self
            .pending
            .iter()
            .position(|p| p.priority <= speech.priority)
            .unwrap_or(self.pending.len());
        self.pending.insert(at, speech);
    }

    fn start_next(&mut self, out: &mut Vec<Command>) {
        debug_assert!(self.current.is_none());
        if let Some(speech) = self.pending.pop_front() {
            let key = self.next_key;
            self.next_key += 1;
            self.current = Some((key, speech.clone()));
            out.push(Command::Speak { key, speech });
        }
    }
}

/// Moves and alerts survive an interruption; clock readings and browsing
/// answers are cut off for good (the player can ask again).
fn keeps_after_interruption(priority: Priority) -> bool {
    priority.class() == SpeechClass::Urgent
}

/// Whether `new` cuts off `playing`: moves and alerts cut off anything less
/// urgent (an alert cuts off a move); an answer cuts off an older answer and
/// guidance, never a move; newer guidance cuts off older guidance.
fn cuts_off(new: &Speech, playing: &Speech) -> bool {
    let (class, playing_class) = (new.priority.class(), playing.priority.class());
    match class {
        SpeechClass::Urgent => new.priority > playing.priority,
        _ => class >= playing_class,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::words::{Lang, Utterance};

    fn item(text: &str, priority: Priority) -> Speech {
        Speech {
            text: Utterance {
                written: text.into(),
                spoken: text.into(),
            },
            lang: Lang::De,
            priority,
        }
    }

    /// Drives the queue like the speech thread does, with a recording of
    /// every backend call, and lets a test end the playing utterance.
    #[derive(Default)]
    struct Harness {
        queue: SpeechQueue,
        said: Vec<(String, Priority)>,
        interrupts: usize,
        playing: Option<UtteranceKey>,
        /// How each utterance ended, in the order they ended.
        ended: Vec<Ended>,
    }

    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    enum Ended {
        Spoken,
        CutOff,
    }

    impl Harness {
        fn apply(&mut self, commands: Vec<Command>) {
            for c in commands {
                match c {
                    Command::Interrupt => {
                        assert!(
                            self.playing.take().is_some(),
                            "interrupt with nothing playing"
                        );
                        self.interrupts += 1;
                        self.ended.push(Ended::CutOff);
                    }
                    Command::Speak { key, speech } => {
                        assert!(
                            self.playing.is_none(),
                            "speak while another utterance plays"
                        );
                        self.playing = Some(key);
                        if speech.priority.class() != SpeechClass::Urgent {
                            assert!(
                                !self
                                    .queue
                                    .pending()
                                    .any(|p| p.priority.class() == SpeechClass::Urgent),
                                "{} started while a move waited",
                                speech.text.spoken
                            );
                        }
                        self.said.push((speech.text.spoken, speech.priority));
                    }
                }
            }
        }
        fn push(&mut self, text: &str, p: Priority) {
            let c = self.queue.push(item(text, p));
            self.apply(c);
        }
        fn finish(&mut self) {
            let key = self.playing.take().expect("something is playing");
            self.ended.push(Ended::Spoken);
            let c = self.queue.finished(key);
            self.apply(c);
        }
        fn drain(&mut self) {
            while self.playing.is_some() {
                self.finish();
            }
        }
        fn texts(&self) -> Vec<&str> {
            self.said.iter().map(|(t, _)| t.as_str()).collect()
        }
    }

    #[test]
    fn idle_queue_speaks_at_once() {
        let mut h = Harness::default();
        h.push("Eva vier", Priority::Move);
        assert_eq!(h.texts(), ["Eva vier"]);
        h.finish();
        assert!(h.queue.is_idle());
    }

    #[test]
    fn a_move_interrupts_a_clock_reading_and_the_reading_is_not_resumed() {
        let mut h = Harness::default();
        h.push("Weiss: 1 Stunde 29 Minuten uebrig", Priority::Answer);
        h.push("Springer Felix drei", Priority::Move);
        assert_eq!(h.interrupts, 1);
        assert_eq!(
            h.texts(),
            ["Weiss: 1 Stunde 29 Minuten uebrig", "Springer Felix drei"]
        );
        h.drain();
        assert_eq!(
            h.said.len(),
            2,
            "the cut-off clock reading is not spoken again"
        );
        assert_eq!(h.ended, [Ended::CutOff, Ended::Spoken]);
    }

    #[test]
    fn an_alert_interrupts_a_move_and_the_move_is_said_again_after_it() {
        let mut h = Harness::default();
        h.push("Eva vier", Priority::Move);
        h.push("Dame David acht", Priority::Move);
        h.push("Unzulaessiger Zug", Priority::Alert);
        h.drain();
        assert_eq!(h.interrupts, 1);
        assert_eq!(
            h.texts(),
            [
                "Eva vier",
                "Unzulaessiger Zug",
                "Eva vier",
                "Dame David acht"
            ]
        );
    }

    #[test]
    fn equal_or_lower_priority_waits_its_turn() {
        let mut h = Harness::default();
        h.push("Eva vier", Priority::Move);
        h.push("Eva fuenf", Priority::Move);
        h.push("Anna eins: leer", Priority::Info);
        assert_eq!(h.interrupts, 0);
        assert_eq!(h.texts(), ["Eva vier"]);
        h.drain();
        assert_eq!(h.texts(), ["Eva vier", "Eva fuenf", "Anna eins: leer"]);
    }

    #[test]
    fn waiting_chatter_is_dropped_when_something_more_urgent_arrives_but_moves_are_kept() {
        let mut h = Harness::default();
        h.push("Eva vier", Priority::Move);
        h.push("Anna eins: leer", Priority::Info);
        h.push("Weiss: 5 Minuten", Priority::Answer);
        h.push("Dame David acht", Priority::Move);
        h.push("Verbindung zum Brett verloren", Priority::Alert);
        h.drain();
        assert_eq!(
            h.texts(),
            [
                "Eva vier",
                "Verbindung zum Brett verloren",
                "Eva vier",
                "Dame David acht"
            ]
        );
    }

    #[test]
    fn each_newer_answer_cuts_off_the_older_and_a_move_cuts_off_the_answer() {
        let mut h = Harness::default();
        h.push("Anna eins: leer", Priority::Info);
        h.push("Bella eins: Springer", Priority::Info);
        h.push("Weiss: 5 Minuten", Priority::Answer);
        h.push("Eva vier", Priority::Move);
        h.drain();
        assert_eq!(h.interrupts, 3);
        assert_eq!(
            h.texts(),
            [
                "Anna eins: leer",
                "Bella eins: Springer",
                "Weiss: 5 Minuten",
                "Eva vier"
            ]
        );
        assert_eq!(
            h.ended,
            [Ended::CutOff, Ended::CutOff, Ended::CutOff, Ended::Spoken]
        );
    }

    #[test]
    fn five_quick_arrow_keys_while_a_move_speaks_leave_only_the_newest_answer() {
        let mut h = Harness::default();
        h.push("Kurze Rochade", Priority::Move);
        for sq in [
            "Anna eins",
            "Bella eins",
            "Cesar eins",
            "David eins",
            "Eva eins",
        ] {
            h.push(sq, Priority::Info);
        }
        assert_eq!(h.interrupts, 0, "an answer never cuts off a move");
        h.drain();
        assert_eq!(h.texts(), ["Kurze Rochade", "Eva eins"]);
    }

    #[test]
    fn an_answer_waits_behind_moves_and_replaces_an_older_waiting_answer() {
        let mut h = Harness::default();
        h.push("Eva vier", Priority::Move);
        h.push("Weiss: 5 Minuten", Priority::Answer);
        h.push("Eva fuenf", Priority::Move);
        h.push("2 Zuege gespielt", Priority::Answer);
        h.drain();
        assert_eq!(h.texts(), ["Eva vier", "Eva fuenf", "2 Zuege gespielt"]);
    }

    #[test]
    fn stop_cuts_off_a_move_on_the_users_request() {
        let mut h = Harness::default();
        h.push("Springer Cesar sechs", Priority::Move);
        let c = h.queue.stop();
        h.apply(c);
        assert_eq!(h.interrupts, 1);
        assert!(h.queue.is_idle());
    }

    #[test]
    fn guidance_never_waits_in_front_of_a_move_or_an_answer() {
        let mut h = Harness::default();
        h.push("Eva vier", Priority::Move);
        h.push("Eva zwei: Figur zu viel", Priority::Guidance);
        h.push("Weiss: 5 Minuten", Priority::Answer);
        h.push("Eva fuenf", Priority::Move);
        // The second move made the waiting guidance stale.
        h.drain();
        assert_eq!(h.texts(), ["Eva vier", "Eva fuenf", "Weiss: 5 Minuten"]);
    }

    #[test]
    fn guidance_is_coalesced_to_the_newest_state() {
        let mut h = Harness::default();
        h.push("Eva vier", Priority::Move);
        h.push("Eva zwei: Figur zu viel", Priority::Guidance);
        h.push("Eva vier fehlt", Priority::Guidance);
        h.push("Brett stimmt", Priority::Guidance);
        h.drain();
        assert_eq!(h.texts(), ["Eva vier", "Brett stimmt"]);
    }

    #[test]
    fn newer_guidance_cuts_off_older_guidance_that_is_speaking() {
        let mut h = Harness::default();
        h.push("Eva zwei: Figur zu viel", Priority::Guidance);
        h.push("Brett stimmt", Priority::Guidance);
        assert_eq!(h.interrupts, 1);
        h.drain();
        assert_eq!(h.texts(), ["Eva zwei: Figur zu viel", "Brett stimmt"]);
    }

    #[test]
    fn a_move_cuts_off_guidance_for_good() {
        let mut h = Harness::default();
        h.push("Bauer Eva vier fehlt", Priority::Guidance);
        h.push("Kurze Rochade", Priority::Move);
        assert_eq!(h.interrupts, 1);
        assert_eq!(h.texts(), ["Bauer Eva vier fehlt", "Kurze Rochade"]);
        h.drain();
        assert_eq!(h.said.len(), 2, "stale guidance is not said again");
    }

    #[test]
    fn an_answer_pauses_guidance_which_follows_it_again() {
        let mut h = Harness::default();
        h.push("Bauer Eva vier fehlt", Priority::Guidance);
        h.push("Anna eins: Turm", Priority::Info);
        h.drain();
        assert_eq!(
            h.texts(),
            [
                "Bauer Eva vier fehlt",
                "Anna eins: Turm",
                "Bauer Eva vier fehlt"
            ]
        );
    }

    #[test]
    fn no_move_is_ever_dropped_among_answers_and_guidance() {
        let mut h = Harness::default();
        let mut moves = Vec::new();
        for i in 0..300 {
            match i % 5 {
                0 | 3 => {
                    let m = format!("move {i}");
                    h.push(&m, Priority::Move);
                    moves.push(m);
                }
                1 => h.push(&format!("guidance {i}"), Priority::Guidance),
                2 => h.push(&format!("answer {i}"), Priority::Info),
                _ => h.push(&format!("alert {i}"), Priority::Alert),
            }
            if i % 4 == 0 {
                h.finish();
            }
        }
        h.drain();
        let mut seen: Vec<&str> = Vec::new();
        for t in h.texts().into_iter().filter(|t| t.starts_with("move")) {
            if seen.last() != Some(&t) {
                seen.push(t);
            }
        }
        assert_eq!(seen, moves);
        // The harness checks that nothing less urgent started while a
        // move waited.
    }

    #[test]
    fn the_same_text_twice_in_a_row_is_spoken_twice() {
        let mut h = Harness::default();
        h.push("Springer schlaegt Eva fuenf", Priority::Move);
        h.push("Springer schlaegt Eva fuenf", Priority::Move);
        h.drain();
        assert_eq!(
            h.texts(),
            ["Springer schlaegt Eva fuenf", "Springer schlaegt Eva fuenf"]
        );
        // And again after the queue went idle.
        h.push("Springer schlaegt Eva fuenf", Priority::Move);
        h.drain();
        assert_eq!(h.said.len(), 3);
    }

    #[test]
    fn stop_silences_and_forgets_what_waits() {
        let mut h = Harness::default();
        h.push("Eva vier", Priority::Move);
        h.push("Eva fuenf", Priority::Move);
        let c = h.queue.stop();
        h.apply(c);
        assert_eq!(h.interrupts, 1);
        assert!(h.queue.is_idle());
        assert_eq!(h.ended, [Ended::CutOff]);
        assert_eq!(h.texts(), ["Eva vier"]);
    }

    #[test]
    fn a_late_finished_for_interrupted_speech_does_not_end_the_next_one() {
        let mut q = SpeechQueue::new();
        let first = q.push(item("Weiss: 5 Minuten", Priority::Answer));
        let Command::Speak { key: old, .. } = first[0].clone() else {
            panic!()
        };
        let c = q.push(item("Eva vier", Priority::Move));
        assert_eq!(c[0], Command::Interrupt);
        assert!(q.finished(old).is_empty());
        assert_eq!(q.current().unwrap().text.spoken, "Eva vier");
    }

    #[test]
    fn hundreds_of_items_keep_their_order_and_none_is_lost() {
        let mut h = Harness::default();
        for i in 0..500 {
            h.push(&format!("move {i}"), Priority::Move);
            // The backend finishes now and then while moves keep coming.
            if i % 7 == 0 {
                h.finish();
            }
        }
        h.drain();
        let expected: Vec<String> = (0..500).map(|i| format!("move {i}")).collect();
        assert_eq!(h.texts(), expected);
    }

    #[test]
    fn under_load_alerts_jump_ahead_and_every_move_is_still_spoken_once_in_order() {
        let mut h = Harness::default();
        for i in 0..300 {
            h.push(&format!("move {i}"), Priority::Move);
            if i % 50 == 25 {
                h.push(&format!("alert {i}"), Priority::Alert);
            }
            if i % 3 == 0 {
                h.finish();
            }
        }
        h.drain();
        // Moves that were cut off by an alert are said again, so strip the
        // cut-off copies: the last occurrence order must be 0..300.
        let moves: Vec<&str> = h
            .texts()
            .into_iter()
            .filter(|t| t.starts_with("move"))
            .collect();
        let mut seen = Vec::new();
        for m in &moves {
            if seen.last() != Some(m) {
                seen.push(*m);
            }
        }
        let expected: Vec<String> = (0..300).map(|i| format!("move {i}")).collect();
        assert_eq!(seen, expected);
        let alerts = h
            .texts()
            .into_iter()
            .filter(|t| t.starts_with("alert"))
            .count();
        assert_eq!(alerts, 6);
        // Each alert was spoken before the moves queued ahead of it.
        let pos = |t: &str| h.texts().iter().position(|x| *x == t).unwrap();
        assert!(pos("alert 25") < pos("move 24"));
    }
}
