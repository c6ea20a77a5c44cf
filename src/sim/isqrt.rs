//! The integer square root the fixed-point root is built on: ⌊√n⌋ of a `u64`, exactly the
//! standard library's `u64::isqrt`, in about half its time.
//!
//! A table gives an estimate from above, good to about one part in 2⁸, from the top eight bits
//! of `n` (shifted by an even count); integer Newton steps from above then fall to the floor of
//! the root, and stop when a step no longer lowers it. Distances are taken every frame for
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
    // From above, integer Newton steps fall monotonically to ⌊√n⌋ and then stop falling.
    loop {
        let next = (y + n / y) >> 1;
        if next >= y {
            return y;
        }
        y = next;
    }
}

#[cfg(test)]
mod tests {
    use super::isqrt;
    use proptest::prelude::*;

    #[test]
    fn small_numbers_squares_and_their_neighbours_are_exact() {
        for n in 0..100_000u64 {
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
        }
        let top = u32::MAX as u64;
        for n in [top * top - 1, top * top, top * top + 1, u64::MAX - 1, u64::MAX] {
            assert_eq!(isqrt(n), n.isqrt(), "{n}");
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
