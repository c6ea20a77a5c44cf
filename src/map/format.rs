//! The map file `maps/<name>/map.ron` as people and tools write it.
//!
//! Positions are in cells (decimals allowed, 0,0 the south-west corner). The heightmap
//! beside it is a grayscale PNG of (width + 1) × (height + 1) samples, one per cell corner.

use serde::{Deserialize, Serialize};

/// The RON document of a map.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MapFile {
    /// Display name.
    pub name: String,
    /// A line or two for the map list.
    #[serde(default)]
    pub description: String,
    /// Number of players the map is made for (2–8).
    pub players: u8,
    /// Size in cells (width, height).
    pub size: (u32, u32),
    /// Side of a cell in world units.
    #[serde(default = "default_cell_size")]
    pub cell_size: f64,
    /// Heightmap file name, relative to the map folder.
    #[serde(default = "default_heightmap")]
    pub heightmap: String,
    /// World height of the brightest heightmap value (darkest is 0).
    pub max_height: f64,
    /// Ground below this height is water (impassable to ground units).
    #[serde(default)]
    pub water_level: f64,
    /// A cell whose corners differ by more than this (world units) is a cliff.
    #[serde(default = "default_cliff")]
    pub cliff_height: f64,
    /// Start positions in cells, in slot order.
    pub start_positions: Vec<(f64, f64)>,
    /// Terrain class image (8-bit gray, one value per cell), relative to the map folder.
    #[serde(default = "default_terrain")]
    pub terrain: String,
    /// Supply sources, placed as neutral objects of `supply_template`.
    #[serde(default)]
    pub supplies: Vec<SupplySource>,
    /// The object template supply sources are made of.
    #[serde(default = "default_supply_template")]
    pub supply_template: String,
    /// Pre-placed neutral objects: trees, rocks, civilian buildings.
    #[serde(default)]
    pub objects: Vec<PlacedObject>,
    /// Road segments: a type and two points each.
    #[serde(default)]
    pub roads: Vec<RoadEntry>,
}

/// A supply source.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SupplySource {
    /// Position in cells.
    pub at: (f64, f64),
    /// Money it holds.
    pub amount: u32,
}

/// A pre-placed object.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlacedObject {
    /// Object template name.
    pub template: String,
    /// Position in cells.
    pub at: (f64, f64),
}

/// Authoring hints on a road segment.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum RoadFlag {
    /// Corners at this segment's ends are mitered, never curved.
    Angled,
    /// Curves at this segment's ends use the tight radius.
    Tight,
    /// An open end blends into a nearby road of another type, or fades out.
    Join,
}

/// One road segment as stored in the map.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RoadEntry {
    /// Road type name (from data/roads.ron).
    pub road: String,
    /// First point, in cells.
    pub from: (f64, f64),
    /// Second point, in cells.
    pub to: (f64, f64),
    /// Hints.
    #[serde(default)]
    pub flags: Vec<RoadFlag>,
}

fn default_terrain() -> String {
    "terrain.png".to_string()
}

fn default_supply_template() -> String {
    "SupplyPile".to_string()
}

fn default_cell_size() -> f64 {
    10.0
}

fn default_heightmap() -> String {
    "heightmap.png".to_string()
}

fn default_cliff() -> f64 {
    8.0
}
