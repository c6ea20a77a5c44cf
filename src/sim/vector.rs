//! Fixed-point 2D and 3D vectors for world positions, directions and velocities.
//!
//! Must not: use floating point; every operation saturates rather than panics.

use std::ops::{Add, AddAssign, Neg, Sub, SubAssign};

use serde::{Deserialize, Serialize};

use super::angle::Angle;
use super::fixed::Fixed;

/// A point or offset on the ground plane (x east, y north), in world units.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default, Debug, Serialize, Deserialize)]
pub struct Vec2 {
    /// East.
    pub x: Fixed,
    /// North.
    pub y: Fixed,
}

impl Vec2 {
    /// The origin.
    pub const ZERO: Vec2 = Vec2 { x: Fixed::ZERO, y: Fixed::ZERO };

    /// A vector from two fixed values.
    pub const fn new(x: Fixed, y: Fixed) -> Vec2 {
        Vec2 { x, y }
    }

    /// A vector from whole world units.
    pub const fn from_int(x: i64, y: i64) -> Vec2 {
        Vec2 { x: Fixed::from_int(x), y: Fixed::from_int(y) }
    }

    /// The unit vector pointing along `angle`.
    pub fn from_angle(angle: Angle) -> Vec2 {
        Vec2 { x: angle.cos(), y: angle.sin() }
    }

    /// The direction of this vector (zero for the zero vector).
    pub fn angle(self) -> Angle {
        Angle::atan2(self.y, self.x)
    }

    /// Multiplies both components by a scalar.
    pub fn scale(self, k: Fixed) -> Vec2 {
        Vec2 { x: self.x * k, y: self.y * k }
    }

    /// Dot product.
    pub fn dot(self, other: Vec2) -> Fixed {
        self.x * other.x + self.y * other.y
    }

    /// The z of the 3D cross product: positive when `other` is counter-clockwise of `self`.
    pub fn cross(self, other: Vec2) -> Fixed {
        self.x * other.y - self.y * other.x
    }

    /// Squared length (no root; use for comparisons).
    pub fn length_squared(self) -> Fixed {
        self.dot(self)
    }

    /// Length, rounded down.
    pub fn length(self) -> Fixed {
        self.length_squared().sqrt()
    }

    /// The same direction with length one; the zero vector stays zero.
    pub fn normalize(self) -> Vec2 {
        let len = self.length();
        if len == Fixed::ZERO {
            return Vec2::ZERO;
        }
        Vec2 { x: self.x / len, y: self.y / len }
    }

    /// This vector shortened to at most `max` long.
    pub fn clamp_length(self, max: Fixed) -> Vec2 {
        if self.length_within(max) { self } else { self.with_length(self.length(), max) }
    }

    /// This vector, whose length is `length`, made `to` long (the zero vector stays zero): for
    /// a caller that has the length already and need not take the root again.
    pub fn with_length(self, length: Fixed, to: Fixed) -> Vec2 {
        if length == Fixed::ZERO {
            return Vec2::ZERO;
        }
        Vec2 { x: self.x / length, y: self.y / length }.scale(to)
    }

    /// Whether `length() <= max`, without taking the root: `length` rounds the root of the
    /// squared length down, and ⌊√x⌋ ≤ m exactly when x < (m + 1)², so the answer is the same.
    pub fn length_within(self, max: Fixed) -> bool {
        let squared = self.length_squared().raw();
        if max.raw() < 0 {
            return false;
        }
        if squared <= 0 {
            return true;
        }
        let bound = (max.raw() as u128 + 1) * (max.raw() as u128 + 1);
        ((squared as u128) << Fixed::FRAC_BITS) < bound
    }

    /// The distance from this point to the segment from `a` to `b`.
    pub fn distance_to_segment(self, (a, b): (Vec2, Vec2)) -> Fixed {
        let ab = b - a;
        let len2 = ab.length_squared();
        if len2 == Fixed::ZERO {
            return (self - a).length();
        }
        let t = ((self - a).dot(ab) / len2).clamp(Fixed::ZERO, Fixed::ONE);
        (self - (a + ab.scale(t))).length()
    }
}

