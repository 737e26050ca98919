//! No question takes a typed move (issue 36, item 1): the screen-reader
//! offer holds no keyboard and is answered in the move input; a move typed
//! under a question's dialog is played and the question asked again; every
//! dialog has a name. Keys are sent as a keyboard sends them (the key and
//! its text), through the real app.

use crate::gui_common;

use egui::accesskit::Role;
use egui::{Key, Modifiers};
use egui_kittest::kittest::{NodeT, Queryable};
use gui_common::{Gui, settings, start, start_with};
use rochade::session::Question;
use rochade::speech::SpeechMode;
use rochade::words::Lang;

const OFFER: &str = "A screen reader is running. Let it speak the moves instead of Rochade's own \
                     voice? Type yes or no in the move input and press Enter";

/// A look-up that has found a screen reader (answered before the first
/// frame).
fn screen_reader_found() -> std::sync::mpsc::Receiver<bool> {
    let (tx, rx) = std::sync::mpsc::channel();
    tx.send(true).unwrap();
    rx
}

/// Types `text` wherever the keyboard is, each character as a keyboard
/// sends it: its key pressed (Shift for a capital) and its text.
fn type_keys(gui: &mut Gui, text: &str) {
    for c in text.chars() {
        let key = Key::from_name(&c.to_ascii_uppercase().to_string());
        let modifiers = if c.is_ascii_uppercase() {
            Modifiers::SHIFT
        } else {
            Modifiers::NONE
        };
        if let Some(key) = key {
            gui.harness.event(egui::Event::Key {
                key,
                physical_key: None,
                pressed: true,
                repeat: false,
                modifiers,
            });
        }
        gui.harness.event(egui::Event::Text(c.to_string()));
        if let Some(key) = key {
            gui.harness.event(egui::Event::Key {
                key,
                physical_key: None,
                pressed: false,
                repeat: false,
                modifiers,
            });
        }
        gui.harness.run();
    }
}

/// Types a move and Enter where the keyboard is (nothing focused first).
fn type_move_blind(gui: &mut Gui, text: &str) {
    type_keys(gui, text);
    gui.press(Key::Enter);
}

fn move_input_focused(gui: &Gui) -> bool {
    gui.harness
        .get_by_role_and_label(Role::TextInput, "Move")
        .is_focused()
}

fn moves(gui: &Gui) -> usize {
    gui.app().session().record().moves().len()
}

#[test]
fn six_moves_typed_at_once_after_start_are_played_and_the_offer_takes_none() {
    let mut gui = start_with(settings(Lang::En), |o| {
        o.screen_reader = Some(screen_reader_found())
    });
    // Not in the window's first moments: the screen reader presents the
    // window first, and drops what it is told before it knows it.
    gui.advance(1900);
    assert!(gui.app().question().is_none(), "not before 2 s");
    // Then asked (nothing typed yet), in the side column: no dialog, the
    // keyboard stays in the move input.
    gui.advance(100);
    assert!(matches!(
        gui.app().question(),
        Some(Question::ScreenReaderMode)
    ));
    assert!(gui.shows(OFFER), "the offer is shown");
    assert!(
        gui.harness.query_all_by_role(Role::Dialog).next().is_none(),
        "no dialog"
    );
    assert!(move_input_focused(&gui));
    // The screen reader gets it, the app's own voice does not say it.
    assert_eq!(gui.app().spoken().last().map(String::as_str), Some(OFFER));
    assert!(!gui.spoken().iter().any(|s| s == OFFER));
    for (i, (typed, said)) in [
        ("e4", "Eva four"),
        ("e5", "Eva five"),
        ("Nf3", "Knight Felix three"),
        ("Nc6", "Knight Cesar six"),
        ("Bb5", "Bishop Bella five"),
        ("a6", "Anna six"),
    ]
    .into_iter()
    .enumerate()
    {
        type_move_blind(&mut gui, typed);
        gui.settle_saves();
        assert_eq!(moves(&gui), i + 1, "{typed} was played");
        assert_eq!(gui.last_spoken(), said, "{typed}");
        assert!(move_input_focused(&gui), "after {typed}");
        assert!(matches!(
            gui.app().question(),
            Some(Question::ScreenReaderMode)
        ));
    }
    assert!(gui.shows("3. Bb5 a6"));
    // Answered in the move input.
    type_move_blind(&mut gui, "yes");
    let speech = &gui.app().settings().speech;
    assert_eq!(speech.mode, SpeechMode::ScreenReader);
    assert!(speech.screen_reader_offered, "never asked again");
    assert!(gui.app().question().is_none());
    assert_eq!(moves(&gui), 6, "the answer is no move");
    assert!(move_input_focused(&gui));
    assert!(
        gui.app()
            .spoken()
            .iter()
            .any(|s| s.starts_with("Screen reader mode: your screen reader speaks")),
        "{:?}",
        gui.app().spoken()
    );
}

