//! The economy: gatherers carry money from supply piles to their owner's supply depots.
//!
//! A gatherer ordered to a pile walks there, loads for its template's time, takes up to its
//! load from the pile, walks to the nearest finished depot of its owner, unloads (the money is
//! the owner's now) and goes back; when the pile runs dry it moves on to the nearest pile
//! with money left, or stops. Piles and depots are found nearest first, ties by id. A gatherer
//! new to the field (a starting one, or one trained without a rally point) goes to work by
//! itself, at the pile nearest one of its owner's depots.
//! Must not: create money except by unloading what a pile gave.

use super::event::GameEvent;
use super::fixed::Fixed;
use super::ids::{ObjectId, PlayerId};
use super::movement;
use super::object::{Object, Order};
use super::vector::Vec2;
use super::world::World;

/// How close (beyond both radii) a gatherer must stand to a pile or depot.
const REACH: i64 = 10;
/// How far a gatherer looks for another pile when its own runs dry.
const SEARCH: i64 = 1200;

/// A point just outside `target` (radius `r`) on the side facing `from`.
fn beside(target: Vec2, r: Fixed, from: Vec2, my_radius: Fixed) -> Vec2 {
    let out = (from - target).normalize();
    let out = if out == Vec2::ZERO { Vec2::new(Fixed::ONE, Fixed::ZERO) } else { out };
    target + out.scale(r + my_radius + Fixed::from_int(REACH / 2))
}

fn near(a: Vec2, b: Vec2, reach: Fixed) -> bool {
    (a - b).length_squared() <= reach * reach
}

/// The nearest object passing `keep` (ties: lowest id).
fn nearest(world: &World, from: Vec2, keep: impl Fn(&Object) -> bool) -> Option<&Object> {
    world.objects.iter().filter(|o| keep(o)).min_by_key(|o| ((o.pos - from).length_squared(), o.id))
}

/// One frame of gathering for every gatherer, in id order.
#[inline(never)] // a system of its own keeps the tick's code small
pub(crate) fn gather(world: &mut World) {
    let rules = std::sync::Arc::clone(&world.rules);
    // Depots do not come or go while gatherers work: kept between frames while they hold,
    // looked at when a gatherer asks.
    let mut depots = std::mem::take(&mut world.caches.depots);
    let scans = std::sync::Arc::clone(&world.scans);
    let mut gatherers = std::mem::take(&mut world.caches.gatherers);
    world.objects.keep_members(&scans.gatherers, &mut gatherers);
    for slot in gatherers.slots().iter().map(|&s| s as usize) {
        let Some(g) = world.objects.by_slot(slot) else { continue };
        let Order::Gather { pile } = g.order else { continue };
        let order_pile = pile;
        let Some(trip) = rules.template(g.template).gather else { continue };
        let (pos, owner, cargo, work) = (g.pos, g.owner, g.cargo, g.work);
        let my_radius = rules.template(g.template).radius;
        let goal = g.nav.goal;
        if cargo == 0 {
            // Heading for, or loading at, the pile; find another if this one is spent.
            let live = world.objects.get(pile).filter(|p| p.supply > 0).map(|p| (p.pos, p.template));
            let (ppos, ptemplate, pile) = match live {
                Some((p, t)) => (p, t, pile),
                None => {
                    let reach = Fixed::from_int(SEARCH);
                    let next = nearest(world, pos, |o| o.supply > 0 && near(o.pos, pos, reach))
                        .map(|o| (o.pos, o.template, o.id));
                    match next {
                        Some(n) => n,
                        None => {
                            stop(world, slot);
                            continue;
                        }
                    }
                }
            };
            let pr = rules.template(ptemplate).radius;
            if near(ppos, pos, pr + my_radius + Fixed::from_int(REACH)) {
                if work + 1 < trip.frames {
                    if let Some(mut g) = world.objects.by_slot_mut(slot) {
                        g.set_work(work + 1);
                    }
                    continue;
                }
                let take = world.objects.get(pile).map_or(0, |p| p.supply.min(trip.carry));
                if let Some(mut p) = world.objects.get_mut(pile) {
                    let left = p.supply - take;
                    p.set_supply(left);
                }
                let depot = nearest_depot(depots.get(world), owner, pos);
                if let Some(mut g) = world.objects.by_slot_mut(slot) {
                    g.set_work(0);
                    g.set_cargo(take);
                    g.set_order(Order::Gather { pile });
                    if let Some((dpos, dr)) = depot {
                        let to = beside(dpos, dr, pos, my_radius);
                        movement::set_goal(&mut g, to, &mut world.pathfinder);
                    }
                }
            } else if goal.is_none() || pile != order_pile {
                let to = beside(ppos, pr, pos, my_radius);
                if let Some(mut g) = world.objects.by_slot_mut(slot) {
                    g.set_order(Order::Gather { pile });
                    movement::set_goal(&mut g, to, &mut world.pathfinder);
                }
            }
        } else {
            // Carrying: unload at the nearest depot.
            let Some((dpos, dr)) = nearest_depot(depots.get(world), owner, pos) else { continue };
            if near(dpos, pos, dr + my_radius + Fixed::from_int(REACH)) {
                if let Some(p) = world.players.get_mut(owner.index()) {
                    p.money += cargo as i64;
                    world.events.push(GameEvent::MoneyReceived { player: owner, amount: cargo as i64, at: dpos });
                }
                let back = world.objects.get(pile).map(|p| (p.pos, rules.template(p.template).radius));
                if let Some(mut g) = world.objects.by_slot_mut(slot) {
                    g.set_cargo(0);
                    if let Some((ppos, pr)) = back {
                        let to = beside(ppos, pr, pos, my_radius);
                        movement::set_goal(&mut g, to, &mut world.pathfinder);
                    }
                }
            } else if goal.is_none() {
                let to = beside(dpos, dr, pos, my_radius);
                if let Some(mut g) = world.objects.by_slot_mut(slot) {
                    movement::set_goal(&mut g, to, &mut world.pathfinder);
                }
            }
        }
    }
    world.caches.depots = depots;
    world.caches.gatherers = gatherers;
}

