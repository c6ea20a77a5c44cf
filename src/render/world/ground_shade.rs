//! Shading baked into the ground's corners once per map, from its heights and the sun, so
//! hills, plateaus, ramps and lake shores read at the game's camera even where the sun lights
//! gentle slopes almost evenly (Four Corners' central hill rises 4° to 5°, less than the
//! ground's own small bumps): the broad shape of the ground (its heights averaged over some 80
//! units) lit as if [`BROAD_GAIN`] times steeper by a sun from the game's sun's side, lower in
//! the sky, relative to how that sun lights it unsteepened; how
//! much of the sky each corner sees (its horizon in eight directions, so valleys, the feet of
//! cliffs and lake basins darken); and how far it stands above or below the ground around it
//! (crests and hilltops lift, hollows sink). It scales the corner colours the terrain shader
//! already interpolates, so it costs nothing per pixel at any quality, and the shader's own
//! lighting (true normals, shadows) is left as it is. The middling undulations (what the
//! ground's shape over some 40 units adds to the broad one) are lit steeper too, by less
//! ([`MID_GAIN`]), so open ground shows its rolls and dips at the default zoom.
//!
//! Must not: know about classes or the camera; move the mesh or change its normals.

use glam::Vec3;

use super::detail::smoothstep;
use crate::map::terrain_mesh::grid_size;
use crate::map::{TerrainMesh, TerrainVertex};

/// How much steeper the ground's broad slopes are lit than they are.
pub(super) const BROAD_GAIN: f32 = 6.0;
/// Half-size (in corners) of the box the broad shape is averaged over.
const BROAD: usize = 4;
/// How much steeper the ground's middling undulations (what its shape over some 40 units adds
/// to the broad shape: the rolls and dips of open ground) are lit than they are, so rough
/// ground reads as rough at the game's camera and not as a flat green sheet.
const MID_GAIN: f32 = 3.5;
/// Half-size (in corners) of the box the middling shape is averaged over, and how many corners
/// either side its slope is taken across.
const MID: (usize, i64) = (1, 2);
/// The broad shape is lit from the sun's side but lower in the sky (sine of its elevation),
/// so the sides facing it and facing away differ as much as they darken: under the game's
/// high sun a slope facing it can hardly get brighter.
const RELIEF_SUN_RISE: f32 = 0.5;
/// The shader's light on the ground, roughly (`light_at`): the sky's share and the sun's.
const SKY_LIGHT: f32 = 0.37;
const SUN_LIGHT: f32 = 0.58;

/// How far (world units) each of the eight directions looks for its horizon.
const HORIZON_STEPS: [f32; 9] = [10.0, 20.0, 30.0, 45.0, 60.0, 80.0, 110.0, 150.0, 200.0];
/// How much the hidden share of the sky darkens (1: in proportion).
const OCCLUSION: f32 = 1.4;
/// Half-sizes (in corners) of the two neighbourhoods a corner is compared with: near (a crest,
/// a ditch) and wide (a hill, a basin), and the height difference (world units) that counts
/// as fully above or below each.
const NEAR: (usize, f32) = (4, 6.0);
const WIDE: (usize, f32) = (18, 18.0);
/// The most a corner is lifted or sunk for standing above or below its surroundings.
const STANDING: f32 = 0.14;
/// The shade's bounds.
const DARKEST: f32 = 0.45;
const BRIGHTEST: f32 = 1.3;

/// Heights on a grid of corners, row-major, row 0 south.
pub(super) struct Heights<'a> {
    /// One height per corner.
    pub heights: &'a [f32],
    /// Corners along a row.
    pub width: usize,
    /// World units between corners.
    pub cell: f32,
}

impl Heights<'_> {
    fn rows(&self) -> usize {
        self.heights.len() / self.width.max(1)
    }

    fn at(&self, x: i64, y: i64) -> f32 {
        let x = x.clamp(0, self.width as i64 - 1) as usize;
        let y = y.clamp(0, self.rows() as i64 - 1) as usize;
        self.heights.get(y * self.width + x).copied().unwrap_or(0.0)
    }

    /// The height at (`x`, `y`) in corners, blended between the four around it (outside the
    /// grid, the edge's).
    fn between(&self, x: f32, y: f32) -> f32 {
        let (x0, y0) = (x.floor(), y.floor());
        let (fx, fy) = (x - x0, y - y0);
        let (ix, iy) = (x0 as i64, y0 as i64);
        let bottom = self.at(ix, iy) + (self.at(ix + 1, iy) - self.at(ix, iy)) * fx;
        let top = self.at(ix, iy + 1) + (self.at(ix + 1, iy + 1) - self.at(ix, iy + 1)) * fx;
        bottom + (top - bottom) * fy
    }
}