#[test]
fn once_something_was_typed_the_offer_waits_for_an_idle_keyboard() {
    let (tx, rx) = std::sync::mpsc::channel();
    let mut gui = start_with(settings(Lang::En), |o| o.screen_reader = Some(rx));
    type_move_blind(&mut gui, "e4");
    gui.settle_saves();
    // The look-up answers now: something was typed, so it waits.
    tx.send(true).unwrap();
    gui.advance(100);
    assert!(gui.app().question().is_none(), "no offer under typing");
    gui.advance(3000);
    type_keys(&mut gui, "e");
    gui.advance(5000);
    assert!(gui.app().question().is_none(), "text in the move input");
    type_keys(&mut gui, "5");
    gui.press(Key::Enter);
    gui.settle_saves();
    assert_eq!(moves(&gui), 2);
    gui.advance(4900);
    assert!(gui.app().question().is_none(), "not idle for 5 s yet");
    gui.advance(200);
    assert!(matches!(
        gui.app().question(),
        Some(Question::ScreenReaderMode)
    ));
}

#[test]
fn the_offer_is_declined_with_no_or_its_button_and_not_asked_again() {
    let mut gui = start_with(settings(Lang::En), |o| {
        o.screen_reader = Some(screen_reader_found())
    });
    gui.advance(2000);
    // N alone is typed, not an answer (no dialog).
    type_keys(&mut gui, "n");
    assert!(gui.app().question().is_some());
    type_move_blind(&mut gui, "o");
    assert!(gui.app().question().is_none());
    assert_eq!(
        gui.last_spoken(),
        "Rochade keeps its own voice. Settings, Who speaks, changes it"
    );
    let speech = &gui.app().settings().speech;
    assert_eq!(speech.mode, SpeechMode::SelfVoicing);
    assert!(speech.screen_reader_offered);
    type_move_blind(&mut gui, "e4");
    gui.settle_saves();
    assert_eq!(gui.last_spoken(), "Eva four");
    let settings = gui.app().settings().clone();
    let mut gui = start_with(settings, |o| o.screen_reader = Some(screen_reader_found()));
    gui.advance(2000);
    assert!(gui.app().question().is_none(), "not asked again");

    // Its button answers too (Tab reaches it; a click here).
    let mut gui = start_with(settings_en(), |o| {
        o.screen_reader = Some(screen_reader_found())
    });
    gui.advance(2000);
    gui.harness
        .get_by_role_and_label(Role::Button, "Yes, my screen reader speaks")
        .click();
    gui.harness.run();
    assert_eq!(gui.app().settings().speech.mode, SpeechMode::ScreenReader);
    assert!(gui.app().question().is_none());
}

fn settings_en() -> rochade::config::Settings {
    settings(Lang::En)
}

#[test]
fn the_offer_waits_for_the_resume_question() {
    let mut record = rochade::chess::GameRecord::new();
    record.play_sans("e4").unwrap();
    let mut gui = start_with(settings(Lang::En), |o| {
        o.resume = Some(record);
        o.screen_reader = Some(screen_reader_found());
    });
    assert!(matches!(gui.app().question(), Some(Question::Resume(_))));
    gui.harness
        .get_by_role_and_label(Role::Button, "Resume")
        .click();
    gui.harness.run();
    gui.advance(2000);
    assert!(matches!(
        gui.app().question(),
        Some(Question::ScreenReaderMode)
    ));
}

