//! The controller against the real session: lines and answers go in as
//! `Event::Online`, what it asks for and says comes out as effects.

use shakmaty::{Color, Position};

use crate::online::{
    ApiError, Call, GameLine, IncomingEvent, OnlineEffect, OnlineEvent, OnlineSetup, Report, Waits,
};
use crate::session::{Effect, Event, Notice, Session, SessionConfig};
use crate::words::{Lang, Pack};

/// A session playing online, keeping what it was told and asked.
pub(super) struct Player {
    pub(super) session: Session,
    /// Every report and its words.
    pub(super) told: Vec<(Option<Report>, String)>,
    /// Every move announced (UCI) and the side that made it.
    pub(super) announced: Vec<(String, Color)>,
    /// What online play asked the shell to do, not taken yet.
    pub(super) asked: Vec<OnlineEffect>,
}

impl Player {
    pub(super) fn new(waits: Waits) -> Player {
        Player::with(waits, false)
    }

    /// Online play that asks before resigning or offering a draw.
    fn asking() -> Player {
        Player::with(Waits::default(), true)
    }

    fn with(waits: Waits, confirm: bool) -> Player {
        let config = SessionConfig {
            lang: Lang::En,
            ..SessionConfig::default()
        };
        let mut player = Player {
            session: Session::with_pack(config, Pack::bundled(Lang::En)),
            told: Vec::new(),
            announced: Vec::new(),
            asked: Vec::new(),
        };
        let setup = OnlineSetup {
            account: "me".into(),
            server: "http://x".into(),
            auto_accept: false,
            confirm,
            waits,
            today: jiff::civil::date(2026, 11, 26),
        };
        player.feed(0, OnlineEvent::Connected(Box::new(setup)));
        player
    }

    /// The session handles `event` at `now`; its effects are kept.
    pub(super) fn handle(&mut self, now: u64, event: Event) {
        for effect in self.session.handle(now, event) {
            match effect {
                Effect::Online(OnlineEffect::Report { report, line }) => {
                    self.told.push((report, line))
                }
                Effect::Online(asked) => self.asked.push(asked),
                Effect::Notice(Notice::Move { ply, mv, .. }) => {
                    let start = self.session.record().start_position().turn();
                    let mover = if ply % 2 == 1 { start } else { !start };
                    let uci = mv.to_uci(shakmaty::CastlingMode::Standard).to_string();
                    self.announced.push((uci, mover));
                }
                _ => {}
            }
        }
    }

    pub(super) fn feed(&mut self, now: u64, event: OnlineEvent) {
        self.handle(now, Event::Online(event));
    }

    pub(super) fn line(&mut self, now: u64, line: GameLine) {
        self.feed(now, OnlineEvent::Game(Box::new(line)));
    }

    pub(super) fn typed(&mut self, now: u64, text: &str) {
        self.feed(now, OnlineEvent::Typed(text.into()));
    }

    pub(super) fn answer(
        &mut self,
        now: u64,
        call: Call,
        input: Option<String>,
        result: Result<(), ApiError>,
    ) {
        self.feed(
            now,
            OnlineEvent::Answered {
                call,
                input,
                result,
            },
        );
    }

    pub(super) fn tick(&mut self, now: u64) {
        self.handle(now, Event::Tick);
    }

    pub(super) fn take_asked(&mut self) -> Vec<OnlineEffect> {
        std::mem::take(&mut self.asked)
    }

    pub(super) fn play(&self) -> &super::OnlinePlay {
        self.session.online().expect("online")
    }

    /// The first request asked for, with its typed text.
    fn first_send(&mut self) -> (Call, Option<String>) {
        let asked = self.take_asked();
        let send = asked.iter().find_map(|a| match a {
            OnlineEffect::Send { call, input } => Some((call.clone(), input.clone())),
            _ => None,
        });
        send.unwrap_or_else(|| panic!("no request in {asked:?}"))
    }
}

fn full(status: &str, moves: &str) -> GameLine {
    serde_json::from_str(&format!(
        r#"{{"type":"gameFull","id":"G1","rated":false,"clock":{{"initial":600000,"increment":5000}},"white":{{"id":"me","name":"Me","rating":1500}},"black":{{"id":"them","name":"Them","rating":1600}},"initialFen":"startpos","state":{{"type":"gameState","moves":"{moves}","wtime":600000,"btime":600000,"winc":5000,"binc":5000,"status":"{status}"}}}}"#
    ))
    .unwrap()
}

