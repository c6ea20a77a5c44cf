//! A set's members kept from frame to frame: the slots of the live objects whose template is in
//! a set, in slot order, found again only when the store's census has moved on (an object came
//! or went at a flush; templates never change in an object's life). A system that walks one
//! set every frame reads the short list instead of every slot's tag.
//!
//! Must not: be walked without [`ObjectStore::keep_members`] first in the same frame (a list
//! from before a flush can name slots whose objects are gone), or be hashed (it follows from
//! the store).

use super::ObjectStore;
use super::scan::tag_template;
use crate::sim::object_mut::ObjectMut;
use crate::sim::rules::TemplateSet;

/// The slots of one set's live members as of a census of the store.
#[derive(Clone, Debug, Default)]
pub struct Members {
    /// The census the list was made at (None: never made).
    census: Option<u64>,
    slots: Vec<u32>,
}

impl Members {
    /// The members' slots, in slot order.
    pub fn slots(&self) -> &[u32] {
        &self.slots
    }
}

impl ObjectStore {
    /// Brings `members` up to date with the live objects whose template is in `set` (it must be
    /// the same set each time): kept while no object came or went, else found again.
    pub fn keep_members(&self, set: &TemplateSet, members: &mut Members) {
        if members.census == Some(self.census) {
            return;
        }
        members.slots.clear();
        let wanted = |&(_, &t): &(usize, &u32)| t != 0 && set.contains(tag_template(t));
        members.slots.extend(self.tags.iter().enumerate().filter(wanted).map(|(slot, _)| slot as u32));
        members.census = Some(self.census);
    }

    /// Calls `f` with the slot of, and write access to, each of `members` (brought up to date
    /// this frame) not at rest (see [`crate::sim::place::at_rest`]), in slot order, by the
    /// compact per-slot record that says so: for movement, which changes nothing of the objects
    /// at rest, so they are passed over unread.
    #[inline(always)]
    pub fn for_each_stirring_of_mut(&mut self, members: &Members, mut f: impl FnMut(usize, ObjectMut<'_>)) {
        self.keep_keyed();
        let (sum, marks) = (&mut self.digest_sum, &mut self.marks);
        for slot in members.slots.iter().map(|&s| s as usize) {
            let (Some(s), Some(place), Some(keyed)) =
                (self.slots.get_mut(slot), self.places.get_mut(slot), self.keyed.get_mut(slot))
            else {
                continue;
            };
            if !keyed.at_rest
                && let Some(object) = s.object.as_mut()
            {
                f(slot, ObjectMut::new(object, keyed, place, sum, marks));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::obj;
    use super::*;
    use crate::sim::fixed::Fixed;
    use crate::sim::ids::{ObjectId, PlayerId, TemplateId};
    use crate::sim::object::Object;
    use crate::sim::vector::Vec2;

    fn object(template: u16) -> Object {
        Object { owner: PlayerId((template % 3) as u8), template: TemplateId(template), ..obj() }
    }

    /// The slots of the live objects of `set`, each object asked for its template.
    fn walked(store: &ObjectStore, set: &TemplateSet) -> Vec<u32> {
        (0..store.slot_count())
            .filter(|&s| store.by_slot(s).is_some_and(|o| set.contains(o.template)))
            .map(|s| s as u32)
            .collect()
    }

    /// The members' walk for movement passes over exactly the objects at rest: no goal, no speed, no
    /// cruise. One starting to move, or given a goal, is met again; one come to rest is not.
    #[test]
    fn the_stirring_walk_passes_over_exactly_the_objects_at_rest() {
        use crate::sim::ids::Frame;
        let mut store = ObjectStore::new();
        let ids: Vec<ObjectId> = (0..6).map(|_| store.spawn(obj())).collect();
        store.flush();
        let set = TemplateSet::from_flags(vec![true]);
        let mut members = Members::default();
        store.keep_members(&set, &mut members);
        let met = |store: &mut ObjectStore| {
            let mut met = Vec::new();
            store.for_each_stirring_of_mut(&members, |_, o| met.push(o.id));
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
        /// Objects of several templates come and go over many flushes: after each, the kept
        /// list names exactly the slots a walk of the tags finds, and between flushes it is not
        /// made again.
        #[test]
        fn kept_members_are_the_slots_a_walk_finds(
            rounds in proptest::collection::vec((proptest::collection::vec(0u16..6, 0..12), proptest::collection::vec(0usize..40, 0..8)), 1..30),
            wanted in proptest::collection::vec(0u16..6, 0..4),
        ) {
            let set = TemplateSet::from_flags((0..6).map(|t| wanted.contains(&t)).collect());
            let mut store = ObjectStore::new();
            let mut members = Members::default();
            for (spawns, kills) in rounds {
                for t in spawns {
                    store.spawn(object(t));
                }
                let live: Vec<_> = store.iter().map(|o| o.id).collect();
                for k in kills {
                    if let Some(&id) = live.get(k) {
                        store.destroy(id);
                    }
                }
                store.flush();
                store.keep_members(&set, &mut members);
                let want = walked(&store, &set);
                proptest::prop_assert_eq!(members.slots(), want.as_slice());
                let census = members.census;
                store.keep_members(&set, &mut members);
                proptest::prop_assert_eq!(members.census, census);
            }
        }
    }
}
