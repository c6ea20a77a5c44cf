//! Deterministic separation: overlapping units push each other apart, so a crowd spreads out
//! instead of stacking on one spot.
//!
//! The pairs that may overlap come from a [`PairList`], kept across frames while it holds and
//! made again from a bucket grid (buckets at least twice the largest radius wide, so two units
//! that touch lie in the same or touching buckets) when a unit has moved too far or the units
//! changed. Each overlapping pair is pushed from the lower slot toward the higher. Pushes are
//! summed first and applied after, so the result depends neither on the order pairs come in nor
//! on whether the list was kept or made this frame. Must not: push a unit onto a blocked cell,
//! or push structures.

use super::angle::Angle;
use super::fixed::Fixed;
use super::pair_list::PairList;
use super::spatial::Entry;
use super::store::ObjectStore;
use super::vector::Vec2;
use super::world::World;

/// Separation's cache: the close pairs, kept while they hold, and the units it pushes.
#[derive(Clone, Debug, Default)]
pub(crate) struct SeparationCache {
    /// The close pairs, kept while they hold.
    pub pairs: PairList,
    /// The units separation moves this frame.
    pub units: Vec<Entry>,
    /// The store's census when `units` was gathered: while it stands, the same units are in
    /// the same slots with the same radii, and only their positions need reading again.
    pub units_census: Option<u64>,
    /// The store's count of flushes that added objects when `units` was gathered: while it
    /// stands, objects have only left since, and the units are those still in their slots.
    pub units_arrivals: Option<u64>,
    /// The pushes by position among those units (zero between frames).
    pub push: Vec<Vec2>,
    /// The positions of the units pushed this frame.
    pub pushed: Vec<u32>,
}

