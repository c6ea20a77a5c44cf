//! The scatter kept in square chunks of the map, each with the box that bounds its items, so a
//! frame gathers only the items of the chunks its view can see (the view's frustum) into one
//! list per kind: the draw calls stay one per kind, and a view of a corner of the map no longer
//! sends every item of the map through the vertex shader.
//!
//! Must not: change which items a quality draws (a chunk keeps its items lowest rank first, and
//! a view gathers each chunk's items below the quality's share, as the whole map's list would)
//! nor decide where items stand (`scatter.rs` does).

use std::collections::BTreeMap;

use glam::{Mat4, Vec3, Vec4};

use super::ObjectInstance;
use super::scatter::Scatter;

/// A chunk's side in world units (eight cells of the shipped maps).
pub const CHUNK: f32 = 80.0;

/// One chunk of one kind: the box around its items and the items, lowest rank first.
#[derive(Clone, Debug)]
struct Chunk {
    lo: Vec3,
    hi: Vec3,
    instances: Vec<ObjectInstance>,
    ranks: Vec<f32>,
}

/// A map's scatter by kind, then by chunk.
#[derive(Clone, Debug, Default)]
pub struct ScatterChunks {
    kinds: Vec<Vec<Chunk>>,
}

/// The six planes of `view_proj`'s frustum (wgpu's clip space: depth 0..1), each as a vector
/// whose dot product with a point (w = 1) is negative outside.
fn planes(view_proj: Mat4) -> [Vec4; 6] {
    let r = |i: usize| view_proj.row(i);
    [r(3) + r(0), r(3) - r(0), r(3) + r(1), r(3) - r(1), r(2), r(3) - r(2)]
}

/// Whether the box from `lo` to `hi` lies wholly outside one of `planes`.
fn outside(planes: &[Vec4; 6], lo: Vec3, hi: Vec3) -> bool {
    planes.iter().any(|p| {
        // The box's corner furthest along the plane's normal.
        let far = Vec3::new(
            if p.x >= 0.0 { hi.x } else { lo.x },
            if p.y >= 0.0 { hi.y } else { lo.y },
            if p.z >= 0.0 { hi.z } else { lo.z },
        );
        p.dot(far.extend(1.0)) < 0.0
    })
}

impl ScatterChunks {
    /// Splits every kind of `scatter` into chunks of [`CHUNK`] units.
    pub fn new(scatter: &Scatter) -> ScatterChunks {
        let kinds = scatter
            .groups
            .iter()
            .map(|group| {
                let mut chunks: BTreeMap<(i32, i32), Chunk> = BTreeMap::new();
                for (i, &rank) in group.instances.iter().zip(group.ranks()) {
                    let at = Vec3::from_array(i.offset);
                    let key = ((at.x / CHUNK).floor() as i32, (at.y / CHUNK).floor() as i32);
                    // An item reaches out at most its largest size from its foot (a blade's
                    // lean, a stone's width), and from a little below it to its height above.
                    let reach = i.scale[0].max(i.scale[1]).max(i.scale[2]);
                    let (lo, hi) = (at - Vec3::splat(reach), at + Vec3::splat(reach * 1.2));
                    let chunk = chunks.entry(key).or_insert(Chunk { lo, hi, instances: Vec::new(), ranks: Vec::new() });
                    chunk.lo = chunk.lo.min(lo);
                    chunk.hi = chunk.hi.max(hi);
                    chunk.instances.push(*i);
                    chunk.ranks.push(rank);
                }
                chunks.into_values().collect()
            })
            .collect();
        ScatterChunks { kinds }
    }

    /// Gathers into `out` the items below `share` of every chunk `view_proj` can see, kind
    /// after kind; returns each kind's first item in `out` and its count.
    pub fn gather(&self, view_proj: Mat4, share: f32, out: &mut Vec<ObjectInstance>) -> Vec<(u32, u32)> {
        out.clear();
        let planes = planes(view_proj);
        self.kinds
            .iter()
            .map(|chunks| {
                let first = out.len();
                for c in chunks.iter().filter(|c| !outside(&planes, c.lo, c.hi)) {
                    let n = c.ranks.partition_point(|&r| r < share);
                    out.extend_from_slice(&c.instances[..n]);
                }
                (first as u32, (out.len() - first) as u32)
            })
            .collect()
    }

    /// Every item of every kind (the most [`ScatterChunks::gather`] can return).
    pub fn len(&self) -> usize {
        self.kinds.iter().flatten().map(|c| c.instances.len()).sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render::world::scatter::ScatterGroup;

    /// A kind of one item in each of 10×10 cells of 40 units, ranked by their number.
    fn grid() -> Scatter {
        let mut scatter = Scatter::default();
        let instances: Vec<ObjectInstance> = (0..100)
            .map(|i| {
                let at = [(i % 10) as f32 * 40.0 + 20.0, (i / 10) as f32 * 40.0 + 20.0, 0.0];
                ObjectInstance::still(at, 0.0, [2.0; 3], [0.5; 3], [0.5; 3])
            })
            .collect();
        scatter.groups.push(ScatterGroup::with_ranks(instances, (0..100).map(|i| i as f32 / 100.0).collect()));
        scatter
    }

    /// Looking straight down on the point `at` from 100 units up, seeing `half` units each way.
    fn looking_down(at: Vec3, half: f32) -> Mat4 {
        // Depth 0 a unit below the eye, 1 at 200 units below it.
        Mat4::from_cols(
            Vec4::new(1.0 / half, 0.0, 0.0, 0.0),
            Vec4::new(0.0, 1.0 / half, 0.0, 0.0),
            Vec4::new(0.0, 0.0, -1.0 / 199.0, 0.0),
            Vec4::new(-at.x / half, -at.y / half, (at.z + 99.0) / 199.0, 1.0),
        )
    }

    #[test]
    fn a_view_gathers_only_the_chunks_it_sees_and_each_chunks_share() {
        let scatter = grid();
        let chunks = ScatterChunks::new(&scatter);
        assert_eq!(chunks.len(), 100);
        let mut out = Vec::new();
        // The whole map in view: every item, the same count a quality draws of the whole list.
        let all = chunks.gather(looking_down(Vec3::new(200.0, 200.0, 0.0), 300.0), 1.0, &mut out);
        assert_eq!(all, vec![(0, 100)]);
        let half = chunks.gather(looking_down(Vec3::new(200.0, 200.0, 0.0), 300.0), 0.5, &mut out);
        assert_eq!(half, vec![(0, 50)]);
        assert!(out.iter().all(|i| i.offset[1] < 200.0), "the lowest-ranked half are the first five rows");
        // A view of the south-west corner only: its chunk (80 units) and no far one.
        let corner = chunks.gather(looking_down(Vec3::new(30.0, 30.0, 0.0), 20.0), 1.0, &mut out);
        assert_eq!(corner, vec![(0, 4)], "the chunk of 2×2 items under the view");
        assert!(out.iter().all(|i| i.offset[0] < CHUNK && i.offset[1] < CHUNK));
        // Looking away from the map: nothing.
        assert_eq!(chunks.gather(looking_down(Vec3::new(2000.0, 0.0, 0.0), 20.0), 1.0, &mut out), vec![(0, 0)]);
        assert!(out.is_empty());
    }
}
