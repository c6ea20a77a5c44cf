//! The factions' own HUD frames in the UI atlas, which `ui/skins.ron` swaps for the layout's
//! frames while a faction's player plays: the Coalition's clean steel (chamfered corners, thin
//! light edges, a cyan tick in each corner) and the Dominion's heavy iron (notched corners, a
//! thick bevelled rim, hazard-striped corner gussets held by bolts). Detail sits only in the
//! nine-slice corners, which are never stretched; edges and middles are even along their length,
//! so they stretch cleanly over a bar of any width.
//!
//! Must not: know the layouts or the skins (the skins name these images).

use crate::noise;

/// A painter: (x, y, width, height) of a pixel in its image to straight RGBA, 0–1.
pub(super) type Painter = fn(u32, u32, u32, u32) -> [f32; 4];

/// An atlas entry: name, (x, y, w, h), nine-slice border, painter.
pub(super) type Item = (&'static str, (u32, u32, u32, u32), u32, Painter);

/// The faction frames.
pub(super) fn items() -> Vec<Item> {
    vec![
        ("PanelCoalition", (0, 768, 128, 128), 20, coalition_panel),
        ("PanelDominion", (128, 768, 128, 128), 28, dominion_panel),
        ("HeaderBarCoalition", (256, 768, 512, 40), 16, coalition_bar),
        ("HeaderBarDominion", (256, 808, 512, 40), 16, dominion_bar),
        ("ButtonNormalCoalition", (256, 848, 192, 48), 10, |x, y, w, h| coalition_button(x, y, w, h, 0)),
        ("ButtonHiliteCoalition", (256, 896, 192, 48), 10, |x, y, w, h| coalition_button(x, y, w, h, 1)),
        ("ButtonPushedCoalition", (448, 848, 192, 48), 10, |x, y, w, h| coalition_button(x, y, w, h, 2)),
        ("ButtonDisabledCoalition", (448, 896, 192, 48), 10, |x, y, w, h| coalition_button(x, y, w, h, 3)),
        ("ButtonNormalDominion", (640, 848, 192, 48), 10, |x, y, w, h| dominion_button(x, y, w, h, 0)),
        ("ButtonHiliteDominion", (640, 896, 192, 48), 10, |x, y, w, h| dominion_button(x, y, w, h, 1)),
        ("ButtonPushedDominion", (832, 848, 192, 48), 10, |x, y, w, h| dominion_button(x, y, w, h, 2)),
        ("ButtonDisabledDominion", (832, 896, 192, 48), 10, |x, y, w, h| dominion_button(x, y, w, h, 3)),
    ]
}

/// A pixel's place in its image: its centre, the image's size, and how far it lies from the
/// nearer side along each axis.
#[derive(Clone, Copy)]
struct At {
    x: f32,
    y: f32,
    w: f32,
    h: f32,
    /// Distance to the nearer left or right side.
    lx: f32,
    /// Distance to the nearer top or bottom side.
    ly: f32,
}

impl At {
    fn new(x: u32, y: u32, w: u32, h: u32) -> At {
        let (fx, fy, w, h) = (x as f32 + 0.5, y as f32 + 0.5, w as f32, h as f32);
        At { x: fx, y: fy, w, h, lx: fx.min(w - fx), ly: fy.min(h - fy) }
    }

    /// Distance inside the rectangle with its corners cut at 45° by `cut` (negative outside).
    /// `corners` says which: top-left, top-right, bottom-left, bottom-right.
    fn chamfered(&self, cut: f32, corners: [bool; 4]) -> f32 {
        let mut d = self.lx.min(self.ly);
        let (l, r, t, b) = (self.x, self.w - self.x, self.y, self.h - self.y);
        for (on, (a, c)) in corners.into_iter().zip([(l, t), (r, t), (l, b), (r, b)]) {
            if on {
                d = d.min((a + c - cut) / std::f32::consts::SQRT_2);
            }
        }
        d
    }

    /// Distance inside the rectangle with a square notch of `notch` cut from each corner.
    fn notched(&self, notch: f32) -> f32 {
        self.lx.min(self.ly).min((self.lx - notch).max(self.ly - notch))
    }

    /// True on the upper-left half of the image's border (lit from the top left).
    fn lit_side(&self) -> bool {
        self.x.min(self.y) < (self.w - self.x).min(self.h - self.y)
    }
}

fn mix(a: [f32; 3], b: [f32; 3], t: f32) -> [f32; 3] {
    std::array::from_fn(|i| a[i] + (b[i] - a[i]) * t)
}

fn scale(c: [f32; 3], k: f32) -> [f32; 3] {
    c.map(|v| v * k)
}

/// `c` where `d` (distance inside the outline) is at least half a pixel, fading to clear
/// outside: an anti-aliased edge.
fn cut_out(c: [f32; 3], d: f32) -> [f32; 4] {
    [c[0], c[1], c[2], (d + 0.5).clamp(0.0, 1.0)]
}

/// A round bolt head of radius `r` at (cx, cy): lit from the top left, with a dark ring; None
/// off it.
fn bolt(p: &At, cx: f32, cy: f32, r: f32) -> Option<[f32; 3]> {
    let (dx, dy) = (p.x - cx, p.y - cy);
    let d = (dx * dx + dy * dy).sqrt();
    if d > r + 0.6 {
        return None;
    }
    if d > r - 0.7 {
        return Some([0.05, 0.04, 0.03]);
    }
    let light = 0.75 - (dx + dy) / r * 0.3;
    Some(scale([0.62, 0.55, 0.45], light))
}

/// Yellow and black stripes at 45°, `period` pixels a pair.
fn hazard(p: &At, period: f32) -> [f32; 3] {
    if ((p.x + p.y) / period).rem_euclid(1.0) < 0.5 { [0.86, 0.64, 0.1] } else { [0.07, 0.06, 0.05] }
}

/// The Coalition's steel: cool blue-grey, lighter at the top.
const STEEL_TOP: [f32; 3] = [0.15, 0.19, 0.24];
const STEEL_LOW: [f32; 3] = [0.08, 0.1, 0.13];
/// The Coalition's thin light edge and its cyan accent.
const EDGE_LIGHT: [f32; 3] = [0.66, 0.78, 0.9];
const CYAN: [f32; 3] = [0.42, 0.78, 1.0];

/// A Coalition panel: a smooth steel plate with its corners cut, a thin light edge brighter
/// on the lit side, a dark groove and a faint inner line, and a cyan tick along each cut.
fn coalition_panel(x: u32, y: u32, w: u32, h: u32) -> [f32; 4] {
    let p = At::new(x, y, w, h);
    let cut = 11.0;
    let d = p.chamfered(cut, [true; 4]);
    let grain = noise::value(11, p.x / 2.0, p.y / 9.0, 0) * 0.012;
    let mut c = mix(STEEL_TOP, STEEL_LOW, p.y / p.h).map(|v| v + grain);
    if d < 1.3 {
        c = scale(EDGE_LIGHT, if p.lit_side() { 1.0 } else { 0.55 });
    } else if d < 3.2 {
        c = [0.04, 0.05, 0.07];
    } else if d < 4.2 {
        c = scale(EDGE_LIGHT, 0.32);
    }
    // The cyan tick: a short stroke parallel to each cut, inside the groove.
    let diag = (p.lx + p.ly - cut) / std::f32::consts::SQRT_2;
    if (5.5..7.3).contains(&diag) && (p.lx - p.ly).abs() < 7.0 {
        c = CYAN;
    }
    cut_out(c, d)
}

/// A Coalition bar: a steel band with its lower corners cut, a light top line, a cyan line
/// along its foot and a slanted light stroke at each end.
fn coalition_bar(x: u32, y: u32, w: u32, h: u32) -> [f32; 4] {
    let p = At::new(x, y, w, h);
    let d = p.chamfered(12.0, [false, false, true, true]);
    let grain = noise::value(13, p.x / 2.0, p.y / 9.0, 0) * 0.012;
    let mut c = mix(STEEL_TOP, STEEL_LOW, p.y / p.h).map(|v| v + grain);
    let foot = p.h - p.y;
    if p.y < 1.2 {
        c = scale(EDGE_LIGHT, 0.7);
    } else if d < 1.3 {
        c = scale(EDGE_LIGHT, 0.55);
    } else if d < 2.6 || (2.6..3.6).contains(&foot) {
        c = [0.04, 0.05, 0.07];
    } else if (3.6..5.2).contains(&foot) {
        c = CYAN;
    }
    // A slanted stroke in each end cap (the nine-slice keeps the ends unstretched).
    let slant = p.lx + (p.h - p.y) * 0.35;
    if (8.0..10.0).contains(&slant) && p.y > 4.0 && foot > 6.0 {
        c = scale(EDGE_LIGHT, 0.8);
    }
    cut_out(c, d)
}

/// A Coalition button in `state` (0 normal, 1 under the cursor, 2 pressed, 3 disabled): a
/// steel plate cut at its top-left and bottom-right corners, with a thin edge.
fn coalition_button(x: u32, y: u32, w: u32, h: u32, state: u32) -> [f32; 4] {
    let p = At::new(x, y, w, h);
    let d = p.chamfered(8.0, [true, false, false, true]);
    let (top, low, edge) = match state {
        1 => ([0.24, 0.33, 0.44], [0.14, 0.2, 0.28], [0.62, 0.88, 1.0]),
        2 => ([0.07, 0.1, 0.14], [0.12, 0.16, 0.22], [0.62, 0.88, 1.0]),
        3 => ([0.14, 0.15, 0.17], [0.1, 0.11, 0.12], [0.3, 0.32, 0.35]),
        _ => ([0.19, 0.25, 0.33], [0.1, 0.14, 0.19], [0.5, 0.62, 0.75]),
    };
    let mut c = mix(top, low, p.y / p.h);
    if d < 1.3 {
        c = scale(edge, if p.lit_side() != (state == 2) { 1.0 } else { 0.6 });
    } else if d < 2.4 {
        c = [0.03, 0.04, 0.06];
    } else if state != 2 && p.y < 3.5 {
        // A sheen along the top.
        c = mix(c, edge, 0.25);
    }
    let mut px = cut_out(c, d);
    if state == 3 {
        px[3] *= 0.8;
    }
    px
}

/// The Dominion's iron: dark, warm, mottled with rust (broad patches, so they stretch well).
fn iron(p: &At, seed: u32, base: [f32; 3]) -> [f32; 3] {
    let rust = noise::fractal(seed, p.x / 24.0, p.y / 24.0, 0);
    let pits = noise::value(seed + 1, p.x / 1.5, p.y / 1.5, 0) * 0.035;
    let c = mix(base, [base[0] * 1.5, base[1] * 1.05, base[2] * 0.7], (rust - 0.45).max(0.0) * 1.6);
    c.map(|v| v + pits - 0.017)
}

/// The Dominion's rim metal and its bright rust edge.
const RIM: [f32; 3] = [0.36, 0.26, 0.18];
const RUST_EDGE: [f32; 3] = [0.95, 0.55, 0.18];

/// A Dominion panel: a dark iron plate in a thick bevelled rim, its corners notched square,
/// each corner braced by a hazard-striped gusset held by a bolt, two more bolts in the rim.
fn dominion_panel(x: u32, y: u32, w: u32, h: u32) -> [f32; 4] {
    let p = At::new(x, y, w, h);
    let notch = 5.0;
    let d = p.notched(notch);
    let band = 8.0;
    let mut c = iron(&p, 21, [0.15, 0.11, 0.085]);
    if d < 1.4 {
        c = [0.07, 0.045, 0.03];
    } else if d < band {
        // The rim: lit on its top-left faces, shaded on the others.
        let lit = if p.lit_side() { 1.25 } else { 0.7 };
        c = scale(iron(&p, 23, RIM), if d < 3.0 { lit } else { 1.0 });
    } else if d < band + 1.5 {
        c = [0.05, 0.035, 0.025];
    }
    // The gusset across each corner: hazard stripes under a bolt, edged in black.
    let g = p.lx + p.ly;
    if d >= 1.4 && g < 27.0 {
        c = if g > 25.4 { [0.05, 0.035, 0.025] } else { hazard(&p, 7.0) };
    }
    let bolts = [(9.5, 9.5, 3.6), (21.0, 4.2, 2.2), (4.2, 21.0, 2.2)];
    for (bx, by, r) in bolts {
        // The same bolts in every corner: mirrored into the nearest one.
        let at = At { x: p.lx, y: p.ly, ..p };
        if let Some(b) = bolt(&at, bx, by, r) {
            c = b;
        }
    }
    cut_out(c, d)
}

/// A Dominion bar: an iron band over a heavy lip edged in bright rust, a seam between its
/// two plates, and hazard-striped end caps with a bolt top and bottom.
fn dominion_bar(x: u32, y: u32, w: u32, h: u32) -> [f32; 4] {
    let p = At::new(x, y, w, h);
    let d = p.notched(4.0);
    let foot = p.h - p.y;
    let mut c = iron(&p, 31, [0.17, 0.12, 0.09]);
    if p.y < 1.3 {
        c = scale(RIM, 1.3);
    } else if (p.h * 0.5 - 0.6..p.h * 0.5 + 0.6).contains(&p.y) {
        c = [0.07, 0.05, 0.035];
    } else if (p.h * 0.5 + 0.6..p.h * 0.5 + 1.6).contains(&p.y) {
        c = scale(c, 1.35);
    }
    if foot < 7.0 {
        c = if foot < 1.4 {
            [0.06, 0.04, 0.03]
        } else if foot > 5.6 {
            RUST_EDGE
        } else {
            iron(&p, 33, RIM)
        };
    }
    if p.lx < 15.0 {
        c = if p.lx > 13.6 { [0.06, 0.04, 0.03] } else { hazard(&p, 8.0) };
        let end = At { x: p.lx, y: p.ly, ..p };
        if let Some(b) = bolt(&end, 7.0, 7.5, 2.6) {
            c = b;
        }
    }
    cut_out(c, d)
}

/// A Dominion button in `state` (0 normal, 1 under the cursor, 2 pressed, 3 disabled): a rusted
/// plate with small notched corners, a heavy bevel (sunk when pressed) and a rivet in each
/// corner.
fn dominion_button(x: u32, y: u32, w: u32, h: u32, state: u32) -> [f32; 4] {
    let p = At::new(x, y, w, h);
    let d = p.notched(3.0);
    let (base, edge) = match state {
        1 => ([0.4, 0.26, 0.14], RUST_EDGE),
        2 => ([0.2, 0.13, 0.08], RUST_EDGE),
        3 => ([0.19, 0.17, 0.15], [0.32, 0.28, 0.24]),
        _ => ([0.29, 0.19, 0.12], [0.5, 0.36, 0.24]),
    };
    let mut c = iron(&p, 41, base);
    if d < 1.3 {
        c = edge;
    } else if d < 4.0 {
        let lit = p.lit_side() != (state == 2);
        c = scale(c, if lit { 1.45 } else { 0.55 });
    }
    let at = At { x: p.lx, y: p.ly, ..p };
    if let Some(b) = bolt(&at, 6.5, 6.5, 1.9) {
        c = b;
    }
    let mut px = cut_out(c, d);
    if state == 3 {
        px[3] *= 0.8;
    }
    px
}
