//! Session core behaviour, driven with events and virtual time.

use super::*;
use crate::chess::Letters;
use crate::clock::TimeControl;

fn session(config: SessionConfig) -> Session {
    let pack = Pack::bundled(config.lang);
    Session::with_pack(config, pack)
}

pub(super) fn spoken(effects: &[Effect]) -> Vec<String> {
    let said = effects.iter().filter_map(Effect::speech);
    said.map(|s| s.text.written.clone()).collect()
}

fn enter(s: &mut Session, now: u64, text: &str) -> Vec<Effect> {
    s.handle(
        now,
        Event::MoveEntered {
            text: text.into(),
            source: Source::Keyboard,
        },
    )
    .into()
}

#[test]
fn entered_move_is_announced_recorded_and_saved() {
    let mut s = session(SessionConfig::default());
    let fx = enter(&mut s, 0, "Nf3");
    assert_eq!(spoken(&fx), ["Springer Felix drei"]);
    assert!(fx.contains(&Effect::Sound(Earcon::MoveAccepted)));
    assert!(fx.contains(&Effect::SaveGame));
    let speech = fx
        .iter()
        .find_map(|e| {
            if let Effect::Speak(s) = e {
                Some(s.clone())
            } else {
                None
            }
        })
        .unwrap();
    assert_eq!(speech.priority, Priority::Move);
    assert_eq!(speech.text.spoken, "Springer Felix drei");
    assert_eq!(s.record().moves().len(), 1);
}

#[test]
fn illegal_and_unreadable_moves_are_alerts_and_change_nothing() {
    let mut s = session(SessionConfig::default());
    let fx = enter(&mut s, 0, "Nf4");
    assert_eq!(spoken(&fx), ["Unzulaessiger Zug: Nf4"]);
    assert!(fx.contains(&Effect::Sound(Earcon::Illegal)));
    let fx = enter(&mut s, 0, "banana");
    assert_eq!(spoken(&fx), ["Zug nicht verstanden: banana"]);
    assert!(s.record().moves().is_empty());
}

#[test]
fn repeat_speaks_the_same_announcement_again() {
    let mut s = session(SessionConfig::default());
    enter(&mut s, 0, "e4");
    let fx = s.handle(10, Event::Command(Command::Repeat));
    assert_eq!(spoken(&fx), ["Eva vier"]);
    let fx = s.handle(20, Event::Command(Command::LastMove));
    assert_eq!(spoken(&fx), ["Letzter Zug: Eva vier"]);
}

#[test]
fn takeback_needs_confirmation() {
    let mut s = session(SessionConfig::default());
    enter(&mut s, 0, "e4");
    enter(&mut s, 0, "e5");
    let fx = s.handle(0, Event::Command(Command::Takeback));
    assert_eq!(spoken(&fx), ["Zug Eva fuenf zuruecknehmen? Ja oder nein"]);
    assert_eq!(
        s.record().moves().len(),
        2,
        "nothing taken back before confirmation"
    );
    s.handle(0, Event::Command(Command::Cancel));
    assert!(spoken(&s.handle(0, Event::Command(Command::Confirm))).is_empty());
    assert_eq!(s.record().moves().len(), 2);
    s.handle(0, Event::Command(Command::Takeback));
    let fx = s.handle(0, Event::Command(Command::Confirm));
    assert_eq!(spoken(&fx), ["Zurueckgenommen: Eva fuenf"]);
    assert_eq!(s.record().moves().len(), 1);
    assert_eq!(
        spoken(&s.handle(0, Event::Command(Command::Repeat))),
        ["Eva vier"]
    );
}

#[test]
fn mate_ends_the_game_and_further_moves_are_refused() {
    let mut s = session(SessionConfig::default());
    for m in ["f3", "e5", "g4"] {
        enter(&mut s, 0, m);
    }
    let fx = enter(&mut s, 0, "Qh4#");
    assert_eq!(
        spoken(&fx),
        [
            "Dame Hector vier Matt",
            "Partie beendet: Schwarz gewinnt, Schachmatt"
        ]
    );
    assert!(
        fx.iter()
            .any(|e| matches!(e, Effect::Notice(Notice::GameOver { .. })))
    );
    let fx = enter(&mut s, 0, "a3");
    assert!(fx.contains(&Effect::Sound(Earcon::Illegal)));
}

