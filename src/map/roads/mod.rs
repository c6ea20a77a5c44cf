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

/// Builds the road mesh of a set of segments over the ground.
pub fn build(segments: &[RoadSegment], types: &RoadTypes, ground: &dyn Ground) -> RoadMesh {
    let layout = topology::layout(segments, types, ground);
    tessellate::tessellate(&layout, types, ground)
}
