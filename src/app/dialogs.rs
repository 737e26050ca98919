//! The windows over the main one: the session's question (a modal dialog
//! with two buttons), the help and the settings ([`super::settings_dialog`]).

use egui::Id;

use super::focus::FocusTarget;
use super::layout::big;
use super::settings_dialog::Outcome;
use super::text::UiText;
use crate::config::{OnlineSettings, Settings};
use crate::session::{Pending, Question};

/// The window over the main one, at most one at a time. A question the
/// session asks ([`crate::session::Session::pending`]) is drawn above it.
pub enum Modal {
    Help(HelpWindow),
    /// The settings being edited (applied only on Save).
    Settings(Box<super::settings_dialog::SettingsDraft>),
    /// Play online: server, token, how to find a game.
    Online(Box<super::online_dialog::OnlineDraft>),
    /// Watch a broadcast: the round and the game to follow.
    Watch(Box<super::watch_dialog::WatchDraft>),
}

/// The dialogs' own state: the window open over the main one, and where
/// the keyboard goes for a question and after it.
pub struct Dialogs {
    pub modal: Option<Modal>,
    /// A question was just asked: its dialog takes the keyboard.
    pub question_takes_focus: bool,
    /// Where the keyboard goes back to after a question.
    pub focus_before_question: FocusTarget,
}

impl Default for Dialogs {
    fn default() -> Self {
        Dialogs {
            modal: None,
            question_takes_focus: false,
            focus_before_question: FocusTarget::MoveInput,
        }
    }
}

/// What was answered or chosen in a dialog in a frame, in order.
pub enum DialogRequest {
    /// The question's answer: yes (or resume), no (or discard).
    Answer(bool),
    /// Play online with these choices and the token typed.
    Connect(Box<OnlineSettings>, String),
    /// Watch this broadcast round (its id), following this game.
    Watch(String, crate::broadcast::Pick),
    /// Save in Settings: these settings, to be applied.
    SaveSettings(Box<Settings>),
    /// "Find boards" in Settings.
    FindBoards,
}

/// A question as its dialog shows it: the session's, or voice input's
/// spoken move asked first ("Eva four? Yes or no").
pub struct Asked {
    pub text: String,
    /// The question whether to resume a game: its buttons are Resume and
    /// Discard.
    pub resume: bool,
}

impl From<&Pending> for Asked {
    fn from(pending: &Pending) -> Asked {
        Asked {
            text: pending.text.spoken.clone(),
            resume: matches!(pending.question, Question::Resume(_)),
        }
    }
}

impl Dialogs {
    /// Draws `question` (a question that holds the keyboard, if one is
    /// asked) and the open window ([`Modal`]); what was answered or
    /// chosen comes back, to be carried out. A window that closes gives
    /// the keyboard back through `focus_request`.
    pub fn ui(
        &mut self,
        ctx: &egui::Context,
        t: &UiText,
        question: Option<Asked>,
        focus_request: &mut Option<FocusTarget>,
    ) -> Vec<DialogRequest> {
        let mut requests = Vec::new();
        // The screen-reader offer is no dialog: it takes no keyboard (see
        // `screen_reader::offer_panel`).
        if let Some(asked) = question {
            let take_focus = std::mem::take(&mut self.question_takes_focus);
            if let Some(answer) = question_dialog(ctx, t, asked, take_focus) {
                requests.push(DialogRequest::Answer(answer));
            }
        }
        if let Some(Modal::Help(help)) = &mut self.modal
            && !help.ui(ctx, t)
        {
            self.modal = None;
        }
        if let Some(Modal::Online(draft)) = &mut self.modal {
            let outcome = draft.ui(ctx, t);
            if !matches!(outcome, super::online_dialog::Outcome::Open) {
                *focus_request = Some(draft.return_to);
            }
            match outcome {
                super::online_dialog::Outcome::Open => {}
                super::online_dialog::Outcome::Cancel => self.modal = None,
                super::online_dialog::Outcome::Connect(settings, token) => {
                    self.modal = None;
                    requests.push(DialogRequest::Connect(settings, token));
                }
            }
        }
        if let Some(Modal::Watch(draft)) = &mut self.modal {
            let outcome = draft.ui(ctx, t);
            if !matches!(outcome, super::watch_dialog::Outcome::Open) {
                *focus_request = Some(draft.return_to);
            }
            match outcome {
                super::watch_dialog::Outcome::Open => {}
                super::watch_dialog::Outcome::Cancel => self.modal = None,
                super::watch_dialog::Outcome::Watch(round, pick) => {
                    self.modal = None;
                    requests.push(DialogRequest::Watch(round, pick));
                }
            }
        }
        if let Some(Modal::Settings(draft)) = &mut self.modal {
            let outcome = draft.ui(ctx, t);
            if !matches!(outcome, Outcome::Open | Outcome::FindBoards) {
                *focus_request = Some(draft.return_to);
            }
            match outcome {
                Outcome::Open | Outcome::Refused => {}
                Outcome::FindBoards => requests.push(DialogRequest::FindBoards),
                Outcome::Cancel => self.modal = None,
                Outcome::Save(settings) => {
                    self.modal = None;
                    requests.push(DialogRequest::SaveSettings(settings));
                }
            }
        }
        requests
    }
}

