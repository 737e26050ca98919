//! The board: its drawing and its accessible grid ([`BoardView`], used by
//! the main board ([`super::board_panel`]) and the simulated peg-board).
//! Where it goes is [`super::layout`].

use egui::{Align2, FontId, Id, Rect, Sense, Stroke, Ui, Vec2, pos2};
use shakmaty::{File, Piece, Rank, Role, Square};

use super::palette::Palette;
use crate::chess::Letters;
use crate::config::Theme;

pub const BOARD_ID: &str = "board";

/// What a board shows this frame.
pub struct BoardInput<'a> {
    pub label: &'a str,
    /// The focused square's contents, for AccessKit.
    pub value: &'a str,
    pub size: f32,
    pub pieces: &'a [Option<Piece>; 64],
    pub cursor: Square,
    pub selected: Option<Square>,
    /// Squares to mark (the peg-board differs here).
    pub differs: u64,
    /// The last move's from and to squares.
    pub last_move: Option<(Square, Square)>,
    pub flipped: bool,
    pub theme: Theme,
    pub letters: Letters,
    /// Letters in discs instead of piece shapes.
    pub letter_discs: bool,
    /// Each square's name in large letters.
    pub big_coordinates: bool,
    /// Each square's accessible name ("Eva vier: weißer Bauer"), by square
    /// index; the grid exposes one cell per square (see [`board_cells`]).
    pub cell_names: &'a [String; 64],
}

pub struct BoardOut {
    pub clicked: Option<Square>,
    pub focused: bool,
    /// The cursor's cell: the board's keyboard focus lives here.
    pub cell: egui::Response,
}

/// A board on screen: its id and what it keeps between frames (its last
/// rect, for tests and measurements).
pub struct BoardView {
    id_salt: &'static str,
    /// Where the board was drawn last.
    pub rect: Option<Rect>,
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
    view: &BoardInput<'_>,
    square_rect: impl Fn(Square) -> Rect,
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

/// A mark that does not rely on colour: a dark line and a bright one
/// inside it, so one of them stands out from any square.
fn double_frame(painter: &egui::Painter, r: Rect, width: f32, bright: egui::Color32, p: &Palette) {
    let half = width / 2.0;
    painter.rect_stroke(r, 0.0, Stroke::new(half, p.edge), egui::StrokeKind::Inside);
    painter.rect_stroke(
        r.shrink(half),
        0.0,
        Stroke::new(half, bright),
        egui::StrokeKind::Inside,
    );
}

/// The last move's to-square: four corner brackets (dark and bright).
fn corner_brackets(painter: &egui::Painter, r: Rect, p: &Palette) {
    // Inside the cursor's frame (at most 0.12 of the square), so that the
    // cursor on the same square does not hide them.
    let r = r.shrink(r.width() * 0.13);
    let s = r.width();
    let (len, w) = (s * 0.3, s * 0.08);
    for (corner, dx, dy) in [
        (r.left_top(), 1.0, 1.0),
        (r.right_top(), -1.0, 1.0),
        (r.left_bottom(), 1.0, -1.0),
        (r.right_bottom(), -1.0, -1.0),
    ] {
        for (inset, width, colour) in [(w * 0.5, w, p.edge), (w * 0.75, w * 0.5, p.mark)] {
            let c = corner + Vec2::new(dx * inset, dy * inset);
            painter.line_segment(
                [c, c + Vec2::new(dx * len, 0.0)],
                Stroke::new(width, colour),
            );
            painter.line_segment(
                [c, c + Vec2::new(0.0, dy * len)],
                Stroke::new(width, colour),
            );
        }
    }
}

/// The last move's from-square: a ring in the middle (dark and bright).
fn ring(painter: &egui::Painter, r: Rect, p: &Palette) {
    let s = r.width();
    painter.circle_stroke(r.center(), s * 0.2, Stroke::new(s * 0.08, p.edge));
    painter.circle_stroke(r.center(), s * 0.2, Stroke::new(s * 0.04, p.mark));
}

impl BoardView {
    pub fn new(id_salt: &'static str) -> BoardView {
        BoardView {
            id_salt,
            rect: None,
        }
    }