#[test]
fn a_move_typed_under_a_questions_dialog_is_played_and_the_question_said_again() {
    let mut gui = start(settings(Lang::En));
    gui.type_move("e4");
    gui.type_move("e5");
    gui.press_with(Modifiers::COMMAND, Key::N);
    assert!(matches!(gui.app().question(), Some(Question::NewGame)));
    let question = "Start a new game? Yes or no";
    assert_eq!(gui.last_spoken(), question);
    assert!(!move_input_focused(&gui), "the dialog has the keyboard");
    // N begins the knight's move: no answer.
    type_move_blind(&mut gui, "Nf3");
    gui.settle_saves();
    assert_eq!(moves(&gui), 3, "Nf3 played");
    assert!(gui.shows("2. Nf3"));
    assert!(matches!(gui.app().question(), Some(Question::NewGame)));
    let said = gui.spoken();
    let n = said.len();
    assert_eq!(said[n - 2..], ["Knight Felix three", question], "{said:?}");
    // Lower case too.
    type_move_blind(&mut gui, "nc6");
    gui.settle_saves();
    assert_eq!(moves(&gui), 4, "nc6 played");
    // "n" and Enter answers no; the game goes on.
    type_move_blind(&mut gui, "n");
    assert!(gui.app().question().is_none());
    assert_eq!(moves(&gui), 4);
    assert_eq!(gui.last_spoken(), "Cancelled");
    // A question asked again, answered with Enter alone: yes.
    gui.press_with(Modifiers::COMMAND, Key::N);
    gui.press(Key::Enter);
    assert_eq!(moves(&gui), 0, "a new game");
    // The board's cursor is where a game starts.
    assert_eq!(gui.app().cursor(), shakmaty::Square::E2);
}

#[test]
fn a_move_typed_under_the_resume_question_comes_back_after_the_answer() {
    let mut record = rochade::chess::GameRecord::new();
    record.play_sans("e4").unwrap();
    let mut gui = start_with(settings(Lang::En), |o| o.resume = Some(record));
    assert!(matches!(gui.app().question(), Some(Question::Resume(_))));
    type_move_blind(&mut gui, "d5");
    // Which game it is for is the question: kept, and the question again.
    assert!(matches!(gui.app().question(), Some(Question::Resume(_))));
    assert_eq!(moves(&gui), 0);
    let said = gui.spoken();
    let n = said.len();
    assert_eq!(
        said[n - 2..],
        [
            "d5 is kept in the move input until the question is answered",
            "An unfinished game was found. Resume it? Yes or no"
        ],
        "{said:?}"
    );
    gui.press(Key::Y);
    assert!(gui.app().question().is_none());
    assert_eq!(moves(&gui), 1, "resumed");
    gui.harness.run();
    assert!(move_input_focused(&gui));
    // Back in the move input: Enter plays it in the resumed game.
    gui.press(Key::Enter);
    gui.settle_saves();
    assert_eq!(moves(&gui), 2);
    assert!(gui.shows("1. e4 d5"));
}

#[test]
fn every_dialog_and_window_has_a_name() {
    let mut gui = start(settings(Lang::En));
    gui.type_move("e4");
    let named = |gui: &Gui, role: Role| -> Vec<Option<String>> {
        gui.harness
            .query_all_by_role(role)
            .map(|n| n.accesskit_node().label().map(|l| l.to_string()))
            .collect()
    };
    gui.press_with(Modifiers::COMMAND, Key::N);
    let dialogs = named(&gui, Role::Dialog);
    assert_eq!(dialogs, [Some("Please confirm".to_owned())]);
    gui.press(Key::Escape);
    assert!(named(&gui, Role::Dialog).is_empty());
    for key in [Key::F1, Key::F8] {
        gui.press(key);
        let windows = named(&gui, Role::Window);
        assert!(
            windows
                .iter()
                .all(|n| n.as_deref().is_some_and(|n| !n.is_empty())),
            "{key:?}: {windows:?}"
        );
        assert!(
            named(&gui, Role::Dialog)
                .iter()
                .all(|n| n.as_deref().is_some_and(|n| !n.is_empty()))
        );
        gui.press(Key::Escape);
    }
    let mut record = rochade::chess::GameRecord::new();
    record.play_sans("e4").unwrap();
    let gui = start_with(settings(Lang::En), |o| o.resume = Some(record));
    assert_eq!(
        named(&gui, Role::Dialog),
        [Some("Unfinished game".to_owned())]
    );
}

#[test]
fn a_look_up_answering_inside_the_first_move_still_brings_the_offer() {
    let (tx, rx) = std::sync::mpsc::channel();
    let mut gui = start_with(settings(Lang::En), |o| o.screen_reader = Some(rx));
    type_keys(&mut gui, "e");
    tx.send(true).unwrap();
    type_keys(&mut gui, "4");
    gui.press(Key::Enter);
    gui.settle_saves();
    for typed in ["e5", "Nf3", "Nc6", "Bb5", "a6"] {
        gui.advance(2000);
        type_move_blind(&mut gui, typed);
        gui.settle_saves();
    }
    assert_eq!(moves(&gui), 6);
    gui.advance(1500);
    assert!(gui.app().question().is_none(), "not idle for 5 s yet");
    for _ in 0..30 {
        gui.advance(1000);
    }
    assert!(matches!(
        gui.app().question(),
        Some(Question::ScreenReaderMode)
    ));
}