#[test]
fn clock_switches_on_moves_and_reads_in_words() {
    let config = SessionConfig {
        time_control: "300+2".parse::<TimeControl>().unwrap(),
        ..SessionConfig::default()
    };
    let mut s = session(config);
    s.handle(0, Event::Command(Command::StartClock));
    enter(&mut s, 10_000, "e4");
    assert_eq!(s.record().moves()[0].clock_ms, Some(292_000));
    let fx = s.handle(70_000, Event::Command(Command::ClockReading));
    let text = &spoken(&fx)[0];
    assert!(
        text.starts_with("Weiss: 4 Minuten 52 Sekunden uebrig"),
        "{text}"
    );
    assert!(
        text.contains("Schwarz: 4 Minuten uebrig, 1 Minute verbraucht"),
        "{text}"
    );
    assert!(
        !text.contains(':') || !text.contains("4:"),
        "never clock digits: {text}"
    );
}

#[test]
fn flag_fall_ends_the_game_at_the_deadline() {
    let config = SessionConfig {
        time_control: "60".parse::<TimeControl>().unwrap(),
        ..SessionConfig::default()
    };
    let mut s = session(config);
    s.handle(0, Event::Command(Command::StartClock));
    let deadline = s.next_deadline().unwrap();
    // Low-time warning at 10 s first.
    let fx = s.handle(deadline, Event::Tick);
    assert!(fx.contains(&Effect::Sound(Earcon::LowTime)));
    assert_eq!(s.next_deadline(), Some(60_000));
    let fx = s.handle(59_999, Event::Tick);
    assert!(!fx.contains(&Effect::Sound(Earcon::FlagFall)));
    let fx = s.handle(60_000, Event::Tick);
    assert!(fx.contains(&Effect::Sound(Earcon::FlagFall)));
    assert_eq!(s.record().result_str(), "0-1");
    assert_eq!(s.next_deadline(), None, "nothing runs after the game");
}

#[test]
fn draw_offer_and_acceptance() {
    let mut s = session(SessionConfig::default());
    enter(&mut s, 0, "e4");
    let fx = s.handle(0, Event::Command(Command::OfferDraw(Color::White)));
    assert_eq!(spoken(&fx), ["Weiss bietet Remis an"]);
    let fx = s.handle(0, Event::Command(Command::AcceptDraw(Color::Black)));
    assert_eq!(spoken(&fx), ["Partie beendet: Remis, Remis vereinbart"]);
    assert!(s.record().moves()[0].draw_offer);
}

#[test]
fn wrong_claim_is_said_and_the_game_goes_on() {
    let mut s = session(SessionConfig::default());
    enter(&mut s, 0, "Nf3");
    let fx = s.handle(
        0,
        Event::Command(Command::Claim(Claim::ThreefoldRepetition, None)),
    );
    assert_eq!(
        spoken(&fx),
        ["Reklamation unberechtigt: Dreimalige Stellungswiederholung"]
    );
    assert!(!s.record().is_over());
    for m in ["Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1"] {
        enter(&mut s, 0, m);
    }
    let fx = s.handle(
        0,
        Event::Command(Command::Claim(
            Claim::ThreefoldRepetition,
            Some("Ng8".into()),
        )),
    );
    assert_eq!(
        spoken(&fx)[0],
        "Reklamation berechtigt: Dreimalige Stellungswiederholung"
    );
    assert_eq!(s.record().result_str(), "1/2-1/2");
}

#[test]
fn languages_switch_at_once() {
    let mut s = session(SessionConfig::default());
    let config = SessionConfig {
        lang: Lang::Pt,
        ..s.config().clone()
    };
    s.handle(0, Event::ConfigChanged(config));
    let fx = enter(&mut s, 0, "Nf3");
    assert_eq!(spoken(&fx), ["Cavalo Felix tres"]);
    let fx = enter(&mut s, 0, "cavalo felix seis");
    assert_eq!(spoken(&fx), ["Cavalo Felix seis"]);
}

