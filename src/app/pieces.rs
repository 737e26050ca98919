//! Staunton piece shapes: vector outlines drawn once into an image.
//!
//! Each piece is a handful of convex parts (polygons and circles) in a
//! unit square, y downwards, the piece standing on y = 0.88, and a few
//! detail lines (the bishop's mitre cut, the knight's eye and mane). The
//! parts' union is the silhouette; around it a black edge, for a black
//! piece with a thin white line inside it; everything anti-aliased from
//! the exact distance to the outline ([`piece_image`]).
//!
//! Why an image, not egui paths: the window repaints every second while a
//! clock runs, and without a GPU (Mesa's llvmpipe) the thousands of small
//! triangles of 32 tessellated pieces doubled the CPU time of a repaint
//! (18.5 ms against 10.4 ms, `scripts/measure-idle`). The twelve pieces
//! are drawn once into one mipmapped texture; a board's pieces are then
//! two triangles each and one draw call, as the letter discs
//! ([`super::piece_disc`]) always were.

use std::sync::{Arc, Mutex};

use egui::{
    Color32, ColorImage, Context, Id, ImageData, Mesh, Pos2, Rect, TextureFilter, TextureHandle,
    TextureId, TextureOptions, TextureWrapMode, Vec2, pos2,
};
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

impl Part {
    /// Signed distance from `p` to the part's outline (negative inside),
    /// in unit coordinates. For a polygon, the largest distance to an
    /// edge's line: exact along the edges, a little short of the true
    /// distance past a corner, which only sharpens the outline there.
    fn distance(&self, p: Pos2) -> f32 {
        match self {
            Part::Circle(c, r) => (p - *c).length() - r,
            Part::Polygon(points) => {
                let n = points.len();
                // Outward normals point away from the centroid.
                let centre = points.iter().fold(Vec2::ZERO, |s, q| s + q.to_vec2()) / n as f32;
                (0..n)
                    .map(|i| {
                        let (a, b) = (points[i], points[(i + 1) % n]);
                        let along = (b - a).normalized();
                        let mut normal = Vec2::new(along.y, -along.x);
                        if normal.dot(a.to_vec2() - centre) < 0.0 {
                            normal = -normal;
                        }
                        normal.dot(p - a)
                    })
                    .fold(f32::MIN, f32::max)
            }
        }
    }
}

/// Distance from `p` to the segment `a`-`b`.
fn segment_distance(p: Pos2, [a, b]: [Pos2; 2]) -> f32 {
    let ab = b - a;
    let t = ((p - a).dot(ab) / ab.dot(ab)).clamp(0.0, 1.0);
    (p - (a + ab * t)).length()
}

/// The piece colours an image depends on: (edge, white, black, black's line).
pub type Inks = [Color32; 4];

pub fn inks(p: &Palette) -> Inks {
    [p.edge, p.white_piece, p.black_piece, p.black_piece_line]
}

fn mix(a: Color32, b: Color32, t: f32) -> Color32 {
    let m = |x: u8, y: u8| (f32::from(x) + (f32::from(y) - f32::from(x)) * t).round() as u8;
    Color32::from_rgb(m(a.r(), b.r()), m(a.g(), b.g()), m(a.b(), b.b()))
}

/// Side of each piece's image in pixels; mipmaps serve smaller squares.
pub const SIDE: usize = 192;

/// The edge's width as a share of the square.
pub const EDGE: f32 = 0.035;