/// A game where the opponent is to move, the keep-alives 1 s apart.
fn opponent_to_move() -> Player {
    let waits = Waits {
        keep_alive_ms: 1000,
        ..Waits::default()
    };
    let mut p = Player::new(waits);
    p.line(0, full("started", "e2e4"));
    p.take_asked();
    p
}

fn sends(p: &mut Player) -> Vec<String> {
    p.take_asked()
        .into_iter()
        .filter_map(|t| match t {
            OnlineEffect::Send { call, .. } => Some(call.path()),
            _ => None,
        })
        .collect()
}

#[test]
fn the_last_lines_of_an_ended_games_stream_start_no_game() {
    let mut p = Player::new(Waits::default());
    p.line(0, full("mate", "f2f3 e7e5 g2g4 d8h4"));
    assert!(p.play().game().is_none());
    assert!(p.told.is_empty());
    p.line(0, full("started", ""));
    assert_eq!(p.play().game().map(|g| g.me), Some(Color::White));
}

#[test]
fn a_game_is_dated_with_the_day_the_shell_passed_in_and_its_start_asked_of_the_front_end() {
    let mut p = Player::new(Waits::default());
    p.feed(0, OnlineEvent::Today(jiff::civil::date(2027, 1, 2)));
    p.line(0, full("started", ""));
    assert_eq!(p.session.record().tags.date, "2027.01.02");
    assert_eq!(p.session.config().blind_side, Color::White);
    assert!(
        p.asked.iter().any(|a| matches!(
            a,
            OnlineEffect::Started {
                me: Color::White,
                previous: None
            }
        )),
        "{:?}",
        p.asked
    );
}

#[test]
fn a_challenge_waits_for_yes_or_no_and_a_move_typed_early_is_played_at_the_start() {
    let mut p = Player::new(Waits::default());
    let challenge: IncomingEvent = serde_json::from_str(
        r#"{"type":"challenge","challenge":{"id":"C1","challenger":{"id":"them","name":"Them","rating":1600},"timeControl":{"type":"clock","limit":300,"increment":3,"show":"5+3"}}}"#,
    )
    .unwrap();
    p.feed(0, OnlineEvent::Incoming(Box::new(challenge.clone())));
    assert_eq!(
        p.told.last().map(|t| t.1.as_str()),
        Some("Challenge from Them, rating 1600: 5+3. Type yes to accept, no to decline")
    );
    // Sent again (the events stream came back): not said again.
    let told = p.told.len();
    p.feed(0, OnlineEvent::Incoming(Box::new(challenge)));
    assert_eq!(p.told.len(), told);
    p.typed(0, "no");
    assert_eq!(sends(&mut p), ["/api/challenge/C1/decline"]);
    assert!(p.play().challenge().is_none());
    // No challenge stands: "e4" waits for the game, then is played and sent.
    p.typed(0, "e4");
    assert!(sends(&mut p).is_empty());
    p.line(10, full("started", ""));
    assert_eq!(p.session.record().moves().len(), 1);
    assert_eq!(sends(&mut p), ["/api/board/game/G1/move/e2e4"]);
}

#[test]
fn a_move_the_server_refuses_is_taken_back_and_said_with_the_reason() {
    let mut p = Player::new(Waits::default());
    p.line(0, full("started", ""));
    p.typed(5, "Nf3");
    let (call, input) = p.first_send();
    assert_eq!(call.path(), "/api/board/game/G1/move/g1f3");
    let refused = Err(ApiError::Refused {
        status: 400,
        reason: "Not your turn, or game already over".into(),
    });
    p.answer(9, call, input, refused);
    assert!(p.session.record().moves().is_empty());
    let (report, words) = p.told.last().unwrap();
    assert!(matches!(report, Some(Report::Error { .. })));
    assert_eq!(
        words,
        "Move not accepted: Nf3, Not your turn, or game already over (400)"
    );
    // The same move may be tried again.
    p.typed(12, "Nf3");
    assert_eq!(sends(&mut p), ["/api/board/game/G1/move/g1f3"]);
}