#[test]
fn side_to_move_and_move_count() {
    let mut s = session(SessionConfig::default());
    enter(&mut s, 0, "e4");
    assert_eq!(
        spoken(&s.handle(0, Event::Command(Command::SideToMove))),
        ["Schwarz am Zug"]
    );
    let text = &spoken(&s.handle(0, Event::Command(Command::MoveCount)))[0];
    assert!(text.starts_with("Weiss: 1 Zug gespielt"), "{text}");
}

#[test]
fn replay_is_deterministic() {
    let run = || {
        let config = SessionConfig {
            time_control: "180+2".parse::<TimeControl>().unwrap(),
            ..SessionConfig::default()
        };
        let mut s = session(config);
        let mut all: Vec<Effect> = s.handle(0, Event::Command(Command::StartClock)).into();
        for (i, m) in ["e4", "c5", "Nf3", "d6"].iter().enumerate() {
            all.extend(enter(&mut s, 1000 * (i as u64 + 1), m));
        }
        all.extend(s.handle(9000, Event::Command(Command::ClockReading)));
        all
    };
    assert_eq!(run(), run());
}

#[test]
fn resumed_game_gets_its_clock_and_last_move_back() {
    let config = SessionConfig {
        time_control: "300+2".parse::<TimeControl>().unwrap(),
        ..SessionConfig::default()
    };
    let mut s = session(config.clone());
    s.handle(0, Event::Command(Command::StartClock));
    enter(&mut s, 10_000, "e4");
    enter(&mut s, 25_000, "e5");
    let white_before = s.clock().remaining(Color::White, 25_000);
    let black_before = s.clock().remaining(Color::Black, 25_000);
    let saved = s.record().clone();

    // The app restarts an hour later.
    let mut resumed = session(config);
    resumed.resume_game(3_600_000, saved);
    assert_eq!(
        resumed.clock().remaining(Color::White, 3_600_000),
        white_before
    );
    assert_eq!(
        resumed.clock().remaining(Color::Black, 3_600_000),
        black_before
    );
    assert!(
        resumed.clock().is_paused(),
        "the arbiter restarts the clock"
    );
    assert_eq!(
        spoken(&resumed.handle(3_600_000, Event::Command(Command::Repeat))),
        ["Eva fuenf"]
    );
    resumed.handle(3_600_000, Event::Command(Command::ResumeClock));
    let fx = enter(&mut resumed, 3_605_000, "Nf3");
    assert_eq!(spoken(&fx), ["Springer Felix drei"]);
    assert_eq!(
        resumed.record().moves()[2].clock_ms,
        Some(white_before.unwrap() - 5_000 + 2_000)
    );
    assert_eq!(
        resumed.record().moves()[2].at_ms,
        Some(30_000),
        "game time goes on where it stopped"
    );
}

#[test]
fn after_resume_every_move_reaches_the_board_tracker() {
    let mut s = session(SessionConfig::default());
    for m in ["e4", "e5", "Nf3", "Nc6", "Bc4", "Bc5"] {
        enter(&mut s, 0, m);
    }
    let saved = s.record().clone();
    let mut resumed = session(SessionConfig::default());
    resumed.resume_game(1_000, saved);
    // The first event after the resume is a typed move (no tick, no F5).
    for (i, m) in ["O-O", "Nf6", "d3", "O-O", "Kh1", "Kh8"].iter().enumerate() {
        let fx = enter(&mut resumed, 2_000 + i as u64, m);
        assert!(fx.contains(&Effect::SaveGame), "{m} was not played");
        assert_eq!(
            resumed.board_state().tracker().position(),
            resumed.record().position(),
            "the tracker follows the game after {m}"
        );
    }
    assert_eq!(resumed.record().moves().len(), 12);
}

fn command(s: &mut Session, cmd: Command) -> Vec<Effect> {
    s.handle(0, Event::Command(cmd)).into()
}

fn answered(effects: &[Effect]) -> Option<(QuestionKind, bool)> {
    effects.iter().find_map(|e| match e {
        Effect::Notice(Notice::Answered {
            question,
            confirmed,
        }) => Some((*question, *confirmed)),
        _ => None,
    })
}

