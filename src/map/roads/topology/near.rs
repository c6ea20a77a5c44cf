//! A coarse grid over road segments that answers "which segments may lie within their reach of
//! this point", so step 5 looks at a few neighbours per open end instead of every segment.
//!
//! Conservative: every segment within its reach of a point is among the candidates of that
//! point's cell (more may be; the caller measures). Must not: panic or grow past a bounded
//! number of cells on any finite input (far-flung points only make the cells coarser).

use glam::Vec2;

/// Most cells along either side of the grid.
const MAX_CELLS_PER_SIDE: f32 = 512.0;

/// Segment indices by grid cell.
pub(super) struct SegmentGrid {
    origin: Vec2,
    cell: f32,
    columns: usize,
    rows: usize,
    cells: Vec<Vec<u32>>,
}

impl SegmentGrid {
    /// A grid over `segments` (`a`, `b`, `reach`): segment `i` is listed in every cell holding a
    /// point within `reach` of it. Segments with a point or reach that is not finite are left out.
    pub(super) fn new(segments: &[(Vec2, Vec2, f32)]) -> SegmentGrid {
        let finite = |&(a, b, r): &(Vec2, Vec2, f32)| a.is_finite() && b.is_finite() && r.is_finite() && r >= 0.0;
        let (mut lo, mut hi, mut reach) = (Vec2::splat(f32::MAX), Vec2::splat(f32::MIN), 0.0f32);
        for s in segments.iter().filter(|s| finite(s)) {
            lo = lo.min(s.0.min(s.1));
            hi = hi.max(s.0.max(s.1));
            reach = reach.max(s.2);
        }
        if lo.x > hi.x {
            return SegmentGrid { origin: Vec2::ZERO, cell: 1.0, columns: 0, rows: 0, cells: Vec::new() };
        }
        let (lo, hi) = (lo - Vec2::splat(reach), hi + Vec2::splat(reach));
        let extent = (hi - lo).max_element();
        // A cell at least twice the largest reach, so one point's neighbourhood spans at most
        // three cells a side; and few enough cells that far-apart points cannot blow it up.
        let cell = (2.0 * reach).max(extent / MAX_CELLS_PER_SIDE).max(f32::MIN_POSITIVE);
        let side = |d: f32| ((d / cell).floor() as usize).saturating_add(1).min(MAX_CELLS_PER_SIDE as usize + 1);
        let (columns, rows) = (side(hi.x - lo.x), side(hi.y - lo.y));
        let mut grid = SegmentGrid { origin: lo, cell, columns, rows, cells: vec![Vec::new(); columns * rows] };
        for (i, s) in segments.iter().enumerate().filter(|(_, s)| finite(s)) {
            grid.insert(i as u32, *s);
        }
        grid
    }

    /// Lists segment `i` in the cells around samples taken along it at most a cell apart: a
    /// point within `reach` of the segment is within `reach + cell / 2` of some sample (a
    /// quarter cell more is kept against rounding).
    fn insert(&mut self, i: u32, (a, b, reach): (Vec2, Vec2, f32)) {
        let length = (b - a).length();
        let samples = ((length / self.cell).ceil() as usize).clamp(1, self.columns.max(self.rows) * 2) + 1;
        let margin = Vec2::splat(reach + 0.75 * self.cell);
        for k in 0..samples {
            let q = a.lerp(b, k as f32 / (samples - 1) as f32);
            let (x0, y0) = self.cell_of(q - margin);
            let (x1, y1) = self.cell_of(q + margin);
            for y in y0..=y1 {
                for x in x0..=x1 {
                    let list = &mut self.cells[y * self.columns + x];
                    // Samples of one segment come one after another: a repeat is the last entry.
                    if list.last() != Some(&i) {
                        list.push(i);
                    }
                }
            }
        }
    }

    /// The cell holding `p`, clamped to the grid.
    fn cell_of(&self, p: Vec2) -> (usize, usize) {
        let at = |v: f32, n: usize| ((v / self.cell).floor().max(0.0) as usize).min(n.saturating_sub(1));
        (at(p.x - self.origin.x, self.columns), at(p.y - self.origin.y, self.rows))
    }

    /// Segments that may lie within their reach of `p`, each once, in increasing order.
    pub(super) fn near(&self, p: Vec2) -> &[u32] {
        if self.cells.is_empty() || !p.is_finite() {
            return &[];
        }
        let (x, y) = self.cell_of(p);
        &self.cells[y * self.columns + x]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn distance(p: Vec2, a: Vec2, b: Vec2) -> f32 {
        let ab = b - a;
        let t = if ab.length_squared() > 0.0 { ((p - a).dot(ab) / ab.length_squared()).clamp(0.0, 1.0) } else { 0.0 };
        p.distance(a + ab * t)
    }

    /// A small deterministic generator, so the cases are the same on every run.
    fn next(state: &mut u64) -> f32 {
        *state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (*state >> 40) as f32 / (1u64 << 24) as f32
    }

    #[test]
    fn every_segment_within_reach_of_a_point_is_a_candidate() {
        let mut state = 7u64;
        for round in 0..20 {
            let span = if round % 2 == 0 { 500.0 } else { 5_000.0 };
            let segs: Vec<(Vec2, Vec2, f32)> = (0..300)
                .map(|i| {
                    let a = Vec2::new(next(&mut state), next(&mut state)) * span;
                    // Short and long segments, narrow and wide roads.
                    let d = Vec2::new(next(&mut state) - 0.5, next(&mut state) - 0.5)
                        * if i % 5 == 0 { span } else { 20.0 };
                    (a, a + d, 1.0 + next(&mut state) * 40.0)
                })
                .collect();
            let grid = SegmentGrid::new(&segs);
            for _ in 0..400 {
                let p = Vec2::new(next(&mut state), next(&mut state)) * span;
                let near = grid.near(p);
                for (i, &(a, b, r)) in segs.iter().enumerate() {
                    if distance(p, a, b) <= r {
                        assert!(near.contains(&(i as u32)), "segment {i} within reach of {p} is missed");
                    }
                }
                assert!(near.windows(2).all(|w| w[0] < w[1]), "candidates listed once, in order");
            }
        }
    }

    #[test]
    fn far_flung_and_broken_segments_neither_panic_nor_grow_the_grid() {
        let segs = [
            (Vec2::ZERO, Vec2::new(1.0, 0.0), 2.0),
            (Vec2::splat(1.0e30), Vec2::splat(-1.0e30), 2.0),
            (Vec2::new(f32::NAN, 0.0), Vec2::ZERO, 1.0),
            (Vec2::ZERO, Vec2::ONE, f32::INFINITY),
        ];
        let grid = SegmentGrid::new(&segs);
        assert!(grid.cells.len() <= 513 * 513);
        let near = grid.near(Vec2::new(0.5, 0.5));
        assert!(near.contains(&0) && near.contains(&1) && !near.contains(&2) && !near.contains(&3));
        assert!(grid.near(Vec2::new(f32::NAN, 1.0)).is_empty());
        assert!(SegmentGrid::new(&[]).near(Vec2::ZERO).is_empty());
    }
}
