//! Practice against the real Stockfish (Debian `stockfish`): fails loudly
//! when it is missing.

use std::path::PathBuf;

use rochade::engine::driver::{Driver, Time};
use rochade::engine::{DEFAULT_ENGINE_PATH, EngineOptions, EngineService, Level};
use rochade::session::{Command, Effect, Event, Notice, Opponent, Session, SessionConfig, Source};
use rochade::words::{Lang, Pack};
use shakmaty::{Color, Position};

fn stockfish() -> PathBuf {
    let path = PathBuf::from(DEFAULT_ENGINE_PATH);
    assert!(
        path.exists(),
        "{DEFAULT_ENGINE_PATH} is missing: install Debian's stockfish (scripts/deps.sh)"
    );
    path
}

fn driver(lang: Lang, level: u8, engine_color: Color) -> Driver {
    let config = SessionConfig {
        lang,
        ..SessionConfig::default()
    };
    let mut session = Session::with_pack(config, Pack::bundled(lang));
    session.set_opponent(Some(Opponent {
        color: engine_color,
        level: Level::new(level).unwrap(),
        pause_ms: 700,
        seed: 42,
    }));
    Driver::new(session, EngineService::spawn(stockfish()), Time::Virtual(0))
}

fn spoken(effects: &[Effect]) -> Vec<String> {
    let said = effects.iter().filter_map(Effect::speech);
    said.map(|s| s.text.written.clone()).collect()
}

fn fen_of(pos: &shakmaty::Chess) -> String {
    shakmaty::fen::Fen::from_position(pos, shakmaty::EnPassantMode::Legal).to_string()
}

/// The player's side, a beginner: Stockfish looking one move ahead only
/// (takes what hangs, sees no deeper).
fn beginner_move(pos: &shakmaty::Chess, engine: &mut rochade::engine::Engine) -> shakmaty::Move {
    let plan = Level::analysis(engine.options(), 1000, Some(1));
    let (_, best) = engine.search(&fen_of(pos), &[], &plan).unwrap();
    best.unwrap().to_move(pos).unwrap()
}

/// The score (centipawns, side to move) of a position, searched 8 plies.
fn score(pos: &shakmaty::Chess, engine: &mut rochade::engine::Engine) -> i32 {
    if pos.is_game_over() {
        return if pos.is_checkmate() { -10_000 } else { 0 };
    }
    let plan = Level::analysis(engine.options(), 1000, Some(8));
    let (lines, _) = engine.search(&fen_of(pos), &[], &plan).unwrap();
    lines[0].score.as_cp().clamp(-2000, 2000)
}

#[test]
fn a_whole_game_against_level_1_ends_and_level_1_loses() {
    let mut d = driver(Lang::En, 1, Color::Black);
    let mut player =
        rochade::engine::Engine::start(&stockfish(), Default::default()).expect("stockfish starts");
    let mut engine_moves = 0;
    let mut said = Vec::new();
    for _ in 0..300 {
        if d.session.record().is_over() {
            break;
        }
        let mv = beginner_move(d.session.record().position(), &mut player);
        let fx = d.handle(Event::MovePlayed {
            mv,
            source: Source::Keyboard,
        });
        said.extend(spoken(&fx));
        let before = d.now();
        assert!(d.settle(|_, fx| {
            for e in &fx {
                if let Effect::Notice(Notice::Move {
                    source: Source::Engine,
                    ..
                }) = e
                {
                    engine_moves += 1;
                }
            }
            said.extend(spoken(&fx));
        }));
        if !d.session.record().is_over() {
            // The pause before the reply passed in virtual time.
            assert!(d.now() >= before + 700, "no pause before the engine's move");
        }
    }
    let end = d.session.record().end().expect("the game ended");
    assert_eq!(
        end.result_str(),
        "1-0",
        "level 1 should lose to a beginner: {said:?}"
    );
    assert!(engine_moves > 0);
    // The review was spoken after the game.
    assert!(said.iter().any(|s| s.starts_with("Review")), "{said:?}");
    // Below the engine's floor, measured: how much each of level 1's moves
    // threw away against the best move, searched 8 plies.
    let record = d.session.record();
    let mut losses = Vec::new();
    for (i, m) in record.moves().iter().enumerate() {
        let before = record.position_before(i);
        if before.turn() != Color::Black {
            continue;
        }
        let mut after = before.clone();
        after.play_unchecked(m.mv);
        let loss = score(before, &mut player) + score(&after, &mut player);
        losses.push(loss.max(0));
    }
    let blunders = losses.iter().filter(|&&l| l >= 300).count();
    let mean = losses.iter().sum::<i32>() / losses.len() as i32;
    println!(
        "level 1: {} moves, {blunders} lost 300 cp or more (a piece), mean loss {mean} cp",
        losses.len()
    );
    assert!(blunders >= 3, "level 1 blundered only {blunders} times");
    assert!(mean >= 100, "mean loss {mean} cp");
}

