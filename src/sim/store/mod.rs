//! The object store: slots indexed by [`ObjectId::index`], with generations against reuse.
//!
//! Iteration is always in slot order, which is id order among live objects. Creation and
//! destruction are deferred: [`ObjectStore::spawn`] and [`ObjectStore::destroy`] only queue,
//! and [`ObjectStore::flush`] applies them at the fixed point of the tick.
//!
//! Beside the slots it keeps each slot's owner and template in a compact array (they never
//! change during an object's life), so a scan for one player's objects of one kind (does a
//! prerequisite stand?) reads a few bytes per slot instead of every object: the scans are in
//! `scan.rs`. It counts each owner's objects, and its census changes exactly at a flush that
//! adds or removes one.
//!
//! A second compact array keeps each object's [`Place`]: where it stands, and where it is bound
//! (its destination while it has one, else where it stands; see [`ObjectStore::bound_near`]);
//! [`ObjectMut`] keeps it as the object moves or is given a goal. A walk over every object's
//! position (vision's, each frame) reads it instead of the objects.
//!
//! The store also keeps the sum of its objects' digests (see [`ObjectKey`]): objects are added
//! and removed at the flush, and changed only through [`ObjectMut`], so the objects' part of the
//! state hash costs nothing to read. The same handle raises a flag when an object's health
//! falls to zero, so the frame's search for the dead runs only when there can be some.
//! Must not: iterate any hashed container, hand out an object through a stale id, or hand out
//! `&mut Object`.

use super::hash::ObjectKey;
use super::ids::{ObjectId, PlayerId};
use super::object::Object;
use super::object_mut::ObjectMut;
pub use super::place::{Keyed, Place};
use super::vector::Vec2;

mod marks;
mod members;
mod scan;

pub use marks::Marks;
pub use members::Members;
use scan::tag;

/// A slot starts a cache line (it is four long): what a system reads of an object then spans
/// the fewest lines (combat's fields two, where a slot across lines meant three).
#[derive(Clone, Debug, Default, serde::Serialize, serde::Deserialize)]
#[repr(align(64))]
struct Slot {
    generation: u32,
    /// The hash key of the object in the slot (set when it arrives).
    key: ObjectKey,
    object: Option<Object>,
}

/// All objects of the world.
#[derive(Clone, Debug, Default, serde::Serialize, serde::Deserialize)]
pub struct ObjectStore {
    slots: Vec<Slot>,
    /// Per slot, the [`tag`] of its live object, or 0 (empty or reserved).
    tags: Vec<u32>,
    /// Per slot, where its live object stands and is bound; meaningless for a slot whose tag
    /// is 0.
    places: Vec<Place>,
    /// Per slot, its live object's hash key and whether it has a goal (see [`Keyed`]);
    /// meaningless for a slot whose tag is 0. Not saved: made again from the slots when first
    /// needed after a load (see [`ObjectStore::keep_keyed`]).
    #[serde(skip)]
    keyed: Vec<Keyed>,
    free: Vec<u32>,
    to_spawn: Vec<Object>,
    to_destroy: Vec<ObjectId>,
    live: usize,
    /// Sum of the live objects' digests, kept up to date.
    digest_sum: u64,
    /// Whether an object's health fell to zero or below (through [`ObjectMut`] or on arrival;
    /// cleared by [`ObjectStore::take_fallen`]), and how many powered structures were finished
    /// or switched (see [`ObjectStore::power_marks`]).
    marks: Marks,
    /// Flushes that added or removed an object (see [`ObjectStore::census`]).
    census: u64,
    /// Flushes that added an object (see [`ObjectStore::arrivals`]). Not saved: a loaded
    /// world's systems keep nothing from before, so they read it afresh.
    #[serde(skip)]
    arrivals: u64,
    /// Live objects per owner, by owner index (kept at the flush).
    owned: Vec<u32>,
}

impl ObjectStore {
    /// An empty store.
    pub fn new() -> ObjectStore {
        ObjectStore::default()
    }

    /// Makes the per-slot [`Keyed`] records again from the slots when they are missing (a
    /// loaded store has none); the write path and the flush call it first.
    #[inline(always)]
    fn keep_keyed(&mut self) {
        if self.keyed.len() != self.slots.len() {
            self.remake_keyed();
        }
    }

