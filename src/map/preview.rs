//! A top-view picture of a map for authors and reviewers: shaded terrain coloured by class,
//! water, cliffs, the road mesh as built (each piece kind tinted), start positions, supply
//! sources and objects. Written by `ridgeline map-check <map> --preview out.png`.
//!
//! Must not: be used by the game's renderer (this is a CPU debugging view).

use glam::Vec2;
use image::{Rgb, RgbImage};

use super::Map;
use super::classes::TerrainClasses;
use super::roads::{PieceKind, RoadMesh};
use crate::content::limits::MAX_PREVIEW_SIDE;

/// How a preview marks the map's start positions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StartMarks<'a> {
    /// Start `i` in colour `i` of these (sRGB; the slots' default colours, for map authors).
    Colours(&'a [[u8; 3]]),
    /// Each start as a plain grey dot: a setup screen draws the chosen players over them.
    Plain,
}

/// Where start position `start` sits on the picture, as fractions of its width and height from
/// the top left.
pub fn start_on_picture(map: &Map, start: usize) -> Option<(f32, f32)> {
    let (w, h) = map.file.size;
    let &(x, y) = map.file.start_positions.get(start)?;
    Some((x as f32 / w.max(1) as f32, (h as f32 - y as f32) / h.max(1) as f32))
}

/// Renders the preview at `scale` pixels per cell (1 to 16, lowered so that neither side passes
/// [`MAX_PREVIEW_SIDE`] pixels), its start positions marked as `marks` says.
pub fn render(map: &Map, classes: &TerrainClasses, mesh: &RoadMesh, scale: u32, marks: StartMarks<'_>) -> RgbImage {
    let (w, h) = map.file.size;
    let scale = scale.clamp(1, 16).min(MAX_PREVIEW_SIDE / w.max(h).max(1)).max(1);
    let mut img = RgbImage::new(w * scale, h * scale);
    let blocked = map.blocked_cells(classes);
    let water = map.file.water_level;
    let hmax = map.file.max_height.max(1.0);
    for cy in 0..h {
        for cx in 0..w {
            let i = (cy * w + cx) as usize;
            let class = classes.classes.get(map.classes[i] as usize).map_or((1.0, 0.0, 1.0), |c| c.color);
            let z = map.corner_height(cx, cy);
            // Light from the north-west: slope toward it brightens.
            let dzx = map.corner_height(cx + 1, cy) - z;
            let dzy = map.corner_height(cx, cy + 1) - z;
            let shade = (1.0 + (dzy - dzx) * 0.08).clamp(0.55, 1.35) * (0.75 + 0.35 * z / hmax);
            let mut rgb = [class.0 as f64 * shade, class.1 as f64 * shade, class.2 as f64 * shade];
            if z < water {
                rgb = [0.12, 0.25 + 0.1 * z / water.max(1.0), 0.45];
            } else if blocked[i] {
                rgb = rgb.map(|c| c * 0.55);
            }
            let px = Rgb(rgb.map(|c| (c.clamp(0.0, 1.0) * 255.0) as u8));
            for dy in 0..scale {
                for dx in 0..scale {
                    img.put_pixel(cx * scale + dx, (h - 1 - cy) * scale + dy, px);
                }
            }
        }
    }
    let px_per_unit = scale as f32 / map.file.cell_size as f32;
    let to_px = |p: [f32; 3]| Vec2::new(p[0] * px_per_unit, (h * scale) as f32 - p[1] * px_per_unit);
    let mut owner = vec![0usize; mesh.vertices.len()];
    for (k, piece) in mesh.pieces.iter().enumerate() {
        for v in piece.vertices.clone() {
            if let Some(o) = owner.get_mut(v as usize) {
                *o = k;
            }
        }
    }
    for t in mesh.indices.chunks_exact(3) {
        let Some(piece) = owner.get(t[0] as usize).and_then(|&k| mesh.pieces.get(k)) else { continue };
        if t.iter().any(|&i| i as usize >= mesh.vertices.len()) {
            continue;
        }
        let mut color = match piece.kind {
            PieceKind::Straight => [70, 70, 74],
            PieceKind::Curve => [95, 80, 130],
            PieceKind::Tee => [200, 120, 40],
            PieceKind::Y => [210, 190, 40],
            PieceKind::H | PieceKind::HFlip => [40, 170, 200],
            PieceKind::FourWay => [220, 60, 60],
            PieceKind::AlphaJoin => [60, 200, 90],
            PieceKind::Cap => [230, 230, 230],
        };
        if piece.kind == PieceKind::Straight && piece.road_type % 2 == 1 {
            color = [120, 95, 60]; // dirt-coloured stretches for odd road types
        }
        let [a, b, c] = [t[0], t[1], t[2]].map(|i| to_px(mesh.vertices[i as usize].position));
        fill_triangle(&mut img, a, b, c, Rgb(color));
    }
    let dot = |img: &mut RgbImage, p: Vec2, r: f32, color: Rgb<u8>| {
        for y in (p.y - r).floor() as i64..=(p.y + r).ceil() as i64 {
            for x in (p.x - r).floor() as i64..=(p.x + r).ceil() as i64 {
                if (x >= 0 && y >= 0 && (x as u32) < img.width() && (y as u32) < img.height())
                    && Vec2::new(x as f32, y as f32).distance(p) <= r
                {
                    img.put_pixel(x as u32, y as u32, color);
                }
            }
        }
    };
    let cell_px = |(x, y): (f64, f64)| Vec2::new(x as f32 * scale as f32, (h as f32 - y as f32) * scale as f32);
    for (i, &p) in map.file.start_positions.iter().enumerate() {
        let fill = match marks {
            StartMarks::Colours(c) => c.get(i % c.len().max(1)).copied().unwrap_or([255, 255, 255]),
            StartMarks::Plain => [110, 110, 110],
        };
        dot(&mut img, cell_px(p), 3.0 * scale as f32, Rgb([255, 255, 255]));
        dot(&mut img, cell_px(p), 2.2 * scale as f32, Rgb(fill));
    }
    for s in &map.file.supplies {
        dot(&mut img, cell_px(s.at), 1.6 * scale as f32, Rgb([250, 200, 40]));
    }
    for o in &map.file.objects {
        dot(&mut img, cell_px(o.at), 0.6 * scale as f32, Rgb([20, 60, 20]));
    }
    img
}

