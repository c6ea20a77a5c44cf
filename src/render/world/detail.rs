//! The ground's fine patterns, made once on the CPU as small tiling textures (a pattern per
//! channel: grass speckle, clumps of soil, rock, paving joints) so the terrain shader reads
//! them with one texture fetch instead of working noise out per pixel. Low's ground keeps its
//! plain cracked rock; Medium and High's relief-lit ground gets broken rock: plates split by
//! straight-edged cracks (a cellular pattern), each plate a tilted facet with its own shade.
//!
//! Must not: know about maps or classes (the terrain mesh says how much of each pattern the
//! ground shows where).

use image::{Rgba, RgbaImage};

/// Texels along each side of the pattern texture.
pub const DETAIL_PX: u32 = 256;
/// World units the texture covers before it repeats.
pub const DETAIL_SPAN: f32 = 32.0;
/// Stored values are the pattern times this (patterns run a little above 1).
pub const DETAIL_STORE: f32 = 0.8;

/// Which ground the patterns are for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Patterns {
    /// Low's flat-lit ground: rock as a plain crack pattern.
    Plain,
    /// Medium and High's relief-lit ground: rock as broken, faceted plates.
    Relief,
}

/// A hash of a lattice point wrapped every `period` cells, in 0..1.
fn lattice(seed: u32, ix: i64, iy: i64, period: i64) -> f32 {
    let (ix, iy) = (ix.rem_euclid(period) as u32, iy.rem_euclid(period) as u32);
    let mut h = seed ^ ix.wrapping_mul(0x27d4_eb2d) ^ iy.wrapping_mul(0x1656_67b1);
    h ^= h >> 15;
    h = h.wrapping_mul(0x2c1b_3c6d);
    h ^= h >> 12;
    (h & 0xffff) as f32 / 65_535.0
}

/// [`lattice`] mixed once more, for values a plate draws (neighbours must not look alike).
fn hash(seed: u32, ix: i64, iy: i64, period: i64) -> f32 {
    let h = (lattice(seed, ix, iy, period) * 65_535.0) as u32;
    let mut h = h.wrapping_mul(0x297a_2d39) ^ seed.rotate_left(7) ^ (lattice(!seed, iy, ix, period) * 65_535.0) as u32;
    h ^= h >> 13;
    h = h.wrapping_mul(0x85eb_ca6b);
    h ^= h >> 16;
    (h & 0xffff) as f32 / 65_535.0
}

/// A value noise on a lattice that wraps every `period` cells both ways (so it tiles).
fn tiled_noise(seed: u32, x: f32, y: f32, period: i64) -> f32 {
    let (x0, y0) = (x.floor(), y.floor());
    let (fx, fy) = (x - x0, y - y0);
    let (sx, sy) = (fx * fx * (3.0 - 2.0 * fx), fy * fy * (3.0 - 2.0 * fy));
    let (ix, iy) = (x0 as i64, y0 as i64);
    let h = |dx: i64, dy: i64| lattice(seed, ix + dx, iy + dy, period);
    let top = h(0, 0) + (h(1, 0) - h(0, 0)) * sx;
    let bottom = h(0, 1) + (h(1, 1) - h(0, 1)) * sx;
    top + (bottom - top) * sy
}

/// Hermite smoothstep of `x` from `a` to `b` (0 below `a`, 1 past `b`; `a` may exceed `b`).
pub(super) fn smoothstep(a: f32, b: f32, x: f32) -> f32 {
    let t = ((x - a) / (b - a)).clamp(0.0, 1.0);
    t * t * (3.0 - 2.0 * t)
}

/// The nearest plate of a cellular pattern wrapping every `period` cells, at (`x`, `y`) in
/// cells: the plate's cell (wrapped), the offset from its centre, and the distance to its
/// nearest edge (straight, halfway to the next plate's centre), in cells.
struct Plate {
    cell: (i64, i64),
    offset: (f32, f32),
    edge: f32,
}

