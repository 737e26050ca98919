//! The settings dialog's rows that are more than one widget: languages,
//! numbers, speech and earcons, recording one's own word, Braille export.

use egui::Ui;

use super::text::UiText;
use crate::config::Settings;
use crate::words::Lang;
use crate::words::LoadPack;

pub(super) fn number_row(
    ui: &mut Ui,
    label: String,
    value: &mut u64,
    range: std::ops::RangeInclusive<u64>,
) {
    ui.horizontal(|ui| {
        let l = ui.label(label);
        ui.add(egui::DragValue::new(value).range(range))
            .labelled_by(l.id);
    });
}

/// Speech backend, voice and earcons.
pub(super) fn speech_rows(ui: &mut Ui, t: &UiText, s: &mut Settings, voice: &mut String) {
    let modes: Vec<_> = crate::speech::SpeechMode::ALL
        .into_iter()
        .map(|m| (m, t.get(&format!("speech_mode_{}", m.code()))))
        .collect();
    super::a11y::choice(
        ui,
        "speech_mode",
        &t.get("speech_mode"),
        &mut s.speech.mode,
        &modes,
    );
    let backends: Vec<_> = crate::config::SpeechBackend::ALL
        .into_iter()
        .map(|b| (b, t.get(&format!("backend_{}", b.code()))))
        .collect();
    super::a11y::choice(
        ui,
        "speech_backend",
        &t.get("speech_backend"),
        &mut s.speech.backend,
        &backends,
    );
    super::a11y::text_row(ui, t.get("voice_name"), voice);
    ui.label(t.get("earcons"));
    ui.horizontal_wrapped(|ui| {
        for earcon in crate::session::Earcon::ALL {
            let key = format!("earcon_{}", earcon_key(earcon));
            let mut on = s.earcons.enabled(earcon);
            if ui.checkbox(&mut on, t.get(&key)).changed() {
                s.earcons.set(earcon, on);
            }
        }
    });
}

/// Voice input: off, push-to-talk or continuous, and whether a heard
/// move is asked first.
pub(super) fn voice_input_rows(ui: &mut Ui, t: &UiText, s: &mut Settings) {
    let modes: Vec<_> = crate::config::VoiceInputMode::ALL
        .into_iter()
        .map(|m| (m, t.get(&format!("voice_input_{}", m.code()))))
        .collect();
    super::a11y::choice(
        ui,
        "voice_input",
        &t.get("voice_input"),
        &mut s.speech.voice_input,
        &modes,
    );
    ui.checkbox(
        &mut s.speech.confirm_spoken_moves,
        t.get("confirm_spoken_moves"),
    );
}

fn earcon_key(earcon: crate::session::Earcon) -> &'static str {
    use crate::session::Earcon::*;
    match earcon {
        Touched => "touched",
        MoveAccepted => "move_accepted",
        Illegal => "illegal",
        Mismatch => "mismatch",
        InSync => "in_sync",
        LinkLost => "link_lost",
        LinkRestored => "link_restored",
        LowTime => "low_time",
        FlagFall => "flag_fall",
    }
}

/// The "record your own word" part of the settings: which word, and the
/// microphone while it records.
#[derive(Default)]
pub struct ClipRecording {
    pub word: String,
    pub recorder: Option<crate::audio::MicRecorder>,
    pub status: Option<String>,
    /// The words of the language last shown (file name, spoken form), read
    /// once per language rather than on every frame.
    words: Option<(Lang, Vec<(String, String)>)>,
    /// The folder of the user's speech packs (see [`super::options::AppOptions`]).
    pack_dir: Option<std::path::PathBuf>,
}

impl ClipRecording {
    /// Nothing recorded yet; the words come from the packs in `pack_dir`.
    pub fn new(pack_dir: Option<std::path::PathBuf>) -> ClipRecording {
        ClipRecording {
            pack_dir,
            ..ClipRecording::default()
        }
    }
}

/// Record one word of the announcement language with the microphone; it
/// replaces that word in the clip voice (docs/speech.md).
pub(super) fn clip_rows(ui: &mut Ui, t: &UiText, lang: Lang, clip: &mut ClipRecording) {
    ui.label(t.get("record_word_heading"));
    if clip.words.as_ref().is_none_or(|(l, _)| *l != lang) {
        let (pack, _) = crate::words::Pack::load_or_bundled(lang, clip.pack_dir.as_deref());
        clip.words = Some((lang, crate::speech::vocabulary(&pack)));
        clip.word.clear();
    }
    // Taken out for the frame (the widgets below borrow `clip`), put back at the end.
    let (_, words) = clip.words.take().expect("filled above");
    if clip.word.is_empty()
        && let Some((name, _)) = words.first()
    {
        clip.word = name.clone();
    }
    ui.horizontal(|ui| {
        super::a11y::choice(
            ui,
            "record_word",
            &t.get("record_word"),
            &mut clip.word,
            &words,
        );
        let recording = clip.recorder.is_some();
        let label = if recording {
            t.get("record_stop")
        } else {
            t.get("record_start")
        };
        if ui.button(label).clicked() {
            if let Some(recorder) = clip.recorder.take() {
                let take = recorder.stop();
                clip.status = Some(
                    match crate::speech::save_user_clip(lang, &clip.word, &take) {
                        Ok(path) => format!("{} {}", t.get("record_saved"), path.display()),
                        Err(e) => format!("{}: {e}", t.get("record_failed")),
                    },
                );
            } else {
                match crate::audio::start_recording() {
                    Ok(r) => {
                        clip.recorder = Some(r);
                        clip.status = Some(t.get("record_running"));
                    }
                    Err(e) => clip.status = Some(format!("{}: {e}", t.get("record_failed"))),
                }
            }
        }
    });
    if let Some(status) = &clip.status {
        ui.label(status);
    }
    clip.words = Some((lang, words));
}

pub(super) fn lang_row(ui: &mut Ui, id: &str, label: String, value: &mut Lang) -> egui::Response {
    let options = [
        (Lang::Pt, "Português (Brasil)".to_owned()),
        (Lang::En, "English".to_owned()),
        (Lang::De, "Deutsch".to_owned()),
    ];
    super::a11y::choice(ui, id, &label, value, &options)
}

/// The Braille export's choices, under the piece letters they go with.
pub(super) fn braille_rows(ui: &mut egui::Ui, t: &UiText, b: &mut crate::config::BrailleSettings) {
    ui.label(t.get("braille_export"));
    ui.indent("braille_export", |ui| {
        ui.checkbox(&mut b.legend, t.get("braille_legend"));
        ui.checkbox(&mut b.diagram, t.get("braille_diagram"));
        ui.checkbox(&mut b.minimal, t.get("braille_minimal"));
        ui.checkbox(&mut b.contracted, t.get("braille_contracted"));
    });
}
