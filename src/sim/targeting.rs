//! Target search for combat: the players' objects in one bucket index per team, rebuilt when a
//! frame's first scan needs it, and the questions asked of it — the nearest enemy a weapon may
//! take, and what a team sees of one target. A scan reads only its enemies' indices, so a crowd
//! of comrades costs it nothing. A target counts once its edge is in reach; the query widens by
//! the largest radius indexed, so how the grid's buckets fall never decides.
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

/// The players' objects, one bucket index per team (by team number), each in id order.
#[derive(Clone, Debug, Default)]
pub(crate) struct TargetIndex {
    teams: Vec<SpatialIndex>,
    /// Scratch: each team's entries as gathered.
    entries: Vec<Vec<Entry>>,
}

impl TargetIndex {
    /// Calls `f` for every entry of the teams `wanted` accepts, near the square `centre ±
    /// reach` as [`SpatialIndex::for_each_near`] does (callers test the distance). The square
    /// widens by each team's largest radius when `widen` is set.
    #[inline(always)]
    pub(super) fn for_each_near(
        &self,
        mut wanted: impl FnMut(u8) -> bool,
        centre: Vec2,
        reach: Fixed,
        widen: bool,
        mut f: impl FnMut(&Entry),
    ) {
        for (team, index) in self.teams.iter().enumerate() {
            if index.is_empty() || !wanted(team as u8) {
                continue;
            }
            let reach = if widen { reach + index.max_radius() } else { reach };
            index.for_each_near(centre, reach, &mut f);
        }
    }
}

/// Indexes the players' objects by team (scenery belongs to no player: it is never a target,
/// nor calls or answers for help).
pub(super) fn rebuild_index(world: &World, index: &mut TargetIndex) {
    let teams = world.players.iter().map(|p| p.team as usize + 1).max().unwrap_or(0);
    index.entries.resize_with(teams, Vec::new);
    index.teams.resize_with(teams, SpatialIndex::default);
    for entries in &mut index.entries {
        entries.clear();
    }
    for o in world.objects.iter() {
        let Some(player) = world.players.get(o.owner.index()) else { continue };
        let radius = world.rules.template(o.template).radius;
        let entry = Entry { slot: o.id.index, pos: o.pos, radius, owner: o.owner.0, air: o.kind.is_air() };
        index.entries[player.team as usize].push(entry);
    }
    let size = world.terrain.world_size();
    for (grid, entries) in index.teams.iter_mut().zip(&index.entries) {
        grid.rebuild(size, BUCKET_LOG2, entries);
    }
}

/// The nearest living enemy of `owner` that `team` sees and a weapon with `targets` can hit,
/// within `reach` of `centre`, not closer to `from` than `min_range` (ties: lowest id).
pub(super) fn nearest_enemy(
    world: &World,
    index: &TargetIndex,
    (owner, team, targets): (usize, u8, super::rules::Targets),
    centre: Vec2,
    reach: Fixed,
    (from, min_range): (Vec2, Fixed),
) -> Option<Seen> {
    let me = world.players.get(owner)?;
    let mut best: Option<(Fixed, u32)> = None;
    // A target counts when its edge is within reach: the square widens by the largest radius,
    // so which targets are met does not depend on how the grid's buckets fall. Only enemy
    // teams are read; the nearest (ties: lowest slot) does not depend on the order they come.
    let enemy = |t: u8| t != me.team;
    index.for_each_near(enemy, centre, reach, true, |e| {
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
            let w = test_support::world_with(
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
            let mut index = TargetIndex::default();
            rebuild_index(&w, &mut index);
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
