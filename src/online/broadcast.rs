//! A broadcast round's PGN stream (`GET /api/stream/broadcast/round/{id}.pgn`,
//! public: no token), read on a thread of its own: lines handed on, a drop
//! or a silent connection reconnected with a growing, jittered wait. Each
//! connection starts with every game of the round (lila's
//! `RelayPgnStream`), so nothing missed while it was down is lost.

use std::io::Read;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::Sender;
use std::time::Duration;

use super::backoff::Jitter;
use super::lines::LineSplitter;
use super::wait_or_stop;
use crate::broadcast::{Fed, PgnFeed, Watch, WatchEffect};
use crate::session::Priority;
use crate::words::{Pack, Utterance};

/// What the round's thread reports.
#[derive(Debug, PartialEq, Eq)]
pub enum RoundMsg {
    /// A connection is open (again).
    Opened,
    /// A line of PGN.
    Line(String),
    /// The connection ended (`clean`: the server closed it) or failed;
    /// the thread reconnects after a wait.
    Dropped { reason: String, clean: bool },
    /// No such round (404): the thread stopped.
    NotFound,
}

/// How the round's stream is read.
#[derive(Clone, Copy, Debug)]
pub struct RoundTiming {
    pub connect: Duration,
    /// No byte for this long: the connection is taken as dead. A quiet
    /// round (every player thinking) sends nothing for minutes, so this is
    /// long.
    pub silence: Duration,
    pub backoff: Duration,
    pub backoff_max: Duration,
}

impl Default for RoundTiming {
    fn default() -> RoundTiming {
        RoundTiming {
            connect: Duration::from_secs(10),
            silence: Duration::from_secs(300),
            backoff: Duration::from_secs(1),
            backoff_max: Duration::from_secs(30),
        }
    }
}

/// The stream's path for `round` (only the id's letters and digits).
pub fn round_path(round: &str) -> Option<String> {
    let ok =
        !round.is_empty() && round.len() <= 32 && round.chars().all(|c| c.is_ascii_alphanumeric());
    ok.then(|| format!("/api/stream/broadcast/round/{round}.pgn"))
}

/// The round's id in what was typed or pasted: the id itself, or the
/// round's address (`https://lichess.org/broadcast/{tour}/{round}/{id}`,
/// maybe with a game's id after it), or its stream's
/// (`/api/stream/broadcast/round/{id}.pgn`). None when there is none.
pub fn round_id_from(text: &str) -> Option<String> {
    let text = text.trim();
    let plain = |id: &str| round_path(id).map(|_| id.to_owned());
    if !text.contains('/') {
        return plain(text);
    }
    let path = text.split(['?', '#']).next().unwrap_or_default();
    let parts: Vec<&str> = path.split('/').filter(|p| !p.is_empty()).collect();
    let after = |word: &str| {
        parts
            .iter()
            .position(|p| *p == word)
            .map(|i| &parts[i + 1..])
    };
    if let Some(["round", id, ..]) = after("broadcast") {
        return plain(id.trim_end_matches(".pgn"));
    }
    match after("broadcast")? {
        [_tour, _round, id, ..] => plain(id),
        _ => None,
    }
}

/// How a watch's words are said: moves, corrections and results first and
/// at once (as any announced move), answers and finding the game as
/// answers.
pub fn effect_words(effect: &WatchEffect) -> (&Utterance, Priority) {
    match effect {
        WatchEffect::Found { text, .. } | WatchEffect::Answer { text } => (text, Priority::Answer),
        WatchEffect::Move { text, .. }
        | WatchEffect::Correction { text, .. }
        | WatchEffect::Result { text, .. } => (text, Priority::Move),
    }
}

/// What following a round's stream brought, for a front end to say.
#[derive(Debug, PartialEq, Eq)]
pub enum Followed {
    /// What the game followed (or the round) brings.
    Effect(WatchEffect),
    /// A game far too long for PGN was skipped.
    TooLong,
    /// A game could not be read (why); skipped.
    Unreadable(String),
    /// Connected again after a drop.
    Back,
    /// The connection dropped (why); the thread connects again.
    Dropped(String),
    /// The server ended the stream several times with nothing new: the
    /// round is over.
    Ended,
    /// The server has no such round: the thread stopped.
    NotFound,
}

/// Connections in a row that the server ended without anything new: the
/// round's stream is over.
const ENDS_WITHOUT_NEWS: usize = 3;

/// The round's stream as the thread reports it ([`RoundMsg`]), made into
/// games for the [`Watch`]; shared by `rochade watch` and the window.
#[derive(Debug, Default)]
pub struct RoundFollower {
    feed: PgnFeed,
    /// The watch's changes when the last connection ended.
    known: u64,
    quiet_ends: usize,
    dropped: bool,
}

