//! The map generator: builds heightmaps from a few named features (noise, hills, lakes,
//! plateaus with ramps) so maps can be made and remade by a tool. Its output is committed;
//! the game only ever loads the files. The input is `maps/<name>/terrain.ron`.

use serde::{Deserialize, Serialize};

use super::classes::TerrainClasses;
use super::heightmap::Heightmap;

/// A feature pressed into the terrain; positions and radii in cells, heights in world units.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Feature {
    /// A smooth rounded hill.
    Hill {
        /// Centre.
        at: (f64, f64),
        /// Radius.
        radius: f64,
        /// Height at the top.
        height: f64,
    },
    /// A bowl carved down to `depth` below the base.
    Lake {
        /// Centre.
        at: (f64, f64),
        /// Radius.
        radius: f64,
        /// Depth at the middle.
        depth: f64,
    },
    /// A flat raised disc with steep (cliff) sides.
    Plateau {
        /// Centre.
        at: (f64, f64),
        /// Radius.
        radius: f64,
        /// Height of the top.
        height: f64,
    },
    /// A gentle slope cut through a plateau's cliff, from `from` (low) to `to` (high).
    Ramp {
        /// Low end.
        from: (f64, f64),
        /// High end.
        to: (f64, f64),
        /// Half the ramp's width.
        half_width: f64,
    },
}

/// The turn symmetry of a map's noise about its centre. Fair maps for several players place
/// their features symmetrically by hand; this makes the rolling noise (and the dirt patches)
/// match, so no start position gets rougher ground than another.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Symmetry {
    /// Noise as it comes.
    #[default]
    None,
    /// The same after half a turn (two players in opposite corners).
    Rotate2,
    /// The same after a quarter turn (four players, one per corner).
    Rotate4,
    /// The same after a quarter turn and in a mirror across either axis or diagonal: the
    /// square's eight symmetries (eight players, each start the mirror image of its
    /// neighbours').
    Mirror8,
}

/// Everything the generator needs for one heightmap.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TerrainSpec {
    /// Size in cells.
    pub size: (u32, u32),
    /// World height of raw 65535.
    pub max_height: f64,
    /// Height of flat ground.
    pub base: f64,
    /// Amplitude of the rolling noise.
    pub roughness: f64,
    /// Seed of the noise.
    pub seed: u32,
    /// The turn symmetry of the noise (default none).
    #[serde(default)]
    pub symmetry: Symmetry,
    /// Features, applied in order.
    pub features: Vec<Feature>,
    /// Terrain classes painted over the automatic ones, in order.
    #[serde(default)]
    pub paint: Vec<Paint>,
}

