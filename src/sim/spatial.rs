//! A uniform bucket grid over the map, rebuilt each frame by counting sort, for neighbour and
//! target queries.
//!
//! The grid covers the items' bounding box. When that box has many times more cells than there
//! are items (four bases in four corners of a big map), cells share buckets (cell index modulo
//! a power-of-two bucket count of about twice the items), so clearing and summing the buckets
//! never costs more than the items themselves; a query then also meets items of far cells, which
//! its distance test drops as it drops the far corners of near cells.
//!
//! Queries visit each bucket once, in the order of the first cell (row-major) that names it (a
//! square too big for that reads every bucket in order), and inside a bucket objects in id
//! order, so their order is the same on every machine. Must not: be kept between frames as
//! state (it is derived from object positions and rebuilt when needed).

use super::fixed::Fixed;
use super::vector::Vec2;

/// The fewest buckets a grid whose cells share buckets has.
const MIN_FOLDED: usize = 64;

/// Cells share buckets once they outnumber the shared buckets by this much.
const FOLD_AFTER: usize = 4;

/// The most runs of entries a query reads one by one (rows of the square, or buckets when cells
/// share them); a bigger square reads every entry.
const MAX_RUNS: usize = 16;

// A square of shared buckets that fits the runs never names every bucket.
const _: () = assert!(MIN_FOLDED > MAX_RUNS);

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
    /// Buckets: `cols * rows`, or fewer when cells share them.
    buckets: usize,
    /// The largest radius among the entries.
    max_radius: Fixed,
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
        self.max_radius = Fixed::ZERO;
        for e in items {
            let (x, y) = (clampx(e.pos.x.raw()), clampy(e.pos.y.raw()));
            lo = (lo.0.min(x), lo.1.min(y));
            hi = (hi.0.max(x), hi.1.max(y));
            self.max_radius = self.max_radius.max(e.radius);
        }
        if items.is_empty() {
            (lo, hi) = ((0, 0), (0, 0));
        }
        self.origin = lo;
        self.cols = (((hi.0 - lo.0) >> self.shift) + 1).clamp(1, 4096) as i32;
        self.rows = (((hi.1 - lo.1) >> self.shift) + 1).clamp(1, 4096) as i32;
        let cells = (self.cols * self.rows) as usize;
        // Cells share buckets only when they far outnumber the items: in a crowd, sharing
        // would hand each query the items of other cells to test.
        let folded = (items.len() * 2).next_power_of_two().max(MIN_FOLDED);
        let buckets = if cells > folded * FOLD_AFTER { folded } else { cells };
        self.buckets = buckets;
        self.starts.clear();
        self.starts.resize(buckets + 1, 0);
        self.keys.clear();
        for e in items {
            let k = self.bucket_of(e.pos);
            self.keys.push(k as u32);
            self.starts[k + 1] += 1;
        }
        // The running total stays in a register: a sum through memory would wait on each
        // store, and on a map-wide box this loop is most of the rebuild.
        let mut total = 0;
        for start in &mut self.starts {
            total += *start;
            *start = total;
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
        let cell = (y * self.cols + x) as usize;
        if self.is_folded() { cell & (self.buckets - 1) } else { cell }
    }

    /// Whether cells share buckets (then the bucket count is a power of two).
    fn is_folded(&self) -> bool {
        self.buckets != (self.cols * self.rows) as usize
    }

    /// Calls `f` for every entry in buckets overlapping the square `centre ± reach` (each entry
    /// at most once; entries outside the square come too, so callers test the distance).
    #[inline(always)]
    pub fn for_each_near(&self, centre: Vec2, reach: Fixed, mut f: impl FnMut(&Entry)) {
        // The runs of entries first, then one loop over them: `f` has one call site, so it is
        // inlined into the caller's loop.
        let mut runs = [(0u32, 0u32); MAX_RUNS];
        let count = self.runs_near(centre, reach, &mut runs);
        for &(a, b) in &runs[..count] {
            for e in &self.entries[a as usize..b as usize] {
                f(e);
            }
        }
    }

    /// The runs of `entries` (start, end) that a query over the square `centre ± reach` reads,
    /// into `runs`; returns how many. A square that would need more runs than fit reads every
    /// entry as one run.
    fn runs_near(&self, centre: Vec2, reach: Fixed, runs: &mut [(u32, u32); MAX_RUNS]) -> usize {
        let r = Vec2::new(reach, reach);
        let (x0, y0) = self.coords(centre - r);
        let (x1, y1) = self.coords(centre + r);
        let everything = |runs: &mut [(u32, u32); MAX_RUNS]| {
            runs[0] = (0, self.entries.len() as u32);
            1
        };
        let mut count = 0;
        if !self.is_folded() {
            // One bucket per cell: a row of the square is one run of entries.
            if (y1 - y0 + 1) as usize > MAX_RUNS {
                return everything(runs);
            }
            for y in y0..=y1 {
                let row = (y * self.cols) as usize;
                runs[count] = (self.starts[row + x0 as usize], self.starts[row + x1 as usize + 1]);
                count += 1;
            }
            return count;
        }
        let cells = ((x1 - x0 + 1) * (y1 - y0 + 1)) as usize;
        if cells > MAX_RUNS {
            return everything(runs);
        }
        for y in y0..=y1 {
            for x in x0..=x1 {
                let bucket = (y * self.cols + x) as usize & (self.buckets - 1);
                let run = (self.starts[bucket], self.starts[bucket + 1]);
                // Two cells of the square may share a bucket: read it once.
                if run.0 < run.1 && !runs[..count].contains(&run) {
                    runs[count] = run;
                    count += 1;
                }
            }
        }
        count
    }

    /// The largest radius among the entries: a query for whatever touches a circle widens its
    /// square by this much, so an item whose edge reaches in is met wherever its centre lies.
    pub fn max_radius(&self) -> Fixed {
        self.max_radius
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

    proptest::proptest! {
        /// Dense or with shared buckets (a few items over a big map), a query meets every item
        /// in its square exactly once.
        #[test]
        fn a_query_meets_each_item_in_its_square_once(
            points in proptest::collection::vec((0i64..2560, 0i64..2560), 0..60),
            centre in (0i64..2560, 0i64..2560),
            reach in 0i64..400,
            bucket_log2 in 3u32..8,
        ) {
            let items: Vec<Entry> = points
                .iter()
                .enumerate()
                .map(|(i, &(x, y))| Entry { slot: i as u32, pos: Vec2::from_int(x, y), radius: Fixed::ONE, owner: 0, air: false })
                .collect();
            let index = SpatialIndex::build(Vec2::from_int(2560, 2560), bucket_log2, &items);
            let (centre, reach) = (Vec2::from_int(centre.0, centre.1), Fixed::from_int(reach));
            let mut met = vec![0u32; items.len()];
            index.for_each_near(centre, reach, |e| met[e.slot as usize] += 1);
            for e in &items {
                let d = e.pos - centre;
                let inside = d.x.abs() <= reach && d.y.abs() <= reach;
                proptest::prop_assert!(met[e.slot as usize] <= 1, "{:?} met twice", e);
                proptest::prop_assert!(!inside || met[e.slot as usize] == 1, "missed {:?}", e);
            }
        }
    }
}
