//! Deterministic separation: overlapping units push each other apart, so a crowd spreads out
//! instead of stacking on one spot.
//!
//! Each overlapping pair is met once — by the wider of the two (ties: the higher slot), whose
//! query of twice its own radius reaches every unit that can touch it, so the many small units
//! of a crowd look only close around themselves — and pushed the same way whichever met it
//! (from the lower slot toward the higher). Pushes are summed first and applied after, so the
//! result does not depend on visiting order within a frame. Must not: push a unit onto a
//! blocked cell, or push structures.

use super::angle::Angle;
use super::fixed::Fixed;
use super::spatial::{Entry, SpatialIndex};
use super::vector::Vec2;
use super::world::World;

/// Bucket side for the neighbour grid: 2^5 = 32 world units (a query of twice the largest
/// unit radius, 13, spans at most 2×2 buckets, and an infantryman's, 2×3, mostly one).
const BUCKET_LOG2: u32 = 5;

/// Pushes overlapping units apart by one frame's worth.
#[inline(never)] // a system of its own keeps the tick's code small
pub(crate) fn update(world: &mut World) {
    let rules = &world.rules;
    let mut entries = Vec::with_capacity(world.objects.len());
    for o in world.objects.iter() {
        // Aircraft fly over the crowd (and hover where their formation slot puts them).
        if o.kind.blocks_ground() || o.kind.is_air() {
            continue;
        }
        let radius = rules.template(o.template).radius;
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
    let touched = sum_pushes(&index, &entries, &mut push);
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
/// lower slot toward the higher. Returns true if any pair overlaps.
fn sum_pushes(index: &SpatialIndex, entries: &[Entry], push: &mut [Vec2]) -> bool {
    let mut touched = false;
    for wide in entries {
        index.for_each_near(wide.pos, wide.radius + wide.radius, |other| {
            // The pair belongs to its wider member (ties: the higher slot); the push runs from
            // the lower slot toward the higher, whichever of the two met it.
            if (other.radius, other.slot) >= (wide.radius, wide.slot) {
                return;
            }
            let (a, b) = if wide.slot < other.slot { (wide, other) } else { (other, wide) };
            if let Some(p) = pair_push(a, b) {
                push[a.slot as usize] -= p;
                push[b.slot as usize] += p;
                touched = true;
            }
        });
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
        /// Small and big units, crowded or spread over a big map: the grid finds each
        /// overlapping pair once (the push of a pair is `pair_push` either way), and the pushes
        /// are those of trying every pair.
        #[test]
        fn pushes_are_those_of_every_overlapping_pair(
            units in proptest::collection::vec((0i64..400, 0i64..400, 0i64..65536, 0usize..4), 2..80),
            spread in 1i64..8,
        ) {
            let radii = [3, 6, 7, 13];
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
            let index = SpatialIndex::build(Vec2::from_int(3200, 3200), BUCKET_LOG2, &entries);
            let mut push = vec![Vec2::ZERO; entries.len()];
            let touched = sum_pushes(&index, &entries, &mut push);
            let (want, overlaps) = every_pair(&entries, entries.len());
            proptest::prop_assert_eq!(touched, overlaps);
            proptest::prop_assert_eq!(push, want);
        }
    }
}
