//! The store's scans by tag: each slot's owner and template sit in a compact array beside the
//! slots (they never change during an object's life), so a scan for some players' objects or
//! some kinds of object reads a few bytes per slot and touches only the objects it wants.
//!
//! Must not: read an object's fields to decide whether it is wanted (the tag, or the place kept
//! beside it, decides), or visit slots out of order.

use super::ObjectStore;
use crate::sim::fixed::Fixed;
use crate::sim::ids::{PlayerId, TemplateId};
use crate::sim::object::Object;
use crate::sim::object_mut::ObjectMut;
use crate::sim::place::Keyed;
use crate::sim::rules::TemplateSet;
use crate::sim::vector::Vec2;

impl ObjectStore {
    /// `owner`'s live objects of `template` in id order.
    pub fn owned_of(&self, owner: PlayerId, template: TemplateId) -> impl Iterator<Item = &Object> {
        let want = tag(owner, template);
        self.tagged(move |t| t == want)
    }

    /// Live objects whose template is in `set`, in id order. The templates are read from the
    /// compact per-slot array, so objects of other templates are never touched: a scan for a
    /// few structures among many units costs a few bytes per slot.
    pub fn of_set<'a>(&'a self, set: &'a TemplateSet) -> impl Iterator<Item = &'a Object> {
        self.tagged(move |t| t != 0 && set.contains(tag_template(t)))
    }

    /// The first slot from `from` on that holds a live object whose template is in `set` (read
    /// from the compact per-slot array in one tight loop: for a system that wants few of the
    /// slots and changes objects as it goes, so cannot hold an iterator over the store).
    ///
    /// For a set of a few templates (builders, gatherers) the tags are read a block at a time
    /// and compared with every member without an early way out, which the compiler turns into
    /// a few wide instructions a block; only a block with a match is searched one by one.
    #[inline]
    pub fn next_in(&self, from: usize, set: &TemplateSet) -> Option<usize> {
        let tags = self.tags.get(from..)?;
        let Some(few) = set.few() else {
            return tags.iter().position(|&t| t != 0 && set.contains(tag_template(t))).map(|i| from + i);
        };
        // Branch-free: `&` and `|` on booleans evaluate both sides.
        let hit = |t: u32| (t != 0) & few.iter().fold(false, |any, &m| any | (tag_template(t) == m));
        let mut blocks = tags.chunks_exact(SCAN_BLOCK);
        let mut base = from;
        for block in blocks.by_ref() {
            if block.iter().fold(false, |any, &t| any | hit(t)) {
                return block.iter().position(|&t| hit(t)).map(|i| base + i);
            }
            base += SCAN_BLOCK;
        }
        blocks.remainder().iter().position(|&t| hit(t)).map(|i| base + i)
    }

