//! The land past the map's edge: a skirt of ground around the map out toward the horizon, so
//! a view tilted toward it (the camera's close zooms) looks across land fading into the haze,
//! not into a void. Its inner edge is the map's own edge corners (no seam); outward it eases
//! from the edge's height and colour to low rolling hills in the ground's average colour, and
//! higher ones far off for the horizon's line. Appended to the ground's mesh, so it costs no
//! draw call.
//!
//! Must not: be read by the simulation or by picking rules (it is scenery: nothing stands or
//! goes there), or go below the water level (there is no water past the edge to fill it).

use glam::Vec3;

use super::detail::smoothstep;
use crate::map::TerrainVertex;
use crate::map::terrain_mesh::grid_size;

/// How far each ring of the skirt lies out from the map's edge (world units): close together
/// near the edge, where the ground still follows the map's, wide apart far off.
const RINGS: [f32; 13] = [15.0, 40.0, 80.0, 140.0, 230.0, 370.0, 580.0, 900.0, 1400.0, 2200.0, 3400.0, 5200.0, 8000.0];
/// Over this distance from the edge the skirt eases from the edge's height and colour to its
/// own.
const BLEND: f32 = 400.0;
/// Over this distance the skirt's colour eases from the edge's to the ground's average.
const COLOUR_BLEND: f32 = 120.0;
/// Its hills' noise seed (display only).
const SEED: u32 = 0x5a_70;

