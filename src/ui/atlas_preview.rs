//! A contact sheet of an image table: every named image cut out of its atlas, drawn on a
//! chequered ground (so transparency shows) in a grid, each labelled with its name and
//! rectangle, so a flipped texture, an empty alpha channel or a bad rectangle is seen at once.
//! `ridgeline ui-import --preview` writes one after an import.
//!
//! Must not: write files (the caller does), or change the table it shows.

use fontdue::Font;
use image::{Rgba, RgbaImage};

use super::font::Fonts;
use super::images::ImageSet;

/// Columns of the grid.
const COLUMNS: u32 = 6;
/// A cell's width and the picture box inside it.
const CELL_W: u32 = 176;
const BOX_W: u32 = 160;
const BOX_H: u32 = 120;
/// The label's text size and its lines under the picture.
const TEXT_PX: f32 = 13.0;
const LABEL_LINES: u32 = 3;
const LINE_H: u32 = 16;
const CELL_H: u32 = BOX_H + 8 + LABEL_LINES * LINE_H + 8;
const TITLE_H: u32 = 30;
/// The most cells drawn (the rest are counted in the title).
const MAX_CELLS: usize = 600;

const BACKGROUND: Rgba<u8> = Rgba([34, 36, 42, 255]);
const TEXT: Rgba<u8> = Rgba([235, 235, 235, 255]);
const DIM_TEXT: Rgba<u8> = Rgba([160, 170, 185, 255]);
const OUTLINE: Rgba<u8> = Rgba([255, 0, 220, 255]);

/// The contact sheet of `set` over `atlas` (the set's atlas picture), titled `title`.
pub fn picture(set: &ImageSet, atlas: &RgbaImage, fonts: &Fonts, title: &str) -> RgbaImage {
    let shown = set.images.len().min(MAX_CELLS) as u32;
    let rows = shown.div_ceil(COLUMNS).max(1);
    let mut out = RgbaImage::from_pixel(COLUMNS * CELL_W, TITLE_H + rows * CELL_H, BACKGROUND);
    let mut heading = format!("{title}: {} image(s)", set.images.len());
    if set.images.len() > MAX_CELLS {
        heading.push_str(&format!(", the first {MAX_CELLS} shown"));
    }
    text(&mut out, &fonts.bold, &heading, 8, 8, 16.0, TEXT);
    for (i, (name, region)) in set.images.iter().take(MAX_CELLS).enumerate() {
        let (col, row) = (i as u32 % COLUMNS, i as u32 / COLUMNS);
        let (cx, cy) = (col * CELL_W + (CELL_W - BOX_W) / 2, TITLE_H + row * CELL_H + 4);
        cell(&mut out, atlas, region.rect, (cx, cy));
        let (x, y, w, h) = region.rect;
        let mut lines = wrap(&fonts.regular, name, BOX_W as f32, LABEL_LINES as usize - 1);
        lines.push((format!("{x},{y} {w}×{h}"), DIM_TEXT));
        for (k, (line, colour)) in lines.iter().enumerate() {
            let ty = cy + BOX_H + 6 + k as u32 * LINE_H;
            text(&mut out, &fonts.regular, line, cx, ty, TEXT_PX, *colour);
        }
    }
    out
}

/// One image, scaled to fit the box (small ones enlarged by a whole factor, up to 4), on a
/// chequered ground, outlined; a rectangle outside the atlas shows only its outline.
fn cell(out: &mut RgbaImage, atlas: &RgbaImage, rect: (u32, u32, u32, u32), at: (u32, u32)) {
    let (x, y, w, h) = rect;
    let (w, h) = (w.max(1), h.max(1));
    let fit = (BOX_W as f32 / w as f32).min(BOX_H as f32 / h as f32);
    let scale = if fit >= 1.0 { fit.floor().min(4.0) } else { fit };
    let (dw, dh) = (((w as f32 * scale) as u32).max(1), ((h as f32 * scale) as u32).max(1));
    let (ox, oy) = (at.0 + (BOX_W - dw.min(BOX_W)) / 2, at.1 + (BOX_H - dh.min(BOX_H)) / 2);
    for py in 0..dh.min(BOX_H) {
        for px in 0..dw.min(BOX_W) {
            let checker = if ((px / 8) + (py / 8)) % 2 == 0 { 90 } else { 130 };
            let ground = Rgba([checker, checker, checker, 255]);
            let sx = x + (px as f32 / scale) as u32;
            let sy = y + (py as f32 / scale) as u32;
            let colour = if sx < atlas.width() && sy < atlas.height() {
                blend(ground, *atlas.get_pixel(sx, sy))
            } else {
                ground
            };
            out.put_pixel(ox + px, oy + py, colour);
        }
    }
    // The outline, one pixel outside the picture.
    let (l, t) = (ox.saturating_sub(1), oy.saturating_sub(1));
    let (r, b) = (ox + dw.min(BOX_W), oy + dh.min(BOX_H));
    for px in l..=r {
        put(out, px, t, OUTLINE);
        put(out, px, b, OUTLINE);
    }
    for py in t..=b {
        put(out, l, py, OUTLINE);
        put(out, r, py, OUTLINE);
    }
}

