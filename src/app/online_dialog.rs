//! The "Play online" dialog: the server, the token (pasted once, then
//! kept in the system's secret store), how to find a game. Connect starts
//! online play ([`super::online`]); the choices are kept in the settings,
//! the token never is.

use egui::Color32;

use super::layout::big;
use super::{FocusTarget, RochadeApp, UiText};
use crate::config::{OnlineFind, OnlineSettings};

/// The dialog's fields being edited.
pub struct OnlineDraft {
    pub settings: OnlineSettings,
    /// The token as pasted; empty: the stored one.
    pub token: String,
    pub error: Option<String>,
    take_focus: bool,
    pub(super) return_to: FocusTarget,
}

/// What became of the dialog in a frame.
pub enum Outcome {
    Open,
    Cancel,
    /// Connect with these choices and the token typed (may be empty).
    Connect(Box<OnlineSettings>, String),
}

impl OnlineDraft {
    pub fn from_app(app: &RochadeApp) -> OnlineDraft {
        OnlineDraft {
            settings: app.settings.online.clone(),
            token: String::new(),
            error: None,
            take_focus: true,
            return_to: if app.board.focused {
                FocusTarget::Board
            } else {
                FocusTarget::MoveInput
            },
        }
    }

    /// Draws the dialog; what was chosen comes back.
    pub fn ui(&mut self, ctx: &egui::Context, t: &UiText) -> Outcome {
        let mut connect = false;
        let mut cancel = false;
        let shown = egui::Window::new(t.get("online_title"))
            .resizable(false)
            .collapsible(false)
            .movable(false)
            .default_width(560.0)
            // Inside a small window (1024x600 at text size 2), scrolling
            // when the fields are taller than it.
            .max_width(super::layout::dialog_width(ctx, 560.0))
            .max_height(super::layout::dialog_height(ctx))
            .vscroll(true)
            .show(ctx, |ui| {
                // The field that takes the keyboard comes into view.
                super::focus_ring::scroll_focus_into_view(ui, "online");
                let s = &mut self.settings;
                let first = super::a11y::choice(
                    ui,
                    "online_find",
                    &t.get("online_find"),
                    &mut s.find,
                    &[
                        (OnlineFind::Ai, t.get("online_find_ai")),
                        (OnlineFind::Seek, t.get("online_find_seek")),
                        (OnlineFind::Challenge, t.get("online_find_challenge")),
                        (OnlineFind::Wait, t.get("online_find_wait")),
                    ],
                );
                if self.take_focus {
                    first.request_focus();
                    self.take_focus = false;
                }
                match s.find {
                    OnlineFind::Ai => {
                        let levels: Vec<(u8, String)> =
                            (1..=8).map(|n| (n, n.to_string())).collect();
                        super::a11y::choice(
                            ui,
                            "online_level",
                            &t.get("online_level"),
                            &mut s.ai_level,
                            &levels,
                        );
                    }
                    OnlineFind::Challenge => {
                        super::a11y::text_row(ui, t.get("online_opponent"), &mut s.opponent);
                    }
                    OnlineFind::Seek | OnlineFind::Wait => {}
                }
                if s.find != OnlineFind::Wait {
                    super::a11y::text_row(ui, t.get("online_time"), &mut s.time_control);
                }
                ui.horizontal(|ui| {
                    let l = ui.label(t.get("online_token"));
                    let field = egui::TextEdit::singleline(&mut self.token).password(true);
                    let r = ui.add(super::a11y::entering_field(field)).labelled_by(l.id);
                    super::a11y::note_enter(ui, &r);
                });
                ui.label(t.get("online_token_hint"));
                super::a11y::text_row(ui, t.get("online_server"), &mut s.server);
                ui.checkbox(&mut s.confirm, t.get("online_confirm"));
                if let Some(e) = &self.error {
                    ui.colored_label(Color32::from_rgb(255, 140, 140), e);
                }
                ui.horizontal(|ui| {
                    if ui
                        .button(big(t.get("online_connect_button"), 20.0))
                        .clicked()
                    {
                        connect = true;
                    }
                    if ui.button(big(t.get("cancel"), 20.0)).clicked() {
                        cancel = true;
                    }
                });
            });
        // A real modal dialog: Tab cycles inside it.
        if let Some(r) = &shown {
            ctx.memory_mut(|m| m.set_modal_layer(r.response.layer_id));
        }
        // Enter in a field connects, as the button does.
        connect |= super::a11y::entered_field(ctx);
        if connect {
            match self.check(t) {
                Ok(()) => {
                    return Outcome::Connect(
                        Box::new(self.settings.clone()),
                        std::mem::take(&mut self.token),
                    );
                }
                Err(e) => {
                    super::a11y::say_soon(ctx, &e);
                    self.error = Some(e);
                }
            }
        }
        if cancel {
            Outcome::Cancel
        } else {
            Outcome::Open
        }
    }

    /// The choices make sense (a time control, a player to challenge, a
    /// server address); the error in words otherwise.
    fn check(&mut self, t: &UiText) -> Result<(), String> {
        let s = &mut self.settings;
        s.server = s.server.trim().trim_end_matches('/').to_owned();
        if !(s.server.starts_with("https://") || s.server.starts_with("http://")) {
            return Err(format!("{}: {}", t.get("online_server"), s.server));
        }
        if s.find != OnlineFind::Wait {
            super::online_threads::time_control(&s.time_control)
                .map_err(|e| format!("{}: {e}", t.get("online_time")))?;
        }
        if s.find == OnlineFind::Challenge && s.opponent.trim().is_empty() {
            return Err(t.get("online_opponent_missing"));
        }
        Ok(())
    }
}
