//! Where an object stands and where it is bound: the store keeps one [`Place`] per slot beside
//! the objects, and [`super::object_mut::ObjectMut`] keeps it true as the object moves, so a walk
//! over every position (vision's, each frame) reads a compact array.
//!
//! A leaf of its own so the store and the one write path both name it without importing each
//! other. Must not: hold anything an object does not say.

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
