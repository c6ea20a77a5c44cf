//! Text measurement and line layout with the game's fonts (Noto Sans from the `notosans`
//! crate, rasterised by fontdue) and the faces mods bring (`ui/fonts/<Name>.ttf|otf`, named in
//! a layout's `FONT` by the file's stem; `<Name>-Bold` is its bold). The UI lays text out
//! here; the renderer only draws glyphs at the positions decided here, at the scaled pixel
//! size, so text stays crisp at every size. A face is a number: 0 is the game's own, used for
//! every name no mod's font file has.
//!
//! Must not: read files (the shell hands in the mods' font files' bytes).

use fontdue::{Font, FontSettings, Metrics};

/// Anything that can measure text (the real fonts, or a fixed-width stand-in in tests).
pub trait TextMeasure {
    /// Advance width of a string at a pixel size.
    fn width(&self, text: &str, px: f32, bold: bool) -> f32;
    /// Distance between lines at a pixel size.
    fn line_height(&self, px: f32) -> f32 {
        (px * 1.25).ceil()
    }
    /// Advance width of a string in face `face` (see [`Fonts::face_id`]); the game's face when
    /// the measure has no such face.
    fn width_in(&self, face: u16, text: &str, px: f32, bold: bool) -> f32 {
        let _ = face;
        self.width(text, px, bold)
    }
    /// The face a layout's `FONT` name draws with (0: the game's own).
    fn face_of(&self, name: &str) -> u16 {
        let _ = name;
        0
    }
}

/// A measure that measures in one face: what a window's text is laid out with.
pub struct InFace<'a> {
    /// The measure underneath.
    pub inner: &'a dyn TextMeasure,
    /// The face.
    pub face: u16,
}

impl TextMeasure for InFace<'_> {
    fn width(&self, text: &str, px: f32, bold: bool) -> f32 {
        self.inner.width_in(self.face, text, px, bold)
    }
    fn line_height(&self, px: f32) -> f32 {
        self.inner.line_height(px)
    }
}

/// A font file a mod brings, read: the name layouts give it (the file's stem, without a
/// `-Bold` ending), whether it is that name's bold, its bytes and where it came from.
#[derive(Clone, Debug)]
pub struct FontFile {
    /// The name `FONT = NAME: "…"` gives it.
    pub name: String,
    /// The bold face of that name.
    pub bold: bool,
    /// The file's bytes.
    pub bytes: Vec<u8>,
    /// The file, for messages.
    pub path: String,
}

/// A mod's face: its name, regular and (if the mod has one) bold.
struct ModFace {
    name: String,
    regular: Font,
    bold: Option<Font>,
}

