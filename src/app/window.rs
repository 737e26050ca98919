//! The window itself: its words (the interface language), the banner at
//! the top, the title last sent, whether it was fitted to the screen, and
//! the style (theme, text size) applied to it.

use std::time::Instant;

use super::palette;
use crate::config::{DisplaySettings, Theme};

/// What the app keeps of the window between frames.
pub struct Window {
    /// The interface's words, in the interface language.
    pub ui: super::UiText,
    /// A problem shown in the banner at the top (settings, speech, sound,
    /// a board), until another replaces it.
    pub note: Option<String>,
    /// Frames are traced from here (ROCHADE_TRACE_FRAMES).
    pub trace_frames: Option<Instant>,
    /// The title last sent (it says the game state).
    pub title: String,
    /// Whether the window was checked against the screen's size.
    fitted: bool,
    /// The theme and text size (in hundredths) applied last.
    style: Option<(Theme, u32)>,
    /// Closing was confirmed (or nothing needed asking): it closes.
    pub close_allowed: bool,
}

impl Window {
    pub fn new(ui: super::UiText, note: Option<String>, trace_frames: Option<Instant>) -> Window {
        Window {
            ui,
            note,
            trace_frames,
            title: String::new(),
            fitted: false,
            style: None,
            close_allowed: false,
        }
    }

    /// Sends `title` when it differs from the one last sent.
    pub fn set_title(&mut self, ctx: &egui::Context, title: String) {
        if self.title != title {
            ctx.send_viewport_cmd(egui::ViewportCommand::Title(title.clone()));
            self.title = title;
        }
    }

    /// Makes a window larger than its screen fit it, once the screen's
    /// size is known ([`super::layout::fit_to_screen`]).
    pub fn fit(&mut self, ctx: &egui::Context) {
        super::layout::fit_to_screen(ctx, &mut self.fitted);
    }

    /// The style is applied again in the next frame (the settings changed).
    pub fn restyle(&mut self) {
        self.style = None;
    }

    /// Applies the theme and text size of `display`, when they changed.
    pub fn apply_style(&mut self, ctx: &egui::Context, display: &DisplaySettings) {
        let key = (display.theme, (display.scale() * 100.0) as u32);
        if self.style == Some(key) {
            return;
        }
        self.style = Some(key);
        let theme = display.theme;
        ctx.all_styles_mut(|style| {
            *style = palette::style(theme, style);
            // A selectable label is a text object on AT-SPI, and Orca 43's
            // flat review reads text objects with a method AccessKit does
            // not offer (GetTextAtOffset): the whole review failed and read
            // nothing. A plain label is read by its name.
            style.interaction.selectable_labels = false;
        });
        ctx.set_zoom_factor(display.scale());
    }
}
