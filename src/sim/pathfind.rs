//! Grid A* with integer costs and a per-frame budget.
//!
//! Requests queue in arrival order; each frame the queue is served until the frame's budget of
//! expanded cells is spent, so a 200-unit order spreads over a few frames instead of stalling
//! one. Ties in the open list break on (f, h, cell index), so every machine expands the same
//! cells. A straight line of sight is tried before any search; found paths are shortened by
//! line-of-sight string pulling. Must not: iterate hashed containers or read anything but the
//! terrain grid.

use std::cmp::Reverse;
use std::collections::{BinaryHeap, VecDeque};

use super::hash::StateHasher;
use super::ids::ObjectId;
use super::regions::{NO_REGION, Regions};
use super::terrain::{Cell, Terrain};
use super::vector::Vec2;

/// Cost of an orthogonal step.
const STRAIGHT: u32 = 10;
/// Cost of a diagonal step.
const DIAGONAL: u32 = 14;
/// A single search gives up after expanding this many cells and returns the best partial path.
const MAX_NODES_PER_SEARCH: u32 = 60_000;
/// The heuristic is scaled by 6/5: searches expand far fewer cells for paths at most 20 %
/// longer than the best (smoothing straightens most of the difference away).
const HEURISTIC_NUM: u32 = 6;
const HEURISTIC_DEN: u32 = 5;
/// Paths are shared between requests whose starts, and whose goals, lie within this many cells.
const SHARE_CELLS: i32 = 12;
/// A smoothed path has a waypoint at least this often (cells), bounding line-of-sight work.
const MAX_SEGMENT_CELLS: usize = 24;
/// A goal that cannot be reached (inside a structure, across water) is moved to the nearest
/// reachable cell within this many cells; farther than that, the search runs to its limit and
/// the path ends where it got closest.
const RETARGET_CELLS: i32 = 32;

/// One queued request for a path.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct PathRequest {
    /// Request number (unique for the game).
    pub id: u32,
    /// Who asked.
    pub object: ObjectId,
    /// From here.
    pub from: Vec2,
    /// To here.
    pub to: Vec2,
}

/// A finished request.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PathResult {
    /// The request answered.
    pub id: u32,
    /// Who asked.
    pub object: ObjectId,
    /// Points to steer through, the last one the reachable end nearest the goal.
    pub waypoints: Vec<Vec2>,
}

/// The path service: a request queue and reusable search buffers.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct Pathfinder {
    queue: VecDeque<PathRequest>,
    next_id: u32,
    budget: u32,
    /// Rebuilt by every search: a restored world starts with empty buffers.
    #[serde(skip)]
    scratch: Scratch,
    regions: Regions,
}

/// Per-cell search buffers, reused between searches (not state: rebuilt by every search).
#[derive(Clone, Debug, Default)]
struct Scratch {
    /// Per cell, the search that last reached it and its cost from the start there, side by
    /// side: the test of a neighbour reads one place.
    node: Vec<Node>,
    parent: Vec<u32>,
    search: u32,
    /// The open list of a search whose entries fit one `u64` ([`KeyLayout`]): every map the
    /// game ships, and any within the content limits.
    packed: BinaryHeap<Reverse<u64>>,
    /// The open list of any other search: each entry `(f, h, cell)` packed into one `u128` by
    /// [`open_key`].
    wide: BinaryHeap<Reverse<u128>>,
}

/// A cell's search stamp and its cost from the start in that search.
#[derive(Clone, Copy, Debug, Default)]
struct Node {
    stamp: u32,
    g: u32,
}

/// The open list of one search: entries `(f, h, cell)`, taken smallest first as the triple
/// orders. Entries are never equal (a cell is pushed again only with a smaller cost), so any
/// such list gives the same entries in the same order.
trait Frontier {
    fn push(&mut self, f: u32, h: u32, cell: u32);
    fn pop(&mut self) -> Option<(u32, u32, u32)>;
}

impl Frontier for BinaryHeap<Reverse<u128>> {
    #[inline(always)]
    fn push(&mut self, f: u32, h: u32, cell: u32) {
        BinaryHeap::push(self, Reverse(open_key(f, h, cell)));
    }
    #[inline(always)]
    fn pop(&mut self) -> Option<(u32, u32, u32)> {
        BinaryHeap::pop(self).map(|Reverse(k)| open_entry(k))
    }
}

