//! Procedural model meshes, one per [`Shape`], built from boxes and pyramids in unit space:
//! x across, y forward (the facing), z up, standing on z = 0. Instances scale them: units by
//! their model height, buildings and scenery by footprint and height.
//!
//! Must not: know about the simulation; the scene tells it where and how big.

use bytemuck::{Pod, Zeroable};
use glam::Vec3;

use crate::defs::model::Shape;

/// One model vertex.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Pod, Zeroable)]
pub struct ModelVertex {
    /// Position in unit space.
    pub position: [f32; 3],
    /// Unit normal.
    pub normal: [f32; 3],
    /// Brightness multiplier of this part (details darker than the body).
    pub shade: f32,
}

/// Every shape's mesh in one buffer.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ModelLibrary {
    /// All vertices.
    pub vertices: Vec<ModelVertex>,
    /// All indices (into `vertices`).
    pub indices: Vec<u32>,
    /// Index range per shape, in [`SHAPES`] order.
    pub ranges: Vec<std::ops::Range<u32>>,
}

/// The shapes in library order.
pub const SHAPES: [Shape; 6] =
    [Shape::Soldier, Shape::Wheeled, Shape::Tank, Shape::Building, Shape::Prop, Shape::Helicopter];

/// Where a shape's mesh sits in the library.
pub fn shape_index(shape: Shape) -> usize {
    SHAPES.iter().position(|&s| s == shape).unwrap_or(0)
}

struct Builder {
    vertices: Vec<ModelVertex>,
    indices: Vec<u32>,
}

impl Builder {
    fn quad(&mut self, corners: [Vec3; 4], shade: f32) {
        let n = (corners[1] - corners[0]).cross(corners[2] - corners[0]).normalize_or(Vec3::Z);
        let base = self.vertices.len() as u32;
        for c in corners {
            self.vertices.push(ModelVertex { position: c.to_array(), normal: n.to_array(), shade });
        }
        self.indices.extend_from_slice(&[base, base + 1, base + 2, base, base + 2, base + 3]);
    }

    fn tri(&mut self, corners: [Vec3; 3], shade: f32) {
        let n = (corners[1] - corners[0]).cross(corners[2] - corners[0]).normalize_or(Vec3::Z);
        let base = self.vertices.len() as u32;
        for c in corners {
            self.vertices.push(ModelVertex { position: c.to_array(), normal: n.to_array(), shade });
        }
        self.indices.extend_from_slice(&[base, base + 1, base + 2]);
    }

    /// An axis-aligned box from `min` to `max` (no bottom face).
    fn cuboid(&mut self, min: Vec3, max: Vec3, shade: f32) {
        let (a, b) = (min, max);
        let p = |x: f32, y: f32, z: f32| Vec3::new(x, y, z);
        self.quad([p(a.x, a.y, b.z), p(b.x, a.y, b.z), p(b.x, b.y, b.z), p(a.x, b.y, b.z)], shade); // top
        self.quad([p(a.x, a.y, a.z), p(b.x, a.y, a.z), p(b.x, a.y, b.z), p(a.x, a.y, b.z)], shade); // south
        self.quad([p(b.x, b.y, a.z), p(a.x, b.y, a.z), p(a.x, b.y, b.z), p(b.x, b.y, b.z)], shade); // north
        self.quad([p(a.x, b.y, a.z), p(a.x, a.y, a.z), p(a.x, a.y, b.z), p(a.x, b.y, b.z)], shade); // west
        self.quad([p(b.x, a.y, a.z), p(b.x, b.y, a.z), p(b.x, b.y, b.z), p(b.x, a.y, b.z)], shade); // east
    }

    /// A four-sided pyramid over the rectangle from `min` to `max` at height `min.z`, apex at `top`.
    fn pyramid(&mut self, min: Vec3, max: Vec3, top: f32, shade: f32) {
        let z = min.z;
        let c = [
            Vec3::new(min.x, min.y, z),
            Vec3::new(max.x, min.y, z),
            Vec3::new(max.x, max.y, z),
            Vec3::new(min.x, max.y, z),
        ];
        let apex = Vec3::new((min.x + max.x) / 2.0, (min.y + max.y) / 2.0, top);
        for i in 0..4 {
            self.tri([c[i], c[(i + 1) % 4], apex], shade);
        }
    }
}

