//! The road builder's output: vertices (position, normal, uv), indices, batches by stacking
//! order and road type, per-piece records, statistics and warnings. Renderer-independent.

use std::ops::Range;

use bytemuck::{Pod, Zeroable};
use serde::Serialize;

/// What a piece of road is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub enum PieceKind {
    /// A straight stretch.
    Straight,
    /// About 30° of a curved corner.
    Curve,
    /// A T junction.
    Tee,
    /// A Y junction.
    Y,
    /// An H-style junction: a slanted branch off a through road.
    H,
    /// The mirror image of [`PieceKind::H`].
    HFlip,
    /// A four-way crossing.
    FourWay,
    /// A blend into a road of another type.
    AlphaJoin,
    /// A fading open end.
    Cap,
}

impl PieceKind {
    /// The key used in statistics (`H` and its mirror count together as `h`).
    pub fn stat_key(self) -> &'static str {
        match self {
            PieceKind::Straight => "straight",
            PieceKind::Curve => "curve",
            PieceKind::Tee => "tee",
            PieceKind::Y => "y",
            PieceKind::H | PieceKind::HFlip => "h",
            PieceKind::FourWay => "four_way",
            PieceKind::AlphaJoin => "alpha_join",
            PieceKind::Cap => "cap",
        }
    }

    /// Every statistics key, in report order.
    pub const STAT_KEYS: [&'static str; 8] = ["straight", "curve", "tee", "y", "h", "four_way", "alpha_join", "cap"];
}

/// One road vertex, laid out for a GPU vertex buffer.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Pod, Zeroable)]
pub struct RoadVertex {
    /// World position (z up).
    pub position: [f32; 3],
    /// Unit normal.
    pub normal: [f32; 3],
    /// Atlas coordinates; u repeats along the road.
    pub uv: [f32; 2],
}

/// A run of indices drawn with one road type's texture state.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Batch {
    /// Road type id.
    pub road_type: u16,
    /// Stacking order (drawn ascending).
    pub stacking: i32,
    /// First index.
    pub first_index: u32,
    /// Index count.
    pub index_count: u32,
}

/// What was built for one piece.
#[derive(Clone, Debug, PartialEq)]
pub struct PieceInfo {
    /// Kind.
    pub kind: PieceKind,
    /// Road type id.
    pub road_type: u16,
    /// Its vertices.
    pub vertices: Range<u32>,
    /// The shared edges it touches, with the emitted end points of each (left, right).
    pub edges: Vec<(usize, [[f32; 3]; 2])>,
}

/// The whole road mesh of a map.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RoadMesh {
    /// Vertices.
    pub vertices: Vec<RoadVertex>,
    /// Triangle list indices, grouped by batch.
    pub indices: Vec<u32>,
    /// Batches in drawing order.
    pub batches: Vec<Batch>,
    /// Per piece, in build order.
    pub pieces: Vec<PieceInfo>,
    /// Problems found in the input, each naming the segment or point.
    pub warnings: Vec<String>,
}

/// Counts for `map-check`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct RoadStats {
    /// Vertices.
    pub vertices: usize,
    /// Triangles.
    pub triangles: usize,
    /// Pieces by statistics key.
    pub pieces: std::collections::BTreeMap<&'static str, usize>,
}

impl RoadMesh {
    /// Vertex, triangle and piece counts.
    pub fn stats(&self) -> RoadStats {
        let mut pieces: std::collections::BTreeMap<&'static str, usize> =
            PieceKind::STAT_KEYS.iter().map(|k| (*k, 0)).collect();
        for p in &self.pieces {
            *pieces.entry(p.kind.stat_key()).or_default() += 1;
        }
        RoadStats { vertices: self.vertices.len(), triangles: self.indices.len() / 3, pieces }
    }

    /// A text snapshot of the topology: one line per kind and road type with its count.
    pub fn topology(&self, type_names: &[String]) -> String {
        let mut counts: std::collections::BTreeMap<(PieceKind, u16), usize> = Default::default();
        for p in &self.pieces {
            *counts.entry((p.kind, p.road_type)).or_default() += 1;
        }
        let mut out = String::new();
        for ((kind, ty), n) in counts {
            let name = type_names.get(ty as usize).map_or("?", String::as_str);
            out.push_str(&format!("{kind:?} {name} ×{n}\n"));
        }
        out
    }
}
