//! Target search for combat: the bucket index of the players' objects, rebuilt when a frame's
//! first scan needs it, and the questions asked of it — the nearest enemy a weapon may take, and
//! what a team sees of one target. A target counts once its edge is in reach; the query widens
//! by the largest radius indexed, so how the grid's buckets fall never decides.
//! Must not: change objects (combat acts on the answers), or offer a target the team cannot see.

use super::fixed::Fixed;
use super::ids::ObjectId;
use super::spatial::{Entry, SpatialIndex};
use super::vector::Vec2;
use super::vision::Sight;
use super::world::World;

/// Side of the buckets used for target scans: 2^7 = 128 world units.
const BUCKET_LOG2: u32 = 7;

/// What is known of a target at the start of a unit's turn.
pub(super) struct Seen {
    pub(super) id: ObjectId,
    pub(super) pos: Vec2,
    pub(super) radius: Fixed,
    pub(super) air: bool,
}

/// A live object's position and radius, while `team` has it in sight.
pub(super) fn seen(world: &World, team: u8, id: ObjectId) -> Option<Seen> {
    let o = world.objects.get(id)?;
    let visible = world.vision.sight_at(team, o.pos) == Sight::Visible;
    (o.health > 0 && visible).then(|| Seen {
        id,
        pos: o.pos,
        radius: world.rules.template(o.template).radius,
        air: o.kind.is_air(),
    })
}

/// Indexes the players' objects (scenery belongs to no player: it is never a target, nor
/// calls or answers for help).
pub(super) fn rebuild_index(world: &mut World, index: &mut SpatialIndex) {
    let mut entries = std::mem::take(&mut world.scratch.entries);
    entries.clear();
    let players = world.players.len();
    for o in world.objects.iter().filter(|o| o.owner.index() < players) {
        let radius = world.rules.template(o.template).radius;
        entries.push(Entry { slot: o.id.index, pos: o.pos, radius, owner: o.owner.0, air: o.kind.is_air() });
    }
    index.rebuild(world.terrain.world_size(), BUCKET_LOG2, &entries);
    world.scratch.entries = entries;
}

/// The nearest living enemy of `owner` that `team` sees and a weapon with `targets` can hit,
/// within `reach` of `centre`, not closer to `from` than `min_range` (ties: lowest id).
pub(super) fn nearest_enemy(
    world: &World,
    index: &SpatialIndex,
    (owner, team, targets): (usize, u8, super::rules::Targets),
    centre: Vec2,
    reach: Fixed,
    (from, min_range): (Vec2, Fixed),
) -> Option<Seen> {
    let me = world.players.get(owner)?;
    let mut best: Option<(Fixed, u32)> = None;
    // A target counts when its edge is within reach: the square widens by the largest radius,
    // so which targets are met does not depend on how the grid's buckets fall.
    index.for_each_near(centre, reach + index.max_radius(), |e| {
        let Some(them) = world.players.get(e.owner as usize) else { return };
        if !me.is_enemy(them) || !targets.hits(e.air) {
            return;
        }
        let r = reach + e.radius;
        let d2 = (e.pos - centre).length_squared();
        if d2 > r * r || (e.pos - from).length_squared() < min_range * min_range {
            return;
        }
        let closer = best.is_none_or(|(bd, bs)| d2 < bd || (d2 == bd && e.slot < bs));
        if closer && world.vision.sight_at(team, e.pos) == Sight::Visible {
            best = Some((d2, e.slot));
        }
    });
    let (_, slot) = best?;
    let o = world.objects.by_slot(slot as usize)?;
    if o.health <= 0 {
        return None;
    }
    seen(world, team, o.id)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::ids::TemplateId;
    use crate::sim::test_support;

    #[test]
    fn a_target_whose_edge_is_in_reach_is_found_however_the_grid_falls() {
        // A big enemy structure (radius 20) whose centre stands 59 units from the shooter: with
        // a reach of 40 its edge is in reach, its centre outside the reach's square. The shooter
        // steps across several bucket widths, so the grid's buckets fall every way around them.
        let mut rules = (*test_support::rules()).clone();
        rules.templates[2].radius = Fixed::from_int(20);
        let rules = std::sync::Arc::new(rules);
        for x in (100..=400).step_by(6) {
            let (y, far) = (300, x + 59);
            let mut w = test_support::world_with(
                rules.clone(),
                80,
                vec![
                    (TemplateId(0), 0, Vec2::from_int(x, y)),
                    // A comrade beside the target, so the team sees it.
                    (TemplateId(0), 0, Vec2::from_int(far - 25, y + 12)),
                    (TemplateId(2), 1, Vec2::from_int(far, y)),
                ],
            );
            let target = w.objects.iter().find(|o| o.template == TemplateId(2)).map(|o| o.id);
            let mut index = SpatialIndex::default();
            rebuild_index(&mut w, &mut index);
            let team = w.players[0].team;
            let at = Vec2::from_int(x, y);
            let found = nearest_enemy(
                &w,
                &index,
                (0, team, crate::sim::rules::Targets::Both),
                at,
                Fixed::from_int(40),
                (at, Fixed::ZERO),
            );
            assert_eq!(found.map(|s| s.id), target, "shooter at x = {x}");
        }
    }
}
