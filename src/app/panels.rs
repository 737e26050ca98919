//! The window's parts, each a small function over the app state: the top
//! bar, the side panel (clocks, move input, announcements, scoresheet,
//! connection), the board, the dialogs, the help and the settings.

use egui::{Color32, FontId, Id, Key, RichText, Ui};
use shakmaty::{Color, Position};

use super::keys::Action;
use super::{FocusTarget, Modal, RochadeApp, Theme, UiText};
use crate::chess::Letters;
use crate::config::Settings;
use crate::session::board::LinkState;
use crate::session::{Mode, Question};
use crate::words::Lang;
use crate::words::LoadPack;

pub const MOVE_INPUT_ID: &str = "move_input";
fn big(text: impl Into<String>, size: f32) -> RichText {
    RichText::new(text.into()).size(size)
}

// ---------------------------------------------------------------- top bar

pub fn top_bar(app: &mut RochadeApp, ui: &mut Ui) {
    let t = app.ui.clone();
    let mut actions = Vec::new();
    ui.horizontal_wrapped(|ui| {
        // Shift+Tab from the first menu goes round to the board, the last
        // stop of Tab (it went to nothing, then the move input).
        let game_slot = Id::unique("game_menu_button");
        if let Some(last) = ui.data(|d| d.get_temp::<Id>(game_slot))
            && ui.memory(|m| m.has_focus(last))
            && ui.input_mut(|i| i.consume_key(egui::Modifiers::SHIFT, egui::Key::Tab))
        {
            app.focus_request = Some(super::FocusTarget::Board);
            ui.ctx().request_repaint();
        }
        let game = ui.menu_button(t.get("game_menu"), |ui| {
            for (i, (key, action)) in [
                ("new_game", Action::NewGame),
                ("takeback", Action::Takeback),
                ("offer_draw", Action::OfferDraw),
                ("accept_draw", Action::AcceptDraw),
                ("claim_threefold", Action::ClaimThreefold),
                ("claim_fifty", Action::ClaimFifty),
                ("resign", Action::Resign),
                ("clock_start_pause", Action::ClockToggle),
                ("export", Action::Export),
            ]
            .into_iter()
            .enumerate()
            {
                let item = ui.button(t.get(key));
                if i == 0 {
                    super::a11y::focus_first_item_on_open(ui, "game", &item);
                }
                if item.clicked() {
                    actions.push(action);
                    ui.close();
                }
            }
        });
        // F10: the keyboard to the first menu.
        if app.focus_request == Some(super::FocusTarget::Menus) {
            game.response.request_focus();
            app.focus_request = None;
        }
        ui.data_mut(|d| d.insert_temp(game_slot, game.response.id));
        super::practice::computer_menu(app, ui, &t, &mut actions);
        if ui.button(t.get("settings")).clicked() {
            actions.push(Action::Settings);
        }
        if ui.button(t.get("help")).clicked() {
            actions.push(Action::Help);
        }
        if ui
            .selectable_label(app.sim.is_some(), t.get("sim_show"))
            .clicked()
        {
            actions.push(Action::SimBoard);
        }
    });
    // The modes on their own line, wrapping in a narrow column.
    ui.horizontal_wrapped(|ui| {
        let mode_label = ui.label(t.get("mode"));
        let current = app.session.config().mode;
        // The three modes are one radio group named "Mode": a
        // screen reader says "radio button, 2 of 3, checked".
        let group = ui.scope(|ui| {
            ui.horizontal_wrapped(|ui| {
                for (mode, key) in [
                    (Mode::Tournament, "mode_tournament"),
                    (Mode::Relay, "mode_relay"),
                    (Mode::Practice, "mode_practice"),
                ] {
                    if ui.radio(current == mode, t.get(key)).clicked() && current != mode {
                        app.set_mode(mode);
                    }
                }
            })
        });
        let (group_id, label_id) = (group.response.id, mode_label.id);
        ui.ctx().accesskit_node_builder(group_id, |node| {
            node.set_role(egui::accesskit::Role::RadioGroup);
            node.push_labelled_by(label_id.accesskit_id());
        });
    });
    for a in actions {
        app.act(a);
    }
}