#[test]
fn the_clock_word_says_the_servers_clocks_or_that_there_is_none() {
    let mut p = Player::new(Waits::default());
    p.line(0, full("started", "e2e4"));
    p.typed(1, "clock");
    let said: Vec<&str> = p.told.iter().rev().take(2).map(|t| t.1.as_str()).collect();
    assert!(said.iter().all(|s| s.contains("10 minutes")), "{said:?}");
    let mut p = Player::new(Waits::default());
    let correspondence: GameLine = serde_json::from_str(
        r#"{"type":"gameFull","id":"G2","white":{"id":"me"},"black":{"id":"them"},"state":{"moves":"","status":"started"}}"#,
    )
    .unwrap();
    p.line(0, correspondence);
    p.typed(1, "clock");
    assert_eq!(p.told.last().unwrap().1, "This game has no clock");
}

#[test]
fn a_move_whose_request_failed_is_sent_again_though_a_later_request_got_through() {
    let mut p = Player::new(Waits::default());
    p.line(0, full("started", ""));
    p.typed(5, "e4");
    let (call, input) = p.first_send();
    let lost = Err(ApiError::Network("timed out".into()));
    p.answer(9, call, input, lost);
    let asked = p.take_asked();
    assert!(
        asked.iter().any(|t| matches!(t, OnlineEffect::Resync(_))),
        "{asked:?}"
    );
    // A chat line written meanwhile gets through ...
    p.typed(10, "chat hi");
    let (chat, _) = p.first_send();
    p.answer(11, chat, None, Ok(()));
    // ... and the game read again lacks the move: it is sent again.
    p.line(12, full("started", ""));
    assert_eq!(sends(&mut p), ["/api/board/game/G1/move/e2e4"]);
}

#[test]
fn a_silent_stream_while_the_opponent_is_to_move_is_read_again_after_three_keep_alives() {
    let mut p = opponent_to_move();
    assert_eq!(p.session.next_deadline(), Some(3000));
    p.tick(2999);
    assert!(p.take_asked().is_empty());
    p.tick(3000);
    assert_eq!(p.take_asked(), [OnlineEffect::Resync("G1".into())]);
    // The whole game brings the reply that never came: said as
    // missed, then played by the server's source.
    p.line(3100, full("started", "e2e4 e7e5"));
    let said: Vec<&str> = p.told.iter().map(|t| t.1.as_str()).collect();
    assert!(said.contains(&"While the connection was lost:"), "{said:?}");
    assert_eq!(p.announced.last(), Some(&("e7e5".to_owned(), Color::Black)));
    // Our turn: nothing to watch.
    assert_eq!(p.play().next_deadline(p.session.record()), None);
}

#[test]
fn the_servers_moves_are_played_with_the_server_as_their_source() {
    let mut p = Player::new(Waits::default());
    let effects = p.session.handle(
        0,
        Event::Online(OnlineEvent::Game(Box::new(full("started", "e2e4 e7e5")))),
    );
    let sources: Vec<crate::session::Source> = effects
        .iter()
        .filter_map(|e| match e {
            Effect::Notice(Notice::Move { source, .. }) => Some(*source),
            _ => None,
        })
        .collect();
    assert_eq!(sources, [crate::session::Source::Server; 2]);
    assert_eq!(
        effects.outcome,
        crate::session::Outcome::Played {
            ply: 2,
            source: crate::session::Source::Server
        },
        "the online event says a move was played"
    );
}

#[test]
fn too_many_requests_on_a_move_is_waited_out_and_the_move_sent_again() {
    let waits = Waits {
        rate_limit_ms: 60_000,
        ..Waits::default()
    };
    let mut p = Player::new(waits);
    p.line(0, full("started", ""));
    p.typed(5, "e4");
    let (call, input) = p.first_send();
    p.answer(10, call, input, Err(ApiError::RateLimited));
    assert_eq!(p.session.record().moves().len(), 1, "kept");
    assert_eq!(
        p.told.last().unwrap().1,
        "The server asks to wait (too many requests): e4 is sent again in 60 seconds"
    );
    p.tick(60_009);
    assert!(sends(&mut p).is_empty());
    p.tick(60_010);
    assert_eq!(sends(&mut p), ["/api/board/game/G1/move/e2e4"]);
}

