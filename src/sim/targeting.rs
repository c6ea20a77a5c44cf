//! Target search for combat: the players' objects in one bucket index per team, brought up to
//! date when a frame's first scan needs it (see [`TargetIndex`]), and the questions asked of
//! it — the nearest enemy a weapon may take, and what a team sees of one target. A scan reads
//! only its enemies' indices, so a crowd of comrades costs it nothing. A target counts once its
//! edge is in reach; the query widens by the largest radius indexed, so how the grid's buckets
//! fall never decides.
//! Must not: change objects (combat acts on the answers), or offer a target the team cannot see.

use super::fixed::Fixed;
use super::ids::ObjectId;
use super::spatial::{Entry, SpatialIndex};
use super::vector::Vec2;
use super::vision::Sight;
use super::world::World;

/// Side of the buckets used for target scans: 2^6 = 64 world units (a scan reads fewer entries
/// outside its circle than with wider ones; a call for help's square, 800 units and the drift,
/// still fits the rows a query reads one by one).
const BUCKET_LOG2: u32 = 6;

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
    // The dead are passed over before the vision grid is read.
    let visible = o.health > 0 && world.vision.sight_at(team, o.pos) == Sight::Visible;
    visible.then(|| Seen { id, pos: o.pos, radius: world.rules.template(o.template).radius, air: o.kind.is_air() })
}

/// Farthest (along either axis) an indexed object may move from where the index placed it
/// before the index is built again. Queries widen by the farthest any has moved, so this trades
/// rebuilds against the extra entries a widened square reads.
const MAX_DRIFT: Fixed = Fixed::from_int(32);

/// The owner an entry gets when its object leaves the world (queries skip it).
const GONE: u8 = u8::MAX;

/// The players' objects, one bucket index per team (by team number). It is kept between
/// frames as a cache, never as state: each frame it is first asked, the entries take their
/// objects' current positions from the store's compact column (staying in the buckets of the
/// build) and the entries of objects that left are marked gone; it is built again when an
/// object arrived, the players changed or an object moved more than [`MAX_DRIFT`] from its
/// bucket. Queries widen their square by how far objects moved, so they meet every entry a
/// fresh build would put in the square, and the answers — chosen by distance and slot, never by
/// the order entries come — are a fresh build's.
#[derive(Clone, Debug, Default)]
pub(crate) struct TargetIndex {
    teams: Vec<SpatialIndex>,
    /// Per team, each entry's position at the build (where its bucket is), in the entries'
    /// order: the follow walks the entries in their own order, reading the store by slot.
    built: Vec<Vec<Vec2>>,
    /// The store's slots at the build.
    slots: usize,
    /// Each player's team at the build.
    player_teams: Vec<u8>,
    /// The farthest (along either axis) an indexed object has moved since the build.
    drift: Fixed,
    /// Scratch: each team's entries as gathered.
    entries: Vec<Vec<Entry>>,
    /// The store's count of flushes that added objects at the build: while it stands, each
    /// indexed object is in its slot still or has left (its slot empty).
    arrivals: Option<u64>,
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
            index.for_each_near(centre, reach + self.drift, |e| {
                if e.owner != GONE {
                    f(e);
                }
            });
        }
    }

    /// Brings the entries up to date with the objects as they stand (see the type's docs);
    /// false when the index must be built again instead.
    fn follow(&mut self, world: &World) -> bool {
        let players = world.players.iter().map(|p| p.team);
        if self.slots != world.objects.slot_count()
            || self.arrivals != Some(world.objects.arrivals())
            || !players.eq(self.player_teams.iter().copied())
        {
            return false;
        }
        let objects = &world.objects;
        let mut drift = 0u64;
        for (grid, built) in self.teams.iter_mut().zip(&self.built) {
            for (e, at) in grid.entries_mut().iter_mut().zip(built) {
                if e.owner == GONE {
                    continue;
                }
                // No object arrived since the build: an empty slot is one whose object left.
                let Some(pos) = objects.pos_in_slot(e.slot as usize) else {
                    e.owner = GONE;
                    continue;
                };
                e.pos = pos;
                // Plain integers: a difference that wraps is huge, and rebuilds.
                let dx = pos.x.raw().wrapping_sub(at.x.raw()).unsigned_abs();
                let dy = pos.y.raw().wrapping_sub(at.y.raw()).unsigned_abs();
                drift = drift.max(dx).max(dy);
            }
        }
        if drift > MAX_DRIFT.raw() as u64 {
            return false;
        }
        self.drift = Fixed::from_raw(drift as i64);
        true
    }
}

/// Makes `index` answer for the world as it stands: follows the objects where it can, builds
/// the index again where it must (see [`TargetIndex`]).
pub(super) fn refresh_index(world: &World, index: &mut TargetIndex) {
    if !index.follow(world) {
        rebuild_index(world, index);
    }
}

