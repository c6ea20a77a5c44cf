//! The ground's fine patterns, made once on the CPU as one small tiling texture (a pattern per
//! channel: grass speckle, clumps of soil, cracked rock, paving joints) so the terrain shader
//! reads them with one texture fetch instead of working noise out per pixel.
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

/// A value noise on a lattice that wraps every `period` cells both ways (so it tiles).
fn tiled_noise(seed: u32, x: f32, y: f32, period: i64) -> f32 {
    let hash = |ix: i64, iy: i64| {
        let (ix, iy) = (ix.rem_euclid(period) as u32, iy.rem_euclid(period) as u32);
        let mut h = seed ^ ix.wrapping_mul(0x27d4_eb2d) ^ iy.wrapping_mul(0x1656_67b1);
        h ^= h >> 15;
        h = h.wrapping_mul(0x2c1b_3c6d);
        h ^= h >> 12;
        (h & 0xffff) as f32 / 65_535.0
    };
    let (x0, y0) = (x.floor(), y.floor());
    let (fx, fy) = (x - x0, y - y0);
    let (sx, sy) = (fx * fx * (3.0 - 2.0 * fx), fy * fy * (3.0 - 2.0 * fy));
    let (ix, iy) = (x0 as i64, y0 as i64);
    let top = hash(ix, iy) + (hash(ix + 1, iy) - hash(ix, iy)) * sx;
    let bottom = hash(ix, iy + 1) + (hash(ix + 1, iy + 1) - hash(ix, iy + 1)) * sx;
    top + (bottom - top) * sy
}

fn smoothstep(a: f32, b: f32, x: f32) -> f32 {
    let t = ((x - a) / (b - a)).clamp(0.0, 1.0);
    t * t * (3.0 - 2.0 * t)
}

/// The four patterns at world offset (`u`, `v`) within one tile, each around 1.
pub fn patterns(u: f32, v: f32) -> [f32; 4] {
    // Lattice frequencies chosen so a whole number of cells spans the tile.
    let grass = 0.9 + 0.2 * tiled_noise(1, u * 0.75, v * 0.75, 24);
    let soil = 0.88 + 0.24 * tiled_noise(2, u * 0.25, v * 0.25, 8);
    let crack = (tiled_noise(3, u * 0.3125, v * 0.3125, 10) - 0.5).abs();
    let rock = 0.8 + 0.25 * smoothstep(0.0, 0.08, crack);
    let slab = |w: f32| {
        let f = (w / 8.0).fract();
        f.min(1.0 - f)
    };
    let joint = slab(u).min(slab(v));
    let paved = 0.95 - 0.18 * (1.0 - smoothstep(0.0, 0.04, joint));
    [grass, soil, rock, paved]
}

/// The pattern texture (linear values, scaled by [`DETAIL_STORE`]).
pub fn texture() -> RgbaImage {
    let scale = DETAIL_SPAN / DETAIL_PX as f32;
    RgbaImage::from_fn(DETAIL_PX, DETAIL_PX, |x, y| {
        let p = patterns((x as f32 + 0.5) * scale, (y as f32 + 0.5) * scale);
        Rgba(p.map(|v| ((v * DETAIL_STORE).clamp(0.0, 1.0) * 255.0).round() as u8))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_patterns_tile_and_differ() {
        let img = texture();
        // The texture wraps: the first and last columns continue each other closely.
        for y in (0..DETAIL_PX).step_by(17) {
            let (a, b) = (img.get_pixel(0, y).0, img.get_pixel(DETAIL_PX - 1, y).0);
            for c in 0..4 {
                assert!((a[c] as i32 - b[c] as i32).abs() < 24, "channel {c} at row {y}: {a:?} vs {b:?}");
            }
        }
        // Each pattern varies; the paving has dark joints every 8 units.
        for c in 0..4 {
            let values: Vec<u8> = img.pixels().map(|p| p.0[c]).collect();
            let (lo, hi) = (values.iter().min().unwrap(), values.iter().max().unwrap());
            assert!(hi - lo > 10, "channel {c} is flat");
        }
        let joint = patterns(8.0, 3.0)[3];
        let slab = patterns(4.0, 4.0)[3];
        assert!(joint < slab - 0.1, "{joint} vs {slab}");
    }
}
