//! Free spots: a group's formation slots moved off the spots other units hold.
//!
//! A slot is held when a unit of the same player that is not in the group stands there at rest
//! or is headed there, closer than the two units' radii. A held slot moves to the nearest free
//! point of a lattice around it (the formation's own spacing, ring by ring), so a second group
//! sent to where the first stands gathers around it instead of shoving into it, and a crowd
//! sent to one point comes to rest instead of jostling for the same spots for good (Generals
//! moves a destination to the nearest free cell the same way).
//!
//! Must not: read the world (it is geometry on the spots it is given) or depend on anything but
//! its inputs' order, which is by id.

use super::fixed::Fixed;
use super::ids::ObjectId;
use super::vector::Vec2;

/// Rings of cells searched for a free one before a slot is left where it was.
const MAX_RINGS: i64 = 24;

/// The cells of a square window that units hold, for a group of units no wider than a radius.
///
/// A cell is held when a held spot lies in it, or its centre lies closer to one than that
/// spot's radius plus the group's widest radius (a unit of the group standing on the centre
/// would overlap it). Outside the window nothing is held.
pub(crate) struct HeldSpots {
    /// The window's south-west corner.
    origin: Vec2,
    /// Cell side (the formation's spacing, at least one world unit).
    cell: Fixed,
    /// Cells a side.
    side: i64,
    /// The group's widest radius.
    widest: Fixed,
    /// Held cells, row by row.
    held: Vec<bool>,
}

impl HeldSpots {
    /// A window of cells `cell` wide reaching `reach` from `centre` every way, for a group
    /// whose widest unit has radius `widest`.
    pub(crate) fn new(centre: Vec2, reach: Fixed, cell: Fixed, widest: Fixed) -> HeldSpots {
        let cell = cell.max(Fixed::ONE);
        let side = (reach.mul_int(2).div_floor_int(cell) + 1).clamp(1, 1024);
        let origin = centre - Vec2::new(cell.mul_int(side).div_int(2), cell.mul_int(side).div_int(2));
        HeldSpots { origin, cell, side, widest, held: vec![false; (side * side) as usize] }
    }

    /// The cell `p` lies in (possibly outside the window).
    fn cell_of(&self, p: Vec2) -> (i64, i64) {
        let d = p - self.origin;
        (d.x.div_floor_int(self.cell), d.y.div_floor_int(self.cell))
    }

    /// The centre of a cell.
    fn centre(&self, (x, y): (i64, i64)) -> Vec2 {
        let half = self.cell.div_int(2);
        self.origin + Vec2::new(self.cell.mul_int(x) + half, self.cell.mul_int(y) + half)
    }

    fn index(&self, (x, y): (i64, i64)) -> Option<usize> {
        ((0..self.side).contains(&x) && (0..self.side).contains(&y)).then(|| (y * self.side + x) as usize)
    }

    /// Marks the cells a unit of `radius` at `at` holds: its own, and those whose centre is
    /// closer than its radius plus the group's widest.
    pub(crate) fn hold(&mut self, at: Vec2, radius: Fixed) {
        let reach = radius + self.widest;
        let span = reach.div_floor_int(self.cell) + 1;
        let (cx, cy) = self.cell_of(at);
        if let Some(i) = self.index((cx, cy)) {
            self.held[i] = true;
        }
        // Only the window's cells, however wide the unit (a modded giant stays cheap).
        let last = self.side - 1;
        for y in (cy - span).max(0)..=(cy + span).min(last) {
            for x in (cx - span).max(0)..=(cx + span).min(last) {
                let Some(i) = self.index((x, y)) else { continue };
                let d = self.centre((x, y)) - at;
                if d.x.abs() < reach && d.y.abs() < reach && d.length_squared() < reach * reach {
                    self.held[i] = true;
                }
            }
        }
    }

    /// True if the cell `p` lies in is held.
    pub(crate) fn is_held(&self, p: Vec2) -> bool {
        self.index(self.cell_of(p)).is_some_and(|i| self.held[i])
    }
}