impl TerrainSpec {
    /// Refuses a spec the generator cannot sensibly make, before anything is allocated: a
    /// size outside the map limits, a number that is not finite, a maximum height of zero or
    /// less, heights or radii past the limits, more features than the limit. `path` names it.
    pub fn check(&self, path: &std::path::Path) -> Result<(), crate::content::FileError> {
        use crate::content::limits::{MAP_CELLS, MAX_TERRAIN_FEATURES, MAX_TERRAIN_HEIGHT};
        let bad =
            |message: String| crate::content::FileError::Syntax { path: path.to_path_buf(), line: 1, col: 1, message };
        let (w, h) = self.size;
        if !MAP_CELLS.contains(&w) || !MAP_CELLS.contains(&h) {
            return Err(bad(format!(
                "size {w}×{h}: each side must be {} to {} cells (the map limit)",
                MAP_CELLS.start(),
                MAP_CELLS.end()
            )));
        }
        if self.features.len() + self.paint.len() > MAX_TERRAIN_FEATURES {
            return Err(bad(format!(
                "{} features and paints; the limit is {MAX_TERRAIN_FEATURES}",
                self.features.len() + self.paint.len()
            )));
        }
        if !(self.max_height.is_finite() && self.max_height > 0.0 && self.max_height <= MAX_TERRAIN_HEIGHT) {
            return Err(bad(format!("max_height {}: above 0 and at most {MAX_TERRAIN_HEIGHT}", self.max_height)));
        }
        let span = f64::from(w.max(h)) * 2.0;
        let height = |what: &str, v: f64| {
            if v.is_finite() && v.abs() <= MAX_TERRAIN_HEIGHT {
                Ok(())
            } else {
                Err(bad(format!("{what} {v}: a number from -{MAX_TERRAIN_HEIGHT} to {MAX_TERRAIN_HEIGHT}")))
            }
        };
        let place = |what: &str, v: f64| {
            if v.is_finite() && v.abs() <= span {
                Ok(())
            } else {
                Err(bad(format!("{what} {v}: a number of cells within {span} of the map")))
            }
        };
        height("base", self.base)?;
        height("roughness", self.roughness)?;
        for (i, f) in self.features.iter().enumerate() {
            let what = |field: &str| format!("feature {i}: {field}");
            match *f {
                Feature::Hill { at, radius, height: v } | Feature::Plateau { at, radius, height: v } => {
                    place(&what("at"), at.0)?;
                    place(&what("at"), at.1)?;
                    place(&what("radius"), radius)?;
                    height(&what("height"), v)?;
                }
                Feature::Lake { at, radius, depth } => {
                    place(&what("at"), at.0)?;
                    place(&what("at"), at.1)?;
                    place(&what("radius"), radius)?;
                    height(&what("depth"), depth)?;
                }
                Feature::Ramp { from, to, half_width } => {
                    for v in [from.0, from.1, to.0, to.1, half_width] {
                        place(&what("from, to and half_width"), v)?;
                    }
                }
            }
        }
        for (i, p) in self.paint.iter().enumerate() {
            for v in [p.at.0, p.at.1, p.radius] {
                place(&format!("paint {i}: at and radius"), v)?;
            }
        }
        Ok(())
    }
}

/// A disc of one terrain class painted over the automatic classes.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Paint {
    /// Class name from data/terrain.ron.
    pub class: String,
    /// Centre in cells.
    pub at: (f64, f64),
    /// Radius in cells.
    pub radius: f64,
}

/// Automatic terrain classes: rock on steep cells, sand by the water, dirt patches from noise,
/// grass elsewhere; then the spec's paints. Row-major, row 0 south. Unknown class names in
/// paints are returned as errors.
pub fn classes(
    spec: &TerrainSpec,
    hm: &Heightmap,
    water_level: f64,
    classes: &TerrainClasses,
) -> Result<Vec<u8>, String> {
    let idx = |name: &str| classes.index(name).ok_or_else(|| format!("unknown terrain class \"{name}\""));
    let (grass, dirt, rock, sand) = (idx("Grass")?, idx("Dirt")?, idx("Rock")?, idx("Sand")?);
    let k = spec.max_height / 65535.0;
    let (w, h) = spec.size;
    let mut out = Vec::with_capacity(w as usize * h as usize);
    for y in 0..h {
        for x in 0..w {
            let c = [hm.at(x, y), hm.at(x + 1, y), hm.at(x, y + 1), hm.at(x + 1, y + 1)].map(|v| v as f64 * k);
            let lo = c.iter().copied().fold(f64::MAX, f64::min);
            let hi = c.iter().copied().fold(f64::MIN, f64::max);
            let n = symmetric_noise(spec, spec.seed.wrapping_add(99), x as f64 + 0.5, y as f64 + 0.5, 1.0 / 9.0);
            out.push(if hi - lo > 3.5 {
                rock
            } else if lo < water_level + 2.5 {
                sand
            } else if n > 0.74 {
                dirt
            } else {
                grass
            });
        }
    }
    for p in &spec.paint {
        let class = idx(&p.class)?;
        for y in 0..h {
            for x in 0..w {
                let d = ((x as f64 + 0.5 - p.at.0).powi(2) + (y as f64 + 0.5 - p.at.1).powi(2)).sqrt();
                if d <= p.radius {
                    out[(y * w + x) as usize] = class;
                }
            }
        }
    }
    Ok(out)
}