    /// Draws the board; it takes clicks and, when it has the keyboard,
    /// keeps the arrow keys for itself.
    pub fn ui(&mut self, ui: &mut Ui, view: BoardInput<'_>) -> BoardOut {
        let (rect, _) = ui.allocate_exact_size(Vec2::splat(view.size), Sense::hover());
        self.rect = Some(rect);
        let id = ui.make_persistent_id(self.id_salt);
        // Clicks only: the keyboard focus lives on the cursor's cell.
        let response = ui.interact(rect, id, Sense::CLICK);
        response
            .widget_info(|| egui::WidgetInfo::labeled(super::a11y::BOARD_ROLE, true, view.label));
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
            Rect::from_min_size(
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
                        // Tab from the board is ours (see `main_board`).
                        tab: true,
                        escape: false,
                    },
                )
            });
        }
        let p = Palette::of(view.theme);
        let painter = ui.painter_at(rect);
        // The 64 squares as one plain mesh, each snapped to whole pixels: a
        // filled rect gets an anti-aliasing strip on every edge, which shows
        // nothing on pixel-aligned squares but costs a software renderer (no
        // GPU) real time on every repaint, and a running clock repaints every
        // second.
        let ppp = ui.ctx().pixels_per_point();
        // Each grid line is rounded once and shared by the squares on both
        // sides of it (rounding each square's own edges left one-pixel
        // gaps of background between some ranks).
        let line = |start: f32, i: f32| ((start + i * sq_size) * ppp).round() / ppp;
        let mut squares = egui::Mesh::default();
        for sq in Square::ALL {
            let is_light = (u32::from(sq.file()) + u32::from(sq.rank())) % 2 == 1;
            let r = square_rect(sq);
            let (col, row) = (
                (r.min.x - origin.x) / sq_size,
                (r.min.y - origin.y) / sq_size,
            );
            let (col, row) = (col.round(), row.round());
            let snapped = Rect::from_min_max(
                pos2(line(origin.x, col), line(origin.y, row)),
                pos2(line(origin.x, col + 1.0), line(origin.y, row + 1.0)),
            );
            squares.add_colored_rect(snapped, p.square(is_light));
        }
        painter.add(squares);
        if let Some((from, to)) = view.last_move {
            ring(&painter, square_rect(from), &p);
            corner_brackets(&painter, square_rect(to), &p);
        }
        let occupied = Square::ALL
            .into_iter()
            .filter_map(|sq| view.pieces[usize::from(sq)].map(|piece| (sq, piece)));
        if view.letter_discs {
            let disc = |sq: Square| {
                Rect::from_center_size(square_rect(sq).center(), Vec2::splat(sq_size * 0.8))
            };
            painter.add(super::piece_disc::discs(
                ui.ctx(),
                occupied.clone().map(|(sq, piece)| (disc(sq), piece.color)),
            ));
            for (sq, piece) in occupied {
                let ink = super::piece_disc::colours(piece.color).1;
                painter.text(
                    square_rect(sq).center(),
                    Align2::CENTER_CENTER,
                    piece_letter(view.letters, piece.role),
                    FontId::proportional(sq_size * 0.5),
                    ink,
                );
            }
        } else {
            painter.add(super::pieces::pieces(
                ui.ctx(),
                &p,
                occupied.map(|(sq, piece)| (square_rect(sq), piece)),
            ));
        }
        for sq in Square::ALL {
            let r = square_rect(sq);
            if view.differs & (1u64 << u32::from(sq)) != 0 {
                double_frame(
                    &painter,
                    r.shrink(sq_size * 0.04),
                    sq_size * 0.12,
                    p.mark,
                    &p,
                );
                let corner = r.right_top() + Vec2::new(-sq_size * 0.17, sq_size * 0.17);
                painter.circle_filled(corner, sq_size * 0.15, p.edge);
                painter.text(
                    corner,
                    Align2::CENTER_CENTER,
                    "!",
                    FontId::proportional(sq_size * 0.3),
                    p.mark,
                );
            }
            if Some(sq) == view.selected {
                double_frame(&painter, r, sq_size * 0.1, p.mark, &p);
            }
        }
        if view.big_coordinates {
            for sq in Square::ALL {
                let is_light = (u32::from(sq.file()) + u32::from(sq.rank())) % 2 == 1;
                let r = square_rect(sq);
                painter.text(
                    r.left_bottom() + Vec2::new(sq_size * 0.06, -sq_size * 0.02),
                    Align2::LEFT_BOTTOM,
                    sq.to_string(),
                    FontId::proportional(sq_size * 0.3),
                    if is_light { p.edge } else { p.black_piece_line },
                );
            }
        }
        let cursor_width = if focused {
            sq_size * 0.12
        } else {
            sq_size * 0.07
        };
        double_frame(
            &painter,
            square_rect(view.cursor),
            cursor_width,
            p.cursor,
            &p,
        );
        // At least the window's least text size where the margin has room.
        let min_text = super::palette::MIN_TEXT.min(margin);
        let font = FontId::proportional((margin * 0.7).max(min_text));
        for i in 0..8u32 {
            let file = File::new(i);
            let rank = Rank::new(i);
            let fr = square_rect(Square::from_coords(file, Rank::First));
            painter.text(
                pos2(fr.center().x, origin.y + 8.0 * sq_size + margin * 0.5),
                Align2::CENTER_CENTER,
                file.char(),
                font.clone(),
                p.text,
            );
            let rr = square_rect(Square::from_coords(File::A, rank));
            painter.text(
                pos2(rect.min.x + margin * 0.5, rr.center().y),
                Align2::CENTER_CENTER,
                rank.char(),
                font.clone(),
                p.text,
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
            cell,
        }
    }
}

/// The squares of a move as a player sees it: castling goes from the
/// king's square to where the king lands.
pub fn move_squares(m: &shakmaty::Move) -> Option<(Square, Square)> {
    match *m {
        shakmaty::Move::Castle { king, rook } => {
            let file = if rook.file() > king.file() {
                File::G
            } else {
                File::C
            };
            Some((king, Square::from_coords(file, king.rank())))
        }
        _ => m.from().map(|from| (from, m.to())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn castling_marks_the_kings_way() {
        let m = shakmaty::Move::Castle {
            king: Square::E1,
            rook: Square::H1,
        };
        assert_eq!(move_squares(&m), Some((Square::E1, Square::G1)));
        let m = shakmaty::Move::Castle {
            king: Square::E8,
            rook: Square::A8,
        };
        assert_eq!(move_squares(&m), Some((Square::E8, Square::C8)));
    }
}