impl RoundFollower {
    pub fn new() -> RoundFollower {
        RoundFollower::default()
    }

    /// One message of the round's thread.
    pub fn message(&mut self, msg: RoundMsg, pack: &Pack, watch: &mut Watch) -> Vec<Followed> {
        match msg {
            RoundMsg::Opened => {
                // Each connection sends every game whole again.
                self.feed.reset();
                if self.dropped {
                    return vec![Followed::Back];
                }
                Vec::new()
            }
            RoundMsg::Line(line) => self.line(&line, pack, watch),
            RoundMsg::Dropped { reason, clean } => {
                self.feed.reset();
                let news = watch.changes() != self.known;
                self.known = watch.changes();
                self.quiet_ends = if clean && !news {
                    self.quiet_ends + 1
                } else {
                    0
                };
                if self.quiet_ends >= ENDS_WITHOUT_NEWS {
                    return vec![Followed::Ended];
                }
                // A server that ends the stream now and then is said once;
                // every failure is said.
                let said = !self.dropped || !clean;
                self.dropped = true;
                if said {
                    vec![Followed::Dropped(reason)]
                } else {
                    Vec::new()
                }
            }
            RoundMsg::NotFound => vec![Followed::NotFound],
        }
    }

    /// One line of the round's PGN (from the thread, or from stdin).
    pub fn line(&mut self, line: &str, pack: &Pack, watch: &mut Watch) -> Vec<Followed> {
        match self.feed.push_line(line) {
            Fed::Nothing => Vec::new(),
            Fed::TooLong => vec![Followed::TooLong],
            Fed::Game(text) => match crate::pgn::read_pgn(&text, 0) {
                Ok(record) => watch
                    .game(pack, record)
                    .into_iter()
                    .map(Followed::Effect)
                    .collect(),
                Err(e) => vec![Followed::Unreadable(e.to_string())],
            },
        }
    }
}

/// Starts the thread reading `base` + `path` until `stop` is set or the
/// receiver is gone.
pub fn spawn_round_stream<M: Send + 'static>(
    base: &str,
    path: &str,
    timing: RoundTiming,
    stop: Arc<AtomicBool>,
    tx: Sender<M>,
    wrap: fn(RoundMsg) -> M,
) -> std::io::Result<std::thread::JoinHandle<()>> {
    let url = format!("{}{path}", base.trim_end_matches('/'));
    let agent = ureq::AgentBuilder::new()
        .timeout_connect(timing.connect)
        .timeout_read(timing.silence)
        .user_agent(concat!("rochade/", env!("CARGO_PKG_VERSION")))
        .build();
    std::thread::Builder::new()
        .name("broadcast-round".into())
        .spawn(move || {
            let mut backoff = timing.backoff;
            let mut jitter = Jitter::new();
            while !stop.load(Ordering::Relaxed) {
                let started = std::time::Instant::now();
                let (reason, clean) = match agent.get(&url).call() {
                    Err(ureq::Error::Status(404, _)) => {
                        let _ = tx.send(wrap(RoundMsg::NotFound));
                        return;
                    }
                    Err(ureq::Error::Status(code, _)) => {
                        (format!("the server answered {code}"), false)
                    }
                    Err(e) => (format!("no connection: {e}"), false),
                    Ok(answer) => {
                        if tx.send(wrap(RoundMsg::Opened)).is_err() {
                            return;
                        }
                        match read_lines(answer.into_reader(), &stop, &tx, wrap) {
                            Ok(()) => ("the server ended the stream".to_owned(), true),
                            Err(reason) => (reason, false),
                        }
                    }
                };
                if stop.load(Ordering::Relaxed)
                    || tx.send(wrap(RoundMsg::Dropped { reason, clean })).is_err()
                {
                    return;
                }
                // A connection that worked for a while starts the waits
                // again; one cut at once keeps them growing.
                if started.elapsed() >= Duration::from_secs(5) {
                    backoff = timing.backoff;
                }
                wait_or_stop(jitter.spread(backoff), &stop);
                backoff = (backoff * 2).min(timing.backoff_max);
            }
        })
}