/// A finished supply depot: owner, position, radius and id.
type Depot = (PlayerId, Vec2, Fixed, ObjectId);

/// Every finished supply depot as last found, with what it was found from: kept between frames
/// while the store's census and power marks stand (no object came or went, no structure was
/// finished or switched), the only changes the list reads (a depot never moves or changes
/// hands); debug builds check the kept list on every use.
#[derive(Clone, Debug, Default)]
pub(crate) struct DepotCache {
    found: Option<(u64, u64)>,
    depots: Vec<Depot>,
}

impl DepotCache {
    /// The finished depots now.
    fn get(&mut self, world: &World) -> &[Depot] {
        let now = (world.objects.census(), world.objects.power_marks());
        if self.found != Some(now) {
            self.depots = finished_depots(world);
            self.found = Some(now);
        }
        debug_assert_eq!(self.depots, finished_depots(world), "frame {}: the kept depots went stale", world.frame.0);
        &self.depots
    }
}

/// Every finished supply depot, in slot order.
fn finished_depots(world: &World) -> Vec<Depot> {
    let rules = &world.rules;
    world
        .objects
        .of_set(&world.scans.depots)
        .filter(|o| o.is_complete())
        .map(|o| (o.owner, o.pos, rules.template(o.template).radius, o.id))
        .collect()
}

/// The position and radius of `owner`'s nearest finished supply depot (ties: lowest id).
fn nearest_depot(depots: &[Depot], owner: PlayerId, from: Vec2) -> Option<(Vec2, Fixed)> {
    depots.iter().filter(|d| d.0 == owner).min_by_key(|d| ((d.1 - from).length_squared(), d.3)).map(|d| (d.1, d.2))
}

/// Ends gathering: nothing left within reach.
fn stop(world: &mut World, slot: usize) {
    if let Some(mut g) = world.objects.by_slot_mut(slot) {
        g.set_order(Order::Idle);
        g.set_work(0);
        g.clear_nav();
    }
}

/// Sends a gatherer without orders to work a supply pile with money left within [`SEARCH`] of
/// it, on ground it can reach: the one with the shortest haul to one of its owner's finished
/// depots (with none, the one nearest the gatherer; ties: more money left, then lowest id), as a
/// gatherer new to the field does. It stays idle when there is none. Anything else, or a
/// gatherer already given orders, is left as it is.
pub(crate) fn send_to_work(world: &mut World, id: ObjectId) {
    let Some(g) = world.objects.get(id) else { return };
    if world.rules.template(g.template).gather.is_none() || g.order != Order::Idle {
        return;
    }
    let (from, owner, reach) = (g.pos, g.owner, Fixed::from_int(SEARCH));
    let ground = world.ground_at(from);
    let depots = finished_depots(world);
    let haul = |p: Vec2| {
        nearest_depot(&depots, owner, p).map_or((p - from).length_squared(), |(d, _)| (d - p).length_squared())
    };
    let pile = world
        .objects
        .iter()
        .filter(|o| o.supply > 0 && near(o.pos, from, reach) && world.ground_at(o.pos) == ground)
        .min_by_key(|o| (haul(o.pos), std::cmp::Reverse(o.supply), o.id))
        .map(|o| o.id);
    if let (Some(pile), Some(mut g)) = (pile, world.objects.get_mut(id)) {
        g.set_order(Order::Gather { pile });
    }
}

/// True if `id` is a supply pile with money left.
pub(crate) fn is_supply(world: &World, id: ObjectId) -> bool {
    world.objects.get(id).is_some_and(|o| o.supply > 0)
}