/// Pushes overlapping units apart by one frame's worth.
#[inline(never)] // a system of its own keeps the tick's code small
pub(crate) fn update(world: &mut World) {
    let rules = &world.rules;
    let mut entries = std::mem::take(&mut world.caches.separation.units);
    let mut list = std::mem::take(&mut world.caches.separation.pairs);
    let census = world.objects.census();
    let size = world.terrain.world_size();
    if world.caches.separation.units_census == Some(census) {
        // No object came or went since the units were gathered: only their positions changed.
        // Positions come from the store's compact column, so the objects are not touched.
        follow_or_build(&mut list, &mut entries, &world.objects, size);
    } else if world.caches.separation.units_arrivals == Some(world.objects.arrivals()) {
        // Objects only left since: the units are those still in their slots. Each one gone is
        // parked where it meets no other, so the list and the units' order hold until the list
        // is next made, which leaves the parked out.
        for (i, e) in entries.iter_mut().enumerate() {
            if !world.objects.is_live(e.slot as usize) && !is_parked(e.pos) {
                e.pos = parking(i);
                list.park(i, e.pos);
            }
        }
        world.caches.separation.units_census = Some(census);
        follow_or_build(&mut list, &mut entries, &world.objects, size);
    } else {
        entries.clear();
        // Aircraft fly over the crowd (and hover where their formation slot puts them);
        // structures and props are not pushed.
        for o in world.objects.of_set(&world.scans.ground_units) {
            let radius = rules.template(o.template).radius;
            entries.push(Entry { slot: o.id.index, pos: o.pos, radius, owner: o.owner.0, air: false });
        }
        world.caches.separation.units_census = Some(census);
        world.caches.separation.units_arrivals = Some(world.objects.arrivals());
        if entries.len() >= 2 {
            list.refresh(size, &entries);
        }
    }
    if entries.len() < 2 {
        world.caches.separation.pairs = list;
        world.caches.separation.units = entries;
        return;
    }
    // Pushes by position in `entries`, all zero between frames: the few that a frame sets are
    // put back to zero as they are applied.
    let mut push = std::mem::take(&mut world.caches.separation.push);
    push.resize(entries.len(), Vec2::ZERO);
    let mut pushed = std::mem::take(&mut world.caches.separation.pushed);
    pushed.clear();
    sum_listed(&list, &entries, &mut push, &mut pushed);
    world.caches.separation.pairs = list;
    // Each unit's push moves only that unit, so the order they are applied in does not matter:
    // in slot order (units are gathered in slot order), each once, the objects written are met
    // as the memory lies and the hardware fetches ahead of the walk. In a crowd (many pushed)
    // the pushes are read in order; else the few pushed are sorted.
    if pushed.len() * 8 >= entries.len() {
        pushed.clear();
        pushed.extend(push.iter().enumerate().filter(|&(_, p)| *p != Vec2::ZERO).map(|(i, _)| i as u32));
    } else {
        pushed.sort_unstable();
        pushed.dedup();
    }
    for &i in &pushed {
        let (Some(e), Some(p)) = (entries.get(i as usize), push.get_mut(i as usize)) else { continue };
        let p = std::mem::replace(p, Vec2::ZERO); // a unit in several pairs is listed once each
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
    world.caches.separation.push = push;
    world.caches.separation.pushed = pushed;
    world.caches.separation.units = entries;
}

/// Where the unit at `i` among separation's units is parked once its object has left: far off
/// the map and far from every other parked unit, so it overlaps none and no pair with it is
/// pushed.
fn parking(i: usize) -> Vec2 {
    Vec2::new(Fixed::from_raw(PARKED + ((i as i64) << 32)), Fixed::from_raw(PARKED))
}

/// The raw coordinate parked units share (a world's positions are never near it).
const PARKED: i64 = -(1 << 60);

/// True for a position given by [`parking`].
fn is_parked(p: Vec2) -> bool {
    p.y.raw() == PARKED
}

/// Moves the units to where their objects stand (parked ones stay parked) and keeps the list if
/// it still holds every pair that may overlap; else drops the parked units and makes it again.
fn follow_or_build(list: &mut PairList, entries: &mut Vec<Entry>, objects: &ObjectStore, size: Vec2) {
    if !list.follow(entries, |slot| objects.pos_in_slot(slot as usize)) {
        entries.retain(|e| !is_parked(e.pos));
        if entries.len() >= 2 {
            list.build(size, entries);
        }
    }
}

/// Adds the push of each overlapping pair of `list` to `push` (by position in `entries`), and
/// notes in `pushed` the position of each unit of such a pair (once per pair).
fn sum_listed(list: &PairList, entries: &[Entry], push: &mut [Vec2], pushed: &mut Vec<u32>) {
    // First the pairs that come within reach along both axes, in a tight pass of their own:
    // most listed pairs are further apart than that, and the push's work is then left out of
    // the walk over them. The positions of the pairs kept are noted in `pushed` for now.
    // Each pair's position is written, and the count moves on only for one kept: no branch
    // to guess wrong in a crowd where some pairs are near and some not.
    pushed.clear();
    pushed.resize(list.pairs().len(), 0);
    let mut near = 0;
    for (k, &(i, j)) in list.pairs().iter().enumerate() {
        let (Some(a), Some(b)) = (entries.get(i as usize), entries.get(j as usize)) else { continue };
        let reach = a.radius.raw().wrapping_add(b.radius.raw()) as u64;
        let dx = b.pos.x.raw().wrapping_sub(a.pos.x.raw()).unsigned_abs();
        let dy = b.pos.y.raw().wrapping_sub(a.pos.y.raw()).unsigned_abs();
        if let Some(slot) = pushed.get_mut(near) {
            *slot = k as u32;
        }
        near += usize::from(dx.max(dy) < reach);
    }
    pushed.truncate(near);
    for n in 0..near {
        let Some(&(i, j)) = list.pairs().get(pushed[n] as usize) else { continue };
        let (Some(a), Some(b)) = (entries.get(i as usize), entries.get(j as usize)) else { continue };
        if let Some(p) = pair_push(a, b) {
            push[i as usize] -= p;
            push[j as usize] += p;
            pushed.extend([i, j]);
        }
    }
    pushed.drain(..near);
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
    use crate::sim::ids::{PlayerId, TemplateId};
    use crate::sim::test_support;

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

    /// While no object comes or goes, separation keeps its units from frame to frame and reads
    /// only their positions again: a crowd on the march, units falling and arriving in it, is
    /// pushed exactly as when the units are gathered afresh every frame.
    #[test]
    fn units_kept_between_frames_push_as_units_gathered_afresh() {
        let still = test_support::march_twice(
            300,
            |fresh| {
                fresh.caches.separation.units_census = None;
                fresh.caches.separation.units_arrivals = None;
            },
            |frame, kept, fresh| assert_eq!(kept.state_hash().total, fresh.state_hash().total, "frame {frame}"),
        );
        assert!((200..300).contains(&still), "no object came or went on {still} of 300 frames");
    }

    /// Units of a crowd on the march fall one by one (several at once now and then), with an
    /// arrival only now and then: the units and pairs kept past the departures push exactly as
    /// units gathered and a list made afresh every frame.
    #[test]
    fn units_kept_past_departures_push_as_units_gathered_afresh() {
        let (mut kept, first) = test_support::crowd_on_the_march();
        let mut fresh = kept.clone();
        let (mut departures_only, mut builds) = (0, 0);
        for frame in 0..240u32 {
            for w in [&mut kept, &mut fresh] {
                let crowd: Vec<_> = w.objects().filter(|o| o.template == TemplateId(0)).map(|o| o.id).collect();
                let falls = if frame % 5 == 2 { 1 + (frame as usize / 5) % 3 } else { 0 };
                for &id in crowd.iter().skip(frame as usize % 7).step_by(11).take(falls) {
                    if let Some(mut o) = w.objects.get_mut(id) {
                        o.set_health(0);
                    }
                }
                if frame % 47 == 20
                    && let Some(at) = crowd.last().and_then(|&id| w.object(id)).map(|o| o.pos)
                {
                    w.create_object(TemplateId(0), PlayerId(0), at, Angle::ZERO);
                }
            }
            fresh.caches.separation.units_census = None;
            fresh.caches.separation.units_arrivals = None;
            let (census, arrivals) = (kept.objects.census(), kept.objects.arrivals());
            let built = kept.caches.separation.pairs.builds();
            let commands = if frame == 0 { first.clone() } else { Vec::new() };
            kept.tick(&commands);
            fresh.tick(&commands);
            if kept.objects.census() != census && kept.objects.arrivals() == arrivals {
                departures_only += 1;
                builds += kept.caches.separation.pairs.builds() - built;
            }
            assert_eq!(kept.state_hash().total, fresh.state_hash().total, "frame {frame}");
        }
        assert!(departures_only > 30, "only {departures_only} frames with departures alone");
        assert!(builds < departures_only / 2, "{builds} lists made on {departures_only} frames of departures");
    }

    /// Two units just out of the list's reach walk toward each other, each as far as the list
    /// allows and then further: the list's pushes stay those of trying every pair.
    #[test]
    fn units_that_close_in_past_the_slack_are_still_pushed() {
        let one = 1i64 << Fixed::FRAC_BITS;
        // Radii 3 in buckets of 32: the skin is 26 units and the slack 13.
        let (reach, skin, slack) = (6 * one, 26 * one, 13 * one);
        let unit = |slot: u32, x: i64| Entry {
            slot,
            pos: Vec2::new(Fixed::from_raw(x), Fixed::from_int(500)),
            radius: Fixed::from_int(3),
            owner: 0,
            air: false,
        };
        for step in [slack - 1, slack, slack + 1, slack + reach / 2, skin, skin + 1] {
            let start = [unit(0, 1000 * one), unit(1, 1000 * one + reach + skin)];
            let mut list = PairList::default();
            list.build(Vec2::from_int(3200, 3200), &start);
            assert!(list.pairs().is_empty(), "just out of reach");
            let moved = [unit(0, 1000 * one + step), unit(1, 1000 * one + reach + skin - step)];
            list.refresh(Vec2::from_int(3200, 3200), &moved);
            let mut push = vec![Vec2::ZERO; 2];
            let mut pushed = Vec::new();
            sum_listed(&list, &moved, &mut push, &mut pushed);
            let touched = !pushed.is_empty();
            let (want, overlaps) = every_pair(&moved, 2);
            assert_eq!((push, touched), (want, overlaps), "each moved {step} raw");
            let gap = reach + skin - 2 * step;
            assert_eq!(overlaps, gap.abs() < reach, "they overlap once past the slack, until they cross");
        }
    }

    proptest::proptest! {
        /// Small and big units (one wider than the narrowest buckets), crowded or spread over a
        /// big map, moving for a few frames by steps small and large (some units leave): each
        /// frame, the pushes from the kept or remade pair list are those of trying every pair.
        #[test]
        fn pushes_are_those_of_every_overlapping_pair(
            units in proptest::collection::vec((0i64..400, 0i64..400, 0i64..65536, 0usize..5), 2..80),
            spread in 1i64..8,
            steps in proptest::collection::vec((proptest::collection::vec((-9i64..=9, -9i64..=9), 80), 0i64..4, 0usize..90), 1..6),
        ) {
            let radii = [3, 6, 7, 13, 40];
            let mut entries: Vec<Entry> = units
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
            let mut list = PairList::default();
            let mut check = |entries: &[Entry]| {
                list.refresh(Vec2::from_int(3200, 3200), entries);
                // Entries by position; each unit's slot is its first position.
                let mut push = vec![Vec2::ZERO; entries.len()];
                let mut pushed = Vec::new();
                sum_listed(&list, entries, &mut push, &mut pushed);
                let mut by_slot = vec![Vec2::ZERO; units.len()];
                for (e, p) in entries.iter().zip(&push) {
                    by_slot[e.slot as usize] = *p;
                }
                (by_slot, !pushed.is_empty())
            };
            let slots = units.len();
            let (push, touched) = check(&entries);
            let (want, overlaps) = every_pair(&entries, slots);
            proptest::prop_assert_eq!(touched, overlaps);
            proptest::prop_assert_eq!(push, want);
            for (moves, scale, gone) in steps {
                // Steps of up to 9 raw bits, 9/8 of a unit, 9 units or 72 units.
                let shift = [0, 13, 16, 19][scale as usize];
                for (e, &(dx, dy)) in entries.iter_mut().zip(&moves) {
                    e.pos = Vec2::new(e.pos.x + Fixed::from_raw(dx << shift), e.pos.y + Fixed::from_raw(dy << shift));
                }
                if gone < entries.len() && entries.len() > 2 {
                    entries.remove(gone);
                }
                let (push, touched) = check(&entries);
                let (want, overlaps) = every_pair(&entries, slots);
                proptest::prop_assert_eq!(touched, overlaps);
                proptest::prop_assert_eq!(push, want);
            }
        }
    }
}
