//! Vision: what each team sees now and what it has seen, on a grid of vision cells (two map
//! cells a side). Allies share one grid.
//!
//! Each object with sight stamps a disc of its vision radius onto its team's grid, counted per
//! cell, and unstamps it when it moves to another vision cell, changes its sight or leaves; so
//! a frame costs work only for objects that crossed a cell edge. What a team sees is therefore
//! a function of where the objects are now (which is hashed); what it has explored grows with
//! the game, and each team's count of explored cells is hashed with the players.
//!
//! Rules that ask "can this player see that" (targeting, the `Attack` command) read
//! [`World::visible_to`](crate::sim::world::World::visible_to); the client's shroud and the
//! skirmish AI read the same grid. This file holds the grid and how discs are stamped and
//! shifted on it; `system.rs` keeps it in step with the objects each frame.
//! Must not: change objects, or depend on anything but objects' positions, owners and sight.

use std::collections::BTreeMap;

use super::divisor::Divisor;
use super::fixed::Fixed;
use super::hash::StateHasher;
use super::ids::ObjectId;
use super::research::UpgradeTable;
use super::terrain::Terrain;
use super::vector::Vec2;

mod system;

pub(crate) use system::update;

/// Map cells per vision cell, along each side.
pub const CELLS_PER_VISION_CELL: i32 = 2;

/// What a team knows of one vision cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sight {
    /// Never seen.
    Unknown,
    /// Seen before, not now.
    Explored,
    /// In sight now.
    Visible,
}

/// One team's grid.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
struct TeamSight {
    /// Per cell, in one word: how many discs cover it now (the low bits, [`COVER`]) and
    /// whether any ever did ([`EXPLORED`]), so a stamp reads and writes each cell once.
    cells: Vec<u16>,
    /// How many cells are explored (hashed).
    explored_count: u32,
}

/// The bit of a cell's word set once the cell has been covered.
const EXPLORED: u16 = 1 << 15;
/// The bits of a cell's word that count the discs covering it now (saturating: far more than
/// a game has objects).
const COVER: u16 = EXPLORED - 1;

impl TeamSight {
    /// One more disc covers the cells of `run` (a row's run of cell indices): they are seen,
    /// and explored from now on.
    fn raise(&mut self, run: std::ops::RangeInclusive<usize>) {
        let Some(cells) = self.cells.get_mut(run) else { return };
        for cell in cells {
            if *cell & COVER != COVER {
                *cell += 1;
            }
            if *cell & EXPLORED == 0 {
                *cell |= EXPLORED;
                self.explored_count += 1;
            }
        }
    }

    /// One disc fewer covers the cells of `run`.
    fn lower(&mut self, run: std::ops::RangeInclusive<usize>) {
        let Some(cells) = self.cells.get_mut(run) else { return };
        for cell in cells {
            if *cell & COVER != 0 {
                *cell -= 1;
            }
        }
    }
}

/// One object's disc as stamped.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
struct Stamp {
    id: ObjectId,
    team: u8,
    cell: (i32, i32),
    radius_sq: i64,
    /// The sight the radius was worked out from.
    sight: Fixed,
}

/// Every team's vision grid and the discs stamped on it.
#[derive(Clone, Debug, Default, serde::Serialize, serde::Deserialize)]
pub struct Vision {
    width: i32,
    height: i32,
    /// World units per vision cell.
    size: Fixed,
    /// Division by `size`, by multiplication (finding a point's cell is asked each time an
    /// object crosses into another).
    per_cell: Divisor,
    teams: Vec<TeamSight>,
    /// The disc each object slot has stamped, if any.
    stamps: Vec<Option<Stamp>>,
    /// Each slot's stamped cell, if any: a compact copy of `stamps`' cells, kept with them,
    /// for the frame's walk over every slot (a quarter of the bytes to read).
    stamped_cells: Vec<Option<(i32, i32)>>,
    /// The discs stamped so far, by squared radius in vision cells.
    discs: BTreeMap<i64, Disc>,
    /// What the stamps' teams and sights were worked out from at the last update: each
    /// player's team (none once defeated) and the sight upgrades. While these stay the same,
    /// a living object's team and sight do too (its owner and template are fixed for life).
    inputs: Option<(Vec<Option<u8>>, UpgradeTable)>,
    /// The object store's census at the last update: while it stands, each slot holds the
    /// object it held then, alive.
    census: Option<u64>,
    /// The slots an update looks at (scratch, kept between frames).
    look: Vec<usize>,
}