#[test]
fn resignation_new_game_and_closing_ask_through_one_pending_question() {
    let mut s = session(SessionConfig::default());
    // Nothing in progress: a new game and closing need no question.
    assert!(answered(&command(&mut s, Command::AskClose)) == Some((QuestionKind::Close, true)));
    command(&mut s, Command::AskNewGame);
    assert!(s.pending().is_none());
    enter(&mut s, 0, "f3");
    let fx = command(&mut s, Command::AskResign);
    assert_eq!(spoken(&fx), ["Schwarz gibt auf? Ja oder nein"]);
    assert!(matches!(
        s.pending().map(|p| &p.question),
        Some(Question::Resign(Color::Black))
    ));
    let fx = command(&mut s, Command::Cancel);
    assert_eq!(spoken(&fx), ["Abgebrochen"]);
    assert!(!s.record().is_over() && s.pending().is_none());
    command(&mut s, Command::AskClose);
    assert_eq!(s.pending().unwrap().question.kind(), QuestionKind::Close);
    // Asking again while the question stands says nothing more.
    assert!(spoken(&command(&mut s, Command::AskClose)).is_empty());
    let fx = command(&mut s, Command::Confirm);
    assert_eq!(answered(&fx), Some((QuestionKind::Close, true)));
    command(&mut s, Command::AskNewGame);
    let fx = command(&mut s, Command::Confirm);
    assert_eq!(spoken(&fx), ["Neue Partie"]);
    assert!(s.record().moves().is_empty());
    enter(&mut s, 0, "d4");
    command(&mut s, Command::AskResign);
    command(&mut s, Command::Confirm);
    assert_eq!(s.record().end().unwrap().result_str(), "1-0");
}

#[test]
fn a_saved_game_is_offered_and_resumed_on_confirmation() {
    let mut s = session(SessionConfig::default());
    let mut saved = GameRecord::new();
    for san in ["e4", "e5"] {
        let mv = crate::chess::parse_move(saved.position(), san, Letters::En, &[]).unwrap();
        saved.play(mv, None).unwrap();
    }
    let fx = s.offer_resume(saved.clone());
    assert_eq!(spoken(&fx).len(), 1, "{fx:?}");
    assert!(s.record().moves().is_empty(), "nothing resumed before yes");
    let fx = command(&mut s, Command::Confirm);
    assert_eq!(
        spoken(&fx),
        ["Partie fortgesetzt", "Letzter Zug: Eva fuenf"]
    );
    assert_eq!(s.record().moves().len(), 2);
    // A finished or empty game is not offered.
    assert!(s.offer_resume(GameRecord::new()).is_empty());
}

#[test]
fn chosen_squares_play_the_legal_move_and_promote_to_the_configured_piece() {
    let mut s = session(SessionConfig::default());
    s.set_start_fen("8/P6k/8/8/8/8/8/K7 w - - 0 1").unwrap();
    let choose = |s: &mut Session, from, to| {
        s.handle(
            0,
            Event::SquaresChosen {
                from,
                to,
                source: Source::Keyboard,
            },
        )
    };
    let fx = choose(&mut s, Square::A1, Square::C3);
    assert!(fx.contains(&Effect::Sound(Earcon::Illegal)));
    assert!(s.record().moves().is_empty());
    s.handle(
        0,
        Event::Board(board::BoardEvent::Configure(crate::board::TrackerConfig {
            promote_to: shakmaty::Role::Knight,
            ..crate::board::TrackerConfig::default()
        })),
    );
    let fx = choose(&mut s, Square::A7, Square::A8);
    let played = fx.iter().find_map(|e| match e {
        Effect::Notice(Notice::Move { mv, .. }) => Some(*mv),
        _ => None,
    });
    assert_eq!(
        played.and_then(|m| m.promotion()),
        Some(shakmaty::Role::Knight)
    );
    let json = serde_json::to_value(
        fx.iter()
            .find_map(|e| match e {
                Effect::Notice(n @ Notice::Move { .. }) => Some(n.clone()),
                _ => None,
            })
            .unwrap(),
    )
    .unwrap();
    assert_eq!(json["uci"], "a7a8n", "the move is written as UCI in logs");
}

