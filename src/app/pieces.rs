//! Staunton piece shapes, drawn as vector paths with egui's painter.
//!
//! Each piece is a handful of convex parts (egui fills convex paths) in a
//! unit square, y downwards, the piece standing on y = 0.88. A piece is
//! drawn in layers: every part widened in the edge colour (black), for a
//! black piece every part slightly less widened in its line colour, then
//! every part in the piece's colour, then a few detail lines (the bishop's
//! mitre cut, the knight's eye). Only the silhouette gets the edge, so the
//! parts merge into one figure.
//!
//! Tessellating these paths is the expensive part, so a board keeps each
//! (piece, colour) mesh for its square size and the whole board's mesh
//! while nothing changes ([`PieceMeshes`]): a repaint for the clock adds
//! one ready mesh.

use std::collections::HashMap;
use std::sync::Arc;

use egui::epaint::{PathShape, PathStroke, TessellationOptions, Tessellator};
use egui::{Color32, Mesh, Pos2, Rect, Shape, Stroke, pos2};
use shakmaty::{Color, Piece, Role};

use super::palette::Palette;

/// One convex part of a piece, in unit coordinates.
#[derive(Clone, Debug, PartialEq)]
pub enum Part {
    Polygon(Vec<Pos2>),
    Circle(Pos2, f32),
}

/// A box from (x0, y0) to (x1, y1).
fn rect(x0: f32, y0: f32, x1: f32, y1: f32) -> Part {
    Part::Polygon(vec![pos2(x0, y0), pos2(x1, y0), pos2(x1, y1), pos2(x0, y1)])
}

/// A trapezoid: `bottom` half-width at `yb`, `top` half-width at `yt`,
/// centred on x = 0.5.
fn taper(yb: f32, bottom: f32, yt: f32, top: f32) -> Part {
    Part::Polygon(vec![
        pos2(0.5 - bottom, yb),
        pos2(0.5 + bottom, yb),
        pos2(0.5 + top, yt),
        pos2(0.5 - top, yt),
    ])
}

/// An ellipse as a 20-sided polygon.
fn ellipse(c: Pos2, rx: f32, ry: f32) -> Part {
    Part::Polygon(
        (0..20)
            .map(|i| {
                let a = i as f32 * std::f32::consts::TAU / 20.0;
                pos2(c.x + rx * a.cos(), c.y + ry * a.sin())
            })
            .collect(),
    )
}

/// The plinth all pieces stand on.
fn plinth() -> [Part; 2] {
    [rect(0.2, 0.8, 0.8, 0.88), taper(0.8, 0.25, 0.75, 0.22)]
}

/// A piece's parts and its detail lines (pairs of points).
pub fn shape(role: Role) -> (Vec<Part>, Vec<[Pos2; 2]>) {
    let mut parts: Vec<Part> = plinth().into();
    let mut lines = Vec::new();
    match role {
        Role::Pawn => {
            parts.push(taper(0.76, 0.2, 0.5, 0.07));
            parts.push(ellipse(pos2(0.5, 0.5), 0.14, 0.035));
            parts.push(Part::Circle(pos2(0.5, 0.36), 0.12));
        }
        Role::Rook => {
            parts.push(taper(0.76, 0.19, 0.36, 0.16));
            parts.push(rect(0.27, 0.28, 0.73, 0.38));
            for x in [0.27, 0.45, 0.63] {
                parts.push(rect(x, 0.17, x + 0.1, 0.3));
            }
            lines.push([pos2(0.32, 0.66), pos2(0.68, 0.66)]);
        }
        Role::Knight => {
            // Neck and chest, facing left.
            parts.push(Part::Polygon(vec![
                pos2(0.28, 0.76),
                pos2(0.74, 0.76),
                pos2(0.73, 0.5),
                pos2(0.64, 0.26),
                pos2(0.5, 0.17),
                pos2(0.36, 0.44),
            ]));
            // Head and muzzle.
            parts.push(Part::Polygon(vec![
                pos2(0.5, 0.17),
                pos2(0.6, 0.3),
                pos2(0.46, 0.45),
                pos2(0.25, 0.53),
                pos2(0.18, 0.47),
                pos2(0.21, 0.39),
                pos2(0.38, 0.22),
            ]));
            // Ear.
            parts.push(Part::Polygon(vec![
                pos2(0.44, 0.21),
                pos2(0.5, 0.07),
                pos2(0.57, 0.22),
            ]));
            lines.push([pos2(0.4, 0.3), pos2(0.44, 0.3)]);
            lines.push([pos2(0.62, 0.32), pos2(0.68, 0.62)]);
        }
        Role::Bishop => {
            parts.push(taper(0.76, 0.17, 0.52, 0.06));
            parts.push(ellipse(pos2(0.5, 0.53), 0.15, 0.04));
            parts.push(ellipse(pos2(0.5, 0.36), 0.13, 0.16));
            parts.push(Part::Circle(pos2(0.5, 0.16), 0.05));
            lines.push([pos2(0.46, 0.28), pos2(0.57, 0.4)]);
        }
        Role::Queen => {
            parts.push(taper(0.76, 0.19, 0.46, 0.07));
            parts.push(ellipse(pos2(0.5, 0.47), 0.16, 0.04));
            parts.push(taper(0.46, 0.1, 0.26, 0.24));
            for x in [0.26, 0.38, 0.5, 0.62, 0.74] {
                parts.push(Part::Circle(pos2(x, 0.22), 0.045));
            }
            lines.push([pos2(0.36, 0.4), pos2(0.64, 0.4)]);
        }
        Role::King => {
            parts.push(taper(0.76, 0.19, 0.44, 0.08));
            parts.push(ellipse(pos2(0.5, 0.44), 0.17, 0.04));
            parts.push(taper(0.42, 0.1, 0.28, 0.18));
            parts.push(rect(0.32, 0.25, 0.68, 0.3));
            parts.push(rect(0.46, 0.06, 0.54, 0.26));
            parts.push(rect(0.4, 0.11, 0.6, 0.18));
            lines.push([pos2(0.36, 0.38), pos2(0.64, 0.38)]);
        }
    }
    (parts, lines)
}

