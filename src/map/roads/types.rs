//! Road types from `data/roads.ron`: width, the share of the texture that is road surface,
//! curve radii, stacking order, and the block of bands in the road atlas.

use std::path::Path;

use serde::Deserialize;

use crate::content::limits::MAX_ROAD_MESH_WIDTH;
use crate::defs::{DefsError, DefsErrors, Source};

/// Pixel size of one atlas band across the road.
pub const BAND_PX: u32 = 64;
/// Atlas width in pixels (the along-road direction, which repeats).
pub const ATLAS_WIDTH: u32 = 512;

/// The atlas bands of one road type, in order within its block.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Band {
    /// Straight pieces.
    Straight,
    /// Curves at the normal radius.
    Curve,
    /// Curves at the tight radius.
    TightCurve,
    /// T junctions.
    Tee,
    /// Y junctions.
    Y,
    /// H (offset) junctions.
    H,
    /// Four-way crossings.
    FourWay,
    /// Alpha joins and fading caps.
    AlphaJoin,
}

impl Band {
    /// Bands per road type block.
    pub const COUNT: u32 = 8;

    /// Index within the block.
    pub fn index(self) -> u32 {
        self as u32
    }
}

/// How the atlas generator paints a road type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
pub enum RoadStyle {
    /// Dark asphalt with edge lines and a dashed centre line.
    Asphalt,
    /// A dirt track with ruts.
    Dirt,
    /// Cracked, patched asphalt.
    Damaged,
}

/// One entry of `data/roads.ron`.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RoadTypeDef {
    /// Unique name, as maps refer to it.
    pub name: String,
    /// Driven surface width in world units.
    pub width: f32,
    /// Share of the band across the road that is surface (0.1–1).
    pub width_in_texture: f32,
    /// Block of bands in the atlas.
    pub atlas_block: u32,
    /// Normal curve radius, in road widths.
    pub curve_radius: f32,
    /// Tight curve radius, in road widths.
    pub tight_radius: f32,
    /// Draw order: higher draws over lower.
    pub stacking: i32,
    /// Painting style for the atlas generator.
    pub style: RoadStyle,
}

/// A validated road type with its numeric id (its index).
#[derive(Clone, Debug, PartialEq)]
pub struct RoadType {
    /// Numeric id used for connectivity and batching.
    pub id: u16,
    /// The definition.
    pub def: RoadTypeDef,
}

impl RoadType {
    /// Half the mesh width (surface plus shoulders), world units.
    pub fn half_width(&self) -> f32 {
        self.def.width / self.def.width_in_texture / 2.0
    }

    /// The atlas v coordinate range of a band of this type (with half a pixel of margin).
    pub fn band_v(&self, band: Band, blocks: u32) -> (f32, f32) {
        let height = (blocks.max(1) * Band::COUNT * BAND_PX) as f32;
        let top = ((self.def.atlas_block * Band::COUNT + band.index()) * BAND_PX) as f32;
        ((top + 0.5) / height, (top + BAND_PX as f32 - 0.5) / height)
    }
}

/// All road types.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RoadTypes {
    /// By id.
    pub types: Vec<RoadType>,
}

impl RoadTypes {
    /// Reads and validates `roads.ron`.
    pub fn load(path: &Path) -> Result<RoadTypes, DefsErrors> {
        let src = Source::read(path).map_err(|e| DefsErrors(vec![e]))?;
        RoadTypes::from_source(&src)
    }

    /// Parses and validates a roads file.
    pub fn from_source(src: &Source) -> Result<RoadTypes, DefsErrors> {
        let defs: Vec<RoadTypeDef> = src.parse().map_err(|e| DefsErrors(vec![e]))?;
        let mut errors: Vec<DefsError> = Vec::new();
        let mut types = Vec::new();
        for (i, d) in defs.into_iter().enumerate() {
            let bad = |field: &'static str, m: String| src.invalid("road", &d.name, field, m);
            if types.iter().any(|t: &RoadType| t.def.name == d.name) {
                errors.push(bad("name", "defined twice".into()));
            }
            if !(d.width.is_finite() && (1.0..=200.0).contains(&d.width)) {
                errors.push(bad("width", format!("{} must be between 1 and 200", d.width)));
            }
            if !(d.width_in_texture.is_finite() && (0.1..=1.0).contains(&d.width_in_texture)) {
                errors.push(bad("width_in_texture", format!("{} must be between 0.1 and 1", d.width_in_texture)));
            }
            let mesh_width = d.width / d.width_in_texture;
            if mesh_width.is_finite() && mesh_width > MAX_ROAD_MESH_WIDTH {
                errors.push(bad(
                    "width",
                    format!(
                        "with width_in_texture {} the mesh is {mesh_width} wide; the limit is {MAX_ROAD_MESH_WIDTH}",
                        d.width_in_texture
                    ),
                ));
            }
            for (field, r) in [("curve_radius", d.curve_radius), ("tight_radius", d.tight_radius)] {
                if !(r.is_finite() && (0.6..=20.0).contains(&r)) {
                    errors.push(bad(field, format!("{r} must be between 0.6 and 20 road widths")));
                }
            }
            if d.atlas_block > 64 {
                errors.push(bad("atlas_block", format!("{} is past the atlas", d.atlas_block)));
            }
            types.push(RoadType { id: i as u16, def: d });
        }
        if errors.is_empty() { Ok(RoadTypes { types }) } else { Err(DefsErrors(errors)) }
    }

    /// A type by name.
    pub fn by_name(&self, name: &str) -> Option<&RoadType> {
        self.types.iter().find(|t| t.def.name == name)
    }

    /// Number of atlas blocks needed.
    pub fn blocks(&self) -> u32 {
        self.types.iter().map(|t| t.def.atlas_block + 1).max().unwrap_or(1)
    }
}
