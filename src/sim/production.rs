//! Production and construction: structures' unit queues and rally points, and builders
//! raising new structures.
//!
//! A queued unit is paid for when queued and appears next to its factory when its build time
//! has passed, heading for the rally point if one is set. A construction site is a structure
//! with work left; a builder ordered to it works one frame of it every frame it stands close
//! (one builder's work per site per frame), and the site's health grows with the work done.
//! Sites neither shoot nor produce. Queues are kept in id order and hashed. A player low on
//! power works only on some frames (its faction's `low_power_speed`, see [`super::power`]).
//! Must not: spend money or create objects except through validated commands and these
//! steps, or iterate anything but in id order.

use std::collections::BTreeMap;

use super::event::GameEvent;
use super::fixed::Fixed;
use super::hash::StateHasher;
use super::ids::{ObjectId, TemplateId};
use super::movement;
use super::object::Order;
use super::vector::Vec2;
use super::world::World;

/// Most jobs one factory may have queued.
pub const MAX_QUEUE: usize = 9;
/// How close (beyond both radii) a builder must stand to work on a site.
pub const BUILD_REACH: i64 = 12;
/// Frames between a stalled builder's attempts to walk to its site again.
const RETRY_FRAMES: u32 = 30;

/// One unit being produced.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Job {
    /// What.
    pub template: TemplateId,
    /// Frames of work left.
    pub remaining: u32,
}

/// Every factory's queue and rally point.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Factories {
    queues: BTreeMap<ObjectId, Vec<Job>>,
    rally: BTreeMap<ObjectId, Vec2>,
}

impl Factories {
    /// A factory's queue, first job first.
    pub fn queue(&self, factory: ObjectId) -> &[Job] {
        self.queues.get(&factory).map_or(&[], Vec::as_slice)
    }

    /// A factory's rally point.
    pub fn rally(&self, factory: ObjectId) -> Option<Vec2> {
        self.rally.get(&factory).copied()
    }

    pub(crate) fn push(&mut self, factory: ObjectId, job: Job) {
        self.queues.entry(factory).or_default().push(job);
    }

    pub(crate) fn pop_last(&mut self, factory: ObjectId) -> Option<Job> {
        let q = self.queues.get_mut(&factory)?;
        let job = q.pop();
        if q.is_empty() {
            self.queues.remove(&factory);
        }
        job
    }

    pub(crate) fn set_rally(&mut self, factory: ObjectId, at: Vec2) {
        self.rally.insert(factory, at);
    }

    /// Forgets a destroyed factory.
    pub(crate) fn forget(&mut self, factory: ObjectId) {
        self.queues.remove(&factory);
        self.rally.remove(&factory);
    }

    /// Feeds the synchronized state to the hasher, in id order.
    pub fn hash_into(&self, h: &mut StateHasher) {
        // Exhaustive: a new field does not compile until it is hashed here.
        let Factories { queues, rally } = self;
        h.write_u64(queues.len() as u64);
        for (id, q) in queues {
            h.write_u64(id.to_bits());
            h.write_u64(q.len() as u64);
            for Job { template, remaining } in q {
                h.write_u64(template.0 as u64 | (*remaining as u64) << 16);
            }
        }
        h.write_u64(rally.len() as u64);
        for (id, p) in rally {
            h.write_words(&[id.to_bits(), p.x.raw() as u64, p.y.raw() as u64]);
        }
    }
}

