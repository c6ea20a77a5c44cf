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

    /// Calls `f` with the slot of, and write access to, each of `members` not at rest (see
    /// [`crate::sim::place::at_rest`]), in slot order: [`ObjectStore::for_each_stirring_in_mut`]
    /// for a set whose members are kept (`members` brought up to date this frame), reading only
    /// the members' records instead of every slot's.
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
    use crate::sim::ids::{PlayerId, TemplateId};
    use crate::sim::object::Object;

    fn object(template: u16) -> Object {
        Object { owner: PlayerId((template % 3) as u8), template: TemplateId(template), ..obj() }
    }

    /// The slots `next_in` visits, walked one by one.
    fn walked(store: &ObjectStore, set: &TemplateSet) -> Vec<u32> {
        let (mut out, mut next) = (Vec::new(), 0);
        while let Some(slot) = store.next_in(next, set) {
            out.push(slot as u32);
            next = slot + 1;
        }
        out
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
                let (mut kept, mut scanned) = (Vec::new(), Vec::new());
                store.for_each_stirring_of_mut(&members, |slot, _| kept.push(slot));
                store.for_each_stirring_in_mut(&set, |slot, _| scanned.push(slot));
                proptest::prop_assert_eq!(kept, scanned);
            }
        }
    }
}
