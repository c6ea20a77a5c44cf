//! Binary angles and integer trigonometry for the simulation.
//!
//! An [`Angle`] is a `u16` where 65,536 is one full turn, so wrapping arithmetic is angle
//! arithmetic. Sine and cosine come from a quarter-wave table and atan2 from an arctangent
//! table with linear interpolation; both tables are computed once, in integers only, by CORDIC
//! iterations, so every machine builds the very same tables.
//!
//! Must not: touch floating point or any platform maths library.

use std::sync::LazyLock;

use serde::{Deserialize, Serialize};

use super::fixed::Fixed;

/// A direction: 65,536 units to a full turn, counter-clockwise from +x.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default, Debug, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Angle(pub u16);

/// Angle units in a full turn at the internal (24-bit) precision of the tables.
const TURN_24: i64 = 1 << 24;
/// Entries in the quarter-wave sine table, minus one.
const QUARTER: usize = 1 << 14;
/// Entries in the arctangent table, minus one.
const ATAN_STEPS: usize = 1 << 12;

/// atan(2^-i) in 24-bit turn units, for CORDIC.
const CORDIC_ATAN: [i64; 24] = [
    2097152, 1238021, 654136, 332050, 166669, 83416, 41718, 20860, 10430, 5215, 2608, 1304, 652, 326, 163, 81, 41, 20,
    10, 5, 3, 1, 1, 0,
];
/// The CORDIC gain's reciprocal, 0.60725…, in Q30.
const CORDIC_K_Q30: i64 = 652_032_874;

/// sin(i / 16384 of a quarter turn) in Q16, for i in 0..=16384.
static SIN_TABLE: LazyLock<Vec<i32>> = LazyLock::new(|| {
    (0..=QUARTER)
        .map(|i| {
            let (_, sin) = cordic_rotate((i as i64) << 8);
            ((sin + (1 << 13)) >> 14) as i32
        })
        .collect()
});

/// atan(i / 4096) in 24-bit turn units, for i in 0..=4096.
static ATAN_TABLE: LazyLock<Vec<i64>> =
    LazyLock::new(|| (0..=ATAN_STEPS).map(|i| cordic_vector(ATAN_STEPS as i64, i as i64)).collect());

/// Rotates (K, 0) by `z` (24-bit turn units, |z| ≤ a quarter turn); returns (cos, sin) in Q30.
fn cordic_rotate(mut z: i64) -> (i64, i64) {
    let (mut x, mut y) = (CORDIC_K_Q30, 0i64);
    for (i, step) in CORDIC_ATAN.iter().enumerate() {
        let (dx, dy) = (y >> i, x >> i);
        if z >= 0 {
            x -= dx;
            y += dy;
            z -= step;
        } else {
            x += dx;
            y -= dy;
            z += step;
        }
    }
    (x, y)
}

/// The angle of (x, y) for x > 0, y ≥ 0, in 24-bit turn units.
fn cordic_vector(x: i64, y: i64) -> i64 {
    let (mut x, mut y, mut z) = (x << 30, y << 30, 0i64);
    for (i, step) in CORDIC_ATAN.iter().enumerate() {
        let (dx, dy) = (y >> i, x >> i);
        if y > 0 {
            x += dx;
            y -= dy;
            z += step;
        } else if y < 0 {
            x -= dx;
            y += dy;
            z -= step;
        }
    }
    z
}

impl Angle {
    /// Zero: facing +x.
    pub const ZERO: Angle = Angle(0);
    /// A quarter turn.
    pub const QUARTER: Angle = Angle(1 << 14);
    /// A half turn.
    pub const HALF: Angle = Angle(1 << 15);

    /// An angle from whole degrees (any integer; wraps).
    pub const fn from_degrees(deg: i64) -> Angle {
        Angle((deg.rem_euclid(360) * 65536 / 360) as u16)
    }

    /// The signed shortest difference `self - other`, in angle units (−32768..=32767).
    pub const fn delta(self, other: Angle) -> i32 {
        self.0.wrapping_sub(other.0) as i16 as i32
    }

    /// Adds a signed number of angle units, wrapping.
    pub const fn offset(self, units: i32) -> Angle {
        Angle(self.0.wrapping_add(units as u16))
    }

    /// Turns toward `target` by at most `max_step` units; returns the new angle.
    pub fn turn_toward(self, target: Angle, max_step: Angle) -> Angle {
        let diff = target.delta(self);
        let step = max_step.0 as i32;
        if diff.abs() <= step { target } else { self.offset(step * diff.signum()) }
    }

    /// Sine as a fixed-point value in [-1, 1].
    pub fn sin(self) -> Fixed {
        let table = &*SIN_TABLE;
        let a = self.0 as usize;
        let idx = a & (QUARTER - 1);
        let v = match a >> 14 {
            0 => table[idx],
            1 => table[QUARTER - idx],
            2 => -table[idx],
            _ => -table[QUARTER - idx],
        };
        Fixed::from_raw(v as i64)
    }

    /// Cosine as a fixed-point value in [-1, 1].
    pub fn cos(self) -> Fixed {
        self.offset(1 << 14).sin()
    }

    /// The angle of the vector (x, y); (0, 0) gives zero.
    pub fn atan2(y: Fixed, x: Fixed) -> Angle {
        let (ax, ay) = (x.raw().unsigned_abs() as u128, y.raw().unsigned_abs() as u128);
        if ax == 0 && ay == 0 {
            return Angle::ZERO;
        }
        // Angle within the first octant, then mirrored into place (24-bit units).
        let octant = |num: u128, den: u128| -> i64 {
            // Ratio in Q20, 0..=1<<20; 64-bit division whenever the shift cannot overflow.
            let r = if num < (1 << 43) {
                (((num as u64) << 20) / den as u64) as usize
            } else {
                ((num << 20) / den) as usize
            };
            let (idx, frac) = (r >> 8, (r & 0xFF) as i64);
            let table = &*ATAN_TABLE;
            let lo = table[idx];
            if idx >= ATAN_STEPS { lo } else { lo + (((table[idx + 1] - lo) * frac) >> 8) }
        };
        let first = if ax >= ay { octant(ay, ax) } else { TURN_24 / 4 - octant(ax, ay) };
        let full = match (x.raw() >= 0, y.raw() >= 0) {
            (true, true) => first,
            (false, true) => TURN_24 / 2 - first,
            (false, false) => TURN_24 / 2 + first,
            (true, false) => TURN_24 - first,
        };
        Angle((((full + 128) >> 8) & 0xFFFF) as u16)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cardinal_values_are_exact() {
        assert_eq!(Angle::ZERO.sin(), Fixed::ZERO);
        assert_eq!(Angle::ZERO.cos(), Fixed::ONE);
        assert_eq!(Angle::QUARTER.sin(), Fixed::ONE);
        assert_eq!(Angle::HALF.cos(), -Fixed::ONE);
        assert_eq!(Angle::atan2(Fixed::ONE, Fixed::ZERO), Angle::QUARTER);
        assert_eq!(Angle::atan2(Fixed::ZERO, -Fixed::ONE), Angle::HALF);
        assert_eq!(Angle::atan2(Fixed::ONE, Fixed::ONE), Angle(8192));
    }

    #[test]
    fn turn_toward_takes_the_short_way() {
        let from = Angle::from_degrees(350);
        let to = Angle::from_degrees(10);
        let step = Angle::from_degrees(5);
        let next = from.turn_toward(to, step);
        assert_eq!(next.delta(from), step.0 as i32);
        assert_eq!(next.turn_toward(to, Angle::from_degrees(90)), to);
    }
}