fn plate(seed: u32, x: f32, y: f32, period: i64) -> Plate {
    let (cx, cy) = (x.floor() as i64, y.floor() as i64);
    let centre = |ix: i64, iy: i64| {
        let jx = 0.1 + 0.8 * hash(seed, ix, iy, period);
        let jy = 0.1 + 0.8 * hash(seed ^ 0x5bd1_e995, ix, iy, period);
        (ix as f32 + jx, iy as f32 + jy)
    };
    let mut near = ((cx, cy), (0.0, 0.0), f32::MAX);
    let mut points = [(0.0f32, 0.0f32); 25];
    for (k, point) in points.iter_mut().enumerate() {
        let (ix, iy) = (cx + k as i64 % 5 - 2, cy + k as i64 / 5 - 2);
        *point = centre(ix, iy);
        let d = (point.0 - x).powi(2) + (point.1 - y).powi(2);
        if d < near.2 {
            near = ((ix, iy), *point, d);
        }
    }
    let (a, mut edge) = (near.1, f32::MAX);
    for b in points {
        let (dx, dy) = (b.0 - a.0, b.1 - a.1);
        let len = (dx * dx + dy * dy).sqrt();
        if len > 1e-4 {
            let (mx, my) = ((a.0 + b.0) * 0.5 - x, (a.1 + b.1) * 0.5 - y);
            edge = edge.min((mx * dx + my * dy) / len);
        }
    }
    Plate { cell: (near.0.0.rem_euclid(period), near.0.1.rem_euclid(period)), offset: (x - a.0, y - a.1), edge }
}

/// Broken rock at world offset (`u`, `v`) within a tile, around 1: large plates split by
/// deep cracks, each broken again by finer ones; every piece a facet tilted its own way and
/// shaded its own tone, with a fine grain over it.
fn broken_rock(u: f32, v: f32) -> f32 {
    // A slight warp keeps the cracks' lines from looking ruled.
    let wu = u + 0.5 * (tiled_noise(11, u * 0.5, v * 0.5, 16) - 0.5);
    let wv = v + 0.5 * (tiled_noise(12, u * 0.5, v * 0.5, 16) - 0.5);
    // Large plates: 5⅓ units across; fine pieces: 2 units.
    let big = plate(21, wu * 0.1875, wv * 0.1875, 6);
    let small = plate(22, wu * 0.5, wv * 0.5, 16);
    let tone = |p: &Plate, seed: u32, period: i64| hash(seed, p.cell.0, p.cell.1, period);
    // Each piece tilts a way of its own (the relief lights it as a facet).
    let tilt = |p: &Plate, seed: u32, period: i64, k: f32| {
        let a = tone(p, seed, period) * std::f32::consts::TAU;
        (p.offset.0 * a.cos() + p.offset.1 * a.sin()) * k
    };
    let shade = 0.9 + 0.24 * (tone(&big, 31, 6) - 0.5) + 0.12 * (tone(&small, 32, 16) - 0.5);
    let facet = tilt(&big, 33, 6, 0.08) + tilt(&small, 34, 16, 0.07);
    let grain =
        0.08 * (tiled_noise(13, u * 2.0, v * 2.0, 64) - 0.5) + 0.05 * (tiled_noise(14, u * 4.0, v * 4.0, 128) - 0.5);
    // Cracks: edge distance in world units (cells times cell size).
    let deep = 1.0 - smoothstep(0.04, 0.3, big.edge / 0.1875);
    let fine = 1.0 - smoothstep(0.0, 0.1, small.edge / 0.5);
    (shade + facet + grain) * (1.0 - 0.4 * deep) * (1.0 - 0.12 * fine) + 0.04
}

/// Grass at world offset (`u`, `v`), around 1: clumps a metre or so across over a blade-fine
/// grain, with darker gaps between tufts; strong enough to read at the game's camera, where a
/// pixel covers half a unit to a unit of ground.
fn grass(u: f32, v: f32) -> f32 {
    let clumps = tiled_noise(1, u * 0.75, v * 0.75, 24);
    let blades = tiled_noise(5, u * 2.0, v * 2.0, 64);
    // Tufts on a warped lattice, so their outlines do not line up in rows.
    let (wu, wv) =
        (u + 3.0 * tiled_noise(15, u * 0.125, v * 0.125, 4), v + 3.0 * tiled_noise(16, u * 0.125, v * 0.125, 4));
    let tufts = smoothstep(0.3, 0.7, tiled_noise(4, wu * 0.25, wv * 0.25, 8));
    0.72 + 0.24 * clumps + 0.14 * blades + 0.12 * tufts
}

/// Soil at world offset (`u`, `v`), around 1: clods and a fine grain, strewn with pebbles
/// (each lit on top, with a dark rim where it meets the earth).
fn soil(u: f32, v: f32) -> f32 {
    let clods = tiled_noise(2, u * 0.25, v * 0.25, 8);
    let grain = tiled_noise(7, u * 1.5, v * 1.5, 48);
    let stone = plate(8, u * 0.75, v * 0.75, 24);
    let r = (stone.offset.0 * stone.offset.0 + stone.offset.1 * stone.offset.1).sqrt();
    let pebble = if hash(9, stone.cell.0, stone.cell.1, 24) > 0.55 {
        0.22 * (1.0 - smoothstep(0.16, 0.26, r)) - 0.14 * smoothstep(0.2, 0.27, r) * (1.0 - smoothstep(0.3, 0.38, r))
    } else {
        0.0
    };
    0.8 + 0.22 * clods + 0.14 * grain + pebble
}