/// How `(f, h, cell)` packs into one `u64` for one search: the three fields side by side, each
/// as wide as the largest value it can hold there, so the number orders as the triple does and
/// the heap moves and compares half as much as with [`open_key`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct KeyLayout {
    h_bits: u32,
    cell_bits: u32,
}

impl KeyLayout {
    /// The layout for a search over `cells` cells whose heuristic is at most `max_h`, if the
    /// fields fit one `u64`. Every cost is that of a path without repeated cells (costs only
    /// fall, so a cell is never reached again through itself), so `g < DIAGONAL · cells`.
    fn fit(cells: u64, max_h: u64) -> Option<KeyLayout> {
        let max_f = u64::from(DIAGONAL) * cells + max_h;
        let bits = |v: u64| 64 - v.leading_zeros();
        let (f_bits, h_bits, cell_bits) = (bits(max_f), bits(max_h), bits(cells));
        // f itself is a u32 sum: a bound past it takes the wide list, as the search did before.
        (max_f <= u64::from(u32::MAX) && f_bits + h_bits + cell_bits <= 64).then_some(KeyLayout { h_bits, cell_bits })
    }
}

/// A search's open list packed by a [`KeyLayout`].
struct Packed<'a> {
    heap: &'a mut BinaryHeap<Reverse<u64>>,
    layout: KeyLayout,
}

impl Frontier for Packed<'_> {
    #[inline(always)]
    fn push(&mut self, f: u32, h: u32, cell: u32) {
        let KeyLayout { h_bits, cell_bits } = self.layout;
        let key = (u64::from(f) << (h_bits + cell_bits)) | (u64::from(h) << cell_bits) | u64::from(cell);
        self.heap.push(Reverse(key));
    }
    #[inline(always)]
    fn pop(&mut self) -> Option<(u32, u32, u32)> {
        let KeyLayout { h_bits, cell_bits } = self.layout;
        self.heap.pop().map(|Reverse(k)| {
            let mask = |bits: u32| (1u64 << bits) - 1;
            ((k >> (h_bits + cell_bits)) as u32, ((k >> cell_bits) & mask(h_bits)) as u32, (k & mask(cell_bits)) as u32)
        })
    }
}

/// The eight steps from a cell, in the order they are tried: the four straight ones (east,
/// west, south, north), then the diagonals.
const STEPS: [(i32, i32); 8] = [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1)];

/// An open-list entry `(f, h, cell)` as one number that orders as the triple does.
#[inline(always)]
fn open_key(f: u32, h: u32, cell: u32) -> u128 {
    (f as u128) << 64 | (h as u128) << 32 | cell as u128
}

/// The `(f, h, cell)` an [`open_key`] holds.
#[inline(always)]
fn open_entry(key: u128) -> (u32, u32, u32) {
    ((key >> 64) as u32, (key >> 32) as u32, key as u32)
}

impl Pathfinder {
    /// A pathfinder expanding at most `budget` cells a frame (at least one search always runs).
    pub fn new(budget: u32) -> Pathfinder {
        Pathfinder {
            queue: VecDeque::new(),
            next_id: 0,
            budget,
            scratch: Scratch::default(),
            regions: Regions::default(),
        }
    }

    /// Queues a request; returns its id.
    pub fn request(&mut self, object: ObjectId, from: Vec2, to: Vec2) -> u32 {
        let id = self.next_id;
        self.next_id = self.next_id.wrapping_add(1);
        self.queue.push_back(PathRequest { id, object, from, to });
        id
    }

    /// Brings the regions of connected ground up to date with `terrain` (the world does so at
    /// the end of every frame, so queries between frames read current regions).
    pub fn refresh_regions(&mut self, terrain: &Terrain) {
        self.regions.refresh(terrain);
    }

    /// The regions of connected ground, as of the last refresh.
    pub fn regions(&self) -> &Regions {
        &self.regions
    }

    /// Requests waiting.
    pub fn pending(&self) -> usize {
        self.queue.len()
    }

