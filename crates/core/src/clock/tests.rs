use super::*;
use crate::words::{Lang, Pack};

const MIN: u64 = 60_000;
const S: u64 = 1000;

fn tc(text: &str) -> TimeControl {
    text.parse().unwrap_or_else(|e| panic!("{e}"))
}

fn started(text: &str) -> Clock {
    let mut clock = Clock::new(tc(text));
    clock.start(0, Color::White).unwrap();
    clock
}

#[test]
fn parses_the_usual_forms() {
    assert_eq!(
        tc("5400+30"),
        TimeControl::Periods(vec![Period::sudden_death(5400, 30)])
    );
    assert_eq!(
        tc("40/5400+30:1800+30"),
        TimeControl::Periods(vec![
            Period {
                moves: Some(40),
                seconds: 5400,
                increment_secs: 30,
                delay_secs: 0
            },
            Period::sudden_death(1800, 30),
        ])
    );
    assert_eq!(
        tc("40/7200:3600"),
        TimeControl::Periods(vec![
            Period {
                moves: Some(40),
                seconds: 7200,
                increment_secs: 0,
                delay_secs: 0
            },
            Period::sudden_death(3600, 0),
        ])
    );
    assert_eq!(
        tc("300"),
        TimeControl::Periods(vec![Period::sudden_death(300, 0)])
    );
    assert_eq!(tc("-"), TimeControl::Untimed);
    assert_eq!(tc("?"), TimeControl::Unknown);
    assert_eq!(tc("*"), TimeControl::Unknown);
    let delay = Period {
        moves: None,
        seconds: 300,
        increment_secs: 0,
        delay_secs: 5,
    };
    assert_eq!(tc("300d5"), TimeControl::Periods(vec![delay]));
    assert_eq!(tc("300+5d"), TimeControl::Periods(vec![delay]));
    assert_eq!(tc(" 300+2d5 ").periods()[0].increment_secs, 2);
}

#[test]
fn formats_round_trip() {
    for text in [
        "5400+30",
        "40/5400+30:1800+30",
        "40/7200:3600",
        "300",
        "-",
        "?",
        "300d5",
        "40/7200d10:3600+2d10",
        "40/7200",
    ] {
        assert_eq!(tc(text).to_string(), text);
        assert_eq!(tc(&tc(text).to_string()), tc(text));
    }
    assert_eq!(tc("300+5d").to_string(), "300d5");
    assert_eq!(tc("*").to_string(), "?");
}

#[test]
fn errors_name_the_bad_part() {
    let cases = [
        ("40/x+30", "x", "seconds is not a whole number"),
        ("5400+3o", "3o", "increment"),
        ("300:40/1800", "300", "not the last"),
        ("0/300", "0", "at least one move"),
        ("*180", "*180", "sandclock"),
        ("40/5400+30::300", "", "empty period"),
        ("300d", "", "missing delay"),
        ("0", "0", "no time"),
        ("", "", "empty"),
    ];
    for (input, part, reason) in cases {
        let err = input.parse::<TimeControl>().unwrap_err();
        assert_eq!(err.part, part, "{input}: {err}");
        assert!(err.reason.contains(reason), "{input}: {err}");
        assert!(err.to_string().contains(input.trim()), "{err}");
    }
    let err = "40/7200:3600+z".parse::<TimeControl>().unwrap_err();
    assert!(err.to_string().contains("period 2"), "{err}");
}

#[test]
fn nothing_runs_before_start() {
    let mut clock = Clock::new(tc("300"));
    assert_eq!(clock.running(), None);
    assert_eq!(clock.remaining(Color::White, 10 * S), Some(300 * S));
    assert_eq!(clock.press(10), Err(ClockError::NotStarted));
    assert_eq!(clock.flag_deadline(), None);
    clock.start(5 * S, Color::White).unwrap();
    assert_eq!(
        clock.start(6 * S, Color::White),
        Err(ClockError::AlreadyStarted)
    );
    assert_eq!(clock.running(), Some(Color::White));
    assert_eq!(clock.remaining(Color::White, 15 * S), Some(290 * S));
    assert_eq!(clock.remaining(Color::Black, 15 * S), Some(300 * S));
}

#[test]
fn a_move_on_a_paused_clock_adds_no_increment() {
    let mut c = Clock::new(tc("300+2"));
    c.start(0, Color::White).unwrap();
    c.pause(1000).unwrap();
    let white_before = c.remaining(Color::White, 1000);
    c.press(5000).unwrap();
    c.press(9000).unwrap();
    assert_eq!(
        c.remaining(Color::White, 9000),
        white_before,
        "no +2 s while paused"
    );
    assert_eq!(c.moves_completed(Color::White), 1, "the move still counts");
}