/// The four patterns at world offset (`u`, `v`) within one tile, each around 1.
pub fn patterns(u: f32, v: f32, which: Patterns) -> [f32; 4] {
    // Lattice frequencies chosen so a whole number of cells spans the tile.
    let grass = grass(u, v);
    let soil = soil(u, v);
    let rock = match which {
        Patterns::Plain => {
            let crack = (tiled_noise(3, u * 0.3125, v * 0.3125, 10) - 0.5).abs();
            0.8 + 0.25 * smoothstep(0.0, 0.08, crack)
        }
        Patterns::Relief => broken_rock(u, v),
    };
    let slab = |w: f32| {
        let f = (w / 8.0).fract();
        f.min(1.0 - f)
    };
    let joint = slab(u).min(slab(v));
    let paved = 0.95 - 0.18 * (1.0 - smoothstep(0.0, 0.04, joint));
    [grass, soil, rock, paved]
}

/// The pattern texture (linear values, scaled by [`DETAIL_STORE`]).
pub fn texture(which: Patterns) -> RgbaImage {
    let scale = DETAIL_SPAN / DETAIL_PX as f32;
    RgbaImage::from_fn(DETAIL_PX, DETAIL_PX, |x, y| {
        let p = patterns((x as f32 + 0.5) * scale, (y as f32 + 0.5) * scale, which);
        Rgba(p.map(|v| ((v * DETAIL_STORE).clamp(0.0, 1.0) * 255.0).round() as u8))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_patterns_tile_and_differ() {
        for which in [Patterns::Plain, Patterns::Relief] {
            // The patterns wrap: a tile further on each way is the same ground.
            for k in 0..40 {
                let (u, v) = (k as f32 * 0.77 + 0.1, k as f32 * 1.31 + 0.2);
                let (a, b, c) =
                    (patterns(u, v, which), patterns(u + DETAIL_SPAN, v, which), patterns(u, v + DETAIL_SPAN, which));
                for ch in 0..4 {
                    assert!((a[ch] - b[ch]).abs() < 0.02 && (a[ch] - c[ch]).abs() < 0.02, "{which:?} {ch} at {u},{v}");
                }
            }
            let img = texture(which);
            // Each pattern varies; the paving has dark joints every 8 units.
            for c in 0..4 {
                let values: Vec<u8> = img.pixels().map(|p| p.0[c]).collect();
                let (lo, hi) = (values.iter().min().unwrap(), values.iter().max().unwrap());
                assert!(hi - lo > 10, "channel {c} is flat");
            }
            let joint = patterns(8.0, 3.0, which)[3];
            let slab = patterns(4.0, 4.0, which)[3];
            assert!(joint < slab - 0.1, "{joint} vs {slab}");
        }
    }

    #[test]
    fn only_the_relief_rock_differs_from_the_plain_patterns() {
        let (plain, relief) = (texture(Patterns::Plain), texture(Patterns::Relief));
        let same = |c: usize| plain.pixels().zip(relief.pixels()).all(|(a, b)| a.0[c] == b.0[c]);
        assert!(same(0) && same(1) && same(3));
        assert!(!same(2));
    }

    #[test]
    fn relief_rock_is_plates_split_by_cracks() {
        // Along a line across the rock: long runs of plate broken by short dark cracks.
        let row: Vec<f32> = (0..2048).map(|i| patterns(i as f32 * 0.0625, 13.3, Patterns::Relief)[2]).collect();
        let mean = row.iter().sum::<f32>() / row.len() as f32;
        let dark: Vec<bool> = row.iter().map(|&r| r < mean - 0.22).collect();
        let cracks = dark.windows(2).filter(|w| !w[0] && w[1]).count();
        let share = dark.iter().filter(|&&d| d).count() as f32 / dark.len() as f32;
        // Large plates are about 5 units across: a line of 128 units crosses some 15–40 deep cracks.
        assert!((10..=60).contains(&cracks), "{cracks} cracks");
        assert!(share > 0.03 && share < 0.3, "cracks cover {share}");
        // The plates differ in tone: sampled at plate centres away from cracks, they spread.
        let lit: Vec<f32> = row.iter().copied().filter(|&r| r > mean).collect();
        let spread = lit.iter().copied().fold(f32::MIN, f32::max) - lit.iter().copied().fold(f32::MAX, f32::min);
        assert!(spread > 0.1, "plates all alike ({spread})");
    }
}