/// The skirt's corners and triangles, to append to the ground's `vertices` (a row-major grid,
/// row 0 south): its indices count on from them, and its inner edge uses the map's own edge
/// corners. Empty when the vertices are not a grid.
pub(super) fn skirt(vertices: &[TerrainVertex], water_level: f32) -> (Vec<TerrainVertex>, Vec<u32>) {
    let Some((w, h)) = grid_size(vertices).filter(|&(_, h)| h >= 2) else { return (Vec::new(), Vec::new()) };
    let k = RINGS.len();
    // The skirt's grid lines: the rings west (south) of the map, the map's own, the rings east
    // (north) of it.
    let lines = |map: Vec<f32>| -> Vec<f32> {
        let (lo, hi) = (map[0], map[map.len() - 1]);
        RINGS.iter().rev().map(|r| lo - r).chain(map).chain(RINGS.iter().map(|r| hi + r)).collect()
    };
    let xs = lines(vertices[..w].iter().map(|v| v.position[0]).collect());
    let ys = lines((0..h).map(|y| vertices[y * w].position[1]).collect());
    let n = vertices.len() as f32;
    let mean_color = vertices.iter().fold(Vec3::ZERO, |s, v| s + Vec3::from(v.color)) / n;
    let mean_z = vertices.iter().map(|v| v.position[2]).sum::<f32>() / n;
    let base = mean_z.max(water_level + 3.0);
    let (ew, eh) = (xs.len(), ys.len());
    let inside = |i: usize, j: usize| (k..k + w).contains(&i) && (k..k + h).contains(&j);
    // Each grid point's index: the map's own corner inside it, a new corner outside.
    let mut index = vec![0u32; ew * eh];
    let mut out = Vec::new();
    for j in 0..eh {
        for i in 0..ew {
            if inside(i, j) {
                index[j * ew + i] = ((j - k) * w + (i - k)) as u32;
                continue;
            }
            let edge = vertices[(j.clamp(k, k + h - 1) - k) * w + (i.clamp(k, k + w - 1) - k)];
            let (x, y) = (xs[i], ys[j]);
            let d = glam::Vec2::new(x - edge.position[0], y - edge.position[1]).length();
            let s = smoothstep(0.0, BLEND, d);
            let hills = 12.0 + 140.0 * smoothstep(600.0, 4600.0, d);
            let own = base + (crate::noise::fractal(SEED, x / 420.0, y / 420.0, 0) - 0.4) * 2.0 * hills;
            let mut z = edge.position[2] + (own - edge.position[2]) * s;
            if d > 30.0 {
                z = z.max(water_level + 1.0);
            }
            // The edge's own patches (a dirt field, a road's verge) end soon past it, not in
            // streaks out to the horizon.
            let color = Vec3::from(edge.color).lerp(mean_color, smoothstep(0.0, COLOUR_BLEND, d));
            index[j * ew + i] = vertices.len() as u32 + out.len() as u32;
            out.push(TerrainVertex {
                position: [x, y, z],
                normal: [0.0, 0.0, 1.0],
                color: color.to_array(),
                detail: edge.detail,
            });
        }
    }
    let mut indices = Vec::new();
    for j in 0..eh - 1 {
        for i in 0..ew - 1 {
            if inside(i, j) && inside(i + 1, j + 1) {
                continue;
            }
            let (a, b, c, d) =
                (index[j * ew + i], index[j * ew + i + 1], index[(j + 1) * ew + i], index[(j + 1) * ew + i + 1]);
            indices.extend_from_slice(&[a, b, d, a, d, c]);
        }
    }
    // The skirt's own corners take the normals of the triangles around them (the map's keep
    // theirs).
    let at = |i: u32| -> Vec3 {
        let i = i as usize;
        Vec3::from(if i < vertices.len() { vertices[i].position } else { out[i - vertices.len()].position })
    };
    let mut normals = vec![Vec3::ZERO; out.len()];
    for t in indices.chunks_exact(3) {
        let face = (at(t[1]) - at(t[0])).cross(at(t[2]) - at(t[0]));
        for &i in t {
            if let Some(n) = (i as usize).checked_sub(vertices.len()).and_then(|i| normals.get_mut(i)) {
                *n += face;
            }
        }
    }
    for (v, n) in out.iter_mut().zip(normals) {
        v.normal = n.normalize_or(Vec3::Z).to_array();
    }
    (out, indices)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn grid(n: usize, z: impl Fn(usize, usize) -> f32) -> Vec<TerrainVertex> {
        let mut v = Vec::new();
        for y in 0..n {
            for x in 0..n {
                v.push(TerrainVertex {
                    position: [x as f32 * 10.0, y as f32 * 10.0, z(x, y)],
                    normal: [0.0, 0.0, 1.0],
                    color: [0.2, 0.4, 0.1],
                    detail: [1.0, 0.0, 0.0, 0.0],
                });
            }
        }
        v
    }

    #[test]
    fn the_skirt_joins_the_map_edge_and_reaches_far_out_above_the_water() {
        let map = grid(5, |x, y| 20.0 + x as f32 + y as f32);
        let (skirt, indices) = skirt(&map, 15.0);
        assert!(!skirt.is_empty() && indices.len() % 3 == 0);
        let all: Vec<&TerrainVertex> = map.iter().chain(&skirt).collect();
        assert!(indices.iter().all(|&i| (i as usize) < all.len()));
        // No triangle lies inside the map (it is drawn by the map's own mesh).
        for t in indices.chunks_exact(3) {
            assert!(t.iter().any(|&i| i as usize >= map.len()), "{t:?} is the map's own");
        }
        // Every map edge corner is used by the skirt: no seam along the edge.
        for (i, v) in map.iter().enumerate() {
            let [x, y, _] = v.position;
            if x == 0.0 || y == 0.0 || x == 40.0 || y == 40.0 {
                assert!(indices.contains(&(i as u32)), "edge corner {x},{y}");
            }
        }
        // Just past the edge the ground follows the edge's height; far out it is its own, and
        // never under the water.
        let near = skirt.iter().find(|v| v.position[0] == -15.0 && v.position[1] == 20.0).unwrap();
        assert!((near.position[2] - 22.0).abs() < 1.0, "{:?}", near.position);
        let far = skirt.iter().map(|v| v.position[0]).fold(f32::MAX, f32::min);
        assert_eq!(far, -RINGS[RINGS.len() - 1]);
        assert!(skirt.iter().filter(|v| v.position[0] < -30.0).all(|v| v.position[2] >= 16.0));
        assert!(skirt.iter().all(|v| (Vec3::from(v.normal).length() - 1.0).abs() < 1e-3 && v.normal[2] > 0.0));
    }

    #[test]
    fn no_grid_no_skirt() {
        let mut map = grid(3, |_, _| 0.0);
        map.pop();
        assert!(skirt(&map, 0.0).0.is_empty());
    }
}
