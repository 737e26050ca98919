//! Every colour of a theme in one place, so that the window's style, the
//! board and the contrast test all read the same values.
//!
//! The board's rules (WCAG 2.2: 3:1 for graphics, 7:1 for text in these
//! high-contrast themes):
//! - both pieces end in a black edge, which stands out from both square
//!   colours because the dark square is never darker than about grey 90;
//! - a black piece has a thin white line inside that edge, so its shape
//!   reads on the dark square too;
//! - every mark (cursor, selection, last move, differences) is drawn twice:
//!   a black line and a bright line beside it, one of which stands out
//!   from each square.

use egui::Color32;

use crate::config::Theme;

/// The colours of one theme.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Palette {
    /// The window's background.
    pub background: Color32,
    /// All text.
    pub text: Color32,
    pub light_square: Color32,
    pub dark_square: Color32,
    /// The keyboard cursor's bright line.
    pub cursor: Color32,
    /// The bright line of the other marks (selection, differences, last move).
    pub mark: Color32,
    /// The dark line beside every bright mark line, and the pieces' edge.
    pub edge: Color32,
    pub white_piece: Color32,
    pub black_piece: Color32,
    /// The line inside a black piece's edge.
    pub black_piece_line: Color32,
}

impl Palette {
    pub fn of(theme: Theme) -> Palette {
        let common = Palette {
            background: Color32::BLACK,
            text: Color32::WHITE,
            light_square: Color32::from_gray(200),
            dark_square: Color32::from_gray(100),
            cursor: Color32::from_rgb(255, 230, 0),
            mark: Color32::from_rgb(255, 80, 220),
            edge: Color32::BLACK,
            white_piece: Color32::WHITE,
            black_piece: Color32::BLACK,
            black_piece_line: Color32::WHITE,
        };
        match theme {
            Theme::DarkHighContrast => common,
            Theme::LightHighContrast => Palette {
                background: Color32::WHITE,
                text: Color32::BLACK,
                light_square: Color32::from_gray(235),
                dark_square: Color32::from_gray(125),
                cursor: Color32::from_rgb(0, 200, 255),
                mark: Color32::from_rgb(255, 120, 0),
                ..common
            },
            Theme::YellowOnBlack => Palette {
                text: Color32::YELLOW,
                light_square: Color32::from_rgb(225, 205, 90),
                dark_square: Color32::from_rgb(125, 110, 30),
                cursor: Color32::from_rgb(0, 230, 255),
                ..common
            },
        }
    }

    /// The colour of the large square names on a light or dark square:
    /// black or white, whichever stands out more.
    pub fn square_name(&self, light: bool) -> Color32 {
        let ground = self.square(light);
        if contrast(self.edge, ground) >= contrast(self.black_piece_line, ground) {
            self.edge
        } else {
            self.black_piece_line
        }
    }

    /// The square colour of `light` squares or dark ones.
    pub fn square(&self, light: bool) -> Color32 {
        if light {
            self.light_square
        } else {
            self.dark_square
        }
    }
}

/// The least size of any text at zoom 1.0, in points.
pub const MIN_TEXT: f32 = 14.0;

/// The window's style in `theme`: the palette's colours on egui's widgets,
/// no text smaller than [`MIN_TEXT`], a steady text cursor.
pub fn style(theme: Theme, base: &egui::Style) -> egui::Style {
    let p = Palette::of(theme);
    let mut style = base.clone();
    let mut visuals = if p.background == Color32::WHITE {
        egui::Visuals::light()
    } else {
        egui::Visuals::dark()
    };
    let text = p.text;
    visuals.override_text_color = Some(text);
    // A steady cursor: blinking costs a repaint twice a second (most of
    // the idle CPU while a clock runs) and distracts low-vision users
    // (WCAG 2.2.2).
    visuals.text_cursor.blink = false;
    visuals.panel_fill = p.background;
    visuals.window_fill = p.background;
    visuals.extreme_bg_color = p.background;
    visuals.window_stroke = egui::Stroke::new(2.0, text);
    visuals.selection.stroke = egui::Stroke::new(3.0, text);
    visuals.hyperlink_color = text;
    if p.background != Color32::WHITE {
        // egui's selection blue is too light under yellow text (6.9:1).
        visuals.selection.bg_fill = Color32::from_rgb(0, 60, 100);
    }
    visuals.warn_fg_color = text;
    visuals.error_fg_color = text;
    for w in [
        &mut visuals.widgets.inactive,
        &mut visuals.widgets.hovered,
        &mut visuals.widgets.active,
        &mut visuals.widgets.open,
        &mut visuals.widgets.noninteractive,
    ] {
        w.bg_stroke = egui::Stroke::new(2.0, text);
        w.fg_stroke = egui::Stroke::new(2.0, text);
    }
    style.visuals = visuals;
    use egui::{FontFamily, FontId, TextStyle};
    style.text_styles = [
        (
            TextStyle::Small,
            FontId::new(MIN_TEXT, FontFamily::Proportional),
        ),
        (TextStyle::Body, FontId::new(16.0, FontFamily::Proportional)),
        (
            TextStyle::Button,
            FontId::new(16.0, FontFamily::Proportional),
        ),
        (
            TextStyle::Monospace,
            FontId::new(16.0, FontFamily::Monospace),
        ),
        (
            TextStyle::Heading,
            FontId::new(22.0, FontFamily::Proportional),
        ),
    ]
    .into();
    style
}

