//! Deterministic separation: overlapping units push each other apart, so a crowd spreads out
//! instead of stacking on one spot.
//!
//! The units go into a bucket grid whose buckets are at least as wide as the widest pair can
//! reach (twice the largest radius), so two units that touch lie in the same or touching
//! buckets: the grid's close pairs hold every overlapping pair, each once, and a unit with no
//! one near costs one look at its neighbouring buckets. Each pair is pushed from the lower slot
//! toward the higher. Pushes are summed first and applied after, so the result does not depend
//! on visiting order within a frame. Must not: push a unit onto a blocked cell, or push
//! structures.

use super::angle::Angle;
use super::fixed::Fixed;
use super::spatial::{Entry, SpatialIndex};
use super::vector::Vec2;
use super::world::World;

/// The narrowest buckets of the neighbour grid: 2^5 = 32 world units (twice the largest unit
/// radius shipped, 13, fits; wider units widen them).
const MIN_BUCKET_LOG2: u32 = 5;

/// Bucket side (log2) for the neighbour grid of `entries`: at least twice the largest radius.
fn bucket_log2(entries: &[Entry]) -> u32 {
    let widest = entries.iter().map(|e| e.radius).max().unwrap_or(Fixed::ZERO);
    let reach = ((widest + widest).raw().clamp(1, 1 << 46) as u64).div_ceil(1 << Fixed::FRAC_BITS);
    reach.next_power_of_two().trailing_zeros().max(MIN_BUCKET_LOG2)
}

/// Pushes overlapping units apart by one frame's worth.
#[inline(never)] // a system of its own keeps the tick's code small
pub(crate) fn update(world: &mut World) {
    let rules = &world.rules;
    let mut entries = Vec::with_capacity(world.objects.len());
    // Aircraft fly over the crowd (and hover where their formation slot puts them);
    // structures and props are not pushed.
    for o in world.objects.of_set(&world.scans.ground_units) {
        let radius = rules.template(o.template).radius;
        entries.push(Entry { slot: o.id.index, pos: o.pos, radius, owner: o.owner.0, air: false });
    }
    if entries.len() < 2 {
        return;
    }
    let mut index = std::mem::take(&mut world.scratch.neighbours);
    index.rebuild_for_pairs(world.terrain.world_size(), bucket_log2(&entries), &entries);
    let mut push = std::mem::take(&mut world.scratch.push);
    push.clear();
    push.resize(world.objects.slot_count(), Vec2::ZERO);
    let touched = sum_pushes(&index, &mut push);
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

/// Adds each overlapping pair's push to `push` (by slot): half the overlap each way, from the
/// lower slot toward the higher. `index` must have buckets at least twice the largest radius
/// wide ([`bucket_log2`]). Returns true if any pair overlaps.
fn sum_pushes(index: &SpatialIndex, push: &mut [Vec2]) -> bool {
    let mut touched = false;
    index.for_each_close_run(|a, others| touched |= push_pairs(a, others, push));
    touched
}

/// Adds the pushes of `a` with each of `others` that overlaps it; true if any does.
#[inline(always)] // the pair loop, in the grid's sweep
fn push_pairs(a: &Entry, others: &[Entry], push: &mut [Vec2]) -> bool {
    let mut touched = false;
    let (ax, ay) = (a.pos.x.raw(), a.pos.y.raw());
    for b in others {
        // Most close pairs are a bucket apart: a first test in plain integers drops them (it
        // never drops a pair `pair_push` would push: a wrapped difference only arises between
        // points that are nowhere near).
        // One test of the larger axis distance, not one per axis: few pairs pass, so its
        // branch is foreseen, where a branch per axis would be a coin toss.
        let reach = a.radius.raw().wrapping_add(b.radius.raw()) as u64;
        let dx = b.pos.x.raw().wrapping_sub(ax).unsigned_abs();
        let dy = b.pos.y.raw().wrapping_sub(ay).unsigned_abs();
        if dx.max(dy) >= reach {
            continue;
        }
        let (a, b) = if a.slot < b.slot { (a, b) } else { (b, a) };
        if let Some(p) = pair_push(a, b) {
            push[a.slot as usize] -= p;
            push[b.slot as usize] += p;
            touched = true;
        }
    }
    touched
}

/// The push on `b` away from `a` (`a` the lower slot; `a` gets its opposite) when the two
/// overlap: half the overlap along the line between them.
#[inline(always)] // in the pair loop, as it was written there
fn pair_push(a: &Entry, b: &Entry) -> Option<Vec2> {
    let reach = a.radius + b.radius;
    let d = b.pos - a.pos;
    if d.x.abs() >= reach || d.y.abs() >= reach {
        return None;
    }
    let dist2 = d.length_squared();
    if dist2 >= reach * reach {
        return None;
    }
    let dist = dist2.sqrt();
    let dir = if dist > Fixed::ZERO {
        Vec2::new(d.x / dist, d.y / dist)
    } else {
        // Exactly on top of each other: a direction fixed by the pair's ids.
        Vec2::from_angle(Angle((a.slot.wrapping_mul(40503) ^ b.slot.wrapping_mul(9973)) as u16))
    };
    Some(dir.scale((reach - dist).div_int(2)))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The pushes of every overlapping pair, found by trying every pair (lower slot first).
    fn every_pair(entries: &[Entry], slots: usize) -> (Vec<Vec2>, bool) {
        let mut push = vec![Vec2::ZERO; slots];
        let mut touched = false;
        for (i, a) in entries.iter().enumerate() {
            for b in &entries[i + 1..] {
                if let Some(p) = pair_push(a, b) {
                    push[a.slot as usize] -= p;
                    push[b.slot as usize] += p;
                    touched = true;
                }
            }
        }
        (push, touched)
    }

    proptest::proptest! {
        /// Small and big units (one wider than the narrowest buckets), crowded or spread over a
        /// big map: the grid's close pairs hold each overlapping pair once, and the pushes are
        /// those of trying every pair.
        #[test]
        fn pushes_are_those_of_every_overlapping_pair(
            units in proptest::collection::vec((0i64..400, 0i64..400, 0i64..65536, 0usize..5), 2..80),
            spread in 1i64..8,
        ) {
            let radii = [3, 6, 7, 13, 40];
            let entries: Vec<Entry> = units
                .iter()
                .enumerate()
                .map(|(i, &(x, y, frac, r))| Entry {
                    slot: i as u32,
                    pos: Vec2::new(Fixed::from_raw(((x * spread) << 16) + frac), Fixed::from_raw(((y * spread) << 16) + frac / 2)),
                    radius: Fixed::from_int(radii[r]),
                    owner: 0,
                    air: false,
                })
                .collect();
            let mut index = SpatialIndex::default();
            index.rebuild_for_pairs(Vec2::from_int(3200, 3200), bucket_log2(&entries), &entries);
            let mut push = vec![Vec2::ZERO; entries.len()];
            let touched = sum_pushes(&index, &mut push);
            let (want, overlaps) = every_pair(&entries, entries.len());
            proptest::prop_assert_eq!(touched, overlaps);
            proptest::prop_assert_eq!(push, want);
        }
    }
}