/// The game's two faces, and the mods'.
pub struct Fonts {
    /// Regular weight.
    pub regular: Font,
    /// Bold weight.
    pub bold: Font,
    /// The mods' faces: face `i + 1`.
    mods: Vec<ModFace>,
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
            mods: Vec::new(),
        })
    }

    /// Adds the mods' font files (the first of a name and weight wins: the front mod's);
    /// the problems of those fontdue cannot read, each naming its file (they are left out).
    pub fn with_files(mut self, files: &[FontFile]) -> (Fonts, Vec<String>) {
        let settings = FontSettings { scale: 40.0, ..FontSettings::default() };
        let mut problems = Vec::new();
        for f in files {
            let font = match Font::from_bytes(f.bytes.as_slice(), settings) {
                Ok(font) => font,
                Err(e) => {
                    problems.push(format!("{}: not a font fontdue can read ({e}): left out", f.path));
                    continue;
                }
            };
            match self.mods.iter_mut().find(|m| m.name.eq_ignore_ascii_case(&f.name)) {
                Some(m) if f.bold && m.bold.is_none() => m.bold = Some(font),
                Some(_) => {}
                // A bold alone stands for the name's regular too.
                None => self.mods.push(ModFace { name: f.name.clone(), regular: font, bold: None }),
            }
        }
        (self, problems)
    }

    /// The face a layout's font name draws with: a mod's font of that name (any case), else
    /// 0, the game's own.
    pub fn face_id(&self, name: &str) -> u16 {
        self.mods
            .iter()
            .position(|m| m.name.eq_ignore_ascii_case(name))
            .and_then(|i| u16::try_from(i + 1).ok())
            .unwrap_or(0)
    }

    /// The names of the mods' faces.
    pub fn mod_names(&self) -> Vec<String> {
        self.mods.iter().map(|m| m.name.clone()).collect()
    }

    /// The font of face `face` (0 or unknown: the game's) at a weight: a mod's face without a
    /// bold draws bold text in its regular.
    pub fn font(&self, face: u16, bold: bool) -> &Font {
        match usize::from(face).checked_sub(1).and_then(|i| self.mods.get(i)) {
            Some(m) if bold => m.bold.as_ref().unwrap_or(&m.regular),
            Some(m) => &m.regular,
            None => self.face(bold),
        }
    }

    /// Distance from the top of a line box to the baseline, in face `face`.
    pub fn ascent_in(&self, face: u16, px: f32, bold: bool) -> f32 {
        self.font(face, bold).horizontal_line_metrics(px).map_or(px * 0.8, |m| m.ascent)
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

    fn width_in(&self, face: u16, text: &str, px: f32, bold: bool) -> f32 {
        let font = self.font(face, bold);
        text.chars().map(|c| font.metrics(c, px).advance_width).sum()
    }

    fn face_of(&self, name: &str) -> u16 {
        self.face_id(name)
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
    wrap_words(m, text, px, bold, max, false)
}

/// [`wrap`], and a word wider than a line (a long path in a message) is broken where it fits,
/// after a `/` or `:` when it can be, rather than running past both edges.
pub fn wrap_breaking(m: &dyn TextMeasure, text: &str, px: f32, bold: bool, max: f32) -> Vec<String> {
    wrap_words(m, text, px, bold, max, true)
}

fn wrap_words(m: &dyn TextMeasure, text: &str, px: f32, bold: bool, max: f32, break_words: bool) -> Vec<String> {
    let mut lines = Vec::new();
    for para in text.split('\n') {
        let mut line = String::new();
        for long in para.split(' ') {
            let mut pieces = if break_words { pieces(m, long, px, bold, max) } else { vec![long.to_string()] };
            let Some(word) = pieces.pop() else { continue };
            for piece in pieces {
                if !line.is_empty() {
                    lines.push(std::mem::take(&mut line));
                }
                lines.push(piece);
            }
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

/// `word` cut into pieces no wider than `max` (each at least one character), the cuts after
/// the last `/`, `\\` or `:` that fits where there is one; one piece when it fits.
fn pieces(m: &dyn TextMeasure, word: &str, px: f32, bold: bool, max: f32) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = word;
    while m.width(rest, px, bold) > max {
        let ends: Vec<usize> = rest.char_indices().map(|(i, c)| i + c.len_utf8()).collect();
        let fits = ends.iter().take_while(|&&e| m.width(&rest[..e], px, bold) <= max).count().max(1);
        let cut = (0..fits).rev().find(|&k| rest[..ends[k]].ends_with(['/', '\\', ':'])).map_or(fits - 1, |k| k);
        let at = ends[cut];
        if at >= rest.len() {
            break;
        }
        out.push(rest[..at].to_string());
        rest = &rest[at..];
    }
    out.push(rest.to_string());
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_word_longer_than_the_line_is_broken_after_a_slash_or_colon_and_keeps_its_ends() {
        // FixedMeasure: every character is half the pixel size wide.
        let path = "/tmp/mods/a-long-mod-name/ui/MainMenu.wnd:123:45: unknown key";
        let lines = wrap_breaking(&FixedMeasure, path, 10.0, false, 120.0);
        assert!(lines.iter().all(|l| FixedMeasure.width(l, 10.0, false) <= 120.0), "{lines:?}");
        assert_eq!(lines.concat().replace(' ', ""), path.replace(' ', ""), "nothing lost: {lines:?}");
        assert!(lines[0].ends_with('/'), "cut after a slash: {lines:?}");
        assert!(lines.iter().any(|l| l.contains(":123:45:")) || lines.concat().contains(":123:45:"));
        // Plain wrapping keeps words whole.
        assert_eq!(
            wrap(&FixedMeasure, path, 10.0, false, 120.0)[0],
            "/tmp/mods/a-long-mod-name/ui/MainMenu.wnd:123:45:"
        );
    }
}
