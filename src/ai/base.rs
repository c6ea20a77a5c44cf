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

/// Where `player`'s finished supply depots stand (found once per question, not per source).
fn depots(world: &World, player: PlayerId) -> Vec<Vec2> {
    let rules = world.rules();
    world
        .objects_of(player)
        .filter(|o| o.is_complete() && rules.template(o.template).supply_depot)
        .map(|o| o.pos)
        .collect()
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
#[derive(Clone, Debug, Default)]
pub struct Piles {
    ids: std::cell::OnceCell<Vec<ObjectId>>,
    grounds: std::cell::RefCell<Option<(u64, Vec<Option<u32>>)>>,
}

impl Piles {
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
pub fn best_source<'w>(world: &'w World, piles: &Piles, player: PlayerId, home: Vec2) -> Option<(&'w Object, Fixed)> {
    let depots = depots(world, player);
    sources(world, piles, home)
        .into_iter()
        .filter_map(|s| trip(&depots, s.pos).map(|t| (s, t)))
        .min_by_key(|(s, t)| (*t, std::cmp::Reverse(s.supply), s.id))
}

/// Where a new depot should rise, if one should: when the best source's trip is long or it
/// runs low, the fresh source nearest to `home` that no depot serves yet and no known enemy
/// structure stands near.
pub fn expansion(world: &World, piles: &Piles, player: PlayerId, home: Vec2, memory: &Memory) -> Option<Vec2> {
    let (best, best_trip) = best_source(world, piles, player, home)?;
    if best_trip <= Fixed::from_int(LONG_TRIP) && best.supply >= LOW_SUPPLY {
        return None;
    }
    let berth = Fixed::from_int(ENEMY_BERTH);
    let depots = depots(world, player);
    sources(world, piles, home)
        .into_iter()
        .filter(|s| s.supply >= FRESH_SUPPLY && s.id != best.id)
        .filter(|s| trip(&depots, s.pos).is_none_or(|t| t > Fixed::from_int(LONG_TRIP)))
        .filter(|s| memory.structures().all(|e| (e.pos - s.pos).length() > berth))
        .min_by_key(|s| ((s.pos - home).length(), s.id))
        .map(|s| s.pos)
}

/// The gatherers' lanes: from every source with money left within a [`LONG_TRIP`] of one of
/// `player`'s depots to the nearest such depot, as segments (depot, source). A structure in a
/// lane would send every gatherer around it for the rest of the game.
pub fn supply_lanes(world: &World, piles: &Piles, player: PlayerId) -> Vec<(Vec2, Vec2)> {
    let depots = depots(world, player);
    let long = Fixed::from_int(LONG_TRIP);
    piles
        .of(world)
        .filter_map(|s| {
            let depot = depots.iter().copied().min_by_key(|&d| ((d - s.pos).length_squared(), d.x, d.y))?;
            ((depot - s.pos).length() <= long).then_some((depot, s.pos))
        })
        .collect()
}

/// A gatherer working a source whose trip is much longer than the best one's, and that best
/// source, if any.
pub fn better_source(world: &World, piles: &Piles, player: PlayerId, home: Vec2) -> Option<(ObjectId, ObjectId)> {
    let (best, best_trip) = best_source(world, piles, player, home)?;
    let rules = world.rules();
    let depots = depots(world, player);
    world.objects_of(player).filter(|o| rules.template(o.template).gather.is_some() && o.cargo == 0).find_map(|g| {
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

/// The next upgrade to research while the plan wants more: the one whose effects touch the
/// most of its army by worth (ties: the order its structures list them), with the structure
/// and the price (which it may not have yet).
pub fn next_research(world: &World, player: PlayerId, plan: &AiPlan) -> Option<(ObjectId, UpgradeId, i64)> {
    let rules = world.rules();
    let mine = || world.objects_of(player).filter(|o| o.is_complete());
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

/// A damaged finished structure not yet being repaired, the most damaged first.
pub fn repair(world: &World, player: PlayerId) -> Option<Command> {
    let rules = world.rules();
    world
        .objects_of(player)
        .filter(|o| o.kind.blocks_ground() && o.is_complete() && !o.repairing)
        .filter(|o| (o.health as i64) * 100 < rules.template(o.template).max_health as i64 * REPAIR_BELOW)
        .filter(|o| world.can_repair(player, o.id).is_ok())
        .min_by_key(|o| (o.health as i64 * 1000 / rules.template(o.template).max_health.max(1) as i64, o.id))
        .map(|o| Command::Repair { structure: o.id })
}
