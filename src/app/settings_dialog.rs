//! The settings dialog: the settings being edited (a draft of their own,
//! applied only on Save), and the app applying them.

use egui::Color32;
use shakmaty::Color;

use super::RochadeApp;
use super::focus::FocusTarget;
use super::layout::big;
use super::settings_rows::{
    ClipRecording, braille_rows, clip_rows, lang_row, speech_rows, voice_input_rows,
};
use super::text::UiText;
use crate::chess::Letters;
use crate::config::{Settings, Theme};

/// The settings being edited; applied and saved only on Save.
pub struct SettingsDraft {
    pub settings: Settings,
    pub port: String,
    /// The opponent's board's port being typed.
    pub sighted_port: String,
    /// The boards found so far, in words, and whether a probe runs (the
    /// app keeps them current while the dialog is open).
    pub found: Vec<String>,
    pub probing: bool,
    /// The voice name being typed; empty means "choose automatically".
    pub voice: String,
    pub error: Option<String>,
    /// Recording one's own word for the clip voice.
    pub clip: ClipRecording,
    /// The first field takes the keyboard when the dialog opens.
    pub(super) take_focus: bool,
    /// Where the keyboard goes back to when the dialog closes.
    pub(super) return_to: FocusTarget,
}

impl SettingsDraft {
    pub fn from_app(app: &RochadeApp) -> SettingsDraft {
        let settings = app.settings.clone();
        let port = settings.board.port.clone().unwrap_or_default();
        let sighted_port = settings.board.sighted_port.clone().unwrap_or_default();
        let voice = settings.speech.voice.clone().unwrap_or_default();
        SettingsDraft {
            settings,
            port,
            sighted_port,
            found: Vec::new(),
            probing: false,
            voice,
            error: None,
            clip: ClipRecording::new(app.voice.pack_dir.clone()),
            take_focus: true,
            return_to: if app.board.focused {
                FocusTarget::Board
            } else {
                FocusTarget::MoveInput
            },
        }
    }
}

/// What became of the dialog in a frame.
pub enum Outcome {
    /// Still open, nothing chosen.
    Open,
    /// Save was chosen, but the settings are refused (the error is shown
    /// in the dialog, which stays open).
    Refused,
    Cancel,
    /// Save: the settings to apply.
    Save(Box<Settings>),
    /// "Find boards" was pressed (the dialog stays open).
    FindBoards,
}