// ------------------------------------------------------------- side panel

/// Everything but the board, in one column that scrolls: the menus, the
/// simulated peg-board when it is shown, clocks, move input,
/// announcements, scoresheet and connection. `ui` is the column's place
/// (from [`super::layout::split`]).
pub fn side_column(app: &mut RochadeApp, ui: &mut Ui) {
    let t = app.ui.clone();
    // A solid scroll bar beside the column, not floating over its right
    // edge (where it hid the simulated board's h-file).
    ui.spacing_mut().scroll = egui::style::ScrollStyle::solid();
    egui::ScrollArea::vertical()
        .id_salt("side_column")
        .auto_shrink([false, false])
        .show(ui, |ui| {
            // A save problem or start-up note heads the column: above the
            // whole window it took the board's height (at text size 4, all
            // but a strip of it).
            super::saving::alert_banner(app, ui);
            top_bar(app, ui);
            ui.separator();
            if app.sim.is_some() {
                super::sim_panel::show(app, ui);
                ui.separator();
            }
            clocks(app, ui, &t);
            ui.separator();
            move_input(app, ui, &t);
            ui.separator();
            announcements(app, ui, &t);
            ui.separator();
            scoresheet(app, ui, &t);
            ui.separator();
            connection(app, ui, &t);
        });
}

/// The window title says the game state, so a screen reader's "read
/// title" answers where the game is: "Rochade – 12. Nf3 – Black to move",
/// or the result once the game is over.
/// The window's accessible name, which a screen reader says on entering
/// the window and in "where am I": "Rochade – Anna Blin vs Bert Sighte",
/// or the mode when no player is named. It does not change with every move
/// (a screen reader re-presents a window whose name changes, and that
/// would push the move off the Braille line).
pub fn accessible_window_name(white: &str, black: &str, mode: Mode, t: &UiText) -> String {
    // PGN's "?" is an unknown name.
    fn clean(n: &str) -> &str {
        Some(n.trim()).filter(|n| *n != "?").unwrap_or("")
    }
    let (white, black) = (clean(white), clean(black));
    let what = if white.is_empty() && black.is_empty() {
        t.get(match mode {
            Mode::Tournament => "mode_tournament",
            Mode::Relay => "mode_relay",
            Mode::Practice => "mode_practice",
        })
    } else {
        let name = |n: &str, side| {
            if n.is_empty() {
                side_name(t, side)
            } else {
                n.to_owned()
            }
        };
        format!(
            "{} {} {}",
            name(white, shakmaty::Color::White),
            t.get("versus"),
            name(black, shakmaty::Color::Black)
        )
    };
    format!("{} – {what}", t.get("window_title"))
}

pub fn window_title(record: &crate::chess::GameRecord, letters: Letters, t: &UiText) -> String {
    let mut parts = vec!["Rochade".to_string()];
    if let Some(row) = record.rows().last() {
        // The last move: "12. Nf3" for White's, "12... Nf6" for Black's.
        let last = match (row.white, row.black) {
            (_, Some(m)) => Some(("...", m)),
            (Some(m), None) => Some((".", m)),
            (None, None) => None,
        };
        if let Some((dots, m)) = last {
            let san = letters.localise_san(&m.san_string());
            parts.push(format!("{}{dots} {san}", row.number));
        }
    }
    if record.is_over() {
        parts.push(format!("{}: {}", t.get("result"), record.result_str()));
    } else {
        parts.push(format!(
            "{} {}",
            side_name(t, record.turn()),
            t.get("to_move")
        ));
    }
    parts.join(" – ")
}