#[test]
fn draw_offer_sides_and_the_clock_key_follow_the_rules() {
    let mut s = session(SessionConfig {
        time_control: "5+0".parse().unwrap(),
        ..SessionConfig::default()
    });
    enter(&mut s, 0, "e4");
    let fx = command(&mut s, Command::OfferDrawAfterMove);
    assert!(fx.contains(&Effect::Notice(Notice::DrawOffer {
        side: shakmaty::Color::White
    })));
    command(&mut s, Command::AcceptDrawToMove);
    assert_eq!(s.record().end().unwrap().result_str(), "1/2-1/2");

    let mut s = session(SessionConfig {
        time_control: "5+0".parse().unwrap(),
        ..SessionConfig::default()
    });
    assert_eq!(
        spoken(&command(&mut s, Command::ToggleClock)),
        [s.pack().say("clock_running").written]
    );
    assert!(s.clock().is_started() && !s.clock().is_paused());
    assert_eq!(
        spoken(&command(&mut s, Command::ToggleClock)),
        [s.pack().say("clock_paused").written]
    );
    assert!(s.clock().is_paused());
    command(&mut s, Command::ToggleClock);
    assert!(!s.clock().is_paused());

    // An untimed game: no clock runs, and that is what is said.
    let mut s = session(SessionConfig::default());
    enter(&mut s, 0, "e4");
    assert_eq!(
        spoken(&command(&mut s, Command::ToggleClock)),
        [s.pack().say("clock_untimed").written]
    );
    assert!(!s.clock().is_started());
}

#[test]
fn a_move_is_saved_before_it_is_announced() {
    let mut s = session(SessionConfig::default());
    let fx = enter(&mut s, 0, "e4");
    let save = fx.iter().position(|e| *e == Effect::SaveGame);
    let speak = fx.iter().position(|e| matches!(e, Effect::Speak(_)));
    assert!(save.is_some() && save < speak, "{fx:?}");
}

#[test]
fn the_clock_reading_counts_the_moves_of_the_record_even_with_the_clock_stopped() {
    let mut s = session(SessionConfig::default());
    for mv in ["e4", "e5", "Nf3", "Nc6"] {
        enter(&mut s, 0, mv);
    }
    let fx = s.handle(10, Event::Command(Command::ClockReading));
    let text = spoken(&fx).join(" ");
    assert!(text.matches("2 Zuege gespielt").count() == 2, "{text}");
    assert!(!text.contains("0 Zuege"), "{text}");
}

#[test]
fn resume_restores_the_games_time_control_and_stored_clock_readings_and_says_the_clock_is_paused() {
    // Saved with 5 min + 2 s; the settings today say untimed.
    let mut saved = GameRecord::new();
    saved.tags.time_control = Some("300+2".into());
    for (san, at, clk) in [("e4", 4_000, 250_000), ("e5", 9_000, 200_000)] {
        let mv = san
            .parse::<shakmaty::san::San>()
            .unwrap()
            .to_move(saved.position())
            .unwrap();
        saved.play(mv, Some(at)).unwrap();
        // The readings differ from what the replay gives (an arbiter's
        // correction): they win.
        saved.set_last_clock(clk);
    }
    let mut s = session(SessionConfig::default());
    s.offer_resume(saved);
    let fx = s.handle(50_000, Event::Command(Command::Confirm));
    let said = spoken(&fx);
    assert!(said.contains(&"Uhr angehalten".to_owned()), "{said:?}");
    assert!(s.clock().control().is_timed(), "the game's time control");
    assert!(s.clock().is_paused());
    assert_eq!(s.clock().on_turn(), Some(Color::White));
    assert_eq!(s.clock().remaining(Color::White, 50_000), Some(250_000));
    assert_eq!(s.clock().remaining(Color::Black, 50_000), Some(200_000));
    // Nobody is charged while paused; then White's clock runs on.
    assert_eq!(s.clock().remaining(Color::White, 90_000), Some(250_000));
    s.handle(90_000, Event::Command(Command::ResumeClock));
    enter(&mut s, 95_000, "Nf3");
    let last = s.record().last_move().unwrap();
    assert_eq!(last.clock_ms, Some(250_000 - 5_000 + 2_000));
    // Game time goes on from 9 s at the resume (not from the app's start,
    // not counting the time the app was closed).
    assert_eq!(last.at_ms, Some(9_000 + 45_000));
}

