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
    /// In the air.
    pub air: bool,
}

/// The bucket grid.
#[derive(Clone, Debug, Default)]
pub struct SpatialIndex {
    /// Raw fixed-point bits to shift away to get a bucket coordinate (buckets are 2^k units).
    shift: u32,
    /// The lower corner of the area covered (the items' bounding box), raw bits.
    origin: (i64, i64),
    cols: i32,
    rows: i32,
    starts: Vec<u32>,
    entries: Vec<Entry>,
    /// Scratch: each item's bucket, and the next free place per bucket.
    keys: Vec<u32>,
    fill: Vec<u32>,
}

impl SpatialIndex {
    /// Builds the index over a world of `size`, with square buckets of side 2^`bucket_log2`
    /// world units. `items` must come in id order; positions outside the world are clamped to
    /// its edge.
    pub fn build(size: Vec2, bucket_log2: u32, items: &[Entry]) -> SpatialIndex {
        let mut index = SpatialIndex::default();
        index.rebuild(size, bucket_log2, items);
        index
    }

    /// Builds the index again in place, reusing its buffers (no allocation once warm). The grid
    /// covers only the items' bounding box (clamped to the world), so crowds in one corner of a
    /// big map cost no more than on a small one.
    pub fn rebuild(&mut self, size: Vec2, bucket_log2: u32, items: &[Entry]) {
        self.shift = Fixed::FRAC_BITS + bucket_log2.min(30);
        let clampx = |v: i64| v.clamp(0, size.x.raw().max(0));
        let clampy = |v: i64| v.clamp(0, size.y.raw().max(0));
        let (mut lo, mut hi) = ((i64::MAX, i64::MAX), (i64::MIN, i64::MIN));
        for e in items {
            let (x, y) = (clampx(e.pos.x.raw()), clampy(e.pos.y.raw()));
            lo = (lo.0.min(x), lo.1.min(y));
            hi = (hi.0.max(x), hi.1.max(y));
        }
        if items.is_empty() {
            (lo, hi) = ((0, 0), (0, 0));
        }
        self.origin = lo;
        self.cols = (((hi.0 - lo.0) >> self.shift) + 1).clamp(1, 4096) as i32;
        self.rows = (((hi.1 - lo.1) >> self.shift) + 1).clamp(1, 4096) as i32;
        let buckets = (self.cols * self.rows) as usize;
        self.starts.clear();
        self.starts.resize(buckets + 1, 0);
        self.keys.clear();
        for e in items {
            let k = self.bucket_of(e.pos);
            self.keys.push(k as u32);
            self.starts[k + 1] += 1;
        }
        for i in 1..self.starts.len() {
            self.starts[i] += self.starts[i - 1];
        }
        self.fill.clear();
        self.fill.extend_from_slice(&self.starts[..buckets]);
        self.entries.clear();
        self.entries.resize(items.len(), Entry { slot: 0, pos: Vec2::ZERO, radius: Fixed::ZERO, owner: 0, air: false });
        for (e, &k) in items.iter().zip(&self.keys) {
            let at = &mut self.fill[k as usize];
            self.entries[*at as usize] = *e;
            *at += 1;
        }
    }

    #[inline]
    fn coords(&self, p: Vec2) -> (i32, i32) {
        let cx = ((p.x.raw() - self.origin.0) >> self.shift).clamp(0, self.cols as i64 - 1) as i32;
        let cy = ((p.y.raw() - self.origin.1) >> self.shift).clamp(0, self.rows as i64 - 1) as i32;
        (cx, cy)
    }

    fn bucket_of(&self, p: Vec2) -> usize {
        let (x, y) = self.coords(p);
        (y * self.cols + x) as usize
    }

    /// Calls `f` for every entry in buckets overlapping the square `centre ± reach`.
    #[inline(always)]
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
                air: false,
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
