//! Commands from keys, menus and buttons ([`Action`]), and the app's
//! own state changes they bring (focus, mode, the simulated board, the
//! settings dialog opening).

use shakmaty::Square;

use super::keys::Action;
use super::{FocusTarget, Modal, RochadeApp, SimPanel, dialogs, settings_dialog};
use crate::chess::Claim;
use crate::session::board::BoardEvent;
use crate::session::{Command, Event, Mode, Priority, PuzzleCommand, Question, Source};
use crate::words::Utterance;

impl RochadeApp {
    /// Carries out a command from a key, a menu or a button.
    pub fn act(&mut self, action: Action) {
        match action {
            Action::Help => {
                if matches!(self.panels.dialogs.modal, Some(Modal::Help(_))) {
                    self.panels.dialogs.modal = None;
                } else {
                    self.panels.dialogs.modal = Some(Modal::Help(dialogs::HelpWindow::new()));
                    self.say_key("help_opened", Priority::Answer);
                }
            }
            Action::Repeat => self.command(Command::Repeat),
            Action::LastMove => self.command(Command::LastMove),
            Action::Clock if self.online_key("clock") => {}
            Action::Clock => self.command(Command::ClockReading),
            Action::MoveCount => self.command(Command::MoveCount),
            Action::SideToMove => self.command(Command::SideToMove),
            Action::Focus => {
                let board_focused =
                    self.board.focused || self.panels.focus_request == Some(FocusTarget::Board);
                self.focus(if board_focused {
                    FocusTarget::MoveInput
                } else {
                    FocusTarget::Board
                });
            }
            Action::FocusBoard => self.focus(FocusTarget::Board),
            Action::Menus => self.focus(FocusTarget::Menus),
            Action::FocusMoveInput => self.focus(FocusTarget::MoveInput),
            Action::Settings => self.open_settings(),
            Action::NextMode => {
                let next = match self.session.config().mode {
                    Mode::Tournament => Mode::Relay,
                    Mode::Relay => Mode::Practice,
                    Mode::Practice => Mode::Tournament,
                };
                self.set_mode(next);
            }
            Action::SimBoard => self.toggle_sim_board(),
            // Online, the game's keys ask the server (the opponent decides).
            Action::Takeback if self.online_key("takeback") => {}
            Action::OfferDraw if self.online_key("draw") => {}
            Action::AcceptDraw if self.online_key("yes") => {}
            Action::DeclineDraw if self.online_key("no") => {}
            Action::Resign if self.online_key("resign") => {}
            Action::Takeback => self.command(Command::Takeback),
            Action::OfferDraw => self.command(Command::OfferDrawAfterMove),
            Action::AcceptDraw => self.command(Command::AcceptDrawToMove),
            Action::DeclineDraw => self.command(Command::DeclineDrawToMove),
            Action::ClaimThreefold => self.claim(Claim::ThreefoldRepetition),
            Action::ClaimFifty => self.claim(Claim::FiftyMoves),
            Action::Resign => self.command(Command::AskResign),
            Action::NewGame => self.command(Command::AskNewGame),
            Action::Export => self.export(),
            Action::ClockToggle => self.command(Command::ToggleClock),
            Action::StopSpeech => self.voice.speech.stop(),
            Action::Confirm => {
                if !self.answer_spoken_move(true) {
                    self.command(Command::Confirm)
                }
            }
            Action::Cancel => {
                if !self.answer_spoken_move(false) {
                    self.command(Command::Cancel)
                }
            }
            Action::PlayTyped => self.play_typed(),
            Action::BoardGuidance => {
                self.dispatch(Event::Board(BoardEvent::RepeatGuidance));
                if self.session.sighted_board().in_use() {
                    self.dispatch(Event::Sighted(BoardEvent::RepeatGuidance));
                }
            }
            Action::BoardStatus => self.dispatch(Event::Command(Command::BoardStatus)),
            Action::CompareScoresheet => match scoresheet_text(&self.panels.move_input.text) {
                Ok(text) => {
                    self.panels.move_input.text.clear();
                    self.dispatch(Event::Command(Command::CompareScoresheet(text)));
                }
                // The path stays in the move input to be corrected.
                Err((file, reason)) => {
                    let text = self.session.pack().phrase(
                        "scoresheet_unreadable",
                        &[
                            ("file", Utterance::from(file.as_str())),
                            ("reason", Utterance::from(reason.to_string().as_str())),
                        ],
                    );
                    self.say(text, Priority::Alert);
                }
            },
            Action::UndoRetrace => self.dispatch(Event::Command(Command::UndoRetrace)),
            Action::Promote(role) => self.dispatch(Event::Board(BoardEvent::PromotionChoice(role))),
            Action::ToggleComputer => self.toggle_computer(),
            Action::Hint => self.command(Command::Hint),
            Action::Threat => self.command(Command::Threat),
            Action::Evaluate => self.command(Command::Evaluate),
            Action::RestartEngine => self.command(Command::RestartEngine),
            Action::Level(up) => self.change_level(up),
            Action::SwitchColours => self.switch_colours(),
            Action::Online => self.open_online(),
            Action::WatchBroadcast => self.open_watch(),
            Action::OnlineWord(word) => {
                if self.online_input(word).is_none() {
                    self.say_key("online_not_connected", Priority::Answer);
                }
            }
            Action::OnlineDisconnect => self.online_disconnect(),
            Action::NextPuzzle => self.next_puzzle(),
            Action::PuzzlePosition => self.puzzle_command(PuzzleCommand::Position),
            Action::PuzzleSkip => self.puzzle_command(PuzzleCommand::Skip),
            Action::PuzzleStop => self.puzzle_command(PuzzleCommand::Stop),
            Action::Review => self.toggle_review(),
            Action::ReviewOpen => self.toggle_review_open(),
            Action::ExportBook => self.toggle_file_window(super::review_open::FileUse::BrailleBook),
            Action::CopyFen => self.copy_fen(),
            Action::CopyPgn => self.copy_pgn(),
        }
    }