/// A question as a modal dialog with two buttons; the answer clicked, if
/// any. `take_focus`: the question was just asked.
fn question_dialog(
    ctx: &egui::Context,
    t: &UiText,
    asked: Asked,
    take_focus: bool,
) -> Option<bool> {
    let Asked {
        text: question,
        resume,
    } = asked;
    let title = if resume {
        t.get("resume_title")
    } else {
        t.get("confirm_title")
    };
    let (yes, no) = if resume {
        (t.get("resume"), t.get("discard"))
    } else {
        (t.get("yes"), t.get("no"))
    };
    let mut answer = None;
    let dialog = Id::unique("confirm_dialog");
    let dialog_name = title.clone();
    let shown = egui::Modal::new(dialog).show(ctx, |ui| {
        // Inside the window however small it is: the words wrap.
        ui.set_max_width(super::layout::dialog_width(ctx, 560.0));
        ui.heading(big(title, 26.0));
        ui.label(big(question, 22.0));
        ui.horizontal_wrapped(|ui| {
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
        // What it shows, with the frame's margin.
        ui.min_rect()
            .expand(ui.style().spacing.window_margin.sum().x / 2.0)
    });
    // A dialog is named by its title (a screen reader said "dialog"
    // and nothing more), and has the bounds of what it shows (a flat
    // review finds it).
    let rect = shown.inner;
    ctx.accesskit_node_builder(dialog, |node| {
        node.set_label(dialog_name);
        node.set_bounds(egui::accesskit::Rect {
            x0: rect.min.x.into(),
            y0: rect.min.y.into(),
            x1: rect.max.x.into(),
            y1: rect.max.y.into(),
        });
    });
    answer
}

/// The help: a document read line by line.
pub struct HelpWindow {
    /// Its first line takes the keyboard (just opened; asked again until
    /// a line has it).
    take_focus: bool,
}

impl HelpWindow {
    /// The help just opened: its first line takes the keyboard.
    pub fn new() -> HelpWindow {
        HelpWindow { take_focus: true }
    }

    /// Draws the help; false when it was closed.
    pub fn ui(&mut self, ctx: &egui::Context, t: &UiText) -> bool {
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
            .default_width(super::layout::dialog_width(ctx, 600.0))
            .max_width(super::layout::dialog_width(ctx, 600.0))
            .max_height(super::layout::dialog_height(ctx))
            .show(ctx, |ui| {
                // A document read line by line: the keyboard starts on the
                // first line, Up and Down move, Tab leaves for Close.
                let lines: Vec<egui::WidgetText> = t
                    .help()
                    .iter()
                    .map(|(_, line)| big(line.as_str(), 18.0).into())
                    .collect();
                let take_focus = self.take_focus;
                let focused = super::a11y::row_list_at(ui, "help", &lines, 0, take_focus);
                // Asked again until a line has it (see `row_list_at`).
                self.take_focus = take_focus && !focused;
                if ui.button(t.get("close")).clicked() {
                    close = true;
                }
            });
        open && !close
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::words::{Lang, Utterance};
    use egui::accesskit::Role;
    use egui_kittest::Harness;
    use egui_kittest::kittest::Queryable;

    /// The dialogs alone, with the question and focus request the app
    /// would hand them, and everything they handed back.
    struct Alone {
        dialogs: Dialogs,
        question: Option<Pending>,
        focus_request: Option<FocusTarget>,
        asked: Vec<DialogRequest>,
    }

    fn alone(question: Option<Pending>, modal: Option<Modal>) -> Harness<'static, Alone> {
        let t = UiText::bundled(Lang::En);
        let state = Alone {
            dialogs: Dialogs {
                modal,
                question_takes_focus: question.is_some(),
                focus_before_question: FocusTarget::MoveInput,
            },
            question,
            focus_request: None,
            asked: Vec::new(),
        };
        Harness::builder()
            .with_size(egui::vec2(800.0, 600.0))
            .build_ui_state(
                move |ui, s: &mut Alone| {
                    let ctx = ui.ctx().clone();
                    let asked = s.dialogs.ui(
                        &ctx,
                        &t,
                        s.question.as_ref().map(Asked::from),
                        &mut s.focus_request,
                    );
                    s.asked.extend(asked);
                },
                state,
            )
    }

    #[test]
    fn a_question_takes_the_keyboard_once_and_hands_back_the_answer() {
        let question = Pending {
            question: Question::NewGame,
            text: Utterance::from("Start a new game?"),
        };
        let mut h = alone(Some(question), None);
        h.run();
        assert!(
            h.get_by_role_and_label(Role::Button, "Yes").is_focused(),
            "the dialog takes the keyboard"
        );
        assert!(!h.state().dialogs.question_takes_focus, "only once");
        assert!(h.state().asked.is_empty());
        h.get_by_role_and_label(Role::Button, "No").click();
        h.run();
        assert!(matches!(
            h.state().asked.as_slice(),
            [DialogRequest::Answer(false)]
        ));
    }

    #[test]
    fn the_help_closes_itself_and_asks_for_nothing() {
        let mut h = alone(None, Some(Modal::Help(HelpWindow::new())));
        h.run();
        assert!(h.state().dialogs.modal.is_some());
        // The way a screen reader presses it (the help scrolls: the
        // button may lie out of view).
        h.get_by_role_and_label(Role::Button, "Close")
            .click_accesskit();
        h.run();
        assert!(h.state().dialogs.modal.is_none());
        assert!(h.state().asked.is_empty());
    }
}
