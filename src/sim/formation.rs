//! Formations: where each unit of a group ordered to one point should stand.
//!
//! The block of slots faces the way the group travels (from its centre to the goal), and each
//! unit takes the slot that keeps its place in the group: the units in front take the front
//! row, left stays left. Nothing depends on the map's axes, so a group turned half a circle
//! gets the same formation turned half a circle, and paths do not cross on the way.
//!
//! Must not: read the world; it is plain geometry on the positions it is given (ties by id).

use super::fixed::Fixed;
use super::ids::ObjectId;
use super::vector::Vec2;

/// Spacing of formation slots, in the radii of the group's widest unit.
pub(crate) const SPACING_RADII: i64 = 3;

/// The side of the square block that holds `n` units (the smallest that does).
fn block_side(n: usize) -> usize {
    (n as u64).isqrt() as usize + usize::from((n as u64).isqrt().pow(2) < n as u64)
}

/// How far from the block's centre its farthest slot stands for a group of `n` units whose
/// widest has radius `widest` (half the block's diagonal): a group standing in formation
/// spreads this far, however it got there.
pub fn reach(n: usize, widest: Fixed) -> Fixed {
    if n == 0 {
        return Fixed::ZERO;
    }
    let spacing = widest.mul_int(SPACING_RADII);
    let side = block_side(n);
    let rows = n.div_ceil(side);
    let across = spacing.mul_int(side as i64 - 1).div_int(2);
    let forward = spacing.mul_int(rows as i64 - 1).div_int(2);
    Vec2::new(across, forward).length()
}

/// The mean position of `units` (the origin for none).
fn centre(units: &[(ObjectId, Vec2)]) -> Vec2 {
    let n = units.len().max(1) as i64;
    let sum = units.iter().fold(Vec2::ZERO, |s, &(_, p)| s + p);
    Vec2::new(sum.x.div_int(n), sum.y.div_int(n))
}

/// The way a group heads for `goal`: a unit vector from its centre. A group already on its goal
/// keeps the map's own frame (the heading is (0, −1)).
pub(crate) fn heading(units: &[(ObjectId, Vec2)], goal: Vec2) -> Vec2 {
    let ahead = (goal - centre(units)).normalize();
    if ahead == Vec2::ZERO { Vec2::new(Fixed::ZERO, -Fixed::ONE) } else { ahead }
}