impl Vision {
    /// An empty grid over `terrain` for teams `0..teams`.
    pub fn new(terrain: &Terrain, teams: usize) -> Vision {
        let f = CELLS_PER_VISION_CELL;
        let width = (terrain.width() as i32 + f - 1) / f;
        let height = (terrain.height() as i32 + f - 1) / f;
        let cells = (width * height).max(0) as usize;
        let size = terrain.cell_size().mul_int(f as i64);
        let team = TeamSight { cells: vec![0; cells], explored_count: 0 };
        Vision {
            width,
            height,
            size,
            per_cell: Divisor::new(size),
            teams: vec![team; teams],
            stamps: Vec::new(),
            stamped_cells: Vec::new(),
            discs: BTreeMap::new(),
            inputs: None,
            census: None,
            look: Vec::new(),
        }
    }

    /// Grid size in vision cells.
    pub fn size(&self) -> (u32, u32) {
        (self.width as u32, self.height as u32)
    }

    /// World units per vision cell.
    pub fn cell_size(&self) -> Fixed {
        self.size
    }

    /// The vision cell under a point (may lie off the grid).
    pub fn cell_of(&self, p: Vec2) -> (i32, i32) {
        (self.per_cell.floor_div(p.x) as i32, self.per_cell.floor_div(p.y) as i32)
    }

    fn index(&self, (x, y): (i32, i32)) -> Option<usize> {
        (x >= 0 && y >= 0 && x < self.width && y < self.height).then(|| (y * self.width + x) as usize)
    }

    /// What `team` knows of vision cell `cell` (off the grid: unknown).
    pub fn sight(&self, team: u8, cell: (i32, i32)) -> Sight {
        let (Some(t), Some(i)) = (self.teams.get(team as usize), self.index(cell)) else { return Sight::Unknown };
        let cell = t.cells.get(i).copied().unwrap_or(0);
        if cell & COVER > 0 {
            Sight::Visible
        } else if cell & EXPLORED != 0 {
            Sight::Explored
        } else {
            Sight::Unknown
        }
    }

    /// What `team` knows of the ground at `p`.
    pub fn sight_at(&self, team: u8, p: Vec2) -> Sight {
        self.sight(team, self.cell_of(p))
    }

    /// Feeds each team's explored count to the hasher.
    pub fn hash_into(&self, h: &mut StateHasher) {
        // Exhaustive: a new field does not compile until it is hashed here or named derived.
        // Everything but the explored counts follows from the objects' positions and the
        // players' teams and upgrades (hashed elsewhere); explored flags only ever grow, and
        // a team's flags are covered by their count.
        let Vision {
            width: _,
            height: _,
            size: _,
            per_cell: _,
            teams,
            stamps: _,
            stamped_cells: _,
            discs: _,
            inputs: _,
            census: _,
            look: _,
        } = self;
        for TeamSight { cells: _, explored_count } in teams {
            h.write_u64(*explored_count as u64);
        }
    }

    /// Cells `team` has explored.
    pub fn explored_count(&self, team: u8) -> u32 {
        self.teams.get(team as usize).map_or(0, |t| t.explored_count)
    }

    fn apply(&mut self, s: Stamp, add: bool) {
        let grid = Grid { width: self.width, height: self.height };
        let Some(team) = self.teams.get_mut(s.team as usize) else { return };
        // Rows of the disc, made once per radius and borrowed, not copied, per stamp; each row
        // is clipped to the grid once and walked as one run of cells.
        let disc = self.discs.entry(s.radius_sq).or_insert_with(|| Disc::new(s.radius_sq));
        for &(dy, half) in &disc.rows {
            if let Some(run) = grid.run(s.cell.1 + dy, s.cell.0 - half, s.cell.0 + half) {
                if add { team.raise(run) } else { team.lower(run) }
            }
        }
    }

