//! Maps: the `maps/<name>/` folder format, loading with validation, and the passability the
//! simulation plays on.
//!
//! Must not: be imported by the simulation (the sim receives a [`Terrain`] built here).

pub mod classes;
pub mod format;
pub mod generate;
pub mod heightmap;
pub mod passability;
pub mod preview;
pub mod roads;
pub mod scatter;
pub mod terrain_mesh;

use std::path::{Path, PathBuf};

use thiserror::Error;

use crate::content::{ContentRoots, FileError, parse_ron};
use crate::defs::DefsErrors;
use crate::sim::fixed::Fixed;
use crate::sim::ids::PlayerId;
use crate::sim::rules::Rules;
use crate::sim::terrain::Terrain;
use crate::sim::vector::Vec2;
use crate::sim::world::InitialObject;

pub use classes::{TerrainClass, TerrainClasses};
pub use format::{MapFile, RoadFlag};
pub use heightmap::Heightmap;
use roads::{RoadSegment, RoadTypes, SegmentFlags};
pub use terrain_mesh::{TerrainMesh, TerrainVertex};

/// Largest map side in cells.
pub const MAX_CELLS: u32 = *crate::content::limits::MAP_CELLS.end();

/// Why a map could not be loaded.
#[derive(Debug, Error)]
pub enum MapError {
    /// No such map folder or file.
    #[error("{}: map not found (looked for a folder with map.ron, by path and under maps/)", .0.display())]
    NotFound(PathBuf),
    /// A file could not be read or parsed.
    #[error(transparent)]
    File(#[from] FileError),
    /// A content file the map needs (terrain classes, road types) is broken.
    #[error("{0}")]
    Content(#[from] DefsErrors),
    /// The road network would make a mesh past the limits.
    #[error("{}: field `roads`: {source}", path.display())]
    Roads {
        /// The map file.
        path: PathBuf,
        /// How big it would be.
        source: roads::TooBig,
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

/// The shared content maps refer to: terrain classes and road types.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MapContent {
    /// `data/terrain.ron`.
    pub classes: TerrainClasses,
    /// `data/roads.ron`.
    pub roads: RoadTypes,
}

impl MapContent {
    /// Loads `data/terrain.ron` and `data/roads.ron` through the content roots.
    pub fn load(roots: &ContentRoots) -> Result<MapContent, MapError> {
        let find = |name: &str| roots.find(format!("data/{name}")).unwrap_or_else(|| PathBuf::from("data").join(name));
        Ok(MapContent {
            classes: TerrainClasses::load(&find("terrain.ron"))?,
            roads: RoadTypes::load(&find("roads.ron"))?,
        })
    }
}

/// A loaded map: its document, heightmap and terrain classes.
#[derive(Clone, Debug)]
pub struct Map {
    /// The map folder.
    pub dir: PathBuf,
    /// The RON document.
    pub file: MapFile,
    /// Corner heights.
    pub heightmap: Heightmap,
    /// Terrain class per cell, row-major, row 0 south.
    pub classes: Vec<u8>,
}

impl Map {
    /// Finds a map by folder path or by name under `maps/` in the content roots, and loads it.
    pub fn find_and_load(roots: &ContentRoots, name: &str) -> Result<Map, MapError> {
        let dir = roots.resolve("maps", name).ok_or_else(|| MapError::NotFound(PathBuf::from(name)))?;
        let dir = if dir.is_file() { dir.parent().map(Path::to_path_buf).unwrap_or_default() } else { dir };
        Map::load(&dir)
    }

    /// Loads `dir/map.ron`, its heightmap and terrain image, and checks that they agree.
    /// References to content (classes, road types, templates) are checked by [`Map::check`].
    pub fn load(dir: &Path) -> Result<Map, MapError> {
        let path = dir.join("map.ron");
        if !path.is_file() {
            return Err(MapError::NotFound(dir.to_path_buf()));
        }
        let text = crate::content::read_text(&path)?;
        let file: MapFile = parse_ron(&path, &text)?;
        let bad =
            |field: &str, message: String| MapError::Invalid { path: path.clone(), field: field.to_string(), message };
        let (w, h) = file.size;
        if !(8..=MAX_CELLS).contains(&w) || !(8..=MAX_CELLS).contains(&h) {
            return Err(bad("size", format!("{w}×{h} cells; each side must be 8..={MAX_CELLS}")));
        }
        let hm_path = dir.join(&file.heightmap);
        let heightmap = Heightmap::load(&hm_path)?;
        if (heightmap.width, heightmap.height) != (w + 1, h + 1) {
            return Err(bad(
                "heightmap",
                format!(
                    "{} is {}×{}; a {w}×{h}-cell map needs {}×{} (one sample per cell corner)",
                    file.heightmap,
                    heightmap.width,
                    heightmap.height,
                    w + 1,
                    h + 1
                ),
            ));
        }
        let t_path = dir.join(&file.terrain);
        let decoded = crate::content::open_image(&t_path)?;
        // Each pixel is a class index: any other kind of picture would be turned into the wrong
        // indices without a word (a 16-bit one divided by 257, a coloured one blended).
        if decoded.color() != image::ColorType::L8 {
            return Err(bad(
                "terrain",
                format!(
                    "{} is {}; terrain classes are 8-bit grayscale, one class index per cell",
                    file.terrain,
                    describe_color(decoded.color())
                ),
            ));
        }
        let img = decoded.into_luma8();
        if img.dimensions() != (w, h) {
            let (iw, ih) = img.dimensions();
            return Err(bad(
                "terrain",
                format!("{} is {iw}×{ih}; the map is {w}×{h} cells (one value per cell)", file.terrain),
            ));
        }
        let mut classes = Vec::with_capacity(w as usize * h as usize);
        for y in (0..h).rev() {
            classes.extend((0..w).map(|x| img.get_pixel(x, y).0[0]));
        }
        let map = Map { dir: dir.to_path_buf(), file, heightmap, classes };
        map.validate_own(&path)?;
        Ok(map)
    }

    fn validate_own(&self, path: &Path) -> Result<(), MapError> {
        let bad = |field: &str, message: String| MapError::Invalid {
            path: path.to_path_buf(),
            field: field.to_string(),
            message,
        };
        let f = &self.file;
        if !(2..=8).contains(&f.players) {
            return Err(bad("players", format!("{} players; a map is for 2 to 8", f.players)));
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
        use crate::content::limits::{MAX_MAP_OBJECTS, MAX_NAME, MAX_ROAD_LENGTH, MAX_ROAD_SEGMENTS};
        if f.name.chars().count() > MAX_NAME || f.description.chars().count() > 16 * MAX_NAME {
            return Err(bad(
                "name",
                format!("the name or description is over {MAX_NAME} (or {}) characters", 16 * MAX_NAME),
            ));
        }
        if f.roads.len() > MAX_ROAD_SEGMENTS {
            return Err(bad("roads", format!("{} road segments; the limit is {MAX_ROAD_SEGMENTS}", f.roads.len())));
        }
        let mut length = 0.0;
        for (i, r) in f.roads.iter().enumerate() {
            length += (r.to.0 - r.from.0).hypot(r.to.1 - r.from.1);
            // Not finite: `check` names the point; the road builder skips the segment.
            if length.is_finite() && length > MAX_ROAD_LENGTH {
                return Err(bad(
                    &format!("roads[{i}]"),
                    format!(
                        "the roads up to here are {:.0} cells long; the limit is {MAX_ROAD_LENGTH:.0} for all together",
                        // Rounded up: a length just past the limit never reads as equal to it.
                        length.ceil()
                    ),
                ));
            }
            if !length.is_finite() {
                length = 0.0;
            }
        }
        let placed = f.objects.len() + f.supplies.len();
        if placed > MAX_MAP_OBJECTS {
            return Err(bad("objects", format!("{placed} objects and supplies; the limit is {MAX_MAP_OBJECTS}")));
        }
        if f.start_positions.len() < f.players as usize {
            return Err(bad(
                "start_positions",
                format!("{} positions for {} players", f.start_positions.len(), f.players),
            ));
        }
        Ok(())
    }

    fn path(&self) -> PathBuf {
        self.dir.join("map.ron")
    }

    /// True if a point in cells lies on the map.
    fn inside(&self, (x, y): (f64, f64)) -> bool {
        let (w, h) = self.file.size;
        x.is_finite() && y.is_finite() && x >= 0.0 && y >= 0.0 && x < w as f64 && y < h as f64
    }

    /// Checks every reference to content: terrain class values, start positions and supply
    /// sources on passable ground, object templates, road types and road points. Returns every
    /// problem found.
    pub fn check(&self, content: &MapContent, rules: &Rules) -> Vec<MapError> {
        let path = self.path();
        let bad = |field: String, message: String| MapError::Invalid { path: path.clone(), field, message };
        let mut errors = Vec::new();
        let (w, _) = self.file.size;
        let n_classes = content.classes.classes.len();
        if let Some(i) = self.classes.iter().position(|&c| c as usize >= n_classes) {
            let (x, y) = (i % w as usize, i / w as usize);
            errors.push(bad(
                "terrain".into(),
                format!("cell ({x}, {y}) has class {} but data/terrain.ron defines {n_classes}", self.classes[i]),
            ));
            return errors;
        }
        let blocked = self.blocked_cells(&content.classes);
        let passable = |(x, y): (f64, f64)| !blocked[y as usize * w as usize + x as usize];
        for (i, &p) in self.file.start_positions.iter().enumerate() {
            if !self.inside(p) {
                errors.push(bad(format!("start_positions[{i}]"), format!("({}, {}) lies outside the map", p.0, p.1)));
            } else if !passable(p) {
                errors
                    .push(bad(format!("start_positions[{i}]"), format!("({}, {}) is on impassable ground", p.0, p.1)));
            }
        }
        if rules.template_id(&self.file.supply_template).is_none() && !self.file.supplies.is_empty() {
            errors.push(bad("supply_template".into(), format!("unknown object \"{}\"", self.file.supply_template)));
        }
        for (i, s) in self.file.supplies.iter().enumerate() {
            if !self.inside(s.at) {
                errors.push(bad(format!("supplies[{i}]"), format!("({}, {}) lies outside the map", s.at.0, s.at.1)));
            } else if !passable(s.at) {
                errors.push(bad(format!("supplies[{i}]"), format!("({}, {}) is on impassable ground", s.at.0, s.at.1)));
            }
        }
        for (i, o) in self.file.objects.iter().enumerate() {
            if rules.template_id(&o.template).is_none() {
                errors.push(bad(format!("objects[{i}].template"), format!("unknown object \"{}\"", o.template)));
            }
            if !self.inside(o.at) {
                errors.push(bad(format!("objects[{i}].at"), format!("({}, {}) lies outside the map", o.at.0, o.at.1)));
            }
        }
        for (i, r) in self.file.roads.iter().enumerate() {
            if content.roads.by_name(&r.road).is_none() {
                errors.push(bad(format!("roads[{i}].road"), format!("unknown road type \"{}\"", r.road)));
            }
            for (end, p) in [("from", r.from), ("to", r.to)] {
                let (mw, mh) = (w as f64, self.file.size.1 as f64);
                let on_map =
                    p.0.is_finite() && p.1.is_finite() && (0.0..=mw).contains(&p.0) && (0.0..=mh).contains(&p.1);
                if !on_map {
                    errors.push(bad(format!("roads[{i}].{end}"), format!("({}, {}) lies outside the map", p.0, p.1)));
                }
            }
        }
        errors
    }

    /// Raw heightmap steps per world unit of height.
    fn steps_per_unit(&self) -> f64 {
        if self.file.max_height > 0.0 { 65535.0 / self.file.max_height } else { 0.0 }
    }

    /// Blocked cells, row-major: water, cliffs and impassable terrain classes.
    pub fn blocked_cells(&self, classes: &TerrainClasses) -> Vec<bool> {
        let k = self.steps_per_unit();
        let water = (self.file.water_level * k).round() as u32;
        let cliff = if k > 0.0 { (self.file.cliff_height * k).round() as u32 } else { u32::MAX };
        let mut blocked = passability::blocked_cells(&self.heightmap, self.file.size, water, cliff);
        for (b, &c) in blocked.iter_mut().zip(&self.classes) {
            if classes.classes.get(c as usize).is_some_and(|c| !c.passable) {
                *b = true;
            }
        }
        blocked
    }

    /// World height at a corner.
    pub fn corner_height(&self, x: u32, y: u32) -> f64 {
        self.heightmap.at(x, y) as f64 * self.file.max_height / 65535.0
    }

    /// Converts a decimal from the file to fixed-point (exactly rounded: same on every machine).
    pub fn fixed(v: f64) -> Fixed {
        Fixed::from_raw((v * 65536.0).round() as i64)
    }

    /// A point in cells as a world position.
    pub fn world(&self, (x, y): (f64, f64)) -> Vec2 {
        Vec2::new(Map::fixed(x * self.file.cell_size), Map::fixed(y * self.file.cell_size))
    }

    /// The passability grid and start positions for the simulation.
    pub fn terrain(&self, classes: &TerrainClasses) -> Terrain {
        let (w, h) = self.file.size;
        let cell = Map::fixed(self.file.cell_size);
        let starts = self.file.start_positions.iter().map(|&p| self.world(p)).collect();
        Terrain::new(w, h, cell, self.blocked_cells(classes), starts)
    }

    /// The neutral objects the map places: its objects, then its supply sources. Unknown
    /// templates are skipped ([`Map::check`] reports them).
    pub fn initial_objects(&self, rules: &Rules) -> Vec<InitialObject> {
        let mut out = Vec::new();
        for o in &self.file.objects {
            if let Some(template) = rules.template_id(&o.template) {
                out.push(InitialObject { template, owner: PlayerId::NEUTRAL, pos: self.world(o.at), supply: 0 });
            }
        }
        if let Some(template) = rules.template_id(&self.file.supply_template) {
            for s in &self.file.supplies {
                out.push(InitialObject { template, owner: PlayerId::NEUTRAL, pos: self.world(s.at), supply: s.amount });
            }
        }
        out
    }

    /// The road mesh of this map over its own ground, or a refusal naming the map file.
    pub fn road_mesh(&self, types: &RoadTypes) -> Result<roads::RoadMesh, MapError> {
        let ground = roads::HeightField::from_map(self);
        roads::build(&self.road_segments(), types, &ground)
            .map_err(|source| MapError::Roads { path: self.path(), source })
    }

    /// The road segments in world units, for the road builder.
    pub fn road_segments(&self) -> Vec<RoadSegment> {
        let c = self.file.cell_size as f32;
        self.file
            .roads
            .iter()
            .map(|r| RoadSegment {
                road: r.road.clone(),
                from: glam::Vec2::new(r.from.0 as f32 * c, r.from.1 as f32 * c),
                to: glam::Vec2::new(r.to.0 as f32 * c, r.to.1 as f32 * c),
                flags: SegmentFlags {
                    angled: r.flags.contains(&RoadFlag::Angled),
                    tight: r.flags.contains(&RoadFlag::Tight),
                    join: r.flags.contains(&RoadFlag::Join),
                },
            })
            .collect()
    }
}

/// A picture's kind of pixel in words.
fn describe_color(color: image::ColorType) -> String {
    let bits = color.bits_per_pixel() / u16::from(color.channel_count()).max(1);
    let kind = match color.channel_count() {
        1 => "grayscale",
        2 => "grayscale with alpha",
        3 => "colour",
        _ => "colour with alpha",
    };
    format!("{bits}-bit {kind}")
}