/// Indexes the players' objects by team afresh (scenery belongs to no player: it is never a
/// target, nor calls or answers for help).
pub(super) fn rebuild_index(world: &World, index: &mut TargetIndex) {
    let teams = world.players.iter().map(|p| p.team as usize + 1).max().unwrap_or(0);
    index.entries.resize_with(teams, Vec::new);
    index.teams.resize_with(teams, SpatialIndex::default);
    index.built.resize_with(teams, Vec::new);
    for entries in &mut index.entries {
        entries.clear();
    }
    for o in world.objects.iter() {
        let Some(team) = world.players.get(o.owner.index()).map(|p| p.team as usize) else { continue };
        let radius = world.rules.template(o.template).radius;
        let entry = Entry { slot: o.id.index, pos: o.pos, radius, owner: o.owner.0, air: o.kind.is_air() };
        index.entries[team].push(entry);
    }
    let size = world.terrain.world_size();
    for ((grid, entries), built) in index.teams.iter_mut().zip(&index.entries).zip(&mut index.built) {
        grid.rebuild(size, BUCKET_LOG2, entries);
        built.clear();
        built.extend(grid.entries().iter().map(|e| e.pos));
    }
    index.slots = world.objects.slot_count();
    index.player_teams.clear();
    index.player_teams.extend(world.players.iter().map(|p| p.team));
    index.drift = Fixed::ZERO;
    index.arrivals = Some(world.objects.arrivals());
}

