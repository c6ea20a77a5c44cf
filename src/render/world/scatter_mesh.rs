//! The scatter's meshes and their GPU side: a grass tuft, a stone and a bush built from a few
//! flat-shaded facets in unit space (one unit high, standing on z = 0), uploaded once with the
//! map, and drawn with their own plain pipeline, one instanced draw per kind of the items in
//! view this frame (so the draw calls do not grow with the number of items).
//!
//! Must not: decide where scatter stands (`scatter.rs` does) or draw anything but scatter.

use glam::{Mat4, Vec3};
use wgpu::util::DeviceExt;

use super::ObjectInstance;
use super::models::ModelVertex;
use super::scatter::Scatter;
use super::scatter_cull::ScatterChunks;
use crate::map::scatter::ScatterShape;
use crate::render::Quality;

/// Flat-shaded triangles, each facing away from a centre.
#[derive(Default)]
struct Facets {
    vertices: Vec<ModelVertex>,
}

impl Facets {
    /// A triangle facing away from `centre`; `shade` by height: the first at z = 0, the second
    /// at z = 1.
    fn tri(&mut self, [a, b, c]: [Vec3; 3], centre: Vec3, shade: (f32, f32)) {
        let mut n = (b - a).cross(c - a).normalize_or_zero();
        let (b, c) = if n.dot((a + b + c) / 3.0 - centre) < 0.0 {
            n = -n;
            (c, b)
        } else {
            (b, c)
        };
        for p in [a, b, c] {
            self.vertices.push(ModelVertex {
                position: p.to_array(),
                normal: n.to_array(),
                shade: shade.0 + (shade.1 - shade.0) * p.z.clamp(0.0, 1.0),
                team: 0.0,
                pivot: [0.0; 3],
                role: [0.0; 2],
            });
        }
    }

    /// A lumpy ball: a ring of `sides` corners between a top and a bottom, each corner pushed
    /// in or out by `bumps`.
    fn lump(&mut self, centre: Vec3, radius: Vec3, sides: usize, bumps: &[f32], shade: (f32, f32)) {
        let ring: Vec<Vec3> = (0..sides)
            .map(|i| {
                let a = i as f32 / sides as f32 * std::f32::consts::TAU;
                let r = bumps[i % bumps.len()];
                centre + Vec3::new(a.cos() * radius.x * r, a.sin() * radius.y * r, 0.0)
            })
            .collect();
        let top = centre + Vec3::new(radius.x * 0.15, -radius.y * 0.1, radius.z);
        let bottom = centre - Vec3::new(0.0, 0.0, radius.z * 0.8);
        for i in 0..sides {
            let (a, b) = (ring[i], ring[(i + 1) % sides]);
            self.tri([a, b, top], centre, shade);
            self.tri([b, a, bottom], centre, shade);
        }
    }
}

/// The unit-space triangles of `shape`.
fn shape_mesh(shape: ScatterShape) -> Vec<ModelVertex> {
    let mut f = Facets::default();
    match shape {
        ScatterShape::Tuft => {
            // Blades leaning out from the middle, darker at the root.
            for i in 0..5 {
                let a = i as f32 * 2.5 + 0.3;
                let out = Vec3::new(a.cos(), a.sin(), 0.0);
                let side = Vec3::new(-out.y, out.x, 0.0) * 0.05;
                let root = out * (0.04 + 0.03 * (i % 3) as f32);
                let tip =
                    root + out * (0.25 + 0.1 * (i % 2) as f32) + Vec3::Z * (0.7 + 0.3 * ((i * 7) % 4) as f32 / 3.0);
                // Both faces of the blade: each seen from its own side.
                let across = side.cross(tip - root).normalize_or_zero() * 0.1;
                let middle = (root * 2.0 + tip) / 3.0;
                f.tri([root - side, root + side, tip], middle - across, (0.45, 1.2));
                f.tri([root + side, root - side, tip], middle + across, (0.45, 1.2));
            }
        }
        ScatterShape::Stone => {
            let bumps = [1.0, 0.8, 1.1, 0.9, 0.75, 0.95];
            f.lump(Vec3::new(0.0, 0.0, 0.3), Vec3::new(0.75, 0.55, 0.6), 6, &bumps, (0.7, 1.05));
        }
        ScatterShape::Bush => {
            let bumps = [1.0, 0.85, 1.1, 0.9, 1.0, 0.8];
            f.lump(Vec3::new(0.0, 0.0, 0.45), Vec3::new(0.6, 0.6, 0.55), 6, &bumps, (0.6, 1.2));
            for (i, (x, y)) in [(0.4, 0.15), (-0.3, -0.35)].into_iter().enumerate() {
                let s = 0.7 - 0.08 * i as f32;
                f.lump(Vec3::new(x, y, 0.3), Vec3::new(0.4, 0.4, 0.38) * s / 0.7, 5, &bumps, (0.6, 1.2));
            }
        }
    }
    f.vertices
}

