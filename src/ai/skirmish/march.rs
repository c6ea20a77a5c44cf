//! How an attack wave moves as one group: whether it stands gathered at its rally point, and
//! where its march heads next while it crosses the map.
//!
//! Must not: read the world or give orders (plain geometry on the positions the army hands it).

use super::{centre, sq};
use crate::defs::AiTuning;
use crate::sim::fixed::Fixed;
use crate::sim::formation;
use crate::sim::vector::Vec2;

/// True when a wave whose units stand at `positions`, centred on `at`, has gathered at `rally`:
/// its centre within twice the tuning's `gathered_radius` of the rally point and every unit
/// within that radius of where its formation would put it (the block's reach for units whose
/// widest has radius `widest`). A block of fifty with tanks in it spreads farther than a squad
/// of riflemen; measured against one fixed radius, a big army only ever set out when its
/// patience ran out, or at once where its slots happened to fall inside (a seat's luck that
/// decided whole mirrors).
pub(super) fn gathered(tuning: &AiTuning, positions: &[Vec2], at: Vec2, rally: Vec2, widest: Fixed) -> bool {
    let radius = tuning.gathered_radius;
    let spread = Fixed::from_int(radius) + formation::reach(positions.len(), widest);
    (at - rally).length_squared() <= sq(Fixed::from_int(radius * 2))
        && positions.iter().all(|&p| (p - at).length_squared() <= sq(spread))
}

/// Where a marching attack heads next, given where its units stand: while the target is far
/// and the main body strung out, a step ahead of the body's centre, so the quick wait for the
/// slow and the group arrives together instead of in a column; the target itself once it is
/// near (the tuning's `assault_distance`) or the body is together (within twice its
/// `gathered_radius`). The main body is the units within the tuning's `march_body_radius` of
/// the one halfway along the march (by distance to the target): reinforcements still walking
/// up from home follow it and do not hold it back (counted in, an army fed a unit a minute
/// crawled across the map for twenty minutes, its centre always dragged homeward).
pub(super) fn goal(tuning: &AiTuning, positions: &[Vec2], target: Vec2) -> Vec2 {
    let mut by_distance: Vec<Vec2> = positions.to_vec();
    by_distance.sort_by_key(|&p| (p - target).length_squared());
    let Some(&middle) = by_distance.get(by_distance.len() / 2) else { return target };
    let near = |p: Vec2, q: Vec2, r: i64| (p - q).length_squared() <= sq(Fixed::from_int(r));
    let body: Vec<Vec2> = by_distance.into_iter().filter(|&p| near(p, middle, tuning.march_body_radius)).collect();
    let at = centre(body.iter().copied()).unwrap_or(middle);
    let far = !near(target, at, tuning.assault_distance);
    let strung_out = body.iter().any(|&p| !near(p, at, tuning.gathered_radius * 2));
    if far && strung_out { at + (target - at).normalize().scale(Fixed::from_int(tuning.march_step)) } else { target }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(x: i64, y: i64) -> Vec2 {
        Vec2::from_int(x, y)
    }

    /// The shipped tuning (`data/ai.ron`), whose distances the cases below are measured in.
    fn tuning() -> AiTuning {
        crate::defs::test_support::shipped_plans().get("easy").expect("easy").tuning.clone()
    }

    fn gathered(positions: &[Vec2], at: Vec2, rally: Vec2, widest: Fixed) -> bool {
        super::gathered(&tuning(), positions, at, rally, widest)
    }

    fn goal(positions: &[Vec2], target: Vec2) -> Vec2 {
        super::goal(&tuning(), positions, target)
    }

    #[test]
    fn a_wave_in_formation_at_the_rally_point_is_gathered_however_big() {
        // Four units of radius 12 (slots 36 apart) on the corners of their block, 25 from its
        // centre, at the rally point: gathered. Two of them 140 out: not.
        let r = Fixed::from_int(12);
        let block = [at(482, 482), at(518, 482), at(482, 518), at(518, 518)];
        assert!(gathered(&block, at(500, 500), at(500, 500), r));
        let loose = [at(360, 500), at(640, 500), at(500, 482), at(500, 518)];
        assert!(!gathered(&loose, at(500, 500), at(500, 500), r));
        // Thirty-six of them in a six-by-six block: the corners stand 127 out, beyond a fixed 90,
        // and the wave is gathered all the same.
        let big: Vec<Vec2> = (0..36).map(|i| at(500 + (i % 6 * 2 - 5) * 18, 500 + (i / 6 * 2 - 5) * 18)).collect();
        assert!(gathered(&big, at(500, 500), at(500, 500), r));
        // In formation but 200 from the rally point: still walking there.
        assert!(!gathered(&block, at(500, 500), at(700, 500), r));
    }

    #[test]
    fn a_strung_out_march_heads_a_step_ahead_of_its_body_and_a_near_or_close_one_for_the_target() {
        let target = at(3000, 1000);
        // A column 400 units long on the road east, its centre at (1000, 1000), the target
        // 2,000 units on: the next goal is 200 units east of the centre, not the target.
        let column = [at(800, 1000), at(1000, 1000), at(1200, 1000)];
        assert_eq!(goal(&column, target), at(1200, 1000));
        // The same group bunched within 180 units of its centre goes straight for the target.
        let bunched = [at(920, 1000), at(1000, 1080), at(1080, 1000)];
        assert_eq!(goal(&bunched, target), target);
        // Strung out but 400 units from the target: the assault goes in.
        let close = [at(2400, 1000), at(2600, 1000), at(2800, 1000)];
        assert_eq!(goal(&close, target), target);
        // A bunched body of five at (2000, 1000) with two reinforcements far behind, walking up
        // from home: the body goes on for the target; the stragglers do not hold it back
        // (counted in, the centre would sit near (1490, 1000) and the goal 200 east of it).
        let fed = [
            at(200, 1000),
            at(400, 1000),
            at(1960, 1000),
            at(2000, 960),
            at(2000, 1000),
            at(2000, 1040),
            at(2040, 1000),
        ];
        assert_eq!(goal(&fed, target), target);
        // The same body strung out along 400 units heads a step ahead of its own centre.
        let fed_column = [
            at(200, 1000),
            at(400, 1000),
            at(1800, 1000),
            at(1900, 1000),
            at(2000, 1000),
            at(2100, 1000),
            at(2200, 1000),
        ];
        assert_eq!(goal(&fed_column, target), at(2200, 1000));
    }
}