fn fill_triangle(img: &mut RgbImage, a: Vec2, b: Vec2, c: Vec2, color: Rgb<u8>) {
    let min = a.min(b).min(c).floor().max(Vec2::ZERO);
    let max = a.max(b).max(c).ceil().min(Vec2::new(img.width() as f32 - 1.0, img.height() as f32 - 1.0));
    let area = (b - a).perp_dot(c - a);
    // Wholly off the picture (a road running past the map's edge), degenerate or not finite.
    let drawable = area.is_finite() && area.abs() >= 1e-6 && min.is_finite() && max.is_finite();
    if !drawable || !min.cmple(max).all() {
        return;
    }
    for y in min.y as u32..=max.y as u32 {
        for x in min.x as u32..=max.x as u32 {
            let p = Vec2::new(x as f32 + 0.5, y as f32 + 0.5);
            let w0 = (b - p).perp_dot(c - p) / area;
            let w1 = (c - p).perp_dot(a - p) / area;
            let w2 = 1.0 - w0 - w1;
            if w0 >= -1e-4 && w1 >= -1e-4 && w2 >= -1e-4 {
                img.put_pixel(x, y, color);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn triangles_past_the_edge_are_clipped_and_never_index_outside() {
        let mut img = RgbImage::new(8, 8);
        let red = Rgb([255, 0, 0]);
        // Wholly to the right of the picture, partly below it, and not finite: no panic.
        fill_triangle(&mut img, Vec2::new(20.0, 1.0), Vec2::new(30.0, 1.0), Vec2::new(25.0, 6.0), red);
        fill_triangle(&mut img, Vec2::new(2.0, 6.0), Vec2::new(6.0, 6.0), Vec2::new(4.0, 40.0), red);
        fill_triangle(&mut img, Vec2::new(f32::NAN, 0.0), Vec2::new(6.0, 6.0), Vec2::new(4.0, 4.0), red);
        assert_eq!(img.get_pixel(4, 7), &red, "the part inside is drawn");
        assert_eq!(img.get_pixel(7, 1), &Rgb([0, 0, 0]), "the part outside is not");
    }
}
