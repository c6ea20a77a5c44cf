//! The terrain's display mesh: one vertex per cell corner with a normal from the heightmap and
//! a colour blended from the classes of the cells around it, with a little noise so large
//! fields of one class do not look flat; steep slopes darken toward rock. Plus the water
//! surface, if any ground lies below the water level.
//!
//! Must not: depend on the renderer (the output is CPU-side, like the road mesh), or be read by
//! the simulation.

use bytemuck::{Pod, Zeroable};
use glam::{Vec2, Vec3};

use super::Map;
use super::classes::TerrainClasses;
use super::roads::HeightField;
use crate::noise;

/// One terrain vertex.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Pod, Zeroable)]
pub struct TerrainVertex {
    /// World position (x east, y north, z up).
    pub position: [f32; 3],
    /// Unit normal.
    pub normal: [f32; 3],
    /// Linear RGB.
    pub color: [f32; 3],
    /// How much of each fine pattern (grass, soil, rock, paved) the ground here shows: the
    /// share of the cells around the corner of each, so patterns blend where classes meet.
    pub detail: [f32; 4],
}

/// The terrain mesh and the water surface.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TerrainMesh {
    /// Corner vertices, row-major, row 0 south.
    pub vertices: Vec<TerrainVertex>,
    /// Triangle list.
    pub indices: Vec<u32>,
    /// The water quad's corners (empty when no ground lies below the water level).
    pub water: Vec<[f32; 3]>,
}

/// Colour of ground whose class is unknown (a map error the checker reports).
const UNKNOWN: (f32, f32, f32) = (0.5, 0.0, 0.5);
/// Colour steep slopes blend toward.
const CLIFF: Vec3 = Vec3::new(0.085, 0.075, 0.065);

impl TerrainMesh {
    /// Builds the mesh of a map.
    pub fn build(map: &Map, classes: &TerrainClasses) -> TerrainMesh {
        let field = HeightField::from_map(map);
        let (cw, ch) = map.file.size;
        let class_color = |x: i64, y: i64| -> Vec3 {
            let x = x.clamp(0, cw as i64 - 1) as usize;
            let y = y.clamp(0, ch as i64 - 1) as usize;
            let c = map
                .classes
                .get(y * cw as usize + x)
                .and_then(|&k| classes.classes.get(k as usize))
                .map_or(UNKNOWN, |c| c.color);
            srgb_to_linear(Vec3::new(c.0, c.1, c.2))
        };
        let class_detail = |x: i64, y: i64| -> usize {
            let x = x.clamp(0, cw as i64 - 1) as usize;
            let y = y.clamp(0, ch as i64 - 1) as usize;
            map.classes
                .get(y * cw as usize + x)
                .and_then(|&k| classes.classes.get(k as usize))
                .map_or(0, |c| c.detail.index())
        };
        let mut mesh = TerrainMesh::from_field(&field, |x, y| {
            // The four cells sharing this corner.
            let (x, y) = (x as i64, y as i64);
            (class_color(x - 1, y - 1) + class_color(x, y - 1) + class_color(x - 1, y) + class_color(x, y)) / 4.0
        });
        for v in &mut mesh.vertices {
            let (x, y) = ((v.position[0] / field.cell).round() as i64, (v.position[1] / field.cell).round() as i64);
            let mut detail = [0.0; 4];
            for (dx, dy) in [(-1, -1), (0, -1), (-1, 0), (0, 0)] {
                detail[class_detail(x + dx, y + dy)] += 0.25;
            }
            v.detail = detail;
        }
        mesh.with_water(&field, map.file.water_level as f32)
    }

    /// Builds the mesh of a height field with a colour per corner.
    pub fn from_field(field: &HeightField, corner_color: impl Fn(u32, u32) -> Vec3) -> TerrainMesh {
        let (w, h) = (field.width, field.height);
        let cell = field.cell;
        let z = |x: i64, y: i64| {
            let x = x.clamp(0, w as i64 - 1) as usize;
            let y = y.clamp(0, h as i64 - 1) as usize;
            field.heights.get(y * w as usize + x).copied().unwrap_or(0.0)
        };
        let mut vertices = Vec::with_capacity((w * h) as usize);
        for y in 0..h {
            for x in 0..w {
                let (xi, yi) = (x as i64, y as i64);
                let dx = (z(xi + 1, yi) - z(xi - 1, yi)) / (2.0 * cell);
                let dy = (z(xi, yi + 1) - z(xi, yi - 1)) / (2.0 * cell);
                let normal = Vec3::new(-dx, -dy, 1.0).normalize_or(Vec3::Z);
                let p = Vec2::new(x as f32, y as f32);
                let grain = 0.9 + 0.2 * noise::fractal(11, p.x / 6.0, p.y / 6.0, 0);
                let steep = ((1.0 - normal.z) * 4.0).clamp(0.0, 1.0);
                let color = corner_color(x, y).lerp(CLIFF, steep) * grain;
                vertices.push(TerrainVertex {
                    position: [x as f32 * cell, y as f32 * cell, z(xi, yi)],
                    normal: normal.to_array(),
                    color: color.to_array(),
                    detail: [1.0, 0.0, 0.0, 0.0],
                });
            }
        }
        let mut indices = Vec::with_capacity(((w - 1) * (h - 1) * 6) as usize);
        for y in 0..h.saturating_sub(1) {
            for x in 0..w.saturating_sub(1) {
                let a = y * w + x;
                indices.extend_from_slice(&cell_triangles(a, w, |i| field.heights[i as usize]));
            }
        }
        TerrainMesh { vertices, indices, water: Vec::new() }
    }

