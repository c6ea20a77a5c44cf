//! What the road builder needs of the terrain: a height anywhere and the highest point in an
//! area, from the map's heightmap (bilinear between cell corners) or a test surface.

use glam::Vec2;

use crate::map::Map;

/// Heights of the ground, in world units.
pub trait Ground {
    /// Side of a terrain cell in world units (sampling resolution).
    fn cell_size(&self) -> f32;
    /// Height at a point (bilinear between corner samples).
    fn height(&self, p: Vec2) -> f32;
    /// The highest corner sample of any cell overlapping the rectangle.
    fn max_height_in(&self, min: Vec2, max: Vec2) -> f32;
}

/// Corner heights on a regular grid.
#[derive(Clone, Debug, PartialEq)]
pub struct HeightField {
    /// Samples across (cells + 1).
    pub width: u32,
    /// Samples down (cells + 1).
    pub height: u32,
    /// Side of a cell.
    pub cell: f32,
    /// Heights in world units, row-major, row 0 south.
    pub heights: Vec<f32>,
}

impl HeightField {
    /// A flat field of `cells.0 × cells.1` cells at height `z`.
    pub fn flat(cells: (u32, u32), cell: f32, z: f32) -> HeightField {
        let (w, h) = (cells.0 + 1, cells.1 + 1);
        HeightField { width: w, height: h, cell, heights: vec![z; (w * h) as usize] }
    }

    /// A field whose corner heights come from a function of corner position (world units).
    pub fn from_fn(cells: (u32, u32), cell: f32, f: impl Fn(f32, f32) -> f32) -> HeightField {
        let (w, h) = (cells.0 + 1, cells.1 + 1);
        let mut heights = Vec::with_capacity((w * h) as usize);
        for y in 0..h {
            for x in 0..w {
                heights.push(f(x as f32 * cell, y as f32 * cell));
            }
        }
        HeightField { width: w, height: h, cell, heights }
    }

    /// The map's heightmap in world units.
    pub fn from_map(map: &Map) -> HeightField {
        let hm = &map.heightmap;
        let scale = (map.file.max_height / 65535.0) as f32;
        HeightField {
            width: hm.width,
            height: hm.height,
            cell: map.file.cell_size as f32,
            heights: hm.samples.iter().map(|&s| s as f32 * scale).collect(),
        }
    }

    fn at(&self, x: i64, y: i64) -> f32 {
        let x = x.clamp(0, self.width as i64 - 1) as usize;
        let y = y.clamp(0, self.height as i64 - 1) as usize;
        self.heights.get(y * self.width as usize + x).copied().unwrap_or(0.0)
    }
}

impl Ground for HeightField {
    fn cell_size(&self) -> f32 {
        self.cell
    }

    fn height(&self, p: Vec2) -> f32 {
        let g = p / self.cell;
        let (x0, y0) = (g.x.floor(), g.y.floor());
        let (fx, fy) = ((g.x - x0).clamp(0.0, 1.0), (g.y - y0).clamp(0.0, 1.0));
        let (x, y) = (x0 as i64, y0 as i64);
        let a = self.at(x, y);
        let b = self.at(x + 1, y);
        let c = self.at(x, y + 1);
        let d = self.at(x + 1, y + 1);
        let bottom = a + (b - a) * fx;
        let top = c + (d - c) * fx;
        bottom + (top - bottom) * fy
    }

    fn max_height_in(&self, min: Vec2, max: Vec2) -> f32 {
        let (wx, wy) = (self.width as i64 - 1, self.height as i64 - 1);
        let cx = |v: f32, hi: i64| if v.is_finite() { (v as i64).clamp(0, hi) } else { 0 };
        let (x0, y0) = (cx((min.x / self.cell).floor(), wx), cx((min.y / self.cell).floor(), wy));
        let (x1, y1) = (cx((max.x / self.cell).ceil(), wx), cx((max.y / self.cell).ceil(), wy));
        let mut best = f32::MIN;
        for y in y0..=y1.max(y0) {
            for x in x0..=x1.max(x0) {
                best = best.max(self.at(x, y));
            }
        }
        best
    }
}