fn side_name(t: &UiText, c: Color) -> String {
    t.get(match c {
        Color::White => "white",
        Color::Black => "black",
    })
}

fn clocks(app: &RochadeApp, ui: &mut Ui, t: &UiText) {
    let now = app.now_ms();
    let clock = app.session.clock();
    let turn = app.session.record().turn();
    super::a11y::heading(ui, t.get("clocks"));
    for side in [Color::White, Color::Black] {
        let shown = match clock.remaining(side, now) {
            Some(ms) => crate::clock::display(ms),
            None => crate::clock::display(clock.used(side, now)),
        };
        let mut text = big(format!("{}  {shown}", side_name(t, side)), 30.0).monospace();
        if side == turn && !app.session.record().is_over() {
            text = text.strong().underline();
        }
        ui.label(text);
    }
    let status = if app.session.record().is_over() {
        format!("{}: {}", t.get("result"), app.session.record().result_str())
    } else if !clock.control().is_timed() {
        format!(
            "{} {} ({})",
            side_name(t, turn),
            t.get("to_move"),
            t.get("untimed")
        )
    } else if clock.is_paused() {
        format!(
            "{} {} ({})",
            side_name(t, turn),
            t.get("to_move"),
            t.get("paused")
        )
    } else {
        format!("{} {}", side_name(t, turn), t.get("to_move"))
    };
    super::a11y::read_only_text(ui, big(status, 20.0).strong());
}

fn move_input(app: &mut RochadeApp, ui: &mut Ui, t: &UiText) {
    let mut play = false;
    ui.horizontal(|ui| {
        let label = ui.label(big(t.get("move_input"), 22.0));
        let edit = egui::TextEdit::singleline(&mut app.move_text)
            .id(Id::unique(MOVE_INPUT_ID))
            .hint_text(t.get("move_input_hint"))
            .font(FontId::proportional(24.0))
            .desired_width(ui.available_width() - 90.0);
        let response = ui.add(edit).labelled_by(label.id);
        app.move_text_built.clone_from(&app.move_text);
        if response.lost_focus() && ui.input(|i| i.key_pressed(Key::Enter)) {
            play = true;
            response.request_focus();
        }
        if app.focus_request == Some(FocusTarget::MoveInput) {
            response.request_focus();
            app.focus_request = None;
        }
        if ui.button(big(t.get("play"), 22.0)).clicked() {
            play = true;
        }
    });
    if play {
        app.act(Action::PlayTyped);
    }
}

fn announcements(app: &RochadeApp, ui: &mut Ui, t: &UiText) {
    super::a11y::heading(ui, t.get("announcements"));
    let last = app
        .history
        .back()
        .map(|u| u.spoken.clone())
        .unwrap_or_default();
    ui.label(RichText::new(t.get("last_announcement")).small());
    // The live region (not on AT-SPI, see `a11y`): a screen reader or
    // Braille display reads each new announcement without the focus moving
    // here.
    let response = ui.label(big(last, 24.0).strong());
    // Only when the screen reader is meant to speak (not in self-voicing
    // mode, where it would talk over the app's voice).
    if super::a11y::LIVE_REGION && app.settings.speech.mode.screen_reader() {
        ui.ctx().accesskit_node_builder(response.id, |node| {
            node.set_live(egui::accesskit::Live::Polite);
            node.set_live_atomic();
        });
    }
    ui.label(RichText::new(t.get("history")).small());
    for u in app.history.iter().rev().skip(1).take(super::HISTORY_SHOWN) {
        ui.label(&u.spoken);
    }
}

