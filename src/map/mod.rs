//! Maps: the `maps/<name>/` folder format, loading with validation, and the passability the
//! simulation plays on.
//!
//! Must not: be imported by the simulation (the sim receives a [`Terrain`] built here).

pub mod format;
pub mod generate;
pub mod heightmap;
pub mod passability;
pub mod roads;

use std::path::{Path, PathBuf};

use thiserror::Error;

use crate::content::ContentRoots;
use crate::sim::fixed::Fixed;
use crate::sim::terrain::Terrain;
use crate::sim::vector::Vec2;

pub use format::MapFile;
pub use heightmap::Heightmap;

/// Largest map side in cells.
pub const MAX_CELLS: u32 = 512;

/// Why a map could not be loaded.
#[derive(Debug, Error)]
pub enum MapError {
    /// No such map folder or file.
    #[error("{}: map not found (looked for a folder with map.ron, by path and under maps/)", .0.display())]
    NotFound(PathBuf),
    /// A file could not be read.
    #[error("{}: cannot read: {message}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// Why.
        message: String,
    },
    /// map.ron is not valid RON for the format.
    #[error("{}:{line}:{col}: {message}", path.display())]
    Syntax {
        /// The file.
        path: PathBuf,
        /// 1-based line.
        line: usize,
        /// 1-based column.
        col: usize,
        /// What is wrong.
        message: String,
    },
    /// A value is out of range or inconsistent.
    #[error("{}: field `{field}`: {message}", path.display())]
    Invalid {
        /// The file.
        path: PathBuf,
        /// The field at fault (with an index where it helps, e.g. `start_positions[2]`).
        field: String,
        /// What is wrong.
        message: String,
    },
}

/// A loaded, validated map.
#[derive(Clone, Debug)]
pub struct Map {
    /// The map folder.
    pub dir: PathBuf,
    /// The RON document.
    pub file: MapFile,
    /// Corner heights.
    pub heightmap: Heightmap,
}

impl Map {
    /// Finds a map by folder path or by name under `maps/` in the content roots, and loads it.
    pub fn find_and_load(roots: &ContentRoots, name: &str) -> Result<Map, MapError> {
        let dir = roots.resolve("maps", name).ok_or_else(|| MapError::NotFound(PathBuf::from(name)))?;
        let dir = if dir.is_file() { dir.parent().map(Path::to_path_buf).unwrap_or_default() } else { dir };
        Map::load(&dir)
    }

    /// Loads `dir/map.ron` and its heightmap, and validates them.
    pub fn load(dir: &Path) -> Result<Map, MapError> {
        let path = dir.join("map.ron");
        if !path.is_file() {
            return Err(MapError::NotFound(dir.to_path_buf()));
        }
        let text =
            std::fs::read_to_string(&path).map_err(|e| MapError::Io { path: path.clone(), message: e.to_string() })?;
        let file: MapFile = ron::Options::default().from_str(&text).map_err(|e| MapError::Syntax {
            path: path.clone(),
            line: e.span.start.line,
            col: e.span.start.col,
            message: e.code.to_string(),
        })?;
        let hm_path = dir.join(&file.heightmap);
        let heightmap =
            Heightmap::load(&hm_path).map_err(|e| MapError::Io { path: hm_path.clone(), message: e.to_string() })?;
        let map = Map { dir: dir.to_path_buf(), file, heightmap };
        map.validate(&path)?;
        Ok(map)
    }

    fn validate(&self, path: &Path) -> Result<(), MapError> {
        let bad = |field: &str, message: String| MapError::Invalid {
            path: path.to_path_buf(),
            field: field.to_string(),
            message,
        };
        let f = &self.file;
        let (w, h) = f.size;
        if !(8..=MAX_CELLS).contains(&w) || !(8..=MAX_CELLS).contains(&h) {
            return Err(bad("size", format!("{w}×{h} cells; each side must be 8..={MAX_CELLS}")));
        }
        if !(2..=4).contains(&f.players) {
            return Err(bad("players", format!("{} players; a map is for 2 to 4", f.players)));
        }
        if !(f.cell_size.is_finite() && (1.0..=100.0).contains(&f.cell_size)) {
            return Err(bad("cell_size", format!("{} must be between 1 and 100", f.cell_size)));
        }
        if !(f.max_height.is_finite() && (0.0..=10_000.0).contains(&f.max_height)) {
            return Err(bad("max_height", format!("{} must be between 0 and 10000", f.max_height)));
        }
        for (name, v) in [("water_level", f.water_level), ("cliff_height", f.cliff_height)] {
            if !(v.is_finite() && v >= 0.0) {
                return Err(bad(name, format!("{v} must be a number ≥ 0")));
            }
        }
        let (hw, hh) = (self.heightmap.width, self.heightmap.height);
        if (hw, hh) != (w + 1, h + 1) {
            return Err(bad(
                "heightmap",
                format!(
                    "{} is {hw}×{hh}; a {w}×{h}-cell map needs {}×{} (one sample per cell corner)",
                    f.heightmap,
                    w + 1,
                    h + 1
                ),
            ));
        }
        if f.start_positions.len() < f.players as usize {
            return Err(bad(
                "start_positions",
                format!("{} positions for {} players", f.start_positions.len(), f.players),
            ));
        }
        let blocked = self.blocked_cells();
        for (i, &(x, y)) in f.start_positions.iter().enumerate() {
            let field = format!("start_positions[{i}]");
            if !(x.is_finite() && y.is_finite() && x >= 0.0 && y >= 0.0 && x < w as f64 && y < h as f64) {
                return Err(bad(&field, format!("({x}, {y}) lies outside the {w}×{h} map")));
            }
            if blocked[y as usize * w as usize + x as usize] {
                return Err(bad(&field, format!("({x}, {y}) is on impassable ground (water or cliff)")));
            }
        }
        Ok(())
    }

    /// Raw heightmap steps per world unit of height.
    fn steps_per_unit(&self) -> f64 {
        if self.file.max_height > 0.0 { 65535.0 / self.file.max_height } else { 0.0 }
    }

    /// Blocked cells, row-major.
    pub fn blocked_cells(&self) -> Vec<bool> {
        let k = self.steps_per_unit();
        let water = (self.file.water_level * k).round() as u32;
        let cliff = if k > 0.0 { (self.file.cliff_height * k).round() as u32 } else { u32::MAX };
        passability::blocked_cells(&self.heightmap, self.file.size, water, cliff)
    }

    /// World height at a corner.
    pub fn corner_height(&self, x: u32, y: u32) -> f64 {
        self.heightmap.at(x, y) as f64 * self.file.max_height / 65535.0
    }

    /// Converts a decimal from the file to fixed-point (exactly rounded: same on every machine).
    pub fn fixed(v: f64) -> Fixed {
        Fixed::from_raw((v * 65536.0).round() as i64)
    }

    /// The passability grid and start positions for the simulation.
    pub fn terrain(&self) -> Terrain {
        let (w, h) = self.file.size;
        let cell = Map::fixed(self.file.cell_size);
        let starts = self
            .file
            .start_positions
            .iter()
            .map(|&(x, y)| Vec2::new(Map::fixed(x * self.file.cell_size), Map::fixed(y * self.file.cell_size)))
            .collect();
        Terrain::new(w, h, cell, self.blocked_cells(), starts)
    }
}
