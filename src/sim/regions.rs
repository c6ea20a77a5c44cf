//! Connected regions of passable ground, so a search never starts for a goal it cannot reach.
//!
//! Every passable cell carries the label of its region (cells joined by orthogonal steps; the
//! pathfinder's diagonal steps need both orthogonal neighbours open, so they join nothing
//! more). The labels are derived from the terrain alone and rebuilt when its revision changes
//! (a structure placed or removed), so they are not state and never hashed. Must not: read
//! anything but the terrain.

use super::terrain::{Cell, Terrain};

/// The label of impassable cells.
pub const NO_REGION: u32 = 0;

/// Region labels per cell, for one revision of one terrain (a pathfinder keeps one per world).
#[derive(Clone, Debug, Default, serde::Serialize, serde::Deserialize)]
pub struct Regions {
    labels: Vec<u32>,
    revision: Option<u64>,
    /// Scratch: the open runs of the rows, in row-major order.
    runs: Vec<Run>,
    /// Scratch: each run's parent in the union-find over runs.
    parent: Vec<u32>,
    /// Scratch: each root run's label (0: not yet given).
    label_of: Vec<u32>,
}

/// A run of open cells in one row: columns `start..end` of row `row`.
#[derive(Clone, Copy, Debug, serde::Serialize, serde::Deserialize)]
struct Run {
    row: u32,
    start: u32,
    end: u32,
}

impl Regions {
    /// Brings the labels up to date with `terrain` (a new labelling when it changed since the
    /// last call, nothing otherwise).
    ///
    /// The labelling joins runs of open cells: each row's runs, each joined (union-find) with
    /// the runs of the row above that share a column. Regions are numbered from 1 in the order
    /// of their first cell, row-major — the numbers a flood fill seeded in row-major order
    /// gives — at the cost of a look per cell and a few steps per run.
    pub fn refresh(&mut self, terrain: &Terrain) {
        let cells = terrain.width() as usize * terrain.height() as usize;
        if self.revision == Some(terrain.revision()) && self.labels.len() == cells {
            return;
        }
        let (width, height) = (terrain.width(), terrain.height());
        self.find_runs(terrain, width, height);
        self.join_rows();
        self.labels.clear();
        self.labels.resize(cells, NO_REGION);
        self.label_of.clear();
        self.label_of.resize(self.runs.len(), NO_REGION);
        let mut next = NO_REGION;
        for (i, run) in self.runs.iter().enumerate() {
            let root = find(&mut self.parent, i as u32) as usize;
            if self.label_of[root] == NO_REGION {
                next += 1;
                self.label_of[root] = next;
            }
            let first = run.row as usize * width as usize;
            self.labels[first + run.start as usize..first + run.end as usize].fill(self.label_of[root]);
        }
        self.revision = Some(terrain.revision());
    }

    /// Collects the open runs of every row, in row-major order.
    fn find_runs(&mut self, terrain: &Terrain, width: u32, height: u32) {
        self.runs.clear();
        for row in 0..height {
            let first = row as usize * width as usize;
            let mut x = 0;
            while x < width {
                if !terrain.open_at(first + x as usize) {
                    x += 1;
                    continue;
                }
                let start = x;
                while x < width && terrain.open_at(first + x as usize) {
                    x += 1;
                }
                self.runs.push(Run { row, start, end: x });
            }
        }
    }

    /// Joins every run with the runs of the row above that share a column with it.
    fn join_rows(&mut self) {
        self.parent.clear();
        self.parent.extend(0..self.runs.len() as u32);
        // `above` walks the previous row's runs alongside the current row's.
        let (mut above, mut row_start) = (0usize, 0usize);
        for i in 0..self.runs.len() {
            let run = self.runs[i];
            if i > 0 && self.runs[i - 1].row != run.row {
                // A new row: the runs above are those of the row just finished, if adjacent.
                above = row_start;
                row_start = i;
                if self.runs[above].row + 1 != run.row {
                    above = row_start;
                }
            }
            while above < row_start && self.runs[above].row + 1 == run.row {
                let up = self.runs[above];
                if up.start < run.end && run.start < up.end {
                    union(&mut self.parent, above as u32, i as u32);
                }
                // The run above that reaches further right may also touch the next run here.
                if up.end > run.end {
                    break;
                }
                above += 1;
            }
        }
    }

    /// The region of a cell ([`NO_REGION`] for impassable or off-map cells). Call
    /// [`Regions::refresh`] first.
    pub fn of(&self, terrain: &Terrain, c: Cell) -> u32 {
        terrain.index(c).and_then(|i| self.labels.get(i).copied()).unwrap_or(NO_REGION)
    }
}

/// The root of `i`'s set, halving the path on the way.
fn find(parent: &mut [u32], mut i: u32) -> u32 {
    while parent[i as usize] != i {
        let grand = parent[parent[i as usize] as usize];
        parent[i as usize] = grand;
        i = grand;
    }
    i
}

