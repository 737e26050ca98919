//! The round piece tokens of the board, drawn from one image made once: a
//! white disc with a black ring beside a black disc with a white ring.
//!
//! Why images: egui draws a circle as a fan of long, thin triangles with
//! an anti-aliasing strip around its fill and its ring. A graphics card
//! does not notice, but a software renderer (Mesa's llvmpipe, what a
//! machine without a GPU uses) spent more than half of every frame on the
//! 64 pieces of the two boards, and the window repaints every second
//! while a clock runs. One textured square per piece looks the same and
//! costs two triangles, and all the pieces of a board are one draw call.
//! The image is mipmapped so that the edge stays smooth at every size.

use egui::{
    Color32, ColorImage, Context, Id, Mesh, Rect, TextureFilter, TextureHandle, TextureId,
    TextureOptions, TextureWrapMode, pos2,
};
use shakmaty::Color;

/// Side of each disc image in pixels: large enough for a board filling a
/// 4K screen; mipmaps serve the smaller sizes.
pub const SIDE: usize = 256;

/// The ring's width as a share of the disc's radius: about 2 pixels on a
/// 90-pixel square, as the ring always had.
const RING: f32 = 0.06;

/// A disc filling the image, `fill` inside a ring of `ink`, transparent
/// outside, with a one-pixel anti-aliased edge on both boundaries.
pub fn disc_image(fill: Color32, ink: Color32) -> ColorImage {
    let centre = SIDE as f32 / 2.0;
    let radius = centre - 1.0;
    let ring_starts = radius * (1.0 - RING);
    let mix =
        |a: u8, b: u8, t: f32| (f32::from(a) + (f32::from(b) - f32::from(a)) * t).round() as u8;
    let mut pixels = Vec::with_capacity(SIDE * SIDE);
    for y in 0..SIDE {
        for x in 0..SIDE {
            let (dx, dy) = (x as f32 + 0.5 - centre, y as f32 + 0.5 - centre);
            let d = (dx * dx + dy * dy).sqrt();
            let coverage = (radius - d + 0.5).clamp(0.0, 1.0);
            let t = (d - ring_starts + 0.5).clamp(0.0, 1.0);
            pixels.push(Color32::from_rgba_unmultiplied(
                mix(fill.r(), ink.r(), t),
                mix(fill.g(), ink.g(), t),
                mix(fill.b(), ink.b(), t),
                (coverage * 255.0).round() as u8,
            ));
        }
    }
    ColorImage::new([SIDE, SIDE], pixels)
}

/// The (fill, ring) colours of a side's pieces.
pub fn colours(side: Color) -> (Color32, Color32) {
    match side {
        Color::White => (Color32::WHITE, Color32::BLACK),
        Color::Black => (Color32::BLACK, Color32::WHITE),
    }
}

/// Where a side's disc lies in the atlas (white left, black right).
pub fn uv(side: Color) -> Rect {
    let left = match side {
        Color::White => 0.0,
        Color::Black => 0.5,
    };
    Rect::from_min_max(pos2(left, 0.0), pos2(left + 0.5, 1.0))
}

/// Both discs side by side in one image, so that all the pieces of a
/// board are one mesh and one draw call.
pub fn atlas_image() -> ColorImage {
    let discs = [Color::White, Color::Black].map(|side| {
        let (fill, ink) = colours(side);
        disc_image(fill, ink)
    });
    let mut pixels = Vec::with_capacity(2 * SIDE * SIDE);
    for y in 0..SIDE {
        for disc in &discs {
            pixels.extend_from_slice(&disc.pixels[y * SIDE..(y + 1) * SIDE]);
        }
    }
    ColorImage::new([2 * SIDE, SIDE], pixels)
}

/// The atlas, uploaded on first use and kept in the context for the life
/// of the window.
fn atlas(ctx: &Context) -> TextureId {
    let id = Id::unique("rochade_piece_discs");
    if let Some(handle) = ctx.data(|d| d.get_temp::<TextureHandle>(id)) {
        return handle.id();
    }
    let options = TextureOptions {
        magnification: TextureFilter::Linear,
        minification: TextureFilter::Linear,
        wrap_mode: TextureWrapMode::ClampToEdge,
        mipmap_mode: Some(TextureFilter::Linear),
    };
    let handle = ctx.load_texture("piece discs", atlas_image(), options);
    let texture = handle.id();
    ctx.data_mut(|d| d.insert_temp(id, handle));
    texture
}

/// One mesh with a disc for each (square, side): the pieces of a board.
pub fn discs(ctx: &Context, pieces: impl IntoIterator<Item = (Rect, Color)>) -> Mesh {
    let mut mesh = Mesh::with_texture(atlas(ctx));
    for (rect, side) in pieces {
        mesh.add_rect_with_uv(rect, uv(side), Color32::WHITE);
    }
    mesh
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(image: &ColorImage, x: usize, y: usize) -> Color32 {
        image.pixels[y * SIDE + x]
    }

    #[test]
    fn a_disc_is_filled_ringed_and_transparent_outside() {
        let (fill, ink) = colours(Color::White);
        let disc = disc_image(fill, ink);
        let c = SIDE / 2;
        assert_eq!(at(&disc, c, c), Color32::WHITE, "centre");
        assert_eq!(at(&disc, c, SIDE / 8), Color32::WHITE, "well inside");
        // Halfway through the ring, left of the centre and below it.
        let ring_middle = (SIDE as f32 / 2.0 - 1.0) * RING / 2.0;
        assert_eq!(at(&disc, 1 + ring_middle as usize, c), Color32::BLACK);
        assert_eq!(
            at(&disc, c, SIDE - 2 - ring_middle as usize),
            Color32::BLACK
        );
        assert_eq!(at(&disc, 0, 0), Color32::TRANSPARENT, "corner");
        assert_eq!(at(&disc, SIDE - 1, SIDE - 1), Color32::TRANSPARENT);
    }

    #[test]
    fn the_edge_is_anti_aliased_not_stepped() {
        let disc = disc_image(Color32::BLACK, Color32::WHITE);
        // From the corner towards the centre along the diagonal, where the
        // edge crosses pixels rather than running along their borders.
        let diagonal: Vec<u8> = (0..SIDE / 2).map(|i| at(&disc, i, i).a()).collect();
        assert!(diagonal.iter().any(|&a| a > 0 && a < 255), "{diagonal:?}");
        assert!(
            diagonal.windows(2).all(|w| w[0] <= w[1]),
            "alpha only grows inwards"
        );
        assert_eq!((diagonal[0], diagonal[SIDE / 2 - 1]), (0, 255));
    }

    #[test]
    fn the_atlas_holds_the_white_disc_left_and_the_black_disc_right() {
        let atlas = atlas_image();
        assert_eq!(atlas.size, [2 * SIDE, SIDE]);
        let c = SIDE / 2;
        let at2 = |x: usize, y: usize| atlas.pixels[y * 2 * SIDE + x];
        assert_eq!(at2(c, c), Color32::WHITE);
        assert_eq!(at2(SIDE + c, c), Color32::BLACK);
        let (white, black) = (uv(Color::White), uv(Color::Black));
        assert!(white.contains(pos2(0.25, 0.5)) && black.contains(pos2(0.75, 0.5)));
        assert_eq!(white.width() + black.width(), 1.0);
    }

    #[test]
    fn black_pieces_are_the_negative_of_white_ones() {
        let (wf, wi) = colours(Color::White);
        let (bf, bi) = colours(Color::Black);
        assert_eq!((wf, wi), (bi, bf));
    }
}
