//! Deterministic separation: overlapping units push each other apart, so a crowd spreads out
//! instead of stacking on one spot.
//!
//! Pairs are visited once each in id order, pushes are summed first and applied after, so the
//! result does not depend on visiting order within a frame. Must not: push a unit onto a
//! blocked cell, or push structures.

use super::angle::Angle;
use super::fixed::Fixed;
use super::spatial::Entry;
use super::vector::Vec2;
use super::world::World;

/// Bucket side for the neighbour grid: 2^5 = 32 world units (more than twice the largest unit
/// radius, so a query spans at most 3×3 buckets).
const BUCKET_LOG2: u32 = 5;

/// Pushes overlapping units apart by one frame's worth.
#[inline(never)] // a system of its own keeps the tick's code small
pub(crate) fn update(world: &mut World) {
    let rules = &world.rules;
    let mut entries = Vec::with_capacity(world.objects.len());
    let mut max_radius = Fixed::ZERO;
    for o in world.objects.iter() {
        // Aircraft fly over the crowd (and hover where their formation slot puts them).
        if o.kind.blocks_ground() || o.kind.is_air() {
            continue;
        }
        let radius = rules.template(o.template).radius;
        max_radius = max_radius.max(radius);
        entries.push(Entry { slot: o.id.index, pos: o.pos, radius, owner: o.owner.0, air: false });
    }
    if entries.len() < 2 {
        return;
    }
    let mut index = std::mem::take(&mut world.scratch.neighbours);
    index.rebuild(world.terrain.world_size(), BUCKET_LOG2, &entries);
    let mut push = std::mem::take(&mut world.scratch.push);
    push.clear();
    push.resize(world.objects.slot_count(), Vec2::ZERO);
    let mut touched = false;
    for a in &entries {
        index.for_each_near(a.pos, a.radius + max_radius, |b| {
            if b.slot <= a.slot {
                return;
            }
            let reach = a.radius + b.radius;
            let d = b.pos - a.pos;
            if d.x.abs() >= reach || d.y.abs() >= reach {
                return;
            }
            let dist2 = d.length_squared();
            if dist2 >= reach * reach {
                return;
            }
            let dist = dist2.sqrt();
            let dir = if dist > Fixed::ZERO {
                Vec2::new(d.x / dist, d.y / dist)
            } else {
                // Exactly on top of each other: a direction fixed by the pair's ids.
                Vec2::from_angle(Angle((a.slot.wrapping_mul(40503) ^ b.slot.wrapping_mul(9973)) as u16))
            };
            let half = (reach - dist).div_int(2);
            let p = dir.scale(half);
            push[a.slot as usize] -= p;
            push[b.slot as usize] += p;
            touched = true;
        });
    }
    world.scratch.neighbours = index;
    if !touched {
        world.scratch.push = push;
        return;
    }
    for e in &entries {
        let p = push[e.slot as usize];
        if p == Vec2::ZERO {
            continue;
        }
        let p = p.clamp_length(e.radius.div_int(2));
        let target = e.pos + p;
        let Some(mut obj) = world.objects.by_slot_mut(e.slot as usize) else { continue };
        if world.terrain.passable_at(target) {
            obj.set_pos(target);
        } else if world.terrain.passable_at(Vec2::new(target.x, e.pos.y)) {
            obj.set_pos(Vec2::new(target.x, e.pos.y));
        } else if world.terrain.passable_at(Vec2::new(e.pos.x, target.y)) {
            obj.set_pos(Vec2::new(e.pos.x, target.y));
        }
    }
    world.scratch.push = push;
}
