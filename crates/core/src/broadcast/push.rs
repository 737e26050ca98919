//! Pushing the blind player's game to a broadcast round
//! (`POST /api/broadcast/round/{id}/push`, scope `study:write`): the whole
//! PGN each time, as Lichess asks (games are matched by their tags). Pure:
//! the shell sends what [`Pusher`] asks, on a thread of its own, and hands
//! back the server's answer as a [`PushAnswer`]; time comes in as a value.
//!
//! Only the newest game matters: a move made while a push is under way
//! waits, and a newer one replaces it (the server wants the whole game,
//! not the moves between). A failure is retried with a growing wait; a
//! refusal of the game itself is not (the same text would be refused
//! again), the next move's game is sent as usual. Each kind of trouble is
//! told once until a push goes through again.

use crate::words::{Pack, Utterance};

/// The waits between pushes, in ms.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PushTiming {
    /// After the first failure in a row; doubled for each further one.
    pub backoff_ms: u64,
    /// The longest wait after failures (and after a refused token).
    pub backoff_max_ms: u64,
    /// After "too many requests" (429): Lichess asks for a full minute.
    pub rate_limit_ms: u64,
}

impl Default for PushTiming {
    fn default() -> PushTiming {
        PushTiming {
            backoff_ms: 1_000,
            backoff_max_ms: 30_000,
            rate_limit_ms: 60_000,
        }
    }
}

/// The server's answer to one push, as the transport read it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PushAnswer {
    /// The round holds the game with this many half-moves.
    Accepted { moves: u32 },
    /// The server read the push and refused the game (`{tags, error}`).
    GameRefused { error: String },
    /// 401 or 403: no token, or one without `study:write`, or not a
    /// contributor of the broadcast.
    Unauthorized,
    /// 429: too many requests.
    RateLimited,
    /// No round with this id (404): nothing to push to.
    NoRound,
    /// The network, a server error or an answer not understood.
    Failed { reason: String },
}

/// Trouble worth telling the user (once until a push goes through).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PushProblem {
    GameRefused { error: String },
    Unauthorized,
    RateLimited,
    NoRound,
    Unreachable { reason: String },
}

impl PushProblem {
    /// Problems of one kind are told once, whatever their text.
    fn kind(&self) -> u8 {
        match self {
            PushProblem::GameRefused { .. } => 0,
            PushProblem::Unauthorized => 1,
            PushProblem::RateLimited => 2,
            PushProblem::NoRound => 3,
            PushProblem::Unreachable { .. } => 4,
        }
    }
}

/// What the shell does for the pusher.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PushEffect {
    /// POST this PGN now.
    Send { pgn: String },
    /// The round holds the game (with this many half-moves).
    Pushed { moves: u32 },
    /// Tell the user (once per kind until [`PushEffect::Recovered`]).
    Problem(PushProblem),
    /// A push went through after trouble that was told.
    Recovered,
}

/// The push's state: the game waiting, the one under way, the failures.
#[derive(Clone, Debug, Default)]
pub struct Pusher {
    timing: PushTiming,
    /// The newest game not yet sent.
    waiting: Option<String>,
    /// The game sent and not yet answered.
    in_flight: Option<String>,
    /// The last game the round accepted.
    accepted: Option<String>,
    failures: u32,
    /// No push before this time.
    retry_at: Option<u64>,
    /// Kinds told since the last push that went through.
    told: Vec<u8>,
    /// 404: the round does not exist; nothing more is sent.
    no_round: bool,
}

impl Pusher {
    pub fn new(timing: PushTiming) -> Pusher {
        Pusher {
            timing,
            ..Pusher::default()
        }
    }

    /// The game as it now stands (its whole PGN).
    pub fn game(&mut self, now: u64, pgn: String) -> Vec<PushEffect> {
        if self.no_round {
            return Vec::new();
        }
        let known = self.accepted.as_ref() == Some(&pgn) && self.waiting.is_none()
            || self.in_flight.as_ref() == Some(&pgn) && self.waiting.is_none()
            || self.waiting.as_ref() == Some(&pgn);
        if !known {
            self.waiting = Some(pgn);
        }
        self.send_if_due(now)
    }

    /// Time has passed (at a deadline, or whenever).
    pub fn tick(&mut self, now: u64) -> Vec<PushEffect> {
        self.send_if_due(now)
    }