#[test]
fn the_events_stream_dropping_is_said_before_a_game_and_not_during_one() {
    let mut p = Player::new(Waits::default());
    let e = ApiError::Network("the stream ended".into());
    p.feed(0, OnlineEvent::EventsDropped(e.clone()));
    p.feed(0, OnlineEvent::EventsDropped(e.clone()));
    p.feed(0, OnlineEvent::EventsBack);
    p.feed(0, OnlineEvent::EventsBack);
    let said: Vec<&str> = p.told.iter().map(|t| t.1.as_str()).collect();
    assert_eq!(
        said,
        [
            "Connection to the server lost: no connection to the server: the stream ended. Reconnecting",
            "Connected to the server again"
        ]
    );
    p.line(0, full("started", ""));
    let before = p.told.len();
    p.feed(0, OnlineEvent::EventsDropped(e));
    p.feed(0, OnlineEvent::EventsBack);
    assert_eq!(p.told.len(), before, "the game's own stream speaks");
}

#[test]
fn a_game_the_server_lost_is_said_once_with_the_way_out() {
    let mut p = Player::new(Waits::default());
    p.line(0, full("started", "e2e4"));
    let gone = ApiError::Refused {
        status: 404,
        reason: "No such game".into(),
    };
    p.feed(
        0,
        OnlineEvent::GameDropped {
            reason: gone.clone(),
            first: true,
        },
    );
    p.feed(
        0,
        OnlineEvent::GameDropped {
            reason: gone,
            first: false,
        },
    );
    let missing = p
        .told
        .iter()
        .filter(|t| t.0 == Some(Report::GameMissing))
        .count();
    assert_eq!(missing, 1);
    p.take_asked();
    p.typed(10, "again");
    assert_eq!(p.take_asked(), [OnlineEffect::Resync("G1".into())]);
    // Found again: said back, and the game goes on.
    p.line(20, full("started", "e2e4 e7e5"));
    assert!(p.told.iter().any(|t| t.0 == Some(Report::ConnectionBack)));
    assert_eq!(p.session.record().moves().len(), 2);
}

#[test]
fn typed_text_without_a_connection_is_answered_and_words_are_told_from_moves() {
    let mut session = Session::with_pack(
        SessionConfig {
            lang: Lang::En,
            ..SessionConfig::default()
        },
        Pack::bundled(Lang::En),
    );
    let effects = session.handle(0, Event::Online(OnlineEvent::Typed("e4".into())));
    assert!(effects.iter().any(|e| e.speech().is_some()), "{effects:?}");
    assert!(session.record().moves().is_empty());
    assert!(super::is_online_word("Resign"));
    assert!(super::is_online_word("chat hello"));
    assert!(!super::is_online_word("e4"));
}

#[test]
fn a_long_think_is_reread_ever_more_rarely_up_to_two_minutes_and_a_real_line_starts_again() {
    let mut p = opponent_to_move();
    // Each reread brings the same game: the next one waits twice as long.
    let mut now = 0;
    let mut gaps = Vec::new();
    for _ in 0..9 {
        let due = p.play().next_deadline(p.session.record()).unwrap();
        gaps.push(due - now);
        p.tick(due);
        assert_eq!(p.take_asked(), [OnlineEffect::Resync("G1".into())]);
        now = due;
        p.line(now, full("started", "e2e4"));
    }
    assert_eq!(
        gaps,
        [
            3000, 6000, 12_000, 24_000, 48_000, 96_000, 120_000, 120_000, 120_000
        ]
    );
    // A chat line: three keep-alives again, counted from the last state
    // (a chat line is not the game: it never holds the reread off).
    let chat: GameLine = serde_json::from_str(
        r#"{"type":"chatLine","room":"player","username":"them","text":"hi"}"#,
    )
    .unwrap();
    p.line(now + 10, chat);
    assert_eq!(p.play().next_deadline(p.session.record()), Some(now + 3000));
    // A reread that brings the missed reply also starts again.
    let due = now + 3000;
    p.tick(due);
    p.line(due, full("started", "e2e4"));
    assert_eq!(p.play().next_deadline(p.session.record()), Some(due + 6000));
    p.tick(due + 6000);
    p.line(due + 6000, full("started", "e2e4 e7e5"));
    assert_eq!(p.play().next_deadline(p.session.record()), None, "our turn");
    p.typed(due + 6000, "Nf3");
    assert_eq!(
        p.play().next_deadline(p.session.record()),
        Some(due + 6000 + 3000)
    );
}