/// Offsets from the goal, one per unit: a block `side` wide (the smallest square that holds
/// them), rows `spacing` apart and front row first, each row centred on the line of travel;
/// listed row by row from the front, by id within a row.
pub(crate) fn slots(units: &[(ObjectId, Vec2)], goal: Vec2, spacing: Fixed) -> Vec<(ObjectId, Vec2)> {
    let n = units.len();
    if n == 0 {
        return Vec::new();
    }
    let side = block_side(n);
    let rows = n.div_ceil(side);
    let centre = centre(units);
    let ahead = heading(units, goal);
    // Across the direction of travel.
    let right = Vec2::new(-ahead.y, ahead.x);
    let mut order: Vec<(Fixed, Fixed, ObjectId)> = units
        .iter()
        .map(|&(id, p)| {
            let d = p - centre;
            (d.dot(ahead), d.dot(right), id)
        })
        .collect();
    // Front-most first (ties: by id).
    order.sort_by(|a, b| b.0.cmp(&a.0).then(a.2.cmp(&b.2)));
    let mut out = Vec::with_capacity(n);
    for (row, chunk) in order.chunks_mut(side).enumerate() {
        // Within a row, left to right.
        chunk.sort_by(|a, b| a.1.cmp(&b.1).then(a.2.cmp(&b.2)));
        let count = chunk.len() as i64;
        // Row 0 stands farthest ahead; a short last row is centred too.
        let forward = spacing.mul_int(rows as i64 - 1 - 2 * row as i64).div_int(2);
        let row_start = out.len();
        for (col, &(_, _, id)) in chunk.iter().enumerate() {
            let across = spacing.mul_int(2 * col as i64 - (count - 1)).div_int(2);
            out.push((id, ahead.scale(forward) + right.scale(across)));
        }
        // Each row is handed out in id order, not left to right: the caller places slots and asks
        // for paths in this order (the first path is shared by its neighbours), and which side
        // is left flips in a mirror, so mirrored starts would send their groups by other roads.
        out[row_start..].sort_unstable_by_key(|&(id, _)| id);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn id(i: u32) -> ObjectId {
        ObjectId { index: i, generation: 0 }
    }

    fn at(x: i64, y: i64) -> Vec2 {
        Vec2::from_int(x, y)
    }

    #[test]
    fn the_front_of_a_group_stays_in_front_and_left_stays_left() {
        // Four units in a square north of the goal (smaller y), walking south (+y).
        let units = [(id(1), at(90, 0)), (id(2), at(110, 0)), (id(3), at(90, 20)), (id(4), at(110, 20))];
        let slots = slots(&units, at(100, 500), Fixed::from_int(10));
        let of = |i: u32| slots.iter().find(|s| s.0 == id(i)).unwrap().1;
        // Walking toward +y, the front row is the larger y; units 3 and 4 were in front.
        assert_eq!(of(3).y, Fixed::from_int(5));
        assert_eq!(of(4).y, Fixed::from_int(5));
        assert_eq!(of(1).y, Fixed::from_int(-5));
        // Left and right are kept: the units at x 90 stand on the low-x side, those at 110 high.
        assert!(of(1).x == of(3).x && of(2).x == of(4).x && of(1).x != of(2).x);
        assert_eq!(of(1).x, Fixed::from_int(-5), "x 90 stays on the low-x side");
    }

    #[test]
    fn a_group_turned_half_a_circle_gets_the_formation_turned_half_a_circle() {
        let units: Vec<(ObjectId, Vec2)> =
            (0..7).map(|i| (id(i), at(200 + (i as i64 % 3) * 13, 300 + (i as i64 / 3) * 17))).collect();
        let goal = at(600, 900);
        let turned: Vec<(ObjectId, Vec2)> = units.iter().map(|&(i, p)| (i, at(0, 0) - p)).collect();
        let a = slots(&units, goal, Fixed::from_int(12));
        let b = slots(&turned, at(0, 0) - goal, Fixed::from_int(12));
        for (i, off) in &a {
            let other = b.iter().find(|s| s.0 == *i).unwrap().1;
            let d = *off + other;
            assert!(
                d.x.abs() <= Fixed::from_ratio(1, 100) && d.y.abs() <= Fixed::from_ratio(1, 100),
                "{i:?}: {off:?} vs {other:?}"
            );
        }
    }

    #[test]
    fn the_farthest_slot_of_a_block_stands_at_its_reach() {
        // Units of radius 4 stand 12 apart; 9 make a 3-by-3 block whose corners are 12 across
        // and 12 forward of the goal (17 by Pythagoras), 10 make a 4-wide block of 3 rows
        // (18 across, 12 forward: 21.6).
        // In hundredths of a world unit.
        let hundredths = |f: Fixed| f.mul_int(100).round_int();
        for (n, expected) in [(1, 0), (9, 1697), (10, 2163), (36, 4243)] {
            let units: Vec<(ObjectId, Vec2)> = (0..n).map(|i| (id(i), at(i as i64 * 5, 0))).collect();
            let farthest = slots(&units, Vec2::ZERO, Fixed::from_int(12))
                .iter()
                .map(|&(_, p)| hundredths(p.length()))
                .max()
                .unwrap_or(0);
            let reach = hundredths(reach(n as usize, Fixed::from_int(4)));
            assert!((reach - expected).abs() <= 2, "{n}: reach {reach}, expected {expected}");
            assert!((farthest - reach).abs() <= 2, "{n}: farthest slot {farthest}, reach {reach}");
        }
    }

    #[test]
    fn every_unit_gets_its_own_slot_and_short_rows_are_centred() {
        let units: Vec<(ObjectId, Vec2)> = (0..5).map(|i| (id(i), at(i as i64 * 3, 0))).collect();
        let slots = slots(&units, at(0, 1000), Fixed::from_int(10));
        let mut seen: Vec<(i64, i64)> = slots.iter().map(|s| (s.1.x.round_int(), s.1.y.round_int())).collect();
        seen.sort();
        seen.dedup();
        assert_eq!(seen.len(), 5, "no two share a slot: {seen:?}");
        // A block three wide holds five in two rows: three in front, two behind.
        let back: Vec<i64> = slots.iter().filter(|s| s.1.y < Fixed::ZERO).map(|s| s.1.x.round_int()).collect();
        assert_eq!(back.iter().sum::<i64>(), 0, "the short row is centred: {back:?}");
    }
}