#[test]
fn the_review_names_the_worst_move_and_the_better_one() {
    // White to move takes the queen with the rook; instead he plays a3,
    // and Black mates on the back rank.
    let mut d = driver(Lang::En, 10, Color::Black);
    d.session
        .set_start_fen("6k1/5ppp/8/3q4/8/8/P4PPP/3R2K1 w - - 0 1")
        .unwrap();
    d.session.set_opponent(Some(Opponent {
        color: Color::Black,
        level: Level::new(10).unwrap(),
        pause_ms: 0,
        seed: 1,
    }));
    let mut said = Vec::new();
    d.handle(Event::MoveEntered {
        text: "a3".into(),
        source: Source::Keyboard,
    });
    assert!(d.settle(|_, fx| said.extend(spoken(&fx))));
    assert!(d.session.record().is_over(), "{said:?}");
    assert!(
        said.contains(&"Review. Move 1: Anna three, better Rook takes David five".to_owned()),
        "{said:?}"
    );
}

#[test]
fn a_level_below_the_floor_sends_no_out_of_range_value() {
    let mut d = driver(Lang::De, 1, Color::White);
    d.handle(Event::Tick);
    assert!(d.settle(|_, _| {}));
    assert_eq!(d.session.record().moves().len(), 1);
    // The ranges as Stockfish reports them, read independently.
    let reply = std::process::Command::new(stockfish())
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .and_then(|mut c| {
            use std::io::Write;
            c.stdin.take().unwrap().write_all(b"uci\nquit\n")?;
            c.wait_with_output()
        })
        .unwrap();
    let options = EngineOptions::from_uci_reply(&String::from_utf8_lossy(&reply.stdout));
    let elo = options.spin("UCI_Elo").expect("Stockfish reports UCI_Elo");
    assert!(elo.min >= 1000, "floor {}", elo.min);
    let sent = d.engine.log().lines();
    let mut setoptions = 0;
    for line in &sent {
        let Some(rest) = line.strip_prefix("setoption name ") else {
            continue;
        };
        setoptions += 1;
        let (name, value) = rest.split_once(" value ").unwrap();
        if let Some(range) = options.spin(name) {
            let v: i64 = value.parse().unwrap();
            assert!(range.contains(v), "{line} is outside {range:?}");
        }
        assert_ne!(name, "UCI_Elo", "level 1 must not ask for an Elo: {sent:?}");
    }
    assert!(setoptions > 0, "{sent:?}");
    assert!(
        sent.iter()
            .any(|l| l.starts_with("go ") && l.contains("depth 1")),
        "{sent:?}"
    );
}

#[test]
fn the_engine_killed_mid_game_is_restarted_without_losing_a_move() {
    let mut d = driver(Lang::En, 5, Color::Black);
    for text in ["e4", "d4"] {
        d.handle(Event::MoveEntered {
            text: text.into(),
            source: Source::Keyboard,
        });
        assert!(d.settle(|_, _| {}));
    }
    assert_eq!(d.session.record().moves().len(), 4);
    let pid = d.engine.pid().expect("engine running");
    std::process::Command::new("kill")
        .args(["-9", &pid.to_string()])
        .status()
        .unwrap();
    let mut said = Vec::new();
    d.handle(Event::MoveEntered {
        text: "Nf3".into(),
        source: Source::Keyboard,
    });
    // The engine thread notices the dead process and reports it.
    assert!(d.settle(|_, fx| said.extend(spoken(&fx))));
    while !said.iter().any(|s| s.contains("failed")) {
        let ev = d
            .engine
            .events()
            .recv_timeout(std::time::Duration::from_secs(30))
            .unwrap();
        let fx = d.handle(Event::Engine(ev));
        said.extend(spoken(&fx));
    }
    assert_eq!(d.session.record().moves().len(), 5, "the game is kept");
    let fx = d.handle(Event::Command(Command::RestartEngine));
    said.extend(spoken(&fx));
    assert!(d.settle(|_, fx| said.extend(spoken(&fx))));
    assert_eq!(d.session.record().moves().len(), 6, "{said:?}");
    assert_ne!(d.engine.pid(), Some(pid));
}

