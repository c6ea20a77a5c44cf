//! Scatter: the selected units spread out from their centre, each a short way straight away
//! from it, at its own speed (a group bunched up under artillery breaks apart at once).
//!
//! Must not: read anything but the selection's positions and the terrain; use floats (the
//! directions are fixed point, ties by id).

use super::angle::Angle;
use super::command::RejectReason;
use super::fixed::Fixed;
use super::ids::{ObjectId, PlayerId};
use super::movement;
use super::object::Order;
use super::vector::Vec2;
use super::world::World;

/// How far each unit goes, in world units (about three tank lengths).
pub const DISTANCE: i64 = 40;

/// The direction a unit standing on the centre takes: spread by its id's index around the
/// circle (the golden angle's step, so a few such units go different ways).
fn fallback(id: ObjectId) -> Vec2 {
    Vec2::from_angle(Angle((id.index.wrapping_mul(40_503) & 0xffff) as u16))
}

/// Where each of `units` goes: `DISTANCE` straight away from their mean position; a unit
/// whose way is not `open` there goes half as far, and one with neither stays (not listed).
pub(crate) fn destinations(units: &[(ObjectId, Vec2)], open: impl Fn(ObjectId, Vec2) -> bool) -> Vec<(ObjectId, Vec2)> {
    let n = units.len().max(1) as i64;
    let sum = units.iter().fold(Vec2::ZERO, |s, &(_, p)| s + p);
    let centre = Vec2::new(sum.x.div_int(n), sum.y.div_int(n));
    units
        .iter()
        .filter_map(|&(id, p)| {
            let away = (p - centre).normalize();
            let away = if away == Vec2::ZERO { fallback(id) } else { away };
            [DISTANCE, DISTANCE / 2]
                .into_iter()
                .map(|d| p + away.scale(Fixed::from_int(d)))
                .find(|&to| open(id, to))
                .map(|to| (id, to))
        })
        .collect()
}

impl World {
    /// The selection scatters ([`destinations`]; an aircraft may go anywhere over the map, a
    /// ground unit where it may stand): each unit moves there at its own speed, dropping its
    /// target (and, as any order does, its queue).
    pub(super) fn scatter(&mut self, player: PlayerId) -> Result<(), RejectReason> {
        let ids = self.selected_objects(player, |w, id| w.is_mobile(id))?;
        let units: Vec<(ObjectId, Vec2)> =
            ids.iter().filter_map(|&id| self.objects.get(id).map(|o| (id, o.pos))).collect();
        let air: Vec<ObjectId> =
            ids.iter().copied().filter(|&id| self.objects.get(id).is_some_and(|o| o.kind.is_air())).collect();
        let terrain = &self.terrain;
        let goals =
            destinations(&units, |id, p| if air.contains(&id) { terrain.contains(p) } else { terrain.passable_at(p) });
        for (id, goal) in goals {
            if let Some(mut o) = self.objects.get_mut(id) {
                o.set_order(Order::Move { goal });
                o.set_target(None);
                movement::set_goal(&mut o, goal, &mut self.pathfinder);
                if o.nav.pace != Fixed::ZERO {
                    o.change(|o| o.nav.pace = Fixed::ZERO);
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn id(i: u32) -> ObjectId {
        ObjectId { index: i, generation: 0 }
    }

    #[test]
    fn each_unit_goes_straight_away_from_the_centre_by_the_distance() {
        let units = [(id(1), Vec2::from_int(90, 100)), (id(2), Vec2::from_int(110, 100))];
        let to = destinations(&units, |_, _| true);
        assert_eq!(to, vec![(id(1), Vec2::from_int(50, 100)), (id(2), Vec2::from_int(150, 100))]);
    }

    #[test]
    fn a_unit_on_the_centre_takes_its_ids_way_and_a_blocked_way_is_shortened_or_dropped() {
        let units = [(id(7), Vec2::from_int(100, 100))];
        let to = destinations(&units, |_, _| true);
        let d = (to[0].1 - Vec2::from_int(100, 100)).length();
        assert!((d - Fixed::from_int(DISTANCE)).abs() <= Fixed::from_ratio(1, 10), "{d:?}");
        // Nothing open: it stays; only the near half open: it goes half as far.
        assert!(destinations(&units, |_, _| false).is_empty());
        let near = |_: ObjectId, p: Vec2| (p - Vec2::from_int(100, 100)).length() <= Fixed::from_int(DISTANCE / 2 + 1);
        let half = destinations(&units, near);
        let d = (half[0].1 - Vec2::from_int(100, 100)).length();
        assert!((d - Fixed::from_int(DISTANCE / 2)).abs() <= Fixed::from_ratio(1, 10), "{d:?}");
    }
}