    #[cold]
    fn remake_keyed(&mut self) {
        let keyed = |s: &Slot| s.object.as_ref().map_or(Keyed::default(), |o| Keyed::of(s.key, o));
        self.keyed = self.slots.iter().map(keyed).collect();
    }

    /// The id the next spawned object will get (spawns take ids in queue order).
    fn allocate(&mut self) -> ObjectId {
        self.keep_keyed();
        // Reuse the lowest free slot so ids stay compact; free is kept sorted descending.
        if let Some(index) = self.free.pop() {
            let slot = &mut self.slots[index as usize];
            ObjectId { index, generation: slot.generation }
        } else {
            self.slots.push(Slot::default());
            self.tags.push(0);
            self.places.push(Place::default());
            self.keyed.push(Keyed::default());
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
        self.keep_keyed();
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
                self.marks.requeued(!obj.queue.is_empty(), false);
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
        if !self.to_spawn.is_empty() {
            self.arrivals += 1;
        }
        for obj in std::mem::take(&mut self.to_spawn) {
            let slot = &mut self.slots[obj.id.index as usize];
            slot.key = ObjectKey::of(obj.id.to_bits());
            self.digest_sum = self.digest_sum.wrapping_add(obj.digest(slot.key));
            self.tags[obj.id.index as usize] = tag(obj.owner, obj.template);
            self.places[obj.id.index as usize] = Place::of(&obj);
            self.keyed[obj.id.index as usize] = Keyed::of(slot.key, &obj);
            let owner = obj.owner.index();
            if self.owned.len() <= owner {
                self.owned.resize(owner + 1, 0);
            }
            self.owned[owner] += 1;
            self.marks.fallen |= obj.health <= 0;
            self.marks.requeued(false, !obj.queue.is_empty());
            slot.object = Some(obj);
            self.live += 1;
        }
        gone
    }

    /// Whether some object's health has fallen to zero or below since the last call (so a scan
    /// for the dead can be skipped when none has); clears the flag.
    pub fn take_fallen(&mut self) -> bool {
        std::mem::take(&mut self.marks.fallen)
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
        self.keep_keyed();
        let slot = self.slots.get_mut(id.index as usize).filter(|s| s.generation == id.generation)?;
        let object = slot.object.as_mut()?;
        let (place, keyed) = (self.places.get_mut(id.index as usize)?, self.keyed.get_mut(id.index as usize)?);
        Some(ObjectMut::new(object, keyed, place, &mut self.digest_sum, &mut self.marks))
    }

    /// Live objects in id order.
    pub fn iter(&self) -> impl Iterator<Item = &Object> {
        self.slots.iter().filter_map(|s| s.object.as_ref())
    }

    /// How many live objects `owner` has (counted at the flush, not by a scan).
    pub fn owned_count(&self, owner: PlayerId) -> usize {
        self.owned.get(owner.index()).map_or(0, |&n| n as usize)
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
        self.keep_keyed();
        let object = self.slots.get_mut(index)?.object.as_mut()?;
        let (place, keyed) = (self.places.get_mut(index)?, self.keyed.get_mut(index)?);
        Some(ObjectMut::new(object, keyed, place, &mut self.digest_sum, &mut self.marks))
    }

    /// Which generation of the store's membership this is: it changes at each flush that adds
    /// or removes an object, and only then. While it stands, every slot holds the same object
    /// (or none) as before, so a system may keep what it gathered about which slots hold what
    /// (owners, templates, radii) and re-read only what objects change.
    pub fn census(&self) -> u64 {
        self.census
    }

    /// How many flushes have added an object: it changes at each flush that adds one, and only
    /// then. While it stands (and the [`ObjectStore::census`] moved on), objects only left: a
    /// slot that held an object holds it still or is empty, and an empty one stays empty, so a
    /// system may keep what it gathered and drop the slots whose tag is gone.
    pub fn arrivals(&self) -> u64 {
        self.arrivals
    }

    /// True if the slot holds a live object (read from the compact per-slot array).
    #[inline(always)]
    pub fn is_live(&self, index: usize) -> bool {
        self.tags.get(index).is_some_and(|&t| t != 0)
    }

    /// The sum of the live objects' digests, as kept up to date.
    pub fn digest_sum(&self) -> u64 {
        self.digest_sum
    }

    /// True if every live object's kept place, and kept key and goal (where kept), are what its
    /// fields say (for checking).
    pub fn places_hold(&self) -> bool {
        let tagged = self.slots.iter().zip(&self.tags).all(|(s, &t)| s.object.is_some() == (t != 0));
        let keyed = self.keyed.is_empty()
            || self
                .slots
                .iter()
                .zip(&self.keyed)
                .all(|(s, k)| s.object.as_ref().is_none_or(|o| Keyed::of(s.key, o) == *k));
        tagged
            && keyed
            && self.slots.iter().zip(&self.places).all(|(s, p)| s.object.as_ref().is_none_or(|o| Place::of(o) == *p))
    }

    /// Each slot's live object's position, if any, in slot order, read from the compact
    /// per-slot arrays (no object is touched).
    pub fn positions(&self) -> impl Iterator<Item = Option<Vec2>> {
        self.tags.iter().zip(&self.places).map(|(&t, p)| (t != 0).then_some(p.pos))
    }

    /// True if some object's health may have fallen to zero or below since the flag was last
    /// taken ([`ObjectStore::take_fallen`], which this leaves as it is): while false, every
    /// live object has health above zero.
    pub fn may_have_fallen(&self) -> bool {
        self.marks.fallen
    }

    /// How many times a structure that may make or use power was finished or switched off or
    /// on (through [`ObjectMut`]) since the store was made or loaded: while this and the
    /// [`ObjectStore::census`] stand, every player's power balance stands too.
    pub fn power_marks(&self) -> u64 {
        self.marks.power
    }

    /// How many live objects have orders queued (counted as queues fill and empty; counted
    /// afresh when first asked after a load).
    pub fn queued(&mut self) -> usize {
        let n = match self.marks.queued {
            Some(n) => n,
            None => {
                let n = self.iter().filter(|o| !o.queue.is_empty()).count() as u32;
                self.marks.queued = Some(n);
                n
            }
        };
        n as usize
    }

    /// True if the kept count of objects with orders queued is right, or not kept (for
    /// checking).
    pub fn queued_holds(&self) -> bool {
        self.marks.queued.is_none_or(|n| n as usize == self.iter().filter(|o| !o.queue.is_empty()).count())
    }

    /// The position of the live object in a slot, read from the compact per-slot arrays (the
    /// object is not touched); none for an empty or reserved slot.
    #[inline(always)]
    pub fn pos_in_slot(&self, index: usize) -> Option<Vec2> {
        match (self.tags.get(index), self.places.get(index)) {
            (Some(&t), Some(p)) if t != 0 => Some(p.pos),
            _ => None,
        }
    }

    /// The same sum recomputed from every object's fields (for checking the kept one).
    pub fn recompute_digest_sum(&self) -> u64 {
        self.slots.iter().filter_map(|s| s.object.as_ref().map(|o| o.digest(s.key))).fold(0, u64::wrapping_add)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::angle::Angle;
    use crate::sim::fixed::Fixed;
    use crate::sim::ids::{PlayerId, TemplateId};
    use crate::sim::object::Order;
    use crate::sim::rules::ObjectKind;
    use crate::sim::vector::Vec2;

    /// A unit of template 0, player 0, at the origin: an infantryman with 10 health.
    pub(super) fn obj() -> Object {
        let template = &crate::sim::test_support::rules().templates[0];
        let unit = Object::new(TemplateId(0), PlayerId(0), template, Vec2::ZERO, Angle::ZERO);
        Object { kind: ObjectKind::Infantry, health: 10, ..unit }
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

    /// The waypoint a handle reads from the store's record is the object's path's current one
    /// as the path is given, stepped along, run to its end and replaced, and after a load.
    #[test]
    fn the_kept_waypoint_follows_the_path() {
        let mut store = ObjectStore::new();
        let a = store.spawn(obj());
        store.flush();
        let path = vec![Vec2::from_int(10, 10), Vec2::from_int(50, 60)];
        let seen = |store: &mut ObjectStore| {
            let o = store.get_mut(a).unwrap();
            assert_eq!(o.current_waypoint(), o.nav.current_waypoint());
            o.current_waypoint()
        };
        assert_eq!(seen(&mut store), None, "no path");
        edit(&mut store, a, |o| o.change(|o| o.nav.waypoints = path.clone()));
        assert_eq!(seen(&mut store), Some(path[0]));
        edit(&mut store, a, |o| o.advance_waypoint());
        assert_eq!(seen(&mut store), Some(path[1]));
        let text = serde_json::to_string(&store).unwrap();
        let mut loaded: ObjectStore = serde_json::from_str(&text).unwrap();
        assert_eq!(seen(&mut loaded), Some(path[1]), "remade after a load");
        edit(&mut store, a, |o| o.advance_waypoint());
        assert_eq!(seen(&mut store), None, "past the end");
        edit(&mut store, a, |o| o.change(|o| (o.nav.waypoints, o.nav.next) = (vec![Vec2::from_int(7, 7)], 0)));
        assert_eq!(seen(&mut store), Some(Vec2::from_int(7, 7)), "a new path");
        assert!(store.places_hold());
    }

    /// A loaded store has no per-slot keys and goal marks (they are not saved): it makes them
    /// again, so a move after the load keeps the hash sum and where a unit with a goal is bound,
    /// and one without a goal is bound where it now stands.
    #[test]
    fn a_loaded_store_remakes_its_keys_and_goal_marks() {
        let mut store = ObjectStore::new();
        let a = store.spawn(obj());
        let b = store.spawn(obj());
        store.flush();
        edit(&mut store, a, |o| o.change(|o| o.nav.goal = Some(Vec2::from_int(40, 40))));
        let text = serde_json::to_string(&store).unwrap();
        let mut loaded: ObjectStore = serde_json::from_str(&text).unwrap();
        assert!(loaded.keyed.is_empty(), "the keys are not saved");
        edit(&mut loaded, a, |o| o.set_pos(Vec2::from_int(5, 5)));
        edit(&mut loaded, b, |o| o.set_pos(Vec2::from_int(7, 7)));
        assert_eq!(loaded.keyed.len(), loaded.slot_count());
        assert!(loaded.places_hold());
        assert_eq!(loaded.digest_sum(), loaded.recompute_digest_sum());
        let bound = |s: &ObjectStore, id: ObjectId| s.places[id.index as usize].bound;
        assert_eq!(bound(&loaded, a), Vec2::from_int(40, 40), "bound for its goal still");
        assert_eq!(bound(&loaded, b), Vec2::from_int(7, 7), "bound where it stands");
        let c = loaded.spawn(obj());
        loaded.flush();
        edit(&mut loaded, c, |o| o.set_pos(Vec2::from_int(9, 9)));
        assert!(loaded.places_hold(), "a slot added after the load is kept too");
    }

    proptest::proptest! {
        /// Under any mix of arrivals, departures, moves and queues filling and emptying, the
        /// compact columns answer as the objects do: each slot's position, and the count of
        /// objects with orders queued (kept, and counted afresh after a load).
        #[test]
        fn the_compact_columns_follow_the_objects(ops in proptest::collection::vec((0u8..5, 0usize..40, -50i64..50), 1..120)) {
            use crate::sim::command::{Point, Queued};
            let mut store = ObjectStore::new();
            for (op, pick, v) in ops {
                let live: Vec<ObjectId> = store.iter().map(|o| o.id).collect();
                let target = (!live.is_empty()).then(|| live[pick % live.len()]);
                match (op, target) {
                    (0, _) | (_, None) => {
                        store.spawn(Object { pos: Vec2::from_int(v, -v), ..obj() });
                    }
                    (1, Some(id)) => store.destroy(id),
                    (2, Some(id)) => edit(&mut store, id, |o| o.set_pos(Vec2::from_int(v, v * 2))),
                    (3, Some(id)) => {
                        let to = Point { x: v as i32, y: 0 };
                        let queue = if v < 0 { Vec::new() } else { vec![Queued::Move { to }; (v % 3) as usize] };
                        edit(&mut store, id, |o| o.set_queue(queue));
                    }
                    _ => {
                        store.flush();
                    }
                }
                for slot in 0..store.slot_count() {
                    proptest::prop_assert_eq!(store.pos_in_slot(slot), store.by_slot(slot).map(|o| o.pos));
                }
                proptest::prop_assert!(store.places_hold());
                proptest::prop_assert!(store.queued_holds());
                let queued = store.iter().filter(|o| !o.queue.is_empty()).count();
                let mut loaded = store.clone();
                loaded.marks = Marks::from(loaded.marks.fallen);
                proptest::prop_assert_eq!(loaded.queued(), queued, "counted afresh");
                proptest::prop_assert_eq!(store.queued(), queued);
            }
        }
    }
}
