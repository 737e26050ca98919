//! The window's parts, each a small function over the app state: the top
//! bar, the side panel (clocks, move input, announcements, scoresheet,
//! connection), the board, the dialogs, the help and the settings.

use egui::emath::GuiRounding;
use egui::{Align2, Color32, FontId, Id, Key, RichText, Sense, Stroke, Ui, Vec2};
use shakmaty::{Color, File, Piece, Position, Rank, Role, Square};

use super::keys::{Action, board_keys};
use super::{FocusTarget, Modal, RochadeApp, Theme, UiText};
use crate::chess::Letters;
use crate::config::Settings;
use crate::session::board::LinkState;
use crate::session::{Mode, Question};
use crate::words::Lang;
use crate::words::LoadPack;

pub const MOVE_INPUT_ID: &str = "move_input";
pub const BOARD_ID: &str = "board";

/// The frame of every panel: egui's, but without a fill. The window is
/// cleared to the theme's background anyway
/// ([`eframe::App::clear_color`]), and without a GPU painting the whole
/// window a second time is a large part of each repaint.
pub fn panel_frame(frame: egui::Frame) -> egui::Frame {
    frame.fill(Color32::TRANSPARENT)
}

fn big(text: impl Into<String>, size: f32) -> RichText {
    RichText::new(text.into()).size(size)
}

// ---------------------------------------------------------------- top bar

