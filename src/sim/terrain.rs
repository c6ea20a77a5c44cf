//! The simulation's view of a map: a passability grid in cells, plus start positions.
//!
//! Built by `map` from the heightmap, water level and terrain classes; structures add and
//! remove their footprints as they are placed and destroyed. Must not: keep heights or
//! anything for drawing (the renderer reads the map itself).

use super::divisor::Divisor;
use super::fixed::Fixed;
use super::vector::Vec2;

/// A cell coordinate; may lie outside the map (then it is impassable).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Cell {
    /// Column.
    pub x: i32,
    /// Row.
    pub y: i32,
}

/// The passability grid of the map being played.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct Terrain {
    width: u32,
    height: u32,
    cell_size: Fixed,
    /// Division by `cell_size`, prepared.
    cell_divisor: Divisor,
    /// The map's extent in world units.
    size: Vec2,
    blocked: Vec<bool>,
    structures: Vec<u16>,
    /// One bit per cell, set where ground units may stand (neither blocked nor under a
    /// structure): what `blocked` and `structures` say, kept in 1/16 of their bytes for the
    /// question movement and separation ask of every unit each frame. Not hashed: derived.
    open: Vec<u64>,
    start_positions: Vec<Vec2>,
    /// Counts changes to passability (structures placed and removed), so derived maps such as
    /// the pathfinder's regions know when to rebuild. Not part of the hash: it follows from the
    /// structure counts, which are.
    revision: u64,
}

impl std::hash::Hash for Terrain {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.width.hash(state);
        self.height.hash(state);
        self.cell_size.hash(state);
        self.blocked.hash(state);
        self.structures.hash(state);
        self.start_positions.hash(state);
    }
}

impl Terrain {
    /// A grid of `width × height` cells; `blocked` is row-major and must have one entry per cell
    /// (a shorter vector counts the missing cells as blocked).
    pub fn new(
        width: u32,
        height: u32,
        cell_size: Fixed,
        mut blocked: Vec<bool>,
        start_positions: Vec<Vec2>,
    ) -> Terrain {
        let cells = width as usize * height as usize;
        blocked.resize(cells, true);
        let size = Vec2::new(cell_size.mul_int(width as i64), cell_size.mul_int(height as i64));
        let mut open = vec![0u64; cells.div_ceil(64)];
        for (i, _) in blocked.iter().enumerate().filter(|(_, b)| !**b) {
            open[i / 64] |= 1 << (i % 64);
        }
        Terrain {
            width,
            height,
            cell_size,
            cell_divisor: Divisor::new(cell_size),
            size,
            blocked,
            structures: vec![0; cells],
            open,
            start_positions,
            revision: 0,
        }
    }

    /// An open, flat field (for tests and benchmarks).
    pub fn open(width: u32, height: u32, cell_size: Fixed, start_positions: Vec<Vec2>) -> Terrain {
        Terrain::new(width, height, cell_size, vec![false; width as usize * height as usize], start_positions)
    }

    /// Width in cells.
    pub fn width(&self) -> u32 {
        self.width
    }

    /// Height in cells.
    pub fn height(&self) -> u32 {
        self.height
    }

    /// Side of a cell in world units.
    pub fn cell_size(&self) -> Fixed {
        self.cell_size
    }

    /// The map's extent in world units.
    pub fn world_size(&self) -> Vec2 {
        self.size
    }

    /// The way from `p` toward the map's middle on each axis, as signs (1 where `p` lies on
    /// the middle): what layouts around mirrored points turn by, so that they come out mirrored.
    pub fn toward_middle(&self, p: Vec2) -> (i32, i32) {
        let middle = self.world_size().scale(Fixed::HALF);
        let sign = |a: Fixed, m: Fixed| if a > m { -1 } else { 1 };
        (sign(p.x, middle.x), sign(p.y, middle.y))
    }

    /// Start positions in slot order.
    pub fn start_positions(&self) -> &[Vec2] {
        &self.start_positions
    }

    /// True if the point lies on the map.
    pub fn contains(&self, p: Vec2) -> bool {
        let size = self.world_size();
        p.x >= Fixed::ZERO && p.y >= Fixed::ZERO && p.x < size.x && p.y < size.y
    }

    /// The cell under a point.
    #[inline]
    pub fn cell_of(&self, p: Vec2) -> Cell {
        let d = self.cell_divisor;
        Cell { x: d.floor_div(p.x) as i32, y: d.floor_div(p.y) as i32 }
    }