#[test]
fn fischer_increment_from_move_one() {
    let mut clock = started("5400+30");
    let press = clock.press(10 * S).unwrap();
    assert_eq!(press.mover, Color::White);
    assert_eq!(press.remaining_ms, Some(5400 * S - 10 * S + 30 * S));
    assert_eq!(press.moves_completed, 1);
    assert_eq!(clock.running(), Some(Color::Black));
    // Black's clock runs, White's stands.
    assert_eq!(clock.remaining(Color::Black, 70 * S), Some(5340 * S));
    assert_eq!(clock.remaining(Color::White, 70 * S), Some(5420 * S));
    let press = clock.press(70 * S).unwrap();
    assert_eq!(press.remaining_ms, Some(5370 * S));
    assert_eq!(clock.used(Color::White, 70 * S), 10 * S);
    assert_eq!(clock.used(Color::Black, 70 * S), 60 * S);
    assert_eq!(clock.moves_completed(Color::White), 1);
    assert_eq!(clock.moves_completed(Color::Black), 1);
}

#[test]
fn period_time_is_added_after_the_periods_moves() {
    let mut clock = started("40/7200:3600");
    let mut now = 0;
    for n in 1..=40 {
        now += 60 * S;
        clock.press(now).unwrap(); // White: 60 s per move
        assert_eq!(clock.moves_completed(Color::White), n);
        if n < 40 {
            assert_eq!(clock.moves_to_next_period(Color::White), Some(40 - n));
            assert_eq!(clock.period_index(Color::White), 0);
        }
        now += S;
        clock.press(now).unwrap(); // Black: 1 s per move
    }
    // White used 40 minutes of 120, then got 60 more; no increment.
    assert_eq!(clock.remaining(Color::White, now), Some(140 * MIN));
    assert_eq!(
        clock.remaining(Color::Black, now),
        Some(7200 * S - 40 * S + 3600 * S)
    );
    assert_eq!(clock.period_index(Color::White), 1);
    assert_eq!(clock.moves_to_next_period(Color::White), None);
    // Sudden death: no more time after another 40 moves.
    for _ in 0..40 {
        now += S;
        clock.press(now).unwrap();
        now += S;
        clock.press(now).unwrap();
    }
    assert_eq!(clock.remaining(Color::White, now), Some(140 * MIN - 40 * S));
}

#[test]
fn a_last_period_with_a_move_count_repeats() {
    let mut clock = started("2/60");
    let mut now = 0;
    for _ in 0..4 {
        now += 10 * S;
        clock.press(now).unwrap();
        clock.press(now).unwrap();
    }
    // Two periods completed: 60 + 60 + 60 - 40 s.
    assert_eq!(clock.remaining(Color::White, now), Some(140 * S));
    assert_eq!(clock.period_index(Color::White), 2);
}

#[test]
fn period_with_increment_adds_both() {
    let mut clock = started("1/100+10:50+5");
    let press = clock.press(20 * S).unwrap();
    assert_eq!(press.remaining_ms, Some((100 - 20 + 10 + 50) * S));
    clock.press(20 * S).unwrap();
    let press = clock.press(30 * S).unwrap();
    assert_eq!(press.remaining_ms, Some((140 - 10 + 5) * S));
}

#[test]
fn simple_delay_does_not_run_the_clock_and_does_not_accumulate() {
    let mut clock = started("300d5");
    // Within the delay nothing is counted down, but time is used.
    assert_eq!(clock.remaining(Color::White, 4 * S), Some(300 * S));
    assert_eq!(clock.used(Color::White, 4 * S), 4 * S);
    assert_eq!(clock.remaining(Color::White, 8 * S), Some(297 * S));
    // A quick move: the unused delay is not added to the clock.
    let press = clock.press(2 * S).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(press.remaining_ms, Some(300 * S));
    assert_eq!(clock.remaining(Color::Black, 2 * S + 5 * S), Some(300 * S));
    assert_eq!(clock.remaining(Color::Black, 2 * S + 6 * S), Some(299 * S));
    assert_eq!(clock.flag_deadline(), Some(2 * S + 5 * S + 300 * S));
    // Pausing inside the delay keeps what is left of it.
    clock.pause(4 * S).unwrap();
    clock.resume(100 * S).unwrap();
    assert_eq!(clock.remaining(Color::Black, 103 * S), Some(300 * S));
    assert_eq!(clock.remaining(Color::Black, 104 * S), Some(299 * S));
    assert_eq!(clock.used(Color::Black, 104 * S), 6 * S);
}

