//! End to end through the session core and the speech thread: in
//! tournament mode, with the peg-board connected and left behind the game,
//! board guidance is speaking when a move is entered; the move's words must
//! reach the speech backend first, the stale guidance must not come back,
//! and new guidance follows only after the guidance time.

use std::time::Duration;

use rochade::board::PegMessage;
use rochade::session::board::BoardEvent;
use rochade::session::{Effect, Event, Mode, Priority, Session, SessionConfig, Source};
use rochade::speech::{
    BackendChoice, Recorded, RecordingLog, SpeechConfig, SpeechHandle, SpeechService,
};
use rochade::words::Pack;

const START_MASK: u64 = 0xFFFF_0000_0000_FFFF;

fn feed(
    speech: &SpeechHandle,
    effects: impl IntoIterator<Item = Effect>,
) -> Vec<(String, Priority)> {
    let mut said = Vec::new();
    for e in effects {
        if let Effect::Speak(s) = e {
            said.push((s.text.spoken.clone(), s.priority));
            speech.speak(s);
        }
    }
    said
}

#[test]
fn a_move_entered_while_guidance_speaks_reaches_the_backend_first() {
    let config = SessionConfig {
        mode: Mode::Tournament,
        ..SessionConfig::default()
    };
    let pack = Pack::bundled(config.lang);
    let mut session = Session::with_pack(config, pack);
    let log = RecordingLog::holding();
    let speech = SpeechService::spawn(SpeechConfig {
        backend: BackendChoice::Recording(log.clone()),
        ..SpeechConfig::default()
    })
    .unwrap();

    // The board connects in the starting position.
    let mut now: u64 = 0;
    feed(
        &speech,
        session.handle(
            now,
            Event::Board(BoardEvent::LinkUp {
                port: "/dev/pts/test".into(),
            }),
        ),
    );
    feed(
        &speech,
        session.handle(
            now,
            Event::Board(BoardEvent::Message(PegMessage::Snapshot(START_MASK))),
        ),
    );
    // The snapshot settles (glitch filter).
    while let Some(d) = session.next_deadline().filter(|d| *d <= 1000) {
        now = d;
        feed(&speech, session.handle(now, Event::Tick));
    }
    assert!(speech.wait_idle(Duration::from_secs(5)));
    let before = log.calls().len();
    assert_eq!(before, 0, "nothing is said about a board that matches");

    // 1. e4 and e5 are typed; the board follows neither. Nothing about
    // the board is said at once ...
    for (i, (mv, words)) in [("e4", "Eva vier"), ("e5", "Eva fünf")]
        .into_iter()
        .enumerate()
    {
        now += 100;
        let said = feed(&speech, session.handle(now, typed(mv)));
        assert_eq!(said, [(words.to_string(), Priority::Move)]);
        assert!(log.wait_for_calls(before + i + 1, Duration::from_secs(5)));
        log.finish_current();
        assert!(speech.wait_idle(Duration::from_secs(5)));
    }
    let before = log.calls().len();
    // ... and guidance comes only once the board has been still for the
    // guidance time, as one item of the lowest class.
    let mut guidance = Vec::new();
    while guidance.is_empty() {
        let deadline = session.next_deadline().expect("a guidance deadline");
        assert!(deadline <= now + 10_000, "guidance never came");
        now = deadline;
        guidance = feed(&speech, session.handle(now, Event::Tick));
    }
    assert_eq!(guidance.len(), 1, "one guidance item: {guidance:?}");
    assert_eq!(guidance[0].1, Priority::Guidance);
    assert!(log.wait_for_calls(before + 1, Duration::from_secs(5)));
    assert_eq!(log.spoken().last().unwrap(), &guidance[0].0);

    // 2. While the guidance is speaking, the next move is entered.
    now += 50;
    let said = feed(&speech, session.handle(now, typed("Nf3")));
    assert_eq!(said[0], ("Springer Felix drei".to_string(), Priority::Move));
    assert!(log.wait_for_calls(before + 3, Duration::from_secs(5)));
    let calls = log.calls()[before + 1..].to_vec();
    assert_eq!(calls[0], Recorded::Stop, "the guidance is cut off");
    assert!(
        matches!(&calls[1], Recorded::Speak { text, priority: Priority::Move, .. } if text == "Springer Felix drei"),
        "the move is the next thing the backend hears: {calls:?}"
    );
    log.finish_current();
    assert!(speech.wait_idle(Duration::from_secs(5)));
    // The cut-off guidance was stale and is not said again.
    assert_eq!(log.spoken().last().unwrap(), "Springer Felix drei");
}

fn typed(text: &str) -> Event {
    Event::MoveEntered {
        text: text.into(),
        source: Source::Keyboard,
    }
}