/// One piece filling a `side`-pixel square image, transparent around it:
/// its silhouette (the union of its parts) in the piece's colour inside a
/// black edge (for a black piece: a thin line of `inks[3]` inside the
/// edge), and its detail lines; every boundary anti-aliased over a pixel.
pub fn piece_image(piece: Piece, side: usize, inks: Inks) -> ColorImage {
    let [edge_ink, white, black, line_ink] = inks;
    let (parts, lines) = shape(piece.role);
    let px = side as f32;
    let edge = EDGE * px;
    let (fill, ring_inner, detail) = match piece.color {
        Color::White => (white, edge_ink, edge_ink),
        Color::Black => (black, line_ink, line_ink),
    };
    // Black pieces: the line takes the inner 45 % of the edge.
    let line_width = match piece.color {
        Color::White => 0.0,
        Color::Black => edge * 0.45,
    };
    let detail_half = edge * 0.4;
    let cover = |d: f32| (0.5 - d).clamp(0.0, 1.0);
    let mut pixels = Vec::with_capacity(side * side);
    for y in 0..side {
        for x in 0..side {
            let p = pos2((x as f32 + 0.5) / px, (y as f32 + 0.5) / px);
            let d = parts
                .iter()
                .map(|part| part.distance(p))
                .fold(f32::MAX, f32::min)
                * px;
            let alpha = cover(d - edge);
            if alpha == 0.0 {
                pixels.push(Color32::TRANSPARENT);
                continue;
            }
            let ring = mix(edge_ink, ring_inner, cover(d - line_width));
            let inside = cover(d);
            let mut c = mix(ring, fill, inside);
            if inside > 0.0 {
                let dl = lines
                    .iter()
                    .map(|&l| segment_distance(p, l))
                    .fold(f32::MAX, f32::min)
                    * px;
                c = mix(c, detail, cover(dl - detail_half) * inside);
            }
            let a = (alpha * 255.0).round() as u8;
            pixels.push(Color32::from_rgba_unmultiplied(c.r(), c.g(), c.b(), a));
        }
    }
    ColorImage::new([side, side], pixels)
}

/// The twelve pieces in one image: White's in the top row, Black's in the
/// bottom row, each row in [`Role::ALL`] order.
pub fn atlas_image(side: usize, inks: Inks) -> ColorImage {
    let mut pixels = vec![Color32::TRANSPARENT; 6 * side * 2 * side];
    for (row, color) in [Color::White, Color::Black].into_iter().enumerate() {
        for (col, role) in Role::ALL.into_iter().enumerate() {
            let image = piece_image(role.of(color), side, inks);
            for y in 0..side {
                let start = (row * side + y) * 6 * side + col * side;
                pixels[start..start + side]
                    .copy_from_slice(&image.pixels[y * side..(y + 1) * side]);
            }
        }
    }
    ColorImage::new([6 * side, 2 * side], pixels)
}

/// Where a piece lies in the atlas.
pub fn uv(piece: Piece) -> Rect {
    let col = Role::ALL
        .iter()
        .position(|&r| r == piece.role)
        .expect("every role") as f32;
    let row = match piece.color {
        Color::White => 0.0,
        Color::Black => 1.0,
    };
    Rect::from_min_size(pos2(col / 6.0, row / 2.0), Vec2::new(1.0 / 6.0, 0.5))
}

/// The atlas, drawn on first use (once per process and colours: the
/// drawing takes a moment in a debug build) and uploaded once per window.
fn atlas(ctx: &Context, inks: Inks) -> TextureId {
    let id = Id::unique("rochade_piece_atlas").with(inks.map(|c| c.to_array()));
    if let Some(handle) = ctx.data(|d| d.get_temp::<TextureHandle>(id)) {
        return handle.id();
    }
    static DRAWN: Mutex<Vec<(Inks, Arc<ColorImage>)>> = Mutex::new(Vec::new());
    let image = {
        let mut drawn = DRAWN.lock().unwrap_or_else(|e| e.into_inner());
        match drawn.iter().find(|(k, _)| *k == inks) {
            Some((_, image)) => image.clone(),
            None => {
                let image = Arc::new(atlas_image(SIDE, inks));
                drawn.push((inks, image.clone()));
                image
            }
        }
    };
    let options = TextureOptions {
        magnification: TextureFilter::Linear,
        minification: TextureFilter::Linear,
        wrap_mode: TextureWrapMode::ClampToEdge,
        mipmap_mode: Some(TextureFilter::Linear),
    };
    let handle = ctx.load_texture("pieces", ImageData::Color(image), options);
    let texture = handle.id();
    ctx.data_mut(|d| d.insert_temp(id, handle));
    texture
}

