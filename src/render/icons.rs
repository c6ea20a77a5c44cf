//! Object icons for the HUD, drawn on the CPU at start-up from the same procedural meshes the
//! battlefield uses: seen from the front-left and above as the game camera sees them, lit by a
//! sun from the upper left, in the model's own colour, so a unit's icon looks like the unit. No
//! GPU is needed, so shots and tests have the same icons as the game.
//!
//! Must not: know about the simulation; callers say which meshes, colours and proportions.

use glam::{Vec2, Vec3};
use image::{Rgba, RgbaImage};

use super::world::models::{ModelLibrary, TemplateMeshes};

/// The muzzle flash's role number.
const FLASH: f32 = crate::defs::model_kits::Anim::Flash as u32 as f32;
/// Samples per pixel along each side (the icon is drawn this much larger, then averaged).
const SUPERSAMPLE: u32 = 3;
/// How far the model is turned from facing the camera (radians): a three-quarter view.
const TURN: f32 = 2.6;
/// How far above the horizon the camera looks down (radians).
const ELEVATION: f32 = 0.6;

/// Draws the icon of a model (its body and turret meshes) stretched by `proportions` (x
/// across, y forward, z up; only their ratios matter) in sRGB `color`, its team parts in sRGB
/// `team`, as a `size`-pixel square with a transparent background and the model centred,
/// filling most of it.
pub fn icon(
    lib: &ModelLibrary,
    meshes: TemplateMeshes,
    color: [f32; 3],
    team: [f32; 3],
    proportions: [f32; 3],
    size: u32,
) -> RgbaImage {
    let indices: Vec<u32> = [Some(meshes.body), meshes.turret]
        .into_iter()
        .flatten()
        .filter_map(|m| lib.ranges.get(m).cloned())
        .flat_map(|r| lib.indices.get(r.start as usize..r.end as usize).unwrap_or_default().chunks_exact(3))
        // A muzzle flash shows only when firing: not on the icon.
        .filter(|tri| !tri.iter().any(|&i| lib.vertices.get(i as usize).is_some_and(|v| v.role[0] == FLASH)))
        .flatten()
        .copied()
        .collect();
    let longest = proportions.iter().copied().fold(f32::EPSILON, f32::max);
    let stretch = Vec3::from_array(proportions) / longest;
    let (s, c) = TURN.sin_cos();
    let turn = |v: Vec3| Vec3::new(v.x * c - v.y * s, v.x * s + v.y * c, v.z);
    let (es, ec) = ELEVATION.sin_cos();
    // Screen right, screen up and depth (away from the camera) of a turned point.
    let view = |v: Vec3| Vec3::new(v.x, v.y * es + v.z * ec, v.y * ec - v.z * es);
    let sun = Vec3::new(-0.45, -0.55, 0.7).normalize();
    let linear = Vec3::from_array(color).powf(2.2);
    let team = Vec3::from_array(team).powf(2.2);
    // Every vertex on screen, and its lit colour.
    let corners: Vec<(Vec3, Vec3)> = indices
        .iter()
        .map(|&i| {
            let v = lib.vertices[i as usize];
            let p = view(turn(Vec3::from_array(v.position) * stretch));
            let n = turn((Vec3::from_array(v.normal) / stretch).normalize_or(Vec3::Z));
            let light = 0.35 + 0.65 * n.dot(sun).max(0.0);
            (p, linear.lerp(team, v.team) * v.shade * light)
        })
        .collect();
    let big = size * SUPERSAMPLE;
    let mut out = RgbaImage::new(size, size);
    if corners.is_empty() {
        return out;
    }
    // Fit the drawing into the square with a margin.
    let (lo, hi) = corners.iter().fold((Vec2::splat(f32::MAX), Vec2::splat(f32::MIN)), |(lo, hi), (p, _)| {
        (lo.min(Vec2::new(p.x, p.y)), hi.max(Vec2::new(p.x, p.y)))
    });
    let extent = (hi - lo).max_element().max(f32::EPSILON);
    let scale = big as f32 * 0.86 / extent;
    let centre = (lo + hi) / 2.0;
    let to_px = |p: Vec3| {
        Vec3::new(big as f32 / 2.0 + (p.x - centre.x) * scale, big as f32 / 2.0 - (p.y - centre.y) * scale, p.z)
    };
    let mut depth = vec![f32::MAX; (big * big) as usize];
    let mut colour = vec![None::<Vec3>; (big * big) as usize];
    for tri in corners.chunks_exact(3) {
        let [a, b, c] = [to_px(tri[0].0), to_px(tri[1].0), to_px(tri[2].0)];
        let area = (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x);
        if area.abs() < 1e-6 {
            continue;
        }
        let x0 = a.x.min(b.x).min(c.x).floor().max(0.0) as u32;
        let x1 = (a.x.max(b.x).max(c.x).ceil() as u32).min(big);
        let y0 = a.y.min(b.y).min(c.y).floor().max(0.0) as u32;
        let y1 = (a.y.max(b.y).max(c.y).ceil() as u32).min(big);
        let shade = (tri[0].1 + tri[1].1 + tri[2].1) / 3.0;
        for y in y0..y1 {
            for x in x0..x1 {
                let (px, py) = (x as f32 + 0.5, y as f32 + 0.5);
                let w0 = ((c.x - b.x) * (py - b.y) - (c.y - b.y) * (px - b.x)) / area;
                let w1 = ((a.x - c.x) * (py - c.y) - (a.y - c.y) * (px - c.x)) / area;
                let w2 = 1.0 - w0 - w1;
                if w0 < 0.0 || w1 < 0.0 || w2 < 0.0 {
                    continue;
                }
                let z = w0 * a.z + w1 * b.z + w2 * c.z;
                let k = (y * big + x) as usize;
                if z < depth[k] {
                    depth[k] = z;
                    colour[k] = Some(shade);
                }
            }
        }
    }
    // Average each pixel's samples (transparent where the model is not), back to sRGB.
    let n = (SUPERSAMPLE * SUPERSAMPLE) as f32;
    for (x, y, px) in out.enumerate_pixels_mut() {
        let (mut sum, mut hits) = (Vec3::ZERO, 0.0);
        for sy in 0..SUPERSAMPLE {
            for sx in 0..SUPERSAMPLE {
                let k = ((y * SUPERSAMPLE + sy) * big + x * SUPERSAMPLE + sx) as usize;
                if let Some(c) = colour[k] {
                    sum += c;
                    hits += 1.0;
                }
            }
        }
        if hits > 0.0 {
            let c = (sum / hits).clamp(Vec3::ZERO, Vec3::ONE).powf(1.0 / 2.2) * 255.0;
            *px = Rgba([c.x.round() as u8, c.y.round() as u8, c.z.round() as u8, (255.0 * hits / n).round() as u8]);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    use super::super::world::models::shape_index;
    use crate::defs::model::Shape;

    fn body(i: usize) -> TemplateMeshes {
        TemplateMeshes { body: i, turret: None }
    }

    fn covered(img: &RgbaImage) -> usize {
        img.pixels().filter(|p| p.0[3] > 0).count()
    }

    #[test]
    fn every_shape_fills_its_icon_centred_with_a_clear_margin() {
        let lib = ModelLibrary::builtin();
        for (i, shape) in super::super::world::models::SHAPES.iter().enumerate() {
            let img = icon(&lib, body(i), [0.6, 0.5, 0.4], [0.6, 0.5, 0.4], [1.0, 1.0, 1.0], 48);
            let n = covered(&img);
            assert!(n > 48 * 48 / 10, "{shape:?} covers {n} pixels");
            // Nothing touches the edge: the drawing is fitted inside a margin.
            for i in 0..48 {
                for (x, y) in [(i, 0), (i, 47), (0, i), (47, i)] {
                    assert_eq!(img.get_pixel(x, y).0[3], 0, "{shape:?} touches the edge at ({x}, {y})");
                }
            }
            // Centred: the covered area's middle is near the icon's.
            let (mut sx, mut sy) = (0.0, 0.0);
            for (x, y, p) in img.enumerate_pixels() {
                if p.0[3] > 0 {
                    sx += x as f32;
                    sy += y as f32;
                }
            }
            let (cx, cy) = (sx / n as f32, sy / n as f32);
            assert!((cx - 23.5).abs() < 8.0 && (cy - 23.5).abs() < 8.0, "{shape:?} centred at ({cx}, {cy})");
        }
    }

    #[test]
    fn the_colour_and_proportions_show_and_the_drawing_repeats() {
        let lib = ModelLibrary::builtin();
        let tank = body(shape_index(Shape::Tank));
        let red = icon(&lib, tank, [0.8, 0.1, 0.1], [0.8, 0.1, 0.1], [1.0, 1.0, 1.0], 32);
        assert_eq!(red, icon(&lib, tank, [0.8, 0.1, 0.1], [0.8, 0.1, 0.1], [1.0, 1.0, 1.0], 32), "deterministic");
        let (r, g) = red
            .pixels()
            .filter(|p| p.0[3] == 255)
            .fold((0u32, 0u32), |(r, g), p| (r + p.0[0] as u32, g + p.0[1] as u32));
        assert!(r > 3 * g, "a red model gives a red icon ({r} vs {g})");
        // A long, low building shows wider than it is tall.
        let long = icon(&lib, body(shape_index(Shape::Building)), [0.5; 3], [0.5; 3], [4.0, 1.0, 0.5], 48);
        let rows = (0..48).filter(|&y| (0..48).any(|x| long.get_pixel(x, y).0[3] > 0)).count();
        let cols = (0..48).filter(|&x| (0..48).any(|y| long.get_pixel(x, y).0[3] > 0)).count();
        assert!(cols > rows, "{cols} columns, {rows} rows");
    }
}