    pub(super) fn command(&mut self, cmd: Command) {
        self.dispatch(Event::Command(cmd));
    }

    pub(super) fn claim(&mut self, claim: Claim) {
        let intended =
            Some(self.panels.move_input.text.trim().to_owned()).filter(|t| !t.is_empty());
        let had_intended = intended.is_some();
        self.command(Command::Claim(claim, intended));
        if had_intended {
            self.panels.move_input.text.clear();
        }
    }

    pub(super) fn play_typed(&mut self) {
        let text = self.panels.move_input.text.trim().to_owned();
        if text.is_empty() {
            return;
        }
        self.play_typed_text(text);
        // What stays typed was refused (said and written with the reason):
        // selected, so the next move typed replaces it.
        self.panels.move_input.refused();
    }

    pub(super) fn play_typed_text(&mut self, text: String) {
        // "yes" or "no" answers the screen-reader offer, which holds no
        // keyboard; under a dialog's question, "n" answers no.
        if let Some(yes) = self.offer_answer(&text) {
            self.panels.move_input.text.clear();
            self.act(if yes { Action::Confirm } else { Action::Cancel });
            return;
        }
        if self.dialog_question() {
            self.play_under_question(&text);
            return;
        }
        self.play_text(text);
    }

    /// Enter after text typed while a dialog's question has the keyboard:
    /// "n" answers no; a move is played (a resumed game would replace it:
    /// there it is kept until the answer) and the question said again.
    fn play_under_question(&mut self, text: &str) {
        if text.eq_ignore_ascii_case("n") {
            self.panels.move_input.text.clear();
            self.panels.move_input.typed_under_question = false;
            self.act(Action::Cancel);
            return;
        }
        // A move typed instead of answering whether to play the spoken
        // one: that one is not played (and said so).
        self.answer_spoken_move(false);
        if matches!(self.question(), Some(Question::Resume(_))) {
            // Which game it is for is the question: the move comes back to
            // the move input after the answer, to be played with Enter.
            self.panels.move_input.kept = Some(std::mem::take(&mut self.panels.move_input.text));
            let kept = self
                .session
                .pack()
                .phrase("move_kept_for_question", &[("move", Utterance::from(text))]);
            self.say(kept, Priority::Answer);
        } else {
            self.play_text(text.to_owned());
        }
        // A move refused stays typed, and Enter tries it again.
        self.panels.move_input.typed_under_question = !self.panels.move_input.text.is_empty();
        // Still asked (a move makes a takeback question moot): said again.
        if let Some(pending) = self.session.pending() {
            let question = pending.text.clone();
            self.say(question, Priority::Question);
        }
    }

    fn play_text(&mut self, text: String) {
        // Online, the words of online play and moves go to the server's
        // game; a move it refused stays typed, to be corrected.
        if self.online_active() {
            if self.online_input(&text) == Some(true) {
                self.panels.move_input.text.clear();
            }
            return;
        }
        let outcome = self.dispatch_outcome(Event::MoveEntered {
            text,
            source: Source::Keyboard,
        });
        if outcome.played() {
            self.panels.move_input.text.clear();
        }
    }