    /// Calls `f` with the slot of, and write access to, each live object whose template is in
    /// `set`, in slot order (the templates read from the compact per-slot array): one walk for
    /// a system that changes each of its objects and no other.
    #[inline(always)]
    pub fn for_each_in_mut(&mut self, set: &TemplateSet, f: impl FnMut(usize, ObjectMut<'_>)) {
        self.walk_in_mut(set, |_| true, f);
    }

    /// As [`ObjectStore::for_each_in_mut`], passing over the objects at rest (no goal, no speed,
    /// not cruising: see [`crate::sim::place::at_rest`]) unread, by the compact per-slot record
    /// that says so: for movement, which changes nothing of them.
    #[inline(always)]
    pub fn for_each_stirring_in_mut(&mut self, set: &TemplateSet, f: impl FnMut(usize, ObjectMut<'_>)) {
        self.walk_in_mut(set, |keyed| !keyed.at_rest, f);
    }

    /// The walk of both: each live object of `set` whose per-slot record `keep` accepts (the
    /// object itself unread until then).
    #[inline(always)]
    fn walk_in_mut(
        &mut self,
        set: &TemplateSet,
        keep: impl Fn(&Keyed) -> bool,
        mut f: impl FnMut(usize, ObjectMut<'_>),
    ) {
        self.keep_keyed();
        let (sum, marks) = (&mut self.digest_sum, &mut self.marks);
        let slots = self.slots.iter_mut().zip(self.places.iter_mut()).zip(self.keyed.iter_mut());
        for (slot, (&t, ((s, place), keyed))) in self.tags.iter().zip(slots).enumerate() {
            if t != 0
                && keep(keyed)
                && set.contains(tag_template(t))
                && let Some(object) = s.object.as_mut()
            {
                f(slot, ObjectMut::new(object, keyed, place, sum, marks));
            }
        }
    }

    /// `owner`'s live objects bound ([`Object::bound`]) strictly within `reach` of `at` along
    /// both axes, in id order: owners and bound points are read from the compact per-slot
    /// arrays, so objects elsewhere are never touched (a formation order asks this of a player
    /// with thousands of units).
    pub fn bound_near(&self, owner: PlayerId, at: Vec2, reach: Fixed) -> impl Iterator<Item = &Object> {
        let near = move |b: &Vec2| (b.x - at.x).abs() < reach && (b.y - at.y).abs() < reach;
        self.tags
            .iter()
            .zip(&self.places)
            .zip(&self.slots)
            .filter(move |&((&t, p), _)| t != 0 && tag_owner(t) == owner && near(&p.bound))
            .filter_map(|(_, s)| s.object.as_ref())
    }

    /// Live objects whose owner `keep` accepts, in id order: owners are read from the compact
    /// per-slot array, so other players' objects are never touched.
    pub fn of_owners(&self, keep: impl Fn(PlayerId) -> bool) -> impl Iterator<Item = &Object> {
        self.tagged(move |t| t != 0 && keep(tag_owner(t)))
    }

    /// The live objects whose slot's tag `keep` accepts, in id order (the scans by tag share
    /// this walk: only the tags are read until one is accepted).
    fn tagged(&self, keep: impl Fn(u32) -> bool) -> impl Iterator<Item = &Object> {
        self.tags.iter().zip(&self.slots).filter(move |&(&t, _)| keep(t)).filter_map(|(_, s)| s.object.as_ref())
    }
}

/// Tags read at a time by [`ObjectStore::next_in`] for a set of a few templates.
const SCAN_BLOCK: usize = 32;

/// A live object's tag: a presence bit, its owner and its template (0 stands for no object).
pub(super) const fn tag(owner: PlayerId, template: TemplateId) -> u32 {
    1 << 24 | (owner.0 as u32) << 16 | template.0 as u32
}

/// The owner a tag names.
const fn tag_owner(tag: u32) -> PlayerId {
    PlayerId((tag >> 16) as u8)
}

/// The template a tag names.
pub(super) const fn tag_template(tag: u32) -> TemplateId {
    TemplateId(tag as u16)
}

#[cfg(test)]
mod tests {
    use super::super::tests::obj;
    use super::*;
    use crate::sim::ids::ObjectId;
    use crate::sim::vector::Vec2;

    #[test]
    fn template_and_owner_scans_see_exactly_the_live_objects() {
        // Owners and templates mixed, some destroyed, a slot reused, one spawned and not yet
        // flushed: the compact scans must agree with walking the objects themselves.
        let mut store = ObjectStore::new();
        let mut ids = Vec::new();
        for i in 0..12u8 {
            let o = Object { owner: PlayerId(i % 3), template: TemplateId((i % 4) as u16), ..obj() };
            ids.push(store.spawn(o));
        }
        store.flush();
        store.destroy(ids[2]);
        store.destroy(ids[7]);
        store.flush();
        store.spawn(Object { owner: PlayerId(1), template: TemplateId(3), ..obj() });
        store.flush();
        store.spawn(Object { owner: PlayerId(2), template: TemplateId(1), ..obj() });
        let wanted = |t: TemplateId| t.0 == 1 || t.0 == 3;
        let base = crate::sim::test_support::rules().templates[0].clone();
        let rules = crate::sim::rules::Rules {
            templates: (0..4).map(|i| crate::sim::rules::ObjectTemplate { cost: i, ..base.clone() }).collect(),
            ..Default::default()
        };
        let set = rules.templates_where(|t| t.cost == 1 || t.cost == 3);
        let scanned: Vec<ObjectId> = store.of_set(&set).map(|o| o.id).collect();
        let walked: Vec<ObjectId> = store.iter().filter(|o| wanted(o.template)).map(|o| o.id).collect();
        assert_eq!(scanned, walked);
        assert_eq!(walked.len(), 6, "templates 1 and 3 among the 11 live objects");
        let mut stepped = Vec::new();
        let mut next = 0;
        while let Some(slot) = store.next_in(next, &set) {
            stepped.push(store.by_slot(slot).map(|o| o.id));
            next = slot + 1;
        }
        assert_eq!(
            stepped,
            walked.iter().map(|&id| Some(id)).collect::<Vec<_>>(),
            "next_in steps through the same slots"
        );
        assert_eq!(store.next_in(store.slot_count() + 5, &set), None, "past the end");
        let walked_slots: Vec<Option<ObjectId>> = store.slots().map(|o| o.map(|o| o.id)).collect();
        let asked: Vec<Option<ObjectId>> = (0..store.slot_count()).map(|s| store.by_slot(s).map(|o| o.id)).collect();
        assert_eq!(walked_slots, asked, "slots() walks what by_slot answers, the reserved slot empty");
        let mut visited = Vec::new();
        store.for_each_in_mut(&set, |slot, mut o| {
            visited.push((slot, o.id));
            o.set_pos(Vec2::from_int(slot as i64, 7));
        });
        assert_eq!(visited.iter().map(|v| v.1).collect::<Vec<_>>(), walked, "for_each_in_mut meets the same objects");
        assert!(visited.iter().all(|&(slot, id)| slot == id.index as usize));
        assert!(store.of_set(&set).all(|o| o.pos == Vec2::from_int(o.id.index as i64, 7)), "and changes them");
        assert_eq!(store.digest_sum(), store.recompute_digest_sum(), "its changes are in the kept digest sum");
        let of_one: Vec<ObjectId> = store.of_owners(|p| p == PlayerId(1)).map(|o| o.id).collect();
        assert_eq!(of_one, store.iter().filter(|o| o.owner == PlayerId(1)).map(|o| o.id).collect::<Vec<_>>());
        assert_eq!(of_one.len(), 4, "player 1 owns 4 of the 11");
        for p in 0..4u8 {
            let walked = store.iter().filter(|o| o.owner == PlayerId(p)).count();
            assert_eq!(store.owned_count(PlayerId(p)), walked, "player {p}");
        }
        assert_eq!(store.owned_count(PlayerId(2)), 3, "one of its four fell; the unflushed spawn is not counted yet");
    }

    #[test]
    fn the_kept_places_follow_moves_and_goals_and_find_what_is_bound_near_a_point() {
        // Three of player 0's units and one of player 1's: one moves without a goal (bound
        // where it stands), one is given a far goal (bound there, wherever it stands), one has
        // its goal taken away (bound where it stands again), and one is destroyed.
        let mut store = ObjectStore::new();
        let at = |x, y| Vec2::from_int(x, y);
        let [a, b, c, _] = [(0, at(10, 10)), (0, at(12, 10)), (0, at(500, 500)), (1, at(11, 11))]
            .map(|(p, pos)| store.spawn(Object { owner: PlayerId(p), pos, ..obj() }));
        let e = store.spawn(Object { pos: at(9, 9), ..obj() });
        store.flush();
        let near = |store: &ObjectStore| -> Vec<ObjectId> {
            store.bound_near(PlayerId(0), at(10, 10), Fixed::from_int(5)).map(|o| o.id).collect()
        };
        assert_eq!(near(&store), vec![a, b, e], "player 0's three within 5 (not c, far; not d, player 1's)");
        store.get_mut(a).unwrap().set_pos(at(30, 10));
        store.get_mut(b).unwrap().change(|o| o.nav.goal = Some(at(400, 400)));
        store.get_mut(b).unwrap().set_pos(at(10, 10));
        store.get_mut(c).unwrap().change(|o| o.nav.goal = Some(at(13, 8)));
        store.destroy(e);
        store.flush();
        assert_eq!(near(&store), vec![c], "a moved off, b bound far away while standing here, c bound here");
        store.get_mut(c).unwrap().clear_nav();
        store.get_mut(b).unwrap().clear_nav();
        assert_eq!(near(&store), vec![b], "without goals both are bound where they stand");
        let positions: Vec<Option<Vec2>> = store.positions().collect();
        assert_eq!(positions, store.slots().map(|o| o.map(|o| o.pos)).collect::<Vec<_>>());
        assert_eq!(positions[e.index as usize], None, "the destroyed one's slot holds nothing");
        assert!(store.places_hold());
    }

    /// The walk for movement passes over exactly the objects at rest: no goal, no speed, no
    /// cruise. One starting to move, or given a goal, is met again; one come to rest is not.
    #[test]
    fn the_stirring_walk_passes_over_exactly_the_objects_at_rest() {
        use crate::sim::ids::Frame;
        let mut store = ObjectStore::new();
        let ids: Vec<ObjectId> = (0..6).map(|_| store.spawn(obj())).collect();
        store.flush();
        let set = TemplateSet::from_flags(vec![true]);
        let met = |store: &mut ObjectStore| {
            let mut met = Vec::new();
            store.for_each_stirring_in_mut(&set, |_, o| met.push(o.id));
            met
        };
        assert_eq!(met(&mut store), Vec::<ObjectId>::new(), "all at rest");
        store.get_mut(ids[1]).unwrap().set_speed(Fixed::from_int(1));
        store.get_mut(ids[2]).unwrap().change(|o| o.nav.goal = Some(Vec2::from_int(5, 5)));
        store.get_mut(ids[3]).unwrap().set_cruise(Vec2::from_int(1, 0), Frame(9));
        store.get_mut(ids[4]).unwrap().set_cruise(Vec2::ZERO, Frame(9));
        assert_eq!(met(&mut store), ids[1..5].to_vec(), "moving, bound for a goal, or cruising");
        store.get_mut(ids[1]).unwrap().set_speed(Fixed::ZERO);
        store.get_mut(ids[2]).unwrap().clear_nav();
        store.get_mut(ids[3]).unwrap().set_cruise(Vec2::ZERO, Frame::default());
        assert_eq!(met(&mut store), vec![ids[4]], "come to rest, but for the one still cruising");
        assert!(store.places_hold());
    }

    proptest::proptest! {
        /// Stepping with `next_in` from any slot meets exactly the live objects of the set
        /// from there on, in slot order: sets of one to a few templates (read a block at a
        /// time) and larger ones, over stores of a few to several blocks of slots.
        #[test]
        fn next_in_steps_through_exactly_the_set(
            templates in proptest::collection::vec(0u16..8, 1..150),
            gone in proptest::collection::vec(proptest::bool::ANY, 150),
            draws in proptest::collection::vec(0u8..10, 8),
            from in 0usize..160,
        ) {
            let mut store = ObjectStore::new();
            let ids: Vec<ObjectId> =
                templates.iter().map(|&t| store.spawn(Object { template: TemplateId(t), ..obj() })).collect();
            store.flush();
            for (id, _) in ids.iter().zip(&gone).filter(|(_, gone)| **gone) {
                store.destroy(*id);
            }
            store.flush();
            // Each template in the set three times in ten: sets of every size, mostly small.
            let members: Vec<bool> = draws.iter().map(|&d| d < 3).collect();
            let set = TemplateSet::from_flags(members.clone());
            let want: Vec<usize> = (from..store.slot_count())
                .filter(|&s| store.by_slot(s).is_some_and(|o| members[o.template.0 as usize]))
                .collect();
            let mut got = Vec::new();
            let mut next = from;
            while let Some(slot) = store.next_in(next, &set) {
                got.push(slot);
                next = slot + 1;
            }
            proptest::prop_assert_eq!(got, want);
            let size = members.iter().filter(|m| **m).count();
            proptest::prop_assert_eq!(set.few().is_some(), (1..=TemplateSet::FEW).contains(&size));
        }

        /// After any spawns and removals, the scan by owner and template meets exactly the
        /// objects a filter over every object meets, in the same order; each owner's count is
        /// that of its objects; and the census moves exactly at the flushes that added or
        /// removed an object.
        #[test]
        fn the_scan_by_owner_and_template_matches_a_filter_over_every_object(
            steps in proptest::collection::vec((0u8..4, 0u16..3, 0u8..3, 0usize..8), 1..60),
        ) {
            let mut store = ObjectStore::new();
            for (owner, template, what, pick) in steps {
                let before: Vec<ObjectId> = store.iter().map(|o| o.id).collect();
                let census = store.census();
                match what {
                    0 => {
                        if let Some(&id) = before.get(pick % before.len().max(1)) {
                            store.destroy(id);
                        }
                    }
                    1 => {
                        store.spawn(Object { owner: PlayerId(owner), template: TemplateId(template), ..obj() });
                    }
                    _ => {} // a flush with nothing queued
                }
                store.flush();
                let after: Vec<ObjectId> = store.iter().map(|o| o.id).collect();
                proptest::prop_assert_eq!(store.census() != census, after != before);
                for p in 0..4u8 {
                    let count = store.iter().filter(|o| o.owner == PlayerId(p)).count();
                    proptest::prop_assert_eq!(store.owned_count(PlayerId(p)), count);

                    for t in 0..3u16 {
                        let want: Vec<ObjectId> = store
                            .iter()
                            .filter(|o| o.owner == PlayerId(p) && o.template == TemplateId(t))
                            .map(|o| o.id)
                            .collect();
                        let got: Vec<ObjectId> = store.owned_of(PlayerId(p), TemplateId(t)).map(|o| o.id).collect();
                        proptest::prop_assert_eq!(got, want);
                    }
                }
            }
        }
    }
}
