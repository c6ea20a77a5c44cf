//! The road builder: road meshes generated from the segments stored in a map, in the manner of
//! Generals: chains, miters, curves, T/Y/H/four-way junctions, cross-type alpha joins and
//! fading caps, conformed to the heightmap, with atlas coordinates, batched by stacking order
//! and road type.
//!
//! The pipeline: clean segments → connectivity and runs → junctions → corners → joins and caps
//! (`topology.rs`) → tessellation over the ground and texture coordinates (`tessellate.rs`).
//! Must not: depend on the renderer (the output is CPU-side), or panic on any input.

pub mod ground;
pub mod mesh;
mod tessellate;
mod topology;
pub mod types;

use glam::Vec2;
use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::content::limits::{MAX_ROAD_TRIANGLES, MAX_ROAD_VERTICES};

pub use ground::{Ground, HeightField};
pub use mesh::{Batch, PieceInfo, PieceKind, RoadMesh, RoadStats, RoadVertex};
pub use types::{Band, RoadStyle, RoadType, RoadTypeDef, RoadTypes};

/// Authoring hints on a segment.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SegmentFlags {
    /// Corners at this segment's ends are mitered, not curved.
    pub angled: bool,
    /// Curves at this segment's ends use the tight radius.
    pub tight: bool,
    /// An open end blends into a nearby road of another type (or fades out).
    pub join: bool,
}

/// One road segment: a type and two points in world units.
#[derive(Clone, Debug, PartialEq)]
pub struct RoadSegment {
    /// Road type name.
    pub road: String,
    /// First point.
    pub from: Vec2,
    /// Second point.
    pub to: Vec2,
    /// Hints.
    pub flags: SegmentFlags,
}

/// A road network whose mesh would pass the limits on vertices or triangles.
#[derive(Debug, Error, PartialEq, Eq)]
#[error(
    "the roads would make up to {vertices} vertices and {triangles} triangles; the limits are {} and {}",
    MAX_ROAD_VERTICES,
    MAX_ROAD_TRIANGLES
)]
pub struct TooBig {
    /// Vertices the mesh could have.
    pub vertices: usize,
    /// Triangles it could have.
    pub triangles: usize,
}

/// Builds the road mesh of a set of segments over the ground, or refuses one that could pass
/// [`MAX_ROAD_VERTICES`] or [`MAX_ROAD_TRIANGLES`] before making any of it.
pub fn build(segments: &[RoadSegment], types: &RoadTypes, ground: &dyn Ground) -> Result<RoadMesh, TooBig> {
    let layout = topology::layout(segments, types, ground);
    let (vertices, triangles) = tessellate::bound(&layout, types, ground.cell_size());
    if vertices > MAX_ROAD_VERTICES || triangles > MAX_ROAD_TRIANGLES {
        return Err(TooBig { vertices, triangles });
    }
    Ok(tessellate::tessellate(&layout, types, ground))
}