    pub(super) fn focus(&mut self, target: FocusTarget) {
        self.panels.focus_request = Some(target);
        let mark = self.screen_reader.pending.mark();
        match target {
            FocusTarget::Board => self.speak_square(self.board.cursor),
            FocusTarget::MoveInput => self.say_key("focus_move_input", Priority::Info),
            FocusTarget::Menus => {
                let name = self.window.ui.get("game_menu");
                self.say(Utterance::from(name.as_str()), Priority::Info);
            }
            FocusTarget::Scoresheet => {}
        }
        // The screen reader says where the focus went.
        self.focus_moved(mark, true);
    }

    pub fn set_mode(&mut self, mode: Mode) {
        if self.session.config().mode == mode {
            return;
        }
        // Through the settings, so it is kept (a later Save in Settings
        // keeps it too) and the session gets it.
        let mut settings = self.settings.clone();
        settings.game.mode = mode;
        self.apply_settings(settings);
        let name = self.session.pack().say(match mode {
            Mode::Tournament => "mode_tournament",
            Mode::Relay => "mode_relay",
            Mode::Practice => "mode_practice",
        });
        let text = self
            .session
            .pack()
            .phrase("mode_changed", &[("mode", name)]);
        self.say(text, Priority::Answer);
        self.sync_opponent();
    }

    /// Ctrl+B: shows or hides the simulated peg-board and says which.
    pub(super) fn toggle_sim_board(&mut self) {
        if self.panels.sim.take().is_some() {
            // Hidden is disconnected: it guides nothing any more.
            self.dispatch(Event::Board(BoardEvent::LinkClosed));
            self.say_key("sim_board_off", Priority::Answer);
            return;
        }
        self.show_sim_board();
        self.say_key("sim_board_on", Priority::Answer);
    }

    /// Shows the simulated peg-board, silently (at start-up the welcome
    /// comes first).
    pub(super) fn show_sim_board(&mut self) {
        self.panels.sim = Some(SimPanel::new());
        self.dispatch(Event::Board(BoardEvent::LinkUp {
            port: SimPanel::PORT.into(),
        }));
    }

    /// A new game: nothing of the last one stays. The scoresheet's tags
    /// are the settings' again (an online game's event, site, players,
    /// ratings and time control were carried into it), and the simulated
    /// board is set up again (its pegs stood where the old game left them:
    /// every square marked, guidance for a game nobody plays).
    pub(super) fn nothing_of_the_last_game(&mut self) {
        let mut tags = crate::chess::Tags::default();
        self.settings.apply_tags(&mut tags);
        self.dispatch(Event::TagsChanged(tags));
        let Some(sim) = &mut self.panels.sim else {
            return;
        };
        sim.set_up_again();
        let messages = sim.answer(crate::board::HostCommand::Snapshot);
        for m in messages {
            self.dispatch(Event::Board(BoardEvent::Message(m)));
        }
    }

    /// Lifts or places a peg on the simulated board (click or Enter there).
    pub fn sim_press(&mut self, sq: Square) {
        let Some(sim) = &mut self.panels.sim else {
            return;
        };
        let messages = sim.press(sq);
        for m in messages {
            self.dispatch(Event::Board(BoardEvent::Message(m)));
        }
    }

    /// Ctrl+Shift+O: the "Play online" dialog, its first field focused.
    pub(super) fn open_online(&mut self) {
        self.panels.dialogs.modal = Some(Modal::Online(Box::new(
            super::online_dialog::OnlineDraft::from_app(self),
        )));
        let name = self.window.ui.get("online_title");
        self.screen_reader.pending.push(&name);
    }

    pub(super) fn open_settings(&mut self) {
        self.panels.dialogs.modal = Some(Modal::Settings(Box::new(
            settings_dialog::SettingsDraft::from_app(self),
        )));
        // The dialog's name, for the screen reader (the app's own voice has
        // no word for it; the focus stays where it was).
        let name = self.window.ui.get("settings");
        self.screen_reader.pending.push(&name);
    }
}

/// The sighted player's scoresheet for the retrace: the moves typed or
/// pasted into the move input, or, when the input names a PGN file (ends
/// in `.pgn`), that file's text (shell: it reads the file).
fn scoresheet_text(input: &str) -> Result<String, (String, std::io::Error)> {
    let input = input.trim();
    if !input.to_ascii_lowercase().ends_with(".pgn") {
        return Ok(input.to_owned());
    }
    let path = crate::game_file::typed_path(input);
    crate::read_capped::read_capped(&path, crate::read_capped::PGN_CAP)
        .map(|bytes| String::from_utf8_lossy(&bytes).into_owned())
        .map_err(|e| (path.display().to_string(), e.into()))
}