#[test]
fn flag_falls_exactly_at_zero() {
    let mut clock = started("60");
    clock.press(10 * S).unwrap();
    let deadline = 10 * S + 60 * S;
    assert_eq!(clock.flag_deadline(), Some(deadline));
    assert_eq!(clock.flagged(deadline - 1), None);
    assert_eq!(clock.remaining(Color::Black, deadline - 1), Some(1));
    assert_eq!(clock.flagged(deadline), Some(Color::Black));
    assert_eq!(clock.remaining(Color::Black, deadline + 5 * S), Some(0));
    // A late press keeps the flag; the fallen side gets no increment.
    clock.press(deadline + 5 * S).unwrap();
    assert_eq!(clock.flagged(deadline + 6 * S), Some(Color::Black));
    assert_eq!(clock.remaining(Color::Black, deadline + 6 * S), Some(0));
    assert_eq!(clock.flag_deadline(), None);
}

#[test]
fn flag_with_increment_deadline_follows_the_presses() {
    let mut clock = started("10+2");
    assert_eq!(clock.flag_deadline(), Some(10 * S));
    clock.press(9 * S).unwrap();
    clock.press(9 * S).unwrap();
    // White has 1 + 2 = 3 s from 9 s.
    assert_eq!(clock.flag_deadline(), Some(12 * S));
    assert_eq!(clock.flagged(12 * S - 1), None);
    assert_eq!(clock.flagged(12 * S), Some(Color::White));
}

#[test]
fn pause_and_resume() {
    let mut clock = started("300");
    assert_eq!(clock.resume(0), Err(ClockError::NotPaused));
    clock.pause(10 * S).unwrap();
    assert_eq!(clock.pause(11 * S), Err(ClockError::AlreadyPaused));
    assert!(clock.is_paused());
    assert_eq!(clock.running(), None);
    assert_eq!(clock.on_turn(), Some(Color::White));
    assert_eq!(clock.flag_deadline(), None);
    assert_eq!(clock.remaining(Color::White, 500 * S), Some(290 * S));
    clock.resume(500 * S).unwrap();
    assert_eq!(clock.remaining(Color::White, 510 * S), Some(280 * S));
    assert_eq!(clock.flag_deadline(), Some(500 * S + 290 * S));
    assert_eq!(clock.used(Color::White, 510 * S), 20 * S);
    // A move entered while paused passes the turn, and stays paused.
    clock.pause(510 * S).unwrap();
    let press = clock.press(600 * S).unwrap();
    assert_eq!(press.remaining_ms, Some(280 * S));
    assert!(clock.is_paused());
    assert_eq!(clock.on_turn(), Some(Color::Black));
    clock.resume(700 * S).unwrap();
    assert_eq!(clock.remaining(Color::Black, 701 * S), Some(299 * S));
}

#[test]
fn no_clock_counts_moves_and_used_time() {
    let mut clock = started("-");
    assert_eq!(clock.remaining(Color::White, 10 * S), None);
    let press = clock.press(10 * S).unwrap();
    assert_eq!(press.remaining_ms, None);
    assert_eq!(press.used_ms, 10 * S);
    assert_eq!(clock.used(Color::Black, 25 * S), 15 * S);
    assert_eq!(clock.flagged(1_000_000 * S), None);
    assert_eq!(clock.flag_deadline(), None);
    assert_eq!(clock.next_deadline(), None);
    assert!(clock.low_time_crossed(1_000_000 * S).is_empty());
    assert_eq!(clock.moves_completed(Color::White), 1);
    // The running display shows used time: 15.2 s used -> next change at 16 s.
    assert_eq!(clock.next_second_boundary(25_200), Some(26 * S));
}