/// "1. e4 e5" rows, in the chosen piece letters, "(=)" after a move that
/// came with a draw offer.
pub fn scoresheet_rows(record: &crate::chess::GameRecord, letters: Letters) -> Vec<String> {
    let cell = |m: &crate::chess::RecordedMove| {
        let san = letters.localise_san(&m.san_string());
        if m.draw_offer {
            format!("{san} (=)")
        } else {
            san
        }
    };
    let mut rows: Vec<String> = record
        .rows()
        .into_iter()
        .map(|row| {
            let white = row.white.map_or_else(|| "...".to_owned(), cell);
            let black = row.black.map(cell).unwrap_or_default();
            format!("{}. {white} {black}", row.number)
                .trim_end()
                .to_owned()
        })
        .collect();
    if let Some(end) = record.end() {
        rows.push(end.result_str().to_owned());
    }
    rows
}

fn scoresheet(app: &mut RochadeApp, ui: &mut Ui, t: &UiText) {
    super::a11y::heading(ui, t.get("scoresheet"));
    let tags = &app.session.record().tags;
    ui.label(format!("{} - {}", tags.white, tags.black));
    let rows = scoresheet_rows(app.session.record(), app.session.config().letters);
    if rows.is_empty() {
        ui.label(t.get("no_moves"));
    }
    let rows: Vec<egui::WidgetText> = rows
        .into_iter()
        .map(|row| big(row, 20.0).monospace().into())
        .collect();
    // Back from a question asked here: the newest line takes the keyboard
    // (asked again until it has it: the closing dialog may hold it for a
    // frame).
    let back = app.focus_request == Some(super::FocusTarget::Scoresheet);
    app.scoresheet_focused =
        super::a11y::row_list_at(ui, "scoresheet", &rows, rows.len().saturating_sub(1), back);
    if back {
        let tries_id = Id::unique("scoresheet_focus_tries");
        let tries = ui.data_mut(|d| {
            let n = d.get_temp_mut_or_default::<u8>(tries_id);
            *n += 1;
            *n
        });
        if app.scoresheet_focused || rows.is_empty() || tries >= 3 {
            app.focus_request = None;
            ui.data_mut(|d| d.remove::<u8>(tries_id));
        } else {
            ui.ctx().request_repaint();
        }
    }
}

fn connection(app: &RochadeApp, ui: &mut Ui, t: &UiText) {
    super::a11y::heading(ui, t.get("connection"));
    let board = app.session.board_state();
    let (state, port) = link_words(
        t,
        &board.link,
        app.settings.board.port.clone().unwrap_or_default(),
    );
    let port = if port == super::SimPanel::PORT {
        t.get("simulated")
    } else {
        port
    };
    super::a11y::read_only_text(ui, format!("{state}, {}: {port}", t.get("port")));
    let link = app.link.as_ref().map(|l| l.status());
    let format = app
        .sim
        .as_ref()
        .map(|s| s.format())
        .or(link.as_ref().and_then(|l| l.format))
        .unwrap_or(app.settings.board.format);
    ui.label(format!("{}: {}", t.get("format"), format.code()));
    // How long ago, with its unit (the app's own time is no time of day).
    let heard = match board.last_message_ms {
        Some(ms) => t
            .get("seconds_ago")
            .replace("{n}", &(app.now_ms().saturating_sub(ms) / 1000).to_string()),
        None => t.get("never"),
    };
    ui.label(format!("{}: {heard}", t.get("last_heartbeat")));
    let dropped = app
        .sim
        .as_ref()
        .map(|s| s.lines_dropped())
        .or(link.map(|l| l.stats.dropped()))
        .unwrap_or(0);
    ui.label(format!("{}: {dropped}", t.get("dropped")));
    let sighted = app.session.sighted_board();
    if sighted.in_use() || app.settings.board.sighted_port.is_some() {
        let (state, port) = link_words(
            t,
            &sighted.link,
            app.settings.board.sighted_port.clone().unwrap_or_default(),
        );
        super::a11y::read_only_text(
            ui,
            format!(
                "{}: {state}, {}: {port}",
                t.get("sighted_board"),
                t.get("port")
            ),
        );
        if let Some(c) = sighted.clock.filter(|c| !c.no_clock()) {
            let time = |s: crate::dgt::protocol::ClockSide| {
                crate::clock::display(u64::from(s.seconds_total()) * 1000)
            };
            ui.label(format!(
                "{}: {} | {}",
                t.get("dgt_clock"),
                time(c.left),
                time(c.right)
            ));
        }
    }
}