    /// Feeds the queue and counters to the hasher.
    pub fn hash_into(&self, h: &mut StateHasher) {
        // Exhaustive: a new field does not compile until it is hashed here or named derived.
        // The budget is a constant of the game; the scratch and the regions are caches worked
        // out from the terrain.
        let Pathfinder { queue, next_id, budget: _, scratch: _, regions: _ } = self;
        h.write_u64(*next_id as u64);
        h.write_u64(queue.len() as u64);
        for PathRequest { id, object, from, to } in queue {
            h.write_words(&[
                *id as u64,
                object.to_bits(),
                from.x.raw() as u64,
                from.y.raw() as u64,
                to.x.raw() as u64,
                to.y.raw() as u64,
            ]);
        }
    }

    /// Serves queued requests until this frame's budget is spent.
    ///
    /// Requests of one group order (starts close together, goals close together) share the
    /// first searched path: a unit walks to the neighbour's start, follows its path and turns
    /// off to its own goal, when straight lines allow. This turns a 200-unit order into a
    /// handful of searches.
    pub fn run(&mut self, terrain: &Terrain) -> Vec<PathResult> {
        let mut spent = 0u32;
        let mut done: Vec<PathResult> = Vec::new();
        let mut searched: Vec<(Vec2, Vec2, usize)> = Vec::new();
        while spent < self.budget {
            let Some(req) = self.queue.pop_front() else { break };
            let (shared, cost) = share(terrain, &searched, &done, &req);
            spent = spent.saturating_add(cost);
            let waypoints = match shared {
                Some(w) => w,
                None => {
                    let (w, cost) = self.find(terrain, req.from, req.to);
                    spent = spent.saturating_add(cost.max(1));
                    if w.len() > 1 {
                        searched.push((req.from, req.to, done.len()));
                    }
                    w
                }
            };
            done.push(PathResult { id: req.id, object: req.object, waypoints });
        }
        done
    }

    /// Finds a path now, ignoring the budget; returns the waypoints and the work done.
    ///
    /// A goal outside the start's region of connected ground (under a structure, across
    /// water) is first moved to the nearest cell of that region, so the search ends there
    /// instead of exhausting everything reachable.
    pub fn find(&mut self, terrain: &Terrain, from: Vec2, to: Vec2) -> (Vec<Vec2>, u32) {
        let start = terrain.cell_of(from);
        let goal_cell = terrain.cell_of(to);
        let (los, steps) = line_of_sight(terrain, start, goal_cell);
        if los && terrain.passable(goal_cell) {
            return (vec![to], steps);
        }
        let Some(start_idx) =
            terrain.index(start).or_else(|| terrain.nearest_passable(start, 4).and_then(|c| terrain.index(c)))
        else {
            return (Vec::new(), steps);
        };
        self.regions.refresh(terrain);
        let region = terrain.nearest_passable(start, 4).map_or(NO_REGION, |c| self.regions.of(terrain, c));
        let regions = &self.regions;
        let goal = if region == NO_REGION || regions.of(terrain, goal_cell) == region {
            goal_cell
        } else {
            terrain.nearest_where(goal_cell, RETARGET_CELLS, |c| regions.of(terrain, c) == region).unwrap_or(goal_cell)
        };
        let (cells, expanded, reached) = self.astar(terrain, start_idx, goal);
        let mut pts = smooth(terrain, &cells);
        // Aim for the exact goal when its cell was reached.
        if reached
            && goal == goal_cell
            && let Some(last) = pts.last_mut()
        {
            *last = to;
        }
        if pts.first().is_some_and(|p| terrain.cell_of(*p) == start) && pts.len() > 1 {
            pts.remove(0);
        }
        (pts, steps + expanded)
    }