pub fn top_bar(app: &mut RochadeApp, ui: &mut Ui) {
    let t = app.ui.clone();
    let mut actions = Vec::new();
    egui::Panel::top("top_bar")
        .frame(panel_frame(egui::Frame::side_top_panel(ui.style())))
        .show(ui, |ui| {
            ui.horizontal_wrapped(|ui| {
                ui.menu_button(t.get("game_menu"), |ui| {
                    for (key, action) in [
                        ("new_game", Action::NewGame),
                        ("takeback", Action::Takeback),
                        ("offer_draw", Action::OfferDraw),
                        ("accept_draw", Action::AcceptDraw),
                        ("claim_threefold", Action::ClaimThreefold),
                        ("claim_fifty", Action::ClaimFifty),
                        ("resign", Action::Resign),
                        ("clock_start_pause", Action::ClockToggle),
                        ("export", Action::Export),
                    ] {
                        if ui.button(t.get(key)).clicked() {
                            actions.push(action);
                            ui.close();
                        }
                    }
                });
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
                ui.separator();
                let mode_label = ui.label(t.get("mode"));
                let current = app.session.config().mode;
                // The three modes are one radio group named "Mode": a
                // screen reader says "radio button, 2 of 3, checked".
                let group = ui.scope(|ui| {
                    ui.horizontal(|ui| {
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
        });
    for a in actions {
        app.act(a);
    }
}

// ------------------------------------------------------------- side panel

pub fn side_panel(app: &mut RochadeApp, ui: &mut Ui) {
    let t = app.ui.clone();
    let width = (ui.available_width() * 0.38).max(280.0);
    egui::Panel::right("side_panel")
        .frame(panel_frame(egui::Frame::side_top_panel(ui.style())))
        .resizable(true)
        .default_size(width)
        .show(ui, |ui| {
            egui::ScrollArea::vertical()
                .auto_shrink([false, false])
                .show(ui, |ui| {
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
        });
}

/// The window title says the game state, so a screen reader's "read
/// title" answers where the game is: "Rochade – 12. Nf3 – Black to move",
/// or the result once the game is over.
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

fn scoresheet(app: &RochadeApp, ui: &mut Ui, t: &UiText) {
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
    super::a11y::row_list(ui, "scoresheet", &rows);
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
    let heard = match board.last_message_ms {
        Some(ms) => crate::clock::display(ms),
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

// ------------------------------------------------------------------ board

/// What a board widget shows.
pub struct BoardView<'a> {
    pub id_salt: &'static str,
    pub label: &'a str,
    /// The focused square's contents, for AccessKit.
    pub value: &'a str,
    pub size: f32,
    pub pieces: &'a [Option<Piece>; 64],
    pub cursor: Square,
    pub selected: Option<Square>,
    /// Squares to mark (the peg-board differs here).
    pub differs: u64,
    pub flipped: bool,
    pub theme: Theme,
    pub letters: Letters,
    /// Each square's accessible name ("Eva vier: weißer Bauer"), by square
    /// index; the grid exposes one cell per square (see [`board_cells`]).
    pub cell_names: &'a [String; 64],
}

pub struct BoardOut {
    pub clicked: Option<Square>,
    pub focused: bool,
    pub response: egui::Response,
    /// The cursor's cell: the board's keyboard focus lives here.
    pub cell: egui::Response,
}

/// The id of a board's cell for one square.
fn cell_id(board: Id, sq: Square) -> Id {
    board.with(("cell", u32::from(sq)))
}

/// The 64 cells of a board grid for screen readers, rank 8 to 1 (as a
/// sighted player reads the board) and file a to h, each named by square
/// and content. Only the cursor's cell takes the keyboard (a roving focus:
/// Tab enters the board once, arrows move the focus cell by cell and the
/// screen reader speaks and brailles each cell it lands on); the picked-up
/// piece's square is selected.
fn board_cells(
    ui: &mut Ui,
    board: Id,
    view: &BoardView<'_>,
    square_rect: impl Fn(Square) -> egui::Rect,
) -> egui::Response {
    let mut cursor_cell = None;
    ui.scope_builder(egui::UiBuilder::new().accessibility_parent(board), |ui| {
        for rank in (0..8u32).rev() {
            for file in 0..8u32 {
                let sq = Square::from_coords(File::new(file), Rank::new(rank));
                let id = cell_id(board, sq);
                let sense = if sq == view.cursor {
                    Sense::FOCUSABLE
                } else {
                    Sense::hover()
                };
                let r = ui.interact(square_rect(sq), id, sense);
                let name = view.cell_names[usize::from(sq)].clone();
                r.widget_info(|| egui::WidgetInfo::labeled(super::a11y::CELL_ROLE, true, &name));
                let selected = view.selected == Some(sq);
                ui.ctx().accesskit_node_builder(id, |node| {
                    node.set_row_index(7 - rank as usize);
                    node.set_column_index(file as usize);
                    if selected {
                        node.set_selected(true);
                    }
                });
                if sq == view.cursor {
                    cursor_cell = Some(r);
                }
            }
        }
    });
    cursor_cell.expect("the cursor is on the board")
}

fn piece_letter(letters: Letters, role: Role) -> char {
    letters.letter(role).unwrap_or(match letters {
        Letters::De => 'B',
        Letters::En | Letters::Pt => 'P',
    })
}

/// Colours: (light square, dark square, cursor, mark, coordinates).
fn board_colours(theme: Theme) -> (Color32, Color32, Color32, Color32, Color32) {
    match theme {
        Theme::DarkHighContrast => (
            Color32::from_gray(200),
            Color32::from_gray(90),
            Color32::from_rgb(255, 230, 0),
            Color32::from_rgb(255, 0, 200),
            Color32::WHITE,
        ),
        Theme::LightHighContrast => (
            Color32::from_gray(235),
            Color32::from_gray(120),
            Color32::from_rgb(0, 90, 255),
            Color32::from_rgb(220, 0, 0),
            Color32::BLACK,
        ),
        Theme::YellowOnBlack => (
            Color32::from_rgb(170, 160, 60),
            Color32::from_rgb(70, 60, 20),
            Color32::from_rgb(0, 220, 255),
            Color32::from_rgb(255, 0, 200),
            Color32::YELLOW,
        ),
    }
}

/// Draws a board that takes clicks and, when it has the keyboard, keeps
/// the arrow keys for itself.
pub fn board_widget(ui: &mut Ui, view: BoardView<'_>) -> BoardOut {
    let (rect, _) = ui.allocate_exact_size(Vec2::splat(view.size), Sense::hover());
    let id = ui.make_persistent_id(view.id_salt);
    // Clicks only: the keyboard focus lives on the cursor's cell.
    let response = ui.interact(rect, id, Sense::CLICK);
    response.widget_info(|| egui::WidgetInfo::labeled(super::a11y::BOARD_ROLE, true, view.label));
    let value = view.value.to_owned();
    ui.ctx().accesskit_node_builder(id, |node| {
        node.set_value(value);
        node.set_row_count(8);
        node.set_column_count(8);
    });
    let margin = view.size / 14.0;
    let sq_size = (view.size - margin) / 8.0;
    let origin = rect.min + Vec2::new(margin, 0.0);
    let square_rect = |sq: Square| {
        let (f, r) = (u32::from(sq.file()) as f32, u32::from(sq.rank()) as f32);
        let (col, row) = if view.flipped {
            (7.0 - f, r)
        } else {
            (f, 7.0 - r)
        };
        egui::Rect::from_min_size(
            origin + Vec2::new(col * sq_size, row * sq_size),
            Vec2::splat(sq_size),
        )
    };
    // A cell the cursor left hands the keyboard to the cursor's cell
    // (before the cells are built: the left one no longer takes focus).
    let cursor_id = cell_id(id, view.cursor);
    let on_other_cell = ui.memory(|m| {
        m.focused().is_some_and(|f| {
            f != cursor_id && Square::ALL.into_iter().any(|sq| cell_id(id, sq) == f)
        })
    });
    if on_other_cell {
        ui.memory_mut(|m| m.request_focus(cursor_id));
    }
    let cell = board_cells(ui, id, &view, square_rect);
    if response.clicked() {
        cell.request_focus();
    }
    let focused = cell.has_focus();
    if focused {
        ui.memory_mut(|m| {
            m.set_focus_lock_filter(
                cell.id,
                egui::EventFilter {
                    horizontal_arrows: true,
                    vertical_arrows: true,
                    tab: false,
                    escape: false,
                },
            )
        });
    }
    let (light, dark, cursor_colour, mark, coords) = board_colours(view.theme);
    let painter = ui.painter_at(rect);
    // The 64 squares as one plain mesh, each snapped to whole pixels: a
    // filled rect gets an anti-aliasing strip on every edge, which shows
    // nothing on pixel-aligned squares but costs a software renderer (no
    // GPU) real time on every repaint, and a running clock repaints every
    // second.
    let ppp = ui.ctx().pixels_per_point();
    let mut squares = egui::Mesh::default();
    for sq in Square::ALL {
        let is_light = (u32::from(sq.file()) + u32::from(sq.rank())) % 2 == 1;
        squares.add_colored_rect(
            square_rect(sq).round_to_pixels(ppp),
            if is_light { light } else { dark },
        );
    }
    painter.add(squares);
    let disc = |sq: Square| {
        egui::Rect::from_center_size(square_rect(sq).center(), Vec2::splat(sq_size * 0.8))
    };
    painter.add(super::piece_disc::discs(
        ui.ctx(),
        Square::ALL
            .into_iter()
            .filter_map(|sq| view.pieces[usize::from(sq)].map(|p| (disc(sq), p.color))),
    ));
    for sq in Square::ALL {
        let r = square_rect(sq);
        if let Some(p) = view.pieces[usize::from(sq)] {
            let ink = super::piece_disc::colours(p.color).1;
            painter.text(
                r.center(),
                Align2::CENTER_CENTER,
                piece_letter(view.letters, p.role),
                FontId::proportional(sq_size * 0.5),
                ink,
            );
        }
        if view.differs & (1u64 << u32::from(sq)) != 0 {
            painter.rect_stroke(
                r.shrink(sq_size * 0.08),
                0.0,
                Stroke::new(sq_size * 0.08, mark),
                egui::StrokeKind::Inside,
            );
            painter.text(
                r.right_top(),
                Align2::RIGHT_TOP,
                "!",
                FontId::proportional(sq_size * 0.35),
                mark,
            );
        }
        if Some(sq) == view.selected {
            painter.rect_stroke(
                r,
                0.0,
                Stroke::new(sq_size * 0.06, mark),
                egui::StrokeKind::Inside,
            );
        }
    }
    let cursor_width = if focused {
        sq_size * 0.1
    } else {
        sq_size * 0.05
    };
    painter.rect_stroke(
        square_rect(view.cursor),
        0.0,
        Stroke::new(cursor_width, cursor_colour),
        egui::StrokeKind::Inside,
    );
    let font = FontId::proportional((margin * 0.7).max(10.0));
    for i in 0..8u32 {
        let file = File::new(i);
        let rank = Rank::new(i);
        let fr = square_rect(Square::from_coords(file, Rank::First));
        painter.text(
            egui::pos2(fr.center().x, origin.y + 8.0 * sq_size + margin * 0.5),
            Align2::CENTER_CENTER,
            file.char(),
            font.clone(),
            coords,
        );
        let rr = square_rect(Square::from_coords(File::A, rank));
        painter.text(
            egui::pos2(rect.min.x + margin * 0.5, rr.center().y),
            Align2::CENTER_CENTER,
            rank.char(),
            font.clone(),
            coords,
        );
    }
    let clicked = if response.clicked() {
        response.interact_pointer_pos().and_then(|pos| {
            Square::ALL
                .into_iter()
                .find(|&sq| square_rect(sq).contains(pos))
        })
    } else {
        None
    };
    BoardOut {
        clicked,
        focused,
        response,
        cell,
    }
}

pub fn central_board(app: &mut RochadeApp, ui: &mut Ui) {
    let t = app.ui.clone();
    egui::CentralPanel::default()
        .frame(panel_frame(egui::Frame::central_panel(ui.style())))
        .show(ui, |ui| {
            let size = ui.available_width().min(ui.available_height()).max(160.0);
            let board = app.session.record().position().board().clone();
            let mut pieces = [None; 64];
            for sq in Square::ALL {
                pieces[usize::from(sq)] = board.piece_at(sq);
            }
            let value = super::browse::square(app.session.pack(), &board, app.cursor).spoken;
            let cell_names: [String; 64] = std::array::from_fn(|i| {
                super::browse::square(app.session.pack(), &board, Square::ALL[i]).spoken
            });
            let out = board_widget(
                ui,
                BoardView {
                    id_salt: BOARD_ID,
                    label: &t.get("board"),
                    value: &value,
                    size,
                    pieces: &pieces,
                    cursor: app.cursor,
                    selected: app.selected,
                    differs: app.board_differs(),
                    flipped: app.flipped(),
                    theme: app.settings.display.theme,
                    letters: app.session.config().letters,
                    cell_names: &cell_names,
                },
            );
            out.response.clone().on_hover_text(t.get("board_hint"));
            if app.focus_request == Some(FocusTarget::Board) {
                out.cell.request_focus();
                app.focus_request = None;
            }
            app.board_focused = out.focused;
            if let Some(sq) = out.clicked {
                app.pick(sq);
            }
            if out.focused {
                for key in board_keys(ui.ctx()) {
                    app.board_key(key);
                }
            }
        });
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
    ui.horizontal(|ui| {
        let l = ui.label(t.get("speech_mode"));
        egui::ComboBox::from_id_salt("speech_mode")
            .selected_text(t.get(&format!("speech_mode_{}", s.speech.mode.code())))
            .show_ui(ui, |ui| {
                for m in crate::speech::SpeechMode::ALL {
                    ui.selectable_value(
                        &mut s.speech.mode,
                        m,
                        t.get(&format!("speech_mode_{}", m.code())),
                    );
                }
            })
            .response
            .labelled_by(l.id);
    });
    ui.horizontal(|ui| {
        let l = ui.label(t.get("speech_backend"));
        egui::ComboBox::from_id_salt("speech_backend")
            .selected_text(t.get(&format!("backend_{}", s.speech.backend.code())))
            .show_ui(ui, |ui| {
                for b in crate::config::SpeechBackend::ALL {
                    ui.selectable_value(
                        &mut s.speech.backend,
                        b,
                        t.get(&format!("backend_{}", b.code())),
                    );
                }
            })
            .response
            .labelled_by(l.id);
    });
    text_row(ui, t.get("voice_name"), voice);
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
        let l = ui.label(t.get("record_word"));
        let shown = words
            .iter()
            .find(|(name, _)| *name == clip.word)
            .map_or(clip.word.clone(), |(_, spoken)| spoken.clone());
        egui::ComboBox::from_id_salt("record_word")
            .selected_text(shown)
            .height(400.0)
            .show_ui(ui, |ui| {
                for (name, spoken) in &words {
                    ui.selectable_value(&mut clip.word, name.clone(), spoken);
                }
            })
            .response
            .labelled_by(l.id);
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

pub(super) fn text_row(ui: &mut Ui, label: String, value: &mut String) {
    ui.horizontal(|ui| {
        let l = ui.label(label);
        ui.text_edit_singleline(value).labelled_by(l.id);
    });
}

fn lang_row(ui: &mut Ui, id: &str, label: String, value: &mut Lang) {
    ui.horizontal(|ui| {
        let l = ui.label(&label);
        egui::ComboBox::from_id_salt(id)
            .selected_text(match value {
                Lang::De => "Deutsch",
                Lang::Pt => "Português (Brasil)",
                Lang::En => "English",
            })
            .show_ui(ui, |ui| {
                ui.selectable_value(value, Lang::Pt, "Português (Brasil)");
                ui.selectable_value(value, Lang::En, "English");
                ui.selectable_value(value, Lang::De, "Deutsch");
            })
            .response
            .labelled_by(l.id);
    });
}

fn settings_window(app: &mut RochadeApp, ctx: &egui::Context, t: &UiText) {
    let Some(Modal::Settings(draft)) = app.modal.as_mut() else {
        return;
    };
    let mut save = false;
    let mut cancel = false;
    egui::Window::new(t.get("settings"))
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
                lang_row(
                    ui,
                    "ui_lang",
                    t.get("interface_language"),
                    &mut s.interface_language,
                );
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
                ui.horizontal(|ui| {
                    let l = ui.label(t.get("piece_letters"));
                    egui::ComboBox::from_id_salt("letters")
                        .selected_text(s.game.letters.code())
                        .show_ui(ui, |ui| {
                            for letters in Letters::ALL {
                                ui.selectable_value(&mut s.game.letters, letters, letters.code());
                            }
                        })
                        .response
                        .labelled_by(l.id);
                });
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
                text_row(ui, t.get("time_control"), &mut s.game.time_control);
                text_row(ui, t.get("white_name"), &mut s.game.white);
                text_row(ui, t.get("black_name"), &mut s.game.black);
                text_row(ui, t.get("event"), &mut s.game.event);
                text_row(ui, t.get("round"), &mut s.game.round);
                text_row(ui, t.get("board_number"), &mut s.game.board_number);
                ui.separator();
                text_row(ui, t.get("port"), &mut draft.port);
                ui.horizontal(|ui| {
                    let l = ui.label(t.get("format"));
                    egui::ComboBox::from_id_salt("board_format")
                        .selected_text(s.board.format.code())
                        .show_ui(ui, |ui| {
                            for f in crate::board::Format::ALL {
                                ui.selectable_value(&mut s.board.format, f, f.code());
                            }
                        })
                        .response
                        .labelled_by(l.id);
                });
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
                text_row(ui, t.get("sighted_port"), &mut draft.sighted_port);
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
        self.ui = UiText::bundled(settings.interface_language);
        let config = settings.session_config();
        let (pack, pack_error) =
            crate::words::Pack::load_or_bundled(config.lang, self.pack_dir.as_deref());
        self.session.set_config(config);
        self.session.set_pack(pack);
        let tracker = settings.tracker_config();
        self.dispatch(crate::session::Event::Board(
            crate::session::board::BoardEvent::Configure(tracker),
        ));
        settings.apply_tags(&mut self.session.record_mut().tags);
        self.speech.reconfigure(settings.speech_config());
        let old = std::mem::replace(&mut self.settings, settings);
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
    }

    pub fn position(&self) -> &shakmaty::Chess {
        self.session.record().position()
    }

    pub fn side_to_move(&self) -> Color {
        self.session.record().position().turn()
    }
}