/// A link's state and port in words.
fn link_words(t: &UiText, link: &LinkState, configured: String) -> (String, String) {
    match link {
        LinkState::NotConnected => (t.get("not_connected"), configured),
        LinkState::Connected { port } => (t.get("connected"), port.clone()),
        LinkState::Lost { reason } => (format!("{} ({reason})", t.get("lost")), String::new()),
    }
}

// ---------------------------------------------------------------- dialogs

pub fn dialogs(app: &mut RochadeApp, ctx: &egui::Context) {
    let t = app.ui.clone();
    if let Some(pending) = app.session.pending() {
        let resume = matches!(pending.question, Question::Resume(_));
        let title = if resume {
            t.get("resume_title")
        } else {
            t.get("confirm_title")
        };
        let question = pending.text.spoken.clone();
        let (yes, no) = if resume {
            (t.get("resume"), t.get("discard"))
        } else {
            (t.get("yes"), t.get("no"))
        };
        let mut answer = None;
        let take_focus = std::mem::take(&mut app.question_takes_focus);
        egui::Modal::new(Id::unique("confirm_dialog")).show(ctx, |ui| {
            ui.heading(big(title, 26.0));
            ui.label(big(question, 22.0));
            ui.horizontal(|ui| {
                let yes = ui.button(big(yes, 22.0));
                // The dialog takes the keyboard: a screen reader says the
                // dialog with its question and then the button, also when
                // the window only now gets the focus.
                if take_focus {
                    yes.request_focus();
                }
                if yes.clicked() {
                    answer = Some(true);
                }
                if ui.button(big(no, 22.0)).clicked() {
                    answer = Some(false);
                }
            });
        });
        match answer {
            Some(true) => app.act(Action::Confirm),
            Some(false) => app.act(Action::Cancel),
            None => {}
        }
    }
    if matches!(app.modal, Some(Modal::Help)) {
        let mut open = true;
        let mut close = false;
        egui::Window::new(t.get("help_title"))
            .open(&mut open)
            .vscroll(true)
            // Fixed in place: egui's resize corner and title
            // bar are focusable controls without a name, which a screen
            // reader says as "unknown".
            .resizable(false)
            .collapsible(false)
            .movable(false)
            .default_width(600.0)
            .show(ctx, |ui| {
                // A document read line by line: the keyboard starts on the
                // first line, Up and Down move, Tab leaves for Close.
                let lines: Vec<egui::WidgetText> = t
                    .help()
                    .iter()
                    .map(|(_, line)| big(line.as_str(), 18.0).into())
                    .collect();
                let take_focus = app.help_takes_focus;
                let focused = super::a11y::row_list_at(ui, "help", &lines, 0, take_focus);
                // Asked again until a line has it (see `row_list_at`).
                app.help_takes_focus = take_focus && !focused;
                if ui.button(t.get("close")).clicked() {
                    close = true;
                }
            });
        if !open || close {
            app.modal = None;
        }
    }
    if matches!(app.modal, Some(Modal::Settings(_))) {
        settings_window(app, ctx, &t);
    }
}

// --------------------------------------------------------------- settings

