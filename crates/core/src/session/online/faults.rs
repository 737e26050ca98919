//! The game controller against a server model with the faults of a real
//! connection, at random points, over hundreds of random games: the game
//! stream dropping (states lost, then the whole game sent again), our
//! move refused (400), our move's request lost with the network before
//! or after the server took it, states arriving twice, the opponent
//! answering at once (blitz: his move in the same burst as ours), his
//! state never sent (the stream keeps only its keep-alives: the silence
//! watch reads the game again), a late line of a replaced stream (an
//! older state), our move answered "too many requests" (429: waited out
//! and sent again, never taken back), our move's answer held back past
//! the request's deadline (the game read again meanwhile). After
//! every step the record is the server's moves plus at most our one move
//! on its way; at the end it equals the server's; "Move not accepted" is
//! said only for a move the server really refused; each of the opponent's
//! moves is announced once, in order. Pure: no network, no
//! clock; the seed makes each game repeatable.

use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, Color, Position};

use super::OnlinePlay;
use super::tests::Player;
use crate::online::{
    ApiError, Call, ClockInfo, GameFull, GameLine, GamePlayer, GameState, GameStatus, OnlineEffect,
    OnlineEvent, Report, Request, Waits,
};

/// xorshift64*: small, seeded, repeatable.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    /// True with probability `percent` %.
    fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }
}

/// The server's side of one game.
struct Server {
    moves: Vec<UciMove>,
    position: Chess,
    /// Whether the game stream reaches the controller now.
    connected: bool,
}

impl Server {
    fn state(&self) -> GameState {
        let over = self.position.is_game_over();
        let (status, winner) = match self.position.outcome() {
            shakmaty::Outcome::Known(shakmaty::KnownOutcome::Decisive { winner }) => {
                (GameStatus::Mate, Some(winner))
            }
            shakmaty::Outcome::Known(_) => (GameStatus::Draw, None),
            shakmaty::Outcome::Unknown if over => (GameStatus::Draw, None),
            shakmaty::Outcome::Unknown => (GameStatus::Started, None),
        };
        let status = if status == GameStatus::Draw && self.position.is_stalemate() {
            GameStatus::Stalemate
        } else {
            status
        };
        GameState {
            moves: self.moves.clone(),
            wtime: 60_000,
            btime: 60_000,
            status,
            winner,
            ..GameState::default()
        }
    }

    fn full(&self, me: Color) -> GameLine {
        let (white, black) = if me == Color::White {
            ("me", "them")
        } else {
            ("them", "me")
        };
        let player = |id: &str| GamePlayer {
            id: Some(id.into()),
            name: Some(id.into()),
            ..GamePlayer::default()
        };
        GameLine::GameFull(Box::new(GameFull {
            id: "G".into(),
            rated: false,
            variant: None,
            clock: Some(ClockInfo {
                initial: 60_000,
                increment: 0,
            }),
            speed: Some("bullet".into()),
            created_at: None,
            white: player(white),
            black: player(black),
            initial_fen: None,
            state: self.state(),
        }))
    }

    fn play(&mut self, uci: &UciMove) -> bool {
        let Ok(mv) = uci.to_move(&self.position) else {
            return false;
        };
        self.position.play_unchecked(mv);
        self.moves.push(*uci);
        true
    }

    fn random_move(&self, rng: &mut Rng) -> Option<UciMove> {
        let legal = self.position.legal_moves();
        (!legal.is_empty()).then(|| legal[rng.below(legal.len())].to_uci(CastlingMode::Standard))
    }
}

fn local(p: &Player) -> Vec<UciMove> {
    OnlinePlay::local_moves(p.session.record())
}

/// A server state, as the game's stream brings it.
fn state(p: &mut Player, now: u64, state: GameState) {
    p.line(now, GameLine::GameState(state));
}

/// The game's stream dropped.
fn dropped(p: &mut Player, now: u64) {
    let reason = ApiError::Network("the stream ended".into());
    p.feed(
        now,
        OnlineEvent::GameDropped {
            reason,
            first: true,
        },
    );
}

/// The record is the server's moves, plus at most our one move on its way.
fn check(host: &Player, server: &Server, seed: u64, step: usize) {
    let local = local(host);
    let common = local.len().min(server.moves.len());
    assert_eq!(
        local[..common],
        server.moves[..common],
        "game {seed}, step {step}: the record left the server's moves"
    );
    assert!(
        local.len() <= server.moves.len() + 1,
        "game {seed}, step {step}: {} local moves, the server has {}",
        local.len(),
        server.moves.len()
    );
}

/// Faults injected: drops, requests lost before and after the server
/// took them, refusals.
#[derive(Default)]
struct Injected {
    drops: usize,
    lost_before: usize,
    lost_after: usize,
    refused: usize,
    withheld: usize,
    stale: usize,
    rate_limited: usize,
    held: usize,
}

/// An answer held back: when it comes, the call, its typed text, the answer.
type Held = (u64, Call, Option<String>, Result<(), ApiError>);

