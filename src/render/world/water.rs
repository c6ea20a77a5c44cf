//! The water's surface mesh: the cells of the ground's grid that dip below the water level,
//! each corner carrying how deep the water stands over the ground there (negative where the
//! ground is above it). Split along the same diagonals as the ground, so the depth across a
//! triangle is exactly the water level less the ground's height and the shore (depth 0) lies
//! where the ground's triangles cross the surface: the shader tints the shallows, lets the
//! ground show through them and foams along that line.
//!
//! Must not: read the simulation (water is display here; where ground units may go is the
//! map's passability), or draw anything.

use bytemuck::{Pod, Zeroable};

use crate::map::TerrainVertex;
use crate::map::terrain_mesh::{cell_triangles, grid_size};

/// One corner of the water's surface.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Pod, Zeroable)]
pub(super) struct WaterVertex {
    /// World position (x east, y north, z up: the water level).
    pub position: [f32; 3],
    /// The water's depth over the ground here (world units; negative above the shore).
    pub depth: f32,
}

/// The water's triangles over a ground grid of `vertices` (row-major, row 0 south) at `level`:
/// every cell with a corner below the level, two triangles along the ground's own diagonal.
/// Empty when nothing lies below the level or the vertices are not a grid.
pub(super) fn surface(vertices: &[TerrainVertex], level: f32) -> Vec<WaterVertex> {
    let Some((w, h)) = grid_size(vertices) else { return Vec::new() };
    let corner = |i: usize| {
        let p = vertices[i].position;
        WaterVertex { position: [p[0], p[1], level], depth: level - p[2] }
    };
    let mut out = Vec::new();
    for y in 0..h.saturating_sub(1) {
        for x in 0..w - 1 {
            let tris = cell_triangles((y * w + x) as u32, w as u32, |i| vertices[i as usize].position[2]);
            if tris.iter().all(|&i| vertices[i as usize].position[2] >= level) {
                continue;
            }
            out.extend(tris.iter().map(|&i| corner(i as usize)));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn grid(heights: &[[f32; 3]; 3]) -> Vec<TerrainVertex> {
        let mut v = Vec::new();
        for (y, row) in heights.iter().enumerate() {
            for (x, &z) in row.iter().enumerate() {
                v.push(TerrainVertex {
                    position: [x as f32 * 10.0, y as f32 * 10.0, z],
                    normal: [0.0, 0.0, 1.0],
                    color: [0.5; 3],
                    detail: [1.0, 0.0, 0.0, 0.0],
                });
            }
        }
        v
    }

    #[test]
    fn only_cells_that_dip_below_the_level_get_water_with_their_depth() {
        // A pit in the south-west corner; the rest is dry land above the level 5.
        let v = grid(&[[0.0, 8.0, 9.0], [8.0, 8.0, 9.0], [9.0, 9.0, 9.0]]);
        let s = surface(&v, 5.0);
        assert_eq!(s.len(), 6, "one cell, two triangles");
        assert!(s.iter().all(|c| c.position[2] == 5.0 && c.position[0] <= 10.0 && c.position[1] <= 10.0));
        let pit = s.iter().find(|c| c.position[0] == 0.0 && c.position[1] == 0.0).unwrap();
        assert_eq!(pit.depth, 5.0);
        let shore = s.iter().find(|c| c.position[0] == 10.0 && c.position[1] == 10.0).unwrap();
        assert_eq!(shore.depth, -3.0, "the ground stands above the water there");
    }

    #[test]
    fn dry_land_and_a_broken_grid_have_no_water() {
        let dry = grid(&[[6.0; 3]; 3]);
        assert!(surface(&dry, 5.0).is_empty());
        let mut broken = grid(&[[0.0; 3]; 3]);
        broken.pop();
        assert!(surface(&broken, 5.0).is_empty(), "eight corners are no grid of rows of three");
    }
}