/// The settings being edited; applied and saved only on Save.
pub struct SettingsDraft {
    pub settings: Settings,
    pub port: String,
    /// The sighted player's e-board port being typed.
    pub sighted_port: String,
    /// The voice name being typed; empty means "choose automatically".
    pub voice: String,
    pub error: Option<String>,
    /// Recording one's own word for the clip voice.
    pub clip: ClipRecording,
    /// The first field takes the keyboard when the dialog opens.
    pub(super) take_focus: bool,
    /// Where the keyboard goes back to when the dialog closes.
    pub(super) return_to: super::FocusTarget,
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
    /// The folder of the user's speech packs (see [`super::AppOptions`]).
    pack_dir: Option<std::path::PathBuf>,
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
            voice,
            error: None,
            clip: ClipRecording {
                pack_dir: app.pack_dir.clone(),
                ..ClipRecording::default()
            },
            take_focus: true,
            return_to: if app.board_focused {
                super::FocusTarget::Board
            } else {
                super::FocusTarget::MoveInput
            },
        }
    }
}

fn number_row(ui: &mut Ui, label: String, value: &mut u64, range: std::ops::RangeInclusive<u64>) {
    ui.horizontal(|ui| {
        let l = ui.label(label);
        ui.add(egui::DragValue::new(value).range(range))
            .labelled_by(l.id);
    });
}