/// One game with faults; returns how many plies it had.
fn one_game(seed: u64, injected: &mut Injected) -> usize {
    let mut rng = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
    let me = if rng.chance(50) {
        Color::White
    } else {
        Color::Black
    };
    let waits = Waits {
        keep_alive_ms: 1000,
        request_ms: 4000,
        rate_limit_ms: 1500,
        gone_ms: 600_000,
    };
    let mut host = Player::new(waits);
    // An older state the server sent, delivered late by a stream replaced since.
    let mut old_state: Option<GameState> = None;
    // Answers held back: when they come, and what.
    let mut held: Vec<Held> = Vec::new();
    let mut server = Server {
        moves: Vec::new(),
        position: Chess::default(),
        connected: true,
    };
    let mut refused = 0;
    let mut stuck = 0;
    let mut now = 0;
    host.line(now, server.full(me));
    let max_plies = 40 + rng.below(60);
    for step in 0..5000 {
        now += 100;
        let over = server.position.is_game_over() || server.moves.len() >= max_plies;
        // What the controller asked for last step is carried out below,
        // never dropped.
        let asked = host.take_asked();
        if over && server.connected && asked.is_empty() && held.is_empty() {
            break;
        }
        // The opponent moves when it is his turn on the server.
        if !over && server.position.turn() != me && rng.chance(60) {
            let mv = server.random_move(&mut rng).expect("a legal move");
            old_state = Some(server.state());
            server.play(&mv);
            if server.connected && rng.chance(5) {
                // Lost on its way: only keep-alives follow.
                injected.withheld += 1;
            } else if server.connected {
                let now_state = server.state();
                state(&mut host, now, now_state.clone());
                if rng.chance(10) {
                    // The same state twice (a burst, a slow proxy).
                    state(&mut host, now, now_state);
                }
            }
        }
        if server.connected
            && rng.chance(3)
            && let Some(old) = old_state.take()
        {
            injected.stale += 1;
            state(&mut host, now, old);
        }
        // The stream drops now and then, and comes back with the game.
        if server.connected && rng.chance(4) {
            injected.drops += 1;
            server.connected = false;
            dropped(&mut host, now);
        } else if !server.connected && rng.chance(25) {
            server.connected = true;
            host.feed(now, OnlineEvent::GameBack);
            host.line(now, server.full(me));
        }
        // Our move, typed when the record says it is our turn.
        let record = host.session.record();
        let ours = record.turn() == me
            && !record.is_over()
            && host
                .play()
                .game()
                .is_some_and(|g| g.pending().is_none() && !g.is_over())
            && local(&host).len() < max_plies;
        if ours && rng.chance(70) {
            let legal = record.position().legal_moves();
            if !legal.is_empty() {
                let mv = legal[rng.below(legal.len())]
                    .to_uci(CastlingMode::Standard)
                    .to_string();
                host.typed(now, &mv);
            }
        }
        // Answers held back come at last.
        let (due, later): (Vec<_>, Vec<_>) = held.drain(..).partition(|h| h.0 <= now);
        held = later;
        for (_, call, input, result) in due {
            host.answer(now, call, input, result);
        }
        // The controller's deadlines: silence, an unanswered request, a
        // 429 waited out.
        host.tick(now);
        // The requests, answered with the faults of the network.
        let asked: Vec<OnlineEffect> = asked.into_iter().chain(host.take_asked()).collect();
        for todo in asked {
            if let OnlineEffect::Resync(_) = todo {
                // The stream opened again: the whole game first, if the
                // network is there.
                if server.connected {
                    host.line(now, server.full(me));
                }
                continue;
            }
            let OnlineEffect::Send { call, input } = todo else {
                continue;
            };
            let Call::Game {
                request: Request::Move(uci),
                ..
            } = &call
            else {
                host.answer(now, call, input, Ok(()));
                continue;
            };
            let fault = rng.below(100);
            if server.connected && (90..95).contains(&fault) {
                // No answer for long (a request hanging on a dead
                // connection); the server may have taken the move, and
                // its state is lost too. The answer comes at last, after
                // the controller's own deadline has read the game again.
                injected.held += 1;
                let took = server.position.turn() == me && rng.chance(50) && server.play(uci);
                let result = if took {
                    Ok(())
                } else {
                    Err(ApiError::Network("timed out".into()))
                };
                held.push((now + 6000, call, input, result));
                continue;
            }
            let result = if server.connected && fault >= 95 {
                injected.rate_limited += 1;
                Err(ApiError::RateLimited)
            } else if !server.connected || fault < 8 {
                // Lost before the server read it.
                injected.lost_before += 1;
                Err(ApiError::Network("timed out".into()))
            } else if fault < 16 {
                // Taken by the server, then the network went: the answer
                // is lost and the stream drops with it.
                if server.position.turn() == me {
                    server.play(uci);
                }
                injected.lost_after += 1;
                server.connected = false;
                dropped(&mut host, now);
                Err(ApiError::Network("timed out".into()))
            } else if fault < 24 || server.position.turn() != me || !server.play(uci) {
                refused += 1;
                injected.refused += 1;
                Err(ApiError::Refused {
                    status: 400,
                    reason: "Not your turn, or game already over".into(),
                })
            } else {
                Ok(())
            };
            let took = result.is_ok() || server.moves.last() == Some(uci);
            host.answer(now, call, input, result);
            if took && server.connected {
                // The state with our move; at blitz pace the reply in
                // the same burst.
                state(&mut host, now, server.state());
                if rng.chance(50) && !server.position.is_game_over() {
                    let reply = server.random_move(&mut rng).expect("a legal move");
                    server.play(&reply);
                    state(&mut host, now, server.state());
                }
            }
        }
        check(&host, &server, seed, step);
        // Never stuck: connected, our move waiting for the server is
        // settled (taken or refused) within a few steps (a few 429s in a
        // row, each waited out for 15 steps, and answers held back for 60
        // steps, included).
        let waiting = server.connected && host.play().game().is_some_and(|g| g.pending().is_some());
        stuck = if waiting { stuck + 1 } else { 0 };
        assert!(
            stuck < 200,
            "game {seed}, step {step}: our move {:?} waits for the server while connected; \
             the server has {:?}; said last: {:?}",
            host.play().game().and_then(|g| g.pending()),
            server.moves.iter().rev().take(3).collect::<Vec<_>>(),
            host.told.iter().rev().take(6).collect::<Vec<_>>()
        );
    }
    // The end: the answers still held back come, connected again, the
    // whole game sent.
    for (_, call, input, result) in held {
        host.answer(now, call, input, result);
    }
    if !server.connected {
        server.connected = true;
        host.feed(now, OnlineEvent::GameBack);
    }
    host.line(now, server.full(me));
    for todo in host.take_asked() {
        if let OnlineEffect::Send { call, input } = todo {
            // Whatever is still on its way is refused: the game moved on.
            let result = if matches!(&call, Call::Game { request: Request::Move(u), .. } if server.position.turn() == me && server.play(u))
            {
                Ok(())
            } else {
                if matches!(
                    &call,
                    Call::Game {
                        request: Request::Move(_),
                        ..
                    }
                ) {
                    refused += 1;
                }
                Err(ApiError::Refused {
                    status: 400,
                    reason: "Not your turn, or game already over".into(),
                })
            };
            host.answer(now, call, input, result);
        }
    }
    host.line(now, server.full(me));
    assert_eq!(
        local(&host),
        server.moves,
        "game {seed}: the record at the end; said last: {:?}",
        host.told.iter().rev().take(8).collect::<Vec<_>>()
    );
    let said_refused = host
        .told
        .iter()
        .filter(|(_, words)| words.starts_with("Move not accepted"))
        .count();
    assert_eq!(
        said_refused, refused,
        "game {seed}: 'Move not accepted' said {said_refused} times for {refused} refusals: {:?}",
        host.told
    );
    // Each drop said once, and its end once.
    let mut down = false;
    for (report, _) in &host.told {
        match report {
            Some(Report::ConnectionLost { .. }) => {
                assert!(!down, "game {seed}: the drop said twice");
                down = true;
            }
            Some(Report::ConnectionBack) => {
                assert!(down, "game {seed}: back said without a drop");
                down = false;
            }
            _ => {}
        }
    }
    assert!(!down, "game {seed}: the return never said");
    // The opponent's moves: each announced once, in the server's order.
    let theirs: Vec<String> = server
        .moves
        .iter()
        .enumerate()
        .filter(|(i, _)| (i % 2 == 0) != (me == Color::White))
        .map(|(_, m)| m.to_string())
        .collect();
    let announced: Vec<String> = host
        .announced
        .iter()
        .filter(|(_, by)| *by != me)
        .map(|(m, _)| m.clone())
        .collect();
    assert_eq!(
        announced, theirs,
        "game {seed}: the opponent's moves announced"
    );
    assert!(
        !host.told.iter().any(|(r, _)| matches!(
            r,
            Some(Report::Takeback {
                ours_lost: false,
                ..
            })
        )),
        "game {seed}: a takeback nobody asked for"
    );
    server.moves.len()
}

#[test]
fn three_hundred_games_with_drops_refusals_and_lost_requests_end_with_the_servers_record() {
    let mut plies = 0;
    let mut injected = Injected::default();
    for seed in 0..300 {
        plies += one_game(seed, &mut injected);
    }
    let Injected {
        drops,
        lost_before,
        lost_after,
        refused,
        withheld,
        stale,
        rate_limited,
        held,
    } = injected;
    let summary = format!(
        "300 games, {plies} plies: {drops} drops, {lost_before} requests lost, \
         {lost_after} taken and their answer lost, {refused} refused, {withheld} states \
         withheld, {stale} stale states, {rate_limited} moves answered 429, {held} answered \
         only after the request's deadline"
    );
    // The core prints nothing: the numbers go with the assertions.
    assert!(plies > 300 * 30, "{summary}");
    assert!(
        drops > 300 && lost_before > 300 && lost_after > 300 && refused > 300,
        "{summary}"
    );
    assert!(
        withheld > 100 && stale > 100 && rate_limited > 100 && held > 100,
        "{summary}"
    );
}