    /// Moves a team's disc from `old` to `new` (the same team and radius), as unstamping one
    /// and stamping the other would, touching only the cells that change. Most moves are a step
    /// to one of the eight neighbouring cells, whose changed runs the disc knows already.
    fn shift(&mut self, old: Stamp, new: Stamp) {
        debug_assert!(old.team == new.team && old.radius_sq == new.radius_sq);
        let grid = Grid { width: self.width, height: self.height };
        let Some(team) = self.teams.get_mut(new.team as usize) else { return };
        let disc = self.discs.entry(new.radius_sq).or_insert_with(|| Disc::new(new.radius_sq));
        let (x, y) = old.cell;
        let d = (new.cell.0 - x, new.cell.1 - y);
        // A longer move (rare) works its runs out on the spot.
        let far;
        let changed = match disc.step(d) {
            Some(known) => known,
            None => {
                far = changes(&disc.rows, d);
                &far
            }
        };
        for c in changed {
            if let Some(run) = grid.run(y + c.dy, x + c.first, x + c.last) {
                if c.gain { team.raise(run) } else { team.lower(run) }
            }
        }
    }
}

/// The cells of a disc of one radius, and what changes when it steps to a neighbouring cell.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
struct Disc {
    /// The rows (row offset, half width; see [`disc_rows`]).
    rows: Vec<(i32, i32)>,
    /// For each step to a neighbouring cell (by `(dx + 1) * 3 + dy + 1`; none for no step),
    /// the runs of cells that lose or gain the disc, relative to the old centre.
    steps: [Vec<Change>; 9],
}

/// A run of cells that loses or gains a disc when it moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
struct Change {
    /// The row, from the old centre's.
    dy: i32,
    /// The first and last column, from the old centre's.
    first: i32,
    last: i32,
    /// True if the run comes into the disc, false if it leaves it.
    gain: bool,
}

impl Disc {
    fn new(radius_sq: i64) -> Disc {
        let rows = disc_rows(radius_sq);
        let steps = std::array::from_fn(|i| {
            let (dx, dy) = (i as i32 / 3 - 1, i as i32 % 3 - 1);
            if (dx, dy) == (0, 0) { Vec::new() } else { changes(&rows, (dx, dy)) }
        });
        Disc { rows, steps }
    }

    /// The runs that change when the disc moves by `d`, if that is a step to a neighbouring
    /// cell.
    fn step(&self, (dx, dy): (i32, i32)) -> Option<&[Change]> {
        if dx.abs() > 1 || dy.abs() > 1 || (dx, dy) == (0, 0) {
            return None;
        }
        self.steps.get(((dx + 1) * 3 + dy + 1) as usize).map(Vec::as_slice)
    }
}

/// The runs of the disc of `rows` that change when it moves by `d`, relative to the old
/// centre: row by row, the old run's cells outside the new one leave, and the new run's cells
/// outside the old one come in.
fn changes(rows: &[(i32, i32)], d: (i32, i32)) -> Vec<Change> {
    let r = rows.len() as i32 / 2;
    // The run in row `y` of the disc centred on `c` (empty: first > last).
    let run =
        |c: (i32, i32), y: i32| rows.get((y - c.1 + r) as usize).map_or((1, 0), |&(_, half)| (c.0 - half, c.0 + half));
    let mut changes = Vec::new();
    for dy in d.1.min(0) - r..=d.1.max(0) + r {
        let (was, now) = (run((0, 0), dy), run(d, dy));
        for (part, gain) in
            outside(was, now).into_iter().map(|p| (p, false)).chain(outside(now, was).into_iter().map(|p| (p, true)))
        {
            if part.0 <= part.1 {
                changes.push(Change { dy, first: part.0, last: part.1, gain });
            }
        }
    }
    changes
}

/// A vision grid's size in cells.
#[derive(Clone, Copy)]
struct Grid {
    width: i32,
    height: i32,
}

impl Grid {
    /// The cells `first..=last` of row `y`, clipped to the grid, as indices (None when nothing
    /// of them is on it).
    #[inline(always)] // a few per changed row of a shift
    fn run(self, y: i32, first: i32, last: i32) -> Option<std::ops::RangeInclusive<usize>> {
        let (a, b) = (first.max(0), last.min(self.width - 1));
        (a <= b && (0..self.height).contains(&y)).then(|| {
            let row = (y * self.width) as usize;
            row + a as usize..=row + b as usize
        })
    }
}

