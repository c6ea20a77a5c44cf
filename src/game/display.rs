//! Simulation values as the client shows them: fixed-point to `f32`, binary angles to radians,
//! and ground points back to the whole-unit points commands carry. The one place the client
//! knows how `Fixed` and `Angle` are laid out.
//!
//! Must not: be used by the simulation (display values never go back into it except as
//! command points, which the simulation validates).

use glam::Vec2;

use crate::sim::command::Point;
use crate::sim::{Angle, Fixed, Vec2 as SimVec2};

/// A fixed-point value as a float.
pub fn to_f32(f: Fixed) -> f32 {
    f.raw() as f32 / Fixed::ONE.raw() as f32
}

/// A world position in display units.
pub fn to_display(p: SimVec2) -> Vec2 {
    Vec2::new(to_f32(p.x), to_f32(p.y))
}

/// An angle in radians, counter-clockwise from east (a binary angle turns once in 2^16).
pub fn radians(a: Angle) -> f32 {
    a.0 as f32 / (1u32 << 16) as f32 * std::f32::consts::TAU
}

/// How high above the ground an object of `kind` is drawn: aircraft fly (the simulation is
/// flat; this is display only).
pub fn altitude(kind: crate::sim::rules::ObjectKind) -> f32 {
    if kind.is_air() { 30.0 } else { 0.0 }
}

/// A ground point as a command point in whole world units.
pub fn to_point(p: Vec2) -> Point {
    Point { x: p.x.round() as i32, y: p.y.round() as i32 }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn conversions_agree_with_the_fixed_point_layout() {
        assert_eq!(to_f32(Fixed::ONE), 1.0);
        assert_eq!(to_f32(Fixed::HALF), 0.5);
        assert_eq!(to_f32(Fixed::from_int(-3)), -3.0);
        assert_eq!(to_display(SimVec2::from_int(12, 7)), Vec2::new(12.0, 7.0));
        assert!((radians(Angle::QUARTER) - std::f32::consts::FRAC_PI_2).abs() < 1e-6);
        assert_eq!(to_point(Vec2::new(10.6, -2.4)), Point { x: 11, y: -2 });
    }
}