#[test]
fn resigning_and_offering_a_draw_are_asked_first_and_sent_on_yes_or_the_same_word_again() {
    let mut p = Player::asking();
    p.line(0, full("started", "e2e4 e7e5"));
    p.take_asked();
    p.typed(1, "resign");
    assert_eq!(p.told.last().unwrap().1, "Resign? Yes or no");
    assert!(sends(&mut p).is_empty(), "asked, not sent");
    p.typed(2, "no");
    assert_eq!(p.told.last().unwrap().1, "Not sent");
    assert!(sends(&mut p).is_empty());
    p.typed(3, "resign");
    p.typed(4, "yes");
    assert_eq!(sends(&mut p), ["/api/board/game/G1/resign"]);
    // A draw offer: the same word again (a second key press) sends it.
    p.typed(5, "draw");
    assert_eq!(p.told.last().unwrap().1, "Offer a draw? Yes or no");
    assert!(sends(&mut p).is_empty());
    p.typed(6, "remis");
    assert_eq!(sends(&mut p), ["/api/board/game/G1/draw/yes"]);
}

#[test]
fn a_question_lapses_when_the_game_moves_on_so_a_later_yes_cannot_resign() {
    let mut p = Player::asking();
    p.line(0, full("started", "e2e4"));
    p.take_asked();
    p.typed(1, "resign");
    assert_eq!(p.told.last().unwrap().1, "Resign? Yes or no");
    // The opponent's reply comes before the answer: the question lapses.
    let reply: GameLine = serde_json::from_str(
        r#"{"type":"gameState","moves":"e2e4 e7e5","wtime":600000,"btime":600000,"winc":5000,"binc":5000,"status":"started"}"#,
    )
    .unwrap();
    p.line(2, reply);
    p.typed(3, "yes");
    assert!(sends(&mut p).is_empty());
    assert_eq!(p.told.last().unwrap().1, "No offer to answer");
    // Typing something else lets a question lapse too: a move is played.
    p.typed(4, "draw");
    p.typed(5, "Nf3");
    assert_eq!(sends(&mut p), ["/api/board/game/G1/move/g1f3"]);
    // Accepting the opponent's draw offer with `draw` ends the game too:
    // asked first (issue 51: it was accepted at once); `yes` accepts.
    let mut p = Player::asking();
    let offered: GameLine = serde_json::from_str(
        r#"{"type":"gameFull","id":"G1","white":{"id":"me"},"black":{"id":"them"},"state":{"moves":"e2e4 e7e5","status":"started","bdraw":true}}"#,
    )
    .unwrap();
    p.line(0, offered);
    p.take_asked();
    p.typed(1, "draw");
    assert!(sends(&mut p).is_empty(), "asked first");
    assert_eq!(p.told.last().unwrap().1, "Accept the draw? Yes or no");
    p.typed(2, "yes");
    assert_eq!(sends(&mut p), ["/api/board/game/G1/draw/yes"]);
}

/// Issue 51: online words answer: a takeback asked, an offer declined, a
/// chat line sent, the opponent's offers with his name.
#[test]
fn online_words_are_answered_and_offers_name_the_opponent() {
    let mut p = Player::new(Waits::default());
    let offered: GameLine = serde_json::from_str(
        r#"{"type":"gameFull","id":"G1","white":{"id":"me"},"black":{"id":"them","name":"Magnus"},"state":{"moves":"e2e4 e7e5","status":"started","bdraw":true}}"#,
    )
    .unwrap();
    p.line(0, offered);
    assert_eq!(p.told.last().unwrap().1, "Magnus offers a draw");
    p.typed(1, "no");
    assert_eq!(p.told.last().unwrap().1, "You declined the draw offer");
    assert_eq!(sends(&mut p), ["/api/board/game/G1/draw/no"]);
    p.typed(2, "takeback");
    assert_eq!(p.told.last().unwrap().1, "Takeback asked of your opponent");
    p.take_asked();
    p.typed(3, "chat good luck");
    let (call, input) = p.first_send();
    p.answer(4, call, input, Ok(()));
    assert_eq!(p.told.last().unwrap().1, "Message sent");
    p.typed(5, "draw");
    assert_eq!(p.told.last().unwrap().1, "You offer a draw");
}

