//! Text measurement and line layout with the game's fonts (Noto Sans from the `notosans`
//! crate, rasterised by fontdue). The UI lays text out here; the renderer only draws glyphs at
//! the positions decided here, at the scaled pixel size, so text stays crisp at every size.

use fontdue::{Font, FontSettings, Metrics};

/// Anything that can measure text (the real fonts, or a fixed-width stand-in in tests).
pub trait TextMeasure {
    /// Advance width of a string at a pixel size.
    fn width(&self, text: &str, px: f32, bold: bool) -> f32;
    /// Distance between lines at a pixel size.
    fn line_height(&self, px: f32) -> f32 {
        (px * 1.25).ceil()
    }
}

/// The game's two faces.
pub struct Fonts {
    /// Regular weight.
    pub regular: Font,
    /// Bold weight.
    pub bold: Font,
}

impl std::fmt::Debug for Fonts {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Fonts")
    }
}

impl Fonts {
    /// Loads the faces bundled with the game (Noto Sans, SIL OFL 1.1).
    pub fn load() -> Result<Fonts, &'static str> {
        let settings = FontSettings { scale: 40.0, ..FontSettings::default() };
        Ok(Fonts {
            regular: Font::from_bytes(notosans::REGULAR_TTF, settings)?,
            bold: Font::from_bytes(notosans::BOLD_TTF, settings)?,
        })
    }

    /// The face for a weight.
    pub fn face(&self, bold: bool) -> &Font {
        if bold { &self.bold } else { &self.regular }
    }

    /// Glyph metrics.
    pub fn metrics(&self, c: char, px: f32, bold: bool) -> Metrics {
        self.face(bold).metrics(c, px)
    }

    /// Distance from the top of a line box to the baseline.
    pub fn ascent(&self, px: f32, bold: bool) -> f32 {
        self.face(bold).horizontal_line_metrics(px).map_or(px * 0.8, |m| m.ascent)
    }
}

impl TextMeasure for Fonts {
    fn width(&self, text: &str, px: f32, bold: bool) -> f32 {
        let face = self.face(bold);
        text.chars().map(|c| face.metrics(c, px).advance_width).sum()
    }

    fn line_height(&self, px: f32) -> f32 {
        self.regular.horizontal_line_metrics(px).map_or(px * 1.25, |m| m.new_line_size).ceil()
    }
}

/// A fixed-width measure for headless tests: every character is `px / 2` wide.
#[derive(Clone, Copy, Debug, Default)]
pub struct FixedMeasure;

impl TextMeasure for FixedMeasure {
    fn width(&self, text: &str, px: f32, _bold: bool) -> f32 {
        text.chars().count() as f32 * px / 2.0
    }
}

/// Breaks text into lines no wider than `max` (words kept whole where they fit; `\n` breaks).
pub fn wrap(m: &dyn TextMeasure, text: &str, px: f32, bold: bool, max: f32) -> Vec<String> {
    let mut lines = Vec::new();
    for para in text.split('\n') {
        let mut line = String::new();
        for word in para.split(' ') {
            let candidate = if line.is_empty() { word.to_string() } else { format!("{line} {word}") };
            if m.width(&candidate, px, bold) <= max || line.is_empty() {
                line = candidate;
            } else {
                lines.push(std::mem::take(&mut line));
                line = word.to_string();
            }
        }
        lines.push(line);
    }
    lines
}