    /// The centre of a cell in world units.
    pub fn center(&self, c: Cell) -> Vec2 {
        let half = self.cell_size.div_int(2);
        Vec2::new(self.cell_size.mul_int(c.x as i64) + half, self.cell_size.mul_int(c.y as i64) + half)
    }

    /// Row-major index of an in-bounds cell.
    pub fn index(&self, c: Cell) -> Option<usize> {
        if c.x < 0 || c.y < 0 || c.x >= self.width as i32 || c.y >= self.height as i32 {
            None
        } else {
            Some(c.y as usize * self.width as usize + c.x as usize)
        }
    }

    /// The cell of a row-major index.
    pub fn cell_at(&self, index: usize) -> Cell {
        Cell { x: (index % self.width as usize) as i32, y: (index / self.width as usize) as i32 }
    }

    /// True if ground units may stand in the cell.
    pub fn passable(&self, c: Cell) -> bool {
        self.index(c).is_some_and(|i| self.open_at(i))
    }

    /// True if ground units may stand in the cell of row-major index `index` (as `passable`;
    /// off the map: false).
    #[inline]
    pub fn open_at(&self, index: usize) -> bool {
        self.open.get(index / 64).is_some_and(|w| w & (1 << (index % 64)) != 0)
    }

    /// True if the cell is blocked by the ground itself (cliff, water), ignoring structures.
    pub fn terrain_blocked(&self, c: Cell) -> bool {
        self.index(c).is_none_or(|i| self.blocked[i])
    }

    /// True if a point stands on a passable cell.
    #[inline]
    pub fn passable_at(&self, p: Vec2) -> bool {
        if !self.contains(p) {
            return false;
        }
        // On the map, so the cell is too: 0 ≤ p < cell side × cells along each axis.
        let d = self.cell_divisor;
        let (x, y) = (d.floor_div(p.x) as usize, d.floor_div(p.y) as usize);
        self.open_at(y * self.width as usize + x)
    }

    /// True if both points are on the map and every cell of the box they span is passable:
    /// then so is every point between them, on any path that stays in the box.
    pub fn open_between(&self, a: Vec2, b: Vec2) -> bool {
        if !self.contains(a) || !self.contains(b) {
            return false;
        }
        let (lo, hi) =
            (self.cell_of(Vec2::new(a.x.min(b.x), a.y.min(b.y))), self.cell_of(Vec2::new(a.x.max(b.x), a.y.max(b.y))));
        (lo.y..=hi.y).all(|y| (lo.x..=hi.x).all(|x| self.passable(Cell { x, y })))
    }

    /// The cells a footprint of `w × h` cells centred on `p` covers.
    pub fn footprint(&self, p: Vec2, (w, h): (u8, u8)) -> impl Iterator<Item = Cell> + use<> {
        let c = self.cell_of(p);
        let (x0, y0) = (c.x - w as i32 / 2, c.y - h as i32 / 2);
        (0..h as i32).flat_map(move |dy| (0..w as i32).map(move |dx| Cell { x: x0 + dx, y: y0 + dy }))
    }

    /// Marks (or, with `add == false`, unmarks) a structure's footprint as blocked.
    pub fn mark_structure(&mut self, p: Vec2, size: (u8, u8), add: bool) {
        self.revision = self.revision.wrapping_add(1);
        let cells: Vec<Cell> = self.footprint(p, size).collect();
        for c in cells {
            if let Some(i) = self.index(c) {
                self.structures[i] =
                    if add { self.structures[i].saturating_add(1) } else { self.structures[i].saturating_sub(1) };
                let bit = 1 << (i % 64);
                if !self.blocked[i] && self.structures[i] == 0 {
                    self.open[i / 64] |= bit;
                } else {
                    self.open[i / 64] &= !bit;
                }
            }
        }
    }

    /// Changes to passability so far (structures placed and removed).
    pub fn revision(&self) -> u64 {
        self.revision
    }

    /// The nearest passable cell to `c` within `radius` cells (ring by ring, lowest index on ties).
    pub fn nearest_passable(&self, c: Cell, radius: i32) -> Option<Cell> {
        self.nearest_where(c, radius, |n| self.passable(n))
    }

