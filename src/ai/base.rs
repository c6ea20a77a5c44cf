//! The skirmish AI's base keeping: which supply source its gatherers should work and when a
//! new supply depot should rise by a fresh one, which structure is its tech structure, what
//! to research there, and which damaged structure to repair.
//!
//! Every choice reads only the world as its player may see it (supply sources are part of the
//! map everyone knows; enemy structures come from the AI's memory) and breaks ties by id.
//! Must not: issue orders itself (the skirmish AI decides when to act on these answers), or
//! read enemy objects directly.

use crate::sim::command::{Command, RejectReason};
use crate::sim::fixed::Fixed;
use crate::sim::ids::{ObjectId, PlayerId, TemplateId, UpgradeId};
use crate::sim::object::Object;
use crate::sim::vector::Vec2;
use crate::sim::world::World;

use super::AiPlan;
use super::memory::Memory;

/// A trip from a supply source to the nearest depot longer than this (world units) makes a
/// new depot worth raising by a fresh source.
pub const LONG_TRIP: i64 = 260;
/// A source with less than this left counts as running low.
pub const LOW_SUPPLY: u32 = 4_000;
/// Sources with less than this are not worth a new depot.
pub const FRESH_SUPPLY: u32 = 8_000;
/// A source this close to an enemy structure it knows of is left alone.
pub const ENEMY_BERTH: i64 = 450;
/// A gatherer is moved to a better source when its trip is this much longer (world units).
pub const TRIP_SLACK: i64 = 120;
/// Structures below this percent of their health get repaired.
pub const REPAIR_BELOW: i64 = 70;

/// The objects of `own` (a player's own, as the AI gathered them for this decision: nothing
/// changes the world while it thinks), in the world's order.
fn each<'a, 'w: 'a>(world: &'w World, own: &'a [ObjectId]) -> impl Iterator<Item = &'w Object> + 'a {
    own.iter().filter_map(move |&id| world.object(id))
}

/// Where the finished supply depots of `own` stand (found once per question, not per source).
fn depots(world: &World, own: &[ObjectId]) -> Vec<Vec2> {
    let rules = world.rules();
    each(world, own).filter(|o| o.is_complete() && rules.template(o.template).supply_depot).map(|o| o.pos).collect()
}

/// The distance from `p` to the nearest of `depots` (none: no depot).
fn trip(depots: &[Vec2], p: Vec2) -> Option<Fixed> {
    // Nearest by squared distance; one square root for the answer.
    depots.iter().map(|&d| (d - p).length_squared()).min().map(Fixed::sqrt)
}

/// The objects holding supply, in the world's order: found once, since supply is only ever
/// placed when a game is set up (a pile's money then only runs down, and an emptied pile
/// stays listed until it is gone); a later question keeps those still holding some. The ground
/// each stands on (its connected region) is kept too, found again only when the terrain
/// changes (a structure rises or falls): piles never move.
///
/// Within one decision (one frame: nothing changes the world while the AI thinks) the
/// player's depots and its best source are worked out once, however many questions ask.
#[derive(Clone, Debug, Default)]
pub struct Piles {
    ids: std::cell::OnceCell<Vec<ObjectId>>,
    grounds: std::cell::RefCell<Option<(u64, Vec<Option<u32>>)>>,
    decision: std::cell::RefCell<Option<Decision>>,
}

/// What one decision found: for its frame and home, the depots and the best source.
#[derive(Clone, Debug)]
struct Decision {
    frame: u32,
    home: Vec2,
    depots: Vec<Vec2>,
    best: Option<Option<(ObjectId, Fixed)>>,
}

impl Piles {
    /// The piles as listed, if they have been (what a saved game keeps; the rest is found
    /// again).
    pub(crate) fn listed(&self) -> Option<Vec<ObjectId>> {
        self.ids.get().cloned()
    }

    /// Piles with `listed` as their list, if given (a restored game's).
    pub(crate) fn with_listed(listed: Option<Vec<ObjectId>>) -> Piles {
        let piles = Piles::default();
        if let Some(ids) = listed {
            let _ = piles.ids.set(ids);
        }
        piles
    }