    /// Plain A*; returns the cells from start to the goal (or to the closest cell reached),
    /// the number of cells expanded, and whether the goal itself was reached.
    fn astar(&mut self, terrain: &Terrain, start: usize, goal: Cell) -> (Vec<usize>, u32, bool) {
        let cells = terrain.width() as usize * terrain.height() as usize;
        let s = &mut self.scratch;
        if s.node.len() != cells {
            s.node = vec![Node::default(); cells];
            s.parent = vec![0; cells];
            s.search = 0;
        }
        s.search = s.search.wrapping_add(1);
        if s.search == 0 {
            s.node.iter_mut().for_each(|n| n.stamp = 0);
            s.search = 1;
        }
        // The heuristic is largest at a corner of the grid (it grows with both distances).
        let (w, h) = (i64::from(terrain.width()), i64::from(terrain.height()));
        let max_h = [(0, 0), (w - 1, 0), (0, h - 1), (w - 1, h - 1)]
            .iter()
            .map(|&(x, y)| {
                let (dx, dy) = ((x - i64::from(goal.x)).unsigned_abs(), (y - i64::from(goal.y)).unsigned_abs());
                (u64::from(STRAIGHT) * dx.max(dy) + u64::from(DIAGONAL - STRAIGHT) * dx.min(dy))
                    * u64::from(HEURISTIC_NUM)
                    / u64::from(HEURISTIC_DEN)
            })
            .max()
            .unwrap_or(0);
        let Scratch { node, parent, search, packed, wide } = s;
        let grid = Grid { terrain, start, goal, search: *search };
        match KeyLayout::fit(cells as u64, max_h) {
            Some(layout) => {
                packed.clear();
                search_with(&grid, node, parent, &mut Packed { heap: packed, layout })
            }
            None => {
                wide.clear();
                search_with(&grid, node, parent, wide)
            }
        }
    }
}

/// What one A* search runs over: the terrain, its start cell's index, its goal and its stamp.
struct Grid<'a> {
    terrain: &'a Terrain,
    start: usize,
    goal: Cell,
    search: u32,
}

/// A* over `grid` with the buffers `node` and `parent` and the open list `open` (see
/// [`Pathfinder::astar`]).
#[inline(always)]
fn search_with(
    grid: &Grid,
    node: &mut [Node],
    parent: &mut [u32],
    open: &mut impl Frontier,
) -> (Vec<usize>, u32, bool) {
    let Grid { terrain, start, goal, search } = *grid;
    let heuristic = |c: Cell| -> u32 {
        let dx = (c.x - goal.x).unsigned_abs();
        let dy = (c.y - goal.y).unsigned_abs();
        (STRAIGHT * dx.max(dy) + (DIAGONAL - STRAIGHT) * dx.min(dy)) * HEURISTIC_NUM / HEURISTIC_DEN
    };
    // The cell of an index, by a 32-bit division (the grid's cells are counted in a u32).
    let width = terrain.width();
    let cell_at = |idx: u32| Cell { x: (idx % width) as i32, y: (idx / width) as i32 };
    node[start] = Node { stamp: search, g: 0 };
    parent[start] = start as u32;
    let h0 = heuristic(terrain.cell_at(start));
    open.push(h0, h0, start as u32);
    let mut best = (h0, start);
    let mut expanded = 0u32;
    let mut reached = false;
    while let Some((f, h, idx)) = open.pop() {
        let c = cell_at(idx);
        let idx = idx as usize;
        let g = node[idx].g;
        if f != g + h {
            continue; // a stale entry: a cheaper route to this cell was found later
        }
        expanded += 1;
        if h < best.0 || (h == best.0 && idx < best.1) {
            best = (h, idx);
        }
        if c == goal {
            reached = true;
            best = (0, idx);
            break;
        }
        if expanded >= MAX_NODES_PER_SEARCH {
            break;
        }
        // Each neighbour's passability, asked once: a diagonal step reads its two sides'.
        let passable = STEPS.map(|(dx, dy)| terrain.passable(Cell { x: c.x + dx, y: c.y + dy }));
        for (k, &(dx, dy)) in STEPS.iter().enumerate() {
            if !passable[k] {
                continue;
            }
            let diagonal = k >= 4;
            if diagonal {
                let side_x = if dx > 0 { passable[0] } else { passable[1] };
                let side_y = if dy > 0 { passable[2] } else { passable[3] };
                if !(side_x && side_y) {
                    continue; // no corner cutting
                }
            }
            let n = Cell { x: c.x + dx, y: c.y + dy };
            // Passable, so on the grid: its index is its row's start plus its column.
            let ni = n.y as usize * width as usize + n.x as usize;
            let ng = g + if diagonal { DIAGONAL } else { STRAIGHT };
            let Some(nd) = node.get_mut(ni) else { continue };
            if nd.stamp == search && nd.g <= ng {
                continue;
            }
            *nd = Node { stamp: search, g: ng };
            parent[ni] = idx as u32;
            let nh = heuristic(n);
            open.push(ng + nh, nh, ni as u32);
        }
    }
    let mut path = vec![best.1];
    let mut cur = best.1;
    while cur != start {
        cur = parent[cur] as usize;
        path.push(cur);
    }
    path.reverse();
    (path, expanded, reached)
}