#[test]
fn the_same_word_again_resigns_though_an_offer_came_between() {
    let mut p = Player::asking();
    p.line(0, full("started", "e2e4 e7e5"));
    p.take_asked();
    p.typed(1, "resign");
    assert_eq!(p.told.last().unwrap().1, "Resign? Yes or no");
    // A draw offer arrives between two "resign"s (typed at once): the
    // second still resigns; a "yes" now would not.
    let offer: GameLine = serde_json::from_str(
        r#"{"type":"gameState","moves":"e2e4 e7e5","wtime":600000,"btime":600000,"winc":5000,"binc":5000,"status":"started","bdraw":true}"#,
    )
    .unwrap();
    p.line(2, offer);
    assert!(sends(&mut p).is_empty());
    p.typed(3, "resign");
    assert_eq!(sends(&mut p), ["/api/board/game/G1/resign"]);
}

#[test]
fn a_reread_that_brings_no_line_at_all_also_doubles_the_wait() {
    let mut p = opponent_to_move();
    p.tick(3000);
    assert_eq!(p.take_asked(), [OnlineEffect::Resync("G1".into())]);
    // The stream opened anew says nothing: known at the next deadline,
    // read again then, and the wait after it doubles, and again.
    assert_eq!(p.play().next_deadline(p.session.record()), Some(6000));
    p.tick(6000);
    assert_eq!(p.take_asked(), [OnlineEffect::Resync("G1".into())]);
    assert_eq!(
        p.play().next_deadline(p.session.record()),
        Some(6000 + 6000)
    );
    p.tick(12_000);
    assert_eq!(p.take_asked(), [OnlineEffect::Resync("G1".into())]);
    assert_eq!(
        p.play().next_deadline(p.session.record()),
        Some(12_000 + 12_000)
    );
    // Its whole game at last, with the reply: the wait starts again.
    p.line(12_500, full("started", "e2e4 e7e5"));
    p.typed(12_600, "Nf3");
    assert_eq!(
        p.play().next_deadline(p.session.record()),
        Some(12_500 + 3000)
    );
}

