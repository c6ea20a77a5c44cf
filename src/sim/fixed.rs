//! Fixed-point scalar for the simulation: Q47.16 in an `i64`.
//!
//! Width: 16 fractional bits give 1/65536 of a world unit; the integer part reaches ±1.4e14.
//! A 512×512-cell map at 10 units per cell is 5,120 units across, so a squared distance across
//! the whole map (about 5.2e7) is far inside the range, and products are formed in `i128`
//! before shifting back, so no intermediate overflows either.
//!
//! Must not: use floating point anywhere (conversion from `f64` lives in `defs`, outside the
//! sim), or panic on any input (division by zero saturates, overflow saturates).

use std::fmt;
use std::ops::{Add, AddAssign, Div, Mul, Neg, Sub, SubAssign};

use serde::{Deserialize, Serialize};

/// A signed fixed-point number with 16 fractional bits.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Fixed(i64);

impl Fixed {
    /// Number of fractional bits.
    pub const FRAC_BITS: u32 = 16;
    /// The value 0.
    pub const ZERO: Fixed = Fixed(0);
    /// The value 1.
    pub const ONE: Fixed = Fixed(1 << Self::FRAC_BITS);
    /// One half.
    pub const HALF: Fixed = Fixed(1 << (Self::FRAC_BITS - 1));
    /// The largest representable value.
    pub const MAX: Fixed = Fixed(i64::MAX);
    /// The smallest representable value.
    pub const MIN: Fixed = Fixed(i64::MIN);

    /// Wraps raw bits (value × 65536).
    pub const fn from_raw(raw: i64) -> Fixed {
        Fixed(raw)
    }

    /// The raw bits (value × 65536); these are what the state hash reads.
    pub const fn raw(self) -> i64 {
        self.0
    }

    /// An integer value.
    pub const fn from_int(value: i64) -> Fixed {
        Fixed(value.saturating_mul(1 << Self::FRAC_BITS))
    }

    /// `num / den` rounded toward negative infinity; `den == 0` saturates by the sign of `num`.
    pub const fn from_ratio(num: i64, den: i64) -> Fixed {
        if den == 0 {
            return if num < 0 { Fixed::MIN } else { Fixed::MAX };
        }
        let wide = ((num as i128) << Self::FRAC_BITS).div_euclid(den as i128);
        Fixed(clamp_i128(wide))
    }

    /// The integer part, rounded toward negative infinity.
    pub const fn floor_int(self) -> i64 {
        self.0 >> Self::FRAC_BITS
    }

    /// The nearest integer (halves round up).
    pub const fn round_int(self) -> i64 {
        (self.0 + (1 << (Self::FRAC_BITS - 1))) >> Self::FRAC_BITS
    }

    /// Absolute value (saturating at `MAX`).
    pub const fn abs(self) -> Fixed {
        Fixed(self.0.saturating_abs())
    }

    /// -1, 0 or 1 as an integer.
    pub const fn signum(self) -> i64 {
        self.0.signum()
    }

    /// The smaller of two values.
    pub fn min(self, other: Fixed) -> Fixed {
        Ord::min(self, other)
    }

    /// The larger of two values.
    pub fn max(self, other: Fixed) -> Fixed {
        Ord::max(self, other)
    }

    /// Clamps into `[lo, hi]`.
    pub fn clamp(self, lo: Fixed, hi: Fixed) -> Fixed {
        self.max(lo).min(hi)
    }

    /// Multiplies by an integer, saturating.
    pub const fn mul_int(self, k: i64) -> Fixed {
        Fixed(self.0.saturating_mul(k))
    }

    /// `(self / rhs).floor_int()`, the same number in one integer division where it can be
    /// (a positive divisor and a dividend whose shifted form fits, as every in-map quantity's
    /// does): ⌊⌊a·2¹⁶ / b⌋ / 2¹⁶⌋ = ⌊a / b⌋.
    #[inline]
    pub fn div_floor_int(self, rhs: Fixed) -> i64 {
        const LIMIT: i64 = 1 << (63 - Fixed::FRAC_BITS);
        if rhs.0 > 0 && self.0 > -LIMIT && self.0 < LIMIT { self.0.div_euclid(rhs.0) } else { (self / rhs).floor_int() }
    }