/// Writes a generated map's heightmap and class map together: both in place, or (a full disk,
/// a read-only folder) neither changed.
pub fn save_both(
    hm: &Heightmap,
    hm_path: &std::path::Path,
    (path, size, classes): (&std::path::Path, (u32, u32), &[u8]),
) -> Result<(), crate::content::WriteError> {
    let files = vec![hm.prepare(hm_path)?, prepare_classes(path, size, classes)?];
    crate::content::commit_all(files)
}

/// A class grid (row 0 south) encoded as an 8-bit gray PNG (top row north) into a new file
/// beside `path`, not yet in place (see `content::commit_all`).
pub fn prepare_classes(
    path: &std::path::Path,
    size: (u32, u32),
    classes: &[u8],
) -> Result<crate::content::SafeFile, crate::content::WriteError> {
    let (w, h) = size;
    let img = image::GrayImage::from_fn(w, h, |x, y| {
        image::Luma([classes.get(((h - 1 - y) * w + x) as usize).copied().unwrap_or(0)])
    });
    crate::content::prepare_image(path, &img)
}

/// Value noise in [0, 1) at a point in lattice units.
fn value_noise(seed: u32, x: f64, y: f64) -> f64 {
    crate::noise::value(seed, x as f32, y as f32, 0) as f64
}

/// Value noise at corner `(x, y)` sampled at `freq` lattice units per cell, averaged over the
/// point's turns about the map's centre under the spec's symmetry (smooth, and exactly the
/// same at every turned point). Averaging narrows the spread around the middle, so the result
/// is widened again by the square root of the number of turns.
fn symmetric_noise(spec: &TerrainSpec, seed: u32, x: f64, y: f64, freq: f64) -> f64 {
    let (cx, cy) = (spec.size.0 as f64 / 2.0, spec.size.1 as f64 / 2.0);
    let turns: &[(f64, f64)] = match spec.symmetry {
        Symmetry::None => return value_noise(seed, x * freq, y * freq),
        Symmetry::Rotate2 => &[(x - cx, y - cy), (cx - x, cy - y)],
        Symmetry::Rotate4 => &[(x - cx, y - cy), (cy - y, x - cx), (cx - x, cy - y), (y - cy, cx - x)],
        Symmetry::Mirror8 => &[
            (x - cx, y - cy),
            (cy - y, x - cx),
            (cx - x, cy - y),
            (y - cy, cx - x),
            (y - cy, x - cx),
            (cx - x, y - cy),
            (cy - y, cx - x),
            (x - cx, cy - y),
        ],
    };
    let k = turns.len() as f64;
    let mean = turns.iter().map(|&(dx, dy)| value_noise(seed, (cx + dx) * freq, (cy + dy) * freq)).sum::<f64>() / k;
    (0.5 + (mean - 0.5) * k.sqrt()).clamp(0.0, 0.999_999)
}

fn smoothstep(t: f64) -> f64 {
    let t = t.clamp(0.0, 1.0);
    t * t * (3.0 - 2.0 * t)
}

