//! The object store: slots indexed by [`ObjectId::index`], with generations against reuse.
//!
//! Iteration is always in slot order, which is id order among live objects. Creation and
//! destruction are deferred: [`ObjectStore::spawn`] and [`ObjectStore::destroy`] only queue,
//! and [`ObjectStore::flush`] applies them at the fixed point of the tick.
//!
//! Beside the slots it keeps each slot's owner and template in a compact array (they never
//! change during an object's life), so a scan for one player's objects of one kind (does a
//! prerequisite stand?) reads a few bytes per slot instead of every object.
//!
//! The store also keeps the sum of its objects' digests (see [`ObjectKey`]): objects are added
//! and removed at the flush, and changed only through [`ObjectMut`], so the objects' part of the
//! state hash costs nothing to read. The same handle raises a flag when an object's health
//! falls to zero, so the frame's search for the dead runs only when there can be some.
//! Must not: iterate any hashed container, hand out an object through a stale id, or hand out
//! `&mut Object`.

use super::hash::ObjectKey;
use super::ids::{ObjectId, PlayerId, TemplateId};
use super::object::Object;
use super::object_mut::ObjectMut;
use super::rules::TemplateSet;

#[derive(Clone, Debug, Default)]
struct Slot {
    generation: u32,
    /// The hash key of the object in the slot (set when it arrives).
    key: ObjectKey,
    object: Option<Object>,
}

/// All objects of the world.
#[derive(Clone, Debug, Default)]
pub struct ObjectStore {
    slots: Vec<Slot>,
    /// Per slot, the [`tag`] of its live object, or 0 (empty or reserved).
    tags: Vec<u32>,
    free: Vec<u32>,
    to_spawn: Vec<Object>,
    to_destroy: Vec<ObjectId>,
    live: usize,
    /// Sum of the live objects' digests, kept up to date.
    digest_sum: u64,
    /// Set when an object's health falls to zero or below (through [`ObjectMut`] or on
    /// arrival); cleared by [`ObjectStore::take_fallen`].
    fallen: bool,
    /// Flushes that added or removed an object (see [`ObjectStore::census`]).
    census: u64,
    /// Live objects per owner, by owner index (kept at the flush).
    owned: Vec<u32>,
}

impl ObjectStore {
    /// An empty store.
    pub fn new() -> ObjectStore {
        ObjectStore::default()
    }

    /// The id the next spawned object will get (spawns take ids in queue order).
    fn allocate(&mut self) -> ObjectId {
        // Reuse the lowest free slot so ids stay compact; free is kept sorted descending.
        if let Some(index) = self.free.pop() {
            let slot = &mut self.slots[index as usize];
            ObjectId { index, generation: slot.generation }
        } else {
            self.slots.push(Slot::default());
            self.tags.push(0);
            ObjectId { index: (self.slots.len() - 1) as u32, generation: 0 }
        }
    }

    /// Queues an object for creation at the next flush; returns the id it will have.
    /// The object's own `id` field is overwritten.
    pub fn spawn(&mut self, mut object: Object) -> ObjectId {
        let id = self.allocate();
        object.id = id;
        // Reserve the slot now so a second spawn in the same frame gets another one.
        self.slots[id.index as usize].object = None;
        self.to_spawn.push(object);
        id
    }

    /// Queues an object for removal at the next flush (idempotent).
    pub fn destroy(&mut self, id: ObjectId) {
        if self.get(id).is_some() && !self.to_destroy.contains(&id) {
            self.to_destroy.push(id);
        }
    }

    /// True if `id` is queued for removal at the next flush.
    pub fn is_leaving(&self, id: ObjectId) -> bool {
        self.to_destroy.contains(&id)
    }