/// The part as an egui shape, in a square at `origin` of side `size`,
/// widened by `grow` points, filled with `fill`.
fn part_shape(part: &Part, origin: Pos2, size: f32, grow: f32, fill: Color32) -> Shape {
    let at = |p: Pos2| origin + p.to_vec2() * size;
    match part {
        Part::Circle(c, r) => Shape::circle_filled(at(*c), r * size + grow, fill),
        Part::Polygon(points) => Shape::Path(PathShape {
            points: points.iter().map(|&p| at(p)).collect(),
            closed: true,
            fill,
            stroke: if grow > 0.0 {
                PathStroke::new(2.0 * grow, fill)
            } else {
                PathStroke::NONE
            },
        }),
    }
}

/// The shapes of one piece in a square at `origin` of side `size`.
pub fn piece_shapes(piece: Piece, origin: Pos2, size: f32, p: &Palette) -> Vec<Shape> {
    let (parts, lines) = shape(piece.role);
    let edge = (size * 0.035).max(1.0);
    let mut layers = vec![(edge, p.edge)];
    let (fill, line) = match piece.color {
        Color::White => (p.white_piece, p.edge),
        Color::Black => {
            layers.push((edge * 0.45, p.black_piece_line));
            (p.black_piece, p.black_piece_line)
        }
    };
    layers.push((0.0, fill));
    let mut shapes = Vec::new();
    for (grow, colour) in layers {
        shapes.extend(
            parts
                .iter()
                .map(|part| part_shape(part, origin, size, grow, colour)),
        );
    }
    let at = |q: Pos2| origin + q.to_vec2() * size;
    for [a, b] in lines {
        shapes.push(Shape::line_segment(
            [at(a), at(b)],
            Stroke::new(edge * 0.8, line),
        ));
    }
    shapes
}

/// Tessellates shapes into one mesh (no text, so no font texture).
pub fn tessellate(shapes: Vec<Shape>, pixels_per_point: f32) -> Mesh {
    let mut tessellator = Tessellator::new(
        pixels_per_point,
        TessellationOptions::default(),
        [1, 1],
        vec![],
    );
    let mut mesh = Mesh::default();
    for shape in shapes {
        tessellator.tessellate_shape(shape, &mut mesh);
    }
    mesh
}

/// What a board's piece mesh depends on.
#[derive(Clone, Debug, PartialEq)]
struct BoardKey {
    squares: Vec<(Rect, Piece)>,
    palette: Palette,
    pixels_per_point: f32,
}

/// A board's piece meshes: one per (piece, colour) at the current square
/// size, and the last whole board.
#[derive(Default)]
pub struct PieceMeshes {
    /// The square size and pixel density the piece meshes are for.
    size: Option<(f32, f32, Palette)>,
    pieces: HashMap<Piece, Mesh>,
    board: Option<(BoardKey, Arc<Mesh>)>,
    /// How many times a piece was tessellated (for tests).
    pub tessellated: usize,
}