/// Joins the sets of `a` and `b` (the lower root becomes the root of both).
fn union(parent: &mut [u32], a: u32, b: u32) {
    let (ra, rb) = (find(parent, a), find(parent, b));
    if ra != rb {
        let (low, high) = (ra.min(rb), ra.max(rb));
        parent[high as usize] = low;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::fixed::Fixed;
    use crate::sim::vector::Vec2;

    /// 10×10 split by a wall at x = 5 (full height).
    fn split() -> Terrain {
        let mut blocked = vec![false; 100];
        for y in 0..10 {
            blocked[y * 10 + 5] = true;
        }
        Terrain::new(10, 10, Fixed::from_int(10), blocked, vec![])
    }

    #[test]
    fn a_wall_makes_two_regions_and_a_gap_joins_them() {
        let mut t = split();
        let mut r = Regions::default();
        r.refresh(&t);
        let (left, right) = (Cell { x: 1, y: 1 }, Cell { x: 8, y: 8 });
        assert_ne!(r.of(&t, left), r.of(&t, right));
        assert_eq!(r.of(&t, Cell { x: 5, y: 3 }), NO_REGION);
        assert_eq!(r.of(&t, left), r.of(&t, Cell { x: 4, y: 9 }));

        // A structure closing a corridor splits a region; its removal joins it again.
        let mut open = Terrain::open(10, 10, Fixed::from_int(10), vec![]);
        let mut r = Regions::default();
        r.refresh(&open);
        assert_eq!(r.of(&open, left), r.of(&open, right));
        for y in 0..10 {
            open.mark_structure(Vec2::from_int(55, y * 10 + 5), (1, 1), true);
        }
        r.refresh(&open);
        assert_ne!(r.of(&open, left), r.of(&open, right), "the structures' wall splits the field");
        open.mark_structure(Vec2::from_int(55, 45), (1, 1), false);
        r.refresh(&open);
        assert_eq!(r.of(&open, left), r.of(&open, right), "a gap in the wall joins it again");
        let mut r = Regions::default();
        t.mark_structure(Vec2::from_int(15, 15), (1, 1), true);
        r.refresh(&t);
        assert_eq!(r.of(&t, left), NO_REGION, "a cell under a structure has no region");
    }

    /// Labels by flood fill from each unlabelled open cell in row-major order: the numbering
    /// the run labelling must reproduce.
    fn flood_fill(t: &Terrain) -> Vec<u32> {
        let (w, h) = (t.width() as usize, t.height() as usize);
        let mut labels = vec![NO_REGION; w * h];
        let mut next = NO_REGION;
        for seed in 0..w * h {
            if labels[seed] != NO_REGION || !t.open_at(seed) {
                continue;
            }
            next += 1;
            labels[seed] = next;
            let mut stack = vec![seed];
            while let Some(i) = stack.pop() {
                let (x, y) = (i % w, i / w);
                let mut near = vec![];
                if x + 1 < w {
                    near.push(i + 1);
                }
                if x > 0 {
                    near.push(i - 1);
                }
                if y + 1 < h {
                    near.push(i + w);
                }
                if y > 0 {
                    near.push(i - w);
                }
                for n in near {
                    if labels[n] == NO_REGION && t.open_at(n) {
                        labels[n] = next;
                        stack.push(n);
                    }
                }
            }
        }
        labels
    }

    proptest::proptest! {
        /// Any grid (mazes, stripes, single cells, a structure or two): the run labelling gives
        /// every cell the label a row-major flood fill gives it, and a refresh after a change
        /// gives the new grid's labels.
        #[test]
        fn run_labels_are_the_flood_fills(
            w in 1u32..40,
            h in 1u32..40,
            open_per_8 in 1u32..8,
            seed in proptest::prelude::any::<u64>(),
            structure in (0i64..400, 0i64..400),
        ) {
            let cells = (w * h) as usize;
            let mut x = seed | 1;
            let blocked: Vec<bool> = (0..cells)
                .map(|_| {
                    x ^= x << 13;
                    x ^= x >> 7;
                    x ^= x << 17;
                    (x % 8) as u32 >= open_per_8
                })
                .collect();
            let mut t = Terrain::new(w, h, Fixed::from_int(10), blocked, vec![]);
            let mut r = Regions::default();
            r.refresh(&t);
            proptest::prop_assert_eq!(&r.labels, &flood_fill(&t));
            t.mark_structure(Vec2::from_int(structure.0, structure.1), (3, 2), true);
            r.refresh(&t);
            proptest::prop_assert_eq!(&r.labels, &flood_fill(&t));
        }
    }

    #[test]
    fn diagonal_gaps_do_not_join() {
        // The anti-diagonal x + y = 9 is closed: (4,4) and (5,5) touch only at a corner between
        // the closed (5,4) and (4,5), which no step may cut.
        let mut blocked = vec![false; 100];
        for i in 0..10 {
            blocked[i * 10 + (9 - i)] = true;
        }
        let t = Terrain::new(10, 10, Fixed::from_int(10), blocked, vec![]);
        let mut r = Regions::default();
        r.refresh(&t);
        assert_ne!(r.of(&t, Cell { x: 0, y: 0 }), r.of(&t, Cell { x: 9, y: 9 }));
    }
}