    /// Applies queued destructions, then creations; returns the destroyed objects in id order.
    pub fn flush(&mut self) -> Vec<Object> {
        let mut gone = Vec::new();
        let mut ids = std::mem::take(&mut self.to_destroy);
        ids.sort();
        for id in ids {
            let slot = &mut self.slots[id.index as usize];
            if slot.generation == id.generation
                && let Some(obj) = slot.object.take()
            {
                self.digest_sum = self.digest_sum.wrapping_sub(obj.digest(slot.key));
                self.tags[id.index as usize] = 0;
                if let Some(n) = self.owned.get_mut(obj.owner.index()) {
                    *n -= 1;
                }
                slot.generation = slot.generation.wrapping_add(1);
                self.free.push(id.index);
                self.live -= 1;
                gone.push(obj);
            }
        }
        self.free.sort_unstable_by(|a, b| b.cmp(a));
        if !gone.is_empty() || !self.to_spawn.is_empty() {
            self.census += 1;
        }
        for obj in std::mem::take(&mut self.to_spawn) {
            let slot = &mut self.slots[obj.id.index as usize];
            slot.key = ObjectKey::of(obj.id.to_bits());
            self.digest_sum = self.digest_sum.wrapping_add(obj.digest(slot.key));
            self.tags[obj.id.index as usize] = tag(obj.owner, obj.template);
            let owner = obj.owner.index();
            if self.owned.len() <= owner {
                self.owned.resize(owner + 1, 0);
            }
            self.owned[owner] += 1;
            self.fallen |= obj.health <= 0;
            slot.object = Some(obj);
            self.live += 1;
        }
        gone
    }

    /// Whether some object's health has fallen to zero or below since the last call (so a scan
    /// for the dead can be skipped when none has); clears the flag.
    pub fn take_fallen(&mut self) -> bool {
        std::mem::take(&mut self.fallen)
    }

    /// True if `id` was spawned this frame and appears at the next flush.
    pub fn is_arriving(&self, id: ObjectId) -> bool {
        self.to_spawn.iter().any(|o| o.id == id)
    }

    /// The live object with this id, if the id is current.
    pub fn get(&self, id: ObjectId) -> Option<&Object> {
        self.slots.get(id.index as usize).filter(|s| s.generation == id.generation).and_then(|s| s.object.as_ref())
    }