    /// The nearest cell to `c` within `radius` cells for which `wanted` holds: ring by ring
    /// outward, the smallest straight-line distance within a ring, then the lowest row and column.
    pub fn nearest_where(&self, c: Cell, radius: i32, wanted: impl Fn(Cell) -> bool) -> Option<Cell> {
        if wanted(c) {
            return Some(c);
        }
        for r in 1..=radius {
            let mut best: Option<(i64, Cell)> = None;
            for dy in -r..=r {
                for dx in -r..=r {
                    if dx.abs() != r && dy.abs() != r {
                        continue;
                    }
                    let n = Cell { x: c.x + dx, y: c.y + dy };
                    if wanted(n) {
                        let d = (dx * dx + dy * dy) as i64;
                        if best.is_none_or(|(bd, bc)| d < bd || (d == bd && (n.y, n.x) < (bc.y, bc.x))) {
                            best = Some((d, n));
                        }
                    }
                }
            }
            if let Some((_, n)) = best {
                return Some(n);
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn structures_block_and_unblock() {
        let mut t = Terrain::open(10, 10, Fixed::from_int(10), vec![]);
        let p = Vec2::from_int(55, 55);
        assert!(t.passable(t.cell_of(p)));
        t.mark_structure(p, (3, 3), true);
        assert!(!t.passable(Cell { x: 4, y: 4 }));
        assert!(!t.passable(Cell { x: 6, y: 6 }));
        assert!(t.passable(Cell { x: 7, y: 7 }));
        t.mark_structure(p, (3, 3), false);
        assert!(t.passable(Cell { x: 4, y: 4 }));
        assert_eq!(t.nearest_passable(Cell { x: -1, y: 3 }, 2), Some(Cell { x: 0, y: 3 }));
    }

    #[test]
    fn a_box_is_open_when_every_cell_in_it_is() {
        let mut t = Terrain::open(10, 10, Fixed::from_int(10), vec![]);
        let (a, b) = (Vec2::from_int(12, 18), Vec2::from_int(47, 31));
        assert!(t.open_between(a, b));
        assert!(t.open_between(b, a), "either corner first");
        // A structure on a cell inside the box, on neither corner's cell.
        t.mark_structure(Vec2::from_int(35, 25), (1, 1), true);
        assert!(!t.open_between(a, b));
        assert!(t.open_between(a, Vec2::from_int(29, 31)), "the box left of it");
        assert!(!t.open_between(a, Vec2::from_int(100, 31)), "a corner off the map");
    }

    proptest::proptest! {
        /// Over random ground and structures placed and taken away (some overlapping, some off
        /// the edge), a point is passable exactly when it is on the map, its cell's ground is
        /// open and no structure stands on it: the kept bits say what the grids say.
        #[test]
        fn passable_points_are_those_of_the_grids(
            (w, h) in (1u32..40, 1u32..40),
            ground in proptest::collection::vec(0u8..5, 1600),
            marks in proptest::collection::vec((-20i64..420, -20i64..420, 1u8..4, 1u8..4, 0u8..10), 0..30),
            probes in proptest::collection::vec((-30i64..430, -30i64..430, 0i64..65536), 50),
        ) {
            // A fifth of the ground blocked; seven marks in ten placed, the rest taken away.
            let blocked: Vec<bool> = ground[..(w * h) as usize].iter().map(|&g| g == 0).collect();
            let mut t = Terrain::new(w, h, Fixed::from_int(10), blocked.clone(), vec![]);
            let mut under = vec![0i32; (w * h) as usize];
            for (x, y, fw, fh, add) in marks {
                let add = add < 7;
                let p = Vec2::from_int(x, y);
                for c in t.footprint(p, (fw, fh)).collect::<Vec<_>>() {
                    if c.x >= 0 && c.y >= 0 && (c.x as u32) < w && (c.y as u32) < h {
                        let i = (c.y as u32 * w + c.x as u32) as usize;
                        under[i] = if add { under[i] + 1 } else { (under[i] - 1).max(0) };
                    }
                }
                t.mark_structure(p, (fw, fh), add);
                for (px, py, frac) in &probes {
                    let q = Vec2::new(Fixed::from_raw((px << 16) + frac), Fixed::from_raw((py << 16) + frac / 3));
                    let (cx, cy) = (q.x.raw().div_euclid(10 << 16), q.y.raw().div_euclid(10 << 16));
                    let on = cx >= 0 && cy >= 0 && cx < w as i64 && cy < h as i64;
                    let want = on && {
                        let i = (cy as u32 * w + cx as u32) as usize;
                        !blocked[i] && under[i] == 0
                    };
                    proptest::prop_assert_eq!(t.passable_at(q), want, "at {:?}", q);
                }
            }
        }
    }
}
