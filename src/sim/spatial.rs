//! A uniform bucket grid over the map, rebuilt each frame by counting sort, for neighbour and
//! target queries.
//!
//! Queries visit buckets in row-major order and, inside a bucket, objects in id order, so their
//! order is the same on every machine. Must not: be kept between frames as state (it is derived
//! from object positions and rebuilt when needed).

use super::fixed::Fixed;
use super::vector::Vec2;

/// What the index stores per object: enough for most queries without touching the store.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    /// Slot index in the object store.
    pub slot: u32,
    /// Position.
    pub pos: Vec2,
    /// Collision radius.
    pub radius: Fixed,
    /// Owner slot.
    pub owner: u8,
}

/// The bucket grid.
#[derive(Clone, Debug, Default)]
pub struct SpatialIndex {
    /// Raw fixed-point bits to shift away to get a bucket coordinate (buckets are 2^k units).
    shift: u32,
    cols: i32,
    rows: i32,
    starts: Vec<u32>,
    entries: Vec<Entry>,
}

impl SpatialIndex {
    /// Builds the index over a world of `size`, with square buckets of side 2^`bucket_log2`
    /// world units. `items` must come in id order; positions outside the world are clamped to
    /// its edge.
    pub fn build(size: Vec2, bucket_log2: u32, items: &[Entry]) -> SpatialIndex {
        let shift = Fixed::FRAC_BITS + bucket_log2.min(30);
        let cols = ((size.x.raw().max(0) >> shift) + 1).clamp(1, 4096) as i32;
        let rows = ((size.y.raw().max(0) >> shift) + 1).clamp(1, 4096) as i32;
        let mut index =
            SpatialIndex { shift, cols, rows, starts: vec![0; (cols * rows + 1) as usize], entries: Vec::new() };
        let keys: Vec<usize> = items.iter().map(|e| index.bucket_of(e.pos)).collect();
        for &k in &keys {
            index.starts[k + 1] += 1;
        }
        for i in 1..index.starts.len() {
            index.starts[i] += index.starts[i - 1];
        }
        let mut fill = index.starts.clone();
        index.entries = vec![Entry { slot: 0, pos: Vec2::ZERO, radius: Fixed::ZERO, owner: 0 }; items.len()];
        for (e, &k) in items.iter().zip(&keys) {
            index.entries[fill[k] as usize] = *e;
            fill[k] += 1;
        }
        index
    }

    #[inline]
    fn coords(&self, p: Vec2) -> (i32, i32) {
        let cx = (p.x.raw() >> self.shift).clamp(0, self.cols as i64 - 1) as i32;
        let cy = (p.y.raw() >> self.shift).clamp(0, self.rows as i64 - 1) as i32;
        (cx, cy)
    }

    fn bucket_of(&self, p: Vec2) -> usize {
        let (x, y) = self.coords(p);
        (y * self.cols + x) as usize
    }

    /// Calls `f` for every entry in buckets overlapping the square `centre ± reach`.
    pub fn for_each_near(&self, centre: Vec2, reach: Fixed, mut f: impl FnMut(&Entry)) {
        let r = Vec2::new(reach, reach);
        let (x0, y0) = self.coords(centre - r);
        let (x1, y1) = self.coords(centre + r);
        for y in y0..=y1 {
            let row = (y * self.cols) as usize;
            let (a, b) = (self.starts[row + x0 as usize] as usize, self.starts[row + x1 as usize + 1] as usize);
            for e in &self.entries[a..b] {
                f(e);
            }
        }
    }

    /// Number of entries.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// True when empty.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_every_entry_within_reach() {
        let items: Vec<Entry> = (0..100)
            .map(|i| Entry {
                slot: i,
                pos: Vec2::from_int((i as i64 * 37) % 500, (i as i64 * 91) % 500),
                radius: Fixed::ONE,
                owner: 0,
            })
            .collect();
        let index = SpatialIndex::build(Vec2::from_int(500, 500), 5, &items);
        let centre = Vec2::from_int(250, 250);
        let reach = Fixed::from_int(80);
        let mut found = Vec::new();
        index.for_each_near(centre, reach, |e| found.push(e.slot));
        for e in &items {
            let d = e.pos - centre;
            if d.x.abs() <= reach && d.y.abs() <= reach {
                assert!(found.contains(&e.slot), "missed {:?}", e);
            }
        }
    }
}
