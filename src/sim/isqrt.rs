//! The integer square root the fixed-point root is built on: ⌊√n⌋ of a `u64`, exactly the
//! standard library's `u64::isqrt`, in about half its time.
//!
//! A table gives an estimate from above, good to about one part in 2⁶, from the top eight bits
//! of `n` (shifted by an even count); two or three integer Newton steps from above (as many
//! as the error bound needs for `n`'s size) then leave the floor of the root or one more,
//! and a square settles which. Distances are taken every frame for
//! every moving unit and every overlapping pair, so the root is on the hot path.
//! Must not: use floating point, or answer anything but the exact floor of the root.

/// For each `m` below 256, ⌈√((m + 1)·2⁸)⌉: at least the root of every number whose top eight
/// bits (after an even shift) are `m`, in units of 2⁴ before the shift is undone.
static ROOTS_ABOVE: [u16; 256] = roots_above();

const fn roots_above() -> [u16; 256] {
    let mut table = [0u16; 256];
    let mut m = 0;
    while m < 256 {
        let v = (m as u64 + 1) << 8;
        let mut r = 0u64;
        while r * r < v {
            r += 1;
        }
        table[m] = r as u16;
        m += 1;
    }
    table
}

/// ⌊√n⌋, the same as `n.isqrt()`.
#[inline]
pub fn isqrt(n: u64) -> u64 {
    if n < 4 {
        return (n != 0) as u64;
    }
    let bits = 64 - n.leading_zeros();
    // An even shift that leaves the top bits `m` in 64..256 (or `n` itself when it is small).
    let shift = (bits.saturating_sub(8) + 1) & !1;
    let m = (n >> shift) as usize;
    let above = ROOTS_ABOVE[m & 0xff] as u64;
    // √n < √((m + 1)·2^shift) = ⌈√((m + 1)·2⁸)⌉·2^(shift/2 − 4), so `y` starts above the root.
    let mut y = if shift >= 8 { above << ((shift - 8) / 2) } else { (above >> ((8 - shift) / 2)) + 1 };
    // From above, an integer Newton step never falls below ⌊√n⌋ and squares the relative
    // error (halved): from the table's at most 1/79, two steps leave less than one unit for
    // roots below 2²⁸ and a third for any root of a u64 (numbers below 2¹⁶ are tested one by
    // one). The last unit is settled by a square instead of a step that finds no fall.
    y = (y + n / y) >> 1;
    y = (y + n / y) >> 1;
    if n >= 1 << 56 {
        y = (y + n / y) >> 1;
    }
    if u128::from(y) * u128::from(y) > u128::from(n) { y - 1 } else { y }
}

#[cfg(test)]
mod tests {
    use super::isqrt;
    use proptest::prelude::*;

    #[test]
    fn small_numbers_squares_and_their_neighbours_are_exact() {
        for n in 0..(1u64 << 20) {
            assert_eq!(isqrt(n), n.isqrt(), "{n}");
        }
        for k in 0..64 {
            let p = 1u64 << k;
            for n in [p - 1, p, p + 1] {
                assert_eq!(isqrt(n), n.isqrt(), "{n}");
            }
            let r = (1u64 << (k / 2)) + k as u64;
            for n in [r * r - 1, r * r, r * r + 1] {
                assert_eq!(isqrt(n), n.isqrt(), "{n}");
            }
            // Around the size where the third step begins, and squares there.
            let edge = (1u64 << 56) + (k as u64) * 0x1_0000_0001;
            let root = edge.isqrt();
            for n in [edge - 1, edge, edge + 1, root * root, root * root - 1, (root + 1) * (root + 1) - 1] {
                assert_eq!(isqrt(n), n.isqrt(), "{n}");
            }
        }
        let top = u32::MAX as u64;
        for n in [top * top - 1, top * top, top * top + 1, u64::MAX - 1, u64::MAX] {
            assert_eq!(isqrt(n), n.isqrt(), "{n}");
        }
    }

    #[test]
    fn the_table_estimate_is_above_the_root_by_at_most_one_part_in_79() {
        // The bound the fixed count of Newton steps rests on: for every top-bits value `m`
        // (64..256, the range an even shift of 8 or more leaves), the table's root is at least
        // the root of (m + 1)·2⁸ and at most 1/79 above the root of m·2⁸.
        for m in 64..256u64 {
            let above = super::ROOTS_ABOVE[m as usize] as u64;
            assert!(above * above >= (m + 1) << 8, "{m}");
            // above / √(256·m) ≤ 1 + 1/79, squared and cleared of roots.
            assert!(above * above * 79 * 79 <= 80 * 80 * (m << 8), "{m}");
        }
    }

    proptest! {
        #[test]
        fn it_is_the_standard_root(n in any::<u64>(), shift in 0u32..64) {
            prop_assert_eq!(isqrt(n), n.isqrt());
            prop_assert_eq!(isqrt(n >> shift), (n >> shift).isqrt());
        }
    }
}