    /// Write access by id.
    pub fn get_mut(&mut self, id: ObjectId) -> Option<ObjectMut<'_>> {
        let slot = self.slots.get_mut(id.index as usize).filter(|s| s.generation == id.generation)?;
        let object = slot.object.as_mut()?;
        Some(ObjectMut::new(object, slot.key, &mut self.digest_sum, &mut self.fallen))
    }

    /// Live objects in id order.
    pub fn iter(&self) -> impl Iterator<Item = &Object> {
        self.slots.iter().filter_map(|s| s.object.as_ref())
    }

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

    /// Whether `slot` holds a live object whose template is in `set` (read from the compact
    /// per-slot array: for a system that walks the slots and changes objects as it goes).
    #[inline(always)]
    pub fn slot_in(&self, slot: usize, set: &TemplateSet) -> bool {
        self.tags.get(slot).is_some_and(|&t| t != 0 && set.contains(tag_template(t)))
    }

    /// Calls `f` with the slot of, and write access to, each live object whose template is in
    /// `set`, in slot order (the templates read from the compact per-slot array): one walk for
    /// a system that changes each of its objects and no other.
    #[inline(always)]
    pub fn for_each_in_mut(&mut self, set: &TemplateSet, mut f: impl FnMut(usize, ObjectMut<'_>)) {
        let (sum, fallen) = (&mut self.digest_sum, &mut self.fallen);
        for (slot, (&t, s)) in self.tags.iter().zip(self.slots.iter_mut()).enumerate() {
            if t != 0
                && set.contains(tag_template(t))
                && let Some(object) = s.object.as_mut()
            {
                f(slot, ObjectMut::new(object, s.key, sum, fallen));
            }
        }
    }

    /// Live objects whose owner `keep` accepts, in id order: owners are read from the compact
    /// per-slot array, so other players' objects are never touched.
    pub fn of_owners(&self, keep: impl Fn(PlayerId) -> bool) -> impl Iterator<Item = &Object> {
        self.tagged(move |t| t != 0 && keep(tag_owner(t)))
    }

    /// How many live objects `owner` has (counted at the flush, not by a scan).
    pub fn owned_count(&self, owner: PlayerId) -> usize {
        self.owned.get(owner.index()).map_or(0, |&n| n as usize)
    }

    /// The live objects whose slot's tag `keep` accepts, in id order (the scans by tag share
    /// this walk: only the tags are read until one is accepted).
    fn tagged(&self, keep: impl Fn(u32) -> bool) -> impl Iterator<Item = &Object> {
        self.tags.iter().zip(&self.slots).filter(move |&(&t, _)| keep(t)).filter_map(|(_, s)| s.object.as_ref())
    }

    /// Number of live objects.
    pub fn len(&self) -> usize {
        self.live
    }

    /// True when no object is alive.
    pub fn is_empty(&self) -> bool {
        self.live == 0
    }

    /// One past the highest slot index ever used (for per-slot scratch arrays).
    pub fn slot_count(&self) -> usize {
        self.slots.len()
    }

    /// Each slot's live object, if any, in slot order (one walk where a system would ask
    /// [`ObjectStore::by_slot`] for every slot).
    pub fn slots(&self) -> impl Iterator<Item = Option<&Object>> {
        self.slots.iter().map(|s| s.object.as_ref())
    }

    /// The live object in a slot, whatever its generation.
    pub fn by_slot(&self, index: usize) -> Option<&Object> {
        self.slots.get(index).and_then(|s| s.object.as_ref())
    }

    /// Write access to the live object in a slot.
    pub fn by_slot_mut(&mut self, index: usize) -> Option<ObjectMut<'_>> {
        let slot = self.slots.get_mut(index)?;
        let object = slot.object.as_mut()?;
        Some(ObjectMut::new(object, slot.key, &mut self.digest_sum, &mut self.fallen))
    }

    /// Which generation of the store's membership this is: it changes at each flush that adds
    /// or removes an object, and only then. While it stands, every slot holds the same object
    /// (or none) as before, so a system may keep what it gathered about which slots hold what
    /// (owners, templates, radii) and re-read only what objects change.
    pub fn census(&self) -> u64 {
        self.census
    }

    /// The sum of the live objects' digests, as kept up to date.
    pub fn digest_sum(&self) -> u64 {
        self.digest_sum
    }

    /// The same sum recomputed from every object's fields (for checking the kept one).
    pub fn recompute_digest_sum(&self) -> u64 {
        self.slots.iter().filter_map(|s| s.object.as_ref().map(|o| o.digest(s.key))).fold(0, u64::wrapping_add)
    }
}

/// Tags read at a time by [`ObjectStore::next_in`] for a set of a few templates.
const SCAN_BLOCK: usize = 32;

/// A live object's tag: a presence bit, its owner and its template (0 stands for no object).
const fn tag(owner: PlayerId, template: TemplateId) -> u32 {
    1 << 24 | (owner.0 as u32) << 16 | template.0 as u32
}

/// The owner a tag names.
const fn tag_owner(tag: u32) -> PlayerId {
    PlayerId((tag >> 16) as u8)
}