fn build(shape: Shape, b: &mut Builder) {
    let v = Vec3::new;
    match shape {
        // Height 1: a body, a head and a rifle pointing forward.
        Shape::Soldier => {
            b.cuboid(v(-0.14, -0.09, 0.0), v(0.14, 0.09, 0.75), 1.0);
            b.cuboid(v(-0.09, -0.08, 0.75), v(0.09, 0.08, 0.95), 0.85);
            b.cuboid(v(0.1, 0.0, 0.45), v(0.15, 0.45, 0.52), 0.45);
        }
        // Height 1: a long body, a cab at the front, dark wheels.
        Shape::Wheeled => {
            b.cuboid(v(-0.55, -0.95, 0.25), v(0.55, 0.95, 0.62), 1.0);
            b.cuboid(v(-0.5, 0.2, 0.62), v(0.5, 0.85, 1.0), 0.85);
            for (x, y) in [(-0.6, -0.6), (0.6, -0.6), (-0.6, 0.6), (0.6, 0.6)] {
                b.cuboid(v(x - 0.08, y - 0.22, 0.0), v(x + 0.08, y + 0.22, 0.35), 0.3);
            }
        }
        // Height 1: tracks, a hull, a turret and a barrel.
        Shape::Tank => {
            b.cuboid(v(-0.75, -1.0, 0.0), v(-0.45, 1.0, 0.35), 0.35);
            b.cuboid(v(0.45, -1.0, 0.0), v(0.75, 1.0, 0.35), 0.35);
            b.cuboid(v(-0.5, -0.9, 0.12), v(0.5, 0.95, 0.55), 1.0);
            b.cuboid(v(-0.36, -0.45, 0.55), v(0.36, 0.3, 0.85), 0.9);
            b.cuboid(v(-0.05, 0.3, 0.64), v(0.05, 1.35, 0.74), 0.6);
        }
        // Unit square footprint, height 1: a block with a roof rim and a door.
        Shape::Building => {
            b.cuboid(v(-0.45, -0.45, 0.0), v(0.45, 0.45, 0.92), 1.0);
            b.cuboid(v(-0.48, -0.48, 0.92), v(0.48, 0.48, 1.0), 0.75);
            b.cuboid(v(-0.12, 0.45, 0.0), v(0.12, 0.47, 0.3), 0.3);
        }
        // Height 1: skids, a rounded cabin, a tail boom with a fin, a mast and two rotor blades
        // crossing over it (the scene lifts it into the air).
        Shape::Helicopter => {
            for x in [-0.35, 0.35] {
                b.cuboid(v(x - 0.04, -0.5, 0.0), v(x + 0.04, 0.55, 0.06), 0.3);
            }
            b.cuboid(v(-0.3, -0.45, 0.12), v(0.3, 0.6, 0.6), 1.0);
            b.cuboid(v(-0.22, 0.35, 0.3), v(0.22, 0.75, 0.55), 0.7);
            b.cuboid(v(-0.07, -1.3, 0.35), v(0.07, -0.45, 0.5), 0.85);
            b.cuboid(v(-0.02, -1.35, 0.35), v(0.02, -1.15, 0.75), 0.6);
            b.cuboid(v(-0.04, -0.04, 0.6), v(0.04, 0.04, 0.75), 0.4);
            b.cuboid(v(-1.1, -0.05, 0.75), v(1.1, 0.05, 0.79), 0.35);
            b.cuboid(v(-0.05, -1.1, 0.75), v(0.05, 1.1, 0.79), 0.35);
        }
        // Unit footprint, height 1: a trunk under a pointed crown.
        Shape::Prop => {
            b.cuboid(v(-0.06, -0.06, 0.0), v(0.06, 0.06, 0.3), 0.45);
            b.pyramid(v(-0.4, -0.4, 0.25), v(0.4, 0.4, 0.25), 1.0, 1.0);
        }
    }
}

impl ModelLibrary {
    /// Builds every shape.
    pub fn build() -> ModelLibrary {
        let mut b = Builder { vertices: Vec::new(), indices: Vec::new() };
        let mut ranges = Vec::new();
        for shape in SHAPES {
            let start = b.indices.len() as u32;
            build(shape, &mut b);
            ranges.push(start..b.indices.len() as u32);
        }
        ModelLibrary { vertices: b.vertices, indices: b.indices, ranges }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_shape_stands_on_the_ground_without_degenerate_triangles() {
        let lib = ModelLibrary::build();
        assert_eq!(lib.ranges.len(), SHAPES.len());
        for (shape, range) in SHAPES.iter().zip(&lib.ranges) {
            assert!(range.end > range.start, "{shape:?} is empty");
            let idx = &lib.indices[range.start as usize..range.end as usize];
            let p = |i: u32| Vec3::from_array(lib.vertices[i as usize].position);
            assert!(idx.iter().all(|&i| p(i).z >= 0.0), "{shape:?} dips below the ground");
            assert!(idx.iter().any(|&i| p(i).z == 0.0), "{shape:?} floats");
            for t in idx.chunks(3) {
                assert!((p(t[1]) - p(t[0])).cross(p(t[2]) - p(t[0])).length() > 1e-6, "{shape:?}");
            }
        }
    }

    #[test]
    fn box_faces_point_outward() {
        let mut b = Builder { vertices: Vec::new(), indices: Vec::new() };
        b.cuboid(Vec3::splat(-1.0), Vec3::splat(1.0), 1.0);
        b.pyramid(Vec3::new(-1.0, -1.0, -1.0), Vec3::new(1.0, 1.0, -1.0), 1.0, 1.0);
        for t in b.indices.chunks(3) {
            let p = |i: u32| Vec3::from_array(b.vertices[i as usize].position);
            let n = (p(t[1]) - p(t[0])).cross(p(t[2]) - p(t[0]));
            let mid = (p(t[0]) + p(t[1]) + p(t[2])) / 3.0;
            assert!(n.dot(mid) > 0.0, "a face of a shape centred at the origin points inward");
        }
    }
}