/// A path for `req` borrowed from an earlier search of this frame, if one fits; and the
/// line-of-sight work spent deciding.
fn share(
    terrain: &Terrain,
    searched: &[(Vec2, Vec2, usize)],
    done: &[PathResult],
    req: &PathRequest,
) -> (Option<Vec<Vec2>>, u32) {
    let (start, goal) = (terrain.cell_of(req.from), terrain.cell_of(req.to));
    let near = |a: Cell, b: Cell| (a.x - b.x).abs() <= SHARE_CELLS && (a.y - b.y).abs() <= SHARE_CELLS;
    let mut cost = 0u32;
    for &(from, to, k) in searched.iter().rev() {
        let (their_start, their_goal) = (terrain.cell_of(from), terrain.cell_of(to));
        if !near(start, their_start) || !near(goal, their_goal) {
            continue;
        }
        let path = &done[k].waypoints;
        let Some(last_shared) = path.len().checked_sub(2).map(|i| path[i]) else { continue };
        let (a, c1) = line_of_sight(terrain, start, their_start);
        let (b, c2) = line_of_sight(terrain, terrain.cell_of(last_shared), goal);
        cost += c1 + c2;
        if a && b && terrain.passable(goal) {
            let mut w = Vec::with_capacity(path.len() + 1);
            w.push(from);
            w.extend_from_slice(&path[..path.len() - 1]);
            w.push(req.to);
            return (Some(w), cost.max(1));
        }
    }
    (None, cost)
}

/// Walks the cells on the line between two cell centres; true if all are passable (diagonal
/// steps also need both side cells). Returns the verdict and the cells visited.
pub fn line_of_sight(terrain: &Terrain, a: Cell, b: Cell) -> (bool, u32) {
    let (dx, dy) = ((b.x - a.x).abs(), (b.y - a.y).abs());
    let (sx, sy) = ((b.x - a.x).signum(), (b.y - a.y).signum());
    let (mut x, mut y) = (a.x, a.y);
    let mut err = dx - dy;
    let mut steps = 0u32;
    if !terrain.passable(a) && terrain.index(a).is_none() {
        return (false, 1);
    }
    while (x, y) != (b.x, b.y) {
        steps += 1;
        let e2 = 2 * err;
        let (mut nx, mut ny) = (x, y);
        if e2 > -dy {
            err -= dy;
            nx += sx;
        }
        if e2 < dx {
            err += dx;
            ny += sy;
        }
        if nx != x && ny != y && !(terrain.passable(Cell { x: nx, y }) && terrain.passable(Cell { x, y: ny })) {
            return (false, steps);
        }
        if !terrain.passable(Cell { x: nx, y: ny }) {
            return (false, steps);
        }
        (x, y) = (nx, ny);
    }
    (true, steps.max(1))
}