/// The scatter on the GPU: every shape's triangles in one buffer; each frame, the items the
/// view can see (`scatter_cull.rs`) in another, kind after kind.
pub(super) struct ScatterDraw {
    vertices: wgpu::Buffer,
    instances: wgpu::Buffer,
    /// Per kind: its vertices.
    kinds: Vec<std::ops::Range<u32>>,
    chunks: ScatterChunks,
    scatter: Scatter,
    pipeline: wgpu::RenderPipeline,
    /// The items gathered for this frame.
    gathered: Vec<ObjectInstance>,
    /// Per kind: its first item in the instance buffer and its count this frame.
    visible: Vec<(u32, u32)>,
}

impl ScatterDraw {
    /// Uploads `scatter`'s shapes' meshes, to be drawn with `pipeline`.
    pub(super) fn new(device: &wgpu::Device, scatter: &Scatter, pipeline: wgpu::RenderPipeline) -> ScatterDraw {
        let mut vertices = Vec::new();
        let mut kinds = Vec::new();
        for group in &scatter.groups {
            let first = vertices.len() as u32;
            vertices.extend(group.shape.map(shape_mesh).unwrap_or_default());
            kinds.push(first..vertices.len() as u32);
        }
        let chunks = ScatterChunks::new(scatter);
        let bytes: &[u8] = if vertices.is_empty() { &[0; 128] } else { bytemuck::cast_slice(&vertices) };
        let vertices = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: Some("scatter meshes"),
            contents: bytes,
            usage: wgpu::BufferUsages::VERTEX,
        });
        let instances = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("scatter instances"),
            size: (chunks.len().max(1) * std::mem::size_of::<ObjectInstance>()) as u64,
            usage: wgpu::BufferUsages::VERTEX | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        ScatterDraw {
            vertices,
            instances,
            kinds,
            chunks,
            scatter: scatter.clone(),
            pipeline,
            gathered: Vec::new(),
            visible: Vec::new(),
        }
    }

    /// Gathers and uploads what `quality` draws of the items `view_proj` can see.
    pub(super) fn prepare(&mut self, queue: &wgpu::Queue, view_proj: Mat4, quality: Quality) {
        let share = self.scatter.share(quality);
        self.visible = if share > 0.0 {
            self.chunks.gather(view_proj, share, &mut self.gathered)
        } else {
            self.gathered.clear();
            Vec::new()
        };
        if !self.gathered.is_empty() {
            queue.write_buffer(&self.instances, 0, bytemuck::cast_slice(&self.gathered));
        }
    }

    /// Draw calls [`ScatterDraw::draw`] makes this frame: one per kind with an item in view.
    pub(super) fn draw_calls(&self) -> u32 {
        self.kinds.iter().zip(&self.visible).filter(|(r, v)| !r.is_empty() && v.1 > 0).count() as u32
    }

    /// Draws the items [`ScatterDraw::prepare`] gathered (the world's globals already bound
    /// on `pass`).
    pub(super) fn draw(&self, pass: &mut wgpu::RenderPass) {
        if self.draw_calls() == 0 {
            return;
        }
        pass.set_pipeline(&self.pipeline);
        pass.set_vertex_buffer(0, self.vertices.slice(..));
        pass.set_vertex_buffer(1, self.instances.slice(..));
        for (range, &(first, n)) in self.kinds.iter().zip(&self.visible) {
            if n > 0 && !range.is_empty() {
                pass.draw(range.clone(), first..first + n);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_shape_stands_on_the_ground_and_faces_out() {
        for shape in [ScatterShape::Tuft, ScatterShape::Stone, ScatterShape::Bush] {
            let v = shape_mesh(shape);
            assert!(!v.is_empty() && v.len().is_multiple_of(3), "{shape:?}");
            let top = v.iter().map(|v| v.position[2]).fold(f32::MIN, f32::max);
            assert!((0.6..=1.2).contains(&top), "{shape:?} is {top} high");
            // Each facet's winding agrees with its normal (counter-clockwise seen from outside).
            for t in v.chunks_exact(3) {
                let p = |i: usize| Vec3::from_array(t[i].position);
                let n = (p(1) - p(0)).cross(p(2) - p(0));
                assert!(n.dot(Vec3::from_array(t[0].normal)) >= 0.0, "{shape:?}");
            }
        }
    }
}