impl Add for Vec2 {
    type Output = Vec2;
    fn add(self, rhs: Vec2) -> Vec2 {
        Vec2 { x: self.x + rhs.x, y: self.y + rhs.y }
    }
}

impl AddAssign for Vec2 {
    fn add_assign(&mut self, rhs: Vec2) {
        *self = *self + rhs;
    }
}

impl Sub for Vec2 {
    type Output = Vec2;
    fn sub(self, rhs: Vec2) -> Vec2 {
        Vec2 { x: self.x - rhs.x, y: self.y - rhs.y }
    }
}

impl SubAssign for Vec2 {
    fn sub_assign(&mut self, rhs: Vec2) {
        *self = *self - rhs;
    }
}

impl Neg for Vec2 {
    type Output = Vec2;
    fn neg(self) -> Vec2 {
        Vec2 { x: -self.x, y: -self.y }
    }
}

/// A point or offset in space (z up), in world units: heights, projectiles, muzzle points.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default, Debug, Serialize, Deserialize)]
pub struct Vec3 {
    /// East.
    pub x: Fixed,
    /// North.
    pub y: Fixed,
    /// Up.
    pub z: Fixed,
}

impl Vec3 {
    /// The origin.
    pub const ZERO: Vec3 = Vec3 { x: Fixed::ZERO, y: Fixed::ZERO, z: Fixed::ZERO };

    /// A vector from three fixed values.
    pub const fn new(x: Fixed, y: Fixed, z: Fixed) -> Vec3 {
        Vec3 { x, y, z }
    }

    /// The ground-plane part.
    pub const fn xy(self) -> Vec2 {
        Vec2 { x: self.x, y: self.y }
    }

    /// Dot product.
    pub fn dot(self, o: Vec3) -> Fixed {
        self.x * o.x + self.y * o.y + self.z * o.z
    }

    /// Cross product.
    pub fn cross(self, o: Vec3) -> Vec3 {
        Vec3 { x: self.y * o.z - self.z * o.y, y: self.z * o.x - self.x * o.z, z: self.x * o.y - self.y * o.x }
    }

    /// Length, rounded down.
    pub fn length(self) -> Fixed {
        self.dot(self).sqrt()
    }

    /// The same direction with length one; the zero vector stays zero.
    pub fn normalize(self) -> Vec3 {
        let len = self.length();
        if len == Fixed::ZERO {
            return Vec3::ZERO;
        }
        Vec3 { x: self.x / len, y: self.y / len, z: self.z / len }
    }
}

impl Add for Vec3 {
    type Output = Vec3;
    fn add(self, r: Vec3) -> Vec3 {
        Vec3 { x: self.x + r.x, y: self.y + r.y, z: self.z + r.z }
    }
}

impl Sub for Vec3 {
    type Output = Vec3;
    fn sub(self, r: Vec3) -> Vec3 {
        Vec3 { x: self.x - r.x, y: self.y - r.y, z: self.z - r.z }
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    proptest! {
        /// The root-free test agrees with comparing the rounded-down length, edges included.
        #[test]
        fn length_within_agrees_with_the_rounded_length(x in any::<i64>(), y in any::<i64>(), max in any::<i64>(), near in -3i64..3) {
            for v in [Vec2::new(Fixed::from_raw(x), Fixed::from_raw(y)), Vec2::new(Fixed::from_raw(x >> 24), Fixed::from_raw(y >> 24))] {
                let exact = v.length();
                for m in [Fixed::from_raw(max), Fixed::from_raw(exact.raw().saturating_add(near))] {
                    prop_assert_eq!(v.length_within(m), exact <= m, "{:?} within {:?}", v, m);
                    let clamped = v.clamp_length(m);
                    if exact <= m { prop_assert_eq!(clamped, v); }
                }
            }
        }
    }
}
