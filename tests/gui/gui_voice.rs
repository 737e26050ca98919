//! Voice input in the window: recordings made by espeak-ng fed through the
//! same voice source as the microphone (the window's recordings hook, as
//! `--voice-wav` is for `rochade play`), with voice input turned on in
//! Settings by the keyboard. A move said is played and on the scoresheet;
//! noise plays nothing and "Not understood" is in the spoken history.

use crate::gui_common;
use crate::spoken_wav;

use egui::accesskit::Role;
use egui_kittest::kittest::Queryable;
use gui_common::{Gui, settings, start_with};
use rochade::app::choice_name;
use rochade::config::VoiceInputMode;
use rochade::words::Lang;
use spoken_wav::{noise, speak};

/// The moves on the record, in SAN.
fn moves(gui: &Gui) -> Vec<String> {
    gui.app()
        .session()
        .record()
        .moves()
        .iter()
        .map(|m| m.san_string())
        .collect()
}

/// Chooses `value` in the combo box `label` (showing `shown`) with the
/// arrow keys, as a screen-reader user does.
fn choose(gui: &mut Gui, label: &str, shown: &str, value: &str) {
    gui.harness
        .get_by_role_and_label(Role::ComboBox, &choice_name(label, shown))
        .focus();
    gui.harness.run();
    let wanted = choice_name(label, value);
    for key in [egui::Key::ArrowUp, egui::Key::ArrowDown] {
        for _ in 0..4 {
            if gui
                .harness
                .query_by_role_and_label(Role::ComboBox, &wanted)
                .is_some()
            {
                return;
            }
            gui.harness.key_press(key);
            gui.harness.run();
        }
    }
    panic!("{wanted} never shown");
}

#[test]
fn a_move_said_is_played_and_noise_is_not_understood() {
    let dir = tempfile::tempdir().expect("dir");
    let e4 = speak(dir.path(), "e4", "en-us", "Eva four");
    let noise = noise(dir.path());
    let recordings = vec![e4, noise];
    let mut gui = start_with(settings(Lang::En), move |o| o.voice_recordings = recordings);
    // Off at start: nothing listens.
    assert_eq!(gui.app().settings().speech.voice_input, VoiceInputMode::Off);
    gui.harness.key_press(egui::Key::F8);
    gui.harness.run();
    choose(
        &mut gui,
        "Voice input",
        "Off",
        "Continuous (not while Rochade speaks)",
    );
    gui.harness
        .get_by_role_and_label(Role::Button, "Save")
        .click();
    gui.harness.run();
    assert_eq!(
        gui.app().settings().speech.voice_input,
        VoiceInputMode::Continuous
    );
    gui.run_until("e4 heard and the noise not understood", |g| {
        g.app().spoken().iter().any(|s| s == "Not understood")
    });
    assert_eq!(moves(&gui), ["e4"]);
    assert!(gui.shows_part("1. e4"), "e4 on the scoresheet");
    let spoken = gui.app().spoken();
    assert!(
        spoken.iter().any(|s| s.starts_with("Voice input on")),
        "{spoken:?}"
    );
    let move_said = spoken
        .iter()
        .position(|s| s.starts_with("Eva four"))
        .expect("the move said");
    let not_understood = spoken
        .iter()
        .position(|s| s == "Not understood")
        .expect("the noise not understood");
    assert!(move_said < not_understood, "{spoken:?}");
    assert!(gui.shows("Not understood"), "in the spoken history");
}

#[test]
fn with_confirm_a_heard_move_is_asked_and_yes_plays_it() {
    let dir = tempfile::tempdir().expect("dir");
    let e4 = speak(dir.path(), "e4", "en-us", "Eva four");
    let yes = speak(dir.path(), "yes", "en-us", "yes");
    let mut s = settings(Lang::En);
    s.speech.voice_input = VoiceInputMode::Continuous;
    s.speech.confirm_spoken_moves = true;
    let recordings = vec![e4, yes];
    let mut gui = start_with(s, move |o| o.voice_recordings = recordings);
    gui.run_until("e4 asked and answered", |g| !moves(g).is_empty());
    assert_eq!(moves(&gui), ["e4"]);
    let spoken = gui.app().spoken();
    let asked = spoken
        .iter()
        .position(|s| s == "Eva four? Yes or no")
        .expect("asked first");
    assert!(
        spoken[asked + 1..]
            .iter()
            .any(|s| s.starts_with("Eva four")),
        "{spoken:?}"
    );
}