/// Hands on the lines of one connection; Ok at its clean end.
fn read_lines<M>(
    mut body: impl Read,
    stop: &AtomicBool,
    tx: &Sender<M>,
    wrap: fn(RoundMsg) -> M,
) -> Result<(), String> {
    let mut splitter = LineSplitter::new();
    let mut buf = [0u8; 8192];
    loop {
        if stop.load(Ordering::Relaxed) {
            return Ok(());
        }
        let n = body
            .read(&mut buf)
            .map_err(|e| format!("the stream broke: {e}"))?;
        if n == 0 {
            return Ok(());
        }
        let lines = splitter
            .push(&buf[..n])
            .map_err(|_| "a line far too long for PGN".to_owned())?;
        for line in lines {
            if tx.send(wrap(RoundMsg::Line(line))).is_err() {
                return Ok(());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_plain_round_id_makes_a_path() {
        assert_eq!(
            round_path("AbCd1234").as_deref(),
            Some("/api/stream/broadcast/round/AbCd1234.pgn")
        );
        for bad in ["", "../x", "a b", "id?x=1", &"a".repeat(40)] {
            assert_eq!(round_path(bad), None, "{bad}");
        }
    }

    #[test]
    fn a_round_is_found_in_its_id_its_address_and_its_streams_address() {
        for typed in [
            " AbCd1234 ",
            "https://lichess.org/broadcast/rochade-open/round-1/AbCd1234",
            "https://lichess.org/broadcast/rochade-open/round-1/AbCd1234/",
            "lichess.org/broadcast/rochade-open/round-1/AbCd1234/GaMe5678#moves",
            "https://lichess.org/broadcast/rochade-open/round-1/AbCd1234?embed=1",
            "https://lichess.org/api/stream/broadcast/round/AbCd1234.pgn",
        ] {
            assert_eq!(round_id_from(typed).as_deref(), Some("AbCd1234"), "{typed}");
        }
        for bad in [
            "",
            "https://lichess.org/broadcast/rochade-open/TourId12",
            "https://lichess.org/study/AbCd1234",
            "https://lichess.org/broadcast/a/b/..%2Fx",
            "Ab Cd",
        ] {
            assert_eq!(round_id_from(bad), None, "{bad}");
        }
    }

    fn game(moves: &str, result: &str) -> String {
        format!(
            "[White \"A\"]\n[Black \"B\"]\n[Round \"1\"]\n[Result \"{result}\"]\n\n{moves} {result}\n\n"
        )
    }

    fn feed(
        follower: &mut RoundFollower,
        watch: &mut Watch,
        pack: &Pack,
        pgn: &str,
    ) -> Vec<Followed> {
        let mut out = follower.message(RoundMsg::Opened, pack, watch);
        for line in pgn.lines() {
            out.extend(follower.message(RoundMsg::Line(line.into()), pack, watch));
        }
        out
    }

    fn drop_clean() -> RoundMsg {
        RoundMsg::Dropped {
            reason: "the server ended the stream".into(),
            clean: true,
        }
    }

    #[test]
    fn a_drop_is_said_once_then_back_and_three_quiet_ends_end_the_round() {
        use crate::broadcast::Pick;
        let pack = Pack::bundled(crate::words::Lang::En);
        let mut watch = Watch::new(Pick::Board(1), crate::announce::AnnounceForm::Short);
        let mut follower = RoundFollower::new();
        let first = feed(&mut follower, &mut watch, &pack, &game("1. e4", "*"));
        assert!(
            matches!(
                first.as_slice(),
                [
                    Followed::Effect(WatchEffect::Found { .. }),
                    Followed::Effect(WatchEffect::Move { .. })
                ]
            ),
            "{first:?}"
        );
        let dropped = follower.message(drop_clean(), &pack, &mut watch);
        assert_eq!(
            dropped,
            [Followed::Dropped("the server ended the stream".into())]
        );
        // Back, with a move made meanwhile: said after the "back".
        let back = feed(&mut follower, &mut watch, &pack, &game("1. e4 e5", "*"));
        assert!(
            matches!(
                back.as_slice(),
                [
                    Followed::Back,
                    Followed::Effect(WatchEffect::Move { ply: 2, .. })
                ]
            ),
            "{back:?}"
        );
        // Ended cleanly again (after news), then twice with nothing new:
        // not said; the third end with nothing new ends the round.
        assert!(follower.message(drop_clean(), &pack, &mut watch).is_empty());
        for _ in 0..2 {
            feed(&mut follower, &mut watch, &pack, &game("1. e4 e5", "*"));
            assert!(follower.message(drop_clean(), &pack, &mut watch).is_empty());
        }
        feed(&mut follower, &mut watch, &pack, &game("1. e4 e5", "*"));
        assert_eq!(
            follower.message(drop_clean(), &pack, &mut watch),
            [Followed::Ended]
        );
        assert_eq!(
            follower.message(RoundMsg::NotFound, &pack, &mut watch),
            [Followed::NotFound]
        );
    }
}