/// One mesh with every piece of a board (each the square's rect and its
/// piece): two triangles a piece, one draw call for the board.
pub fn pieces(
    ctx: &Context,
    palette: &Palette,
    squares: impl IntoIterator<Item = (Rect, Piece)>,
) -> Mesh {
    let mut mesh = Mesh::with_texture(atlas(ctx, inks(palette)));
    for (rect, piece) in squares {
        mesh.add_rect_with_uv(rect, uv(piece), Color32::WHITE);
    }
    mesh
}

#[cfg(test)]
mod tests {
    use super::*;

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

    fn at(image: &ColorImage, x: f32, y: f32) -> Color32 {
        let side = image.size[0];
        let (x, y) = ((x * side as f32) as usize, (y * side as f32) as usize);
        image.pixels[y * side + x]
    }

    #[test]
    fn a_piece_is_filled_edged_and_transparent_around() {
        let inks = inks(&Palette::of(crate::config::Theme::DarkHighContrast));
        let side = 96;
        for role in Role::ALL {
            let white = piece_image(role.of(Color::White), side, inks);
            let black = piece_image(role.of(Color::Black), side, inks);
            // The plinth's middle: inside every piece.
            assert_eq!(at(&white, 0.3, 0.84), Color32::WHITE, "{role:?}");
            assert_eq!(at(&black, 0.3, 0.84), Color32::BLACK, "{role:?}");
            assert_eq!(at(&white, 0.02, 0.02), Color32::TRANSPARENT, "{role:?}");
            // Just outside the plinth's lower side: the edge, opaque black.
            let below = 0.88 + EDGE * 0.5;
            assert_eq!(at(&white, 0.5, below), Color32::BLACK, "{role:?}");
            assert_eq!(at(&black, 0.5, below), Color32::BLACK, "{role:?}");
        }
    }

    #[test]
    fn a_black_piece_has_a_light_line_inside_its_edge() {
        let inks = inks(&Palette::of(crate::config::Theme::DarkHighContrast));
        let side = 400;
        let black = piece_image(Role::Rook.of(Color::Black), side, inks);
        // Down the middle from below the plinth: transparent, black edge,
        // white line, black fill.
        let column: Vec<Color32> = (0..side)
            .rev()
            .map(|y| black.pixels[y * side + side / 4])
            .take(60)
            .collect();
        let first_white = column.iter().position(|&c| c == Color32::WHITE);
        let first_black = column.iter().position(|&c| c == Color32::BLACK);
        assert!(
            matches!((first_black, first_white), (Some(b), Some(w)) if b < w),
            "{column:?}"
        );
        assert_eq!(column.last(), Some(&Color32::BLACK), "the fill");
    }

    #[test]
    fn the_atlas_holds_each_piece_where_uv_says() {
        let inks = inks(&Palette::of(crate::config::Theme::YellowOnBlack));
        let side = 48;
        let atlas = atlas_image(side, inks);
        assert_eq!(atlas.size, [6 * side, 2 * side]);
        for color in [Color::White, Color::Black] {
            for role in Role::ALL {
                let piece = role.of(color);
                let r = uv(piece);
                let (x0, y0) = (
                    (r.min.x * 6.0 * side as f32).round() as usize,
                    (r.min.y * 2.0 * side as f32).round() as usize,
                );
                let one = piece_image(piece, side, inks);
                for y in 0..side {
                    let row = &atlas.pixels[(y0 + y) * 6 * side + x0..][..side];
                    assert_eq!(row, &one.pixels[y * side..(y + 1) * side], "{piece:?}");
                }
            }
        }
    }

    #[test]
    fn every_theme_draws_the_pieces_alike() {
        // One atlas serves all themes: the pieces' colours are the same.
        let first = inks(&Palette::of(crate::config::Theme::ALL[0]));
        for theme in crate::config::Theme::ALL {
            assert_eq!(inks(&Palette::of(theme)), first, "{theme:?}");
        }
    }
}