impl SettingsDraft {
    /// Draws the dialog; what was chosen comes back.
    pub fn ui(&mut self, ctx: &egui::Context, t: &UiText) -> Outcome {
        let mut save = false;
        let mut cancel = false;
        let mut find = false;
        let shown = egui::Window::new(t.get("settings"))
            // Fixed in place: the resize corner and the title
            // bar would be unnamed controls.
            .resizable(false)
            .collapsible(false)
            .movable(false)
            .default_width(560.0)
            // Inside a small window (1024x600 at text size 2).
            .max_width(super::layout::dialog_width(ctx, 560.0))
            .max_height(super::layout::dialog_height(ctx))
            .show(ctx, |ui| {
                // Save and Cancel stay in view above the scrolling fields.
                ui.horizontal(|ui| {
                    if ui.button(big(t.get("save"), 20.0)).clicked() {
                        save = true;
                    }
                    if ui.button(big(t.get("cancel"), 20.0)).clicked() {
                        cancel = true;
                    }
                });
                if let Some(e) = &self.error {
                    ui.colored_label(Color32::from_rgb(255, 140, 140), e);
                }
                ui.separator();
                egui::ScrollArea::vertical().show(ui, |ui| {
                    // The field that takes the keyboard comes into view.
                    super::focus_ring::scroll_focus_into_view(ui, "settings");
                    let s = &mut self.settings;
                    let first = lang_row(
                        ui,
                        "ui_lang",
                        t.get("interface_language"),
                        &mut s.interface_language,
                    );
                    // The keyboard moves into the dialog (it stayed in the move
                    // input, six Tabs away).
                    if self.take_focus {
                        first.request_focus();
                        self.take_focus = false;
                    }
                    lang_row(
                        ui,
                        "speech_lang",
                        t.get("speech_language"),
                        &mut s.speech.language,
                    );
                    let mut long = s.speech.form == crate::announce::AnnounceForm::Long;
                    if ui.checkbox(&mut long, t.get("long_form")).changed() {
                        s.speech.form = if long {
                            crate::announce::AnnounceForm::Long
                        } else {
                            crate::announce::AnnounceForm::Short
                        };
                    }
                    let letters: Vec<_> = Letters::ALL
                        .into_iter()
                        .map(|l| (l, l.code().to_owned()))
                        .collect();
                    super::a11y::choice(
                        ui,
                        "letters",
                        &t.get("piece_letters"),
                        &mut s.game.letters,
                        &letters,
                    );
                    braille_rows(ui, t, &mut s.braille);
                    ui.horizontal(|ui| {
                        let l = ui.label(t.get("speech_rate"));
                        ui.add(egui::Slider::new(&mut s.speech.rate, 0.0..=1.0))
                            .labelled_by(l.id);
                    });
                    ui.horizontal(|ui| {
                        let l = ui.label(t.get("speech_volume"));
                        ui.add(egui::Slider::new(&mut s.speech.volume, 0.0..=1.0))
                            .labelled_by(l.id);
                    });
                    speech_rows(ui, t, s, &mut self.voice);
                    voice_input_rows(ui, t, s);
                    clip_rows(ui, t, s.speech.language, &mut self.clip);
                    ui.separator();
                    ui.horizontal(|ui| {
                        let l = ui.label(t.get("blind_side"));
                        let mut black = s.game.blind_side.color() == Color::Black;
                        ui.selectable_value(&mut black, false, t.get("white"))
                            .labelled_by(l.id)
                            .accessible_name(t.get("white"));
                        ui.selectable_value(&mut black, true, t.get("black"))
                            .labelled_by(l.id)
                            .accessible_name(t.get("black"));
                        s.game.blind_side = crate::config::Side::from_color(if black {
                            Color::Black
                        } else {
                            Color::White
                        });
                    });
                    super::practice::engine_rows(ui, t, &mut s.engine);
                    super::a11y::text_row(ui, t.get("time_control"), &mut s.game.time_control);
                    super::a11y::text_row(ui, t.get("white_name"), &mut s.game.white);
                    super::a11y::text_row(ui, t.get("black_name"), &mut s.game.black);
                    super::a11y::text_row(ui, t.get("event"), &mut s.game.event);
                    super::a11y::text_row(ui, t.get("round"), &mut s.game.round);
                    super::a11y::text_row(ui, t.get("board_number"), &mut s.game.board_number);
                    super::a11y::text_row(
                        ui,
                        t.get("broadcast_round"),
                        &mut s.game.broadcast_round,
                    );
                    ui.separator();
                    find |= super::settings_boards::board_rows(
                        ui,
                        t,
                        &mut s.board,
                        super::settings_boards::BoardFields {
                            port: &mut self.port,
                            opponent_port: &mut self.sighted_port,
                            found: &self.found,
                            probing: self.probing,
                        },
                    );
                    ui.separator();
                    ui.horizontal(|ui| {
                        let l = ui.label(t.get("theme"));
                        for (theme, key) in [
                            (Theme::DarkHighContrast, "theme_high_contrast"),
                            (Theme::LightHighContrast, "theme_light"),
                            (Theme::YellowOnBlack, "theme_dark"),
                        ] {
                            ui.selectable_value(&mut s.display.theme, theme, t.get(key))
                                .labelled_by(l.id)
                                .accessible_name(t.get(key));
                        }
                    });
                    ui.checkbox(&mut s.display.letter_discs, t.get("letter_discs"));
                    ui.checkbox(&mut s.display.big_coordinates, t.get("big_coordinates"));
                    ui.horizontal(|ui| {
                        let l = ui.label(t.get("scale"));
                        ui.add(egui::Slider::new(
                            &mut s.display.scale,
                            crate::config::MIN_SCALE..=crate::config::MAX_SCALE,
                        ))
                        .labelled_by(l.id);
                    });
                });
            });
        // A real modal dialog: Tab cycles inside it, nothing behind it takes
        // the keyboard.
        if let Some(r) = &shown {
            ctx.memory_mut(|m| m.set_modal_layer(r.response.layer_id));
        }
        // Enter in a field saves, as the button does.
        save |= super::a11y::entered_field(ctx);
        if save {
            let port = self.port.trim().to_owned();
            self.settings.board.port = (!port.is_empty()).then_some(port);
            let sighted = self.sighted_port.trim().to_owned();
            self.settings.board.sighted_port = (!sighted.is_empty()).then_some(sighted);
            let voice = self.voice.trim().to_owned();
            self.settings.speech.voice = (!voice.is_empty()).then_some(voice);
            if let Err(e) = self
                .settings
                .game
                .time_control
                .parse::<crate::clock::TimeControl>()
            {
                self.error = Some(format!("{}: {e}", t.get("time_control")));
                return Outcome::Refused;
            }
            return Outcome::Save(Box::new(self.settings.clone()));
        }
        if cancel {
            Outcome::Cancel
        } else if find {
            Outcome::FindBoards
        } else {
            Outcome::Open
        }
    }
}