    /// The server answered the push under way.
    pub fn answered(&mut self, now: u64, answer: PushAnswer) -> Vec<PushEffect> {
        let Some(sent) = self.in_flight.take() else {
            // An answer to nothing (a stale thread's): ignored.
            return Vec::new();
        };
        let mut effects = Vec::new();
        let problem = match answer {
            PushAnswer::Accepted { moves } => {
                self.failures = 0;
                self.retry_at = None;
                self.accepted = Some(sent);
                if !self.told.is_empty() {
                    self.told.clear();
                    effects.push(PushEffect::Recovered);
                }
                effects.push(PushEffect::Pushed { moves });
                None
            }
            PushAnswer::GameRefused { error } => {
                // The same text would be refused again: the next move's
                // game is the next try.
                self.failures = 0;
                self.retry_at = None;
                Some(PushProblem::GameRefused { error })
            }
            PushAnswer::NoRound => {
                self.no_round = true;
                self.waiting = None;
                Some(PushProblem::NoRound)
            }
            PushAnswer::Unauthorized => {
                self.again(sent, self.timing.backoff_max_ms, now);
                Some(PushProblem::Unauthorized)
            }
            PushAnswer::RateLimited => {
                self.again(sent, self.timing.rate_limit_ms, now);
                Some(PushProblem::RateLimited)
            }
            PushAnswer::Failed { reason } => {
                self.failures += 1;
                let wait = self
                    .timing
                    .backoff_ms
                    .saturating_mul(1 << (self.failures - 1).min(20))
                    .min(self.timing.backoff_max_ms);
                self.again(sent, wait, now);
                Some(PushProblem::Unreachable { reason })
            }
        };
        if let Some(problem) = problem
            && !self.told.contains(&problem.kind())
        {
            self.told.push(problem.kind());
            effects.push(PushEffect::Problem(problem));
        }
        effects.extend(self.send_if_due(now));
        effects
    }

    /// When [`Pusher::tick`] has something to do.
    pub fn next_deadline(&self) -> Option<u64> {
        match (&self.waiting, &self.in_flight) {
            (Some(_), None) => self.retry_at,
            _ => None,
        }
    }

    /// Nothing waits and nothing is under way: the round holds the newest
    /// game (or refused it, or there is no round).
    pub fn settled(&self) -> bool {
        self.waiting.is_none() && self.in_flight.is_none()
    }

    /// The round holds the newest game given.
    pub fn up_to_date(&self) -> bool {
        self.settled() && self.accepted.is_some()
    }

    /// `sent` is tried again after `wait` (unless a newer game waits).
    fn again(&mut self, sent: String, wait: u64, now: u64) {
        self.waiting.get_or_insert(sent);
        self.retry_at = Some(now + wait);
    }

    fn send_if_due(&mut self, now: u64) -> Vec<PushEffect> {
        let due = self.retry_at.is_none_or(|at| now >= at);
        if self.no_round || self.in_flight.is_some() || !due {
            return Vec::new();
        }
        match self.waiting.take() {
            Some(pgn) => {
                self.in_flight = Some(pgn.clone());
                vec![PushEffect::Send { pgn }]
            }
            None => Vec::new(),
        }
    }
}

