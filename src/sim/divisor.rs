//! Floor division by a number fixed at run time (a map's cell side), by one multiplication and
//! one correction instead of a hardware division, with exactly the quotients of
//! [`Fixed::div_floor_int`]. Finding a point's cell is what movement and separation ask most
//! often, and a 64-bit division costs tens of cycles.
//! Must not: answer differently from `div_floor_int` for any input (it falls back to it
//! outside the range where the multiplication is proven exact).

use super::fixed::Fixed;

/// Dividends below this (raw) take the multiplication; every in-map coordinate does.
const FAST_BELOW: i64 = 1 << 47;

/// A divisor with its reciprocal worked out once (the default divides by zero, as
/// `div_floor_int` does: saturating).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Divisor {
    d: Fixed,
    /// ⌊(2⁶⁴ − 1) / d⌋ for a positive `d` (zero otherwise: every division falls back).
    m: u64,
}

impl Divisor {
    /// Prepares division by `d`.
    pub fn new(d: Fixed) -> Divisor {
        let m = if d.raw() > 0 { u64::MAX / d.raw() as u64 } else { 0 };
        Divisor { d, m }
    }

    /// `x.div_floor_int(d)`: ⌊x / d⌋.
    ///
    /// For 0 ≤ x < 2⁴⁷ the estimate ⌊x·m / 2⁶⁴⌋ is the quotient or one less: m ≤ 2⁶⁴/d, and
    /// m > 2⁶⁴/d − 2, so x·m/2⁶⁴ lies within 2·x/2⁶⁴ < 2⁻¹⁶ below x/d. One test settles it.
    #[inline(always)] // the multiplication is a few instructions; the division stays out of line
    pub fn floor_div(self, x: Fixed) -> i64 {
        let (x, d) = (x.raw(), self.d.raw());
        if self.m == 0 || !(0..FAST_BELOW).contains(&x) {
            return self.slow(x);
        }
        let q = ((x as u128 * self.m as u128) >> 64) as i64;
        // (q + 1)·d ≤ x + d: no overflow (q > 0 only when d ≤ x < 2⁴⁷).
        if (q + 1) * d <= x { q + 1 } else { q }
    }

    /// The quotient by division, for what the multiplication does not cover.
    #[cold]
    #[inline(never)]
    fn slow(self, x: i64) -> i64 {
        Fixed::from_raw(x).div_floor_int(self.d)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn quotients_are_those_of_div_floor_int(
            x in any::<i64>(),
            d in any::<i64>(),
            near in 0i64..(1 << 47),
            cell in 1i64..(1 << 26),
            k in 0i64..(1 << 21),
            off in -2i64..=2,
        ) {
            let check = |x: i64, d: i64| {
                let (x, d) = (Fixed::from_raw(x), Fixed::from_raw(d));
                (Divisor::new(d).floor_div(x), x.div_floor_int(d))
            };
            let (got, want) = check(x, d);
            prop_assert_eq!(got, want);
            let (got, want) = check(near, cell);
            prop_assert_eq!(got, want);
            // At and beside exact multiples, where an estimate one short would show.
            let at = (k * cell + off).clamp(0, FAST_BELOW - 1);
            let (got, want) = check(at, cell);
            prop_assert_eq!(got, want);
        }
    }

    #[test]
    fn the_edges_of_the_fast_range_agree() {
        for d in [1i64, 2, 3, 7, 10 << 16, 20 << 16, (1 << 47) - 1, i64::MAX] {
            for x in [
                0,
                1,
                d - 1,
                d,
                d.saturating_add(1),
                FAST_BELOW - 2,
                FAST_BELOW - 1,
                FAST_BELOW,
                -1,
                i64::MIN,
                i64::MAX,
            ] {
                let (xf, df) = (Fixed::from_raw(x), Fixed::from_raw(d));
                assert_eq!(Divisor::new(df).floor_div(xf), xf.div_floor_int(df), "{x} / {d}");
            }
        }
    }
}