#[test]
fn low_time_thresholds_are_reported_once_per_side() {
    let mut clock = Clock::new(tc("400")).with_low_time_thresholds(&[10 * S, 5 * MIN, MIN]);
    assert_eq!(clock.low_time_thresholds(), &[5 * MIN, MIN, 10 * S]);
    clock.start(0, Color::White).unwrap();
    assert_eq!(clock.next_deadline(), Some(100 * S));
    assert!(clock.low_time_crossed(99 * S).is_empty());
    let crossed = clock.low_time_crossed(100 * S);
    assert_eq!(
        crossed,
        vec![LowTime {
            side: Color::White,
            threshold_ms: 5 * MIN
        }]
    );
    assert!(clock.low_time_crossed(101 * S).is_empty());
    // A long gap: both lower thresholds at once, highest first.
    assert_eq!(
        clock.low_time_crossed(395 * S),
        vec![
            LowTime {
                side: Color::White,
                threshold_ms: MIN
            },
            LowTime {
                side: Color::White,
                threshold_ms: 10 * S
            },
        ]
    );
    assert_eq!(clock.next_deadline(), Some(400 * S));
    clock.press(395 * S).unwrap();
    assert_eq!(clock.next_deadline(), Some(495 * S));
    let crossed = clock.low_time_crossed(495 * S);
    assert_eq!(
        crossed,
        vec![LowTime {
            side: Color::Black,
            threshold_ms: 5 * MIN
        }]
    );
    assert!(clock.low_time_crossed(496 * S).is_empty());
}

#[test]
fn thresholds_above_the_starting_time_are_never_reported() {
    let mut clock = started("180+2");
    assert_eq!(clock.next_deadline(), Some(120 * S));
    assert_eq!(
        clock.low_time_crossed(120 * S),
        vec![LowTime {
            side: Color::White,
            threshold_ms: MIN
        }]
    );
}

#[test]
fn a_new_period_rearms_the_thresholds() {
    let mut clock = started("1/400:600");
    assert_eq!(clock.low_time_crossed(100 * S).len(), 1);
    clock.press(100 * S).unwrap(); // White now has 300 + 600 s
    clock.press(100 * S).unwrap();
    assert_eq!(clock.low_time_deadline(), Some(100 * S + 600 * S));
    assert_eq!(clock.low_time_crossed(700 * S).len(), 1);
}

#[test]
fn unpress_goes_back_to_the_moment_of_the_press() {
    let mut clock = started("300+5");
    clock.press(10 * S).unwrap(); // White 295 s
    let before_black = clock.clone();
    clock.press(30 * S).unwrap(); // Black 285 s
    assert_eq!(clock.presses(), 2);
    // White thinks 7 s, then Black's move is taken back.
    assert_eq!(clock.unpress(37 * S), Ok(Color::Black));
    assert_eq!(clock.running(), Some(Color::Black));
    assert_eq!(clock.moves_completed(Color::Black), 0);
    assert_eq!(clock.remaining(Color::White, 40 * S), Some(295 * S));
    assert_eq!(clock.remaining(Color::Black, 40 * S), Some(280 * S - 3 * S));
    assert_eq!(clock.used(Color::Black, 40 * S), 23 * S);
    assert_ne!(clock, before_black);
    assert_eq!(clock.unpress(40 * S), Ok(Color::White));
    assert_eq!(clock.remaining(Color::White, 40 * S), Some(290 * S));
    assert_eq!(clock.unpress(40 * S), Err(ClockError::NothingToUndo));
}

#[test]
fn unpress_undoes_a_period_change() {
    let mut clock = started("1/100:50");
    clock.press(10 * S).unwrap();
    assert_eq!(clock.period_index(Color::White), 1);
    clock.unpress(10 * S).unwrap();
    assert_eq!(clock.period_index(Color::White), 0);
    assert_eq!(clock.remaining(Color::White, 10 * S), Some(90 * S));
}

#[test]
fn second_boundaries_follow_the_display() {
    let mut clock = started("300d2");
    // In the delay: first change 1 ms after the delay ends.
    assert_eq!(clock.next_second_boundary(500), Some(2001));
    assert_eq!(clock.next_second_boundary(2500), Some(3001));
    assert_eq!(clock.remaining(Color::White, 3000), Some(299 * S));
    assert_eq!(display(299_000), "4:59");
    assert_eq!(display(298_999), "4:58");
    clock.pause(0).unwrap();
    assert_eq!(clock.next_second_boundary(10), None);
    let clock = started("12");
    assert_eq!(clock.next_display_change(1500), Some(2001));
    assert_eq!(clock.next_display_change(2500), Some(2501));
    assert_eq!(clock.next_display_change(2050), Some(2101));
}

#[test]
fn compact_display_and_pgn_clk() {
    assert_eq!(display((3600 + 12 * 60 + 5) * S + 999), "1:12:05");
    assert_eq!(display(4 * MIN + 59 * S + 999), "4:59");
    assert_eq!(display(10 * S), "0:10");
    assert_eq!(display(9_599), "0:09.5");
    assert_eq!(display(0), "0:00.0");
    let pgn_clk = |ms| crate::pgn::clock_text(ms, false);
    assert_eq!(pgn_clk((3600 + 12 * 60 + 5) * S + 500), "1:12:05");
    assert_eq!(pgn_clk(4 * MIN + 59 * S), "0:04:59");
}