/// Half the side of the square [`nearest_enemy`] reads first.
const NEAR: Fixed = Fixed::from_int(48);

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
    // The best so far: its squared distance, slot, and where the team was seen to see it.
    let mut best: Option<(Fixed, u32, Vec2)> = None;
    // Whether an entry counts, and is nearer than the best so far, depends on the entry alone,
    // never on the square it was met in.
    let consider = |e: &Entry, best: &mut Option<(Fixed, u32, Vec2)>| {
        let Some(them) = world.players.get(e.owner as usize) else { return };
        if !me.is_enemy(them) || !targets.hits(e.air) {
            return;
        }
        let r = reach + e.radius;
        let d = e.pos - centre;
        // Further than `r` along an axis is further than `r` away: most of a square's entries
        // are dropped before the squares. (From half a unit up, the rounded squares of two raw
        // lengths that differ differ too; up to 2^23 units, `r * r` does not saturate.)
        if (1 << 15..1 << 39).contains(&r.raw()) && (d.x.abs() > r || d.y.abs() > r) {
            return;
        }
        let d2 = d.length_squared();
        if d2 > r * r || (e.pos - from).length_squared() < min_range * min_range {
            return;
        }
        let closer = best.is_none_or(|(bd, bs, _)| d2 < bd || (d2 == bd && e.slot < bs));
        if closer && world.vision.sight_at(team, e.pos) == Sight::Visible {
            *best = Some((d2, e.slot, e.pos));
        }
    };
    let enemy = |t: u8| t != me.team;
    // In a fight the nearest enemy is mostly close: a small square first. Every entry not met
    // in it is more than its half side away along an axis, so further than a best found within
    // that distance, which is then the nearest of all (ties too: an equal one is met).
    if reach > NEAR {
        index.for_each_near(enemy, centre, NEAR, false, |e| consider(e, &mut best));
        if best.is_none_or(|(d2, _, _)| d2 > NEAR * NEAR) {
            best = None;
        }
    }
    if best.is_none() {
        // A target counts when its edge is within reach: the square widens by the largest
        // radius, so which targets are met does not depend on how the grid's buckets fall.
        // Only enemy teams are read; the nearest (ties: lowest slot) does not depend on the
        // order they come.
        index.for_each_near(enemy, centre, reach, true, |e| consider(e, &mut best));
    }
    let (_, slot, at) = best?;
    let o = world.objects.by_slot(slot as usize)?;
    if o.health <= 0 {
        return None;
    }
    if o.pos != at {
        return seen(world, team, o.id);
    }
    // The team was seen to see it where it stands (the entry stands where its object does:
    // combat moves nothing): what `seen` answers, without asking the store and the grid again.
    let radius = world.rules.template(o.template).radius;
    Some(Seen { id: o.id, pos: o.pos, radius, air: o.kind.is_air() })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::angle::Angle;
    use crate::sim::command::{Command, Point, StampedCommand};
    use crate::sim::ids::{CommandId, Frame, PlayerId, TemplateId};
    use crate::sim::object::Object;
    use crate::sim::rules::Targets;
    use crate::sim::test_support;

    /// What the index answers about one unit: its slot, its nearest enemy at two reaches, and
    /// the slots of its comrades near it.
    type Answer = (u32, Option<ObjectId>, Option<ObjectId>, Vec<u32>);

    /// Every answer the index gives about `w`: each unit's nearest enemy at two reaches, and
    /// the comrades near each unit (as the call for help reads them).
    fn answers(w: &World, index: &TargetIndex) -> Vec<Answer> {
        let mut out = Vec::new();
        for o in w.objects.iter() {
            let Some(team) = w.players.get(o.owner.index()).map(|p| p.team) else { continue };
            let ask = |reach: i64| {
                let (at, reach) = (o.pos, Fixed::from_int(reach));
                nearest_enemy(w, index, (o.owner.index(), team, Targets::Both), at, reach, (at, Fixed::ZERO))
                    .map(|s| s.id)
            };
            let mut comrades = Vec::new();
            index.for_each_near(
                |t| t == team,
                o.pos,
                Fixed::from_int(50),
                false,
                |e| {
                    let near = w.objects.by_slot(e.slot as usize).is_some_and(|c| {
                        let d = c.pos - o.pos;
                        d.x.abs() <= Fixed::from_int(50) && d.y.abs() <= Fixed::from_int(50)
                    });
                    if near {
                        comrades.push(e.slot);
                    }
                },
            );
            comrades.sort();
            out.push((o.id.index, ask(45), ask(150), comrades));
        }
        out
    }

    #[test]
    fn an_index_kept_between_frames_answers_as_a_fresh_one() {
        // Two crowds charge through each other: units move every frame, many die (their
        // entries are marked gone), and now and then a unit arrives, sometimes in a slot a
        // dead one left. The index kept from frame to frame must answer every question as an
        // index built afresh that frame does.
        let mut objects = Vec::new();
        for k in 0..60i64 {
            let (col, row) = (k % 6, k / 6);
            objects.push((TemplateId(0), 0, Vec2::from_int(100 + col * 9, 100 + row * 9)));
            objects.push((TemplateId(0), 1, Vec2::from_int(300 + col * 9, 100 + row * 9)));
        }
        let mut w = test_support::world(60, objects);
        let units = |w: &World, p: u8| -> Vec<ObjectId> {
            w.objects.iter().filter(|o| o.owner == PlayerId(p) && o.template == TemplateId(0)).map(|o| o.id).collect()
        };
        let mut commands = Vec::new();
        for (p, to) in [(0u8, 400), (1, 50)] {
            let stamp =
                |id, command| StampedCommand { frame: Frame(0), player: PlayerId(p), id: CommandId(id), command };
            commands.push(stamp(1, Command::Select { objects: units(&w, p), add: false }));
            commands.push(stamp(2, Command::AttackMove { to: Point { x: to, y: 140 } }));
        }
        let mut kept = TargetIndex::default();
        let (mut rebuilds, mut gone_seen, mut frames) = (0, 0, 0);
        for frame in 0..400u32 {
            w.tick(if frame == 0 { &commands } else { &[] });
            if frame % 37 == 5 {
                // An arrival, as a factory's would come: spawned, then flushed in.
                let t = w.rules.template(TemplateId(0)).clone();
                let at = Vec2::from_int(200, 60 + (frame % 100) as i64);
                w.objects.spawn(Object::new(TemplateId(0), PlayerId((frame % 2) as u8), &t, at, Angle(0)));
                w.objects.flush();
            }
            let followed = kept.follow(&w);
            if !followed {
                rebuild_index(&w, &mut kept);
                rebuilds += 1;
            }
            gone_seen += kept.teams.iter().flat_map(|t| t.entries()).filter(|e| e.owner == GONE).count();
            let mut fresh = TargetIndex::default();
            rebuild_index(&w, &mut fresh);
            assert_eq!(answers(&w, &kept), answers(&w, &fresh), "frame {frame}");
            frames += 1;
        }
        // The case was exercised: entries followed, gone and rebuilt, and the fight went on.
        assert!(rebuilds > 10 && rebuilds < frames / 2, "{rebuilds} rebuilds in {frames} frames");
        assert!(gone_seen > 0, "no entry was ever marked gone");
        assert!(units(&w, 0).len() < 60 || units(&w, 1).len() < 60, "nobody died");
    }

    proptest::proptest! {
        /// The shortcut in [`nearest_enemy`]: a point further than `r` along an axis (by as
        /// little as one raw step) is never within `r` by the rounded squares it then skips,
        /// for `r` from half a unit to 2^23 units.
        #[test]
        fn past_r_along_an_axis_is_past_r_by_the_squares(
            r in (1i64 << 15)..(1i64 << 39),
            over in 1i64..1 << 20,
            other in 0i64..1 << 40,
            swap in proptest::bool::ANY,
            sign in proptest::bool::ANY,
        ) {
            let r = Fixed::from_raw(r);
            let past = Fixed::from_raw((r.raw() + over) * if sign { -1 } else { 1 });
            let other = Fixed::from_raw(other % (r.raw() + 1));
            let d = if swap { Vec2::new(other, past) } else { Vec2::new(past, other) };
            proptest::prop_assert!(d.length_squared() > r * r);
        }
    }

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