/// Speech backend, voice and earcons.
fn speech_rows(ui: &mut Ui, t: &UiText, s: &mut Settings, voice: &mut String) {
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

/// Record one word of the announcement language with the microphone; it
/// replaces that word in the clip voice (docs/speech.md).
fn clip_rows(ui: &mut Ui, t: &UiText, lang: Lang, clip: &mut ClipRecording) {
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

fn lang_row(ui: &mut Ui, id: &str, label: String, value: &mut Lang) -> egui::Response {
    let options = [
        (Lang::Pt, "Português (Brasil)".to_owned()),
        (Lang::En, "English".to_owned()),
        (Lang::De, "Deutsch".to_owned()),
    ];
    super::a11y::choice(ui, id, &label, value, &options)
}

fn settings_window(app: &mut RochadeApp, ctx: &egui::Context, t: &UiText) {
    let Some(Modal::Settings(draft)) = app.modal.as_mut() else {
        return;
    };
    let mut save = false;
    let mut cancel = false;
    let shown = egui::Window::new(t.get("settings"))
        // Fixed in place: the resize corner and the title
        // bar would be unnamed controls.
        .resizable(false)
        .collapsible(false)
        .movable(false)
        .default_width(560.0)
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
            if let Some(e) = &draft.error {
                ui.colored_label(Color32::from_rgb(255, 140, 140), e);
            }
            ui.separator();
            egui::ScrollArea::vertical().show(ui, |ui| {
                let s = &mut draft.settings;
                let first = lang_row(
                    ui,
                    "ui_lang",
                    t.get("interface_language"),
                    &mut s.interface_language,
                );
                // The keyboard moves into the dialog (it stayed in the move
                // input, six Tabs away).
                if draft.take_focus {
                    first.request_focus();
                    draft.take_focus = false;
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
                speech_rows(ui, t, s, &mut draft.voice);
                clip_rows(ui, t, s.speech.language, &mut draft.clip);
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
                ui.separator();
                super::a11y::text_row(ui, t.get("port"), &mut draft.port);
                let formats: Vec<_> = crate::board::Format::ALL
                    .into_iter()
                    .map(|f| (f, f.code().to_owned()))
                    .collect();
                super::a11y::choice(
                    ui,
                    "board_format",
                    &t.get("format"),
                    &mut s.board.format,
                    &formats,
                );
                let mut baud = u64::from(s.board.baud());
                number_row(ui, t.get("baud"), &mut baud, 1200..=1_000_000);
                // Left at the format's own rate, it stays "none" so that a
                // later change of format brings that format's rate.
                if baud != u64::from(s.board.baud()) {
                    s.board.baud = Some(baud as u32);
                }
                number_row(ui, t.get("settle_ms"), &mut s.board.settle_ms, 0..=1000);
                number_row(
                    ui,
                    t.get("mismatch_ms"),
                    &mut s.board.mismatch_ms,
                    0..=60_000,
                );
                super::a11y::text_row(ui, t.get("sighted_port"), &mut draft.sighted_port);
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
    if save || cancel {
        app.focus_request = Some(draft.return_to);
    }
    if save {
        let port = draft.port.trim().to_owned();
        draft.settings.board.port = (!port.is_empty()).then_some(port);
        let sighted = draft.sighted_port.trim().to_owned();
        draft.settings.board.sighted_port = (!sighted.is_empty()).then_some(sighted);
        let voice = draft.voice.trim().to_owned();
        draft.settings.speech.voice = (!voice.is_empty()).then_some(voice);
        if let Err(e) = draft
            .settings
            .game
            .time_control
            .parse::<crate::clock::TimeControl>()
        {
            draft.error = Some(format!("{}: {e}", t.get("time_control")));
            return;
        }
        let settings = draft.settings.clone();
        app.modal = None;
        let summary = settings_changes(&app.settings, &settings);
        app.apply_settings(settings);
        app.say_settings_saved(&summary);
        app.sync_opponent();
    } else if cancel {
        app.modal = None;
    }
}

/// The Braille export's choices, under the piece letters they go with.
fn braille_rows(ui: &mut egui::Ui, t: &UiText, b: &mut crate::config::BrailleSettings) {
    ui.label(t.get("braille_export"));
    ui.indent("braille_export", |ui| {
        ui.checkbox(&mut b.legend, t.get("braille_legend"));
        ui.checkbox(&mut b.diagram, t.get("braille_diagram"));
        ui.checkbox(&mut b.minimal, t.get("braille_minimal"));
        ui.checkbox(&mut b.contracted, t.get("braille_contracted"));
    });
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

    /// The squares (bit i = square i) where the peg-board's last report
    /// differs from the game; the board view marks them.
    /// Game coordinates: correct on a turned board.
    pub fn board_differs(&self) -> u64 {
        let game = self.session.record().position();
        self.session.board_state().difference(game).0
    }

    /// Applies edited settings: language and speech at once, the time
    /// control from the next game; saves them when the app persists.
    pub fn apply_settings(&mut self, settings: Settings) {
        // A new time control takes effect with the next game: said when a
        // game is under way, so nobody waits for it in vain.
        let control_changed = settings.time_control() != self.settings.time_control()
            && !self.session.record().moves().is_empty()
            && !self.session.record().is_over();
        self.ui = UiText::bundled(settings.interface_language);
        let config = settings.session_config();
        let (pack, pack_error) = super::session_pack(
            &settings,
            self.pack_dir.as_deref(),
            &self.speech.backend_name(),
        );
        let tracker = settings.tracker_config();
        let mut tags = self.session.record().tags.clone();
        settings.apply_tags(&mut tags);
        self.speech.reconfigure(settings.speech_config());
        // The app's settings first: what the session asks for on the new
        // ones (the computer's move) meets them.
        let old = std::mem::replace(&mut self.settings, settings);
        self.dispatch(crate::session::Event::ConfigChanged(config));
        self.dispatch(crate::session::Event::PackChanged(Box::new(pack)));
        self.dispatch(crate::session::Event::Board(
            crate::session::board::BoardEvent::Configure(tracker),
        ));
        self.dispatch(crate::session::Event::TagsChanged(tags));
        self.relink(&old);
        self.applied_style = None;
        if let Some(e) = pack_error {
            self.note = Some(e.to_string());
        }
        if self.persist_settings
            && let Err(e) = self.settings.save()
        {
            self.note = Some(format!("{}: {e}", self.ui.get("settings_error")));
        }
        if control_changed {
            let text = self.session.pack().say("time_control_next_game");
            self.say(text, crate::session::Priority::Answer);
        }
    }

    pub fn position(&self) -> &shakmaty::Chess {
        self.session.record().position()
    }

    pub fn side_to_move(&self) -> Color {
        self.session.record().position().turn()
    }
}
