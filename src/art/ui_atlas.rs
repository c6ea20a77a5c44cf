//! The UI atlas: bevelled metal panels and buttons in four states, check boxes, radio dots,
//! slider parts, fields, list and progress parts, tabs and the main-menu backdrop (layered
//! ridgelines at dusk), and each faction's own HUD frames (`ui_faction.rs`), all painted
//! procedurally; with the `ui/images.ron` that names them.

use std::collections::BTreeMap;

use image::{Rgba, RgbaImage};

use crate::noise;
use crate::ui::images::{ImageRegion, ImageSet};

/// Atlas width and height.
const SIZE: (u32, u32) = (1024, 1024);

use super::ui_faction::{Item, Painter};

fn clamp8(v: f32) -> u8 {
    (v.clamp(0.0, 1.0) * 255.0).round() as u8
}

/// A bevelled plate: base colour, light top-left edge, dark bottom-right edge, a thin rim.
#[allow(clippy::too_many_arguments)]
fn plate(x: u32, y: u32, w: u32, h: u32, base: [f32; 3], rim: [f32; 3], bevel: f32, inset: bool) -> [f32; 4] {
    let (fx, fy) = (x as f32 + 0.5, y as f32 + 0.5);
    let edge = fx.min(fy).min(w as f32 - fx).min(h as f32 - fy);
    let grain = noise::value(7, fx / 3.0, fy / 11.0, 0) * 0.06 - 0.03;
    let vertical = 1.0 - fy / h as f32 * 0.25;
    let mut c = base.map(|b| (b + grain) * vertical);
    if edge < 1.5 {
        c = rim;
    } else if edge < bevel {
        let top_left = fx.min(fy) < (w as f32 - fx).min(h as f32 - fy);
        let light = if top_left != inset { 1.35 } else { 0.6 };
        c = c.map(|v| v * light);
    }
    [c[0], c[1], c[2], 1.0]
}

fn panel(x: u32, y: u32, w: u32, h: u32) -> [f32; 4] {
    let mut p = plate(x, y, w, h, [0.13, 0.15, 0.16], [0.55, 0.48, 0.3], 5.0, false);
    // Rivets in the corners.
    for (cx, cy) in [(9.0, 9.0), (w as f32 - 9.0, 9.0), (9.0, h as f32 - 9.0), (w as f32 - 9.0, h as f32 - 9.0)] {
        let d = ((x as f32 + 0.5 - cx).powi(2) + (y as f32 + 0.5 - cy).powi(2)).sqrt();
        if d < 2.5 {
            p = [0.6, 0.58, 0.5, 1.0];
        }
    }
    p[3] = 1.0;
    p
}

fn button(state: u32) -> Painter {
    match state {
        0 => |x, y, w, h| plate(x, y, w, h, [0.22, 0.26, 0.22], [0.45, 0.42, 0.3], 4.0, false),
        1 => |x, y, w, h| plate(x, y, w, h, [0.32, 0.36, 0.26], [0.95, 0.8, 0.35], 4.0, false),
        2 => |x, y, w, h| plate(x, y, w, h, [0.16, 0.18, 0.14], [0.95, 0.8, 0.35], 4.0, true),
        _ => |x, y, w, h| {
            let mut p = plate(x, y, w, h, [0.2, 0.2, 0.2], [0.3, 0.3, 0.3], 4.0, false);
            p[3] = 0.8;
            p
        },
    }
}

fn field(x: u32, y: u32, w: u32, h: u32) -> [f32; 4] {
    // Dark inset fields get stretched a lot: keep their grain faint so they stay smooth.
    let base = [0.06, 0.07, 0.08];
    let p = plate(x, y, w, h, base, [0.4, 0.38, 0.3], 3.0, true);
    let smooth = |i: usize| base[i] * 0.9 + (p[i] - base[i]) * 0.25 + base[i] * 0.1;
    let edge = (x.min(y).min(w - 1 - x).min(h - 1 - y)) < 3;
    if edge { p } else { [smooth(0), smooth(1), smooth(2), p[3]] }
}

fn disc(x: u32, y: u32, w: u32, h: u32, color: [f32; 3], r: f32) -> [f32; 4] {
    let d = ((x as f32 + 0.5 - w as f32 / 2.0).powi(2) + (y as f32 + 0.5 - h as f32 / 2.0).powi(2)).sqrt();
    let a = (r - d + 0.5).clamp(0.0, 1.0);
    [color[0] * (1.2 - d / r * 0.4), color[1] * (1.2 - d / r * 0.4), color[2], a]
}

/// A gold tick (✓) for a ticked check box — two strokes, anti-aliased by their distance — so a
/// ticked box does not read as a radio button's dot.
fn tick(x: u32, y: u32, w: u32, h: u32) -> [f32; 4] {
    let (sx, sy) = (w as f32 / 24.0, h as f32 / 24.0);
    let p = (x as f32 + 0.5, y as f32 + 0.5);
    let segment = |a: (f32, f32), b: (f32, f32)| {
        let (abx, aby) = (b.0 - a.0, b.1 - a.1);
        let t = (((p.0 - a.0) * abx + (p.1 - a.1) * aby) / (abx * abx + aby * aby)).clamp(0.0, 1.0);
        ((p.0 - a.0 - t * abx).powi(2) + (p.1 - a.1 - t * aby).powi(2)).sqrt()
    };
    let (a, b, c) = ((6.0 * sx, 12.5 * sy), (10.0 * sx, 17.0 * sy), (18.5 * sx, 6.5 * sy));
    let d = segment(a, b).min(segment(b, c));
    let alpha = (2.2 - d + 0.5).clamp(0.0, 1.0);
    [0.95, 0.78, 0.3, alpha]
}