#[test]
fn hint_threat_and_evaluation_in_each_language() {
    // White to move wins the black queen hanging on d5... after 1.e4 d5 2.exd5 Qxd5 3.Nc3.
    for lang in Lang::ALL {
        let mut d = driver(lang, 10, Color::Black);
        d.session
            .set_start_fen("rnb1kbnr/ppp1pppp/8/3q4/8/2N5/PPPP1PPP/R1BQKBNR b KQkq - 1 3")
            .unwrap();
        d.session.set_opponent(None);
        let mut said = Vec::new();
        for cmd in [Command::Hint, Command::Threat, Command::Evaluate] {
            let fx = d.handle(Event::Command(cmd));
            said.extend(spoken(&fx));
            assert!(d.settle(|_, fx| said.extend(spoken(&fx))));
        }
        let pack = Pack::bundled(lang);
        let prefix = |key: &str| {
            let t = pack.phrase(key, &[("move", "".into())]).written;
            t.trim().trim_end_matches(':').to_owned()
        };
        assert!(said[0].starts_with(&prefix("hint")), "{lang}: {said:?}");
        // The threat: the knight takes the queen.
        assert!(said[1].starts_with(&prefix("threat")), "{lang}: {said:?}");
        let queen = pack.piece(shakmaty::Role::Knight).written.clone();
        assert!(said[1].contains(&queen), "{lang}: {said:?}");
        assert!(
            !said[2].is_empty() && !said[2].starts_with('['),
            "{lang}: {said:?}"
        );
    }
}

#[test]
fn a_missing_or_silent_engine_is_reported_in_words_and_the_game_kept() {
    // (program, what the German message says)
    for (program, words) in [
        ("/nonexistent/stockfish", "lässt sich nicht starten"),
        // `cat` starts but never speaks UCI: it hangs, as far as we know.
        ("/bin/cat", "antwortet nicht"),
    ] {
        let mut session = Session::with_pack(SessionConfig::default(), Pack::bundled(Lang::De));
        session.set_opponent(Some(Opponent {
            color: Color::Black,
            level: Level::new(3).unwrap(),
            pause_ms: 0,
            seed: 1,
        }));
        let mut d = Driver::new(
            session,
            EngineService::spawn(program.into()),
            Time::Virtual(0),
        );
        let mut said = Vec::new();
        let fx = d.handle(Event::MoveEntered {
            text: "e4".into(),
            source: Source::Keyboard,
        });
        let spoken_words = |fx: &[Effect]| -> Vec<String> {
            let speech = fx.iter().filter_map(Effect::speech);
            speech.map(|s| s.text.spoken.clone()).collect()
        };
        said.extend(spoken_words(&fx));
        assert!(d.settle(|_, fx| said.extend(spoken_words(&fx))));
        let failure = said
            .iter()
            .find(|s| s.starts_with("Computergegner ausgefallen"))
            .unwrap_or_else(|| panic!("{program}: {said:?}"));
        assert!(failure.contains(words), "{failure}");
        assert!(
            failure.contains("Strg+R") || failure.contains("Steuerung"),
            "{failure}"
        );
        assert_eq!(d.session.record().moves().len(), 1, "the game is kept");
        // A typed move still works; the engine is not asked again until
        // it is restarted.
        d.handle(Event::Command(Command::Takeback));
        d.handle(Event::Command(Command::Confirm));
        assert_eq!(d.session.record().moves().len(), 0);
        assert!(!d.session.engine_busy());
    }
}

#[test]
fn level_1_plays_measurably_worse_than_the_engine_s_own_floor() {
    use rochade::engine::{Engine, Rng, choose_move};
    use shakmaty::uci::UciMove;
    // The positions of a Ruy Lopez, one per ply.
    let line = "e2e4 e7e5 g1f3 b8c6 f1b5 a7a6 b5a4 g8f6 e1g1 f8e7 f1e1 b7b5 a4b3 d7d6 \
                c2c3 e8g8 h2h3 c6a5 b3c2 c7c5 d2d4 d8c7";
    let mut positions = vec![shakmaty::Chess::default()];
    for m in line.split_whitespace() {
        let mut p = positions.last().unwrap().clone();
        let mv = m.parse::<UciMove>().unwrap().to_move(&p).unwrap();
        p.play_unchecked(mv);
        positions.push(p);
    }
    let mut judge = Engine::start(&stockfish(), Default::default()).expect("stockfish starts");
    let mut player = Engine::start(&stockfish(), Default::default()).expect("stockfish starts");
    let mut mean_loss = |n: u8| {
        let level = Level::new(n).unwrap();
        let plan = level.plan(player.options());
        let mut rng = Rng::new(3);
        let mut total = 0;
        for pos in &positions {
            let (lines, best) = player.search(&fen_of(pos), &[], &plan).unwrap();
            let mv = choose_move(pos, &lines, best.as_ref(), plan.choice, &mut rng).unwrap();
            let mut after = pos.clone();
            after.play_unchecked(mv.to_move(pos).unwrap());
            total += (score(pos, &mut judge) + score(&after, &mut judge)).max(0);
        }
        total / positions.len() as i32
    };
    let one = mean_loss(1);
    let floor = mean_loss(5);
    println!(
        "mean loss over {} positions: level 1 {one} cp, level 5 (UCI_Elo 1350, the floor) {floor} cp",
        positions.len()
    );
    assert!(one >= floor + 50, "level 1 {one} cp, level 5 {floor} cp");
}