/// Sums of the heights over every rectangle from the grid's corner (a summed-area table), for
/// the mean over any box in four reads.
struct Sums {
    sums: Vec<f64>,
    width: usize,
    rows: usize,
}

impl Sums {
    fn new(h: &Heights) -> Sums {
        let (w, rows) = (h.width, h.rows());
        let mut sums = vec![0.0f64; (w + 1) * (rows + 1)];
        for y in 0..rows {
            let mut row = 0.0f64;
            for x in 0..w {
                row += f64::from(h.heights[y * w + x]);
                sums[(y + 1) * (w + 1) + x + 1] = sums[y * (w + 1) + x + 1] + row;
            }
        }
        Sums { sums, width: w, rows }
    }

    /// The mean height within `r` corners of (`x`, `y`) each way, cut at the grid's edges.
    fn mean(&self, x: usize, y: usize, r: usize) -> f32 {
        let (x0, y0) = (x.saturating_sub(r), y.saturating_sub(r));
        let (x1, y1) = ((x + r + 1).min(self.width), (y + r + 1).min(self.rows));
        let s = |x: usize, y: usize| self.sums[y * (self.width + 1) + x];
        let total = s(x1, y1) - s(x0, y1) - s(x1, y0) + s(x0, y0);
        (total / ((x1 - x0) * (y1 - y0)).max(1) as f64) as f32
    }
}

/// The shade of every corner under a sun toward `sun` (unit): 1 on open level ground, below 1
/// where the broad slope turns from the sun, the horizon hides sky or the corner lies below
/// the ground around it, above 1 on broad slopes facing the sun, crests and hilltops.
pub(super) fn shade(h: &Heights, sun: Vec3) -> Vec<f32> {
    let (w, rows) = (h.width, h.rows());
    if w == 0 || rows == 0 || h.cell <= 0.0 {
        return vec![1.0; h.heights.len()];
    }
    let sums = Sums::new(h);
    let across = Vec3::new(sun.x, sun.y, 0.0).normalize_or(Vec3::new(-0.78, -0.63, 0.0));
    let sun = across * (1.0 - RELIEF_SUN_RISE * RELIEF_SUN_RISE).sqrt() + Vec3::Z * RELIEF_SUN_RISE;
    let dirs: Vec<(f32, f32)> = (0..8)
        .map(|k| {
            let a = k as f32 * std::f32::consts::FRAC_PI_4;
            (a.cos(), a.sin())
        })
        .collect();
    let mut out = Vec::with_capacity(w * rows);
    for y in 0..rows {
        for x in 0..w {
            let h0 = h.at(x as i64, y as i64);
            // The sky a corner sees: in each direction, the sine of the highest angle the
            // ground rises to within reach.
            let mut hidden = 0.0;
            for &(dx, dy) in &dirs {
                let mut steepest = 0.0f32;
                for d in HORIZON_STEPS {
                    let k = d / h.cell;
                    let rise = h.between(x as f32 + dx * k, y as f32 + dy * k) - h0;
                    steepest = steepest.max(rise / d);
                }
                hidden += steepest / (1.0 + steepest * steepest).sqrt();
            }
            let sky = 1.0 - OCCLUSION * hidden / dirs.len() as f32;
            let near = (h0 - sums.mean(x, y, NEAR.0)) / NEAR.1;
            let wide = (h0 - sums.mean(x, y, WIDE.0)) / WIDE.1;
            let standing = STANDING * (0.5 * near.clamp(-1.0, 1.0) + 0.5 * wide.clamp(-1.0, 1.0));
            // The broad slope, from the means of the boxes either side.
            let (xi, yi) = (x as i64, y as i64);
            let r = BROAD as i64;
            let mean_at = |x: i64, y: i64| {
                sums.mean(x.clamp(0, w as i64 - 1) as usize, y.clamp(0, rows as i64 - 1) as usize, BROAD)
            };
            let run = 2.0 * r as f32 * h.cell;
            let dzdx = (mean_at(xi + r, yi) - mean_at(xi - r, yi)) / run;
            let dzdy = (mean_at(xi, yi + r) - mean_at(xi, yi - r)) / run;
            // The middling shape's slope, less the broad one it rides on (lit apart, by its own gain).
            let m = MID.1;
            let mid_at = |x: i64, y: i64| {
                sums.mean(x.clamp(0, w as i64 - 1) as usize, y.clamp(0, rows as i64 - 1) as usize, MID.0)
            };
            let mid_run = 2.0 * m as f32 * h.cell;
            let mdx = (mid_at(xi + m, yi) - mid_at(xi - m, yi)) / mid_run;
            let mdy = (mid_at(xi, yi + m) - mid_at(xi, yi - m)) / mid_run;
            let light = |sx: f32, sy: f32| {
                let n = Vec3::new(-sx, -sy, 1.0).normalize();
                SKY_LIGHT + SUN_LIGHT * n.dot(sun).max(0.0)
            };
            let steep = |broad: f32, mid: f32| broad * BROAD_GAIN + (mid - broad) * MID_GAIN;
            let relief = light(steep(dzdx, mdx), steep(dzdy, mdy)) / light(mdx, mdy);
            out.push((relief * sky * (1.0 + standing)).clamp(DARKEST, BRIGHTEST));
        }
    }
    out
}