/// Layered ridgelines under a dusk sky: the main-menu backdrop.
fn backdrop(x: u32, y: u32, w: u32, h: u32) -> [f32; 4] {
    let (u, v) = (x as f32 / w as f32, y as f32 / h as f32);
    let sky_top = [0.09, 0.11, 0.2];
    let sky_low = [0.85, 0.5, 0.25];
    let t = v.powf(1.3);
    let mut c = [0, 1, 2].map(|i| sky_top[i] + (sky_low[i] - sky_top[i]) * t);
    // Sun glow.
    let sun = ((u - 0.7).powi(2) * 4.0 + (v - 0.55).powi(2) * 9.0).sqrt();
    c = c.map(|k| k + (0.35 - sun).max(0.0) * 1.2);
    // Four ridges, far (hazy) to near (dark).
    for layer in 0..4 {
        let lf = layer as f32;
        let base = 0.5 + lf * 0.11;
        let ridge =
            base - 0.16 * noise::fractal(40 + layer, u * (3.0 + lf * 2.0), lf, 0) + 0.04 * (u * 9.0 + lf).sin() * 0.5;
        if v > ridge {
            let haze = 1.0 - lf / 4.0;
            let col = [0.1 + 0.35 * haze, 0.12 + 0.22 * haze, 0.16 + 0.2 * haze];
            c = col.map(|k| k * (1.0 - (v - ridge) * 0.6));
        }
    }
    // Vignette.
    let vig = 1.0 - ((u - 0.5).powi(2) + (v - 0.5).powi(2)) * 0.9;
    [c[0] * vig, c[1] * vig, c[2] * vig, 1.0]
}

/// Paints the atlas and returns it with the image set describing it.
pub fn render() -> (RgbaImage, ImageSet) {
    let mut img = RgbaImage::new(SIZE.0, SIZE.1);
    let mut images = BTreeMap::new();
    let items: Vec<Item> = vec![
        ("MenuBackdrop", (0, 0, 1024, 576), 0, backdrop),
        ("Panel", (0, 576, 128, 128), 16, panel),
        ("ButtonNormal", (128, 576, 192, 48), 10, button(0)),
        ("ButtonHilite", (128, 624, 192, 48), 10, button(1)),
        ("ButtonPushed", (128, 672, 192, 48), 10, button(2)),
        ("ButtonDisabled", (128, 720, 192, 48), 10, button(3)),
        ("Field", (320, 576, 128, 32), 6, field),
        ("ListBackground", (320, 608, 128, 96), 6, field),
        ("ListSelection", (320, 704, 128, 24), 0, |x, y, w, h| {
            let mut p = plate(x, y, w, h, [0.35, 0.4, 0.2], [0.8, 0.7, 0.35], 2.0, false);
            p[3] = 0.85;
            p
        }),
        ("CheckBox", (448, 576, 24, 24), 0, field),
        ("CheckMark", (472, 576, 24, 24), 0, tick),
        ("RadioOff", (496, 576, 24, 24), 0, |x, y, w, h| disc(x, y, w, h, [0.08, 0.09, 0.1], 10.0)),
        ("RadioDot", (520, 576, 24, 24), 0, |x, y, w, h| disc(x, y, w, h, [0.95, 0.78, 0.3], 6.0)),
        ("SliderTrack", (448, 600, 128, 12), 4, field),
        ("SliderThumb", (576, 576, 16, 32), 3, button(1)),
        ("ProgressBack", (448, 616, 128, 20), 4, field),
        ("ProgressFill", (448, 640, 128, 20), 4, |x, y, w, h| {
            plate(x, y, w, h, [0.3, 0.55, 0.25], [0.5, 0.8, 0.4], 3.0, false)
        }),
        ("TabNormal", (592, 576, 96, 28), 6, button(0)),
        ("TabActive", (592, 604, 96, 28), 6, button(1)),
        ("HeaderBar", (688, 576, 256, 40), 8, |x, y, w, h| {
            plate(x, y, w, h, [0.35, 0.28, 0.14], [0.9, 0.75, 0.35], 4.0, false)
        }),
    ];
    let items = items.into_iter().chain(super::ui_faction::items());
    for (name, (x0, y0, w, h), border, paint) in items {
        for y in 0..h {
            for x in 0..w {
                let c = paint(x, y, w, h);
                img.put_pixel(x0 + x, y0 + y, Rgba([clamp8(c[0]), clamp8(c[1]), clamp8(c[2]), clamp8(c[3])]));
            }
        }
        images.insert(name.to_string(), ImageRegion { rect: (x0, y0, w, h), border });
    }
    (img, ImageSet { atlas: "ui.png".into(), size: SIZE, images, parts: Vec::new() })
}