#[test]
fn durations_in_words_in_each_language() {
    let ms = (3600 + 12 * 60 + 5) * S + 900;
    let de = Pack::bundled(Lang::De);
    let pt = Pack::bundled(Lang::Pt);
    let en = Pack::bundled(Lang::En);
    assert_eq!(
        duration_words(&de, ms).written,
        "1 Stunde 12 Minuten 5 Sekunden"
    );
    assert_eq!(
        duration_words(&pt, ms).written,
        "1 hora 12 minutos 5 segundos"
    );
    assert_eq!(
        duration_words(&en, ms).written,
        "1 hour 12 minutes 5 seconds"
    );
    assert_eq!(
        duration_words(&de, 2 * 3600 * S + S).spoken,
        "2 Stunden 1 Sekunde"
    );
    assert_eq!(duration_words(&de, 12 * MIN).written, "12 Minuten");
    assert_eq!(duration_words(&en, 999).written, "0 seconds");
    assert_eq!(duration_words(&pt, MIN + 1).written, "1 minuto");
}

/// A game state for the readings: 5400+30, White has made 2 moves,
/// Black 1, Black to move.
fn reading_clock() -> (Clock, u64) {
    let mut clock = started("5400+30");
    clock.press(30 * S).unwrap(); // White used 30 s -> 5400 s
    clock.press(30 * S + 12 * MIN + 5 * S).unwrap(); // Black used 12:05
    clock.press(30 * S + 12 * MIN + 5 * S + 3600 * S).unwrap(); // White used 1 h
    (clock, 30 * S + 12 * MIN + 5 * S + 3600 * S + 2 * S + 500)
}

#[test]
fn readings_in_german() {
    let (clock, now) = reading_clock();
    let de = Pack::bundled(Lang::De);
    let u = clock.reading(&de, now, Color::White);
    assert_eq!(
        u.written,
        "Weiss: 30 Minuten 30 Sekunden uebrig, 1 Stunde 30 Sekunden verbraucht, \
         2 Zuege gespielt. Schwarz: 1 Stunde 18 Minuten 22 Sekunden uebrig, \
         12 Minuten 7 Sekunden verbraucht, 1 Zug gespielt"
    );
    assert_eq!(
        u.spoken,
        "Weiß: 30 Minuten 30 Sekunden übrig, 1 Stunde 30 Sekunden verbraucht, \
         2 Züge gespielt. Schwarz: 1 Stunde 18 Minuten 22 Sekunden übrig, \
         12 Minuten 7 Sekunden verbraucht, 1 Zug gespielt"
    );
}

#[test]
fn readings_in_portuguese_and_english() {
    let (clock, now) = reading_clock();
    let pt = Pack::bundled(Lang::Pt);
    let u = clock.reading(&pt, now, Color::Black);
    let expected = "Pretas: 1 hora 18 minutos 22 segundos restantes, \
                    12 minutos 7 segundos usados, 1 lance jogado. \
                    Brancas: 30 minutos 30 segundos restantes, \
                    1 hora 30 segundos usados, 2 lances jogados";
    assert_eq!(u.written, expected);
    assert_eq!(u.spoken, expected);
    let en = Pack::bundled(Lang::En);
    let u = clock.reading(&en, now, Color::White);
    let expected = "White: 30 minutes 30 seconds left, 1 hour 30 seconds used, \
                    2 moves played. Black: 1 hour 18 minutes 22 seconds left, \
                    12 minutes 7 seconds used, 1 move played";
    assert_eq!(u.written, expected);
    assert_eq!(u.spoken, expected);
}

#[test]
fn untimed_reading_gives_used_time_only() {
    let mut clock = started("-");
    clock.press(65 * S).unwrap();
    let de = Pack::bundled(Lang::De);
    let u = clock.side_reading(&de, Color::White, 70 * S);
    assert_eq!(
        u.written,
        "Weiss: 1 Minute 5 Sekunden verbraucht, 1 Zug gespielt"
    );
    let en = Pack::bundled(Lang::En);
    let u = clock.side_reading(&en, Color::Black, 70 * S);
    assert_eq!(u.written, "Black: 5 seconds used, 0 moves played");
    let pt = Pack::bundled(Lang::Pt);
    assert_eq!(
        clock.side_reading(&pt, Color::Black, 70 * S).written,
        "Pretas: 5 segundos usados, 0 lances jogados"
    );
}
