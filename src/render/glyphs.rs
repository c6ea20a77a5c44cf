//! The glyph atlas: characters rasterised by fontdue at the exact pixel size asked for (so
//! text is crisp at every UI scale), packed on shelves into one RGBA texture. Texel (0, 0) is
//! white, for solid fills.

use std::collections::BTreeMap;

use crate::content::limits::MAX_GLYPH_PX;
use crate::ui::font::Fonts;

/// Side of the glyph atlas in pixels.
pub const ATLAS: u32 = 1024;

/// Where a glyph lies in the atlas and how to place it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Glyph {
    /// Atlas rectangle (x, y, w, h).
    pub rect: (u32, u32, u32, u32),
    /// Offset from the pen position to the bitmap's left edge.
    pub xmin: f32,
    /// Offset from the baseline up to the bitmap's bottom edge.
    pub ymin: f32,
    /// Advance to the next pen position.
    pub advance: f32,
}

/// Rasterised glyphs and the atlas pixels (uploaded when dirty).
pub struct GlyphCache {
    /// RGBA pixels.
    pub pixels: Vec<u8>,
    /// By character, size (quarter pixels), weight and face.
    glyphs: BTreeMap<(char, u32, bool, u16), Glyph>,
    shelf_x: u32,
    shelf_y: u32,
    shelf_h: u32,
    /// True when pixels changed since the last upload.
    pub dirty: bool,
}

impl Default for GlyphCache {
    fn default() -> Self {
        let mut pixels = vec![0u8; (ATLAS * ATLAS * 4) as usize];
        pixels[..16].copy_from_slice(&[255; 16]); // 2×1 white texels for fills
        pixels[(ATLAS * 4) as usize..(ATLAS * 4) as usize + 8].copy_from_slice(&[255; 8]);
        GlyphCache { pixels, glyphs: BTreeMap::new(), shelf_x: 4, shelf_y: 0, shelf_h: 4, dirty: true }
    }
}

impl GlyphCache {
    /// The glyph for a character at a size in a face (0: the game's; see `Fonts::font`),
    /// rasterising it on first use. When the atlas is full
    /// it is cleared and filled again (the frame's text still fits). Sizes are clamped to
    /// [`MAX_GLYPH_PX`]; a glyph that could never fit the atlas is drawn as nothing.
    pub fn glyph(&mut self, fonts: &Fonts, face: u16, c: char, px: f32, bold: bool) -> Glyph {
        let px = if px.is_finite() { px.clamp(0.0, MAX_GLYPH_PX) } else { 0.0 };
        let key = (c, (px * 4.0).round() as u32, bold, face);
        if let Some(g) = self.glyphs.get(&key) {
            return *g;
        }
        let (m, bitmap) = fonts.font(face, bold).rasterize(c, px);
        let (w, h) = (m.width as u32, m.height as u32);
        if w + 5 > ATLAS || h + 1 > ATLAS || bitmap.len() < (w * h) as usize {
            let g = Glyph { rect: (0, 0, 0, 0), xmin: 0.0, ymin: 0.0, advance: m.advance_width };
            self.glyphs.insert(key, g);
            return g;
        }
        if self.shelf_x + w + 1 > ATLAS {
            self.shelf_x = 0;
            self.shelf_y += self.shelf_h + 1;
            self.shelf_h = 0;
        }
        if self.shelf_y + h + 1 > ATLAS {
            // Full: start again (the glyph fits an empty atlas, checked above).
            *self = GlyphCache::default();
        }
        let (x0, y0) = (self.shelf_x, self.shelf_y);
        for y in 0..h {
            for x in 0..w {
                let a = bitmap[(y * w + x) as usize];
                let i = (((y0 + y) * ATLAS + x0 + x) * 4) as usize;
                self.pixels[i..i + 4].copy_from_slice(&[255, 255, 255, a]);
            }
        }
        self.shelf_x += w + 1;
        self.shelf_h = self.shelf_h.max(h);
        self.dirty = true;
        let g = Glyph { rect: (x0, y0, w, h), xmin: m.xmin as f32, ymin: m.ymin as f32, advance: m.advance_width };
        self.glyphs.insert(key, g);
        g
    }
}