/// World height at a corner, before quantisation.
pub fn height_at(spec: &TerrainSpec, x: f64, y: f64) -> f64 {
    let mut h = spec.base;
    let mut amp = spec.roughness;
    let mut freq = 1.0 / 24.0;
    for octave in 0..3 {
        h += (symmetric_noise(spec, spec.seed.wrapping_add(octave), x, y, freq) - 0.5) * amp;
        amp *= 0.5;
        freq *= 2.0;
    }
    for f in &spec.features {
        match *f {
            Feature::Hill { at, radius, height } => {
                let d = ((x - at.0).powi(2) + (y - at.1).powi(2)).sqrt() / radius;
                h += height * smoothstep(1.0 - d);
            }
            Feature::Lake { at, radius, depth } => {
                let d = ((x - at.0).powi(2) + (y - at.1).powi(2)).sqrt() / radius;
                let target = spec.base - depth * smoothstep(1.0 - d);
                if d < 1.0 {
                    h = h.min(target + (h - spec.base).max(0.0) * d);
                }
            }
            Feature::Plateau { at, radius, height } => {
                let d = ((x - at.0).powi(2) + (y - at.1).powi(2)).sqrt();
                if d < radius {
                    h = h.max(spec.base + height);
                }
            }
            Feature::Ramp { from, to, half_width } => {
                let (dx, dy) = (to.0 - from.0, to.1 - from.1);
                let len2 = dx * dx + dy * dy;
                if len2 > 0.0 {
                    let t = ((x - from.0) * dx + (y - from.1) * dy) / len2;
                    let (px, py) = (from.0 + t * dx, from.1 + t * dy);
                    let off = ((x - px).powi(2) + (y - py).powi(2)).sqrt();
                    if (0.0..=1.0).contains(&t) && off <= half_width {
                        let low = height_without_ramps(spec, from.0, from.1);
                        let high = height_without_ramps(spec, to.0, to.1);
                        h = low + (high - low) * t;
                    }
                }
            }
        }
    }
    h.clamp(0.0, spec.max_height)
}

fn height_without_ramps(spec: &TerrainSpec, x: f64, y: f64) -> f64 {
    let mut s = spec.clone();
    s.features.retain(|f| !matches!(f, Feature::Ramp { .. }));
    height_at(&s, x, y)
}

/// Builds the heightmap for a spec: (w + 1) × (h + 1) corner samples.
pub fn heightmap(spec: &TerrainSpec) -> Heightmap {
    let (w, h) = (spec.size.0 + 1, spec.size.1 + 1);
    let mut samples = Vec::with_capacity(w as usize * h as usize);
    for y in 0..h {
        for x in 0..w {
            let v = height_at(spec, x as f64, y as f64) / spec.max_height * 65535.0;
            samples.push(v.round().clamp(0.0, 65535.0) as u16);
        }
    }
    Heightmap { width: w, height: h, samples }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::content::safe_write::simulate_disk_space;

    #[test]
    fn a_full_disk_after_the_heightmap_leaves_both_old_files_as_they_were() {
        let d = std::env::temp_dir().join(format!("ridgeline-save-both-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        let (hm_path, classes_path) = (d.join("heightmap.png"), d.join("terrain.png"));
        std::fs::write(&hm_path, b"old heights").unwrap();
        std::fs::write(&classes_path, b"old terrain").unwrap();
        let samples = (0..65u32 * 65).map(|i| (i.wrapping_mul(2_654_435_761) >> 16) as u16).collect();
        let hm = Heightmap { width: 65, height: 65, samples };
        let classes: Vec<u8> = (0..64u32 * 64).map(|i| (i % 7) as u8).collect();
        // Room for the heightmap's bytes and not for the terrain's.
        let heights = std::fs::metadata({
            let scratch = d.join("scratch.png");
            hm.save(&scratch).unwrap();
            scratch
        })
        .unwrap()
        .len();
        simulate_disk_space(Some(heights + 16));
        let e = save_both(&hm, &hm_path, (&classes_path, (64, 64), &classes)).unwrap_err();
        simulate_disk_space(None);
        assert!(e.to_string().contains("terrain.png"), "{e}");
        assert_eq!(std::fs::read(&hm_path).unwrap(), b"old heights", "the heightmap is not replaced alone");
        assert_eq!(std::fs::read(&classes_path).unwrap(), b"old terrain");
        let left: Vec<_> = std::fs::read_dir(&d)
            .unwrap()
            .filter_map(Result::ok)
            .filter(|e| e.file_name().to_string_lossy().ends_with(".tmp"))
            .collect();
        assert!(left.is_empty(), "no temporary file left");
        // With room, both are replaced.
        save_both(&hm, &hm_path, (&classes_path, (64, 64), &classes)).unwrap();
        assert_ne!(std::fs::read(&hm_path).unwrap(), b"old heights");
        assert_eq!(image::open(&classes_path).unwrap().to_luma8().get_pixel(1, 63).0[0], 1);
        let _ = std::fs::remove_dir_all(&d);
    }
}