#[test]
fn without_a_model_for_the_language_it_is_said_once_and_typing_goes_on() {
    let dir = tempfile::tempdir().expect("dir");
    let e4 = speak(dir.path(), "e4", "de", "Eva vier");
    let mut s = settings(Lang::Pt);
    s.speech.voice_input = VoiceInputMode::PushToTalk;
    let mut gui = start_with(s, move |o| o.voice_recordings = vec![e4]);
    // Sentences in the interface language (English), moves in Portuguese.
    let refusal = "Voice input understands only German and English";
    gui.run_until("the refusal said", |g| {
        g.app().spoken().iter().any(|s| s.starts_with(refusal))
    });
    gui.type_move("e4");
    assert_eq!(moves(&gui), ["e4"]);
    let spoken = gui.app().spoken();
    let refusals = spoken.iter().filter(|s| s.starts_with(refusal)).count();
    assert_eq!(refusals, 1, "{spoken:?}");
    // Shown in the banner too.
    assert!(gui.shows_part(refusal));
}

#[test]
fn push_to_talk_plays_what_is_said_while_ctrl_space_is_held() {
    let dir = tempfile::tempdir().expect("dir");
    let e4 = speak(dir.path(), "e4", "en-us", "Eva four");
    let mut s = settings(Lang::En);
    s.speech.voice_input = VoiceInputMode::PushToTalk;
    let mut gui = start_with(s, move |o| o.voice_recordings = vec![e4]);
    let ctrl = egui::Modifiers::CTRL;
    // Held while the whole recording plays, over many frames, then let go.
    // (What is heard while the key is up is dropped: the cutter's own test,
    // push_to_talk_gives_what_was_heard_between_key_down_and_up. A tap here
    // would race the recording, which plays in real time: under load a
    // whole move fell inside one.)
    gui.harness.key_down_modifiers(ctrl, egui::Key::Space);
    gui.harness.run();
    gui.run_until("the recording played", |g| {
        g.app().voice_recordings_played() == 1
    });
    assert!(
        moves(&gui).is_empty(),
        "nothing heard before the key is let go"
    );
    gui.harness.key_up_modifiers(ctrl, egui::Key::Space);
    gui.harness.run();
    gui.run_until("e4 heard", |g| !moves(g).is_empty());
    assert_eq!(moves(&gui), ["e4"]);
    let spoken = gui.app().spoken();
    assert!(
        spoken
            .iter()
            .any(|s| s.starts_with("Voice input on: hold Ctrl+Space")),
        "{spoken:?}"
    );
    assert!(
        spoken.iter().any(|s| s.starts_with("Eva four")),
        "{spoken:?}"
    );
}

fn no_dialog(gui: &Gui) -> bool {
    gui.harness.query_all_by_role(Role::Dialog).next().is_none()
}

/// The window with confirm on, after "Eva four" was heard and asked.
fn asked_e4(dir: &std::path::Path) -> Gui {
    let e4 = speak(dir, "e4", "en-us", "Eva four");
    let mut s = settings(Lang::En);
    s.speech.voice_input = VoiceInputMode::Continuous;
    s.speech.confirm_spoken_moves = true;
    let mut gui = start_with(s, move |o| o.voice_recordings = vec![e4]);
    gui.run_until("e4 asked", |g| {
        g.app().spoken().iter().any(|s| s == "Eva four? Yes or no")
    });
    gui.harness.run();
    // Asked in a dialog that has the keyboard, as the other questions.
    assert!(
        gui.harness
            .query_by_role_and_label(Role::Dialog, "Please confirm")
            .is_some(),
        "the question's dialog"
    );
    assert!(
        gui.harness
            .get_by_role_and_label(Role::Button, "Yes")
            .is_focused(),
        "the dialog takes the keyboard"
    );
    assert!(moves(&gui).is_empty());
    gui
}

#[test]
fn the_spoken_move_asked_is_played_with_y() {
    let dir = tempfile::tempdir().expect("dir");
    let mut gui = asked_e4(dir.path());
    gui.press(egui::Key::Y);
    assert_eq!(moves(&gui), ["e4"]);
    assert!(no_dialog(&gui), "the dialog closed");
    let spoken = gui.app().spoken();
    let asked = spoken
        .iter()
        .position(|s| s == "Eva four? Yes or no")
        .expect("asked");
    assert!(
        spoken[asked + 1..]
            .iter()
            .any(|s| s.starts_with("Eva four")),
        "{spoken:?}"
    );
    // The keyboard is back in the move input: a move typed next is played.
    gui.type_move("e5");
    assert_eq!(moves(&gui), ["e4", "e5"]);
}

#[test]
fn the_spoken_move_asked_is_dropped_with_escape() {
    let dir = tempfile::tempdir().expect("dir");
    let mut gui = asked_e4(dir.path());
    gui.press(egui::Key::Escape);
    assert!(moves(&gui).is_empty(), "{:?}", moves(&gui));
    assert!(no_dialog(&gui), "the dialog closed");
    assert_eq!(gui.last_spoken(), "Not played");
    gui.type_move("e4");
    assert_eq!(moves(&gui), ["e4"]);
}