    /// This decision's record (a fresh one on a new frame or from another home).
    fn decision<T>(&self, world: &World, own: &[ObjectId], home: Vec2, f: impl FnOnce(&mut Decision) -> T) -> T {
        let frame = world.frame().0;
        let mut memo = self.decision.borrow_mut();
        let d = match memo.as_mut() {
            Some(d) if d.frame == frame && d.home == home => d,
            _ => memo.insert(Decision { frame, home, depots: depots(world, own), best: None }),
        };
        f(d)
    }

    fn ids(&self, world: &World) -> &[ObjectId] {
        self.ids.get_or_init(|| world.objects().filter(|o| o.supply > 0).map(|o| o.id).collect())
    }

    /// The piles with money left, listed on the first call.
    pub fn of<'a, 'w: 'a>(&'a self, world: &'w World) -> impl Iterator<Item = &'w Object> + 'a {
        self.ids(world).iter().filter_map(move |&id| world.object(id)).filter(|o| o.supply > 0)
    }

    /// The piles with money left on the ground `ground`.
    fn on_ground<'w>(&self, world: &'w World, ground: u32) -> Vec<&'w Object> {
        let ids = self.ids(world);
        let revision = world.terrain().revision();
        let mut cache = self.grounds.borrow_mut();
        let grounds = match cache.take() {
            Some((r, grounds)) if r == revision && grounds.len() == ids.len() => grounds,
            _ => ids.iter().map(|&id| world.object(id).and_then(|o| world.ground_at(o.pos))).collect(),
        };
        let on: Vec<&Object> = ids
            .iter()
            .zip(&grounds)
            .filter(|&(_, g)| *g == Some(ground))
            .filter_map(|(&id, _)| world.object(id))
            .filter(|o| o.supply > 0)
            .collect();
        *cache = Some((revision, grounds));
        on
    }
}

/// Supply sources of `piles` with money left that `player`'s units can reach from `home`.
fn sources<'w>(world: &'w World, piles: &Piles, home: Vec2) -> Vec<&'w Object> {
    world.ground_at(home).map_or_else(Vec::new, |ground| piles.on_ground(world, ground))
}

/// The source whose trip to a depot is shortest (ties: more money left, then lowest id), with
/// that trip.
pub fn best_source<'w>(world: &'w World, piles: &Piles, own: &[ObjectId], home: Vec2) -> Option<(&'w Object, Fixed)> {
    let best = piles.decision(world, own, home, |d| {
        *d.best.get_or_insert_with(|| {
            sources(world, piles, home)
                .into_iter()
                .filter_map(|s| trip(&d.depots, s.pos).map(|t| (s.id, t)))
                .min_by_key(|&(id, t)| (t, std::cmp::Reverse(world.object(id).map_or(0, |s| s.supply)), id))
        })
    })?;
    Some((world.object(best.0)?, best.1))
}

/// Where a new depot should rise, if one should: when the best source's trip is long or it
/// runs low, the fresh source nearest to `home` that no depot serves yet and no known enemy
/// structure stands near.
pub fn expansion(world: &World, piles: &Piles, own: &[ObjectId], home: Vec2, memory: &Memory) -> Option<Vec2> {
    let (best, best_trip) = best_source(world, piles, own, home)?;
    if best_trip <= Fixed::from_int(LONG_TRIP) && best.supply >= LOW_SUPPLY {
        return None;
    }
    let berth = Fixed::from_int(ENEMY_BERTH);
    let depots = piles.decision(world, own, home, |d| d.depots.clone());
    sources(world, piles, home)
        .into_iter()
        .filter(|s| s.supply >= FRESH_SUPPLY && s.id != best.id)
        .filter(|s| trip(&depots, s.pos).is_none_or(|t| t > Fixed::from_int(LONG_TRIP)))
        .filter(|s| memory.structures().all(|e| (e.pos - s.pos).length() > berth))
        .min_by_key(|s| ((s.pos - home).length(), s.id))
        .map(|s| s.pos)
}