/// WCAG 2.2 relative luminance of an sRGB colour (alpha ignored).
pub fn luminance(c: Color32) -> f64 {
    let channel = |v: u8| {
        let v = f64::from(v) / 255.0;
        if v <= 0.04045 {
            v / 12.92
        } else {
            ((v + 0.055) / 1.055).powf(2.4)
        }
    };
    0.2126 * channel(c.r()) + 0.7152 * channel(c.g()) + 0.0722 * channel(c.b())
}

/// WCAG contrast ratio between two colours, 1.0 to 21.0.
pub fn contrast(a: Color32, b: Color32) -> f64 {
    let (la, lb) = (luminance(a), luminance(b));
    (la.max(lb) + 0.05) / (la.min(lb) + 0.05)
}

/// The contrast of a mark drawn as a `bright` line beside an `edge` line
/// against `ground`: the better of the two lines.
pub fn mark_contrast(bright: Color32, edge: Color32, ground: Color32) -> f64 {
    contrast(bright, ground).max(contrast(edge, ground))
}

/// Every contrast the themes promise, by name, for the test and the report.
pub fn contrasts(theme: Theme) -> Vec<(String, f64)> {
    let p = Palette::of(theme);
    let mut out = vec![
        (
            "text on background".to_string(),
            contrast(p.text, p.background),
        ),
        (
            "coordinates on background".to_string(),
            contrast(p.text, p.background),
        ),
    ];
    for (name, ground) in [("light", p.light_square), ("dark", p.dark_square)] {
        out.push((
            format!("white piece edge on {name} square"),
            contrast(p.edge, ground),
        ));
        out.push((
            format!("black piece edge on {name} square"),
            contrast(p.edge, ground),
        ));
        out.push((
            format!("cursor on {name} square"),
            mark_contrast(p.cursor, p.edge, ground),
        ));
        out.push((
            format!("mark on {name} square"),
            mark_contrast(p.mark, p.edge, ground),
        ));
        out.push((
            format!("large square name on {name} square"),
            contrast(p.square_name(ground == p.light_square), ground),
        ));
    }
    out.push((
        "light square on dark square".into(),
        contrast(p.light_square, p.dark_square),
    ));
    out.push((
        "white piece on its edge".into(),
        contrast(p.white_piece, p.edge),
    ));
    out.push((
        "black piece line on black piece".into(),
        contrast(p.black_piece_line, p.black_piece),
    ));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_ratios() {
        assert!((contrast(Color32::WHITE, Color32::BLACK) - 21.0).abs() < 1e-9);
        assert!((contrast(Color32::BLACK, Color32::BLACK) - 1.0).abs() < 1e-9);
        // #777 on white is the classic 4.48:1.
        let grey = contrast(Color32::from_gray(0x77), Color32::WHITE);
        assert!((grey - 4.48).abs() < 0.01, "{grey}");
    }

    /// Every theme: text 7:1 (WCAG AAA), pieces, marks and the squares
    /// against each other 3:1 (WCAG 1.4.11).
    #[test]
    fn every_theme_meets_wcag() {
        for theme in Theme::ALL {
            let all = contrasts(theme);
            let lowest = all
                .iter()
                .min_by(|a, b| a.1.total_cmp(&b.1))
                .expect("some contrasts");
            println!("{theme:?}: lowest {:.2}:1 ({})", lowest.1, lowest.0);
            for (what, ratio) in &all {
                println!("  {what}: {ratio:.2}:1");
            }
            for (what, ratio) in all {
                let needed = if what.contains("text") || what.contains("coordinates") {
                    7.0
                } else if what.contains("square name") {
                    // Large text (a third of a square): WCAG AAA asks 4.5:1.
                    4.5
                } else {
                    3.0
                };
                assert!(
                    ratio >= needed,
                    "{theme:?}: {what} is {ratio:.2}:1, needs {needed}:1"
                );
            }
        }
    }

    #[test]
    fn the_style_uses_the_palette() {
        for theme in Theme::ALL {
            let p = Palette::of(theme);
            let style = style(theme, &egui::Style::default());
            assert_eq!(style.visuals.override_text_color, Some(p.text), "{theme:?}");
            assert_eq!(style.visuals.panel_fill, p.background, "{theme:?}");
            // Text on every widget background egui paints behind it.
            let v = &style.visuals;
            for (what, ground) in [
                ("button", v.widgets.inactive.weak_bg_fill),
                ("hovered button", v.widgets.hovered.weak_bg_fill),
                ("pressed button", v.widgets.active.weak_bg_fill),
                ("open menu", v.widgets.open.weak_bg_fill),
                ("selection", v.selection.bg_fill),
                ("text field", v.extreme_bg_color),
                ("window", v.window_fill),
            ] {
                let ratio = contrast(p.text, ground);
                println!("{theme:?}: text on {what}: {ratio:.2}:1");
                assert!(ratio >= 7.0, "{theme:?}: text on {what} is {ratio:.2}:1");
            }
            for (name, font) in &style.text_styles {
                assert!(font.size >= 14.0, "{theme:?}: {name:?} is {}", font.size);
            }
        }
    }
}