/// Grass's tints over its class colour (linear): dry and yellowed, lush and deep.
const DRY: Vec3 = Vec3::new(1.45, 1.02, 1.05);
const LUSH: Vec3 = Vec3::new(0.72, 0.92, 0.78);
/// Grass's tint over whole stretches of a map (linear): a cooler, blue-green meadow against a
/// warmer, olive one.
const COOL: Vec3 = Vec3::new(0.9, 1.02, 1.1);
const WARM: Vec3 = Vec3::new(1.07, 1.0, 0.9);

/// Grass is not one green: stretches some 300 units across lean cool or warm, and over them
/// patches tens of units across turn dry or lush (two octaves of noise, so their outlines
/// wander); the tint at world point (`x`, `y`) over grass's colour.
pub(super) fn grass_tint(x: f32, y: f32) -> Vec3 {
    let spot =
        crate::noise::value(71, x * 0.007, y * 0.007, 0) * 0.6 + crate::noise::value(72, x * 0.023, y * 0.023, 0) * 0.4;
    let stretch = crate::noise::value(73, x * 0.0033, y * 0.0033, 0);
    let broad = COOL.lerp(WARM, smoothstep(0.25, 0.75, stretch));
    broad * Vec3::ONE.lerp(DRY, smoothstep(0.52, 0.7, spot)).lerp(LUSH, smoothstep(0.42, 0.26, spot))
}