/// Builders next to their sites work on them; finished sites become complete structures.
#[inline(never)] // a system of its own keeps the tick's code small
pub(crate) fn construct(world: &mut World) {
    let rules = std::sync::Arc::clone(&world.rules);
    let mut worked: Vec<ObjectId> = Vec::new();
    // Found once, when the first site is worked on.
    let mut power: Option<Vec<super::power::PowerBalance>> = None;
    // Only units that build are given construction orders: everything else is passed over
    // unread.
    let scans = std::sync::Arc::clone(&world.scans);
    let mut builders = std::mem::take(&mut world.caches.builders);
    world.objects.keep_members(&scans.builders, &mut builders);
    for slot in builders.slots().iter().map(|&s| s as usize) {
        let Some(builder) = world.objects.by_slot(slot) else { continue };
        let Order::Construct { site } = builder.order else { continue };
        let (bpos, bradius) = (builder.pos, rules.template(builder.template).radius);
        if world.objects.is_arriving(site) {
            continue; // placed this frame; work starts next frame
        }
        let Some(s) = world.objects.get(site).filter(|s| !s.is_complete()) else {
            if let Some(mut b) = world.objects.by_slot_mut(slot) {
                b.set_order(Order::Idle);
                b.clear_nav();
            }
            continue;
        };
        let t = rules.template(s.template);
        let reach = t.radius + bradius + Fixed::from_int(BUILD_REACH);
        if (s.pos - bpos).length_squared() > reach * reach {
            // Out of reach and no longer walking (pushed aside, or its path gave up): it sets
            // out again, once a second so a site it cannot reach costs little.
            let idle = !builder.nav.is_active();
            if idle && (world.frame.0 + slot as u32).is_multiple_of(RETRY_FRAMES) {
                let (centre, footprint) = (s.pos, t.footprint);
                let spot = world.approach(centre, footprint, bpos).unwrap_or(centre);
                if let Some(mut b) = world.objects.by_slot_mut(slot) {
                    movement::set_goal(&mut b, spot, &mut world.pathfinder);
                }
            }
            continue;
        }
        if worked.contains(&site) {
            continue;
        }
        // Low on power, the work goes at the faction's reduced speed.
        let owner = s.owner;
        let balances = power.get_or_insert_with(|| world.power_now());
        if !world.works_now(balances, owner) {
            continue;
        }
        worked.push(site);
        let left = s.construction.unwrap_or(0).saturating_sub(1);
        let total = t.build_frames.max(1);
        let health = if left == 0 {
            t.max_health
        } else {
            // Health grows with the work done, from a tenth at the start.
            let done = (total - left.min(total)) as i64;
            let base = (t.max_health / 10).max(1) as i64;
            (base + (t.max_health as i64 - base) * done / total as i64) as i32
        };
        if let Some(mut site_mut) = world.objects.get_mut(site) {
            site_mut.set_construction((left > 0).then_some(left));
            // Health rises to the work's share; it never drops because of the work.
            let now = site_mut.health.max(health);
            site_mut.set_health(now);
        }
        if left == 0 {
            if let Some(s) = world.objects.get(site) {
                let (template, owner, at) = (s.template, s.owner, s.pos);
                world.events.push(GameEvent::StructureCompleted { object: site, template, owner, at });
            }
            if let Some(mut b) = world.objects.by_slot_mut(slot) {
                b.set_order(Order::Idle);
                b.clear_nav();
            }
        }
    }
    world.caches.builders = builders;
}

/// Where the units finished this frame go once they appear at the flush.
#[derive(Debug, Default)]
pub(crate) struct Arrivals {
    /// Units whose factory has a rally point, with the point.
    pub rallies: Vec<(ObjectId, Vec2)>,
    /// Gatherers whose factory has none: they go to work (`economy::send_to_work`).
    pub workers: Vec<ObjectId>,
}

/// Factories work on their first job; finished units are queued to appear at the flush.
/// Returns where the new units go.
#[inline(never)] // a system of its own keeps the tick's code small
pub(crate) fn produce(world: &mut World) -> Arrivals {
    let rules = std::sync::Arc::clone(&world.rules);
    let ids: Vec<ObjectId> = world.factories.queues.keys().copied().collect();
    let mut arrivals = Arrivals::default();
    let power = if ids.is_empty() { Vec::new() } else { world.frame_power() };
    for factory in ids {
        let Some(f) = world.objects.get(factory) else {
            world.factories.forget(factory);
            continue;
        };
        if !f.is_complete() || f.powered_down {
            continue;
        }
        let (fpos, owner, ftemplate) = (f.pos, f.owner, f.template);
        if !world.works_now(&power, owner) {
            continue;
        }
        let Some(job) = world.factories.queues.get_mut(&factory).and_then(|q| q.first_mut()) else { continue };
        job.remaining = job.remaining.saturating_sub(1);
        if job.remaining > 0 {
            continue;
        }
        let template = job.template;
        let ft = rules.template(ftemplate);
        // The unit appears on the first free cell of a ring just outside the footprint,
        // starting on the side facing the rally point (or the map's middle).
        let rally = world.factories.rally(factory);
        let exit = world.exit_point(fpos, ft.footprint, rally);
        let Some(exit) = exit else { continue }; // boxed in: wait, the job stays done
        world.factories.queues.get_mut(&factory).map(|q| q.remove(0));
        if world.factories.queue(factory).is_empty() {
            world.factories.queues.remove(&factory);
        }
        let facing = match rally {
            Some(r) if r != exit => (r - exit).angle(),
            _ => (exit - fpos).angle(),
        };
        let id = world.create_object(template, owner, exit, facing);
        world.events.push(GameEvent::UnitProduced { object: id, template, owner, at: exit });
        match rally {
            Some(r) => arrivals.rallies.push((id, r)),
            None if rules.template(template).gather.is_some() => arrivals.workers.push(id),
            None => {}
        }
    }
    arrivals
}