impl PieceMeshes {
    /// One mesh with every piece of `squares` (each the square's rect and
    /// its piece), reused as long as nothing changed.
    pub fn board(
        &mut self,
        squares: Vec<(Rect, Piece)>,
        palette: &Palette,
        pixels_per_point: f32,
    ) -> Arc<Mesh> {
        let key = BoardKey {
            squares,
            palette: *palette,
            pixels_per_point,
        };
        if let Some((k, mesh)) = &self.board
            && *k == key
        {
            return mesh.clone();
        }
        let side = key.squares.first().map_or(0.0, |(r, _)| r.width());
        let size_key = (side, pixels_per_point, *palette);
        if self.size != Some(size_key) {
            self.size = Some(size_key);
            self.pieces.clear();
        }
        let mut mesh = Mesh::default();
        for (r, piece) in &key.squares {
            let one = self.pieces.entry(*piece).or_insert_with(|| {
                self.tessellated += 1;
                tessellate(
                    piece_shapes(*piece, Pos2::ZERO, side, palette),
                    pixels_per_point,
                )
            });
            let mut placed = one.clone();
            placed.translate(r.min.to_vec2());
            mesh.append(placed);
        }
        let mesh = Arc::new(mesh);
        self.board = Some((key, mesh.clone()));
        mesh
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use egui::Vec2;

    fn convex(points: &[Pos2]) -> bool {
        let n = points.len();
        let cross = |i: usize| {
            let (a, b, c) = (points[i], points[(i + 1) % n], points[(i + 2) % n]);
            (b - a).x * (c - b).y - (b - a).y * (c - b).x
        };
        let signs: Vec<f32> = (0..n).map(cross).filter(|c| c.abs() > 1e-6).collect();
        signs.iter().all(|&c| c > 0.0) || signs.iter().all(|&c| c < 0.0)
    }

    #[test]
    fn every_part_is_convex_and_inside_the_square() {
        for role in Role::ALL {
            let (parts, lines) = shape(role);
            for part in &parts {
                match part {
                    Part::Polygon(points) => {
                        assert!(convex(points), "{role:?}: {points:?}");
                        for p in points {
                            assert!((0.0..=1.0).contains(&p.x) && (0.0..=1.0).contains(&p.y));
                        }
                    }
                    Part::Circle(c, r) => {
                        assert!(c.x - r >= 0.0 && c.x + r <= 1.0 && c.y - r >= 0.0);
                    }
                }
            }
            for [a, b] in lines {
                assert!(a != b);
            }
        }
    }

    #[test]
    fn the_six_pieces_differ() {
        let shapes: Vec<_> = Role::ALL.iter().map(|&r| shape(r)).collect();
        for i in 0..shapes.len() {
            for j in i + 1..shapes.len() {
                assert_ne!(
                    shapes[i],
                    shapes[j],
                    "{:?} {:?}",
                    Role::ALL[i],
                    Role::ALL[j]
                );
            }
        }
    }

    #[test]
    fn a_black_piece_has_one_more_layer() {
        let p = Palette::of(crate::config::Theme::DarkHighContrast);
        for role in Role::ALL {
            let parts = shape(role).0.len();
            let white = piece_shapes(role.of(Color::White), Pos2::ZERO, 80.0, &p);
            let black = piece_shapes(role.of(Color::Black), Pos2::ZERO, 80.0, &p);
            assert_eq!(black.len(), white.len() + parts, "{role:?}");
        }
    }

    #[test]
    fn meshes_are_made_once_and_reused() {
        let p = Palette::of(crate::config::Theme::DarkHighContrast);
        let mut meshes = PieceMeshes::default();
        let sq = |i: f32| Rect::from_min_size(pos2(i * 50.0, 0.0), Vec2::splat(50.0));
        let board = vec![
            (sq(0.0), Role::Rook.of(Color::White)),
            (sq(1.0), Role::Rook.of(Color::White)),
            (sq(2.0), Role::King.of(Color::Black)),
        ];
        let first = meshes.board(board.clone(), &p, 1.0);
        assert_eq!(meshes.tessellated, 2, "one mesh per (role, colour)");
        let again = meshes.board(board.clone(), &p, 1.0);
        assert!(
            Arc::ptr_eq(&first, &again),
            "the same board reuses its mesh"
        );
        let moved = vec![board[0], (sq(3.0), board[1].1), board[2]];
        let next = meshes.board(moved, &p, 1.0);
        assert_eq!(meshes.tessellated, 2, "a move tessellates nothing");
        assert_eq!(next.vertices.len(), first.vertices.len());
        assert!(!first.vertices.is_empty());
    }
}
