//! A uniform bucket grid over the map, rebuilt each frame by counting sort, for target queries
//! (what lies near a point) and the sweep that makes separation's pair list (which items lie in
//! touching cells).
//!
//! The grid covers the items' bounding box. When that box has many times more cells than there
//! are items (four bases in four corners of a big map), cells share buckets (cell index modulo
//! a power-of-two bucket count of about twice the items), so clearing and summing the buckets
//! never costs more than the items themselves; a query then also meets items of far cells, which
//! its distance test drops as it drops the far corners of near cells.
//!
//! Queries visit each bucket once, in the order of the first cell (row-major) that names it (a
//! square too big for that reads every bucket in order), and inside a bucket objects in id
//! order (in an index built for the sweep where cells share buckets: by cell, row-major, then
//! by id), so their order is the same on every machine. The sweep takes the entries in that
//! order. Must not: be kept between frames as state (it is derived from object positions; a
//! caller may keep one as a cache, as targeting does, while its answers stay a fresh build's).

use super::fixed::Fixed;
use super::vector::Vec2;

/// The fewest buckets a grid whose cells share buckets has.
const MIN_FOLDED: usize = 64;

/// Cells share buckets once they outnumber the shared buckets by this much.
const FOLD_AFTER: usize = 4;

/// The same for an index built for the sweep, where a shared bucket costs more: each cell's
/// neighbours must be picked out of their buckets, where with a bucket per cell they are one
/// look each.
const FOLD_AFTER_FOR_PAIRS: usize = 64;

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
    /// The upper corner of that box, raw bits.
    far: (i64, i64),
    /// The world's upper corner, raw bits (positions are clamped to `0..=limit`).
    limit: (i64, i64),
    /// The last column and row of cells.
    last: (i64, i64),
    cols: usize,
    /// Buckets: one per cell, or fewer when cells share them.
    buckets: usize,
    /// Cell index to bucket: all ones when each cell has its own, `buckets - 1` when cells
    /// share them (then `buckets` is a power of two).
    mask: usize,
    /// The largest radius among the entries.
    max_radius: Fixed,
    /// Where each bucket's entries start (one more than there are buckets: the last is the end).
    starts: Vec<u32>,
    entries: Vec<Entry>,
    /// Each entry's cell (row, column), in the entries' order (kept only by
    /// [`SpatialIndex::rebuild_for_pairs`]).
    cells: Vec<(u16, u16)>,
    /// Scratch: each item's bucket and cell.
    keys: Vec<(u32, u16, u16)>,
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
        self.fill(size, bucket_log2, items, false);
    }

    /// As [`SpatialIndex::rebuild`], and ready for [`SpatialIndex::for_each_close_run`]: each
    /// entry's cell is kept, and where cells share buckets each bucket is ordered by cell.
    pub fn rebuild_for_pairs(&mut self, size: Vec2, bucket_log2: u32, items: &[Entry]) {
        self.fill(size, bucket_log2, items, true);
    }

    fn fill(&mut self, size: Vec2, bucket_log2: u32, items: &[Entry], pairs: bool) {
        let shift = Fixed::FRAC_BITS + bucket_log2.min(30);
        self.shift = shift;
        let limit = (size.x.raw().max(0), size.y.raw().max(0));
        self.limit = limit;
        // The box of the raw positions, clamped to the world after (clamping keeps order, so
        // this is the box of the clamped positions).
        let (mut lo, mut hi) = ((i64::MAX, i64::MAX), (i64::MIN, i64::MIN));
        let mut max_radius = Fixed::ZERO;
        for e in items {
            let (x, y) = (e.pos.x.raw(), e.pos.y.raw());
            lo = (lo.0.min(x), lo.1.min(y));
            hi = (hi.0.max(x), hi.1.max(y));
            max_radius = max_radius.max(e.radius);
        }
        if items.is_empty() {
            (lo, hi) = ((0, 0), (0, 0));
        }
        let lo = (lo.0.clamp(0, limit.0), lo.1.clamp(0, limit.1));
        let hi = (hi.0.clamp(0, limit.0), hi.1.clamp(0, limit.1));
        self.max_radius = max_radius;
        self.origin = lo;
        self.far = hi;
        let cols = (((hi.0 - lo.0) >> shift) + 1).clamp(1, 4096);
        let rows = (((hi.1 - lo.1) >> shift) + 1).clamp(1, 4096);
        let last = (cols - 1, rows - 1);
        self.last = last;
        self.cols = cols as usize;
        let cells = (cols * rows) as usize;
        // Cells share buckets only when they far outnumber the items: in a crowd, sharing
        // would hand each query the items of other cells to test.
        let folded = (items.len() * 2).next_power_of_two().max(MIN_FOLDED);
        let fold_after = if pairs { FOLD_AFTER_FOR_PAIRS } else { FOLD_AFTER };
        (self.buckets, self.mask) =
            if cells > folded * fold_after { (folded, folded - 1) } else { (cells, usize::MAX) };
        // A counting sort. Bucket k is counted at `starts[k + 2]`; the running total then
        // leaves its start at `starts[k + 1]`, which the scatter advances to its end, which is
        // the next bucket's start: `starts[k]` is bucket k's start and `starts[buckets]` the end.
        self.starts.clear();
        self.starts.resize(self.buckets + 2, 0);
        self.keys.clear();
        let (starts, mask, stride) = (&mut self.starts, self.mask, self.cols);
        // Each item's cell and bucket.
        self.keys.extend(items.iter().map(|e| {
            let (x, y) = cell_in(e.pos, lo, shift, last);
            let k = (y * stride + x) & mask;
            starts[k + 2] += 1;
            // Columns and rows are at most 4096.
            (k as u32, x as u16, y as u16)
        }));
        // The running total stays in a register: a sum through memory would wait on each
        // store, and on a map-wide box this loop is most of the rebuild.
        let mut total = 0;
        for start in &mut self.starts {
            total += *start;
            *start = total;
        }
        self.entries.clear();
        self.entries.resize(items.len(), Entry { slot: 0, pos: Vec2::ZERO, radius: Fixed::ZERO, owner: 0, air: false });
        self.cells.clear();
        if pairs {
            self.cells.resize(items.len(), (0, 0));
        }
        for (e, &(k, x, y)) in items.iter().zip(&self.keys) {
            let at = &mut self.starts[k as usize + 1];
            self.entries[*at as usize] = *e;
            if pairs {
                self.cells[*at as usize] = (y, x);
            }
            *at += 1;
        }
        self.starts.pop();
        if pairs && self.mask != usize::MAX {
            self.group_cells();
        }
    }

    /// Where cells share buckets, orders each bucket's entries by cell (row-major; a stable
    /// sort, so by id within a cell), so a cell's entries are one run. Buckets hold a cell or
    /// two each: the insertion sort mostly only looks.
    fn group_cells(&mut self) {
        for bucket in 0..self.buckets {
            let (first, end) = (self.starts[bucket] as usize, self.starts[bucket + 1] as usize);
            for i in first + 1..end {
                let mut j = i;
                while j > first && self.cells[j - 1] > self.cells[j] {
                    self.cells.swap(j - 1, j);
                    self.entries.swap(j - 1, j);
                    j -= 1;
                }
            }
        }
    }

    /// The run of entries of cell `(y, x)` (row, column): found in its bucket when cells share
    /// buckets.
    #[inline(always)]
    fn cell_run(&self, (y, x): (u16, u16)) -> (usize, usize) {
        let bucket = (y as usize * self.cols + x as usize) & self.mask;
        let (first, end) = (self.starts[bucket] as usize, self.starts[bucket + 1] as usize);
        if self.mask == usize::MAX {
            return (first, end);
        }
        let cells = &self.cells[first..end];
        let start = first + cells.iter().take_while(|&&c| c < (y, x)).count();
        let stop = start + self.cells[start..end].iter().take_while(|&&c| c == (y, x)).count();
        (start, stop)
    }

    /// The cell of a point: its column and row, clamped to the grid.
    #[inline(always)]
    fn cell_of(&self, p: Vec2) -> (usize, usize) {
        cell_in(p, self.origin, self.shift, self.last)
    }

    /// Calls `f(a, others)` so that every pair of entries whose cells are the same or touch
    /// comes once, as an `a` and one of its `others` (runs of entries, so the caller's loop over
    /// them is tight). The index must be built by [`SpatialIndex::rebuild_for_pairs`]
    /// (otherwise nothing comes). Two items less than a bucket side apart along both axes
    /// always are such a pair, so a caller whose items interact only that close (buckets at
    /// least twice the largest radius wide) meets every interacting pair. Pairs come in the
    /// same order on every machine.
    #[inline(always)] // `f` is the caller's tight loop over the runs
    pub fn for_each_close_run(&self, mut f: impl FnMut(&Entry, &[Entry])) {
        debug_assert_eq!(self.cells.len(), self.entries.len(), "built by rebuild_for_pairs");
        let (cols, rows) = (self.cols, self.last.1 as usize + 1);
        // Each entry meets the later entries of its own cell and those of the four cells east
        // and below, so each touching pair of cells meets once. A cell's entries are one run,
        // and their neighbours' runs are found once for them all; where each cell has its own
        // bucket, a cell and its eastern neighbour are one run, and the three cells below
        // another.
        let mut runs = [(0usize, 0usize); 5];
        let mut group = 0;
        while group < self.entries.len() {
            let (y, x) = self.cells[group];
            let (xu, yu) = (x as usize, y as usize);
            // runs[0] is the own cell's end (and the eastern neighbour's, when it follows).
            let count = if self.mask == usize::MAX {
                let c = yu * cols + xu;
                let east = if xu + 1 < cols { c + 2 } else { c + 1 };
                runs[0] = (self.starts[c + 1] as usize, self.starts[east] as usize);
                if yu + 1 < rows {
                    let first = c + cols - usize::from(xu > 0);
                    let last = c + cols + usize::from(xu + 1 < cols);
                    runs[1] = (self.starts[first] as usize, self.starts[last + 1] as usize);
                    2
                } else {
                    1
                }
            } else {
                let end = self.cell_run((y, x)).1;
                runs[0] = (end, end);
                let mut count = 1;
                let neighbours = [(xu + 1, yu), (xu.wrapping_sub(1), yu + 1), (xu, yu + 1), (xu + 1, yu + 1)];
                for (nx, ny) in neighbours {
                    if nx < cols && ny < rows {
                        runs[count] = self.cell_run((ny as u16, nx as u16));
                        count += 1;
                    }
                }
                count
            };
            let (own_end, reach_end) = runs[0];
            for i in group..own_end {
                let a = &self.entries[i];
                runs[0] = (i + 1, reach_end);
                for &(first, end) in &runs[..count] {
                    f(a, &self.entries[first..end]);
                }
            }
            group = own_end;
        }
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
    #[inline(always)]
    fn runs_near(&self, centre: Vec2, reach: Fixed, runs: &mut [(u32, u32); MAX_RUNS]) -> usize {
        let r = reach.raw();
        let (lo_x, hi_x) = (centre.x.raw().saturating_sub(r), centre.x.raw().saturating_add(r));
        let (lo_y, hi_y) = (centre.y.raw().saturating_sub(r), centre.y.raw().saturating_add(r));
        // A square that misses the items' box holds none of them: nothing to read. The box is
        // of positions clamped to the world, so the square is clamped too (a square holding a
        // position off the world's edge holds its clamped place); as the box lies in the world,
        // only the side facing it needs clamping.
        if hi_x.max(0) < self.origin.0
            || lo_x.min(self.limit.0) > self.far.0
            || hi_y.max(0) < self.origin.1
            || lo_y.min(self.limit.1) > self.far.1
        {
            return 0;
        }
        let (x0, y0) = self.cell_of(Vec2::new(Fixed::from_raw(lo_x), Fixed::from_raw(lo_y)));
        let (x1, y1) = self.cell_of(Vec2::new(Fixed::from_raw(hi_x), Fixed::from_raw(hi_y)));
        let everything = |runs: &mut [(u32, u32); MAX_RUNS]| {
            runs[0] = (0, self.entries.len() as u32);
            1
        };
        if self.mask == usize::MAX {
            // One bucket per cell: a row of the square is one run of entries.
            if y1 - y0 >= MAX_RUNS {
                return everything(runs);
            }
            for (run, y) in runs.iter_mut().zip(y0..=y1) {
                let row = y * self.cols;
                *run = (self.starts[row + x0], self.starts[row + x1 + 1]);
            }
            return y1 - y0 + 1;
        }
        if (x1 - x0 + 1) * (y1 - y0 + 1) > MAX_RUNS {
            return everything(runs);
        }
        let mut count = 0;
        for y in y0..=y1 {
            for x in x0..=x1 {
                let bucket = (y * self.cols + x) & self.mask;
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

    /// The entries, bucket by bucket.
    pub fn entries(&self) -> &[Entry] {
        &self.entries
    }

    /// The entries, to change what they carry in place. An entry stays in the bucket it was
    /// built into whatever its position becomes, so once positions change, a query must widen
    /// its square by the farthest any entry moved (along either axis) to meet all it should.
    pub fn entries_mut(&mut self) -> &mut [Entry] {
        &mut self.entries
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

/// The cell (column, row) of `p` in a grid whose cells are 2^`shift` raw units from `origin`,
/// clamped to `0..=last`. The origin is in the world (not negative), so the difference cannot
/// overflow.
#[inline(always)]
fn cell_in(p: Vec2, origin: (i64, i64), shift: u32, last: (i64, i64)) -> (usize, usize) {
    let x = ((p.x.raw().max(origin.0) - origin.0) >> shift).min(last.0);
    let y = ((p.y.raw().max(origin.1) - origin.1) >> shift).min(last.1);
    (x as usize, y as usize)
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
        /// Dense or with shared buckets, on and off the world, with radii up to half a bucket
        /// and positions between whole units, every pair whose boxes (position ± radius)
        /// overlap comes exactly once, and no pair comes twice.
        #[test]
        fn close_runs_hold_every_overlapping_pair_once(
            points in proptest::collection::vec((-100i64..2660, -100i64..2660, 0i64..65536, 0i64..65536), 0..70),
            clump in proptest::collection::vec((0i64..60, 0i64..60, 0i64..65536, 0i64..65536), 0..40),
            at in (0i64..2500, 0i64..2500),
            bucket_log2 in 3u32..8,
        ) {
            // A clump (crowded buckets) and points spread wide (buckets shared when few).
            let raw = |(x, y, fx, fy): (i64, i64, i64, i64)| Vec2::new(Fixed::from_raw((x << 16) + fx), Fixed::from_raw((y << 16) + fy));
            let positions: Vec<Vec2> = points
                .iter()
                .map(|&p| raw(p))
                .chain(clump.iter().map(|&(x, y, fx, fy)| raw((at.0 + x, at.1 + y, fx, fy))))
                .collect();
            let half_bucket = 1i64 << (bucket_log2 + 15);
            let items: Vec<Entry> = positions
                .iter()
                .enumerate()
                .map(|(i, &pos)| {
                    // Radii from nothing to half a bucket, some fractional.
                    let radius = Fixed::from_raw((i as i64 * 7919 * 65536 / 13) % (half_bucket + 1));
                    Entry { slot: i as u32, pos, radius, owner: 0, air: false }
                })
                .collect();
            let mut index = SpatialIndex::default();
            index.rebuild_for_pairs(Vec2::from_int(2560, 2560), bucket_log2, &items);
            let n = items.len();
            let mut met = vec![0u32; n * n];
            index.for_each_close_run(|a, others| {
                for b in others {
                    let (lo, hi) = (a.slot.min(b.slot) as usize, a.slot.max(b.slot) as usize);
                    met[lo * n + hi] += 1;
                }
            });
            for (i, a) in items.iter().enumerate() {
                for (j, b) in items.iter().enumerate().skip(i + 1) {
                    let d = b.pos - a.pos;
                    let reach = a.radius + b.radius;
                    let count = met[i * n + j];
                    proptest::prop_assert!(count <= 1, "{:?} and {:?} met {} times", a, b, count);
                    let overlap = d.x.abs() < reach && d.y.abs() < reach;
                    proptest::prop_assert!(!overlap || count == 1, "{:?} and {:?} missed", a, b);
                }
            }
        }

        /// Dense or with shared buckets (a few items over a big map), a query meets every item
        /// in its square exactly once — also items and squares off the world's edge, and
        /// squares far from every item.
        #[test]
        fn a_query_meets_each_item_in_its_square_once(
            points in proptest::collection::vec((-200i64..2760, -200i64..2760), 0..60),
            centre in (-600i64..3200, -600i64..3200),
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
