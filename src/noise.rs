//! Small deterministic noise functions for the content generators (art atlases, map terrain)
//! and the ground the renderer makes once per map (its baked dry and lush patches, the land
//! past the edge), tileable on request. Display and tooling only: the simulation never uses it.

/// A hash of lattice coordinates to [0, 1).
pub fn lattice(seed: u32, x: i64, y: i64) -> f32 {
    let mut h =
        (x as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ (y as u64).wrapping_mul(0xC2B2_AE3D_27D4_EB4F) ^ seed as u64;
    h ^= h >> 31;
    h = h.wrapping_mul(0xBF58_476D_1CE4_E5B9);
    h ^= h >> 29;
    (h >> 40) as f32 / (1u64 << 24) as f32
}

/// Smooth value noise at (x, y) in lattice units; x wraps with period `period_x` lattice cells
/// (0 for no wrapping), so a texture repeats seamlessly along x.
pub fn value(seed: u32, x: f32, y: f32, period_x: i64) -> f32 {
    let (x0, y0) = (x.floor(), y.floor());
    let (fx, fy) = (x - x0, y - y0);
    let (sx, sy) = (fx * fx * (3.0 - 2.0 * fx), fy * fy * (3.0 - 2.0 * fy));
    let wrap = |v: i64| if period_x > 0 { v.rem_euclid(period_x) } else { v };
    let (ix, iy) = (x0 as i64, y0 as i64);
    let a = lattice(seed, wrap(ix), iy);
    let b = lattice(seed, wrap(ix + 1), iy);
    let c = lattice(seed, wrap(ix), iy + 1);
    let d = lattice(seed, wrap(ix + 1), iy + 1);
    let top = a + (b - a) * sx;
    top + (c + (d - c) * sx - top) * sy
}

/// Three octaves of [`value`], in [0, 1).
pub fn fractal(seed: u32, x: f32, y: f32, period_x: i64) -> f32 {
    let mut sum = 0.0;
    let mut amp = 0.5;
    let mut freq = 1.0;
    for o in 0..3 {
        sum += value(seed.wrapping_add(o), x * freq, y * freq, period_x * freq as i64) * amp;
        amp *= 0.5;
        freq *= 2.0;
    }
    sum / 0.875
}