/// The rows of the cells within `radius_sq` (squared, in vision cells) of a centre cell: for
/// each row offset `dy` that has any, the half width `k` of its run `-k..=k` (a cell `(dx, dy)`
/// is in the disc exactly when `dx² + dy² <= radius_sq`, that is `|dx| <= ⌊√(radius_sq − dy²)⌋`).
fn disc_rows(radius_sq: i64) -> Vec<(i32, i32)> {
    let r = radius_sq.max(0).isqrt() as i32;
    (-r..=r).map(|dy| (dy, (radius_sq - (dy as i64) * (dy as i64)).isqrt() as i32)).collect()
}

/// The parts of the run `run` (first and last cell; empty when first > last) outside the run
/// `other`: the part before it and the part after it, each possibly empty.
#[inline(always)] // two per changed row of a shift
fn outside(run: (i32, i32), other: (i32, i32)) -> [(i32, i32); 2] {
    if other.0 > other.1 { [run, (1, 0)] } else { [(run.0, run.1.min(other.0 - 1)), (run.0.max(other.1 + 1), run.1)] }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn disc_rows_hold_exactly_the_cells_within_the_radius() {
        for radius_sq in 0..700i64 {
            let mut from_rows: Vec<(i32, i32)> =
                disc_rows(radius_sq).iter().flat_map(|&(dy, k)| (-k..=k).map(move |dx| (dx, dy))).collect();
            from_rows.sort();
            let mut by_distance = Vec::new();
            for dy in -30i32..=30 {
                for dx in -30i32..=30 {
                    if (dx * dx + dy * dy) as i64 <= radius_sq {
                        by_distance.push((dx, dy));
                    }
                }
            }
            by_distance.sort();
            assert_eq!(from_rows, by_distance, "radius² {radius_sq}");
        }
    }

    proptest::proptest! {
        /// Shifting a disc leaves every count and explored cell as unstamping it and stamping
        /// it at its new cell does: discs of every size, near and far moves along a row, along
        /// a column and across, on and off the grid's edges, over ground other discs already
        /// cover.
        #[test]
        fn a_shifted_disc_counts_as_one_unstamped_and_stamped_again(
            radius_sq in 0i64..200,
            from in (-20i32..60, -20i32..60),
            step in (-3i32..=3, -3i32..=3),
            far in 0u8..5,
            axis in 0u8..3,
            others in proptest::collection::vec((0i32..40, 0i32..40, 0i64..120), 0..4),
        ) {
            // A 40 × 30 grid of vision cells.
            let terrain = Terrain::open(80, 60, Fixed::from_int(10), Vec::new());
            let mut grid = Vision::new(&terrain, 1);
            let stamp = |cell: (i32, i32), radius_sq: i64| Stamp {
                id: ObjectId { index: 0, generation: 0 },
                team: 0,
                cell,
                radius_sq,
                sight: Fixed::ONE,
            };
            for &(x, y, r) in &others {
                grid.apply(stamp((x, y), r), true);
            }
            // A third of the cases move along a row, a third along a column. One case in five
            // jumps far away (the cells swapped over the diagonal), and one in five goes nine
            // times the step, so that the runs part.
            let (dx, dy) = match axis {
                0 => step,
                1 => (step.0, 0),
                _ => (0, step.1),
            };
            let scale = if far == 1 { 9 } else { 1 };
            let to = if far == 0 { (from.1, from.0) } else { (from.0 + dx * scale, from.1 + dy * scale) };
            let (old, new) = (stamp(from, radius_sq), stamp(to, radius_sq));
            grid.apply(old, true);
            let mut expected = grid.clone();
            expected.apply(old, false);
            expected.apply(new, true);
            grid.shift(old, new);
            let (got, want) = (&grid.teams[0], &expected.teams[0]);
            proptest::prop_assert_eq!(&got.cells, &want.cells);
            proptest::prop_assert_eq!(got.explored_count, want.explored_count);
        }
    }
}
