//! One frame of the window ([`eframe::App`]): input, deadlines, the
//! views, focus, the words for the screen reader, and when to wake next.

use std::time::Duration;

use super::dialogs::{DialogRequest, Modal};
use super::focus::FocusTarget;
use super::keys::{self, Action};
use super::{RochadeApp, a11y, layout, settings_dialog, side_column, title};
use crate::session::{Command, Event, Priority, Question};

impl RochadeApp {
    /// Called every frame: deadlines due now become a tick.
    pub(super) fn run_deadlines(&mut self) {
        if crate::driver::due(&self.session, self.now_ms()).is_some() {
            self.dispatch(Event::Tick);
        }
    }

    /// How long the window may sleep: until the next session deadline or
    /// the next change of the clock display, whichever is first.
    pub fn repaint_delay(&self) -> Option<Duration> {
        let now = self.now_ms();
        let display = self.session.clock().next_display_change(now);
        crate::driver::wake_in(&self.session, display, now)
    }
}

impl eframe::App for RochadeApp {
    /// The theme's background: no part of the window paints its own
    /// (painting the window twice costs a software renderer real time).
    fn clear_color(&self, visuals: &egui::Visuals) -> [f32; 4] {
        visuals.panel_fill.to_normalized_gamma_f32()
    }

    fn raw_input_hook(&mut self, _ctx: &egui::Context, raw_input: &mut egui::RawInput) {
        self.screen_reader.forward_keys(raw_input);
    }

    fn ui(&mut self, ui: &mut egui::Ui, _frame: &mut eframe::Frame) {
        if let Some(start) = self.window.trace_frames {
            eprintln!("rochade: frame at {} ms", start.elapsed().as_millis());
        }
        let ctx = ui.ctx().clone();
        self.window.apply_style(&ctx, &self.settings.display);
        self.wake.get_or_init(|| ctx.clone());
        self.release_saved();
        self.poll_exports();
        self.poll_book();
        self.poll_board();
        self.poll_engine();
        self.poll_review();
        self.poll_online();
        self.poll_watch();
        self.poll_broadcast_push();
        self.poll_speech();
        self.poll_voice_input(&ctx);
        self.poll_screen_reader(&ctx);
        self.run_deadlines();
        self.handle_close_request(&ctx);
        // The screen-reader offer holds no keyboard: only a dialog's
        // question takes Enter, Y, N and Escape.
        let asking = self.dialog_question();
        let now = self.now_ms();
        self.panels.move_input.note_typing(&ctx, asking, now);
        let escape_answers = !matches!(self.question(), Some(Question::Resume(_)));
        let enter_answers = !self.panels.move_input.typed_under_question;
        for action in keys::global_actions(
            &ctx,
            asking,
            escape_answers,
            enter_answers,
            self.panels.dialogs.modal.is_some(),
        ) {
            match action {
                // Escape with a lifted piece puts it back, and the board
                // keeps the keyboard; only then does it close or stop.
                Action::Cancel if !asking && self.board.selected.is_some() => {
                    self.put_back_lifted(true);
                }
                // Escape on the board with nothing lifted: the keyboard
                // leaves for the move input, and that is said.
                Action::Cancel
                    if !asking && self.panels.dialogs.modal.is_none() && self.board.focused =>
                {
                    self.act(Action::StopSpeech);
                    self.panels.focus_request = Some(FocusTarget::MoveInput);
                    self.say_key("escape_left_board", Priority::Answer);
                }
                // Escape in the file window (open for review, or for a
                // Braille book) closes it.
                Action::Cancel
                    if !asking
                        && self.panels.dialogs.modal.is_none()
                        && self.rooms.review_open.is_some() =>
                {
                    self.rooms.review_open = None;
                }
                // Escape in the Review window closes it (no other window
                // over it).
                Action::Cancel
                    if !asking
                        && self.panels.dialogs.modal.is_none()
                        && self.rooms.review.is_some() =>
                {
                    self.toggle_review();
                }
                Action::Cancel if !asking => {
                    match &self.panels.dialogs.modal {
                        Some(Modal::Settings(draft)) => {
                            self.panels.focus_request = Some(draft.return_to)
                        }
                        Some(Modal::Online(draft)) => {
                            self.panels.focus_request = Some(draft.return_to)
                        }
                        Some(Modal::Watch(draft)) => {
                            self.panels.focus_request = Some(draft.return_to)
                        }
                        _ => {}
                    }
                    if self.panels.dialogs.modal.take().is_none() {
                        self.act(Action::StopSpeech);
                    }
                }
                other => self.act(other),
            }
        }
        let title = title::window_title(
            self.session.record(),
            self.settings.game.letters,
            &self.window.ui,
        );
        self.window.set_title(&ctx, title);
        let name = title::accessible_window_name(
            &self.session.record().tags.white,
            &self.session.record().tags.black,
            self.session.config().mode,
            &self.window.ui,
        );
        let renamed = a11y::name_window(&ctx, &name);
        self.window.fit(&ctx);
        // The board first, in a square from the window's size alone; the
        // rest in a scrolling column beside or below it.
        let split = layout::split(ui.available_rect_before_wrap());
        ui.scope_builder(egui::UiBuilder::new().max_rect(split.side), |ui| {
            side_column::side_column(self, ui)
        });
        ui.scope_builder(egui::UiBuilder::new().max_rect(split.board), |ui| {
            self.main_board(ui)
        });
        self.dialogs(&ctx);
        self.review_window(&ctx);
        // Focus is never lost: when nothing has the keyboard (Escape in
        // the move input, a closed dialog, help or settings, a click on
        // nothing) the move input takes it, so a move typed next is never
        // swallowed and a screen reader always has a place to be.
        if self.panels.dialogs.modal.is_none()
            && !self.dialog_question()
            && ctx.memory(|m| m.focused()).is_none()
            && self.panels.focus_request.is_none()
        {
            self.panels.focus_request = Some(FocusTarget::MoveInput);
            ctx.request_repaint();
        }
        // The widget with the keyboard, ringed (every widget's own border
        // is the same in every state).
        super::focus_ring::draw(&ctx);
        // Words wait while the move input's change goes out (see
        // `MoveInput::changing`), so a move stays on the Braille line.
        let input_changing = self.panels.move_input.changing();
        a11y::deliver(
            &ctx,
            &mut self.screen_reader.pending,
            input_changing || renamed,
        );
        if self.window.close_allowed {
            ctx.send_viewport_cmd(egui::ViewportCommand::Close);
        }
        if let Some(delay) = self.repaint_delay() {
            ctx.request_repaint_after(delay);
        }
        if let Some(delay) = self.engine_repaint() {
            ctx.request_repaint_after(delay);
        }
        if let Some(delay) = self.save_hold_delay() {
            ctx.request_repaint_after(delay);
        }
    }
}