/// The parts of the settings that differ, as speech-pack keys.
pub fn settings_changes(old: &Settings, new: &Settings) -> Vec<&'static str> {
    let mut parts = Vec::new();
    if old.interface_language != new.interface_language {
        parts.push("settings_part_interface");
    }
    if old.speech != new.speech {
        parts.push("settings_part_speech");
    }
    if old.earcons != new.earcons {
        parts.push("settings_part_earcons");
    }
    if old.board != new.board {
        parts.push("settings_part_board");
    }
    if old.game != new.game {
        parts.push("settings_part_game");
    }
    if old.display != new.display {
        parts.push("settings_part_display");
    }
    if old.braille != new.braille {
        parts.push("settings_part_braille");
    }
    if old.engine != new.engine {
        parts.push("settings_part_engine");
    }
    parts
}

impl RochadeApp {
    /// Says what Save in Settings changed (in the new announcement
    /// language), or that nothing changed.
    pub fn say_settings_saved(&mut self, parts: &[&str]) {
        let pack = self.session.pack();
        let text = if parts.is_empty() {
            pack.say("settings_unchanged")
        } else {
            let list: Vec<crate::words::Utterance> = parts.iter().map(|k| pack.say(k)).collect();
            pack.phrase(
                "settings_saved",
                &[("changes", crate::words::Utterance::join_with(&list, ", "))],
            )
        };
        self.say(text, crate::session::Priority::Answer);
    }

    /// Writes the settings to their file (when the app persists them); a
    /// failure is shown in the banner.
    pub(super) fn save_settings(&mut self) {
        if self.links.persist_settings
            && let Err(e) = self.settings.save()
        {
            self.window.note = Some(format!("{}: {e}", self.window.ui.get("settings_error")));
        }
    }

    /// Applies edited settings: language and speech at once, the time
    /// control from the next game; saves them when the app persists.
    pub fn apply_settings(&mut self, settings: Settings) {
        // A new time control takes effect with the next game: said when a
        // game is under way, so nobody waits for it in vain.
        let control_changed = settings.time_control() != self.settings.time_control()
            && !self.session.record().moves().is_empty()
            && !self.session.record().is_over();
        self.window.ui = UiText::bundled(settings.interface_language);
        let config = settings.session_config();
        let (pack, pack_error) = super::session_pack::session_pack(
            &settings,
            self.voice.pack_dir.as_deref(),
            &self.voice.speech.backend_name(),
        );
        let tracker = settings.tracker_config();
        let mut tags = self.session.record().tags.clone();
        settings.apply_tags(&mut tags);
        self.voice.speech.reconfigure(settings.speech_config());
        // The app's settings first: what the session asks for on the new
        // ones (the computer's move) meets them.
        self.settings = settings;
        self.dispatch(crate::session::Event::ConfigChanged(config));
        self.dispatch(crate::session::Event::PackChanged(Box::new(pack)));
        self.dispatch(crate::session::Event::Board(
            crate::session::board::BoardEvent::Configure(tracker),
        ));
        self.dispatch(crate::session::Event::TagsChanged(tags));
        self.relink_boards();
        self.window.restyle();
        if let Some(e) = pack_error {
            self.window.note = Some(e.to_string());
        }
        self.save_settings();
        self.sync_voice_input();
        if control_changed {
            let text = self.session.pack().say("time_control_next_game");
            self.say(text, crate::session::Priority::Answer);
        }
    }
}