    /// Divides by an integer, rounding toward negative infinity; division by zero saturates.
    pub const fn div_int(self, k: i64) -> Fixed {
        if k == 0 {
            return if self.0 < 0 { Fixed::MIN } else { Fixed::MAX };
        }
        Fixed(self.0.div_euclid(k))
    }

    /// Square root, rounded down; negative input gives zero.
    pub fn sqrt(self) -> Fixed {
        if self.0 <= 0 {
            return Fixed::ZERO;
        }
        // sqrt(raw / 2^16) * 2^16 = sqrt(raw * 2^16).
        let raw = self.0 as u64;
        if raw < (1 << 47) {
            Fixed(super::isqrt::isqrt(raw << Self::FRAC_BITS) as i64)
        } else {
            Fixed(((raw as u128) << Self::FRAC_BITS).isqrt() as i64)
        }
    }

    /// Whether `self.sqrt() >= v`, without taking the root: the root is ⌊√(raw·2¹⁶)⌋ (in raw
    /// units), and ⌊√x⌋ ≥ m exactly when x ≥ m² for m ≥ 0.
    pub fn sqrt_at_least(self, v: Fixed) -> bool {
        if v.0 <= 0 {
            return true;
        }
        if self.0 <= 0 {
            return false;
        }
        (v.0 as u128) * (v.0 as u128) <= (self.0 as u128) << Self::FRAC_BITS
    }
}

const fn clamp_i128(v: i128) -> i64 {
    if v > i64::MAX as i128 {
        i64::MAX
    } else if v < i64::MIN as i128 {
        i64::MIN
    } else {
        v as i64
    }
}

impl Add for Fixed {
    type Output = Fixed;
    fn add(self, rhs: Fixed) -> Fixed {
        Fixed(self.0.saturating_add(rhs.0))
    }
}

impl AddAssign for Fixed {
    fn add_assign(&mut self, rhs: Fixed) {
        *self = *self + rhs;
    }
}

impl Sub for Fixed {
    type Output = Fixed;
    fn sub(self, rhs: Fixed) -> Fixed {
        Fixed(self.0.saturating_sub(rhs.0))
    }
}

impl SubAssign for Fixed {
    fn sub_assign(&mut self, rhs: Fixed) {
        *self = *self - rhs;
    }
}

impl Neg for Fixed {
    type Output = Fixed;
    fn neg(self) -> Fixed {
        Fixed(self.0.saturating_neg())
    }
}

impl Mul for Fixed {
    type Output = Fixed;
    fn mul(self, rhs: Fixed) -> Fixed {
        Fixed(clamp_i128((self.0 as i128 * rhs.0 as i128) >> Self::FRAC_BITS))
    }
}

impl Div for Fixed {
    type Output = Fixed;
    /// Rounds toward negative infinity; dividing by zero saturates by the dividend's sign.
    fn div(self, rhs: Fixed) -> Fixed {
        if rhs.0 == 0 {
            return if self.0 < 0 { Fixed::MIN } else { Fixed::MAX };
        }
        // Fast path: the shifted dividend fits in 64 bits (every in-map quantity does).
        const LIMIT: i64 = 1 << (63 - Fixed::FRAC_BITS);
        if self.0 > -LIMIT && self.0 < LIMIT && rhs.0 != -1 {
            return Fixed((self.0 << Self::FRAC_BITS).div_euclid(rhs.0));
        }
        Fixed(clamp_i128(((self.0 as i128) << Self::FRAC_BITS).div_euclid(rhs.0 as i128)))
    }
}