/// Issue 52: keep-alives, chat lines and lines of kinds this version does
/// not know never hold off reading the game again while the opponent is to
/// move and no state comes (a chat line reset the watch; a server that
/// chats, or sends lines Rochade does not know, could withhold the
/// opponent's move for ever).
#[test]
fn chat_and_unknown_lines_do_not_hold_off_reading_the_game_again() {
    let mut p = opponent_to_move();
    let chat: GameLine = serde_json::from_str(
        r#"{"type":"chatLine","username":"them","text":"Good luck, have fun!","room":"player"}"#,
    )
    .unwrap();
    let unknown: GameLine = serde_json::from_str(r#"{"type":"ping"}"#).unwrap();
    let gone: GameLine = serde_json::from_str(r#"{"type":"opponentGone","gone":false}"#).unwrap();
    for (at, line) in [(900, chat), (1800, unknown), (2700, gone)] {
        p.line(at, line);
        assert!(p.take_asked().is_empty());
    }
    p.tick(3000);
    assert_eq!(p.take_asked(), [OnlineEffect::Resync("G1".into())]);
    p.line(3100, full("started", "e2e4 e7e5"));
    assert_eq!(p.announced.last(), Some(&("e7e5".to_owned(), Color::Black)));
}

/// Issue 50: a move whose request fails at once, again and again (a proxy
/// answering with a redirect), is kept and sent again after each reread,
/// and the outage is said once, not at every try; once a request goes
/// through, the next outage is said again.
#[test]
fn a_move_failing_at_every_try_is_sent_again_and_the_outage_said_once() {
    let mut p = Player::new(Waits::default());
    p.line(0, full("started", ""));
    p.typed(5, "e4");
    let redirect = || {
        Err(ApiError::Network(
            "the server answered with a redirect (302 to http://portal/): the request was not sent"
                .into(),
        ))
    };
    let mut now = 10;
    for _ in 0..5 {
        let (call, input) = p.first_send();
        p.answer(now, call, input, redirect());
        assert!(
            p.take_asked().contains(&OnlineEffect::Resync("G1".into())),
            "the game read again"
        );
        // The game read again lacks the move: it is sent again.
        p.line(now + 5, full("started", ""));
        now += 1000;
    }
    assert_eq!(p.session.record().moves().len(), 1, "the move is kept");
    let lost = |p: &Player| p.told.iter().filter(|t| t.1.contains("redirect")).count();
    assert_eq!(lost(&p), 1, "{:?}", p.told);
    // It goes through; a later outage is said again.
    let (call, input) = p.first_send();
    p.answer(now, call, input, Ok(()));
    p.line(now + 5, full("started", "e2e4 e7e5"));
    p.typed(now + 10, "Nf3");
    let (call, input) = p.first_send();
    p.answer(now + 20, call, input, redirect());
    assert_eq!(lost(&p), 2, "{:?}", p.told);
}

/// Issue 50: a state with a move that is not legal takes nothing back
/// (before, the player's move was taken back and every later move got
/// "not your turn"): said once, and the game read again after the usual
/// silence, where the right state comes.
#[test]
fn an_illegal_move_in_a_state_takes_nothing_back_and_the_game_is_read_again() {
    let mut p = Player::new(Waits {
        keep_alive_ms: 1000,
        ..Waits::default()
    });
    p.line(0, full("started", "e2e4 e7e5"));
    p.typed(5, "Nf3");
    let (call, input) = p.first_send();
    p.answer(10, call, input, Ok(()));
    let bad: GameLine = serde_json::from_str(
        r#"{"type":"gameState","moves":"e2e4 e7e5 g1f3 e7e5","wtime":1,"btime":1,"winc":0,"binc":0,"status":"started"}"#,
    )
    .unwrap();
    p.line(20, bad.clone());
    p.line(30, bad);
    assert_eq!(p.session.record().moves().len(), 3, "Nf3 kept");
    let said = p
        .told
        .iter()
        .filter(|t| t.1.contains("is not legal here"))
        .count();
    assert_eq!(said, 1, "{:?}", p.told);
    assert!(
        !p.told
            .iter()
            .any(|t| matches!(t.0, Some(Report::Takeback { .. }))),
        "{:?}",
        p.told
    );
    // The opponent is to move: the game is read again after the silence.
    p.take_asked();
    p.tick(3030);
    assert_eq!(p.take_asked(), [OnlineEffect::Resync("G1".into())]);
    p.line(3100, full("started", "e2e4 e7e5 g1f3 b8c6"));
    assert_eq!(p.announced.last(), Some(&("b8c6".to_owned(), Color::Black)));
    // Our turn again: a move typed is sent.
    p.typed(3200, "Bb5");
    assert_eq!(sends(&mut p), ["/api/board/game/G1/move/f1b5"]);
}

/// A word in the server's list that is no move at all (typed away where
/// the line is read) is said like an illegal move, with its ply, once.
#[test]
fn a_word_that_is_no_move_in_a_state_is_said_once_and_takes_nothing_back() {
    let mut p = Player::new(Waits::default());
    p.line(0, full("started", "e2e4 e7e5"));
    p.typed(5, "Nf3");
    let (call, input) = p.first_send();
    p.answer(10, call, input, Ok(()));
    let bad: GameLine = serde_json::from_str(
        r#"{"type":"gameState","moves":"e2e4 e7e5 g1f3 e7e9","wtime":1,"btime":1,"winc":0,"binc":0,"status":"started"}"#,
    )
    .unwrap();
    p.line(20, bad.clone());
    p.line(30, bad);
    assert_eq!(p.session.record().moves().len(), 3, "Nf3 kept");
    let said: Vec<_> = p
        .told
        .iter()
        .filter(|t| t.1.contains("e7e9 (ply 4) is not legal here"))
        .collect();
    assert_eq!(said.len(), 1, "{:?}", p.told);
}

/// Issue 51: once the game is over, the server ending its stream is not
/// said as a lost connection (a front end still saving the end followed
/// it and said "Connection to the server lost ... Reconnecting").
#[test]
fn the_stream_ended_after_the_game_is_not_said_as_a_lost_connection() {
    let mut p = Player::new(Waits::default());
    p.line(0, full("started", "e2e4 e7e5"));
    p.line(10, full("draw", "e2e4 e7e5"));
    let told = p.told.len();
    p.feed(
        20,
        OnlineEvent::GameDropped {
            reason: ApiError::Network("the stream ended".into()),
            first: true,
        },
    );
    assert_eq!(p.told.len(), told, "{:?}", p.told);
}