#[test]
fn game_time_goes_on_after_a_resume_in_a_new_process() {
    // 10 minutes into a game, the app restarts: its own time begins at 0
    // again, the game time must not.
    let config = SessionConfig::default();
    let mut first = session(config.clone());
    enter(&mut first, 0, "e4");
    enter(&mut first, 600_000, "e5");
    let saved = first.record().clone();
    let mut resumed = session(config);
    resumed.resume_game(2_000, saved);
    enter(&mut resumed, 7_000, "Nf3");
    let at = resumed.record().moves()[2].at_ms;
    assert_eq!(at, Some(605_000), "the game time goes on from 600 s");
}

#[test]
fn practice_keys_decide_in_the_session_say_so_and_hand_the_settings_back() {
    let mut s = session(SessionConfig {
        lang: Lang::En,
        mode: Mode::Relay,
        ..SessionConfig::default()
    })
    .with_seed(40);
    let practice = |cmd| Event::Command(Command::Practice(cmd));
    // On: practice mode, the computer plays Black; the shell is told first.
    let fx = s.handle(2, practice(PracticeCommand::ToggleComputer));
    let Some(Effect::ConfigChanged(config)) = fx.first() else {
        panic!("the settings come first: {fx:?}");
    };
    assert_eq!(config.mode, Mode::Practice);
    assert!(config.practice.computer);
    assert_eq!(
        spoken(&fx),
        ["Practice against the computer, level 3. You play White"]
    );
    let opponent = s.opponent().expect("an opponent");
    assert_eq!((opponent.color, opponent.seed), (Color::Black, 42));
    // Ten levels at most, one at least.
    for _ in 0..12 {
        s.handle(3, practice(PracticeCommand::Level(true)));
    }
    assert_eq!(s.opponent().map(|o| o.level.number()), Some(10));
    for _ in 0..12 {
        s.handle(4, practice(PracticeCommand::Level(false)));
    }
    assert_eq!(s.config().practice.level.number(), 1);
    // The other colour: the computer has White and moves at once.
    let fx = s.handle(5, practice(PracticeCommand::SwitchColours));
    assert_eq!(s.opponent().map(|o| o.color), Some(Color::White));
    assert!(
        fx.iter().any(|e| matches!(e, Effect::AskEngine(_))),
        "{fx:?}"
    );
    // Off again.
    let fx = s.handle(6, practice(PracticeCommand::ToggleComputer));
    assert_eq!(spoken(&fx), ["Practice without a computer opponent"]);
    assert_eq!(s.opponent(), None);
    // New settings from the shell bring the opponent they ask for.
    let mut config = s.config().clone();
    config.practice.computer = true;
    s.handle(7, Event::ConfigChanged(config));
    assert!(s.opponent().is_some());
}

#[test]
fn tags_and_packs_change_through_events() {
    let mut s = session(SessionConfig::default());
    let tags = crate::chess::Tags {
        white: "Anna".into(),
        ..crate::chess::Tags::default()
    };
    s.handle(0, Event::TagsChanged(tags.clone()));
    assert_eq!(s.record().tags, tags);
    s.handle(0, Event::PackChanged(Box::new(Pack::bundled(Lang::En))));
    assert_eq!(s.pack().lang, Lang::En);
}

#[test]
fn server_clocks_give_the_last_move_the_movers_time_once() {
    let mut s = session(SessionConfig::default());
    let clocks = |w, b| Event::ServerClocks {
        white_ms: w,
        black_ms: b,
    };
    // No move yet: nothing to write, nothing to save.
    assert!(
        !s.handle(0, clocks(600_000, 600_000))
            .contains(&Effect::SaveGame)
    );
    enter(&mut s, 10, "e4");
    let fx = s.handle(20, clocks(597_500, 600_000));
    assert!(fx.contains(&Effect::SaveGame));
    assert_eq!(s.record().moves()[0].clock_ms, Some(597_500));
    // The same state again (an offer, a reconnection): no new save.
    assert!(
        !s.handle(30, clocks(597_500, 600_000))
            .contains(&Effect::SaveGame)
    );
    enter(&mut s, 40, "e5");
    s.handle(50, clocks(597_500, 591_000));
    assert_eq!(s.record().moves()[1].clock_ms, Some(591_000));
    assert_eq!(s.record().moves()[0].clock_ms, Some(597_500));
}