/// The template a tag names.
const fn tag_template(tag: u32) -> TemplateId {
    TemplateId(tag as u16)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::angle::Angle;
    use crate::sim::fixed::Fixed;
    use crate::sim::ids::{PlayerId, TemplateId};
    use crate::sim::object::{Nav, Order};
    use crate::sim::rules::ObjectKind;
    use crate::sim::vector::Vec2;

    fn obj() -> Object {
        Object {
            id: ObjectId { index: 0, generation: 0 },
            template: TemplateId(0),
            owner: PlayerId(0),
            kind: ObjectKind::Infantry,
            pos: Vec2::ZERO,
            facing: Angle::ZERO,
            speed: Fixed::ZERO,
            health: 10,
            order: Order::Idle,
            nav: Nav::default(),
            target: None,
            cooldown: 0,
            construction: None,
            cargo: 0,
            work: 0,
            supply: 0,
            xp: 0,
            powered_down: false,
            repairing: false,
        }
    }

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
        let by_slot: Vec<ObjectId> = (0..store.slot_count() + 1)
            .filter(|&s| store.slot_in(s, &set))
            .filter_map(|s| store.by_slot(s))
            .map(|o| o.id)
            .collect();
        assert_eq!(by_slot, walked, "slot_in agrees, and the reserved slot of the unflushed spawn is not in");
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
    fn a_fall_to_zero_health_is_flagged_however_it_happens() {
        let mut store = ObjectStore::new();
        let a = store.spawn(obj());
        store.flush();
        assert!(!store.take_fallen(), "a healthy arrival raises nothing");
        store.get_mut(a).unwrap().set_health(5);
        assert!(!store.take_fallen(), "wounded, not fallen");
        store.get_mut(a).unwrap().set_health(0);
        assert!(store.take_fallen());
        assert!(!store.take_fallen(), "taking the flag clears it");
        store.get_mut(a).unwrap().change(|o| o.health = -3);
        assert!(store.take_fallen(), "a many-field change that kills is seen too");
        store.spawn(Object { health: 0, ..obj() });
        store.flush();
        assert!(store.take_fallen(), "so is an arrival with no health");
    }

    #[test]
    fn creation_and_destruction_wait_for_flush_and_ids_are_not_reused() {
        let mut store = ObjectStore::new();
        let a = store.spawn(obj());
        let b = store.spawn(obj());
        assert_ne!(a, b);
        assert!(store.get(a).is_none());
        store.flush();
        assert_eq!(store.len(), 2);
        store.destroy(a);
        assert!(store.get(a).is_some());
        store.flush();
        assert!(store.get(a).is_none());
        let c = store.spawn(obj());
        store.flush();
        assert_eq!(c.index, a.index);
        assert_ne!(c, a);
        assert!(store.get(a).is_none(), "a stale id must not reach the new object");
        assert!(store.get(c).is_some());
        let ids: Vec<_> = store.iter().map(|o| o.id).collect();
        assert_eq!(ids, vec![c, b]);
    }

    /// Applies `f` to a live object through its write handle (dropped before returning).
    fn edit(store: &mut ObjectStore, id: ObjectId, f: impl FnOnce(&mut ObjectMut)) {
        let Some(mut o) = store.get_mut(id) else { panic!("{id} is live") };
        f(&mut o);
    }

    #[test]
    fn the_kept_digest_sum_follows_every_change() {
        let mut store = ObjectStore::new();
        assert_eq!(store.digest_sum(), 0);
        let a = store.spawn(obj());
        let b = store.spawn(obj());
        store.flush();
        assert_ne!(store.digest_sum(), 0);
        let mut seen = Vec::new();
        let mut check = |store: &ObjectStore| {
            assert_eq!(store.digest_sum(), store.recompute_digest_sum());
            assert!(!seen.contains(&store.digest_sum()), "every change shows");
            seen.push(store.digest_sum());
        };
        check(&store);
        edit(&mut store, a, |o| o.set_pos(Vec2::from_int(3, 4)));
        check(&store);
        // The same value on another object is another change.
        edit(&mut store, b, |o| o.set_pos(Vec2::from_int(3, 4)));
        check(&store);
        edit(&mut store, a, |o| {
            o.set_facing(Angle(1000));
            o.set_speed(Fixed::from_int(2));
            o.set_health(7);
            o.set_cooldown(9);
            o.set_target(Some(b));
        });
        check(&store);
        edit(&mut store, b, |o| {
            o.set_order(Order::Move { goal: Vec2::from_int(50, 60) });
            o.change(|o| {
                o.nav.goal = Some(Vec2::from_int(50, 60));
                o.nav.waypoints = vec![Vec2::from_int(10, 10), Vec2::from_int(50, 60)];
            });
        });
        check(&store);
        edit(&mut store, b, |o| {
            o.advance_waypoint();
            o.set_progress(Fixed::from_int(12), 3);
        });
        check(&store);
        edit(&mut store, b, |o| o.clear_nav());
        check(&store);
        store.destroy(a);
        store.flush();
        check(&store);
        store.destroy(b);
        store.flush();
        assert_eq!(store.digest_sum(), 0, "an empty store sums to zero");
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