    /// Adds the water surface at `level` if any corner lies below it.
    fn with_water(mut self, field: &HeightField, level: f32) -> TerrainMesh {
        if level > 0.0 && field.heights.iter().any(|&z| z < level) {
            let (x1, y1) = ((field.width - 1) as f32 * field.cell, (field.height - 1) as f32 * field.cell);
            self.water = vec![[0.0, 0.0, level], [x1, 0.0, level], [x1, y1, level], [0.0, y1, level]];
        }
        self
    }
}

/// The corners along a row and the rows of a row-major grid of `vertices` (the first row's
/// corners share its y), or None when they are not a grid at least two corners wide.
pub fn grid_size(vertices: &[TerrainVertex]) -> Option<(usize, usize)> {
    let first = vertices.first()?;
    let w = vertices.iter().take_while(|v| v.position[1] == first.position[1]).count();
    (w >= 2 && vertices.len().is_multiple_of(w)).then(|| (w, vertices.len() / w))
}

/// The two triangles (six corner indices) of the cell whose south-west corner is `a` on a grid
/// `w` corners wide, split along the diagonal that follows the ground more closely (`z`: a
/// corner's height). The ground's rule; anything laid over the ground's cells (the water)
/// splits them the same way.
pub fn cell_triangles(a: u32, w: u32, z: impl Fn(u32) -> f32) -> [u32; 6] {
    let (b, c, d) = (a + 1, a + w, a + w + 1);
    if (z(a) - z(d)).abs() <= (z(b) - z(c)).abs() { [a, b, d, a, d, c] } else { [a, b, c, b, d, c] }
}

/// A displayed (sRGB) colour as the linear value the GPU blends and lights.
pub fn srgb_to_linear(c: Vec3) -> Vec3 {
    let f = |v: f32| if v <= 0.04045 { v / 12.92 } else { ((v + 0.055) / 1.055).powf(2.4) };
    Vec3::new(f(c.x), f(c.y), f(c.z))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_flat_field_has_upward_normals_and_two_triangles_a_cell() {
        let f = HeightField::flat((4, 3), 10.0, 5.0);
        let m = TerrainMesh::from_field(&f, |_, _| Vec3::splat(0.5));
        assert_eq!(m.vertices.len(), 5 * 4);
        assert_eq!(m.indices.len(), 4 * 3 * 6);
        assert!(m.vertices.iter().all(|v| v.normal == [0.0, 0.0, 1.0] && v.position[2] == 5.0));
        assert!(m.indices.iter().all(|&i| (i as usize) < m.vertices.len()));
        assert!(m.water.is_empty());
    }

    #[test]
    fn triangles_face_up_and_slopes_tilt_normals_downhill() {
        // Rising to the east: normals lean west.
        let f = HeightField::from_fn((6, 6), 10.0, |x, _| x * 0.5);
        let m = TerrainMesh::from_field(&f, |_, _| Vec3::splat(0.5));
        for t in m.indices.chunks(3) {
            let p = |i: u32| Vec3::from_array(m.vertices[i as usize].position);
            let n = (p(t[1]) - p(t[0])).cross(p(t[2]) - p(t[0]));
            assert!(n.z > 0.0, "counter-clockwise seen from above");
        }
        let v = m.vertices[3 * 7 + 3];
        assert!(v.normal[0] < 0.0 && v.normal[2] > 0.0);
    }

    #[test]
    fn water_appears_only_below_the_level() {
        let f = HeightField::from_fn((4, 4), 10.0, |x, _| x);
        let dry = TerrainMesh::from_field(&f, |_, _| Vec3::ONE).with_water(&f, 0.0);
        assert!(dry.water.is_empty());
        let wet = TerrainMesh::from_field(&f, |_, _| Vec3::ONE).with_water(&f, 15.0);
        assert_eq!(wet.water.len(), 4);
        assert!(wet.water.iter().all(|p| p[2] == 15.0));
    }
}
