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

    /// Calls `f` with the slot of, and write access to, each live object whose template is in
    /// `set`, in slot order (the templates read from the compact per-slot array): one walk for
    /// a system that changes each of its objects and no other.
    #[inline(always)]
    pub fn for_each_in_mut(&mut self, set: &TemplateSet, mut f: impl FnMut(usize, ObjectMut<'_>)) {
        self.keep_keyed();
        let (sum, marks) = (&mut self.digest_sum, &mut self.marks);
        let slots = self.slots.iter_mut().zip(self.places.iter_mut()).zip(self.keyed.iter_mut());
        for (slot, (&t, ((s, place), keyed))) in self.tags.iter().zip(slots).enumerate() {
            if t != 0
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

    proptest::proptest! {
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
