//! The one way to change a live object: a handle that updates the objects' hash sum with every
//! change it makes.
//!
//! Hot fields (position, facing, speed, health, cooldown, target, progress along the path) are
//! updated with one multiply each (see [`ObjectKey`]); rare, many-field changes (orders,
//! routes) go through [`ObjectMut::change`], which recomputes the object's digest before and
//! after. Either way the store's records of where the object stands and is bound, and of
//! whether it has a goal, follow it (a move reads them rather than the object).
//! Debug builds check the sum (and that record) against a full recomputation after every tick.
//! Must not: let a caller reach `&mut Object` (a change made there would escape the hash).

use std::ops::Deref;

use super::angle::Angle;
use super::fixed::Fixed;
use super::hash::{Field, ObjectKey};
use super::ids::{Frame, ObjectId};
use super::object::{Nav, Object, Order, encode};
use super::place::{Keyed, Place, at_rest};
use super::store::Marks;
use super::vector::Vec2;

/// Write access to one live object, keeping the store's digest sum up to date.
pub struct ObjectMut<'a> {
    object: &'a mut Object,
    key: ObjectKey,
    /// The store's record of where the object stands and is bound.
    place: &'a mut Place,
    /// The store's record of whether the object has a goal and is at rest.
    keyed: &'a mut Keyed,
    sum: &'a mut u64,
    /// The store's marks: some object's health fell to zero or below; a power state changed.
    marks: &'a mut Marks,
    /// Changes not yet added to `sum` (kept in a register; added when the handle drops).
    pending: u64,
}

impl Drop for ObjectMut<'_> {
    #[inline(always)]
    fn drop(&mut self) {
        // Most handles in the combat pass change nothing; skip the store for them.
        if self.pending != 0 {
            *self.sum = self.sum.wrapping_add(self.pending);
        }
    }
}

/// False only in the measurement build (feature `hash-upkeep-off`).
const KEEP_HASH: bool = !cfg!(feature = "hash-upkeep-off");

impl Deref for ObjectMut<'_> {
    type Target = Object;

    fn deref(&self) -> &Object {
        self.object
    }
}