/// `name` broken into lines that fit `width` (at characters, names have few spaces), at most
/// `max` lines, the last ending in … when it is cut.
fn wrap(font: &Font, name: &str, width: f32, max: usize) -> Vec<(String, Rgba<u8>)> {
    let mut lines = vec![String::new()];
    let mut used = 0.0;
    for c in name.chars() {
        let advance = font.metrics(c, TEXT_PX).advance_width;
        if used + advance > width && !lines.last().is_some_and(String::is_empty) {
            if lines.len() == max {
                if let Some(last) = lines.last_mut() {
                    last.pop();
                    last.push('…');
                }
                break;
            }
            lines.push(String::new());
            used = 0.0;
        }
        used += advance;
        if let Some(last) = lines.last_mut() {
            last.push(c);
        }
    }
    lines.into_iter().map(|l| (l, TEXT)).collect()
}

/// Draws `s` with its line's top at `(x, y)`.
fn text(out: &mut RgbaImage, font: &Font, s: &str, x: u32, y: u32, px: f32, colour: Rgba<u8>) {
    let ascent = font.horizontal_line_metrics(px).map_or(px * 0.8, |m| m.ascent);
    let mut pen = x as f32;
    for c in s.chars() {
        let (m, coverage) = font.rasterize(c, px);
        let left = pen + m.xmin as f32;
        let top = y as f32 + ascent - (m.height as f32 + m.ymin as f32);
        for gy in 0..m.height {
            for gx in 0..m.width {
                let a = coverage[gy * m.width + gx];
                let (px_, py_) = (left + gx as f32, top + gy as f32);
                if a == 0 || px_ < 0.0 || py_ < 0.0 {
                    continue;
                }
                let (px_, py_) = (px_ as u32, py_ as u32);
                if px_ < out.width() && py_ < out.height() {
                    let under = *out.get_pixel(px_, py_);
                    out.put_pixel(px_, py_, blend(under, Rgba([colour[0], colour[1], colour[2], a])));
                }
            }
        }
        pen += m.advance_width;
    }
}

fn put(out: &mut RgbaImage, x: u32, y: u32, colour: Rgba<u8>) {
    if x < out.width() && y < out.height() {
        out.put_pixel(x, y, colour);
    }
}

/// `over` drawn on the opaque `under` by its alpha.
fn blend(under: Rgba<u8>, over: Rgba<u8>) -> Rgba<u8> {
    let a = u32::from(over[3]);
    let mix = |u: u8, o: u8| ((u32::from(o) * a + u32::from(u) * (255 - a)) / 255) as u8;
    Rgba([mix(under[0], over[0]), mix(under[1], over[1]), mix(under[2], over[2]), 255])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ui::images::ImageRegion;

    #[test]
    fn each_image_is_cut_out_into_its_own_cell_and_labelled() {
        let mut atlas = RgbaImage::from_pixel(8, 8, Rgba([0, 0, 0, 0]));
        for y in 0..4 {
            for x in 0..4 {
                atlas.put_pixel(x, y, Rgba([255, 0, 0, 255]));
                atlas.put_pixel(x + 4, y + 4, Rgba([0, 0, 255, 255]));
            }
        }
        let mut set = ImageSet { atlas: "a.png".into(), size: (8, 8), ..ImageSet::default() };
        set.images.insert("Red".into(), ImageRegion { rect: (0, 0, 4, 4), border: 0 });
        set.images.insert("Blue".into(), ImageRegion { rect: (4, 4, 4, 4), border: 0 });
        let fonts = Fonts::load().unwrap();
        let sheet = picture(&set, &atlas, &fonts, "test");
        // Cells are in name order: Blue first, then Red; each picture is enlarged 4× and centred.
        let centre = |col: u32| *sheet.get_pixel(col * CELL_W + CELL_W / 2, TITLE_H + 4 + BOX_H / 2);
        assert_eq!(centre(0), Rgba([0, 0, 255, 255]));
        assert_eq!(centre(1), Rgba([255, 0, 0, 255]));
        // The label area under the first cell has text drawn in it.
        let label = (TITLE_H + BOX_H + 10..TITLE_H + BOX_H + 10 + LINE_H)
            .flat_map(|y| (0..CELL_W).map(move |x| (x, y)))
            .filter(|&(x, y)| sheet.get_pixel(x, y)[0] > 200)
            .count();
        assert!(label > 10, "{label} bright pixels in the label");
    }
}