impl fmt::Debug for Fixed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl fmt::Display for Fixed {
    /// Exact decimal form of the integer part and four decimal places (display only).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let neg = self.0 < 0;
        let mag = self.0.unsigned_abs();
        let int = mag >> Self::FRAC_BITS;
        let frac = ((mag & 0xFFFF) * 10_000 + 0x8000) >> Self::FRAC_BITS;
        let (int, frac) = if frac >= 10_000 { (int + 1, frac - 10_000) } else { (int, frac) };
        write!(f, "{}{}.{:04}", if neg { "-" } else { "" }, int, frac)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn arithmetic_basics() {
        let a = Fixed::from_int(3);
        let b = Fixed::from_ratio(1, 2);
        assert_eq!((a * b).raw(), 3 * 32768);
        assert_eq!((a / b), Fixed::from_int(6));
        assert_eq!(Fixed::from_int(-3).floor_int(), -3);
        assert_eq!(Fixed::from_ratio(-1, 2).floor_int(), -1);
        assert_eq!(Fixed::from_int(5) / Fixed::ZERO, Fixed::MAX);
        assert_eq!(Fixed::from_int(-5) / Fixed::ZERO, Fixed::MIN);
        assert_eq!(format!("{}", Fixed::from_ratio(-5, 4)), "-1.2500");
    }

    #[test]
    fn whole_map_squared_distance_fits() {
        // 512 cells × 10 units: the diagonal squared must be exact.
        let side = Fixed::from_int(5120);
        let d2 = side * side + side * side;
        assert_eq!(d2, Fixed::from_int(2 * 5120 * 5120));
        assert_eq!(d2.sqrt().floor_int(), 7240); // 5120·√2 = 7240.77
    }

    proptest! {
        #[test]
        fn sqrt_is_floor_of_true_root(raw in 0i64..i64::MAX) {
            let x = Fixed::from_raw(raw);
            let r = x.sqrt().raw() as u128;
            let n = (raw as u128) << 16;
            prop_assert!(r * r <= n);
            prop_assert!((r + 1) * (r + 1) > n);
        }

        #[test]
        fn mul_matches_wide_product(a in -(1i64 << 40)..(1i64 << 40), b in -(1i64 << 30)..(1i64 << 30)) {
            let p = Fixed::from_raw(a) * Fixed::from_raw(b);
            prop_assert_eq!(p.raw() as i128, (a as i128 * b as i128) >> 16);
        }

        #[test]
        fn division_matches_wide_quotient(a in -(1i64 << 50)..(1i64 << 50), b in any::<i64>()) {
            prop_assume!(b != 0);
            let q = Fixed::from_raw(a) / Fixed::from_raw(b);
            let wide = ((a as i128) << 16).div_euclid(b as i128).clamp(i64::MIN as i128, i64::MAX as i128);
            prop_assert_eq!(q.raw() as i128, wide);
        }

        #[test]
        fn div_floor_int_is_the_floor_of_the_quotient(a in any::<i64>(), b in any::<i64>(), small in -(1i64 << 40)..(1i64 << 40), cell in 1i64..(1 << 24)) {
            let floor = |a: i64, b: i64| (Fixed::from_raw(a) / Fixed::from_raw(b)).floor_int();
            prop_assert_eq!(Fixed::from_raw(a).div_floor_int(Fixed::from_raw(b)), floor(a, b));
            prop_assert_eq!(Fixed::from_raw(small).div_floor_int(Fixed::from_raw(cell)), floor(small, cell));
        }

        #[test]
        fn sqrt_at_least_answers_as_the_root_does(a in any::<i64>(), v in any::<i64>(), near in 0i64..(1 << 40), d in -3i64..=3) {
            prop_assert_eq!(Fixed::from_raw(a).sqrt_at_least(Fixed::from_raw(v)), Fixed::from_raw(a).sqrt() >= Fixed::from_raw(v));
            // Right at the root, where the answer turns.
            let x = Fixed::from_raw(near);
            let root = Fixed::from_raw(x.sqrt().raw() + d);
            prop_assert_eq!(x.sqrt_at_least(root), x.sqrt() >= root);
        }

        #[test]
        fn division_never_panics(a in any::<i64>(), b in any::<i64>()) {
            let _ = Fixed::from_raw(a) / Fixed::from_raw(b);
            let _ = Fixed::from_raw(a).div_int(b);
            let _ = Fixed::from_ratio(a, b);
        }
    }
}