impl RochadeApp {
    /// Draws the dialogs and carries out what was answered or chosen there.
    fn dialogs(&mut self, ctx: &egui::Context) {
        let t = self.window.ui.clone();
        let question = self.shown_question();
        if let Some(super::Modal::Settings(draft)) = &mut self.panels.dialogs.modal {
            draft.found = super::connection::found_lines(&self.links.boards, &t);
            draft.probing = self.links.boards.probing();
        }
        let requests = self
            .panels
            .dialogs
            .ui(ctx, &t, question, &mut self.panels.focus_request);
        for request in requests {
            match request {
                DialogRequest::Answer(true) => self.act(Action::Confirm),
                DialogRequest::Answer(false) => self.act(Action::Cancel),
                DialogRequest::Connect(settings, token) => self.online_connect(*settings, token),
                DialogRequest::Watch(round, pick) => self.start_watch(round, pick),
                DialogRequest::SaveSettings(settings) => {
                    let summary = settings_dialog::settings_changes(&self.settings, &settings);
                    self.apply_settings(*settings);
                    self.say_settings_saved(&summary);
                    self.sync_opponent();
                }
                DialogRequest::FindBoards => self.find_boards(),
            }
        }
    }

    pub(super) fn handle_close_request(&mut self, ctx: &egui::Context) {
        if ctx.input(|i| i.viewport().close_requested())
            && !self.window.close_allowed
            && self.game_in_progress()
        {
            ctx.send_viewport_cmd(egui::ViewportCommand::CancelClose);
            self.command(Command::AskClose);
        }
    }
}