/// String-pulls a cell path into waypoints at cell centres.
fn smooth(terrain: &Terrain, cells: &[usize]) -> Vec<Vec2> {
    let mut out = Vec::new();
    if cells.is_empty() {
        return out;
    }
    let mut anchor = 0usize;
    let mut i = 1usize;
    while i < cells.len() {
        let a = terrain.cell_at(cells[anchor]);
        let b = terrain.cell_at(cells[i]);
        let too_far = i - anchor > MAX_SEGMENT_CELLS;
        if too_far || !line_of_sight(terrain, a, b).0 {
            anchor = i - 1;
            out.push(terrain.center(terrain.cell_at(cells[anchor])));
        } else {
            i += 1;
        }
    }
    out.push(terrain.center(terrain.cell_at(cells[cells.len() - 1])));
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::fixed::Fixed;

    fn wall_map() -> Terrain {
        // 20×20 with a wall at x = 10 from y = 0 to 15, so paths must go round the top.
        let mut blocked = vec![false; 400];
        for y in 0..16 {
            blocked[y * 20 + 10] = true;
        }
        Terrain::new(20, 20, Fixed::from_int(10), blocked, vec![])
    }

    #[test]
    fn straight_line_needs_no_search() {
        let t = Terrain::open(20, 20, Fixed::from_int(10), vec![]);
        let mut pf = Pathfinder::new(1000);
        let (pts, _) = pf.find(&t, Vec2::from_int(15, 15), Vec2::from_int(185, 15));
        assert_eq!(pts, vec![Vec2::from_int(185, 15)]);
    }

    #[test]
    fn path_goes_round_a_wall_and_stays_passable() {
        let t = wall_map();
        let mut pf = Pathfinder::new(1000);
        let goal = Vec2::from_int(155, 25);
        let (pts, work) = pf.find(&t, Vec2::from_int(25, 25), goal);
        assert!(work > 1);
        assert_eq!(*pts.last().unwrap(), goal);
        let mut prev = t.cell_of(Vec2::from_int(25, 25));
        for p in &pts {
            let c = t.cell_of(*p);
            assert!(line_of_sight(&t, prev, c).0, "segment {prev:?} → {c:?} crosses the wall");
            prev = c;
        }
        assert!(pts.iter().any(|p| t.cell_of(*p).y >= 16), "must pass above the wall: {pts:?}");
    }

    #[test]
    fn unreachable_goal_gives_nearest_reachable_end() {
        let mut blocked = vec![false; 400];
        for y in 0..20 {
            blocked[y * 20 + 10] = true;
        }
        let t = Terrain::new(20, 20, Fixed::from_int(10), blocked, vec![]);
        let mut pf = Pathfinder::new(1000);
        let (pts, _) = pf.find(&t, Vec2::from_int(25, 95), Vec2::from_int(155, 95));
        let end = t.cell_of(*pts.last().unwrap());
        assert_eq!(end.x, 9);
    }

    #[test]
    fn a_goal_under_a_structure_ends_beside_it_without_searching_the_map() {
        // 64×64 open field with a wall at x = 32 that leaves a gap at the bottom, and a 3×3
        // structure around the goal on the far side.
        let mut blocked = vec![false; 64 * 64];
        for y in 0..60 {
            blocked[y * 64 + 32] = true;
        }
        let mut t = Terrain::new(64, 64, Fixed::from_int(10), blocked, vec![]);
        let goal = Vec2::from_int(455, 105);
        t.mark_structure(goal, (3, 3), true);
        let mut pf = Pathfinder::new(100_000);
        let (pts, work) = pf.find(&t, Vec2::from_int(105, 105), goal);
        let end = t.cell_of(*pts.last().unwrap());
        let g = t.cell_of(goal);
        assert!(t.passable(end));
        assert_eq!((end.x - g.x).abs().max((end.y - g.y).abs()), 2, "ends next to the footprint: {end:?}");
        assert!(work < 4_000, "searched {work} cells for a 64×64 map");
    }

    #[test]
    fn a_goal_across_water_ends_at_the_nearest_shore() {
        // The right third is cut off entirely: the path ends on this side, level with the goal.
        let mut blocked = vec![false; 64 * 64];
        for y in 0..64 {
            blocked[y * 64 + 40] = true;
        }
        let t = Terrain::new(64, 64, Fixed::from_int(10), blocked, vec![]);
        let mut pf = Pathfinder::new(100_000);
        let (pts, work) = pf.find(&t, Vec2::from_int(55, 305), Vec2::from_int(505, 105));
        assert_eq!(t.cell_of(*pts.last().unwrap()), Cell { x: 39, y: 10 });
        assert!(work < 4_000, "searched {work} cells");
    }

    #[test]
    fn budget_spreads_requests_over_frames() {
        let t = wall_map();
        let mut pf = Pathfinder::new(50);
        for i in 0..5 {
            pf.request(ObjectId { index: i, generation: 0 }, Vec2::from_int(25, 25), Vec2::from_int(155, 25));
        }
        let first = pf.run(&t);
        assert!(!first.is_empty() && first.len() < 5, "served {}", first.len());
        let mut total = first.len();
        while pf.pending() > 0 {
            total += pf.run(&t).len();
        }
        assert_eq!(total, 5);
    }

    #[test]
    fn same_search_same_result() {
        let t = wall_map();
        let mut a = Pathfinder::new(1000);
        let mut b = Pathfinder::new(1000);
        let from = Vec2::from_int(5, 5);
        let to = Vec2::from_int(195, 5);
        assert_eq!(a.find(&t, from, to), b.find(&t, from, to));
        // Reusing the buffers does not change the answer.
        assert_eq!(a.find(&t, from, to), b.find(&t, from, to));
    }

    #[test]
    fn the_packed_open_list_searches_as_the_wide_one_does() {
        // A maze of walls with gaps: many ties and re-opened cells.
        let (w, h) = (48usize, 40usize);
        let mut blocked = vec![false; w * h];
        for x in (6..w).step_by(8) {
            for y in 0..h {
                blocked[y * w + x] = (y + x / 8) % 9 != 0;
            }
        }
        let t = Terrain::new(w as u32, h as u32, Fixed::from_int(10), blocked, vec![]);
        let goal = Cell { x: 45, y: 3 };
        let start = t.index(Cell { x: 1, y: 37 }).unwrap();
        let layout = KeyLayout::fit((w * h) as u64, 14 * 48 * 6 / 5).expect("a small grid packs");
        let grid = Grid { terrain: &t, start, goal, search: 1 };
        let fresh = || (vec![Node::default(); w * h], vec![0u32; w * h]);
        let (mut node, mut parent) = fresh();
        let mut packed_heap = BinaryHeap::new();
        let packed = search_with(&grid, &mut node, &mut parent, &mut Packed { heap: &mut packed_heap, layout });
        let (mut node, mut parent) = fresh();
        let mut wide_heap: BinaryHeap<Reverse<u128>> = BinaryHeap::new();
        let wide = search_with(&grid, &mut node, &mut parent, &mut wide_heap);
        assert!(packed.2, "the goal is reachable");
        assert!(packed.1 > 100, "a real search: {} cells", packed.1);
        assert_eq!(packed, wide);
    }

    #[test]
    fn a_key_layout_is_refused_when_the_fields_do_not_fit() {
        assert_eq!(KeyLayout::fit(256 * 256, 4300), Some(KeyLayout { h_bits: 13, cell_bits: 17 }));
        // f would pass a u32: the wide list, whose sums wrap as they always did.
        assert_eq!(KeyLayout::fit(1 << 30, 1 << 20), None);
    }

    proptest::proptest! {
        /// The packed open-list key orders entries exactly as the `(f, h, cell)` triple does,
        /// and gives the triple back.
        #[test]
        fn open_keys_order_as_their_triples(a in proptest::prelude::any::<(u32, u32, u32)>(), b in proptest::prelude::any::<(u32, u32, u32)>(), near in 0u32..3) {
            let key = |(f, h, c): (u32, u32, u32)| open_key(f, h, c);
            proptest::prop_assert_eq!(key(a).cmp(&key(b)), a.cmp(&b));
            proptest::prop_assert_eq!(open_entry(key(a)), a);
            // Triples equal but for one small difference in one place.
            let c = (a.0, a.1, a.2 ^ near);
            let d = (a.0, a.1 ^ near, a.2);
            proptest::prop_assert_eq!(key(a).cmp(&key(c)), a.cmp(&c));
            proptest::prop_assert_eq!(key(a).cmp(&key(d)), a.cmp(&d));
        }

        /// A packed key orders entries as their triples do and gives them back, for every
        /// triple within the layout's bounds.
        #[test]
        fn packed_keys_order_as_their_triples(cells in 1u64..(1 << 20), max_h in 0u64..(1 << 16), a in proptest::prelude::any::<(u32, u32, u32)>(), b in proptest::prelude::any::<(u32, u32, u32)>()) {
            let Some(layout) = KeyLayout::fit(cells, max_h) else { return Ok(()) };
            let max_f = u64::from(DIAGONAL) * cells + max_h;
            let within = |(f, h, c): (u32, u32, u32)| ((u64::from(f) % (max_f + 1)) as u32, (u64::from(h) % (max_h + 1)) as u32, (u64::from(c) % cells) as u32);
            let (a, b) = (within(a), within(b));
            let mut heap = BinaryHeap::new();
            let mut open = Packed { heap: &mut heap, layout };
            open.push(a.0, a.1, a.2);
            open.push(b.0, b.1, b.2);
            let (first, second) = (open.pop().unwrap(), open.pop().unwrap());
            proptest::prop_assert_eq!(first, a.min(b));
            proptest::prop_assert_eq!(second, a.max(b));
        }
    }
}
