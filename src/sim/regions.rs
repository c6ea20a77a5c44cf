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
#[derive(Clone, Debug, Default)]
pub struct Regions {
    labels: Vec<u32>,
    revision: Option<u64>,
    stack: Vec<u32>,
}

impl Regions {
    /// Brings the labels up to date with `terrain` (a flood fill when it changed since the last
    /// call, nothing otherwise).
    pub fn refresh(&mut self, terrain: &Terrain) {
        let cells = terrain.width() as usize * terrain.height() as usize;
        if self.revision == Some(terrain.revision()) && self.labels.len() == cells {
            return;
        }
        self.labels.clear();
        self.labels.resize(cells, NO_REGION);
        let width = terrain.width() as usize;
        let (labels, stack) = (&mut self.labels, &mut self.stack);
        let mut next = NO_REGION;
        for seed in 0..cells {
            if labels[seed] != NO_REGION || !terrain.open_at(seed) {
                continue;
            }
            next += 1;
            labels[seed] = next;
            stack.clear();
            stack.push(seed as u32);
            // Row-major indices: the neighbours are ±1 within the row and ±width across rows.
            while let Some(i) = stack.pop() {
                let i = i as usize;
                let x = i % width;
                let mut visit = |n: usize| {
                    if labels[n] == NO_REGION && terrain.open_at(n) {
                        labels[n] = next;
                        stack.push(n as u32);
                    }
                };
                if x + 1 < width {
                    visit(i + 1);
                }
                if x > 0 {
                    visit(i - 1);
                }
                if i + width < cells {
                    visit(i + width);
                }
                if i >= width {
                    visit(i - width);
                }
            }
        }
        self.revision = Some(terrain.revision());
    }

    /// The region of a cell ([`NO_REGION`] for impassable or off-map cells). Call
    /// [`Regions::refresh`] first.
    pub fn of(&self, terrain: &Terrain, c: Cell) -> u32 {
        terrain.index(c).and_then(|i| self.labels.get(i).copied()).unwrap_or(NO_REGION)
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