impl<'a> ObjectMut<'a> {
    /// Wraps an object of the store (only the store makes these).
    pub(super) fn new(
        object: &'a mut Object,
        keyed: &'a mut Keyed,
        place: &'a mut Place,
        sum: &'a mut u64,
        marks: &'a mut Marks,
    ) -> ObjectMut<'a> {
        let key = keyed.key;
        ObjectMut { object, key, place, keyed, sum, marks, pending: 0 }
    }

    #[inline(always)]
    fn account(&mut self, field: Field, old: u64, new: u64) {
        if KEEP_HASH {
            self.pending = self.pending.wrapping_add(self.key.delta(field, old, new));
        }
    }

    /// The waypoint the object steers toward ([`Nav::current_waypoint`]), read from the store's
    /// record of it rather than from the path the object keeps on the heap.
    #[inline(always)]
    pub fn current_waypoint(&self) -> Option<Vec2> {
        self.keyed.has_waypoint.then_some(self.keyed.waypoint)
    }

    /// Moves the object.
    #[inline(always)]
    pub fn set_pos(&mut self, pos: Vec2) {
        // The old position and whether there is a goal come from the store's compact records,
        // so a move only writes to the object (separation's pushes, thousands a frame in a
        // battle, wait on no read of it).
        let old = self.place.pos;
        self.account(Field::PosX, encode::fixed(old.x), encode::fixed(pos.x));
        self.account(Field::PosY, encode::fixed(old.y), encode::fixed(pos.y));
        self.object.pos = pos;
        // A unit on its way is bound for its goal, which a move leaves as it is.
        self.place.pos = pos;
        if !self.keyed.has_goal {
            self.place.bound = pos;
        }
    }

    /// Turns the object.
    #[inline(always)]
    pub fn set_facing(&mut self, facing: Angle) {
        // Unchanged most frames (moving straight): skip the multiply.
        if facing != self.object.facing {
            self.account(Field::Facing, self.object.facing.0 as u64, facing.0 as u64);
            self.object.facing = facing;
        }
    }

    /// Sets the current speed.
    #[inline(always)]
    pub fn set_speed(&mut self, speed: Fixed) {
        // Unchanged most frames (at cruising speed or standing): skip the multiply.
        if speed != self.object.speed {
            self.account(Field::Speed, encode::fixed(self.object.speed), encode::fixed(speed));
            self.object.speed = speed;
            self.keyed.at_rest = at_rest(self.keyed.has_goal, speed, self.object);
        }
    }

    /// Sets health (at or below zero the object is destroyed at the end of the frame).
    #[inline(always)]
    pub fn set_health(&mut self, health: i32) {
        self.account(Field::Health, encode::health(self.object.health), encode::health(health));
        self.object.health = health;
        if health <= 0 {
            self.marks.fallen = true;
        }
    }

    /// Sets the frames until the weapon may fire again.
    #[inline(always)]
    pub fn set_cooldown(&mut self, cooldown: u32) {
        if cooldown != self.object.cooldown {
            self.account(Field::Cooldown, self.object.cooldown as u64, cooldown as u64);
            self.object.cooldown = cooldown;
        }
    }

    /// Sets the enemy being engaged.
    #[inline(always)]
    pub fn set_target(&mut self, target: Option<ObjectId>) {
        if target != self.object.target {
            self.account(Field::Target, encode::target(self.object.target), encode::target(target));
            self.object.target = target;
        }
    }

    /// Records progress toward the next waypoint: the closest distance seen and the frames
    /// spent without getting closer.
    #[inline(always)]
    pub fn set_progress(&mut self, best_distance: Fixed, stuck_frames: u32) {
        // Each frame one of the two changes, rarely both: skip the other's multiply.
        let nav = &self.object.nav;
        let (old_best, old_stuck) = (nav.best_distance, nav.stuck_frames);
        if best_distance != old_best {
            self.account(Field::NavBest, encode::fixed(old_best), encode::fixed(best_distance));
            self.object.nav.best_distance = best_distance;
        }
        if stuck_frames != old_stuck {
            self.account(Field::NavStuck, old_stuck as u64, stuck_frames as u64);
            self.object.nav.stuck_frames = stuck_frames;
        }
    }

    /// Makes the following waypoint the next one, with fresh progress.
    pub fn advance_waypoint(&mut self) {
        let nav = &self.object.nav;
        let len = nav.waypoints.len();
        let old = encode::path(len, nav.next);
        let new = encode::path(len, nav.next + 1);
        self.account(Field::NavPath, old, new);
        self.object.nav.next += 1;
        let waypoint = self.object.nav.current_waypoint();
        (self.keyed.has_waypoint, self.keyed.waypoint) = (waypoint.is_some(), waypoint.unwrap_or(Vec2::ZERO));
        self.set_progress(Fixed::MAX, 0);
    }

    /// Sets the construction work left (none: finished).
    pub fn set_construction(&mut self, left: Option<u32>) {
        if left.is_none() != self.object.construction.is_none() {
            // Finished (or unfinished again): what it makes or uses of power counts, or stops.
            self.marks.power = self.marks.power.wrapping_add(1);
        }
        if left != self.object.construction {
            self.account(
                Field::Construction,
                encode::construction(self.object.construction),
                encode::construction(left),
            );
            self.object.construction = left;
        }
    }

    /// Sets a gatherer's load.
    pub fn set_cargo(&mut self, cargo: u32) {
        if cargo != self.object.cargo {
            self.account(Field::Cargo, self.object.cargo as u64, cargo as u64);
            self.object.cargo = cargo;
        }
    }

    /// Sets a gatherer's loading time so far.
    pub fn set_work(&mut self, work: u32) {
        if work != self.object.work {
            self.account(Field::Work, self.object.work as u64, work as u64);
            self.object.work = work;
        }
    }

    /// Sets the money left in a supply pile.
    pub fn set_supply(&mut self, supply: u32) {
        if supply != self.object.supply {
            self.account(Field::Supply, self.object.supply as u64, supply as u64);
            self.object.supply = supply;
        }
    }

    /// Sets the standing order.
    pub fn set_order(&mut self, order: Order) {
        if order != self.object.order {
            self.change(|o| o.order = order);
        }
    }

    /// Replaces the orders queued after the standing one.
    pub fn set_queue(&mut self, queue: Vec<super::command::Queued>) {
        if queue != self.object.queue {
            self.change(|o| o.queue = queue);
        }
    }

    /// Sets the worth of the enemies it has destroyed.
    pub fn set_xp(&mut self, xp: u32) {
        if xp != self.object.xp {
            self.account(Field::Xp, self.object.xp as u64, xp as u64);
            self.object.xp = xp;
        }
    }

    /// Starts cruising: `step` each frame, steering again on frame `until` (the default step
    /// and frame: stops cruising).
    #[inline(always)]
    pub fn set_cruise(&mut self, step: Vec2, until: Frame) {
        let nav = &self.object.nav;
        if (step, until) != (nav.cruise, nav.cruise_until) {
            self.account(Field::NavCruise, encode::cruise(nav.cruise, nav.cruise_until), encode::cruise(step, until));
            self.object.nav.cruise = step;
            self.object.nav.cruise_until = until;
            self.keyed.at_rest = at_rest(self.keyed.has_goal, self.object.speed, self.object);
        }
    }

    /// Forgets the destination and the path.
    pub fn clear_nav(&mut self) {
        self.change(|o| o.nav = Nav::default());
    }

    /// Applies a rare change of several fields, recomputing the object's digest around it
    /// (about fifteen multiplies; use the setters above for anything done every frame).
    pub(crate) fn change(&mut self, f: impl FnOnce(&mut Object)) {
        let before = if KEEP_HASH { self.object.digest(self.key) } else { 0 };
        let (id, owner, template) = (self.object.id, self.object.owner, self.object.template);
        let powered = |o: &Object| (o.construction.is_none(), o.powered_down);
        let was = powered(self.object);
        let had_queue = !self.object.queue.is_empty();
        f(self.object);
        if powered(self.object) != was {
            self.marks.power = self.marks.power.wrapping_add(1);
        }
        self.marks.requeued(had_queue, !self.object.queue.is_empty());
        // The id is the store's business; owner and template are fixed for an object's life
        // (the store files its objects by them).
        self.object.id = id;
        self.object.owner = owner;
        self.object.template = template;
        if self.object.health <= 0 {
            self.marks.fallen = true;
        }
        *self.place = Place::of(self.object);
        *self.keyed = Keyed::of(self.key, self.object);
        if KEEP_HASH {
            let after = self.object.digest(self.key);
            self.pending = self.pending.wrapping_add(after.wrapping_sub(before));
        }
    }
}