/// The ground's vertices with their colours scaled by [`shade`] under a sun toward `sun` and
/// their grass share tinted by [`grass_tint`] (the mesh's grid is read from its corners:
/// row-major, evenly spaced); a mesh that is not such a grid comes back as it is.
pub(super) fn shaded(mesh: &TerrainMesh, sun: Vec3) -> Vec<TerrainVertex> {
    let v = &mesh.vertices;
    let Some((width, _)) = grid_size(v) else { return v.clone() };
    let cell = v[1].position[0] - v[0].position[0];
    if cell <= 0.0 {
        return v.clone();
    }
    let heights: Vec<f32> = v.iter().map(|c| c.position[2]).collect();
    let shades = shade(&Heights { heights: &heights, width, cell }, sun);
    v.iter()
        .zip(shades)
        .map(|(c, s)| {
            let tint = Vec3::ONE.lerp(grass_tint(c.position[0], c.position[1]), c.detail[0]);
            TerrainVertex { color: (Vec3::from_array(c.color) * tint * s).to_array(), ..*c }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A sun in the south-west, as the game's.
    const SUN: Vec3 = Vec3::new(-0.56, -0.45, 0.69);

    fn grid(n: usize, f: impl Fn(f32, f32) -> f32) -> Vec<f32> {
        (0..n * n).map(|i| f((i % n) as f32, (i / n) as f32)).collect()
    }

    #[test]
    fn level_ground_is_left_as_it_is() {
        let heights = grid(20, |_, _| 30.0);
        let s = shade(&Heights { heights: &heights, width: 20, cell: 10.0 }, SUN);
        assert!(s.iter().all(|&k| (k - 1.0).abs() < 1e-4), "{s:?}");
    }

    #[test]
    fn a_valley_is_darker_than_the_crest_above_it() {
        // Two ridges 40 units high running north-south (at x 15 and 45), a valley between.
        let n = 60;
        let ridge = |x: f32| 40.0 * ((-((x - 15.0) / 6.0).powi(2)).exp() + (-((x - 45.0) / 6.0).powi(2)).exp());
        let heights = grid(n, |x, _| ridge(x));
        let s = shade(&Heights { heights: &heights, width: n, cell: 10.0 }, SUN);
        let (floor, crest) = (s[30 * n + 30], s[30 * n + 15]);
        assert!(floor < 0.85, "the valley floor {floor}");
        assert!(crest > floor + 0.15, "crest {crest} floor {floor}");
        assert!(crest >= 1.0, "a crest sees the whole sky and stands above its ground: {crest}");
    }

    #[test]
    fn a_gentle_slope_toward_the_sun_is_lit_and_one_away_from_it_darkened() {
        // A ridge rising 4 degrees from the south-west and falling to the north-east: too
        // gentle for the shader's own light to tell apart.
        let n = 60;
        let rise = 0.07;
        let heights = grid(n, |x, y| 50.0 - (x + y - 60.0).abs() * 10.0 * rise / 2f32.sqrt());
        let s = shade(&Heights { heights: &heights, width: n, cell: 10.0 }, SUN.normalize());
        let (toward, away) = (s[20 * n + 20], s[40 * n + 40]);
        assert!(toward > 1.04, "the side facing the sun {toward}");
        assert!(away < 0.9, "the side away from it {away}");
    }

    #[test]
    fn grass_comes_in_dry_and_lush_patches() {
        let tints: Vec<Vec3> = (0..400).map(|i| grass_tint((i % 20) as f32 * 60.0, (i / 20) as f32 * 60.0)).collect();
        let dry = tints.iter().filter(|t| t.x > 1.2).count();
        let lush = tints.iter().filter(|t| t.x < 0.85).count();
        assert!(dry > 20 && lush > 20 && dry + lush < 380, "{dry} dry, {lush} lush of 400");
    }

    #[test]
    fn a_hill_top_is_lifted_and_its_foot_is_not() {
        // A round hill 25 units high, 150 units across, on a plain.
        let n = 80;
        let heights = grid(n, |x, y| {
            let r = ((x - 40.0).powi(2) + (y - 40.0).powi(2)).sqrt() * 10.0;
            25.0 * (-(r / 75.0).powi(2)).exp()
        });
        let s = shade(&Heights { heights: &heights, width: n, cell: 10.0 }, SUN);
        let top = s[40 * n + 40];
        let plain = s[40 * n + 2];
        assert!(top > 1.02, "top {top}");
        assert!(top > plain, "top {top} plain {plain}");
        assert!(s.iter().all(|&k| (DARKEST..=BRIGHTEST).contains(&k)));
    }

    #[test]
    fn the_mesh_keeps_its_shape_and_only_its_colours_change() {
        let f = crate::map::roads::HeightField::from_fn((30, 30), 10.0, |x, _| if x > 150.0 { 30.0 } else { 0.0 });
        let mesh = TerrainMesh::from_field(&f, |_, _| glam::Vec3::splat(0.5));
        let out = shaded(&mesh, SUN);
        assert_eq!(out.len(), mesh.vertices.len());
        for (a, b) in out.iter().zip(&mesh.vertices) {
            assert_eq!((a.position, a.normal, a.detail), (b.position, b.normal, b.detail));
        }
        // At the cliff's foot the ground is darker than far from it.
        let w = 31;
        let foot = out[15 * w + 15].color[0] / mesh.vertices[15 * w + 15].color[0];
        let open = out[15 * w + 1].color[0] / mesh.vertices[15 * w + 1].color[0];
        assert!(foot < open - 0.1, "foot {foot} open {open}");
    }
}