/// A cheap look at a game: its length, last move and result. A push front
/// end writes the game's PGN only when this changes.
pub type GameMark = (usize, String, &'static str);

/// The [`GameMark`] of `record`.
pub fn game_mark(record: &crate::chess::GameRecord) -> GameMark {
    (
        record.moves().len(),
        record
            .last_move()
            .map(|m| m.san_string())
            .unwrap_or_default(),
        record.result_str(),
    )
}

/// The words telling the user of a push's trouble (or its end), in the
/// UI language; none for a push that simply went through.
pub fn push_words(pack: &Pack, effect: &PushEffect) -> Option<Utterance> {
    let problem = match effect {
        PushEffect::Recovered => return Some(pack.say("broadcast_push_recovered")),
        PushEffect::Problem(problem) => problem,
        PushEffect::Send { .. } | PushEffect::Pushed { .. } => return None,
    };
    Some(match problem {
        PushProblem::GameRefused { error } => pack.phrase(
            "broadcast_push_refused",
            &[("error", error.as_str().into())],
        ),
        PushProblem::Unauthorized => pack.say("broadcast_push_token"),
        PushProblem::RateLimited => pack.say("broadcast_push_wait"),
        PushProblem::NoRound => pack.say("broadcast_push_no_round"),
        PushProblem::Unreachable { reason } => pack.phrase(
            "broadcast_push_unreachable",
            &[("reason", reason.as_str().into())],
        ),
    })
}

/// The words for a push that ended with the round behind the game.
pub fn push_behind_words(pack: &Pack) -> Utterance {
    pack.say("broadcast_push_behind")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sent(effects: &[PushEffect]) -> Vec<&str> {
        effects
            .iter()
            .filter_map(|e| match e {
                PushEffect::Send { pgn } => Some(pgn.as_str()),
                _ => None,
            })
            .collect()
    }

    fn problems(effects: &[PushEffect]) -> usize {
        effects
            .iter()
            .filter(|e| matches!(e, PushEffect::Problem(_)))
            .count()
    }

    fn failed() -> PushAnswer {
        PushAnswer::Failed {
            reason: "connection refused".into(),
        }
    }

    #[test]
    fn a_game_is_sent_at_once_and_moves_made_meanwhile_wait_for_the_answer() {
        let mut p = Pusher::new(PushTiming::default());
        assert_eq!(sent(&p.game(0, "1. e4".into())), ["1. e4"]);
        assert!(p.game(10, "1. e4 e5".into()).is_empty());
        // Only the newest waits: the server wants the whole game.
        assert!(p.game(20, "1. e4 e5 2. Nf3".into()).is_empty());
        let fx = p.answered(30, PushAnswer::Accepted { moves: 1 });
        assert_eq!(fx[0], PushEffect::Pushed { moves: 1 });
        assert_eq!(sent(&fx), ["1. e4 e5 2. Nf3"]);
        assert!(!p.settled());
        p.answered(40, PushAnswer::Accepted { moves: 3 });
        assert!(p.up_to_date());
        // The same game again is not sent again.
        assert!(p.game(50, "1. e4 e5 2. Nf3".into()).is_empty());
    }

    #[test]
    fn failures_wait_ever_longer_keep_the_newest_game_and_are_told_once() {
        let timing = PushTiming::default();
        let mut p = Pusher::new(timing);
        p.game(0, "a".into());
        let mut now = 0;
        let mut waits = Vec::new();
        let mut told = 0;
        for _ in 0..7 {
            let fx = p.answered(now, failed());
            told += problems(&fx);
            assert!(sent(&fx).is_empty(), "no push before the wait");
            let at = p.next_deadline().expect("a retry is due");
            waits.push(at - now);
            assert!(p.tick(at - 1).is_empty());
            now = at;
            assert_eq!(sent(&p.tick(now)), ["a"]);
        }
        assert_eq!(waits, [1000, 2000, 4000, 8000, 16_000, 30_000, 30_000]);
        assert_eq!(told, 1);
        // A newer game made meanwhile replaces the one that failed.
        p.game(now + 1, "b".into());
        let fx = p.answered(now + 2, failed());
        let at = p.next_deadline().unwrap();
        assert!(sent(&fx).is_empty());
        assert_eq!(sent(&p.tick(at)), ["b"]);
        let fx = p.answered(at + 5, PushAnswer::Accepted { moves: 2 });
        assert_eq!(fx[0], PushEffect::Recovered);
        // Trouble after a success is told again.
        p.game(at + 10, "c".into());
        assert_eq!(problems(&p.answered(at + 20, failed())), 1);
    }

    #[test]
    fn a_refused_game_is_not_sent_again_but_the_next_move_is() {
        let mut p = Pusher::new(PushTiming::default());
        p.game(0, "bad".into());
        let fx = p.answered(
            5,
            PushAnswer::GameRefused {
                error: "Invalid move".into(),
            },
        );
        assert_eq!(problems(&fx), 1);
        assert!(p.settled() && !p.up_to_date());
        assert_eq!(p.next_deadline(), None);
        assert_eq!(sent(&p.game(10, "better".into())), ["better"]);
    }

    #[test]
    fn too_many_requests_waits_a_minute_and_a_refused_token_the_longest_wait() {
        let mut p = Pusher::new(PushTiming::default());
        p.game(0, "a".into());
        p.answered(100, PushAnswer::RateLimited);
        assert_eq!(p.next_deadline(), Some(60_100));
        p.tick(60_100);
        let fx = p.answered(60_200, PushAnswer::Unauthorized);
        assert_eq!(fx, [PushEffect::Problem(PushProblem::Unauthorized)]);
        assert_eq!(p.next_deadline(), Some(90_200));
    }

    #[test]
    fn no_round_stops_pushing() {
        let mut p = Pusher::new(PushTiming::default());
        p.game(0, "a".into());
        let fx = p.answered(1, PushAnswer::NoRound);
        assert_eq!(fx, [PushEffect::Problem(PushProblem::NoRound)]);
        assert!(p.game(2, "b".into()).is_empty());
        assert!(p.settled());
    }

    #[test]
    fn an_answer_with_nothing_under_way_changes_nothing() {
        let mut p = Pusher::new(PushTiming::default());
        assert!(p.answered(0, PushAnswer::Accepted { moves: 3 }).is_empty());
        assert!(!p.up_to_date());
    }
}
