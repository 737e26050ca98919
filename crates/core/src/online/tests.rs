use super::*;

fn line(text: &str) -> GameLine {
    serde_json::from_str(text).expect(text)
}

fn s(list: &str) -> Vec<UciMove> {
    list.split_whitespace()
        .map(|m| m.parse().expect(m))
        .collect()
}

fn u(m: &str) -> UciMove {
    m.parse().expect(m)
}

const FULL: &str = r#"{"type":"gameFull","id":"5IrD6Gzz","rated":true,"variant":{"key":"standard","name":"Standard","short":"Std"},"clock":{"initial":1200000,"increment":10000},"speed":"classical","perf":{"name":"Classical"},"createdAt":1523825103562,"white":{"id":"lovlas","name":"lovlas","provisional":false,"rating":2500,"title":"IM"},"black":{"id":"leela","name":"leela","rating":2390,"title":null},"initialFen":"startpos","state":{"type":"gameState","moves":"e2e4 c7c5 f2f4 d7d6 g1f3 b8c6 f1c4 g8f6 d2d3 g7g6 e1g1 f8g7","wtime":7598040,"btime":8395220,"winc":10000,"binc":10000,"wdraw":false,"bdraw":false,"status":"started"}}"#;

#[test]
fn documented_lines_parse() {
    let GameLine::GameFull(full) = line(FULL) else {
        panic!("gameFull")
    };
    assert_eq!(full.white.rating, Some(2500));
    assert_eq!(full.black.title, None);
    assert_eq!(full.clock.unwrap().increment, 10000);
    assert_eq!(full.state.moves.len(), 12);
    let ai = r#"{"type":"gameFull","id":"x","white":{"aiLevel":3},"black":{"id":"me","name":"Me","rating":1500},"state":{"type":"gameState","moves":"","wtime":1,"btime":1,"winc":0,"binc":0,"status":"started"}}"#;
    let GameLine::GameFull(full) = line(ai) else {
        panic!()
    };
    assert_eq!(full.white.display_name(), "Lichess AI level 3");
    assert_eq!(
        line(
            r#"{"type":"chatLine","username":"thibault","text":"Good luck, have fun","room":"player"}"#
        ),
        GameLine::ChatLine(ChatLine {
            username: "thibault".into(),
            text: "Good luck, have fun".into(),
            room: Some("player".into())
        })
    );
    assert_eq!(
        line(r#"{"type":"opponentGone","gone":true,"claimWinInSeconds":8}"#),
        GameLine::OpponentGone(OpponentGone {
            gone: true,
            claim_win_in_seconds: Some(8)
        })
    );
    assert_eq!(line(r#"{"type":"somethingNew","x":1}"#), GameLine::Other);
    let ev: IncomingEvent = serde_json::from_str(r#"{"type":"challenge","challenge":{"id":"7pGLxJ4F","url":"https://lichess.org/VU0nyvsW","status":"created","compat":{"bot":false,"board":true},"challenger":{"id":"lovlas","name":"Lovlas","title":"IM","rating":2506,"patron":true,"online":true,"lag":24},"destUser":{"id":"thibot","name":"thibot","title":null,"rating":1500,"provisional":true,"online":true,"lag":45},"variant":{"key":"standard","name":"Standard","short":"Std"},"rated":true,"timeControl":{"type":"clock","limit":300,"increment":25,"show":"5+25"},"color":"random","speed":"rapid","perf":{"name":"Rapid"}}}"#).unwrap();
    let IncomingEvent::Challenge { challenge } = ev else {
        panic!()
    };
    assert_eq!(
        challenge.time_control.unwrap().minutes_increment(),
        Some((5, 25))
    );
    let ev: IncomingEvent = serde_json::from_str(r#"{"type":"gameStart","game":{"gameId":"rCRw1AuO","fullId":"rCRw1AuOvonq","color":"black","fen":"r1bqkbnr/pppp2pp/2n1pp2/8/8/3PP3/PPPB1PPP/RN1QKBNR w KQkq - 2 4","hasMoved":true,"isMyTurn":false,"lastMove":"b8c6","opponent":{"id":"philippe","rating":1790,"username":"Philippe"},"perf":"correspondence","rated":false,"secondsLeft":1209600,"source":"friend","status":{"id":20,"name":"started"},"speed":"correspondence","variant":{"key":"standard","name":"Standard"},"compat":{"bot":false,"board":true},"id":"rCRw1AuO"}}"#).unwrap();
    let IncomingEvent::GameStart { game } = ev else {
        panic!()
    };
    assert_eq!(game.game_id, "rCRw1AuO");
    assert_eq!(game.opponent.unwrap().rating, Some(1790));
}

#[test]
fn reconcile_follows_the_server() {
    // New server moves are played.
    assert_eq!(
        reconcile(&s("e2e4"), &s("e2e4 e7e5"), None),
        vec![Change::Play(s("e7e5"))]
    );
    // Our sent move waits for an older state.
    assert!(reconcile(&s("e2e4 e7e5"), &s("e2e4"), Some(&u("e7e5"))).is_empty());
    // A move the server never got (not pending) is taken back.
    assert_eq!(
        reconcile(&s("e2e4 e7e5"), &s("e2e4"), None),
        vec![Change::Rewind {
            keep: 1,
            ours_lost: false
        }]
    );
    // The game moved on: our pending move is replaced by the server's.
    assert_eq!(
        reconcile(&s("e2e4 e7e5"), &s("e2e4 c7c5 g1f3"), Some(&u("e7e5"))),
        vec![
            Change::Rewind {
                keep: 1,
                ours_lost: true
            },
            Change::Play(s("c7c5 g1f3"))
        ]
    );
    // A takeback on the server.
    assert_eq!(
        reconcile(&s("e2e4 e7e5 g1f3"), &s("e2e4 e7e5"), None),
        vec![Change::Rewind {
            keep: 2,
            ours_lost: false
        }]
    );
}

fn state(moves: &str) -> GameState {
    GameState {
        moves: s(moves),
        status: GameStatus::Started,
        wtime: 60_000,
        btime: 60_000,
        ..GameState::default()
    }
}

#[test]
fn offers_pending_moves_and_the_end() {
    let GameLine::GameFull(full) = line(FULL) else {
        panic!()
    };
    let mut game = OnlineGame::new(&full, "Leela").expect("black");
    assert_eq!(game.me, Color::Black);
    assert_eq!(game.opponent().display_name(), "lovlas");
    assert_eq!(game.pgn_time_control(), "1200+10");
    assert!(OnlineGame::new(&full, "nobody").is_none());
    let changes = game.update(&[], &state("e2e4"));
    assert_eq!(changes[0], Change::Play(s("e2e4")));
    assert_eq!(game.send_move(u("e7e5")), Request::Move(u("e7e5")));
    assert_eq!(game.pending(), Some(&u("e7e5")));
    // The server's state with our move clears it.
    let changes = game.update(&s("e2e4 e7e5"), &state("e2e4 e7e5"));
    assert_eq!(changes.len(), 1, "{changes:?}");
    assert_eq!(game.pending(), None);
    // The opponent offers a draw with his move; we decline.
    let mut offer = state("e2e4 e7e5 g1f3");
    offer.wdraw = true;
    let changes = game.update(&s("e2e4 e7e5"), &offer);
    assert!(changes.contains(&Change::DrawOffered));
    assert!(game.opponent_offers_draw());
    assert_eq!(game.draw(false), Request::Draw(false));
    assert!(!game.opponent_offers_draw());
    // Our own offer, declined.
    game.draw(true);
    let changes = game.update(&s("e2e4 e7e5 g1f3"), &state("e2e4 e7e5 g1f3"));
    assert!(changes.contains(&Change::DrawDeclined), "{changes:?}");
    // Resignation ends it once.
    let mut over = state("e2e4 e7e5 g1f3");
    over.status = GameStatus::Resign;
    over.winner = Some(Color::Black);
    let changes = game.update(&s("e2e4 e7e5 g1f3"), &over);
    assert_eq!(
        changes.last(),
        Some(&Change::Ended(EndKind::Resign {
            loser: Color::White
        }))
    );
    assert!(game.is_over());
    assert!(
        !game
            .update(&s("e2e4 e7e5 g1f3"), &over)
            .iter()
            .any(|c| matches!(c, Change::Ended(_)))
    );
}

#[test]
fn requests_and_time_controls() {
    assert_eq!(
        Request::Move(u("e7e8q")).path("abc"),
        "/api/board/game/abc/move/e7e8q"
    );
    assert_eq!(
        Request::Draw(false).path("abc"),
        "/api/board/game/abc/draw/no"
    );
    assert_eq!(
        Request::ClaimVictory.path("abc"),
        "/api/board/game/abc/claim-victory"
    );
    assert_eq!(
        Request::Chat("hi".into()).form(),
        vec![("room", "player".to_owned()), ("text", "hi".to_owned())]
    );
    // An id the server sends goes into a path as letters and digits only.
    let id = PathId::from("ab/../c?d");
    assert_eq!(id.as_str(), "abcd");
    assert_eq!(
        Call::AcceptChallenge(id.clone()).path(),
        "/api/challenge/abcd/accept"
    );
    assert_eq!(
        Call::Game {
            game_id: id,
            request: Request::Resign
        }
        .path(),
        "/api/board/game/abcd/resign"
    );
    let tc: TimeControlArg = "10+5".parse().unwrap();
    assert_eq!(tc.clock_form()[0].1, "600");
    assert_eq!("15".parse::<TimeControlArg>().unwrap().increment, 0);
    assert!("x+1".parse::<TimeControlArg>().is_err());
    assert!("0+0".parse::<TimeControlArg>().is_err());
}

#[test]
fn a_late_older_state_is_ignored_and_a_takeback_asked_for_is_followed() {
    let GameLine::GameFull(full) = line(FULL) else {
        panic!()
    };
    let mut game = OnlineGame::new(&full, "Leela").expect("black");
    game.update(&[], &state("e2e4"));
    game.send_move(u("e7e5"));
    game.update(&s("e2e4 e7e5"), &state("e2e4 e7e5 g1f3"));
    let local = s("e2e4 e7e5 g1f3");
    // A line of a stream that was replaced, delivered late: no takeback
    // was asked for, so it is not the truth any more.
    assert!(game.update(&local, &state("e2e4 e7e5")).is_empty());
    assert!(game.update(&local, &state("e2e4")).is_empty());
    // The opponent asks to take his move back; we accept: followed.
    let mut asks = state("e2e4 e7e5 g1f3");
    asks.wtakeback = true;
    assert!(
        game.update(&local, &asks)
            .contains(&Change::TakebackOffered)
    );
    game.takeback(true);
    let changes = game.update(&local, &state("e2e4 e7e5"));
    assert_eq!(
        changes[0],
        Change::Rewind {
            keep: 2,
            ours_lost: false
        }
    );
}