#[test]
fn a_look_up_answering_in_the_frame_a_whole_move_arrives_asks_once_the_keyboard_is_idle() {
    let (tx, rx) = std::sync::mpsc::channel();
    let mut gui = start_with(settings(Lang::En), |o| o.screen_reader = Some(rx));
    // A loaded machine hands the window a whole move and its Enter in one
    // frame, the frame the look-up answers in: asked then, the offer was
    // said over by the move (Orca never spoke it).
    tx.send(true).unwrap();
    for (key, text) in [
        (Key::E, Some("e")),
        (Key::Num4, Some("4")),
        (Key::Enter, None),
    ] {
        for pressed in [true, false] {
            gui.harness.event(egui::Event::Key {
                key,
                physical_key: None,
                pressed,
                repeat: false,
                modifiers: Modifiers::NONE,
            });
            if let (true, Some(text)) = (pressed, text) {
                gui.harness.event(egui::Event::Text(text.to_owned()));
            }
        }
    }
    gui.harness.run();
    gui.settle_saves();
    assert_eq!(moves(&gui), 1, "the move is played");
    assert_eq!(gui.last_spoken(), "Eva four");
    assert!(gui.app().question().is_none(), "not asked over the move");
    gui.advance(3000);
    assert!(gui.app().question().is_none(), "not idle for 5 s yet");
    gui.advance(3000);
    assert!(matches!(
        gui.app().question(),
        Some(Question::ScreenReaderMode)
    ));
    assert_eq!(gui.app().spoken().last().map(String::as_str), Some(OFFER));
}

/// A screen reader's own interface (NVDA's controller client on Windows),
/// recorded: what the app handed to it.
#[derive(Clone, Default)]
struct ScreenReaderRecorder {
    said: std::sync::Arc<std::sync::Mutex<Vec<(String, bool)>>>,
    brailled: std::sync::Arc<std::sync::Mutex<Vec<String>>>,
}

impl rochade::speech::screen_reader_api::ScreenReaderApi for ScreenReaderRecorder {
    fn speak(&mut self, text: &str, interrupt: bool) -> bool {
        self.said.lock().unwrap().push((text.to_owned(), interrupt));
        true
    }

    fn braille(&mut self, text: &str) -> bool {
        self.brailled.lock().unwrap().push(text.to_owned());
        true
    }
}

/// Waits (without sleeping) until the interface's thread has been given
/// `n` utterances.
fn said_by_interface(reader: &ScreenReaderRecorder, n: usize) -> Vec<(String, bool)> {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    loop {
        let said = reader.said.lock().unwrap().clone();
        if said.len() >= n || std::time::Instant::now() > deadline {
            return said;
        }
        std::thread::yield_now();
    }
}

#[test]
fn with_the_screen_readers_own_interface_a_move_cuts_in_and_is_brailled() {
    let reader = ScreenReaderRecorder::default();
    let mut s = settings(Lang::En);
    s.speech.mode = SpeechMode::ScreenReader;
    s.speech.screen_reader_offered = true;
    let mut gui = start_with(s, |o| {
        o.screen_reader = Some(screen_reader_found());
        o.screen_reader_api =
            rochade::speech::screen_reader_api::DirectSpeech::start(reader.clone());
    });
    type_move_blind(&mut gui, "e4");
    gui.settle_saves();
    let said = said_by_interface(&reader, 1);
    assert!(
        said.contains(&("Eva four".to_owned(), true)),
        "the move, cutting off what the screen reader said: {said:?}"
    );
    assert!(
        reader
            .brailled
            .lock()
            .unwrap()
            .iter()
            .any(|b| b == "Eva four")
    );
    // Other words queue behind what is being said.
    type_move_blind(&mut gui, "e9");
    let said = said_by_interface(&reader, said.len() + 1);
    let (words, interrupt) = said.last().unwrap();
    assert!(!interrupt, "a refusal does not cut in: {words}");
    assert_eq!(moves(&gui), 1);
}
