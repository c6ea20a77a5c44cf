//! Where an object stands and where it is bound: the store keeps one [`Place`] per slot beside
//! the objects, and [`super::object_mut::ObjectMut`] keeps it true as the object moves, so a walk
//! over every position (vision's, each frame) reads a compact array. Beside it the store keeps a
//! [`Keyed`] per slot (the object's hash key and whether it has a goal), so a move reads nothing
//! of the object.
//!
//! A leaf of its own so the store and the one write path both name it without importing each
//! other. Must not: hold anything an object does not say.

use super::fixed::Fixed;
use super::hash::ObjectKey;
use super::ids::Frame;
use super::object::Object;
use super::vector::Vec2;

/// Where an object stands and where it is bound, kept per slot beside the objects.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Place {
    /// Its position ([`Object::pos`]).
    pub pos: Vec2,
    /// Where it is bound ([`Object::bound`]).
    pub bound: Vec2,
}

impl Place {
    /// What `o`'s fields say.
    #[inline(always)]
    pub fn of(o: &Object) -> Place {
        Place { pos: o.pos, bound: o.bound() }
    }
}

/// What the one write path needs of an object beside its place, kept per slot so a change of
/// position touches the object only to write it: the object's hash key (as its slot holds it)
/// and whether it has a goal (so where it is bound follows a move, or not); whether it is at
/// rest (so movement passes it over unread); and the waypoint it steers toward (so steering
/// reads no path kept on the heap). Not saved: the store makes it again from the
/// slots when first needed after a load.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Keyed {
    /// The object's hash key.
    pub key: ObjectKey,
    /// Whether [`Object::nav`]'s goal is set.
    pub has_goal: bool,
    /// Whether it is at rest (see [`at_rest`]): no goal, no speed, not cruising.
    pub at_rest: bool,
    /// Whether it has a waypoint to steer toward ([`super::object::Nav::current_waypoint`]).
    pub has_waypoint: bool,
    /// That waypoint (zero when it has none).
    pub waypoint: Vec2,
}

impl Keyed {
    /// What `o`, under `key`, says.
    #[inline(always)]
    pub fn of(key: ObjectKey, o: &Object) -> Keyed {
        let waypoint = o.nav.current_waypoint();
        Keyed {
            key,
            has_goal: o.nav.goal.is_some(),
            at_rest: at_rest(o.nav.goal.is_some(), o.speed, o),
            has_waypoint: waypoint.is_some(),
            waypoint: waypoint.unwrap_or(Vec2::ZERO),
        }
    }
}

/// Whether an object with a goal (or none), going at `speed`, whose cruise is `o`'s, is at rest:
/// no goal, no speed above zero, and no cruise (neither step nor end frame). A frame of movement
/// changes nothing of such an object (it has nowhere to go and nothing to slow from).
#[inline(always)]
pub fn at_rest(has_goal: bool, speed: Fixed, o: &Object) -> bool {
    !has_goal && speed <= Fixed::ZERO && o.nav.cruise == Vec2::ZERO && o.nav.cruise_until == Frame::default()
}