/// The gatherers' lanes: from every source with money left within a [`LONG_TRIP`] of one of
/// the depots of `own` to the nearest such depot, as segments (depot, source). A structure in a
/// lane would send every gatherer around it for the rest of the game.
pub fn supply_lanes(world: &World, piles: &Piles, own: &[ObjectId]) -> Vec<(Vec2, Vec2)> {
    let depots = depots(world, own);
    let long = Fixed::from_int(LONG_TRIP);
    piles
        .of(world)
        .filter_map(|s| {
            let depot = depots.iter().copied().min_by_key(|&d| ((d - s.pos).length_squared(), d.x, d.y))?;
            ((depot - s.pos).length() <= long).then_some((depot, s.pos))
        })
        .collect()
}

/// A gatherer of `own` working a source whose trip is much longer than the best one's, and that
/// best source, if any.
pub fn better_source(world: &World, piles: &Piles, own: &[ObjectId], home: Vec2) -> Option<(ObjectId, ObjectId)> {
    let (best, best_trip) = best_source(world, piles, own, home)?;
    let rules = world.rules();
    let depots = piles.decision(world, own, home, |d| d.depots.clone());
    each(world, own).filter(|o| rules.template(o.template).gather.is_some() && o.cargo == 0).find_map(|g| {
        let crate::sim::object::Order::Gather { pile } = g.order else { return None };
        let working = world.object(pile)?;
        let t = trip(&depots, working.pos)?;
        (pile != best.id && t > best_trip + Fixed::from_int(TRIP_SLACK)).then_some((g.id, best.id))
    })
}

/// True for structures that research upgrades: tech structures.
pub fn is_tech(world: &World, t: TemplateId) -> bool {
    !world.rules().template(t).researches.is_empty()
}

/// The next upgrade for `player` (whose objects are `own`) to research while the plan wants
/// more: the one whose effects touch the most of its army by worth (ties: the order its
/// structures list them), with the structure and the price (which it may not have yet).
pub fn next_research(
    world: &World,
    player: PlayerId,
    own: &[ObjectId],
    plan: &AiPlan,
) -> Option<(ObjectId, UpgradeId, i64)> {
    let rules = world.rules();
    let mine = || each(world, own).filter(|o| o.is_complete());
    let done = (0..rules.upgrades.len()).filter(|&u| world.has_upgrade(player, UpgradeId(u as u16))).count();
    let under_way = mine().filter(|o| world.research().job(o.id).is_some()).count();
    if done + under_way >= plan.upgrades as usize {
        return None;
    }
    // The army's worth per kind of object.
    let mut worth = [0i64; 5];
    for o in mine().filter(|o| rules.template(o.template).is_armed()) {
        worth[o.kind as usize] += rules.template(o.template).cost;
    }
    let touched = |u: UpgradeId| -> i64 {
        let kinds = rules.upgrade(u).effects.iter().fold(0u8, |k, e| k | e.kinds);
        (0..5).filter(|&k| kinds & (1 << k) != 0).map(|k| worth[k]).sum()
    };
    let candidates = mine().flat_map(|s| {
        rules.template(s.template).researches.iter().filter_map(move |&upgrade| {
            match world.can_research(player, s.id, upgrade) {
                Ok(cost) | Err(RejectReason::NotEnoughMoney { cost, .. }) => Some((s.id, upgrade, cost)),
                Err(_) => None,
            }
        })
    });
    // The first of the most useful (max_by_key keeps the last of equals: reversed order).
    let list: Vec<(ObjectId, UpgradeId, i64)> = candidates.collect();
    list.iter().rev().max_by_key(|c| touched(c.1)).copied()
}

/// A damaged finished structure of `player`'s (whose objects are `own`) not yet being repaired,
/// the most damaged first.
pub fn repair(world: &World, player: PlayerId, own: &[ObjectId]) -> Option<Command> {
    let rules = world.rules();
    each(world, own)
        .filter(|o| o.kind.blocks_ground() && o.is_complete() && !o.repairing)
        .filter(|o| (o.health as i64) * 100 < rules.template(o.template).max_health as i64 * REPAIR_BELOW)
        .filter(|o| world.can_repair(player, o.id).is_ok())
        .min_by_key(|o| (o.health as i64 * 1000 / rules.template(o.template).max_health.max(1) as i64, o.id))
        .map(|o| Command::Repair { structure: o.id })
}