/// The offsets of ring `k` (the cells `k` steps out along the larger axis), nearest first; ties
/// by the group's heading `ahead`: the cell farther behind first, then the one farther to the
/// left. Turned with the map, the heading turns the order with it, so two groups on opposite
/// seats of a half-turn-symmetric map stand in turned spots (ordered by the map's axes, the one
/// seat's crowd spread toward its enemy and the other's away). A heading of (0, 1) orders by
/// y, then x.
fn ring(k: i64, ahead: Vec2) -> Vec<(i64, i64)> {
    let mut points: Vec<(i64, i64)> =
        (-k..=k).flat_map(|y| (-k..=k).map(move |x| (x, y))).filter(|&(x, y)| x.abs().max(y.abs()) == k).collect();
    points.sort_by_key(|&(x, y)| {
        let along = ahead.x.mul_int(x) + ahead.y.mul_int(y);
        let across = ahead.y.mul_int(x) - ahead.x.mul_int(y);
        (x * x + y * y, along, across, y, x)
    });
    points
}

/// Moves each of `slots` (goal positions, with each unit's radius) whose cell is held by
/// another unit to the centre of the nearest open cell held neither by others nor by the
/// group's slots, and holds every slot as placed. The group's own slots never move for each
/// other (the formation keeps them apart); a slot with no free cell within [`MAX_RINGS`] stays.
/// `ahead` is the group's heading (a unit vector), which breaks ties between cells (see [`ring`]).
pub(crate) fn place(
    held: &mut HeldSpots,
    slots: &mut [(ObjectId, Vec2, Fixed)],
    ahead: Vec2,
    open: impl Fn(Vec2) -> bool,
) {
    let taken: Vec<bool> = slots.iter().map(|&(_, at, _)| held.is_held(at)).collect();
    // The slots that stay hold their cells first, so that no slot moves onto one of them.
    for (&(_, at, radius), _) in slots.iter().zip(&taken).filter(|(_, t)| !**t) {
        held.hold(at, radius);
    }
    let mut rings: Vec<Vec<(i64, i64)>> = Vec::new();
    for ((_, at, radius), _) in slots.iter_mut().zip(&taken).filter(|(_, t)| **t) {
        let (cx, cy) = held.cell_of(*at);
        'search: for k in 1..=MAX_RINGS {
            if rings.len() < k as usize {
                rings.push(ring(k, ahead));
            }
            for &(x, y) in &rings[k as usize - 1] {
                let cell = (cx + x, cy + y);
                let Some(i) = held.index(cell) else { continue };
                let p = held.centre(cell);
                if !held.held[i] && open(p) {
                    *at = p;
                    break 'search;
                }
            }
        }
        held.hold(*at, *radius);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn id(i: u32) -> ObjectId {
        ObjectId { index: i, generation: 0 }
    }

    /// A group heading north (+y): ties go by y, then x.
    const NORTH: Vec2 = Vec2 { x: Fixed::ZERO, y: Fixed::ONE };

    /// A window of 15-wide cells around (100, 100) for radius-5 units: cells from −5 to 205.
    fn window() -> HeldSpots {
        HeldSpots::new(Vec2::from_int(100, 100), Fixed::from_int(100), Fixed::from_int(15), Fixed::from_int(5))
    }

    #[test]
    fn free_slots_stay_and_held_ones_move_to_the_nearest_free_cell() {
        let r = Fixed::from_int(5);
        let mut held = window();
        assert_eq!((held.side, held.origin), (14, Vec2::from_int(-5, -5)));
        // A unit at rest in cell (7, 7), centre (107.5, 107.5).
        held.hold(Vec2::from_int(104, 104), r);
        let mut slots = vec![
            (id(1), Vec2::from_int(190, 100), r), // far from anything: stays
            (id(2), Vec2::from_int(106, 106), r), // on the held cell: moves
            (id(3), Vec2::from_int(106, 106), r), // the same slot: moves elsewhere
            (id(4), Vec2::from_int(107, 95), r),  // free, and where id 2 would go first: stays
        ];
        place(&mut held, &mut slots, NORTH, |_| true);
        assert_eq!(slots[0].1, Vec2::from_int(190, 100));
        assert_eq!(slots[3].1, Vec2::from_int(107, 95));
        // Ring 1's nearest cells are straight out along an axis, (0, −1) first (ties by y, then
        // x), but id 4 holds it; then (−1, 0): centre (92.5, 107.5), 11.9 from the unit at rest
        // (more than 5 + 5); then (1, 0) for id 3.
        assert_eq!(slots[1].1, Vec2::new(Fixed::from_ratio(185, 2), Fixed::from_ratio(215, 2)));
        assert_eq!(slots[2].1, Vec2::new(Fixed::from_ratio(245, 2), Fixed::from_ratio(215, 2)), "(1, 0) next");
    }

    #[test]
    fn a_group_turned_half_a_circle_takes_the_turned_spots() {
        // A unit at rest by (104, 104) and a group of three heading east whose slots fall on it;
        // then everything turned half a circle about the window's centre, heading west.
        let r = Fixed::from_int(5);
        let turn = |p: Vec2| Vec2::from_int(200, 200) - p;
        let placed = |ahead: Vec2, f: &dyn Fn(Vec2) -> Vec2| {
            let mut held = window();
            held.hold(f(Vec2::from_int(104, 104)), r);
            let mut slots: Vec<_> = [(1, 106, 106), (2, 106, 106), (3, 104, 110)]
                .map(|(i, x, y)| (id(i), f(Vec2::from_int(x, y)), r))
                .into();
            place(&mut held, &mut slots, ahead, |_| true);
            slots.into_iter().map(|(_, p, _)| p).collect::<Vec<_>>()
        };
        let east = Vec2::new(Fixed::ONE, Fixed::ZERO);
        let west = Vec2::new(-Fixed::ONE, Fixed::ZERO);
        let here = placed(east, &|p| p);
        let turned = placed(west, &turn);
        assert_ne!(here[0], Vec2::from_int(106, 106), "the held slot moved");
        assert_eq!(turned, here.iter().map(|&p| turn(p)).collect::<Vec<_>>());
        // Ring 1's nearest cells are along the axes; behind the heading first: (−1, 0).
        assert_eq!(here[0], Vec2::new(Fixed::from_ratio(185, 2), Fixed::from_ratio(215, 2)));
    }

    #[test]
    fn a_closed_cell_is_passed_over_and_wide_units_hold_more_cells() {
        let mut held = window();
        // A radius-13 unit holds every cell whose centre is within 18 of it.
        held.hold(Vec2::new(Fixed::from_ratio(215, 2), Fixed::from_ratio(215, 2)), Fixed::from_int(13));
        assert!(held.is_held(Vec2::from_int(122, 107)), "the next cell east: 15 away");
        assert!(!held.is_held(Vec2::from_int(137, 107)), "two cells east: 30 away");
        assert!(!held.is_held(Vec2::from_int(92, 92)), "the cell south-west: 21.2 away, more than 18");
        let mut slots = vec![(id(7), Vec2::from_int(107, 107), Fixed::from_int(5))];
        // Everything south of y = 100 is closed (water): ring 1's free cells (the corners, 21.2
        // away) are (−1, −1) and (1, −1) closed first, then (−1, 1).
        place(&mut held, &mut slots, NORTH, |p| p.y >= Fixed::from_int(100));
        assert_eq!(slots[0].1, Vec2::new(Fixed::from_ratio(185, 2), Fixed::from_ratio(245, 2)));
    }

    #[test]
    fn a_giant_holds_the_whole_window_and_costs_no_more_than_it() {
        let mut held = window();
        // A radius of a million world units would span 130,000 cells each way: only the 14 × 14
        // of the window are visited, and every one is held.
        held.hold(Vec2::from_int(100, 100), Fixed::from_int(1_000_000));
        assert!(held.held.iter().all(|&h| h));
        let mut slots = vec![(id(1), Vec2::from_int(100, 100), Fixed::from_int(5))];
        place(&mut held, &mut slots, NORTH, |_| true);
        assert_eq!(slots[0].1, Vec2::from_int(100, 100), "no free cell: the slot stays");
    }

    #[test]
    fn groups_placed_on_one_point_in_turn_spread_without_overlap() {
        let r = Fixed::from_int(5);
        let mut placed: Vec<(ObjectId, Vec2, Fixed)> = Vec::new();
        // Ten groups of 20, each a formation 15 apart (5 × 4) centred on (500, 500), placed in
        // turn with the groups before them holding their spots.
        for g in 0..10u32 {
            let centre = Vec2::from_int(500, 500);
            let mut held = HeldSpots::new(centre, Fixed::from_int(400), Fixed::from_int(15), r);
            for &(_, at, radius) in &placed {
                held.hold(at, radius);
            }
            let mut slots: Vec<_> = (0..20)
                .map(|i| (id(g * 20 + i), Vec2::from_int(470 + (i % 5) as i64 * 15, 478 + (i / 5) as i64 * 15), r))
                .collect();
            place(&mut held, &mut slots, NORTH, |_| true);
            placed.extend(slots);
        }
        for (i, a) in placed.iter().enumerate() {
            for b in &placed[i + 1..] {
                let d = b.1 - a.1;
                assert!(d.length_squared() >= Fixed::from_int(100), "{a:?} and {b:?} overlap");
            }
        }
    }
}
